/**
 * The pinned chart font, read from the npm package `dejavu-fonts-ttf`: its
 * file paths (resvg draws with them) and the regular and bold faces' bytes
 * (their advance widths measure text). Charts take the result as an
 * argument; this is the one place that finds and reads it.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import type { ChartFonts } from "../charts/render.ts";
// The package's manifest is imported so that the font package is in the
// module graph: Deno then installs it before the program starts (into
// `node_modules` under `"nodeModulesDir": "auto"`, else into its npm cache),
// and `import.meta.resolve` maps the font's files to paths there. Without
// it, lossbook linked from another project's folder resolves them to `npm:`
// addresses, which are not files.
import fontPackage from "dejavu-fonts-ttf/package.json" with { type: "json" };

/** The font files of the pinned chart font, as npm installs them. */
const FONT_SPECIFIERS = [
  "dejavu-fonts-ttf/ttf/DejaVuSans.ttf",
  "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf",
  "dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf",
  "dejavu-fonts-ttf/ttf/DejaVuSans-BoldOblique.ttf",
] as const;

/**
 * Paths of the pinned chart font's TTF files (regular, bold, oblique, bold
 * oblique), wherever Deno installed the npm package `dejavu-fonts-ttf` that
 * `deno.json` pins: lossbook's `node_modules` in its own folder, the npm
 * cache or that project's `node_modules` when another project links or
 * imports lossbook.
 *
 * @returns Absolute file paths, one per style.
 * @throws {Error} When a font file is not where Deno resolves it.
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
        `Cannot find the chart font ${specifier}: it resolved to ${url}, not a file`,
      );
    }
    const path = fileURLToPath(url);
    try {
      Deno.statSync(path);
    } catch {
      throw new Error(
        `Cannot find the chart font ${path}: the npm package dejavu-fonts-ttf@${fontPackage.version} is not installed there; run \`deno install\``,
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
 * @throws {Error} When a font file is not where Deno resolves it.
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
