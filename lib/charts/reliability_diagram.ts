/**
 * A reliability diagram spec: accuracy against stated confidence per bin,
 * the diagonal of perfect calibration, and the bin counts underneath.
 *
 * @module
 */

import type { VegaLiteSpec } from "../claims/analysis_result.ts";
import { VEGA_LITE_SCHEMA } from "./specs.ts";
import { type ColorBy, colorScale, withTheme } from "./theme.ts";

/** One bin of one series, as a reliability diagram reads it. */
export interface ReliabilityPoint {
  /** Series name, for example a model or a recalibration method. */
  readonly series: string;
  /** Lower bin edge. */
  readonly lo: number;
  /** Upper bin edge. */
  readonly hi: number;
  /** Decisions in the bin. */
  readonly n: number;
  /** Mean stated confidence; `null` for an empty bin (not drawn). */
  readonly meanConfidence: number | null;
  /** Observed accuracy; `null` for an empty bin (not drawn). */
  readonly accuracy: number | null;
}

/** Options for {@linkcode reliabilityDiagramChart}. */
export interface ReliabilityChartOptions {
  /** Chart title. */
  title: string;
  /** Axis title for confidence. Default: `"stated P(correct)"`. */
  xTitle?: string;
  /** Axis title for accuracy. Default: `"observed accuracy"`. */
  yTitle?: string;
  /** What the series are: `"model"` gives each model its pinned colour. Default: `"category"`. */
  colorBy?: ColorBy;
  /** Width in pixels. Default: 420. */
  width?: number;
  /** Height of the diagram in pixels; each series' count panel is a sixth of it. Default: 300. */
  height?: number;
}

/**
 * A reliability diagram with the bin counts visible.
 *
 * The top panel plots each non-empty bin's observed accuracy against its
 * mean stated confidence, one line per series, over the dashed diagonal of
 * perfect calibration; points below the diagonal are over-confident. Under
 * it, one small histogram per series (faceted, not overlaid, on a shared
 * count axis) draws each bin's count over its [lo, hi] span, so a bin of
 * five decisions cannot pass for a bin of five thousand, and equal-mass bins
 * show their uneven widths. Empty bins draw nothing.
 *
 * @param points Bins of every series.
 * @param options Title, axis titles and size.
 * @returns A Vega-Lite spec with inline data (a vertical concatenation).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reliabilityDiagramChart } from "./reliability_diagram.ts";
 * import { renderSvg } from "./render.ts";
 * import { readChartFonts } from "../read/chart_fonts.ts";
 *
 * const spec = reliabilityDiagramChart([
 *   { series: "m", lo: 0.8, hi: 0.9, n: 40, meanConfidence: 0.86, accuracy: 0.7 },
 *   { series: "m", lo: 0.9, hi: 1, n: 60, meanConfidence: 0.95, accuracy: 0.8 },
 *   { series: "m", lo: 0.7, hi: 0.8, n: 0, meanConfidence: null, accuracy: null },
 * ], { title: "Reliability" });
 * assert.match(await renderSvg(spec, readChartFonts()), /Reliability/);
 * ```
 */
export function reliabilityDiagramChart(
  points: readonly ReliabilityPoint[],
  options: ReliabilityChartOptions,
): VegaLiteSpec {
  const width = options.width ?? 420;
  const height = options.height ?? 300;
  const values = points.map((p) => ({ ...p }));
  const color = {
    field: "series",
    type: "nominal",
    title: "series",
    scale: colorScale(points.map((p) => p.series), options.colorBy),
  };
  const unit = { domain: [0, 1] };
  return withTheme({
    $schema: VEGA_LITE_SCHEMA,
    title: options.title,
    data: { values },
    vconcat: [
      {
        width,
        height,
        layer: [
          {
            data: { values: [{ x: 0, y: 0 }, { x: 1, y: 1 }] },
            mark: { type: "line", strokeDash: [4, 3], color: "#888" },
            encoding: {
              x: { field: "x", type: "quantitative", scale: unit },
              y: { field: "y", type: "quantitative", scale: unit },
            },
          },
          {
            transform: [{ filter: "datum.n > 0" }],
            mark: { type: "line", point: true },
            encoding: {
              x: {
                field: "meanConfidence",
                type: "quantitative",
                title: options.xTitle ?? "stated P(correct)",
                scale: unit,
              },
              y: {
                field: "accuracy",
                type: "quantitative",
                title: options.yTitle ?? "observed accuracy",
                scale: unit,
              },
              color,
              order: { field: "meanConfidence", type: "quantitative" },
              tooltip: [
                { field: "series", type: "nominal" },
                { field: "lo", type: "quantitative", format: ".4~f" },
                { field: "hi", type: "quantitative", format: ".4~f" },
                { field: "n", type: "quantitative", format: "," },
                {
                  field: "meanConfidence",
                  type: "quantitative",
                  format: ".4f",
                },
                { field: "accuracy", type: "quantitative", format: ".4f" },
              ],
            },
          },
        ],
      },
      {
        transform: [{ filter: "datum.n > 0" }],
        facet: {
          row: {
            field: "series",
            type: "nominal",
            title: null,
            header: {
              labelAngle: 0,
              labelAlign: "left",
              labelOrient: "top",
              labelAnchor: "start",
              labelPadding: 2,
            },
          },
        },
        spacing: 6,
        spec: {
          width,
          height: Math.max(40, Math.round(height / 6)),
          mark: { type: "rect", stroke: "white", strokeWidth: 0.5 },
          encoding: {
            x: {
              field: "lo",
              type: "quantitative",
              title: "bin (its decisions)",
              scale: unit,
            },
            x2: { field: "hi" },
            y: {
              field: "n",
              type: "quantitative",
              title: "decisions",
              stack: null,
              axis: { tickMinStep: 1, format: ",d", tickCount: 2 },
            },
            y2: { datum: 0 },
            color,
            tooltip: [
              { field: "series", type: "nominal" },
              { field: "n", type: "quantitative", format: "," },
            ],
          },
        },
      },
    ],
  });
}
