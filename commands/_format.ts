// Private to the CLI: the one place that turns numbers into human text, with
// two rules that never mix.
//
// - A decision rule (a threshold, an edge, a level the user typed) is printed
//   exactly, as the shortest decimal that reads back as the same double
//   (`String(x)` in JavaScript): a reader who copies it into a flag gets the
//   rule that was computed, not a neighbour of it. `--ci 0.995` is "99.5%".
// - A measured quantity (a loss, a cost, a count) is rounded to a number of
//   significant digits, but never inside its integer part: 64,968,453 keeps
//   every digit, only the digits after the point are cut.

/** A decision rule (threshold, bin edge, p*) exactly: the shortest round-trip decimal. */
export function formatRule(x: number): string {
  return String(x);
}

/**
 * A level in (0, 1) as an exact percentage: 0.995 is "99.5%", 0.95 "95%".
 * The decimal point of the shortest round-trip decimal is moved two places,
 * in the text, so no multiplication can add a rounding error (0.995 × 100
 * is 99.49999999999999 in floating point).
 */
export function formatLevel(level: number): string {
  return `${shiftDecimal(String(level), 2)}%`;
}

/**
 * A measured quantity for a terminal: at most `digits` significant digits,
 * but every digit of the integer part is kept, with thousands separators;
 * `null` reads "n/a".
 */
export function formatQuantity(value: number | null, digits = 6): string {
  if (value === null) return "n/a";
  if (!Number.isFinite(value)) return String(value);
  const a = Math.abs(value);
  if (a < 1) {
    return value.toLocaleString("en-US", { maximumSignificantDigits: digits });
  }
  const intDigits = Math.floor(Math.log10(a)) + 1;
  return value.toLocaleString("en-US", {
    maximumFractionDigits: Math.max(0, digits - intDigits),
    minimumFractionDigits: 0,
  });
}

/** Move the decimal point of a decimal literal `places` to the right, in the text. */
function shiftDecimal(text: string, places: number): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  if (m === null) return text; // NaN, Infinity
  const [, sign, int, frac = "", exp = "0"] = m;
  const digits = int + frac;
  // position of the decimal point within `digits`
  const point = int.length + Number(exp) + places;
  let whole: string;
  let rest: string;
  if (point <= 0) {
    whole = "0";
    rest = "0".repeat(-point) + digits;
  } else if (point >= digits.length) {
    whole = digits + "0".repeat(point - digits.length);
    rest = "";
  } else {
    whole = digits.slice(0, point);
    rest = digits.slice(point);
  }
  whole = whole.replace(/^0+(?=\d)/, "");
  rest = rest.replace(/0+$/, "");
  return `${sign}${whole}${rest ? `.${rest}` : ""}`;
}
