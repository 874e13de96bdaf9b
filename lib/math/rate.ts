/**
 * Rates with their denominators and Wilson score intervals, switching to
 * Clopper–Pearson next to 0 and n successes, where Wilson under-covers.
 *
 * @module
 */

import { clopperPearsonInterval } from "./clopper_pearson.ts";
import { _betaQuantile } from "./_special.ts";
import { normalQuantile } from "./normal_quantile.ts";

/** A confidence interval for a rate. */
export interface RateInterval {
  /** Lower bound. */
  readonly lo: number;
  /** Upper bound. */
  readonly hi: number;
  /** Confidence level, for example 0.95. */
  readonly level: number;
  /**
   * How it was computed: `"wilson"`, or `"clopper-pearson"` next to the
   * boundary; `"wilson-clustered"` and `"clopper-pearson-clustered"` when
   * some task has several trials and the interval counts
   * {@linkcode RateInterval.effectiveN} units instead of the decisions
   * ({@linkcode clusteredRate}).
   */
  readonly method:
    | "wilson"
    | "clopper-pearson"
    | "wilson-clustered"
    | "clopper-pearson-clustered";
  /**
   * The effective number of independent units a clustered interval counts:
   * n² / Σ T² over the rate's tasks (T the trials of a task), which is the
   * number of tasks when every task has the same number of trials. Present
   * only on a clustered interval.
   */
  readonly effectiveN?: number;
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
  return { ...wilsonBounds(successes, n, level), level, method: "wilson" };
}

// Wilson's bounds for k successes of n, which need not be integers (a
// clustered interval passes effective counts).
function wilsonBounds(
  successes: number,
  n: number,
  level: number,
): { lo: number; hi: number } {
  const z = normalQuantile((1 + level) / 2);
  const z2 = z * z;
  const centre = (successes + z2 / 2) / (n + z2);
  const half = (z * Math.sqrt((successes * (n - successes)) / n + z2 / 4)) /
    (n + z2);
  // At k = 0 and k = n the bounds are exactly 0 and 1; rounding must not move them.
  return {
    lo: successes === 0 ? 0 : Math.max(0, centre - half),
    hi: successes === n ? 1 : Math.min(1, centre + half),
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

/**
 * A rate whose decisions come in tasks, some with several trials (epochs,
 * repeated runs), with an interval that counts tasks rather than trials.
 *
 * Trials of one task share its difficulty, so they are not independent
 * draws. With T_i trials of task i and c_i of them successes, the rate
 * k/n = Σ c_i / Σ T_i is a mean over tasks weighted by T_i, and whatever the
 * agreement between a task's trials, the variance of its share c_i/T_i (a
 * number in [0, 1]) is at most p(1 − p), the variance of a single trial. So
 * Var(k/n) ≤ p(1 − p) · Σ T_i² / n², that of a binomial proportion over
 * n_eff = n² / Σ T_i² trials: Kish's effective sample size with the tasks
 * weighted by their trials, the number of tasks when every task has T
 * trials. The interval is the one {@linkcode rateInterval} gives for
 * k·n_eff/n successes of n_eff (Wilson, or Clopper–Pearson within
 * {@linkcode BOUNDARY_COUNT} of the boundary, on the effective counts, as
 * Korn and Graubard do with a design effect). The bound is reached when a
 * task's trials always agree; with trials that vary within a task the
 * interval is wider than it needs to be. With one trial per task
 * (Σ T_i² = n) the rate is exactly {@linkcode rate}'s.
 *
 * @param successes Count of successes, an integer in [0, n].
 * @param n Count of trials.
 * @param trialsSquared Σ T_i² over the tasks of the n trials (Σ of the cells' `taskTrialsSum`), at least `n`.
 * @param options Confidence level.
 * @returns The rate; `value` is successes / n, and `interval` counts `effectiveN` units when `trialsSquared` exceeds `n`.
 * @throws {RangeError} As {@linkcode wilsonInterval}, or when `trialsSquared` is not a finite number.
 *
 * @example 50 tasks of 5 trials: the interval counts 50 units, not 250
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusteredRate, rate } from "./rate.ts";
 *
 * const tasks = clusteredRate(225, 250, 50 * 5 * 5);
 * assert.equal(tasks.value, 0.9);
 * assert.equal(tasks.interval!.method, "wilson-clustered");
 * assert.equal(tasks.interval!.effectiveN, 50);
 * const trials = rate(225, 250).interval!;
 * assert.ok(tasks.interval!.hi - tasks.interval!.lo > 2 * (trials.hi - trials.lo));
 * // one trial per task: the plain rate
 * assert.deepEqual(clusteredRate(225, 250, 250), rate(225, 250));
 * ```
 */
export function clusteredRate(
  successes: number,
  n: number,
  trialsSquared: number,
  options: RateOptions = {},
): Rate {
  const plain = rate(successes, n, options);
  if (!Number.isFinite(trialsSquared)) {
    throw new RangeError(
      `Cannot compute a clustered rate: the sum of squared trials must be finite, got ${trialsSquared}`,
    );
  }
  if (plain.interval === null || trialsSquared <= n) return plain;
  const level = plain.interval.level;
  const effectiveN = (n * n) / trialsSquared;
  const k = (successes * n) / trialsSquared;
  let bounds: { lo: number; hi: number };
  let method: "wilson-clustered" | "clopper-pearson-clustered";
  if (Math.min(k, effectiveN - k) > BOUNDARY_COUNT) {
    bounds = wilsonBounds(k, effectiveN, level);
    method = "wilson-clustered";
  } else {
    // Clopper–Pearson's beta quantiles, at the effective counts
    const alpha = 1 - level;
    bounds = {
      lo: successes === 0 ? 0 : _betaQuantile(alpha / 2, k, effectiveN - k + 1),
      hi: successes === n
        ? 1
        : _betaQuantile(1 - alpha / 2, k + 1, effectiveN - k),
    };
    method = "clopper-pearson-clustered";
  }
  return {
    ...plain,
    interval: { ...bounds, level, method, effectiveN },
  };
}
