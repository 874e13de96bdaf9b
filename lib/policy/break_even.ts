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
}

/**
 * The break-even posterior of the veto frontier: escalate a decision to the
 * judge iff its P(wrong) exceeds p* = p_j + C_e/C_r.
 *
 * Served automatically, a decision with error probability p costs p·C_r in
 * expectation; escalated, it costs the call C_e plus p_j·C_r for the judge's
 * own errors. The two are equal at p = p_j + C_e/C_r (The Veto Frontier,
 * seed document 002; DESIGN §4.5). A free judge (C_e = 0) gives p* = p_j;
 * when p* ≥ 1 no probability exceeds it and escalation never pays. C_r
 * differs by skill or severity class, so p* does too: compute one per class.
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
 */
export function breakEven(costs: VetoCosts): BreakEven {
  const { pj, ce, cr } = _checkVetoCosts("a break-even posterior", costs);
  const pStar = pj + ce / cr;
  return { pj, ce, cr, pStar, regime: pStar >= 1 ? "never-pays" : "threshold" };
}
