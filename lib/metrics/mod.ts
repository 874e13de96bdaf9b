/**
 * Metrics over sufficient statistics: accuracy with its denominator, errors
 * and recall per severity, realised and expected loss, Wilson intervals.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { accuracy, realisedLoss } from "./mod.ts";
 *
 * const row = { modelId: "B", severity: "HIGH", trueClass: "AMOUNT_MISMATCH", n: 500,
 *   correct: 498, escalated: 0, autoErrors: 2, pErrorSum: 0, pMissing: 500, parseFailures: 0 } as const;
 * assert.equal(accuracy([row]).value, 0.996);
 * assert.equal(realisedLoss([row], getProfile("principal_risk")), 2000);
 * ```
 *
 * @module
 */

export * from "./sufficient_stats.ts";
export * from "./normal_quantile.ts";
export * from "./rate.ts";
export * from "./accuracy.ts";
export * from "./loss.ts";
