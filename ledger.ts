/**
 * The decision ledger: a hash-chained, append-only record of every decision
 * a system took, the policy it took it under and the reviews that followed;
 * verification that names the first bad record; counterfactual replay of
 * the recorded decisions under another threshold or cost profile, with zero
 * model calls; and drift of the loss distribution over time
 * (`third-number`, the decision ledger; formats in `docs/formats.md`).
 *
 * One writer appends at a time ({@linkcode openLedger} holds a lock and
 * keeps a head file beside the ledger, so that a truncation is caught);
 * readers verify before they trust ({@linkcode loadLedger},
 * {@linkcode verifyLedgerFile}); replay and drift work on the columns of the
 * entries ({@linkcode ledgerColumns}).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   decisionRecord,
 *   ledgerColumns,
 *   loadLedger,
 *   openLedger,
 *   replay,
 * } from "./ledger.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/ledger.jsonl`;
 * const decision = (taskId: string, predClass: string, pCorrect: number) => ({
 *   runId: "r", modelId: "m", taskId, trial: 0, severity: "HIGH", trueClass: "AMOUNT_MISMATCH",
 *   predClass, parseOk: true, pCorrect, action: "auto", outcome: "resolved",
 *   cost: { completeness: "complete", usd: 0.01 } } as const);
 * const writer = await openLedger(path);
 * await writer.append([
 *   decisionRecord(decision("t1", "MATCH", 0.6), { at: "2026-03-01T09:00:00Z" }),
 *   decisionRecord(decision("t2", "AMOUNT_MISMATCH", 0.95), { at: "2026-03-01T09:05:00Z" }),
 * ]);
 * await writer.close();
 *
 * const { verification, entries } = await loadLedger(path);
 * assert.equal(verification.valid, true);
 * // escalating above a risk of 0.3 would have sent the miss (risk 0.4) to review
 * const r = replay(ledgerColumns(entries), { threshold: 0.3 });
 * // reconciliation: a HIGH miss costs 10, a review 1
 * assert.deepEqual([r.before.loss, r.after.loss], [10, 1]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

// writing
export {
  decisionRecord,
  LedgerDamagedError,
  openLedger,
  openReview,
  policyRecord,
  repairTornTail,
  resolveReview,
  thresholdPolicy,
} from "./lib/ledger/mod.ts";

// reading and verifying
export {
  ledgerColumns,
  ledgerEntriesFile,
  loadLedger,
  overdueReviews,
  reviewSummary,
  verifyLedger,
  verifyLedgerFile,
  verifyLossbenchLedgerFile,
} from "./lib/ledger/mod.ts";

// replay and drift
export {
  costCurve,
  errorsFlatCostRising,
  ksTest,
  ledgerDrift,
  lossByDay,
  populationStabilityIndex,
  refitPolicy,
  replay,
  rollingCalibration,
  simulateLedgerMonth,
} from "./lib/ledger/mod.ts";

// constants the types below are defined from
export { SEVERITIES } from "./lib/costs/mod.ts";
export { DECISION_FIELDS } from "./lib/decision/schema.ts";

// the types of what the functions above take and return
export type {
  CostProfile,
  CostSlot,
  CostSource,
  Severity,
} from "./lib/costs/mod.ts";
export type {
  Decision,
  DecisionSchemaField,
  FieldValue,
  OptionalDecisionField,
  PCorrectSource,
  RequiredDecisionField,
  RuleValue,
  TopDecisionField,
} from "./lib/decision/mod.ts";
export type { DecisionUnit } from "./lib/decision/cluster.ts";
export type { CostEvidence } from "./lib/evidence/mod.ts";
export type {
  CalibrationWindow,
  CostCurve,
  CostCurveOptions,
  DayLoss,
  DecisionRecord,
  DecisionRecordOptions,
  DriftWindowSummary,
  ErrorsFlatCostRising,
  ErrorsFlatOptions,
  HeadFile,
  KsTest,
  LedgerAdoption,
  LedgerAppend,
  LedgerColumns,
  LedgerColumnsOptions,
  LedgerDecision,
  LedgerDrift,
  LedgerDriftOptions,
  LedgerEntry,
  LedgerHead,
  LedgerProblem,
  LedgerRecord,
  LedgerVerification,
  LedgerWriter,
  LoadedLedger,
  LossByDayOptions,
  LossWindow,
  MonthScenario,
  OpenLedgerOptions,
  OpenReviewOptions,
  OverdueReview,
  PolicyEntry,
  PolicyRecord,
  PolicyRecordOptions,
  Psi,
  PsiBin,
  PsiOptions,
  ReadLedgerFileOptions,
  Refit,
  RefitBasis,
  RefitOptions,
  RepairOptions,
  RepairResult,
  ReplayDifference,
  ReplayDiffRow,
  ReplayOptions,
  ReplayPolicy,
  ReplayResult,
  ReplaySide,
  Resolution,
  ResolveReviewOptions,
  ReviewOpenedRecord,
  ReviewResolvedRecord,
  ReviewState,
  ReviewSummary,
  RollingCalibrationOptions,
  SeverityRefit,
  SeverityThresholds,
  SimulatedMonth,
  SimulateMonthOptions,
  ThresholdPolicy,
  ThresholdPolicyOptions,
  UnacknowledgedTail,
  Unevaluable,
  VerifyFileOptions,
  VerifyOptions,
} from "./lib/ledger/mod.ts";
export type {
  Action,
  BootstrapInterval,
  CostMatrix,
  CostRule,
  Outcome,
  PairedComparison,
} from "./lib/metrics/mod.ts";
export type { ConfidenceModel, SimulatedModel } from "./lib/tasks/mod.ts";
