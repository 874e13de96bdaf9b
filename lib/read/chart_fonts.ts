/**
 * The pinned chart font, read from the npm package `dejavu-fonts-ttf` in
 * `node_modules`: its file paths (resvg draws with them) and the regular and
 * bold faces' bytes (their advance widths measure text). Charts take the
 * result as an argument; this is the one place that reads it.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import type { ChartFonts } from "../charts/render.ts";

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
 * import { chartFontFiles } from "./chart_fonts.ts";
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

let cached: ChartFonts | null = null;

/**
 * Read the pinned chart font once per process: the files of
 * {@linkcode chartFontFiles} and the regular and bold faces' bytes.
 *
 * @returns The fonts, for `renderSvg` and `renderPng`.
 * @throws {Error} When the package is not installed (run `deno install`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readChartFonts } from "./chart_fonts.ts";
 *
 * const fonts = readChartFonts();
 * assert.equal(fonts.files.length, 4);
 * assert.ok(fonts.regular.length > 100_000);
 * ```
 */
export function readChartFonts(): ChartFonts {
  if (cached === null) {
    const files = chartFontFiles();
    cached = {
      files,
      regular: Deno.readFileSync(files[0]),
      bold: Deno.readFileSync(files[1]),
    };
  }
  return cached;
}
