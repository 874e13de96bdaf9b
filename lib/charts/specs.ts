/**
 * Vega-Lite spec builders: small functions that return plain JSON specs.
 *
 * @module
 */

import type { VegaLiteSpec } from "../claims/analysis_result.ts";
import { type ColorBy, colorScale, withTheme } from "./theme.ts";

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
  /** The y values are counts: integer ticks only (`tickMinStep: 1`, format `",d"`). Default: `false`. */
  yCounts?: boolean;
  /** What the groups are: `"model"` gives each model its pinned colour ({@linkcode modelColorScale}). Default: `"category"`. */
  colorBy?: ColorBy;
  /** Width of the plot in pixels; widened so that each bar is at least 13 px. Default: 420. */
  width?: number;
  /** Height of the plot in pixels. Default: 260. */
  height?: number;
}

/**
 * Pixel width of a text in the chart font, estimated from DejaVu Sans's
 * typical advances (digits 0.64 em, lower case 0.56, upper case 0.7, spaces
 * and punctuation 0.33); used to decide where labels go so they do not
 * collide.
 *
 * @param text The text.
 * @param fontSize Font size in pixels.
 * @returns Estimated width in pixels, rounded up.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { estimateTextWidth } from "./specs.ts";
 *
 * assert.equal(estimateTextWidth("0.0123", 10), 36);
 * ```
 */
export function estimateTextWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const ch of text) {
    em += /[0-9]/.test(ch)
      ? 0.64
      : /[a-z]/.test(ch)
      ? 0.56
      : /[A-Z]/.test(ch)
      ? 0.7
      : /[\s.,:;'|!()\[\]]/.test(ch)
      ? 0.33
      : 0.6;
  }
  return Math.ceil(em * fontSize);
}

/** The label a bar of `,.6~r`-like formats shows, for estimating its width. */
function approximateLabel(v: unknown): string {
  if (typeof v !== "number") return "n/a";
  const plain = Number(v.toPrecision(6)).toString();
  const [int, frac] = plain.split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** Smallest bar width before a grouped bar chart widens. */
const MIN_BAR_STEP = 13;

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
  const groups = [...new Set(values.map((v) => String(v[options.group])))];
  const height = options.height ?? 260;
  const width = Math.max(
    options.width ?? 420,
    MIN_BAR_STEP * xOrder.length * groups.length,
  );
  // Value labels: horizontal when they fit over their bar, else turned to
  // read upwards, so neighbouring labels never run into each other.
  const barStep = width / Math.max(1, xOrder.length * groups.length);
  const labelFontSize = barStep < 16 ? 9 : 10;
  const longestLabel = Math.max(
    ...values.map((v) =>
      estimateTextWidth(approximateLabel(v[options.y]), labelFontSize)
    ),
  );
  const vertical = longestLabel > barStep - 2;
  // A null value draws no bar; its "n/a" label sits at the baseline: 0 on a
  // linear axis, the smallest value shown on a log axis.
  const positives = values.map((v) => v[options.y]).filter((v): v is number =>
    typeof v === "number" && v > 0
  );
  const baseline = yScale === "log"
    ? (positives.length > 0 ? Math.min(...positives) : 1)
    : 0;
  // Headroom above the tallest bar for its label.
  const labelRoom = (vertical ? longestLabel : labelFontSize) + 6;
  const top = positives.length > 0 ? Math.max(...positives) : null;
  const share = Math.min(0.6, labelRoom / height);
  const domainMax = top === null ? undefined : yScale === "log"
    ? 10 **
      (Math.log10(top) +
        (Math.log10(top) - Math.log10(Math.min(baseline, top) / 1.5)) *
          share / (1 - share))
    : top / (1 - share);
  const scale = yScale === "log"
    ? { type: "log", ...(domainMax === undefined ? {} : { domainMax }) }
    : { zero: true, ...(domainMax === undefined ? {} : { domainMax }) };
  // Category labels: horizontal when they fit their band, else slanted.
  const band = width / Math.max(1, xOrder.length);
  const longestCategory = Math.max(
    ...xOrder.map((c) => estimateTextWidth(c, 11)),
  );
  const xAxis = longestCategory > band - 4
    ? { labelAngle: -40, labelAlign: "right", labelBaseline: "top" }
    : { labelAngle: 0 };
  const yAxis = options.yCounts === true
    ? { tickMinStep: 1, format: ",d" }
    : {};
  return withTheme({
    $schema: VEGA_LITE_SCHEMA,
    title: options.title,
    width,
    height,
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
        axis: xAxis,
      },
      xOffset: { field: options.group, type: "nominal" },
      color: {
        field: options.group,
        type: "nominal",
        title: options.groupTitle ?? options.group,
        scale: colorScale(groups, options.colorBy),
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
            scale,
            axis: yAxis,
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
        mark: vertical
          ? {
            type: "text",
            angle: 270,
            align: "left",
            baseline: "middle",
            dx: 4,
            fontSize: labelFontSize,
          }
          : { type: "text", dy: -6, fontSize: labelFontSize },
        encoding: {
          y: {
            field: labelY,
            type: "quantitative",
            stack: null,
            scale,
          },
          text: { field: label, type: "nominal" },
        },
      },
    ],
  });
}
