/**
 * Headless rendering of Vega-Lite specs: SVG with vega, PNG with resvg.
 *
 * @module
 */

import * as vega from "vega";
import { compile } from "vega-lite";
import type { VegaLiteSpec } from "../claims/analysis_result.ts";

/**
 * Render a Vega-Lite spec to an SVG string, without a browser.
 *
 * The spec is compiled to Vega and run in a headless view (renderer
 * `"none"`); the SVG is the same one a browser would draw.
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
  // deno-lint-ignore no-explicit-any
  const compiled = compile(spec as any).spec;
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
 * Text is drawn with the machine's system fonts; on a machine without fonts
 * the bars render and the labels are missing.
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
    font: { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans" },
  });
  return resvg.render().asPng();
}
