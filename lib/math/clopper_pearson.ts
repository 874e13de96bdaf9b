/**
 * The Clopper–Pearson exact binomial interval.
 *
 * @module
 */

import { _betaQuantile } from "./_special.ts";

/** An exact (Clopper–Pearson) confidence interval for a binomial proportion. */
export interface ExactInterval {
  /** Lower bound. */
  readonly lo: number;
  /** Upper bound. */
  readonly hi: number;
  /** Confidence level. */
  readonly level: number;
  /** How it was computed. */
  readonly method: "clopper-pearson";
}

/**
 * The Clopper–Pearson interval for k successes in n trials.
 *
 * Clopper & Pearson (1934) invert two one-sided exact binomial tests, so the
 * interval covers the true proportion with probability at least `level`
 * for every n and p; it is conservative where Wilson's is approximate. The
 * bounds are beta quantiles, B(α/2; k, n − k + 1) and B(1 − α/2; k + 1,
 * n − k), found by bisection on the regularised incomplete beta function
 * (about 1e-14 absolute accuracy). Use it for small counts, as in a sign
 * test on a few dozen escalated decisions.
 *
 * @param successes Count of successes, an integer in [0, n].
 * @param n Count of trials.
 * @param options Confidence level. Default: 0.95.
 * @returns The interval, or `null` when n is 0.
 * @throws {RangeError} When the counts are not integers with 0 ≤ k ≤ n or the level is outside (0, 1).
 *
 * @example 17 errors among 63 queries
 * ```ts
 * import assert from "node:assert/strict";
 * import { clopperPearsonInterval } from "./clopper_pearson.ts";
 *
 * // scipy.stats.beta.ppf(0.025, 17, 47) = 0.1657125784339606, beta.ppf(0.975, 18, 46) = 0.3965147192934922
 * const ci = clopperPearsonInterval(17, 63)!;
 * assert.ok(Math.abs(ci.lo - 0.1657125784339606) < 1e-12);
 * assert.ok(Math.abs(ci.hi - 0.3965147192934922) < 1e-12);
 * assert.equal(clopperPearsonInterval(0, 10)!.lo, 0);
 * assert.equal(clopperPearsonInterval(0, 0), null);
 * ```
 */
export function clopperPearsonInterval(
  successes: number,
  n: number,
  options: { level?: number } = {},
): ExactInterval | null {
  const level = options.level ?? 0.95;
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(
      `Cannot compute a Clopper-Pearson interval: trials must be an integer >= 0, got ${n}`,
    );
  }
  if (!Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(
      `Cannot compute a Clopper-Pearson interval: successes must be an integer in [0, ${n}], got ${successes}`,
    );
  }
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot compute a Clopper-Pearson interval: level must be in (0, 1), got ${level}`,
    );
  }
  if (n === 0) return null;
  const alpha = 1 - level;
  return {
    lo: successes === 0
      ? 0
      : _betaQuantile(alpha / 2, successes, n - successes + 1),
    hi: successes === n
      ? 1
      : _betaQuantile(1 - alpha / 2, successes + 1, n - successes),
    level,
    method: "clopper-pearson",
  };
}

/**
 * The exact one-sided upper confidence bound for a binomial proportion:
 * the largest p with P(Binomial(n, p) ≤ k) ≥ 1 − level.
 *
 * @param successes Count of successes, an integer in [0, n].
 * @param n Count of trials.
 * @param options Confidence level. Default: 0.95.
 * @returns The bound, or `null` when n is 0.
 * @throws {RangeError} As {@linkcode clopperPearsonInterval}.
 *
 * @example No errors in 299 decisions: at 95%, the error rate is below 1%
 * ```ts
 * import assert from "node:assert/strict";
 * import { clopperPearsonUpper } from "./clopper_pearson.ts";
 *
 * // the rule of three: 1 − 0.05^(1/299) ≈ 3/299
 * assert.ok(Math.abs(clopperPearsonUpper(0, 299)! - (1 - Math.pow(0.05, 1 / 299))) < 1e-12);
 * ```
 */
export function clopperPearsonUpper(
  successes: number,
  n: number,
  options: { level?: number } = {},
): number | null {
  const level = options.level ?? 0.95;
  // validates the counts and the level
  if (clopperPearsonInterval(successes, n, { level }) === null) return null;
  if (successes === n) return 1;
  return _betaQuantile(level, successes + 1, n - successes);
}
