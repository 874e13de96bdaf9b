/**
 * Charts: Vega-Lite spec builders and headless SVG/PNG rendering.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { groupedBarChart, renderSvg } from "./mod.ts";
 * import { readChartFonts } from "../read/chart_fonts.ts";
 *
 * const spec = groupedBarChart(
 *   [{ profile: "flat", model: "A", loss: 16 }, { profile: "flat", model: "B", loss: 62 }],
 *   { x: "profile", group: "model", y: "loss", title: "Loss" },
 * );
 * assert.match(await renderSvg(spec, readChartFonts()), /<svg/);
 * ```
 *
 * @module
 */

export * from "./specs.ts";
export * from "./render.ts";
export * from "./theme.ts";
export * from "./line_chart.ts";
export * from "./heatmap_chart.ts";
export * from "./reliability_diagram.ts";
export * from "./risk_coverage_curve.ts";
export * from "./cost_threshold_curve.ts";
export * from "./loss_interval_chart.ts";
