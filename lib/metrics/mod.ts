/**
 * Metrics over sufficient statistics: accuracy with its denominator, errors
 * and recall per severity, realised loss under a cost matrix, expected loss,
 * severity-weighted recall and Wilson intervals.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { accuracy, realisedLoss, severityWeightedRecall } from "./mod.ts";
 *
 * const cell = { modelId: "B", severity: "HIGH", trueClass: "AMOUNT_MISMATCH", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const stats = [
 *   { ...cell, predClass: "AMOUNT_MISMATCH", n: 498 },
 *   { ...cell, predClass: "MATCH", n: 2 },
 * ];
 * assert.equal(accuracy(stats).value, 0.996);
 * assert.equal(realisedLoss(stats, getProfile("principal_risk")), 2000);
 * assert.equal(severityWeightedRecall(stats), 0.996);
 * ```
 *
 * @module
 */

export * from "./sufficient_stats.ts";
export * from "./accuracy.ts";
export * from "./loss.ts";
export * from "./reconforge.ts";
export * from "./bootstrap.ts";
export * from "./clt_interval.ts";
export * from "./sample_size.ts";
export * from "./loss_posterior.ts";
export * from "./fay_feuer.ts";
export * from "./loss_interval.ts";
export * from "./sign_flip.ts";
export * from "./paired_loss_test.ts";
export * from "./rank_probability.ts";
export * from "./pooled_posterior.ts";
export * from "./paired_proportion.ts";
export * from "./paired_units.ts";
export * from "./weighted_recall_interval.ts";
export * from "./interval_warnings.ts";
