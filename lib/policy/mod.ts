/**
 * Policy: turning probabilities into money-optimal escalation and routing,
 * and the veto frontier's bounds. Risk-coverage in money with AURC and
 * E-AURC, optimal thresholds globally and per severity, the Bayes rule,
 * conformal thresholds with finite-sample guarantees, the break-even p*,
 * the regret bound, the sign test, reciprocal rank fusion and its margin
 * lattice, the certified threshold, loss-optimal routing, the error-cost
 * term of routing economics and judge agreement.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { breakEven, optimalThreshold, policyRegret, rrfMarginLattice } from "./mod.ts";
 *
 * const costs = { pj: 0.1, ce: 0.02, cr: 1 };
 * assert.ok(Math.abs(breakEven(costs).pStar - 0.12) < 1e-12);
 * const r = policyRegret([0.05, 0.5], [0.2, 0.4], costs);
 * assert.ok(r.excess <= r.bound);
 * assert.ok(Math.abs(rrfMarginLattice().maxMarginBound - 0.0318) < 5e-5);
 * assert.equal(optimalThreshold([0.01, 0.6], [0, 1], { exposure: [10, 10] }).threshold, 0.01);
 * ```
 *
 * @module
 */

export * from "./policy_columns.ts";
export * from "./optimal_threshold.ts";
export * from "./risk_coverage.ts";
export * from "./bayes_rule.ts";
export * from "./conformal_threshold.ts";
export * from "./break_even.ts";
export * from "./veto_cost_curve.ts";
export * from "./regret.ts";
export * from "./sign_test.ts";
export * from "./rrf.ts";
export * from "./rrf_lattice.ts";
export * from "./certified_threshold.ts";
export * from "./skill_catalog.ts";
export * from "./routing.ts";
export * from "./error_cost.ts";
export * from "./kappa.ts";
