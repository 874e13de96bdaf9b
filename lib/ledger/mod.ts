/**
 * Ledger: a hash-chained, append-only record of every decision, with
 * verification that names the first bad record, a review workflow,
 * counterfactual replay with zero model calls, and drift on the loss
 * distribution (`third-number`, the decision ledger).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/load.ts";
 * import { SIMULATED_MODELS } from "../tasks/simulate.ts";
 * import {
 *   ledgerColumns,
 *   ledgerText,
 *   replay,
 *   simulateLedgerMonth,
 *   thresholdPolicy,
 *   verifyLedger,
 * } from "./mod.ts";
 *
 * const month = simulateLedgerMonth({
 *   start: "2026-03-01", days: 3, casesPerDay: 100, mix: { clean: 0.7, LOW: 0.1, MEDIUM: 0.1, HIGH: 0.1 },
 *   served: SIMULATED_MODELS.small_severity_shaped, policy: thresholdPolicy("desk", 0.2),
 *   profile: getProfile("reconciliation"),
 * }, { seed: 1 });
 * const ledger = ledgerText(month.records);
 * assert.equal(verifyLedger(new TextEncoder().encode(ledger.text)).valid, true);
 * const same = replay(ledgerColumns(ledger.entries), { threshold: 0.2 });
 * assert.equal(same.changed.cases, 0); // the recorded policy, replayed, changes nothing
 * ```
 *
 * @module
 */

export * from "./record.ts";
export * from "./chain.ts";
export * from "./verify.ts";
export * from "./writer.ts";
export * from "./repair.ts";
export * from "./read.ts";
export * from "./lossbench_chain.ts";
export * from "./policy.ts";
export * from "./decision_record.ts";
export * from "./columns.ts";
export * from "./review.ts";
export * from "./refit.ts";
export * from "./replay.ts";
export * from "./drift.ts";
export * from "./simulate_month.ts";
