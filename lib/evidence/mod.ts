/**
 * Evidence: cost completeness states, failure classes, the classification
 * cascade, cost reconciliation from the execution envelope, and aggregation
 * that never turns an unknown into a number (`yylo-benchmark`).
 *
 * An attempt's terminal signals give its class (`classifyAttempt`) and its
 * cost (`reconcileCost`); columns of outcomes and costs give totals that keep
 * complete spend, partial floors and unknowns in separate books
 * (`costTotals`), a labelled cost per success (`costPerSuccess`), a success
 * rate that is null over nothing (`successRate`), and a per-group report
 * (`costReportBy`).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { attemptEvidence, costPerSuccess, costTotals, FAILURE_CLASSES, readEnvelope } from "./mod.ts";
 *
 * assert.equal(FAILURE_CLASSES.length, 9);
 * const requested = { provider: "acme", model: "alpha", version: "2026-01" };
 * const missing = attemptEvidence({
 *   requested, envelope: readEnvelope("progress 1/1\n"), exit: "clean", grade: "pass",
 * });
 * assert.deepEqual(missing, { outcome: "harness_failure", cost: { completeness: "unavailable", usd: null } });
 * const columns = {
 *   costCompleteness: ["complete", "unavailable"] as const,
 *   costUsd: [0.02, null],
 *   outcome: ["resolved", "harness_failure"] as const,
 * };
 * assert.equal(costTotals(columns).completeUsd, 0.02);
 * assert.equal(costPerSuccess(columns).label, "incomplete");
 * ```
 *
 * @module
 */

export * from "./cost_evidence.ts";
export * from "./envelope.ts";
export * from "./attempt_signals.ts";
export * from "./classify.ts";
export * from "./reconcile_cost.ts";
export * from "./attempt_evidence.ts";
export * from "./cost_totals.ts";
export * from "./cost_per_success.ts";
export * from "./success_rate.ts";
export * from "./step_cells.ts";
export * from "./cost_report.ts";
