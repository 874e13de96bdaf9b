/**
 * Risk-coverage in money: every escalation threshold at once, from one sort
 * and prefix sums, with AURC and E-AURC.
 *
 * @module
 */

import {
  _checkReviewCost,
  _checkScored,
  _optimum,
  _scoreGroups,
} from "./_score_groups.ts";
import type {
  EscalationOptions,
  OptimalThreshold,
} from "./optimal_threshold.ts";

/**
 * A risk-coverage curve: one point per distinct threshold, from escalating
 * everything (coverage 0) to serving everything automatically (coverage 1).
 * Columns are parallel arrays (typed, except selective risk, which is `null`
 * where it is undefined).
 */
export interface RiskCoverageCurve {
  /** Serve automatically iff P(error) ≤ threshold; `-Infinity` for the escalate-all point. */
  readonly threshold: Float64Array;
  /** Share of decisions served automatically. */
  readonly coverage: Float64Array;
  /** Decisions served automatically. */
  readonly autoServed: Float64Array;
  /** Errors among them. */
  readonly autoErrors: Float64Array;
  /** Selective risk: error rate among automatic decisions; `null` at coverage 0. */
  readonly selectiveRisk: readonly (number | null)[];
  /** Loss of the automatic errors. */
  readonly autoLoss: Float64Array;
  /** Cost in money: autoLoss + reviewCost × escalated. */
  readonly cost: Float64Array;
  /** Decisions. */
  readonly n: number;
  /** Review cost used. */
  readonly reviewCost: number;
  /**
   * AURC: area under selective risk against coverage, Σ_k risk(k)/n over
   * the decisions served in order of increasing P(error) (Geifman, Uziel &
   * El-Yaniv 2019); decisions with equal P(error) share the risk at the end
   * of their group. `null` when there are no decisions.
   */
  readonly aurc: number | null;
  /** AURC of the oracle that serves every correct decision first (errors last). */
  readonly aurcOptimal: number | null;
  /** E-AURC = AURC − optimal AURC: the part of AURC owed to ranking, not to the error rate. */
  readonly eAurc: number | null;
  /** Money AURC: the same area with selective loss per automatic decision in place of the error rate. */
  readonly moneyAurc: number | null;
  /** Money AURC of the oracle that serves decisions in order of their realised loss. */
  readonly moneyAurcOptimal: number | null;
  /** Money E-AURC = money AURC − its optimum. */
  readonly moneyEAurc: number | null;
  /** The point of lowest cost. */
  readonly optimal: OptimalThreshold;
}

/**
 * The risk-coverage curve in money: for every threshold, the loss of the
 * decisions left automatic plus reviewCost × the decisions escalated.
 *
 * Decisions are served automatically from the lowest stated P(error) up. At
 * each distinct P(error) the curve records coverage, selective risk (the
 * error rate of the automatic decisions), their loss and the total cost.
 * One sort and prefix sums compute every point exactly: O(n log n), never
 * O(n × thresholds). AURC and E-AURC are the named areas of Geifman et al.
 * (2019), in error-rate units and in money. The cheapest point is the
 * in-sample optimal global threshold (see `optimalThreshold`).
 *
 * @param pError P(error) per decision, 1 − pCorrect.
 * @param error 1 when the decision was wrong.
 * @param options Exposure per decision (default 1) and review cost (default 1).
 * @returns The curve as columns, the areas and the optimum.
 * @throws {RangeError} When a value is out of range.
 * @throws {TypeError} When the columns differ in length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { riskCoverage } from "./risk_coverage.ts";
 *
 * const rc = riskCoverage([0.1, 0.2, 0.3, 0.4], [0, 0, 1, 0], { reviewCost: 0.5 });
 * assert.deepEqual([...rc.coverage], [0, 0.25, 0.5, 0.75, 1]);
 * assert.deepEqual([...rc.cost], [2, 1.5, 1, 1.5, 1]);
 * // risks 0, 0, 1/3, 1/4 at coverage 1/4 .. 1
 * assert.ok(Math.abs(rc.aurc! - (1 / 3 + 1 / 4) / 4) < 1e-12);
 * // the oracle serves the error last: risk 1/4 at full coverage only
 * assert.ok(Math.abs(rc.eAurc! - (1 / 3) / 4) < 1e-12);
 * ```
 */
export function riskCoverage(
  pError: ArrayLike<number>,
  error: ArrayLike<number>,
  options: EscalationOptions = {},
): RiskCoverageCurve {
  const what = "a risk-coverage curve";
  _checkScored(what, pError, error, options.exposure, "pError");
  const reviewCost = _checkReviewCost(what, options.reviewCost ?? 1);
  const g = _scoreGroups(pError, error, options.exposure);
  const n = g.n;
  const d = g.score.length;
  const threshold = new Float64Array(d + 1);
  const coverage = new Float64Array(d + 1);
  const autoServed = new Float64Array(d + 1);
  const autoErrors = new Float64Array(d + 1);
  const selectiveRisk = new Array<number | null>(d + 1);
  const autoLoss = new Float64Array(d + 1);
  const cost = new Float64Array(d + 1);
  threshold[0] = -Infinity;
  coverage[0] = 0;
  autoServed[0] = 0;
  autoErrors[0] = 0;
  selectiveRisk[0] = null;
  autoLoss[0] = 0;
  cost[0] = reviewCost * n;
  let k = 0;
  let e = 0;
  let l = 0;
  let aurc = 0;
  let moneyAurc = 0;
  for (let j = 0; j < d; j++) {
    k += g.count[j];
    e += g.errors[j];
    l += g.loss[j];
    threshold[j + 1] = g.score[j];
    coverage[j + 1] = k / n;
    autoServed[j + 1] = k;
    autoErrors[j + 1] = e;
    selectiveRisk[j + 1] = e / k;
    autoLoss[j + 1] = l;
    cost[j + 1] = l + reviewCost * (n - k);
    aurc += (g.count[j] / n) * (e / k);
    moneyAurc += (g.count[j] / n) * (l / k);
  }
  const best = _optimum(g, reviewCost);
  const optimal: OptimalThreshold = {
    threshold: best.groups === 0 ? null : g.score[best.groups - 1],
    n,
    autoServed: best.autoServed,
    escalated: n - best.autoServed,
    autoErrors: best.errors,
    cost: best.cost,
    costAllAuto: l,
    costAllEscalate: reviewCost * n,
    saved: l - best.cost,
  };
  if (n === 0) {
    return {
      threshold,
      coverage,
      autoServed,
      autoErrors,
      selectiveRisk,
      autoLoss,
      cost,
      n,
      reviewCost,
      aurc: null,
      aurcOptimal: null,
      eAurc: null,
      moneyAurc: null,
      moneyAurcOptimal: null,
      moneyEAurc: null,
      optimal,
    };
  }
  // oracles: correct decisions first, then errors (by increasing loss for money)
  const m = n - e;
  const losses = new Float64Array(e);
  for (let i = 0, j = 0; i < n; i++) {
    if (error[i] === 1) {
      losses[j++] = options.exposure === undefined ? 1 : options.exposure[i];
    }
  }
  losses.sort();
  let aurcOptimal = 0;
  let moneyAurcOptimal = 0;
  let cum = 0;
  for (let t = 1; t <= e; t++) {
    cum += losses[t - 1];
    aurcOptimal += t / (m + t);
    moneyAurcOptimal += cum / (m + t);
  }
  aurcOptimal /= n;
  moneyAurcOptimal /= n;
  return {
    threshold,
    coverage,
    autoServed,
    autoErrors,
    selectiveRisk,
    autoLoss,
    cost,
    n,
    reviewCost,
    aurc,
    aurcOptimal,
    eAurc: aurc - aurcOptimal,
    moneyAurc,
    moneyAurcOptimal,
    moneyEAurc: moneyAurc - moneyAurcOptimal,
    optimal,
  };
}
