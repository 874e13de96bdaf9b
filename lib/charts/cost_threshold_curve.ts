/**
 * A cost-against-threshold curve spec: a policy's expected cost as its
 * threshold moves, the always-auto cost as a flat line, and labelled
 * points (the operating point, the crossing).
 *
 * @module
 */

import type { VegaLiteSpec } from "../claims/analysis_result.ts";
import { VEGA_LITE_SCHEMA } from "./specs.ts";
import { type ColorBy, colorScale, withTheme } from "./theme.ts";

/** A labelled point on the curve. */
export interface CurveMark {
  /** Threshold. */
  readonly x: number;
  /** Cost there. */
  readonly y: number;
  /** Label, for example `"operating point"`. */
  readonly label: string;
}

/** Options for {@linkcode costThresholdChart}. */
export interface CostThresholdOptions {
  /** Field holding the threshold. */
  x: string;
  /** Field holding the cost. */
  y: string;
  /** Field naming the series. Default: none, one curve. */
  series?: string;
  /** Chart title. */
  title: string;
  /** Axis title for the threshold. Default: the field name. */
  xTitle?: string;
  /** Axis title for the cost. Default: the field name. */
  yTitle?: string;
  /** Scale of the threshold axis. Default: `"linear"`. */
  xScale?: "linear" | "log";
  /** A flat reference line, for example always-auto, with its label. Default: none. */
  flat?: { readonly y: number; readonly label: string };
  /** Labelled points. Default: none. */
  marks?: readonly CurveMark[];
  /** What the series are: `"model"` gives each model its pinned colour. Default: `"category"`. */
  colorBy?: ColorBy;
  /** Width in pixels. Default: 460. */
  width?: number;
  /** Height in pixels. Default: 280. */
  height?: number;
}

/**
 * Expected cost against a threshold, with the flat baseline and the points
 * that matter.
 *
 * Draws the curve as a step line (a threshold policy changes only where a
 * decision crosses it), a dashed horizontal rule for the baseline policy
 * (always-auto in the Veto Frontier's figure, labelled at its right end over
 * a white halo) and one symbol per mark (the operating point at the
 * minimum, the crossing where r(c) passes p*), named in a legend under the
 * plot rather than beside the points, so that marks close together never
 * overlap their labels. Also fits cost against K for two policies, with the
 * crossover as a mark.
 *
 * @param values Curve rows.
 * @param options Fields, titles, baseline and marks.
 * @returns A Vega-Lite spec with inline data.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { costThresholdChart } from "./cost_threshold_curve.ts";
 * import { renderSvg } from "./render.ts";
 * import { readChartFonts } from "../read/chart_fonts.ts";
 *
 * const spec = costThresholdChart(
 *   [{ c: 0, cost: 0.1 }, { c: 0.001, cost: 0.06 }, { c: 0.002, cost: 0.12 }],
 *   {
 *     x: "c", y: "cost", title: "Cost against threshold",
 *     flat: { y: 0.1, label: "always auto" },
 *     marks: [{ x: 0.001, y: 0.06, label: "operating point" }],
 *   },
 * );
 * assert.match(await renderSvg(spec, readChartFonts()), /operating point/);
 * ```
 */
export function costThresholdChart(
  values: readonly Record<string, unknown>[],
  options: CostThresholdOptions,
): VegaLiteSpec {
  const xScale = options.xScale === "log" ? { type: "log" } : { zero: false };
  const x = {
    field: options.x,
    type: "quantitative",
    title: options.xTitle ?? options.x,
    scale: xScale,
  };
  const y = {
    field: options.y,
    type: "quantitative",
    title: options.yTitle ?? options.y,
    scale: { zero: true },
  };
  const layers: Record<string, unknown>[] = [{
    mark: { type: "line", interpolate: "step-after" },
    encoding: {
      x,
      y,
      ...(options.series === undefined ? {} : {
        color: {
          field: options.series,
          type: "nominal",
          title: options.series,
          scale: colorScale(
            values.map((v) => v[options.series as string]),
            options.colorBy,
          ),
        },
      }),
      tooltip: [
        ...(options.series === undefined
          ? []
          : [{ field: options.series, type: "nominal" }]),
        { field: options.x, type: "quantitative", format: ",.6~g" },
        { field: options.y, type: "quantitative", format: ",.6~g" },
      ],
    },
  }];
  if (options.flat !== undefined) {
    const data = {
      values: [{ _y: options.flat.y, _label: options.flat.label }],
    };
    layers.push(
      {
        data,
        mark: { type: "rule", strokeDash: [5, 4], color: "#666" },
        encoding: { y: { field: "_y", type: "quantitative" } },
      },
      ...[true, false].map((halo) => ({
        data,
        mark: {
          type: "text",
          align: "right",
          dy: -7,
          fontSize: 10,
          ...(halo
            ? { stroke: "white", strokeWidth: 4, strokeJoin: "round" }
            : { color: "#444" }),
        },
        encoding: {
          x: { value: options.width ?? 460 },
          y: { field: "_y", type: "quantitative" },
          text: { field: "_label", type: "nominal" },
        },
      })),
    );
  }
  const marks = options.marks ?? [];
  if (marks.length > 0) {
    const labels = marks.map((m) => m.label);
    layers.push({
      data: {
        values: marks.map((m) => ({
          [options.x]: m.x,
          [options.y]: m.y,
          _mark: m.label,
        })),
      },
      mark: {
        type: "point",
        filled: true,
        size: 80,
        opacity: 0.9,
        stroke: "white",
        strokeWidth: 1,
      },
      encoding: {
        x,
        y,
        shape: {
          field: "_mark",
          type: "nominal",
          title: null,
          sort: labels,
          scale: {
            domain: labels,
            range: labels.map((_, i) => MARK_SHAPES[i % MARK_SHAPES.length]),
          },
        },
        fill: {
          field: "_mark",
          type: "nominal",
          title: null,
          sort: labels,
          scale: {
            domain: labels,
            range: labels.map((_, i) => MARK_COLORS[i % MARK_COLORS.length]),
          },
        },
        tooltip: [
          { field: "_mark", type: "nominal", title: "mark" },
          { field: options.x, type: "quantitative", format: ",.6~g" },
          { field: options.y, type: "quantitative", format: ",.6~g" },
        ],
      },
    });
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

/** Symbols of the labelled marks, in mark order. */
const MARK_SHAPES = ["circle", "diamond", "square", "triangle-up", "cross"];
/** Colours of the labelled marks: dark tones apart from the series palette. */
const MARK_COLORS = ["#b2182b", "#2d004b", "#1b7837", "#8c510a", "#01665e"];
