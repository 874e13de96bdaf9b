/**
 * A categorical heatmap spec: one coloured cell per (x, y), for maps such as
 * which model wins where.
 *
 * @module
 */

import type { VegaLiteSpec } from "../claims/analysis_result.ts";
import { VEGA_LITE_SCHEMA } from "./specs.ts";
import { type ColorBy, colorScale, withTheme } from "./theme.ts";

/** Options for {@linkcode heatmapChart}. */
export interface HeatmapOptions {
  /** Field on the x axis (ordinal). */
  x: string;
  /** Field on the y axis (ordinal). */
  y: string;
  /** Nominal field that colours each cell. */
  color: string;
  /** Chart title. */
  title: string;
  /** Axis title for x. Default: the field name. */
  xTitle?: string;
  /** Axis title for y. Default: the field name. */
  yTitle?: string;
  /** Legend title. Default: the colour field name. */
  colorTitle?: string;
  /** Order of the x values, left to right. Default: order of first appearance. */
  xOrder?: readonly (string | number)[];
  /** Order of the y values, bottom to top. Default: order of first appearance. */
  yOrder?: readonly (string | number)[];
  /** Extra fields shown in the tooltip. Default: none. */
  tooltip?: readonly string[];
  /** What the colour values are: `"model"` gives each model its pinned colour. Default: `"category"`. */
  colorBy?: ColorBy;
  /** Width of the plot in pixels. Default: 460. */
  width?: number;
  /** Height of the plot in pixels. Default: 300. */
  height?: number;
}

/**
 * A heatmap of a nominal value over two ordinal axes: a region map.
 *
 * Both axes are ordinal, in the order given, so log-spaced grid values sit
 * evenly; label them with short numbers. The y axis runs bottom to top.
 *
 * @param values The data rows, one per cell.
 * @param options Fields, titles and orders.
 * @returns A Vega-Lite spec with inline data.
 *
 * @example Which model wins where
 * ```ts
 * import assert from "node:assert/strict";
 * import { heatmapChart } from "./heatmap_chart.ts";
 * import { renderSvg } from "./render.ts";
 * import { readChartFonts } from "../read/chart_fonts.ts";
 *
 * const spec = heatmapChart(
 *   [{ hi: "1", crit: "1", winner: "A" }, { hi: "10", crit: "1", winner: "B" }],
 *   { x: "hi", y: "crit", color: "winner", title: "Win regions" },
 * );
 * assert.match(await renderSvg(spec, readChartFonts()), /Win regions/);
 * ```
 */
export function heatmapChart(
  values: readonly Record<string, unknown>[],
  options: HeatmapOptions,
): VegaLiteSpec {
  const order = (field: string, given?: readonly (string | number)[]) =>
    given === undefined
      ? [...new Set(values.map((v) => v[field] as string | number))]
      : [...given];
  return withTheme({
    $schema: VEGA_LITE_SCHEMA,
    title: options.title,
    width: options.width ?? 460,
    height: options.height ?? 300,
    data: { values: values.map((v) => ({ ...v })) },
    mark: { type: "rect" },
    encoding: {
      x: {
        field: options.x,
        type: "ordinal",
        sort: order(options.x, options.xOrder),
        title: options.xTitle ?? options.x,
        axis: { labelAngle: -45 },
      },
      y: {
        field: options.y,
        type: "ordinal",
        sort: order(options.y, options.yOrder).reverse(),
        title: options.yTitle ?? options.y,
      },
      color: {
        field: options.color,
        type: "nominal",
        title: options.colorTitle ?? options.color,
        scale: colorScale(
          values.map((v) => v[options.color]),
          options.colorBy,
        ),
      },
      tooltip: [
        { field: options.x, type: "ordinal" },
        { field: options.y, type: "ordinal" },
        { field: options.color, type: "nominal" },
        ...(options.tooltip ?? []).map((f) => ({ field: f, type: "nominal" })),
      ],
    },
  });
}
