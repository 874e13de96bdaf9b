/**
 * Escalation thresholds with finite-sample guarantees, fitted on a
 * calibration split: a split-conformal (conformal risk control) threshold
 * on the rate of errors served automatically, and a Learn-then-Test
 * threshold on the error rate among automatic decisions.
 *
 * @module
 */

import { _betaInc } from "../math/_special.ts";
import { clopperPearsonUpper } from "../math/clopper_pearson.ts";
import { _checkScored } from "./_score_groups.ts";

/** Options for {@linkcode conformalEscalationThreshold}. */
export interface ConformalOptions {
  /** Target: the expected loss of automatic errors per decision. Required, > 0. */
  alpha: number;
  /**
   * Loss of an automatic error per decision. Default: 1 (alpha is then a
   * rate of automatic errors per decision).
   */
  exposure?: ArrayLike<number>;
  /**
   * Upper bound B on any decision's loss, including future ones: K of the
   * most severe class. Default: the largest exposure given, or 1.
   */
  bound?: number;
}

/** A threshold with a guarantee, and what it was fitted on. */
export interface ConformalThreshold {
  /**
   * Serve automatically iff P(error) < threshold (strict). `0` escalates
   * everything; `Infinity` serves everything.
   */
  readonly threshold: number;
  /** Calibration decisions. */
  readonly n: number;
  /** Target. */
  readonly alpha: number;
  /** Loss bound B used. */
  readonly bound: number;
  /** Calibration decisions the threshold serves automatically. */
  readonly autoServed: number;
  /** Their loss on the calibration split. */
  readonly autoLoss: number;
  /** The guarantee, in words. */
  readonly guarantee: string;
}

/**
 * A split-conformal escalation threshold: serving automatically below it
 * keeps the expected loss of automatic errors per decision at most alpha,
 * for any model and any n.
 *
 * Conformal risk control (Angelopoulos, Bates, Fisch, Lei & Schuster 2022)
 * with the loss L(τ) = exposure × 1{error and P(error) < τ}, which can only
 * grow with τ and is at most B. On n exchangeable calibration decisions the
 * threshold is the largest τ with (Σ L_i(τ) + B)/(n + 1) ≤ alpha; then for a
 * new decision from the same distribution E[L(τ̂)] ≤ alpha, the expectation
 * taken over the calibration split too. With exposure 1 that is
 * P(error and served automatically) ≤ alpha: a bound on the share of all
 * decisions that are errors nobody reviews. It reads only the calibration
 * errors (a conformal quantile of their P(error)). Cost: O(n log n).
 *
 * @param pError P(error) per calibration decision.
 * @param error 1 when the calibration decision was wrong.
 * @param options Target alpha (required), exposure and its bound.
 * @returns The threshold and the guarantee it carries.
 * @throws {RangeError} When alpha is not positive, an input is out of range, or an exposure exceeds the bound.
 * @throws {TypeError} When the columns differ in length.
 *
 * @example At most 2% of decisions may be unreviewed errors
 * ```ts
 * import assert from "node:assert/strict";
 * import { conformalEscalationThreshold } from "./conformal_threshold.ts";
 *
 * const pError = Array.from({ length: 999 }, (_, i) => i / 1000);
 * const error = pError.map((p, i) => ((i * 0.618) % 1) < p ? 1 : 0);
 * const t = conformalEscalationThreshold(pError, error, { alpha: 0.02 });
 * // at most floor(0.02 × 1000 − 1) = 19 calibration errors below the threshold
 * assert.ok(error.filter((e, i) => e === 1 && pError[i] < t.threshold).length <= 19);
 * ```
 */
export function conformalEscalationThreshold(
  pError: ArrayLike<number>,
  error: ArrayLike<number>,
  options: ConformalOptions,
): ConformalThreshold {
  const what = "a conformal escalation threshold";
  const alpha = options?.alpha;
  if (!(alpha > 0) || !Number.isFinite(alpha)) {
    throw new RangeError(
      `Cannot compute ${what}: alpha must be a finite number > 0, got ${alpha}`,
    );
  }
  _checkScored(what, pError, error, options.exposure, "pError");
  const n = pError.length;
  const exposure = options.exposure;
  let maxExposure = exposure === undefined ? 1 : 0;
  if (exposure !== undefined) {
    for (let i = 0; i < n; i++) {
      maxExposure = Math.max(maxExposure, exposure[i]);
    }
  }
  const bound = options.bound ??
    (exposure === undefined ? 1 : maxExposure || 1);
  if (!(bound > 0) || !Number.isFinite(bound) || bound < maxExposure) {
    throw new RangeError(
      `Cannot compute ${what}: bound must be a finite number > 0 and at least every exposure (${maxExposure}), got ${bound}`,
    );
  }
  const budget = alpha * (n + 1) - bound;
  const guarantee =
    `E[loss of an automatic error per decision] <= ${alpha} (conformal risk control, n = ${n}, B = ${bound})`;
  // errors by increasing P(error), with their losses
  const errs: number[] = [];
  for (let i = 0; i < n; i++) if (error[i] === 1) errs.push(i);
  errs.sort((a, b) => pError[a] - pError[b]);
  let threshold = Infinity;
  if (budget < 0) threshold = 0;
  else {
    let cum = 0;
    for (let j = 0; j < errs.length; j++) {
      // every error with P(error) < pError[errs[j]] is below; equal ones join it
      let k = j;
      let group = 0;
      while (k < errs.length && pError[errs[k]] === pError[errs[j]]) {
        group += exposure === undefined ? 1 : exposure[errs[k]];
        k++;
      }
      if (cum + group > budget) {
        threshold = pError[errs[j]];
        break;
      }
      cum += group;
      j = k - 1;
    }
  }
  let autoServed = 0;
  let autoLoss = 0;
  for (let i = 0; i < n; i++) {
    if (pError[i] < threshold) {
      autoServed++;
      if (error[i] === 1) autoLoss += exposure === undefined ? 1 : exposure[i];
    }
  }
  return { threshold, n, alpha, bound, autoServed, autoLoss, guarantee };
}

/** Options for {@linkcode selectiveRiskThreshold}. */
export interface SelectiveRiskOptions {
  /** Target error rate among automatic decisions, in (0, 1). Required. */
  alpha: number;
  /** Allowed probability that the guarantee fails, in (0, 1). Default: 0.1. */
  delta?: number;
  /**
   * Candidate thresholds, fixed before seeing the data. Default: 0 and 200
   * log-spaced values from 1e-4 to 1.
   */
  grid?: readonly number[];
}

/** A selective-risk threshold and its evidence. */
export interface SelectiveRiskThreshold {
  /** Serve automatically iff P(error) ≤ threshold; `null` when no candidate is certified (escalate everything). */
  readonly threshold: number | null;
  /** Calibration decisions at or below it. */
  readonly autoServed: number;
  /** Errors among them. */
  readonly autoErrors: number;
  /** Their exact upper confidence bound at level 1 − delta / |grid|; `null` when nothing is certified. */
  readonly upperBound: number | null;
  /** Target. */
  readonly alpha: number;
  /** Failure probability. */
  readonly delta: number;
  /** Candidates tested. */
  readonly candidates: number;
  /** The guarantee, in words. */
  readonly guarantee: string;
}

/** The default candidate grid: 0 and 200 log-spaced values from 1e-4 to 1. */
export const SELECTIVE_RISK_GRID: readonly number[] = Object.freeze([
  0,
  ...Array.from({ length: 200 }, (_, j) => Math.pow(10, -4 + (4 * j) / 199)),
]);

/**
 * The loosest escalation threshold whose error rate among automatic
 * decisions is at most alpha with probability at least 1 − delta.
 *
 * Learn then Test (Angelopoulos, Bates, Candès, Jordan & Lei 2021): each
 * candidate τ of a grid fixed in advance is a null hypothesis "the error
 * rate among decisions with P(error) ≤ τ exceeds alpha", rejected when the
 * exact (Clopper–Pearson) upper bound on that rate, at level
 * 1 − delta/|grid|, is at most alpha. Bonferroni over the grid makes the
 * family-wise error at most delta whatever the ordering of the risks, so
 * the largest rejected τ has P(selective risk > alpha) ≤ delta over the
 * draw of the calibration split. Cost: O(n log n + |grid| log n).
 *
 * @param pError P(error) per calibration decision.
 * @param error 1 when the calibration decision was wrong.
 * @param options Target alpha (required), delta (default 0.1) and the grid.
 * @returns The certified threshold, or `null` when none is certified.
 * @throws {RangeError} When alpha, delta or an input is out of range.
 * @throws {TypeError} When the columns differ in length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectiveRiskThreshold } from "./conformal_threshold.ts";
 *
 * const pError = Array.from({ length: 5000 }, (_, i) => (i % 1000) / 2000);
 * const error = pError.map((p, i) => ((i * 0.618) % 1) < p ? 1 : 0);
 * const t = selectiveRiskThreshold(pError, error, { alpha: 0.05 });
 * assert.ok(t.threshold !== null && t.upperBound! <= 0.05);
 * assert.ok(t.autoErrors / t.autoServed < 0.05);
 * ```
 */
export function selectiveRiskThreshold(
  pError: ArrayLike<number>,
  error: ArrayLike<number>,
  options: SelectiveRiskOptions,
): SelectiveRiskThreshold {
  const what = "a selective-risk threshold";
  const alpha = options?.alpha;
  const delta = options?.delta ?? 0.1;
  if (!(alpha > 0 && alpha < 1)) {
    throw new RangeError(
      `Cannot compute ${what}: alpha must be in (0, 1), got ${alpha}`,
    );
  }
  if (!(delta > 0 && delta < 1)) {
    throw new RangeError(
      `Cannot compute ${what}: delta must be in (0, 1), got ${delta}`,
    );
  }
  _checkScored(what, pError, error, undefined, "pError");
  const grid = [...(options.grid ?? SELECTIVE_RISK_GRID)].sort((a, b) => a - b);
  const n = pError.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
    pError[a] - pError[b]
  );
  const level = 1 - delta / grid.length;
  let best: { t: number; k: number; e: number } | null = null;
  let k = 0;
  let e = 0;
  for (const t of grid) {
    while (k < n && pError[order[k]] <= t) e += error[order[k++]];
    if (k === 0 || e >= k) continue;
    // the exact upper bound is <= alpha iff P(Binomial(k, alpha) <= e) <= 1 − level
    if (_betaInc(k - e, e + 1, 1 - alpha) <= 1 - level) best = { t, k, e };
  }
  return {
    threshold: best === null ? null : best.t,
    autoServed: best === null ? 0 : best.k,
    autoErrors: best === null ? 0 : best.e,
    upperBound: best === null
      ? null
      : clopperPearsonUpper(best.e, best.k, { level }),
    alpha,
    delta,
    candidates: grid.length,
    guarantee:
      `P(error rate among automatic decisions > ${alpha}) <= ${delta} (Learn then Test, Bonferroni over ${grid.length} candidates, n = ${n})`,
  };
}
