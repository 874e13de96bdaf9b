/**
 * A multi-series line chart spec, with optional vertical markers.
 *
 * @module
 */

import type { VegaLiteSpec } from "../claims/analysis_result.ts";
import { estimateTextWidth, VEGA_LITE_SCHEMA } from "./specs.ts";
import { type ColorBy, colorScale, withTheme } from "./theme.ts";

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
  /** What the series are: `"model"` gives each model its pinned colour. Default: `"category"`. */
  colorBy?: ColorBy;
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
 * A series with exactly the points of an earlier one is drawn dashed over
 * it, so that neither hides the other.
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
 * import { readChartFonts } from "../read/chart_fonts.ts";
 *
 * const values = [1, 10, 100].flatMap((r) => [
 *   { r, model: "A", loss: 20 + 400 * r },
 *   { r, model: "B", loss: 600 + 300 * r },
 * ]);
 * const spec = lineChart(values, {
 *   x: "r", y: "loss", group: "model", title: "Loss along r", xScale: "log", yScale: "log",
 *   markers: [{ x: 5.8, label: "A × B at 5.8" }],
 * });
 * assert.match(await renderSvg(spec, readChartFonts()), /A × B at 5\.8/);
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
          scale: colorScale(
            values.map((v) => v[options.group as string]),
            options.colorBy,
          ),
        },
        ...coincidentDashes(values, options),
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
    const width = options.width ?? 460;
    const placed = placeMarkerLabels(
      markers,
      values.map((v) => v[options.x]).filter((v): v is number =>
        typeof v === "number" && Number.isFinite(v)
      ),
      width,
      options.xScale === "log",
    );
    const data = { values: placed };
    const text = (align: "left" | "right", halo: boolean) => ({
      data: { values: placed.filter((m) => m._align === align) },
      mark: {
        type: "text",
        align,
        baseline: "middle",
        dx: align === "left" ? 4 : -4,
        fontSize: 10,
        ...(halo
          ? { stroke: "white", strokeWidth: 4, strokeJoin: "round" }
          : { color: "#333" }),
      },
      encoding: {
        x: { field: "x", type: "quantitative", scale: xScale },
        // rows above the plot (row 0 nearest), so labels never cover data
        y: { value: { expr: "-9 - 14 * datum._row" } },
        text: { field: "label", type: "nominal" },
      },
    });
    layers.push({
      data,
      mark: { type: "rule", strokeDash: [4, 3], color: "#555" },
      encoding: { x: { field: "x", type: "quantitative", scale: xScale } },
    });
    for (const align of ["left", "right"] as const) {
      if (placed.some((m) => m._align === align)) {
        layers.push(text(align, true), text(align, false));
      }
    }
  }
  return withTheme({
    $schema: VEGA_LITE_SCHEMA,
    title: options.title,
    width: options.width ?? 460,
    height: options.height ?? 280,
    data: { values: values.map((v) => ({ ...v })) },
    layer: layers,
  });
}

/**
 * Rows and sides for marker labels: a label runs right of its rule, or left
 * of it in the right third of the plot, and takes the first row where it
 * overlaps no label already placed; rows sit above the plot, so labels never
 * cover data, and carry a white halo where they cross a rule.
 */
function placeMarkerLabels(
  markers: readonly LineMarker[],
  xs: readonly number[],
  width: number,
  log: boolean,
): (LineMarker & { _row: number; _align: "left" | "right" })[] {
  const t = (x: number) => (log ? Math.log10(Math.max(x, 1e-300)) : x);
  const all = [...xs, ...markers.map((m) => m.x)].map(t);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const px = (x: number) => hi > lo ? ((t(x) - lo) / (hi - lo)) * width : 0;
  const rows: [number, number][][] = [];
  const order = markers.map((_, i) => i).sort((a, b) =>
    markers[a].x - markers[b].x
  );
  const out = markers.map((m) => ({
    ...m,
    _row: 0,
    _align: "left" as "left" | "right",
  }));
  for (const i of order) {
    const m = markers[i];
    const at = px(m.x);
    const w = estimateTextWidth(m.label, 10) + 8;
    const align = at > (2 / 3) * width ? "right" : "left";
    const span: [number, number] = align === "left"
      ? [at, at + w]
      : [at - w, at];
    let row = 0;
    while (
      (rows[row] ?? []).some(([a, b]) => span[0] < b && a < span[1])
    ) row++;
    (rows[row] ??= []).push(span);
    out[i]._row = row;
    out[i]._align = align;
  }
  return out;
}

/**
 * A `strokeDash` encoding when some series coincide point for point: the
 * first of each coinciding set stays solid, the others are dashed (longer
 * gaps for each further one), so every series stays visible. Empty when no
 * two series coincide.
 */
function coincidentDashes(
  values: readonly Record<string, unknown>[],
  options: LineChartOptions,
): Record<string, unknown> {
  const group = options.group as string;
  const points = new Map<string, string[]>();
  for (const v of values) {
    const key = String(v[group]);
    (points.get(key) ?? points.set(key, []).get(key)!).push(
      JSON.stringify([v[options.x], v[options.y]]),
    );
  }
  const seen = new Map<string, number>();
  const dash = new Map<string, number[]>();
  for (const [series, pts] of points) {
    const key = pts.sort().join("|");
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    dash.set(series, k === 0 ? [1, 0] : [6, 4 + 4 * k]);
  }
  if ([...seen.values()].every((k) => k === 1)) return {};
  const domain = [...dash.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    strokeDash: {
      field: group,
      type: "nominal",
      scale: { domain, range: domain.map((d) => dash.get(d)) },
      // The same title as the colour channel, so Vega-Lite merges the two
      // into one legend that shows each series' colour and dash.
      title: options.groupTitle ?? group,
    },
  };
}
