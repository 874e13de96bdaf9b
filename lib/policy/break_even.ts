/**
 * The veto frontier's break-even posterior p* = p_j + C_e/C_r.
 *
 * @module
 */

import { _checkVetoCosts } from "./_veto.ts";

/** The three costs of the veto frontier. */
export interface VetoCosts {
  /** p_j: the judge's error rate on the decisions it is sent, in [0, 1]. */
  readonly pj: number;
  /** C_e: the cost of one judge call (escalation), >= 0. */
  readonly ce: number;
  /** C_r: the cost of one wrong automatic decision (wrong routing), > 0. */
  readonly cr: number;
}

/** Whether escalation can pay. */
export type BreakEvenRegime = "threshold" | "never-pays";

/** The break-even posterior and its regime. */
export interface BreakEven extends VetoCosts {
  /** p* = p_j + C_e / C_r. */
  readonly pStar: number;
  /**
   * `threshold`: escalate exactly when P(wrong) > p*; `never-pays`: p* ≥ 1,
   * so no decision is wrong often enough for escalation to pay, and the fix
   * is a better or cheaper judge tier, not a wider rejection band.
   */
  readonly regime: BreakEvenRegime;
  /**
   * `true` when the computed p* lies within one unit in the last place of 1
   * (1 − 2⁻⁵³, 1 or 1 + 2⁻⁵²), where the rounding of p_j + C_e/C_r can have
   * moved the exact value across 1: the regime then follows the double, and
   * a caller that holds the exact inputs should decide it exactly.
   */
  readonly nearOne: boolean;
}

/** The largest double below 1, 1 − 2⁻⁵³. */
const BELOW_ONE = 1 - 2 ** -53;
/** The smallest double above 1, 1 + 2⁻⁵². */
const ABOVE_ONE = 1 + 2 ** -52;

/**
 * The break-even posterior of the veto frontier: escalate a decision to the
 * judge iff its P(wrong) exceeds p* = p_j + C_e/C_r.
 *
 * Served automatically, a decision with error probability p costs p·C_r in
 * expectation; escalated, it costs the call C_e plus p_j·C_r for the judge's
 * own errors. The two are equal at p = p_j + C_e/C_r (The Veto Frontier,
 * `veto-frontier`). A free judge (C_e = 0) gives p* = p_j;
 * when p* ≥ 1 no probability exceeds it and escalation never pays. C_r
 * differs by skill or severity class, so p* does too: compute one per class.
 *
 * p* is computed in floating point and the regime follows the computed
 * value: `never-pays` iff it is ≥ 1. Near 1 that can differ from the exact
 * value of the inputs as written: 0.08 + 1.38/1.5 is exactly 1 (never pays),
 * but its double sum is 0.9999999999999999 = 1 − 2⁻⁵³, one unit in the last
 * place below 1, which reads as a threshold that only P(wrong) = 1 exceeds.
 * So the result flags `nearOne` whenever the computed p* is within one ulp
 * of 1 (1 − 2⁻⁵³, 1 or 1 + 2⁻⁵²); the function does not guess which side the
 * exact value lies on. The `breakeven` command parses its decimal inputs as
 * exact rationals and decides the regime on them.
 *
 * @param costs p_j, C_e and C_r.
 * @returns p* and its regime.
 * @throws {RangeError} When p_j is outside [0, 1], C_e is negative or C_r is not positive.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { breakEven } from "./break_even.ts";
 *
 * const b = breakEven({ pj: 0.1, ce: 0.02, cr: 1 });
 * assert.ok(Math.abs(b.pStar - 0.12) < 1e-12);
 * assert.equal(b.regime, "threshold");
 * assert.equal(breakEven({ pj: 0.3, ce: 0.8, cr: 1 }).regime, "never-pays");
 * ```
 *
 * @example An exact boundary: the double sum lands one ulp below 1 and is flagged
 * ```ts
 * import assert from "node:assert/strict";
 * import { breakEven } from "./break_even.ts";
 *
 * // 0.08 + 1.38/1.5 is exactly 1, but in doubles it is 0.9999999999999999
 * const b = breakEven({ pj: 0.08, ce: 1.38, cr: 1.5 });
 * assert.equal(b.pStar, 1 - 2 ** -53);
 * assert.equal(b.regime, "threshold"); // follows the double ...
 * assert.equal(b.nearOne, true); // ... and says it may be on the wrong side
 * assert.equal(breakEven({ pj: 0.1, ce: 0.02, cr: 1 }).nearOne, false);
 * ```
 */
export function breakEven(costs: VetoCosts): BreakEven {
  const { pj, ce, cr } = _checkVetoCosts("a break-even posterior", costs);
  const pStar = pj + ce / cr;
  return {
    pj,
    ce,
    cr,
    pStar,
    regime: pStar >= 1 ? "never-pays" : "threshold",
    nearOne: pStar >= BELOW_ONE && pStar <= ABOVE_ONE,
  };
}
