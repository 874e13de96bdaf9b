/**
 * Headless rendering of Vega-Lite specs: SVG with vega, PNG with resvg.
 *
 * @module
 */

import * as vega from "vega";
import { compile } from "vega-lite";
import type { VegaLiteSpec } from "../claims/analysis_result.ts";
import { CHART_FONT, withTheme } from "./theme.ts";
import {
  type FontMetrics,
  readFontMetrics,
  textWidth,
} from "./font_metrics.ts";

/**
 * Render a Vega-Lite spec to an SVG string, without a browser.
 *
 * The spec is compiled to Vega with the chart theme as its defaults
 * ({@linkcode withTheme}: the spec's own `config` wins) and run in a headless
 * view (renderer `"none"`); the SVG is the same one a browser would draw.
 * Text is measured with the pinned font's own advance widths
 * ({@linkcode useChartFontMetrics}), so titles, legends and axis labels get
 * the room they take in the PNG.
 *
 * @param spec A Vega-Lite spec with inline data.
 * @param fonts The pinned chart font (`readChartFonts()` of lib/read).
 * @returns The SVG document as text.
 * @throws {Error} When Vega-Lite cannot compile the spec.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { groupedBarChart } from "./specs.ts";
 * import { renderSvg } from "./render.ts";
 * import { readChartFonts } from "../read/chart_fonts.ts";
 *
 * const svg = await renderSvg(groupedBarChart(
 *   [{ s: "HIGH", m: "A", v: 10 }], { x: "s", group: "m", y: "v", title: "t" },
 * ), readChartFonts());
 * assert.match(svg, /^<svg/);
 * ```
 */
export async function renderSvg(
  spec: VegaLiteSpec,
  fonts: ChartFonts,
): Promise<string> {
  useChartFontMetrics(fonts);
  // deno-lint-ignore no-explicit-any
  const compiled = compile(withTheme(spec) as any).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Options for {@linkcode renderPng}. */
export interface RenderPngOptions {
  /** Pixel scale relative to the SVG's size. Default: 2. */
  scale?: number;
  /** Background colour. Default: `"white"`. */
  background?: string;
}

/**
 * Rasterise an SVG string to PNG bytes with resvg.
 *
 * Text is drawn with the project's pinned font only ({@linkcode CHART_FONT},
 * DejaVu Sans from the npm package `dejavu-fonts-ttf`, loaded by path from
 * `node_modules`), never with the machine's system fonts, so the same SVG
 * gives the same PNG bytes on every machine. Text in any other family is
 * drawn in the pinned font too.
 *
 * @param svg SVG document text.
 * @param fonts The pinned chart font (`readChartFonts()` of lib/read).
 * @param options Scale and background.
 * @returns PNG bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPng } from "./render.ts";
 * import { readChartFonts } from "../read/chart_fonts.ts";
 *
 * const png = await renderPng('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>', readChartFonts());
 * assert.deepEqual([...png.slice(1, 4)], [80, 78, 71]); // "PNG"
 * ```
 */
export async function renderPng(
  svg: string,
  fonts: ChartFonts,
  options: RenderPngOptions = {},
): Promise<Uint8Array> {
  const { Resvg } = await import("@resvg/resvg-js");
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: options.scale ?? 2 },
    background: options.background ?? "white",
    font: {
      loadSystemFonts: false,
      fontFiles: [...fonts.files],
      defaultFontFamily: CHART_FONT,
      sansSerifFamily: CHART_FONT,
      serifFamily: CHART_FONT,
      monospaceFamily: CHART_FONT,
      cursiveFamily: CHART_FONT,
      fantasyFamily: CHART_FONT,
    },
  });
  return resvg.render().asPng();
}

/**
 * The pinned chart font, as read by the caller (lib/read/chart_fonts.ts
 * reads it from the npm package): the TTF files resvg draws with, and the
 * regular and bold files' bytes, whose advance widths measure text.
 */
export interface ChartFonts {
  /** Paths of the font's TTF files (regular, bold, oblique, bold oblique). */
  readonly files: readonly string[];
  /** The regular face's bytes. */
  readonly regular: Uint8Array;
  /** The bold face's bytes. */
  readonly bold: Uint8Array;
}

const measured = new WeakMap<
  ChartFonts,
  { regular: FontMetrics; bold: FontMetrics }
>();

/**
 * Make Vega measure text with the pinned chart font's advance widths
 * (regular, or bold for a weight of 600 or more) instead of its estimate of
 * 0.8 em per character, which leaves wide margins around long titles and
 * pushes axis titles away from slanted labels. Idempotent; {@linkcode renderSvg}
 * calls it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as vega from "vega";
 * import { useChartFontMetrics } from "./render.ts";
 * import { readChartFonts } from "../read/chart_fonts.ts";
 *
 * useChartFontMetrics(readChartFonts());
 * // deno-lint-ignore no-explicit-any
 * const w = (vega as any).textMetrics.width({ fontSize: 10 }, "iiii");
 * assert.ok(w > 10 && w < 16); // DejaVu Sans "i" is 0.28 em; the estimate would be 32
 * ```
 */
export function useChartFontMetrics(fonts: ChartFonts): void {
  let m = measured.get(fonts);
  if (m === undefined) {
    m = {
      regular: readFontMetrics(fonts.regular, fonts.files[0]),
      bold: readFontMetrics(fonts.bold, fonts.files[1]),
    };
    measured.set(fonts, m);
  }
  const metrics = m;
  // Raw width of the text given: Vega truncates labels over their limit
  // itself, by calling this on shorter and shorter prefixes.
  // deno-lint-ignore no-explicit-any
  (vega as any).textMetrics.width = (item: any, text: unknown) => {
    const size = item?.fontSize != null ? +item.fontSize || 0 : 11;
    const weight = item?.fontWeight;
    const isBold = weight === "bold" || weight === "bolder" ||
      (Number(weight) >= 600);
    const line = text == null ? "" : String(text).trim();
    return textWidth(isBold ? metrics.bold : metrics.regular, line, size);
  };
}
