/**
 * Numbers for people: the one place that turns numbers into human text, for
 * the CLI, the report and notebook tables, with two rules that never mix.
 * Exact values stay in JSON and CSV; only human text goes through here.
 *
 * - A decision rule (a threshold, an edge, a level the user typed) is printed
 *   exactly, as the shortest decimal that reads back as the same double
 *   (`String(x)` in JavaScript): a reader who copies it into a flag gets the
 *   rule that was computed, not a neighbour of it. `--ci 0.995` is "99.5%".
 * - A measured quantity (a loss, a cost, a count, a rate) is rounded to the
 *   significant digits that the quantity carries, or that the claim it is
 *   compared in can tell apart, but never inside its integer part: 64,968,453
 *   keeps every digit, only the digits after the point are cut. Thousands are
 *   always grouped, so a table never mixes 10042 with 10,042.
 *
 * @module
 */

/**
 * A decision rule (threshold, bin edge, p*) exactly: the shortest decimal
 * that round-trips to the same double.
 *
 * @param x The rule's value.
 * @returns `String(x)`: 0.1 is "0.1", 1e-12 is "1e-12".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRule } from "./numbers.ts";
 *
 * assert.equal(formatRule(0.1 + 0.2), "0.30000000000000004"); // the rule as computed
 * assert.equal(formatRule(0.12), "0.12");
 * ```
 */
export function formatRule(x: number): string {
  return String(x);
}

/**
 * A level in (0, 1) as an exact percentage: 0.995 is "99.5%", 0.95 "95%".
 *
 * The decimal point of the shortest round-trip decimal is moved two places,
 * in the text, so no multiplication can add a rounding error (0.995 × 100
 * is 99.49999999999999 in floating point).
 *
 * @param level The level, for example a confidence level.
 * @returns The level as a percentage.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatLevel } from "./numbers.ts";
 *
 * assert.equal(formatLevel(0.995), "99.5%");
 * assert.equal(formatLevel(0.95), "95%");
 * ```
 */
export function formatLevel(level: number): string {
  return `${shiftDecimal(String(level), 2)}%`;
}

/** Options for {@linkcode formatQuantity}. */
export interface FormatQuantityOptions {
  /** Significant digits kept after the point. Default: 6. */
  digits?: number;
  /**
   * The size of the quantity the value belongs to, when the value can be
   * much smaller than it (a difference, an excess over a minimum): digits
   * are counted from the scale, so a difference of 7e-18 between two
   * quantities of size 0.03 prints "0", not "0.000000000000000007".
   * Default: the value itself.
   */
  scale?: number;
  /**
   * The smallest difference that matters (a claim's tolerance): no digit
   * finer than one tenth of it is printed. 0 or absent: no limit.
   */
  resolution?: number;
}

/**
 * A measured quantity for people: at most `digits` significant digits, but
 * every digit of the integer part, with thousands separators; values below
 * 0.0001 (with no larger scale given) in exponent notation, so a p-value of
 * 5.7e-10 neither turns into a row of zeros nor rounds to 0.
 *
 * @param value The quantity; `null` reads "n/a".
 * @param options Significant digits (a number is read as `digits`), scale
 *   and resolution.
 * @returns Display text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatQuantity } from "./numbers.ts";
 *
 * assert.equal(formatQuantity(0.41 + 0.03), "0.44");
 * assert.equal(formatQuantity(716.6000000000001), "716.6");
 * assert.equal(formatQuantity(64_968_453.25), "64,968,453");
 * assert.equal(formatQuantity(10042), "10,042");
 * assert.equal(formatQuantity(6.938893903907228e-18, { digits: 4, scale: 0.031 }), "0");
 * assert.equal(formatQuantity(5.678111222975172e-10), "5.67811e-10");
 * assert.equal(formatQuantity(0.3869731800766284, { resolution: 0.0005 }), "0.387");
 * assert.equal(formatQuantity(null), "n/a");
 * ```
 */
export function formatQuantity(
  value: number | null,
  options: number | FormatQuantityOptions = {},
): string {
  const o = typeof options === "number" ? { digits: options } : options;
  const digits = o.digits ?? 6;
  if (value === null) return "n/a";
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return "0";
  const a = Math.abs(value);
  const scale = o.scale !== undefined && Number.isFinite(o.scale) &&
      Math.abs(o.scale) > a
    ? Math.abs(o.scale)
    : a;
  if (scale === a && a < 1e-4) {
    return value.toExponential(Math.max(0, digits - 1))
      .replace(/\.?0+e/, "e").replace("e+", "e");
  }
  let decimals = Math.max(0, digits - (Math.floor(Math.log10(scale)) + 1));
  if (o.resolution !== undefined && o.resolution > 0) {
    decimals = Math.min(
      decimals,
      Math.max(0, Math.floor(-Math.log10(o.resolution)) + 1),
    );
  }
  const text = value.toLocaleString("en-US", {
    maximumFractionDigits: Math.min(100, decimals),
    minimumFractionDigits: 0,
  });
  return /^-0(\.0*)?$/.test(text) ? "0" : text;
}

/**
 * A whole number with its thousands grouped, as {@linkcode formatQuantity}
 * prints one, without the engine's locale data (whose first use is slow to
 * load): for progress lines, printed before anything else needs it.
 *
 * @param n A safe integer.
 * @returns `n.toLocaleString("en-US")`: 1234567 is "1,234,567".
 * @throws {RangeError} When `n` is not a safe integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatCount } from "./numbers.ts";
 *
 * assert.equal(formatCount(1234567), "1,234,567");
 * assert.equal(formatCount(-1000), "-1,000");
 * assert.equal(formatCount(999), "999");
 * ```
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) {
    throw new RangeError(`formatCount needs a safe integer, got ${n}`);
  }
  const digits = String(Math.abs(n));
  let out = digits.slice(0, (digits.length - 1) % 3 + 1);
  for (let i = out.length; i < digits.length; i += 3) {
    out += "," + digits.slice(i, i + 3);
  }
  return n < 0 ? "-" + out : out;
}

/**
 * The name of a rate's interval in words: Clopper-Pearson or Wilson, with
 * the effective number of tasks it counts when some task has several
 * trials (the interval's `effectiveN`); "n/a" without an interval.
 *
 * @param ci A rate's interval: its `method` and, when clustered, `effectiveN`.
 * @param unit What its effective count counts, plural. Default: `tasks`.
 * @returns The name, as the reports print it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRateMethod } from "./numbers.ts";
 *
 * assert.equal(formatRateMethod({ method: "wilson" }), "Wilson");
 * assert.equal(
 *   formatRateMethod({ method: "clopper-pearson-clustered", effectiveN: 4.764705882352941 }),
 *   "Clopper-Pearson, 4.76471 effective tasks",
 * );
 * assert.equal(
 *   formatRateMethod({ method: "wilson-clustered", effectiveN: 40 }, "clusters"),
 *   "Wilson, 40 effective clusters",
 * );
 * ```
 */
export function formatRateMethod(
  ci: { readonly method: string; readonly effectiveN?: number } | null,
  unit = "tasks",
): string {
  if (ci === null) return "n/a";
  const name = ci.method.startsWith("clopper-pearson")
    ? "Clopper-Pearson"
    : "Wilson";
  return ci.effectiveN === undefined
    ? name
    : `${name}, ${formatQuantity(ci.effectiveN, 6)} effective ${unit}`;
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
