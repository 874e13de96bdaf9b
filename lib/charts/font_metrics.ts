/**
 * Advance widths read from a TrueType font file, so that Vega lays text out
 * with the widths of the font the PNG is drawn in rather than its rough
 * estimate of 0.8 em per character.
 *
 * @module
 */

/** Glyph advances of one font. */
export interface FontMetrics {
  /** Font units per em (from the `head` table). */
  readonly unitsPerEm: number;
  /** Advance width of a code point, in font units (the `.notdef` glyph's when unmapped). */
  advance(codePoint: number): number;
}

/**
 * Read the advance widths of a TrueType/OpenType font with TrueType outlines:
 * the `head`, `hhea`, `hmtx` tables and a Unicode `cmap` subtable (format 12
 * or 4). Kerning is not applied.
 *
 * @param bytes The font file.
 * @param file The file name, for error messages.
 * @returns The metrics.
 * @throws {SyntaxError} When a table is missing or no Unicode cmap is found.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFontMetrics } from "./font_metrics.ts";
 * import { chartFontFiles } from "../read/chart_fonts.ts";
 *
 * const [regular] = chartFontFiles();
 * const m = readFontMetrics(Deno.readFileSync(regular), regular);
 * assert.equal(m.unitsPerEm, 2048);
 * assert.ok(m.advance("W".codePointAt(0)!) > m.advance("i".codePointAt(0)!));
 * ```
 */
export function readFontMetrics(bytes: Uint8Array, file: string): FontMetrics {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = new Map<string, number>();
  const numTables = view.getUint16(4);
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + 16 * i;
    const tag = String.fromCharCode(...bytes.subarray(rec, rec + 4));
    tables.set(tag, view.getUint32(rec + 8));
  }
  const table = (tag: string): number => {
    const at = tables.get(tag);
    if (at === undefined) {
      throw new SyntaxError(`Cannot read font ${file}: no '${tag}' table`);
    }
    return at;
  };
  const unitsPerEm = view.getUint16(table("head") + 18);
  const numberOfHMetrics = view.getUint16(table("hhea") + 34);
  const hmtx = table("hmtx");
  const glyphAdvance = (glyph: number) =>
    view.getUint16(hmtx + 4 * Math.min(glyph, numberOfHMetrics - 1));
  const cmap = table("cmap");
  let format4: number | null = null;
  let format12: number | null = null;
  for (let i = 0; i < view.getUint16(cmap + 2); i++) {
    const rec = cmap + 4 + 8 * i;
    const platform = view.getUint16(rec);
    const encoding = view.getUint16(rec + 2);
    const sub = cmap + view.getUint32(rec + 4);
    const format = view.getUint16(sub);
    if (format === 12 && (platform === 0 || encoding === 10)) format12 = sub;
    if (format === 4 && (platform === 0 || encoding === 1)) format4 = sub;
  }
  let glyphOf: (cp: number) => number;
  if (format12 !== null) {
    const sub = format12;
    const groups = view.getUint32(sub + 12);
    glyphOf = (cp) => {
      let lo = 0, hi = groups - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const g = sub + 16 + 12 * mid;
        const start = view.getUint32(g);
        const end = view.getUint32(g + 4);
        if (cp < start) hi = mid - 1;
        else if (cp > end) lo = mid + 1;
        else return view.getUint32(g + 8) + (cp - start);
      }
      return 0;
    };
  } else if (format4 !== null) {
    const sub = format4;
    const segCount = view.getUint16(sub + 6) / 2;
    const ends = sub + 14;
    const starts = ends + 2 * segCount + 2;
    const deltas = starts + 2 * segCount;
    const ranges = deltas + 2 * segCount;
    glyphOf = (cp) => {
      if (cp > 0xffff) return 0;
      for (let s = 0; s < segCount; s++) {
        if (cp > view.getUint16(ends + 2 * s)) continue;
        const start = view.getUint16(starts + 2 * s);
        if (cp < start) return 0;
        const delta = view.getInt16(deltas + 2 * s);
        const rangeAt = ranges + 2 * s;
        const range = view.getUint16(rangeAt);
        if (range === 0) return (cp + delta) & 0xffff;
        const g = view.getUint16(rangeAt + range + 2 * (cp - start));
        return g === 0 ? 0 : (g + delta) & 0xffff;
      }
      return 0;
    };
  } else {
    throw new SyntaxError(
      `Cannot read font ${file}: no Unicode 'cmap' subtable`,
    );
  }
  const cache = new Map<number, number>();
  return {
    unitsPerEm,
    advance(codePoint: number): number {
      let a = cache.get(codePoint);
      if (a === undefined) {
        a = glyphAdvance(glyphOf(codePoint));
        cache.set(codePoint, a);
      }
      return a;
    },
  };
}

/**
 * Width of a text in pixels: the sum of its characters' advances, scaled to
 * the font size.
 *
 * @param metrics The font's metrics.
 * @param text The text (one line).
 * @param fontSize Font size in pixels.
 * @returns Width in pixels.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textWidth } from "./font_metrics.ts";
 *
 * const mono = { unitsPerEm: 1000, advance: () => 600 };
 * assert.equal(textWidth(mono, "abc", 10), 18);
 * ```
 */
export function textWidth(
  metrics: FontMetrics,
  text: string,
  fontSize: number,
): number {
  let units = 0;
  for (const ch of text) units += metrics.advance(ch.codePointAt(0)!);
  return (units * fontSize) / metrics.unitsPerEm;
}
