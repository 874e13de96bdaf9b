/**
 * Vega-Lite spec builders: small functions that return plain JSON specs.
 *
 * @module
 */

import type { VegaLiteSpec } from "../claims/analysis_result.ts";

/** The Vega-Lite schema every spec pins. */
export const VEGA_LITE_SCHEMA =
  "https://vega.github.io/schema/vega-lite/v6.json";

/** Options for {@linkcode groupedBarChart}. */
export interface GroupedBarOptions {
  /** Field on the x axis (the groups). */
  x: string;
  /** Field grouped within each x (one bar each, coloured). */
  group: string;
  /** Quantitative field on the y axis. */
  y: string;
  /** Chart title. */
  title: string;
  /** Axis title for x. Default: the field name. */
  xTitle?: string;
  /** Axis title for y. Default: the field name. */
  yTitle?: string;
  /** Legend title for the groups. Default: the field name. */
  groupTitle?: string;
  /** Order of the x categories. Default: order of first appearance. */
  xOrder?: readonly string[];
  /** Scale of the y axis. Default: `"linear"`. */
  yScale?: "linear" | "log";
  /** Number format of the bar labels (d3-format). Default: `",.6~r"` (six significant digits, no exponent). */
  labelFormat?: string;
  /** Width of the plot in pixels. Default: 420. */
  width?: number;
  /** Height of the plot in pixels. Default: 260. */
  height?: number;
}

/**
 * A grouped bar chart with value labels on each bar.
 *
 * Rows with a `null` y are kept in the data but draw no bar and carry the
 * label "n/a", so a missing value is visible rather than drawn as 0.
 *
 * @param values The data rows.
 * @param options Fields, titles and scale.
 * @returns A Vega-Lite spec with inline data.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { groupedBarChart, VEGA_LITE_SCHEMA } from "./specs.ts";
 *
 * const spec = groupedBarChart(
 *   [{ severity: "HIGH", model: "A", errors: 10 }, { severity: "HIGH", model: "B", errors: 2 }],
 *   { x: "severity", group: "model", y: "errors", title: "Errors" },
 * );
 * assert.equal(spec.$schema, VEGA_LITE_SCHEMA);
 * ```
 */
export function groupedBarChart(
  values: readonly Record<string, unknown>[],
  options: GroupedBarOptions,
): VegaLiteSpec {
  const xOrder = options.xOrder ??
    [...new Set(values.map((v) => String(v[options.x])))];
  const yScale = options.yScale ?? "linear";
  const fmt = options.labelFormat ?? ",.6~r";
  const label = "_label";
  const labelY = "_labelY";
  // A null value draws no bar; its "n/a" label sits at the baseline: 0 on a
  // linear axis, the smallest value shown on a log axis.
  const positives = values.map((v) => v[options.y]).filter((v): v is number =>
    typeof v === "number" && v > 0
  );
  const baseline = yScale === "log"
    ? (positives.length > 0 ? Math.min(...positives) : 1)
    : 0;
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title,
    width: options.width ?? 420,
    height: options.height ?? 260,
    data: { values: values.map((v) => ({ ...v })) },
    transform: [{
      calculate:
        `datum['${options.y}'] == null ? 'n/a' : format(datum['${options.y}'], '${fmt}')`,
      as: label,
    }, {
      calculate:
        `datum['${options.y}'] == null ? ${baseline} : datum['${options.y}']`,
      as: labelY,
    }],
    encoding: {
      x: {
        field: options.x,
        type: "nominal",
        sort: [...xOrder],
        title: options.xTitle ?? options.x,
        axis: { labelAngle: 0 },
      },
      xOffset: { field: options.group, type: "nominal" },
      color: {
        field: options.group,
        type: "nominal",
        title: options.groupTitle ?? options.group,
        scale: { scheme: "tableau10" },
        legend: { labelLimit: 400, orient: "bottom", direction: "vertical" },
      },
    },
    layer: [
      {
        mark: { type: "bar" },
        encoding: {
          y: {
            field: options.y,
            type: "quantitative",
            title: options.yTitle ?? options.y,
            stack: null,
            scale: yScale === "log" ? { type: "log" } : { zero: true },
          },
          tooltip: [
            { field: options.x, type: "nominal" },
            { field: options.group, type: "nominal" },
            {
              field: label,
              type: "nominal",
              title: options.yTitle ?? options.y,
            },
          ],
        },
      },
      {
        mark: { type: "text", dy: -6, fontSize: 10 },
        encoding: {
          y: {
            field: labelY,
            type: "quantitative",
            stack: null,
            scale: yScale === "log" ? { type: "log" } : { zero: true },
          },
          text: { field: label, type: "nominal" },
        },
      },
    ],
  };
}
