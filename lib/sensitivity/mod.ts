/**
 * K-sensitivity: what a ranking of models does as costs vary. Loss is linear
 * in the cost profile, so each model reduces once to a loss coefficient
 * vector and every profile after that is a dot product; crossovers along a
 * cost family are solved exactly; sweeps report winners, flips, Kendall tau
 * against the accuracy ranking, win shares and the regret of choosing by
 * accuracy; the rank-reversal distance says how far costs must move to
 * change the top model.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { costFamily, crossoverRatio, rankReversalDistance, sweepFamily } from "./mod.ts";
 *
 * const model = (modelId: string, low: number, high: number) => ({ modelId, n: 10_000,
 *   correct: 10_000 - low - high, K: { LOW: low, MEDIUM: 0, HIGH: high, CRITICAL: 0 }, review: 0, fixed: 0 });
 * const [a, b] = [model("A", 100, 40), model("B", 3000, 30)];
 * // 20 + 400 r = 600 + 300 r
 * assert.equal(crossoverRatio(a, b, costFamily())!.ratio, 5.8);
 * const sweep = sweepFamily([a, b], costFamily());
 * assert.deepEqual([sweep.flips, sweep.points[0].winners], [1, ["A"]]);
 * assert.equal(rankReversalDistance([a, b], getProfile("reconciliation")).winners[0], "A");
 * ```
 *
 * @module
 */

export * from "./loss_coefficients.ts";
export * from "./cost_family.ts";
export * from "./kendall_tau.ts";
export * from "./sweep.ts";
export * from "./crossover.ts";
export * from "./crossover_interval.ts";
export * from "./family_sweep.ts";
export * from "./rank_reversal.ts";
export * from "./registry_draws.ts";
export * from "./escalation_rate.ts";
export * from "./disagreeing_pair.ts";
