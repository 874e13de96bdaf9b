// Test helper: find numbers in human text that carry float noise, such as
// 0.43999999999999995 or 716.6000000000001 (12 or more significant digits),
// or a row of zeros such as 0.000000000000000006939 (six or more zeros after
// the point). Trailing zeros of an integer (16,000,000,000,000) are not
// significant.

/** Visible text of an HTML page: no styles, no inline SVG, no tags. */
export function visibleText(html: string): string {
  return html.replace(/<style>[\s\S]*?<\/style>/g, " ")
    .replace(/<svg[\s\S]*?<\/svg>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&[a-z]+;|&#\d+;/g, " ");
}

/** Every noisy number in `text`, with some context. */
export function noisyNumbers(text: string): string[] {
  const re =
    /(?<![0-9A-Za-z_.])-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?(?![0-9A-Za-z_])/g;
  const found: string[] = [];
  for (const m of text.matchAll(re)) {
    const t = m[0];
    const mantissa = t.replace(/e.*$/, "").replace(/^-/, "").replace(/,/g, "");
    const digits = (mantissa.includes(".")
      ? mantissa.replace(".", "")
      : mantissa.replace(/0+$/, "")).replace(/^0+/, "");
    if (digits.length >= 12 || /^0\.0{6,}/.test(mantissa)) {
      found.push(
        text.slice(Math.max(0, m.index! - 50), m.index! + t.length + 10)
          .replace(/\s+/g, " "),
      );
    }
  }
  return found;
}
