/**
 * A multi-series line chart spec, with optional vertical markers.
 *
 * @module
 */

import type { VegaLiteSpec } from "../claims/analysis_result.ts";
import { VEGA_LITE_SCHEMA } from "./specs.ts";

/** A vertical marker: a rule at x with a label. */
export interface LineMarker {
  /** Position on the x axis. */
  readonly x: number;
  /** Text shown next to the rule. */
  readonly label: string;
}

/** Options for {@linkcode lineChart}. */
export interface LineChartOptions {
  /** Quantitative field on the x axis. */
  x: string;
  /** Quantitative field on the y axis; `null` values break the line. */
  y: string;
  /** Field naming the series (one line and colour each). Default: none, one line. */
  group?: string;
  /** Chart title. */
  title: string;
  /** Axis title for x. Default: the field name. */
  xTitle?: string;
  /** Axis title for y. Default: the field name. */
  yTitle?: string;
  /** Legend title. Default: the group field name. */
  groupTitle?: string;
  /** Scale of the x axis. Default: `"linear"`. */
  xScale?: "linear" | "log";
  /** Scale of the y axis. Default: `"linear"`. */
  yScale?: "linear" | "log";
  /** Fixed y domain, for example `[-1, 1]` for a correlation. Default: from the data. */
  yDomain?: readonly [number, number];
  /** Vertical markers, for example crossovers. Default: none. */
  markers?: readonly LineMarker[];
  /** Draw a point at each value. Default: `false`. */
  points?: boolean;
  /** Width of the plot in pixels. Default: 460. */
  width?: number;
  /** Height of the plot in pixels. Default: 280. */
  height?: number;
}

/**
 * A line chart of one or more series, on linear or log axes, with optional
 * labelled vertical rules (crossovers, thresholds).
 *
 * Rows whose y is `null` are kept in the data and break the line there, so
 * an undefined value (a Kendall tau over all-tied ranks) is a gap, not a 0.
 *
 * @param values The data rows.
 * @param options Fields, titles, scales and markers.
 * @returns A Vega-Lite spec with inline data.
 *
 * @example Loss per model along a family, with the crossover marked
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineChart } from "./line_chart.ts";
 * import { renderSvg } from "./render.ts";
 *
 * const values = [1, 10, 100].flatMap((r) => [
 *   { r, model: "A", loss: 20 + 400 * r },
 *   { r, model: "B", loss: 600 + 300 * r },
 * ]);
 * const spec = lineChart(values, {
 *   x: "r", y: "loss", group: "model", title: "Loss along r", xScale: "log", yScale: "log",
 *   markers: [{ x: 5.8, label: "A × B at 5.8" }],
 * });
 * assert.match(await renderSvg(spec), /A × B at 5\.8/);
 * ```
 */
export function lineChart(
  values: readonly Record<string, unknown>[],
  options: LineChartOptions,
): VegaLiteSpec {
  const xScale = options.xScale === "log" ? { type: "log" } : { zero: false };
  const yScale = options.yScale === "log"
    ? { type: "log" }
    : options.yDomain === undefined
    ? { zero: false }
    : { domain: [...options.yDomain] };
  const x = {
    field: options.x,
    type: "quantitative",
    title: options.xTitle ?? options.x,
    scale: xScale,
  };
  const line: Record<string, unknown> = {
    mark: {
      type: "line",
      point: options.points ?? false,
      interpolate: "linear",
    },
    encoding: {
      x,
      y: {
        field: options.y,
        type: "quantitative",
        title: options.yTitle ?? options.y,
        scale: yScale,
      },
      ...(options.group === undefined ? {} : {
        color: {
          field: options.group,
          type: "nominal",
          title: options.groupTitle ?? options.group,
          scale: { scheme: "tableau10" },
          legend: { labelLimit: 400, orient: "bottom", direction: "vertical" },
        },
      }),
      tooltip: [
        ...(options.group === undefined
          ? []
          : [{ field: options.group, type: "nominal" }]),
        { field: options.x, type: "quantitative", format: ",.6~g" },
        { field: options.y, type: "quantitative", format: ",.6~g" },
      ],
    },
  };
  const layers: Record<string, unknown>[] = [line];
  const markers = options.markers ?? [];
  if (markers.length > 0) {
    const data = { values: markers.map((m, i) => ({ ...m, _row: i })) };
    layers.push(
      {
        data,
        mark: { type: "rule", strokeDash: [4, 3], color: "#555" },
        encoding: { x: { field: "x", type: "quantitative", scale: xScale } },
      },
      {
        data,
        mark: {
          type: "text",
          align: "left",
          dx: 3,
          fontSize: 10,
          color: "#333",
        },
        encoding: {
          x: { field: "x", type: "quantitative", scale: xScale },
          y: { value: { expr: "10 + 12 * datum._row" } },
          text: { field: "label", type: "nominal" },
        },
      },
    );
  }
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title,
    width: options.width ?? 460,
    height: options.height ?? 280,
    data: { values: values.map((v) => ({ ...v })) },
    layer: layers,
  };
}
