/**
 * Headless rendering of Vega-Lite specs: SVG with vega, PNG with resvg.
 *
 * @module
 */

import * as vega from "vega";
import { compile } from "vega-lite";
import { fileURLToPath } from "node:url";
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
 * @returns The SVG document as text.
 * @throws {Error} When Vega-Lite cannot compile the spec.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { groupedBarChart } from "./specs.ts";
 * import { renderSvg } from "./render.ts";
 *
 * const svg = await renderSvg(groupedBarChart(
 *   [{ s: "HIGH", m: "A", v: 10 }], { x: "s", group: "m", y: "v", title: "t" },
 * ));
 * assert.match(svg, /^<svg/);
 * ```
 */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  useChartFontMetrics();
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
 * @param options Scale and background.
 * @returns PNG bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPng } from "./render.ts";
 *
 * const png = await renderPng('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
 * assert.deepEqual([...png.slice(1, 4)], [80, 78, 71]); // "PNG"
 * ```
 */
export async function renderPng(
  svg: string,
  options: RenderPngOptions = {},
): Promise<Uint8Array> {
  const { Resvg } = await import("@resvg/resvg-js");
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: options.scale ?? 2 },
    background: options.background ?? "white",
    font: {
      loadSystemFonts: false,
      fontFiles: chartFontFiles(),
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

/** The font files of the pinned chart font, as npm installs them. */
const FONT_SPECIFIERS = [
  "dejavu-fonts-ttf/ttf/DejaVuSans.ttf",
  "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf",
  "dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf",
  "dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf",
] as const;

/**
 * Paths of the pinned chart font's TTF files (regular, bold, oblique, bold
 * oblique) in `node_modules`, where `deno install` puts the npm package
 * `dejavu-fonts-ttf` that `deno.json` pins.
 *
 * @returns Absolute file paths, one per style.
 * @throws {Error} When the package is not installed (run `deno install`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chartFontFiles } from "./render.ts";
 *
 * const files = chartFontFiles();
 * assert.equal(files.length, 4);
 * assert.ok(files.every((f) => f.endsWith(".ttf")));
 * ```
 */
export function chartFontFiles(): string[] {
  return FONT_SPECIFIERS.map((specifier) => {
    const url = import.meta.resolve(specifier);
    if (!url.startsWith("file:")) {
      throw new Error(
        `Cannot find the chart font ${specifier}: it resolved to ${url}, not a file; lossbook needs "nodeModulesDir": "auto" and \`deno install\``,
      );
    }
    const path = fileURLToPath(url);
    try {
      Deno.statSync(path);
    } catch {
      throw new Error(
        `Cannot find the chart font ${path}: the npm package dejavu-fonts-ttf is not installed; run \`deno install\``,
      );
    }
    return path;
  });
}

let metrics: { regular: FontMetrics; bold: FontMetrics } | null = null;

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
 *
 * useChartFontMetrics();
 * // deno-lint-ignore no-explicit-any
 * const w = (vega as any).textMetrics.width({ fontSize: 10 }, "iiii");
 * assert.ok(w > 10 && w < 16); // DejaVu Sans "i" is 0.28 em; the estimate would be 32
 * ```
 */
export function useChartFontMetrics(): void {
  if (metrics === null) {
    const [regular, bold] = chartFontFiles();
    metrics = {
      regular: readFontMetrics(Deno.readFileSync(regular), regular),
      bold: readFontMetrics(Deno.readFileSync(bold), bold),
    };
  }
  const m = metrics;
  // Raw width of the text given: Vega truncates labels over their limit
  // itself, by calling this on shorter and shorter prefixes.
  // deno-lint-ignore no-explicit-any
  (vega as any).textMetrics.width = (item: any, text: unknown) => {
    const size = item?.fontSize != null ? +item.fontSize || 0 : 11;
    const weight = item?.fontWeight;
    const isBold = weight === "bold" || weight === "bolder" ||
      (Number(weight) >= 600);
    const line = text == null ? "" : String(text).trim();
    return textWidth(isBold ? m.bold : m.regular, line, size);
  };
}
