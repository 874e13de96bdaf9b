/**
 * The chart theme: one Vega-Lite `config` (font, sizes, guides, palette)
 * shared by every chart the project draws, in the report, the notebooks and
 * `out/figures/`, and the colour rule that gives each model one colour in
 * every chart.
 *
 * @module
 */

import type { VegaLiteSpec } from "../claims/analysis_result.ts";

/**
 * The font family of every chart. The PNG renderer loads this font from the
 * npm package `dejavu-fonts-ttf` pinned in `deno.json` and no other, so text
 * is drawn the same on every machine.
 */
export const CHART_FONT = "DejaVu Sans";

/**
 * The project palette: ten colours (Tableau 10, as hex), in the order
 * categorical series take them.
 */
export const CHART_PALETTE: readonly string[] = Object.freeze([
  "#4c78a8",
  "#f58518",
  "#e45756",
  "#72b7b2",
  "#54a24b",
  "#eeca3b",
  "#b279a2",
  "#ff9da6",
  "#9d755d",
  "#bab0ac",
]);

/**
 * Pinned colours of the models and systems the project's analyses and
 * example data name, so each keeps its colour in every chart it appears in.
 * Ids not listed here take a colour from their hash ({@linkcode modelColor}).
 */
export const MODEL_COLORS: Readonly<Record<string, string>> = Object.freeze({
  // k_sensitivity, flat_cost_theorem, routing suites
  frontier_even: "#4c78a8",
  small_severity_shaped: "#f58518",
  constant_confidence: "#b279a2",
  always_escalate: "#9d755d",
  // calibration's simulated models
  calibrated: "#54a24b",
  constant: "#bab0ac",
  over_confident: "#e45756",
  under_confident: "#72b7b2",
  // divergence's two models, as its charts label them
  "Model A (even errors)": "#4c78a8",
  "Model B (severity-shaped)": "#f58518",
});

/** 32-bit FNV-1a hash of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * The colour of one model id: its pinned colour from
 * {@linkcode MODEL_COLORS}, otherwise the palette colour at its FNV-1a hash
 * modulo the palette size. The rule depends on the id alone, so a model has
 * the same colour in every chart.
 *
 * @param id Model or system id, exactly as the chart labels it.
 * @returns A hex colour of {@linkcode CHART_PALETTE}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelColor, MODEL_COLORS } from "./theme.ts";
 *
 * assert.equal(modelColor("frontier_even"), MODEL_COLORS.frontier_even);
 * assert.equal(modelColor("my-model"), modelColor("my-model"));
 * ```
 */
export function modelColor(id: string): string {
  return MODEL_COLORS[id] ??
    CHART_PALETTE[fnv1a(id) % CHART_PALETTE.length];
}

/**
 * An explicit Vega-Lite colour scale for models: domain in the order given
 * (legend order), range from {@linkcode modelColor}. When two ids of one
 * chart would share a colour, the later one takes the next palette colour
 * not yet used in that chart, so series stay distinguishable; pinned ids
 * never move.
 *
 * @param ids Model ids shown in the chart (duplicates are dropped).
 * @returns `{ domain, range }` for an encoding's `scale`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelColorScale } from "./theme.ts";
 *
 * const a = modelColorScale(["frontier_even", "small_severity_shaped"]);
 * const b = modelColorScale(["always_escalate", "frontier_even"]);
 * assert.equal(a.range[0], b.range[1]); // frontier_even keeps its colour
 * ```
 */
export function modelColorScale(
  ids: readonly string[],
): { domain: string[]; range: string[] } {
  const domain = [...new Set(ids)];
  const range: string[] = new Array(domain.length);
  const used = new Set<string>();
  // pinned ids first, so an unpinned id never displaces them
  domain.forEach((id, i) => {
    if (MODEL_COLORS[id] !== undefined && !used.has(MODEL_COLORS[id])) {
      range[i] = MODEL_COLORS[id];
      used.add(range[i]);
    }
  });
  domain.forEach((id, i) => {
    if (range[i] !== undefined) return;
    let c = modelColor(id);
    let k = CHART_PALETTE.indexOf(c);
    for (let step = 0; used.has(c) && step < CHART_PALETTE.length; step++) {
      k = (k + 1) % CHART_PALETTE.length;
      c = CHART_PALETTE[k];
    }
    range[i] = c;
    used.add(c);
  });
  return { domain, range };
}

/**
 * An explicit colour scale for series that are not models (policies,
 * measures, windows): the palette in the order of the domain given.
 *
 * @param values Category values, in legend order (duplicates are dropped).
 * @returns `{ domain, range }` for an encoding's `scale`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CHART_PALETTE, categoryColorScale } from "./theme.ts";
 *
 * const s = categoryColorScale(["recorded", "replayed", "recorded"]);
 * assert.deepEqual(s, { domain: ["recorded", "replayed"], range: CHART_PALETTE.slice(0, 2) });
 * ```
 */
export function categoryColorScale(
  values: readonly string[],
): { domain: string[]; range: string[] } {
  const domain = [...new Set(values)];
  return {
    domain,
    range: domain.map((_, i) => CHART_PALETTE[i % CHART_PALETTE.length]),
  };
}

/** What a chart's colour encodes: model ids (pinned colours) or other categories. */
export type ColorBy = "model" | "category";

/**
 * The colour scale for a chart's series: {@linkcode modelColorScale} for
 * models, {@linkcode categoryColorScale} otherwise; values sorted, as Vega
 * sorts a nominal domain, unless an order is given.
 *
 * @param values The series value of every row (`null` rows are left out).
 * @param colorBy What the colour encodes. Default: `"category"`.
 * @param order Legend order. Default: ascending.
 * @returns `{ domain, range }`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { colorScale, MODEL_COLORS } from "./theme.ts";
 *
 * const s = colorScale(["small_severity_shaped", "frontier_even"], "model");
 * assert.deepEqual(s.domain, ["frontier_even", "small_severity_shaped"]);
 * assert.equal(s.range[0], MODEL_COLORS.frontier_even);
 * ```
 */
export function colorScale(
  values: readonly unknown[],
  colorBy: ColorBy = "category",
  order?: readonly string[],
): { domain: string[]; range: string[] } {
  const seen = [
    ...new Set(
      values.filter((v) => v !== null && v !== undefined).map(String),
    ),
  ];
  const domain = order === undefined
    ? seen.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    : [...order, ...seen.filter((v) => !order.includes(v))];
  return colorBy === "model"
    ? modelColorScale(domain)
    : categoryColorScale(domain);
}

/**
 * The Vega-Lite `config` every chart carries: the pinned font, title and
 * label sizes, legends under the plot without truncated labels, axis labels
 * up to 300 px before an ellipsis, light grid, the project palette.
 */
export const CHART_CONFIG: Readonly<Record<string, unknown>> = Object.freeze({
  font: CHART_FONT,
  background: "white",
  padding: 8,
  title: {
    font: CHART_FONT,
    fontSize: 14,
    fontWeight: "bold",
    anchor: "start",
    offset: 12,
    color: "#222",
  },
  axis: {
    labelFont: CHART_FONT,
    titleFont: CHART_FONT,
    labelFontSize: 11,
    titleFontSize: 12,
    titleFontWeight: "bold",
    titlePadding: 8,
    labelLimit: 300,
    labelSeparation: 6,
    labelColor: "#333",
    titleColor: "#222",
    gridColor: "#e4e4e4",
    domainColor: "#888",
    tickColor: "#888",
  },
  legend: {
    labelFont: CHART_FONT,
    titleFont: CHART_FONT,
    labelFontSize: 11,
    titleFontSize: 12,
    orient: "bottom",
    direction: "vertical",
    labelLimit: 0,
    titleLimit: 0,
  },
  header: {
    labelFont: CHART_FONT,
    titleFont: CHART_FONT,
    labelFontSize: 11,
    titleFontSize: 12,
  },
  text: { font: CHART_FONT, fontSize: 10 },
  range: { category: [...CHART_PALETTE] },
  view: { stroke: "#ccc" },
});

/**
 * A spec with the chart theme as its `config`; settings the spec already has
 * in its own `config` win.
 *
 * @param spec A Vega-Lite spec.
 * @returns A copy of the spec whose `config` is {@linkcode CHART_CONFIG} merged with the spec's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CHART_FONT, withTheme } from "./theme.ts";
 *
 * const spec = withTheme({ mark: "bar", config: { view: { stroke: null } } });
 * assert.equal((spec.config as { font: string }).font, CHART_FONT);
 * assert.deepEqual((spec.config as { view: unknown }).view, { stroke: null });
 * ```
 */
export function withTheme(spec: VegaLiteSpec): VegaLiteSpec {
  const own = (spec.config ?? {}) as Record<string, unknown>;
  const config: Record<string, unknown> = structuredClone(
    CHART_CONFIG as Record<string, unknown>,
  );
  for (const [k, v] of Object.entries(own)) {
    const base = config[k];
    config[k] = isPlainObject(base) && isPlainObject(v) ? { ...base, ...v } : v;
  }
  return { ...spec, config };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
