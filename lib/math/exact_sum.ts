/**
 * Exact sums of the two non-integer sufficient statistics, rounded once:
 * the sum of 1 - pCorrect over decisions (`pErrorSum`) and the sum of 1 / k
 * over decisions whose task has k trials (`taskShare`). Every engine
 * (in process, DuckDB, PostgreSQL) computes the same exact value in
 * integers and hands it to these functions, which round it to the nearest
 * binary64 (ties to even). The result depends on neither the order of the
 * rows nor the number of threads, so every engine prints the same bytes.
 *
 * Why 1 - pCorrect is a whole number of units of 2^-53: pCorrect is a
 * binary64 in [0, 1], so a multiple of 2^-1074, and 1 - pCorrect is in
 * [0, 1]. If the computed difference is at least 1/2, it is a binary64 in
 * [1/2, 1], whose ulp is at least 2^-53, so it is a multiple of 2^-53. If it
 * is below 1/2, then pCorrect > 1/2: pCorrect is in (1/2, 1], a multiple of
 * its ulp 2^-53, and by Sterbenz's lemma (pCorrect / 2 <= 1 <= 2 pCorrect)
 * the subtraction 1 - pCorrect is exact, a difference of two multiples of
 * 2^-53. Either way (1 - pCorrect) * 2^53 is an integer in [0, 2^53],
 * and the multiplication by a power of two is exact.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ComplementSum, reciprocalSum } from "./exact_sum.ts";
 *
 * const s = new ComplementSum();
 * for (let i = 0; i < 10; i++) s.add(0.9);
 * // 1 - 0.9 is 0.09999999999999998 exactly; ten of them, rounded once
 * assert.equal(s.value(), 0.9999999999999998);
 * // 1 + 2/3, rounded once (the float sum 1 + 2 / 3 rounds twice)
 * assert.equal(reciprocalSum([[3, 2], [1, 1]]), 1.6666666666666667);
 * ```
 *
 * @module
 */

/** 2^53: the units of 2^-53 in 1. */
export const COMPLEMENT_SCALE = 2 ** 53;

// Each term (1 - p) * 2^53 <= 2^53 is split into a high limb (<= 2^27) and
// a low limb (< 2^26); each limb sum stays below 2^53 for 2^25 terms, so
// float additions of limbs are exact. The limbs go into a BigInt then.
const LIMB = 2 ** 26;
const FLUSH_EVERY = 2 ** 25;

/**
 * The units of 2^-53 in 1 - p, for a binary64 `p` in [0, 1]: an integer in
 * [0, 2^53] (see the module doc for why it is exact).
 *
 * @param p A probability, a binary64 in [0, 1].
 * @returns (1 - p) * 2^53, an integer.
 * @throws {RangeError} When `p` is not in [0, 1].
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { complementUnits } from "./exact_sum.ts";
 *
 * assert.equal(complementUnits(0.75), 2 ** 51);
 * assert.equal(complementUnits(1 - 2 ** -53), 1);
 * ```
 */
export function complementUnits(p: number): number {
  if (!(p >= 0 && p <= 1)) {
    throw new RangeError(`Cannot sum 1 - p: p must be in [0, 1], got ${p}`);
  }
  return (1 - p) * COMPLEMENT_SCALE;
}

/**
 * The binary64 nearest (ties to even) to `units` * 2^-53.
 *
 * @param units A non-negative count of units of 2^-53.
 * @returns The rounded value; exact when `units` < 2^53 * 2^53.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { roundUnits } from "./exact_sum.ts";
 *
 * assert.equal(roundUnits(3n * 2n ** 51n), 0.75);
 * ```
 */
export function roundUnits(units: bigint): number {
  // Number() of a BigInt rounds to nearest, ties to even; scaling by a
  // power of two is then exact (the result is 0 or at least 2^-53)
  return Number(units) / COMPLEMENT_SCALE;
}

/**
 * An exact running sum of 1 - p over probabilities p, in any order, rounded
 * once by {@linkcode ComplementSum.value}. Adding costs a few float
 * operations; the BigInt is touched once per 2^25 terms.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ComplementSum } from "./exact_sum.ts";
 *
 * const a = new ComplementSum();
 * a.add(0.25);
 * const b = new ComplementSum();
 * b.add(0.5);
 * b.addUnits(a.units);
 * assert.equal(b.units, 5n * 2n ** 51n);
 * assert.equal(b.value(), 1.25);
 * ```
 */
export class ComplementSum {
  #hi = 0;
  #lo = 0;
  #terms = 0;
  #flushed = 0n;

  /**
   * Add 1 - p.
   *
   * @param p A probability, a binary64 in [0, 1] (not checked here: the
   * readers check it first).
   */
  add(p: number): void {
    const t = (1 - p) * COMPLEMENT_SCALE;
    const hi = Math.floor(t / LIMB);
    this.#hi += hi;
    this.#lo += t - hi * LIMB;
    if (++this.#terms === FLUSH_EVERY) this.#flush();
  }

  /**
   * Add a sum already counted in units of 2^-53 (another sum's `units`).
   *
   * @param units A non-negative count of units.
   */
  addUnits(units: bigint): void {
    this.#flushed += units;
  }

  /** The exact sum so far, in units of 2^-53. */
  get units(): bigint {
    this.#flush();
    return this.#flushed;
  }

  /** The sum rounded once to the nearest binary64 (ties to even). */
  value(): number {
    return roundUnits(this.units);
  }

  #flush(): void {
    if (this.#terms === 0) return;
    this.#flushed += BigInt(this.#hi) * BigInt(LIMB) + BigInt(this.#lo);
    this.#hi = 0;
    this.#lo = 0;
    this.#terms = 0;
  }
}

function bitLength(x: bigint): number {
  return x.toString(2).length;
}

/**
 * The binary64 nearest (ties to even) to the rational `num` / `den`.
 *
 * The quotient is taken with 54 to 56 significant bits, and a nonzero
 * remainder sets its last bit (a sticky bit), so the one rounding of
 * `Number()` is the correct rounding of the exact rational; the scaling by
 * a power of two after it is exact.
 *
 * @param num A non-negative numerator.
 * @param den A positive denominator.
 * @returns The rounded quotient.
 * @throws {RangeError} For a negative numerator, a denominator that is not
 * positive, or a quotient outside the normal binary64 range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { roundRational } from "./exact_sum.ts";
 *
 * assert.equal(roundRational(1n, 3n), 1 / 3);
 * assert.equal(roundRational(10n, 4n), 2.5);
 * ```
 */
export function roundRational(num: bigint, den: bigint): number {
  if (num < 0n || den <= 0n) {
    throw new RangeError(
      `Cannot round ${num} / ${den}: need a non-negative numerator and a positive denominator`,
    );
  }
  if (num === 0n) return 0;
  const s = 55 - (bitLength(num) - bitLength(den));
  if (s < -969 || s > 1020) {
    throw new RangeError(
      `Cannot round ${num} / ${den}: outside the normal binary64 range`,
    );
  }
  const n = s >= 0 ? num << BigInt(s) : num;
  const d = s >= 0 ? den : den << BigInt(-s);
  const q = n / d;
  const sticky = n % d === 0n ? 0n : 1n;
  // q has 55 or 56 bits, so the sticky bit lies below the rounding bit
  return Number(q | sticky) * 2 ** -s;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/**
 * The sum of count / k over pairs (k, count), exact as a rational and
 * rounded once to the nearest binary64 (ties to even): a cell's `taskShare`
 * from the number of its decisions whose task has k trials, for each k.
 *
 * @param counts Pairs (k, count): k a positive integer, count a
 * non-negative integer; a k may repeat (its counts add).
 * @returns The rounded sum; 0 for no pairs.
 * @throws {RangeError} For a k that is not a positive integer or a count
 * that is not a non-negative integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reciprocalSum } from "./exact_sum.ts";
 *
 * // ten decisions of tasks with 10 trials each: exactly 1
 * assert.equal(reciprocalSum([[10, 10]]), 1);
 * assert.equal(reciprocalSum([[3, 1], [3, 1], [3, 1]]), 1);
 * ```
 */
export function reciprocalSum(
  counts: Iterable<readonly [k: number, count: number]>,
): number {
  const byK = new Map<number, bigint>();
  for (const [k, c] of counts) {
    if (!(Number.isSafeInteger(k) && k > 0)) {
      throw new RangeError(
        `Cannot sum 1 / k: k must be a positive integer, got ${k}`,
      );
    }
    if (!(Number.isSafeInteger(c) && c >= 0)) {
      throw new RangeError(
        `Cannot sum count / k: count must be a non-negative integer, got ${c}`,
      );
    }
    byK.set(k, (byK.get(k) ?? 0n) + BigInt(c));
  }
  let den = 1n;
  for (const k of byK.keys()) {
    const b = BigInt(k);
    den = den / gcd(den, b) * b;
  }
  let num = 0n;
  for (const [k, c] of byK) num += c * (den / BigInt(k));
  return roundRational(num, den);
}

/**
 * The sum of k · count over pairs (k, count): a cell's `taskTrialsSum`, from
 * the number of its decisions whose task has k trials, for each k. Every
 * term is an integer, so the sum is exact in any order while it stays a safe
 * integer.
 *
 * @param counts Pairs (k, count): k a positive integer, count a
 * non-negative integer; a k may repeat (its counts add).
 * @returns The sum; 0 for no pairs.
 * @throws {RangeError} For a k that is not a positive integer, a count that
 * is not a non-negative integer, or a sum past `Number.MAX_SAFE_INTEGER`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trialsSum } from "./exact_sum.ts";
 *
 * // two decisions of a task with two trials, one of a task with three
 * assert.equal(trialsSum([[2, 2], [3, 1]]), 7);
 * assert.equal(trialsSum([]), 0);
 * ```
 */
export function trialsSum(
  counts: Iterable<readonly [k: number, count: number]>,
): number {
  let sum = 0;
  for (const [k, c] of counts) {
    if (!(Number.isSafeInteger(k) && k > 0)) {
      throw new RangeError(
        `Cannot sum count · k: k must be a positive integer, got ${k}`,
      );
    }
    if (!(Number.isSafeInteger(c) && c >= 0)) {
      throw new RangeError(
        `Cannot sum count · k: count must be a non-negative integer, got ${c}`,
      );
    }
    sum += k * c;
    if (!Number.isSafeInteger(sum)) {
      throw new RangeError(
        `Cannot sum count · k exactly: the sum passes ${Number.MAX_SAFE_INTEGER}`,
      );
    }
  }
  return sum;
}

/**
 * The exact sum of finite doubles, independent of the order they come in,
 * rounded once to the nearest double (ties to even). Each value is split
 * into its 53-bit integer mantissa and its exponent; the mantissas are
 * summed per exponent as integers, and the sums combined over the smallest
 * exponent seen. Every double is a multiple of 2^-1074, so the total is an
 * integer multiple of the smallest exponent's power of two: a result in the
 * subnormal range is exact, and a normal one is rounded once by `Number()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DoubleSum } from "./exact_sum.ts";
 *
 * const s = new DoubleSum();
 * for (const x of [0.1, 0.2, 0.3, 1e20, -1e20]) s.add(x);
 * assert.equal(s.value, 0.6); // 0.1 + 0.2 + 0.3 in floats gives 0.6000000000000001, and 1e20 swallows them
 * const t = new DoubleSum();
 * for (const x of [-1e20, 0.3, 1e20, 0.2, 0.1]) t.add(x);
 * assert.equal(t.value, s.value);
 * ```
 */
export class DoubleSum {
  // signed mantissa sums by binary exponent (value = mantissa * 2^exponent)
  readonly #byExponent = new Map<number, bigint>();
  readonly #view = new DataView(new ArrayBuffer(8));

  /**
   * Add a finite value.
   *
   * @param x The value.
   * @throws {RangeError} When `x` is not finite.
   */
  add(x: number): void {
    if (!Number.isFinite(x)) {
      throw new RangeError(`DoubleSum adds finite values, got ${x}`);
    }
    if (x === 0) return;
    this.#view.setFloat64(0, x);
    const hi = this.#view.getUint32(0);
    const lo = this.#view.getUint32(4);
    const biased = (hi >>> 20) & 0x7ff;
    const top = hi & 0xfffff;
    // a normal value has the hidden leading bit; a subnormal has exponent 1
    let mantissa = (BigInt(biased === 0 ? top : top | 0x100000) << 32n) |
      BigInt(lo);
    if (hi >>> 31) mantissa = -mantissa;
    const exponent = Math.max(biased, 1) - 1075;
    this.#byExponent.set(
      exponent,
      (this.#byExponent.get(exponent) ?? 0n) + mantissa,
    );
  }

  /** The sum so far, rounded once (0 for none). */
  get value(): number {
    let low = Infinity;
    for (const [e, m] of this.#byExponent) if (m !== 0n && e < low) low = e;
    if (low === Infinity) return 0;
    let total = 0n;
    for (const [e, m] of this.#byExponent) {
      if (m !== 0n) total += m << BigInt(e - low);
    }
    if (total === 0n) return 0;
    // keep 64 bits and a sticky bit for the rest (a total of many bits would
    // overflow Number() before its scaling brought it back into range);
    // Number() then rounds once, and scaling by a power of two is exact in
    // the normal range; a subnormal total is short, and exact to begin with
    const negative = total < 0n;
    let magnitude = negative ? -total : total;
    const extra = magnitude.toString(2).length - 64;
    if (extra > 0) {
      const rest = magnitude & ((1n << BigInt(extra)) - 1n);
      magnitude = (magnitude >> BigInt(extra)) | (rest === 0n ? 0n : 1n);
      low += extra;
    }
    const high = Math.max(0, low - 1000);
    const x = Number(magnitude) * 2 ** (low - high) * 2 ** high;
    return negative ? -x : x;
  }
}
