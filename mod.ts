/**
 * lossbook: consequence-weighted evaluation of AI systems that touch money.
 *
 * Accuracy and price are the two numbers leaderboards print; lossbook
 * computes the third, what it costs when the system is wrong. This is the
 * root of the package: what a notebook needs to score a run and read the
 * result.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { score } from "./mod.ts";
 *
 * const doc = await score(["data/examples/model_ab.jsonl"], { profiles: ["reconciliation"] });
 * const [a, b] = doc.models;
 * assert.ok(a.accuracy! > b.accuracy!); // A is more accurate...
 * assert.ok(b.loss.reconciliation! < a.loss.reconciliation!); // ...and B loses less money
 * ```
 *
 * ## What the root holds
 *
 * The root exports what a notebook needs, and only that: the seven functions
 * that do what the commands print, the profiles and the cost registry that
 * price decisions, the readers of run exports and harness logs, the run
 * simulator, the ledger's open, read and verify, and the cost evidence of
 * attempts. Every other value lives behind another entry point:
 * `./display` (showing results in Jupyter), `./stats` (metrics, intervals,
 * calibration, policy and sensitivity primitives), `./analyses` (the
 * reproduced studies), `./sql` (DuckDB and PostgreSQL, `export-sql`),
 * `./ledger` (the whole ledger, replay and drift) and `./cli` (the command
 * line). A test pins the list of the root's values.
 *
 * ## The functions that do what the commands print
 *
 * {@linkcode score}, {@linkcode compare}, {@linkcode calibrate},
 * {@linkcode escalate}, {@linkcode sweep}, {@linkcode plan},
 * {@linkcode card}, {@linkcode board} and {@linkcode severityTemplate}
 * (the command `severity-template`) each take
 * `(inputs, options)` and return the document the command of the same name
 * prints with `--json`: `JSON.stringify(await score(inputs, options), null,
 * 2) + "\n"` is what `lossbook score --json` writes for the same paths and
 * flags, byte for byte. {@linkcode severityTemplateCsv} turns a severity
 * template into the CSV `severity-template` writes, to fill in and pass as
 * `severityMap`.
 *
 * `inputs` is a list, each element one input as one command-line argument
 * is: a path in any format the command reads (JSONL, CSV, Parquet, Arrow,
 * ReconForge, LossBench, inspect, lm-eval, HELM, promptfoo), an array of
 * decisions, or an Arquero decision table. An input held in memory is
 * named `<memory:N>` in the document (`file`, `files`), N its position in
 * the list, from 0.
 *
 * `options` are the command's flags in camelCase: a repeatable flag takes
 * its plural (`--profile` → `profiles`), `--a`/`--b` are `a`/`b`, and a flag
 * with a value takes a string or a number (`ci: 0.9`). They are checked by
 * the same code as the flags, with the same errors. Flags that only choose
 * where or how output is written (`--json`, `--out`, `--force`) stay in the
 * command. `engine` is `memory` (the default), `duckdb`, `chdb` (ClickHouse's
 * embedded engine, once the CLI's `lossbook engine install chdb` has
 * downloaded it) or `postgres`. Every option, by function:
 *
 * - `score`: `format`, `probability`, `engine`, `dsn`, `table`, `connectTimeout`, `queryTimeout`, `severity`,
 *   `severityMap`, `severityMapKey`, `severityField`, `scorer`, `partial`,
 *   `pcorrectFrom`, `modelId`, `filter`, `metric`, `correct`,
 *   `allowIncomplete`, `maxEntryBytes`, `maxEntryRatio`, `mode`, `profiles`,
 *   `ci`, `seed`, `resamples`, `lenient`, `interval`, `level`, `cluster`
 * - `compare`: `a`, `b`, `items`, `format`, `probability`, `engine`, `dsn`, `table`,
 *   `connectTimeout`, `queryTimeout`, `severity`, `severityMap`, `severityMapKey`, `severityField`, `scorer`,
 *   `partial`, `pcorrectFrom`, `modelId`, `filter`, `metric`, `correct`,
 *   `allowIncomplete`, `maxEntryBytes`, `maxEntryRatio`, `mode`, `profiles`,
 *   `ci`, `seed`, `resamples`, `lenient`, `interval`, `cluster`
 * - `calibrate`: `format`, `severity`, `severityMap`, `severityMapKey`,
 *   `severityField`, `scorer`, `partial`, `pcorrectFrom`, `modelId`, `filter`,
 *   `metric`, `correct`, `allowIncomplete`, `maxEntryBytes`, `maxEntryRatio`,
 *   `bySource`, `probability`, `bins`, `strategy`, `profile`, `mode`, `seed`,
 *   `resamples`, `interval`, `lenient`, `cluster`
 * - `escalate`: `format`, `severity`, `severityMap`, `severityMapKey`,
 *   `severityField`, `scorer`, `partial`, `pcorrectFrom`, `modelId`, `filter`,
 *   `metric`, `correct`, `allowIncomplete`, `maxEntryBytes`, `maxEntryRatio`,
 *   `probability`, `profile`, `mode`, `points`, `lenient`, `cluster`
 * - `sweep`: `format`, `probability`, `engine`, `dsn`, `table`, `connectTimeout`, `queryTimeout`, `severity`,
 *   `severityMap`, `severityMapKey`, `severityField`, `scorer`, `partial`,
 *   `pcorrectFrom`, `modelId`, `filter`, `metric`, `correct`,
 *   `allowIncomplete`, `maxEntryBytes`, `maxEntryRatio`, `mode`, `base`,
 *   `scaled`, `from`, `to`, `points`, `per`, `registryDraws`, `distribution`,
 *   `seed`, `lenient`, `cluster`
 * - `plan`: `a`, `b`, `profile`, `mode`, `power`, `alpha`, `nTasks`,
 *   `maxTasks`, `format`, `probability`, `seed`, `cluster`
 * - `card`: `format`, `severity`, `severityMap`, `severityMapKey`,
 *   `severityField`, `scorer`, `partial`, `pcorrectFrom`, `modelId`, `filter`,
 *   `metric`, `correct`, `allowIncomplete`, `maxEntryBytes`, `maxEntryRatio`,
 *   `probability`, `mode`, `profiles`, `ci`, `seed`, `resamples`, `interval`,
 *   `base`, `taskType`, `datasetType`, `datasetName`, `lenient`, `cluster`
 * - `board`: `format`, `severity`, `severityMap`, `severityMapKey`,
 *   `severityField`, `scorer`, `partial`, `pcorrectFrom`, `modelId`, `filter`,
 *   `metric`, `correct`, `allowIncomplete`, `maxEntryBytes`, `maxEntryRatio`,
 *   `probability`, `mode`, `profiles`, `alpha`, `seed`, `resamples`, `lenient`,
 *   `cluster`
 * - `severityTemplate`: `format`, `severityMapKey`, `scorer`, `partial`,
 *   `modelId`, `filter`, `metric`, `correct`, `allowIncomplete`,
 *   `maxEntryBytes`, `maxEntryRatio`
 *
 * What each means is in `lossbook <command> --help` and `docs/cli.md`.
 *
 * @module
 */

export { VERSION } from "./version.ts";

// the functions behind the commands
export { score } from "./api/score.ts";
export type { Mode, ModelScore, ScoreDocument } from "./api/score.ts";
export { compare } from "./api/compare.ts";
export type {
  CompareDifference,
  CompareDocument,
  CompareItem,
  CompareItemTrials,
} from "./api/compare.ts";
export type { Outcome } from "./lib/metrics/sufficient_stats.ts";
export { calibrate } from "./api/calibrate.ts";
export type { CalibrateDocument, CalibrationReport } from "./api/calibrate.ts";
export { escalate } from "./api/escalate.ts";
export type {
  EscalateDocument,
  EscalationReport,
  ThresholdResult,
} from "./api/escalate.ts";
export { sweep } from "./api/sweep.ts";
export type { SweepDocument, SweepResult } from "./api/sweep.ts";
export { plan } from "./api/plan.ts";
export type { PlanDocument, PowerAt } from "./api/plan.ts";
export { card } from "./api/card.ts";
export type {
  CardCalibration,
  CardCost,
  CardDocument,
  CardModel,
  SeveritySource,
  WinSpan,
} from "./api/card.ts";
export { board } from "./api/board.ts";
export type {
  BoardDocument,
  BoardEntry,
  BoardPair,
  BoardProfile,
  BoardSweep,
} from "./api/board.ts";
export { severityTemplate } from "./api/severity_template.ts";
export type { SeverityTemplateDocument } from "./api/severity_template.ts";
export { severityTemplateCsv } from "./lib/import/severity_template.ts";
export type { SeverityTemplateRow } from "./lib/import/severity_template.ts";
export { FORMATS } from "./commands/_input.ts";
export type {
  Format,
  ImportKeys,
  InputKeys,
  RunSource,
  UnitKeys,
} from "./commands/_input.ts";
export type {
  BoardOptions,
  CalibrateOptions,
  CardOptions,
  ClusterOptions,
  CompareOptions,
  EngineOptions,
  EscalateOptions,
  FlagValue,
  InputOptions,
  MappingOptions,
  PlanOptions,
  ScoreOptions,
  ScoringOptions,
  SeverityTemplateOptions,
  SweepOptions,
} from "./api/options.ts";

// what lossbook raises
export { CheckFailed, UsageError } from "./commands/_errors.ts";
export {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
  isInputError,
} from "./lib/input_error.ts";

// profiles and the cost registry
export {
  anchorValue,
  combineProfiles,
  defineProfile,
  deriveProfile,
  getAnchor,
  getProfile,
  isFlatProfile,
  isSeverity,
  parseProfile,
  parseRegistry,
  profileFromAnchor,
  profileSpan,
  SEVERITIES,
  severityRank,
  SHIPPED_PROFILES,
  SHIPPED_REGISTRY,
} from "./lib/costs/mod.ts";
export type {
  AnchorPoint,
  AnchorRef,
  Confidence,
  CostAnchor,
  CostProfile,
  CostRegistry,
  CostSlot,
  CostSource,
  ParseSourceOptions,
  ProfileFromAnchorOptions,
  ProfileMapping,
  ProfileSpec,
  Severity,
} from "./lib/costs/mod.ts";
export { loadProfileFile, loadRegistryFile } from "./lib/read/mod.ts";

// decisions: the record, its table, its statistics
export {
  CLEAN_CLASS,
  DECISION_COLUMNS,
  decisionStats,
  isCorrect,
  pError,
} from "./lib/decision/mod.ts";
export type { Action, Decision } from "./lib/decision/mod.ts";
export type { DecisionUnit, UnitOptions } from "./lib/decision/cluster.ts";
export { forModel, INTERVAL_METHODS, modelIds } from "./lib/metrics/mod.ts";
export { DECISION_FIELDS } from "./lib/decision/schema.ts";
export type { StatsRow } from "./lib/metrics/mod.ts";

// reading and writing run exports
export {
  DECISION_FORMATS,
  decisionFormatOf,
  decisionsToArrow,
  decisionsToCsv,
  decisionTable,
  jsonlStatsFile,
  loadDecisions,
  loadDecisionsArrow,
  loadDecisionsCsv,
  loadDecisionsJsonl,
  loadDecisionsParquet,
  parseDecisionsArrow,
  parseDecisionsCsv,
  parseDecisionsJsonl,
  readDecisionsJsonl,
  writeDecisions,
} from "./lib/read/mod.ts";
export {
  decisionsToJsonl,
  SIMULATED_MODELS,
  simulateRun,
} from "./lib/tasks/mod.ts";

// harness logs and other tools' exports
export {
  HARNESS_FORMATS,
  harnessImporter,
  loadHelmRun,
  loadInspectLog,
  loadLmEvalSamples,
  loadLossbenchLedger,
  loadPromptfooResults,
  loadReconforge,
  parseHelmRun,
  parseInspectEvalLog,
  parseInspectJsonLog,
  parseLmEvalSamples,
  parseLossbenchLedger,
  parsePromptfooResults,
  parseReconforge,
  parseSeverityMap,
} from "./lib/import/mod.ts";

// the ledger: open, read, verify (replay and drift: ./ledger)
export {
  ledgerEntriesFile,
  loadLedger,
  openLedger,
  verifyLedger,
  verifyLedgerFile,
} from "./lib/ledger/mod.ts";

// cost evidence of attempts: unknown is never zero
export {
  COST_COMPLETENESS,
  COST_PER_SUCCESS_LABELS,
  costPerSuccess,
  costReportBy,
  costTotals,
  FAILURE_CLASSES,
  readEnvelope,
  reconcileCost,
} from "./lib/evidence/mod.ts";

// the types the functions above take and return
export type { BinStrategy } from "./lib/calibration/binning.ts";
export type { ParseProfileOptions } from "./lib/costs/load.ts";
export type {
  FieldValue,
  OptionalDecisionField,
  RequiredDecisionField,
} from "./lib/decision/decision.ts";
export type { DecisionColumn } from "./lib/decision/schema.ts";
export type { AttemptSignals } from "./lib/evidence/attempt_signals.ts";
export type { CostEvidence } from "./lib/evidence/cost_evidence.ts";
export type {
  CostPerSuccess,
  EvidenceColumns,
} from "./lib/evidence/cost_per_success.ts";
export type {
  CostReportOptions,
  CostReportRow,
} from "./lib/evidence/cost_report.ts";
export type { CostColumns, CostTotals } from "./lib/evidence/cost_totals.ts";
export type { ExecutionEnvelope } from "./lib/evidence/envelope.ts";
export type {
  HarnessFormat,
  HarnessImporter,
  HarnessImportResult,
  IncompleteInput,
  LogCompleteness,
  SetAside,
} from "./lib/import/harness.ts";
export type { HelmOptions, HelmRunFiles } from "./lib/import/helm.ts";
export type { InspectOptions } from "./lib/import/inspect.ts";
export type { LmEvalOptions } from "./lib/import/lm_eval.ts";
export type { LossbenchOptions } from "./lib/import/lossbench.ts";
export type { PromptfooOptions } from "./lib/import/promptfoo.ts";
export type {
  ImportResult,
  ReconforgeImportResult,
  ReconforgeOptions,
} from "./lib/import/reconforge.ts";
export type { LoadedLedger, ReadLedgerFileOptions } from "./lib/ledger/read.ts";
export type { LedgerEntry } from "./lib/ledger/record.ts";
export type {
  LedgerVerification,
  UnacknowledgedTail,
  VerifyFileOptions,
  VerifyOptions,
} from "./lib/ledger/verify.ts";
export type { LedgerWriter, OpenLedgerOptions } from "./lib/ledger/writer.ts";
export type { RateInterval } from "./lib/math/rate.ts";
export type {
  BootstrapInterval,
  PairedComparison,
} from "./lib/metrics/bootstrap.ts";
export type {
  IntervalMethod,
  LossInterval,
} from "./lib/metrics/loss_interval.ts";
export type { ConfusionCell } from "./lib/metrics/reconforge.ts";
export type { WeightedRecallInterval } from "./lib/metrics/weighted_recall_interval.ts";
export type { JsonlStats } from "./lib/read/_stats_builder.ts";
export type { DuckDBOptions } from "./lib/read/duckdb_session.ts";
export type { JsonlStatsFileOptions } from "./lib/read/jsonl_stats.ts";
export type {
  DecisionFileOptions,
  DecisionFormat,
} from "./lib/read/load_any.ts";
export type {
  ParseDecisionsOptions,
  ReadDecisionsJsonlOptions,
} from "./lib/read/load_decisions.ts";
export type { Crossover, WinnerChange } from "./lib/sensitivity/crossover.ts";
export type { LossPer } from "./lib/sensitivity/loss_coefficients.ts";
export type { DrawDistribution } from "./lib/sensitivity/registry_draws.ts";
export type {
  SimTask,
  SimulatedModel,
  SimulateOptions,
} from "./lib/tasks/simulate.ts";
export type {
  DecisionSchemaField,
  RuleValue,
  TopDecisionField,
} from "./lib/decision/decision.ts";
export type {
  LocalStepSignals,
  ModelAttemptSignals,
} from "./lib/evidence/attempt_signals.ts";
export type {
  CostCompleteness,
  FailureClass,
} from "./lib/evidence/cost_evidence.ts";
export type { CostPerSuccessLabel } from "./lib/evidence/cost_per_success.ts";
export type { ModelIdentity } from "./lib/evidence/envelope.ts";
export type { SuccessRateOptions } from "./lib/evidence/success_rate.ts";
export type { UnknownKeyOptions } from "./lib/import/_known_keys.ts";
export type { RfScores } from "./lib/import/_reconforge_scoring.ts";
export type {
  DetectInput,
  HarnessImportOptions,
  HarnessOption,
} from "./lib/import/harness.ts";
export type { ProbabilityMeaning } from "./lib/import/lossbench.ts";
export type {
  ClusterResolver,
  SeverityResolver,
} from "./lib/import/mapping.ts";
export type { ReconforgeDecision } from "./lib/import/reconforge.ts";
export type { LedgerHead } from "./lib/ledger/chain.ts";
export type { LedgerRecord } from "./lib/ledger/record.ts";
export type { HeadFile, LedgerProblem } from "./lib/ledger/verify.ts";
export type { LedgerAppend } from "./lib/ledger/writer.ts";
export type { ResolvedIntervalMethod } from "./lib/metrics/loss_interval.ts";
export type { JsonlLinesOptions } from "./lib/read/_jsonl_lines.ts";
export type { ConfidenceModel } from "./lib/tasks/simulate.ts";
export type { PCorrectSource } from "./lib/decision/pcorrect_source.ts";
export type { CommonSignals } from "./lib/evidence/attempt_signals.ts";
export type { SeverityItem } from "./lib/import/mapping.ts";
export type {
  DecisionRecord,
  PolicyRecord,
  ReviewOpenedRecord,
  ReviewResolvedRecord,
} from "./lib/ledger/record.ts";
export type { LedgerAdoption } from "./lib/ledger/verify.ts";
export type { CandidateExit, Grade } from "./lib/evidence/attempt_signals.ts";
export type {
  LedgerDecision,
  RefitBasis,
  Resolution,
} from "./lib/ledger/record.ts";
