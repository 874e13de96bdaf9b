/**
 * A risk-coverage curve spec in money: cost against the share of decisions
 * served automatically, with each series' cheapest point marked.
 *
 * @module
 */

import type { VegaLiteSpec } from "../claims/analysis_result.ts";
import { VEGA_LITE_SCHEMA } from "./specs.ts";
import { type ColorBy, colorScale, withTheme } from "./theme.ts";

/** One point of a risk-coverage curve. */
export interface RiskCoveragePoint {
  /** Series name, for example a model or a policy. */
  readonly series: string;
  /** Share of decisions served automatically, in [0, 1]. */
  readonly coverage: number;
  /** Money: loss of the automatic errors plus reviews, per decision or in total. */
  readonly cost: number;
  /** Whether this point is the series' optimum (drawn as a dot). Default: `false`. */
  readonly optimal?: boolean;
}

/** Options for {@linkcode riskCoverageChart}. */
export interface RiskCoverageChartOptions {
  /** Chart title. */
  title: string;
  /** Axis title for cost. Default: `"cost per decision"`. */
  yTitle?: string;
  /** What the series are: `"model"` gives each model its pinned colour. Default: `"category"`. */
  colorBy?: ColorBy;
  /** Width in pixels. Default: 460. */
  width?: number;
  /** Height in pixels. Default: 280. */
  height?: number;
}

/**
 * A risk-coverage curve with money on the y axis.
 *
 * Coverage runs from 0 (everything escalated: n × review cost) to 1
 * (everything automatic: the loss of every error); each series is a line
 * through its exact points (coverage between two points is not reachable by
 * any threshold), and its optimum, the cheapest threshold, is a dot. Thin
 * the points before charting a million-decision run.
 *
 * @param points Curve points of every series, in coverage order.
 * @param options Title, y-axis title and size.
 * @returns A Vega-Lite spec with inline data.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { riskCoverageChart } from "./risk_coverage_curve.ts";
 * import { renderSvg } from "./render.ts";
 * import { readChartFonts } from "../read/chart_fonts.ts";
 *
 * const spec = riskCoverageChart([
 *   { series: "m", coverage: 0, cost: 1 },
 *   { series: "m", coverage: 0.8, cost: 0.3, optimal: true },
 *   { series: "m", coverage: 1, cost: 0.9 },
 * ], { title: "Risk-coverage in money" });
 * assert.match(await renderSvg(spec, readChartFonts()), /Risk-coverage in money/);
 * ```
 */
export function riskCoverageChart(
  points: readonly RiskCoveragePoint[],
  options: RiskCoverageChartOptions,
): VegaLiteSpec {
  const values = points.map((p) => ({ ...p, optimal: p.optimal ?? false }));
  const x = {
    field: "coverage",
    type: "quantitative",
    title: "coverage (share served automatically)",
    scale: { domain: [0, 1] },
  };
  const y = {
    field: "cost",
    type: "quantitative",
    title: options.yTitle ?? "cost per decision",
    scale: { zero: true },
  };
  const color = {
    field: "series",
    type: "nominal",
    title: "series",
    scale: colorScale(points.map((p) => p.series), options.colorBy),
  };
  return withTheme({
    $schema: VEGA_LITE_SCHEMA,
    title: options.title,
    width: options.width ?? 460,
    height: options.height ?? 280,
    data: { values },
    layer: [
      {
        mark: { type: "line", interpolate: "linear" },
        encoding: {
          x,
          y,
          color,
          order: { field: "coverage", type: "quantitative" },
          tooltip: [
            { field: "series", type: "nominal" },
            { field: "coverage", type: "quantitative", format: ".4f" },
            { field: "cost", type: "quantitative", format: ",.6~g" },
          ],
        },
      },
      {
        transform: [{ filter: "datum.optimal" }],
        mark: { type: "point", filled: true, size: 70 },
        encoding: { x, y, color },
      },
    ],
  });
}
