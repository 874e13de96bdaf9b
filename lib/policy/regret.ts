/**
 * The veto frontier's regret bound: what miscalibration can cost.
 *
 * @module
 */

import { _checkVetoCosts } from "./_veto.ts";
import type { VetoCosts } from "./break_even.ts";

/** The excess cost of a policy on estimated probabilities, next to its bound. */
export interface PolicyRegret {
  /** Queries. */
  readonly n: number;
  /** p*. */
  readonly pStar: number;
  /** Mean excess expected cost per query over the Bayes policy on the true p. */
  readonly excess: number;
  /** The bound C_r × mean |q − p|. */
  readonly bound: number;
  /** Whether excess ≤ bound (up to 1e-12 relative rounding). */
  readonly holds: boolean;
  /** Queries on which the two policies act differently. */
  readonly disagreements: number;
  /** Queries the estimated policy escalates. */
  readonly escalated: number;
  /** Queries the Bayes policy escalates. */
  readonly bayesEscalated: number;
}

/**
 * The excess expected cost of escalating on estimated error probabilities
 * q instead of the true p, and the regret bound C_r·E|q − p| it obeys.
 *
 * With p* = p_j + C_e/C_r, the Bayes policy escalates iff p > p*; the
 * policy on estimates escalates iff q > p*. A query served automatically
 * costs p·C_r in expectation, an escalated one C_e + p_j·C_r = p*·C_r. The
 * two policies differ only when p* lies between p and q, and then the
 * excess is C_r·|p − p*| ≤ C_r·|q − p|. So the mean excess is at most
 * C_r × the mean absolute calibration error of q, query by query, for any
 * model and any data (The Veto Frontier, `veto-frontier`):
 * what binds on cost is calibration, not accuracy. Cost: O(n).
 *
 * @param q Estimated P(wrong) per query, in [0, 1].
 * @param p True P(wrong) per query, in [0, 1].
 * @param costs p_j, C_e and C_r.
 * @returns Excess and bound per query, and how often the policies disagree.
 * @throws {RangeError} When a probability or a cost is out of range.
 * @throws {TypeError} When `q` and `p` differ in length.
 *
 * @example An over-confident estimate skips escalations that would pay
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyRegret } from "./regret.ts";
 *
 * const r = policyRegret([0.05, 0.3], [0.2, 0.3], { pj: 0.05, ce: 0.05, cr: 10 });
 * // p* = 0.055: the first query should be escalated (0.2 > p*) but q = 0.05 serves it
 * assert.ok(Math.abs(r.excess - (10 * (0.2 - 0.055)) / 2) < 1e-12);
 * assert.ok(Math.abs(r.bound - (10 * 0.15) / 2) < 1e-12);
 * assert.equal(r.holds, true);
 * ```
 */
export function policyRegret(
  q: ArrayLike<number>,
  p: ArrayLike<number>,
  costs: VetoCosts,
): PolicyRegret {
  const what = "a policy regret";
  const { pj, ce, cr } = _checkVetoCosts(what, costs);
  if (q.length !== p.length) {
    throw new TypeError(
      `Cannot compute ${what}: q and p must have the same length, got ${q.length} and ${p.length}`,
    );
  }
  const pStar = pj + ce / cr;
  const escCost = ce + pj * cr;
  const n = q.length;
  let excess = 0;
  let gap = 0;
  let disagreements = 0;
  let escalated = 0;
  let bayesEscalated = 0;
  for (let i = 0; i < n; i++) {
    const qi = q[i];
    const pi = p[i];
    if (!(qi >= 0 && qi <= 1)) {
      throw new RangeError(
        `Cannot compute ${what}: q[${i}] must be in [0, 1], got ${qi}`,
      );
    }
    if (!(pi >= 0 && pi <= 1)) {
      throw new RangeError(
        `Cannot compute ${what}: p[${i}] must be in [0, 1], got ${pi}`,
      );
    }
    const esc = qi > pStar;
    const bayes = pi > pStar;
    if (esc) escalated++;
    if (bayes) bayesEscalated++;
    gap += Math.abs(qi - pi);
    if (esc !== bayes) {
      disagreements++;
      const chosen = esc ? escCost : pi * cr;
      const best = bayes ? escCost : pi * cr;
      excess += chosen - best;
    }
  }
  const meanExcess = n === 0 ? 0 : excess / n;
  const bound = n === 0 ? 0 : (cr * gap) / n;
  return {
    n,
    pStar,
    excess: meanExcess,
    bound,
    holds: meanExcess <= bound * (1 + 1e-12) + 1e-15,
    disagreements,
    escalated,
    bayesEscalated,
  };
}
