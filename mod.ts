/**
 * lossbook: consequence-weighted evaluation of AI systems that touch money.
 *
 * Accuracy and price are the two numbers leaderboards print; lossbook
 * computes the third, what it costs when the system is wrong. Load a run
 * export, reduce it to sufficient statistics, and read accuracy, errors and
 * recall per severity and loss under any cost profile.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   accuracy,
 *   decisionStats,
 *   forModel,
 *   getProfile,
 *   loadDecisionsJsonl,
 *   realisedLoss,
 * } from "./mod.ts";
 *
 * const table = await loadDecisionsJsonl("data/examples/model_ab.jsonl");
 * const stats = decisionStats(table);
 * const a = forModel(stats, "A");
 * const b = forModel(stats, "B");
 * assert.equal(accuracy(a).value, 0.98);
 * assert.ok(realisedLoss(b, getProfile("reconciliation"))! < realisedLoss(a, getProfile("reconciliation"))!);
 * ```
 *
 * @module
 */

export { VERSION } from "./version.ts";

// costs
export {
  anchorValue,
  combineProfiles,
  defineProfile,
  deriveProfile,
  getAnchor,
  getProfile,
  isFlatProfile,
  isSeverity,
  loadProfileFile,
  loadRegistryFile,
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

// evidence
export {
  attemptEvidence,
  CANDIDATE_EXITS,
  classifyAttempt,
  COST_COMPLETENESS,
  COST_PER_SUCCESS_LABELS,
  costPerSuccess,
  costReportBy,
  costTotals,
  FAILURE_CLASSES,
  isCostEvidence,
  isModelIdentity,
  readEnvelope,
  reconcileCost,
  sameIdentity,
  stepCells,
  successRate,
} from "./lib/evidence/mod.ts";
export type {
  AttemptEvidence,
  AttemptSignals,
  CandidateExit,
  CostColumns,
  CostCompleteness,
  CostEvidence,
  CostPerSuccess,
  CostPerSuccessLabel,
  CostReportOptions,
  CostReportRow,
  CostTotals,
  EvidenceColumns,
  ExecutionEnvelope,
  FailureClass,
  Grade,
  LocalStepSignals,
  ModelAttemptSignals,
  ModelIdentity,
  StepCellsOptions,
  SuccessRateOptions,
} from "./lib/evidence/mod.ts";

// runs
export {
  CLEAN_CLASS,
  DECISION_CHECKS,
  DECISION_COLUMNS,
  DECISION_FORMATS,
  decisionFormatOf,
  decisionStats,
  decisionStatsSql,
  decisionsToArrow,
  decisionsToCsv,
  decisionsToJsonl,
  decisionTable,
  duckdbDecisionStats,
  duplicateDecisionsSql,
  isCorrect,
  jsonlStats,
  loadDecisions,
  loadDecisionsArrow,
  loadDecisionsCsv,
  loadDecisionsJsonl,
  loadDecisionsParquet,
  loadLossbenchLedger,
  loadReconforge,
  pairedStats,
  parseDecisionsArrow,
  parseDecisionsCsv,
  parseDecisionsJsonl,
  parseLossbenchLedger,
  parseReconforge,
  pError,
  SIMULATED_MODELS,
  simulateRun,
  UNRECORDED_GOLD,
  UNTYPED_EXCEPTION,
  withDuckDB,
  writeDecisions,
  writeDecisionsArrow,
  writeDecisionsCsv,
  writeDecisionsParquet,
} from "./lib/runs/mod.ts";
export type {
  Action,
  ConfidenceModel,
  Decision,
  DecisionCheck,
  DecisionFileOptions,
  DecisionFormat,
  DuckDBOptions,
  DuckDBProgress,
  DuckDBStatsOptions,
  ImportResult,
  JsonlStats,
  LossbenchOptions,
  PairedStats,
  ParseDecisionsOptions,
  ProbabilityMeaning,
  ReconforgeOptions,
  SimTask,
  SimulatedModel,
  SimulateOptions,
} from "./lib/runs/mod.ts";

// tasks
export {
  canonicalJson,
  checkTask,
  classesBySeverity,
  contamination,
  DOMAIN_RULES,
  domainClasses,
  DOMAINS,
  generateSuite,
  generateTask,
  generateTasks,
  isDomain,
  loadTasksJsonl,
  maxSimilarity,
  NEAR_DUPLICATE_THRESHOLD,
  nearMissSignals,
  parseTasksJsonl,
  readTasksJsonl,
  streamTasksJsonl,
  suiteHash,
  taskClass,
  taskPrompt,
  taskRng,
  taskSignature,
  taskTable,
  verifyPaymentRepair,
  verifyReconciliation,
  verifySettlement,
  verifyState,
  writeTasksJsonl,
} from "./lib/tasks/mod.ts";
export type {
  ContaminationOptions,
  ContaminationReport,
  Domain,
  DomainRules,
  GenerateOptions,
  GenerationStats,
  Gold,
  ParseTasksOptions,
  PaymentRepairState,
  ReconciliationState,
  SettlementState,
  StreamSummary,
  Task,
  TaskCheck,
  TaskRng,
  WriteSummary,
  WriteTasksOptions,
} from "./lib/tasks/mod.ts";

// metrics
export {
  accuracy,
  beta,
  binomial,
  bootstrapInterval,
  caughtRecallBySeverity,
  confusionMatrix,
  CONSEQUENCE_MATRIX,
  defineCostMatrix,
  errorsBySeverity,
  expectedLoss,
  forModel,
  gamma,
  lossBySeverity,
  modelIds,
  multinomial,
  normal,
  normalQuantile,
  outcomeOf,
  OUTCOMES,
  rate,
  realisedLoss,
  recallBySeverity,
  RECONFORGE_CLASS_WEIGHTS,
  ruleCost,
  seededPrng,
  severityWeightedRecall,
  sortStats,
  STAT_COUNTS,
  STAT_KEYS,
  STRICT_MATRIX,
  summarise,
  wilsonInterval,
} from "./lib/metrics/mod.ts";
export type {
  BootstrapInterval,
  BootstrapOptions,
  CaughtOptions,
  ConfusionCell,
  CostMatrix,
  CostRule,
  LossOptions,
  Outcome,
  PairedComparison,
  PairedRow,
  Prng,
  Rate,
  RateInterval,
  RateOptions,
  SelectOptions,
  SeverityLoss,
  StatsRow,
  StatsSummary,
  WeightedRecallOptions,
} from "./lib/metrics/mod.ts";

// sensitivity
export {
  bayesEscalationRate,
  coefficientLoss,
  costFamily,
  crossoverRatio,
  crossovers,
  disagreeingPair,
  DRAW_DISTRIBUTIONS,
  drawRegistryProfiles,
  familyLine,
  familyProfile,
  fitGlobalThreshold,
  fitSeverityThresholds,
  kendallTauB,
  logGrid,
  lossCoefficients,
  PAYMENTS_ANCHOR_MAP,
  rankReversalDistance,
  sweepFamily,
  sweepProfiles,
  winnerChanges,
} from "./lib/sensitivity/mod.ts";
export type {
  AnchorMap,
  CoefficientLossOptions,
  CostFamily,
  CostFamilyOptions,
  Crossover,
  CrossoverOptions,
  DisagreeingPair,
  DisagreeingPairOptions,
  DrawDistribution,
  EscalationColumns,
  FamilyLine,
  FamilySweep,
  FamilySweepOptions,
  FittedGlobalThreshold,
  FittedSeverityThresholds,
  FittedThreshold,
  GlobalScore,
  GlobalThresholdOptions,
  LogGridOptions,
  LossCoefficientOptions,
  LossCoefficients,
  LossPer,
  RangeOptions,
  RankReversal,
  RankReversalOptions,
  RegistryDrawOptions,
  Sweep,
  SweepOptions,
  SweepPoint,
  WinnerChange,
} from "./lib/sensitivity/mod.ts";

// claims
export { assertClaims, claimClose, claimEqual } from "./lib/claims/mod.ts";
export type {
  AnalysisResult,
  Claim,
  ClaimOptions,
  ClaimValue,
  VegaLiteSpec,
} from "./lib/claims/mod.ts";

// charts
export {
  groupedBarChart,
  heatmapChart,
  lineChart,
  renderPng,
  renderSvg,
  VEGA_LITE_SCHEMA,
} from "./lib/charts/mod.ts";
export type {
  GroupedBarOptions,
  HeatmapOptions,
  LineChartOptions,
  LineMarker,
  RenderPngOptions,
} from "./lib/charts/mod.ts";

// analyses
export {
  ANALYSES,
  AUTOMATED_MODELS,
  divergence,
  ESCALATION_COUNTEREXAMPLE,
  FLAT_COST_SUITE,
  flatCostTheorem,
  HONEST_COSTS_FIXTURE,
  honestCosts,
  kSensitivity,
  MODEL_AB_SCENARIO,
  registryLadderProfiles,
  scenarioDecisions,
  SENSITIVITY_MODELS,
  SENSITIVITY_SUITES,
  THEOREM_MODELS,
} from "./analyses/mod.ts";
export type {
  AnalysisEntry,
  DivergenceOptions,
  DivergenceScenario,
  FlatCostTheoremOptions,
  HonestCostsAttempt,
  HonestCostsOptions,
  KSensitivityOptions,
  ScenarioDecisionsOptions,
} from "./analyses/mod.ts";

// notebook display
export {
  JUPYTER_DISPLAY,
  mimeBundle,
  showChart,
  showClaims,
  showResult,
  showTable,
} from "./display.ts";
export type { Displayable, MimeBundle } from "./display.ts";
