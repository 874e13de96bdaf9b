/**
 * The veto frontier's cost curve: expected cost per query against the
 * escalation threshold on a confidence margin.
 *
 * @module
 */

import { _checkScored, _scoreGroups } from "./_score_groups.ts";
import { _checkVetoCosts } from "./_veto.ts";
import type { VetoCosts } from "./break_even.ts";

/** The cost curve of a margin threshold, as parallel columns. */
export interface VetoCostCurve {
  /** Escalate iff margin ≤ threshold; `-Infinity` for always-auto. */
  readonly threshold: readonly number[];
  /** Queries escalated. */
  readonly escalated: readonly number[];
  /** Share of queries escalated. */
  readonly escalatedShare: readonly number[];
  /** r(c): error rate of the router on the escalated queries; `null` when none. */
  readonly escalatedErrorRate: readonly (number | null)[];
  /** Cost per query: C_r × automatic errors + (C_e + p_j·C_r) × escalations, over n. */
  readonly cost: readonly number[];
  /** Cost per query of always serving automatically: the flat line. */
  readonly alwaysAuto: number;
  /** Cost per query of always escalating. */
  readonly alwaysEscalate: number;
  /** p* = p_j + C_e/C_r. */
  readonly pStar: number;
  /** The cheapest threshold (ties go to fewer escalations). */
  readonly operatingPoint: {
    readonly threshold: number;
    readonly cost: number;
    readonly escalatedShare: number;
    readonly escalatedErrorRate: number | null;
  };
  /**
   * The widest threshold still below the always-auto line, where r(c)
   * passes p*: the largest c with r(c) > p*; `null` when no threshold beats
   * always-auto.
   */
  readonly crossing: {
    readonly threshold: number;
    readonly escalatedShare: number;
    readonly escalatedErrorRate: number;
  } | null;
  /** Queries. */
  readonly n: number;
}

/**
 * The expected cost per query of escalating every query whose margin is at
 * most c, for every c at once.
 *
 * A query served automatically costs C_r when the router is wrong (its
 * realised error); an escalated one costs the judge call C_e plus p_j·C_r
 * in expectation. Against always-auto, escalating the k lowest-margin
 * queries changes the cost by k·C_r·(p* − r(c)), so the curve is below the
 * flat always-auto line exactly where r(c) > p*, has its minimum at the
 * operating point, and rises to the always-escalate cost (The Veto
 * Frontier, `veto-frontier`, its cost figure). One sort and prefix sums:
 * O(n log n).
 *
 * @param margin Confidence margin per query (higher is surer), for example the RRF top-1 − top-2 gap.
 * @param error 1 when the automatic answer (the router's top-1) was wrong.
 * @param costs p_j, C_e and C_r.
 * @returns The curve, its flat line, its minimum and the crossing.
 * @throws {RangeError} When a margin is not finite, an error flag is not 0/1 or a cost is out of range.
 * @throws {TypeError} When the columns differ in length.
 *
 * @example Low margins are mostly wrong, so escalating them pays
 * ```ts
 * import assert from "node:assert/strict";
 * import { vetoCostCurve } from "./veto_cost_curve.ts";
 *
 * // 20 queries with margins 0.01 .. 0.20; the router is wrong on the two lowest
 * const margin = Array.from({ length: 20 }, (_, i) => (i + 1) / 100);
 * const error = margin.map((_, i) => (i < 2 ? 1 : 0));
 * const curve = vetoCostCurve(margin, error, { pj: 0.1, ce: 0.02, cr: 1 });
 * assert.equal(curve.alwaysAuto, 0.1);
 * assert.equal(curve.operatingPoint.threshold, 0.02);
 * assert.ok(Math.abs(curve.operatingPoint.cost - 2 * 0.12 / 20) < 1e-12);
 * // r(c) = 2/k stays above p* = 0.12 up to k = 16 escalated queries
 * assert.equal(curve.crossing!.threshold, 0.16);
 * ```
 */
export function vetoCostCurve(
  margin: ArrayLike<number>,
  error: ArrayLike<number>,
  costs: VetoCosts,
): VetoCostCurve {
  const what = "a veto cost curve";
  const { pj, ce, cr } = _checkVetoCosts(what, costs);
  _checkScored(what, margin, error, undefined, "margin");
  const g = _scoreGroups(margin, error);
  const n = g.n;
  let totalErrors = 0;
  for (const e of g.errors) totalErrors += e;
  const escCost = ce + pj * cr;
  const pStar = pj + ce / cr;
  const d = g.score.length;
  const threshold = [-Infinity];
  const escalated = [0];
  const escalatedShare = [0];
  const rate: (number | null)[] = [null];
  const alwaysAuto = n === 0 ? 0 : (cr * totalErrors) / n;
  const cost = [alwaysAuto];
  let op = {
    threshold: -Infinity,
    cost: alwaysAuto,
    escalatedShare: 0,
    escalatedErrorRate: null as number | null,
  };
  let crossing: VetoCostCurve["crossing"] = null;
  let k = 0;
  let e = 0;
  for (let j = 0; j < d; j++) {
    k += g.count[j];
    e += g.errors[j];
    const c = (cr * (totalErrors - e) + k * escCost) / n;
    const r = e / k;
    threshold.push(g.score[j]);
    escalated.push(k);
    escalatedShare.push(k / n);
    rate.push(r);
    cost.push(c);
    if (c < op.cost) {
      op = {
        threshold: g.score[j],
        cost: c,
        escalatedShare: k / n,
        escalatedErrorRate: r,
      };
    }
    if (r > pStar) {
      crossing = {
        threshold: g.score[j],
        escalatedShare: k / n,
        escalatedErrorRate: r,
      };
    }
  }
  return {
    threshold,
    escalated,
    escalatedShare,
    escalatedErrorRate: rate,
    cost,
    alwaysAuto,
    alwaysEscalate: n === 0 ? 0 : escCost,
    pStar,
    operatingPoint: op,
    crossing,
    n,
  };
}
