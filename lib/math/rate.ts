/**
 * Rates with their denominators and Wilson score intervals, switching to
 * Clopper–Pearson next to 0 and n successes, where Wilson under-covers.
 *
 * @module
 */

import { clopperPearsonInterval } from "./clopper_pearson.ts";
import { normalQuantile } from "./normal_quantile.ts";

/** A confidence interval for a rate. */
export interface RateInterval {
  /** Lower bound. */
  readonly lo: number;
  /** Upper bound. */
  readonly hi: number;
  /** Confidence level, for example 0.95. */
  readonly level: number;
  /** How it was computed: `"wilson"`, or `"clopper-pearson"` next to the boundary. */
  readonly method: "wilson" | "clopper-pearson";
}

/**
 * A proportion that carries its own denominator.
 *
 * `value` and `interval` are `null` when the denominator is 0: a rate over
 * nothing is unknown, not zero.
 */
export interface Rate {
  /** Count of successes. */
  readonly numerator: number;
  /** Count of trials. */
  readonly denominator: number;
  /** `numerator / denominator`, or `null` when the denominator is 0. */
  readonly value: number | null;
  /** The {@linkcode rateInterval}, or `null` when the denominator is 0. */
  readonly interval: RateInterval | null;
}

/** Options for rates and intervals. */
export interface RateOptions {
  /** Confidence level of the interval, in (0, 1). Default: 0.95. */
  level?: number;
}

function checkCounts(what: string, k: number, n: number): void {
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(
      `Cannot compute ${what}: trials must be an integer >= 0, got ${n}`,
    );
  }
  if (!Number.isInteger(k) || k < 0 || k > n) {
    throw new RangeError(
      `Cannot compute ${what}: successes must be an integer in [0, ${n}], got ${k}`,
    );
  }
}

function checkLevel(what: string, level: number): void {
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot compute ${what}: level must be in (0, 1), got ${level}`,
    );
  }
}

/**
 * The Wilson score interval for a binomial proportion.
 *
 * Wilson (1927) inverts the normal approximation to the score test, so the
 * interval stays inside [0, 1] and behaves at 0 and n successes, where the
 * Wald interval collapses to a point. With z the normal quantile at
 * (1 + level) / 2, the centre is (k + z²/2) / (n + z²) and the half-width
 * z·sqrt(k(n-k)/n + z²/4) / (n + z²).
 *
 * @param successes Count of successes, an integer in [0, n].
 * @param n Count of trials.
 * @param options Confidence level.
 * @returns The interval, or `null` when `n` is 0.
 * @throws {RangeError} When the counts are not integers with 0 <= k <= n, or the level is not in (0, 1).
 *
 * @example 98 correct out of 100
 * ```ts
 * import assert from "node:assert/strict";
 * import { wilsonInterval } from "./rate.ts";
 *
 * const ci = wilsonInterval(98, 100)!;
 * assert.ok(Math.abs(ci.lo - 0.9299) < 1e-4 && Math.abs(ci.hi - 0.9945) < 1e-4);
 * assert.equal(wilsonInterval(0, 0), null);
 * ```
 */
export function wilsonInterval(
  successes: number,
  n: number,
  options: RateOptions = {},
): RateInterval | null {
  const level = options.level ?? 0.95;
  checkCounts("Wilson interval", successes, n);
  checkLevel("Wilson interval", level);
  if (n === 0) return null;
  const z = normalQuantile((1 + level) / 2);
  const z2 = z * z;
  const centre = (successes + z2 / 2) / (n + z2);
  const half = (z * Math.sqrt((successes * (n - successes)) / n + z2 / 4)) /
    (n + z2);
  // At k = 0 and k = n the bounds are exactly 0 and 1; rounding must not move them.
  return {
    lo: successes === 0 ? 0 : Math.max(0, centre - half),
    hi: successes === n ? 1 : Math.min(1, centre + half),
    level,
    method: "wilson",
  };
}

/**
 * Within this many successes or failures of the boundary, {@linkcode rateInterval}
 * uses Clopper–Pearson instead of Wilson.
 */
export const BOUNDARY_COUNT = 3;

/**
 * The interval lossbook prints for a rate: Wilson, except within
 * {@linkcode BOUNDARY_COUNT} successes or failures of the boundary, where it
 * is Clopper–Pearson.
 *
 * Wilson's coverage dips to about 0.83 at nominal 0.95 when the true rate is
 * so close to 1 (or 0) that one or two failures are typical: recall near 1
 * on a severity with a few dozen exceptions. Brown, Cai and DasGupta (2001)
 * locate the dip at k or n − k in {1, 2, 3}. There the exact interval takes
 * over; the coverage study computes the switched interval's coverage
 * exactly from the binomial and finds at least 0.919 for every n ≤ 400 and p,
 * against 0.828 for Wilson alone.
 *
 * @param successes Count of successes, an integer in [0, n].
 * @param n Count of trials.
 * @param options Confidence level.
 * @returns The interval with its method, or `null` when `n` is 0.
 * @throws {RangeError} As {@linkcode wilsonInterval}.
 *
 * @example 99 of 100 is next to the boundary; 90 of 100 is not
 * ```ts
 * import assert from "node:assert/strict";
 * import { rateInterval } from "./rate.ts";
 *
 * assert.equal(rateInterval(99, 100)!.method, "clopper-pearson");
 * assert.equal(rateInterval(90, 100)!.method, "wilson");
 * assert.equal(rateInterval(0, 0), null);
 * ```
 */
export function rateInterval(
  successes: number,
  n: number,
  options: RateOptions = {},
): RateInterval | null {
  const wilson = wilsonInterval(successes, n, options);
  if (wilson === null) return null;
  if (Math.min(successes, n - successes) > BOUNDARY_COUNT) return wilson;
  // Clopper–Pearson bounds are found by bisection; a bootstrap of recall asks
  // for the same few (k, n) thousands of times, so they are remembered.
  const key = `${successes}/${n}/${wilson.level}`;
  let exact = EXACT_CACHE.get(key);
  if (exact === undefined) {
    exact = Object.freeze(
      clopperPearsonInterval(successes, n, { level: wilson.level })!,
    );
    if (EXACT_CACHE.size >= 4096) EXACT_CACHE.clear();
    EXACT_CACHE.set(key, exact);
  }
  return exact;
}

const EXACT_CACHE = new Map<string, RateInterval>();

/**
 * A rate with its denominator and interval ({@linkcode rateInterval}).
 *
 * @param successes Count of successes.
 * @param n Count of trials.
 * @param options Confidence level.
 * @returns The rate; `value` and `interval` are `null` when `n` is 0.
 * @throws {RangeError} As {@linkcode wilsonInterval}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rate } from "./rate.ts";
 *
 * assert.equal(rate(784, 800).value, 0.98);
 * assert.deepEqual(rate(0, 0), { numerator: 0, denominator: 0, value: null, interval: null });
 * ```
 */
export function rate(
  successes: number,
  n: number,
  options: RateOptions = {},
): Rate {
  const interval = rateInterval(successes, n, options);
  return {
    numerator: successes,
    denominator: n,
    value: n === 0 ? null : successes / n,
    interval,
  };
}
