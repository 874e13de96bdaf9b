/**
 * The reproduced studies: each function reproduces one artefact of the
 * sources lossbook cites (`docs/sources.md`) or checks one property of
 * lossbook itself, and returns its tables, its Vega-Lite charts and its
 * claims, each claim holding the expected value, the value computed and
 * whether they agree. They write no file and print nothing; `reproduce`
 * (and `lossbook reproduce`) runs them all, in report order
 * ({@linkcode ANALYSES}), and the notebooks show one each.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { ANALYSES, divergence } from "./mod.ts";
 *
 * const result = divergence();
 * assert.equal(result.id, "divergence");
 * assert.ok(result.claims.length > 0 && result.claims.every((claim) => claim.holds));
 * assert.equal(ANALYSES[0].id, result.id);
 * ```
 *
 * @module
 */

import type { AnalysisResult } from "../lib/claims/analysis_result.ts";
import { divergence } from "./divergence.ts";
import { flatCostTheorem } from "./flat_cost_theorem.ts";
import { honestCosts } from "./honest_costs.ts";
import { kSensitivity } from "./k_sensitivity.ts";
import { counterfactualReplay } from "./counterfactual_replay.ts";
import { drift } from "./drift.ts";
import { calibration } from "./calibration.ts";
import { vetoFrontier } from "./veto_frontier.ts";
import { routing } from "./routing.ts";
import { harnessLogs } from "./harness_logs.ts";
import { intervalCoverage } from "./interval_coverage.ts";
import { consequenceCard } from "./consequence_card.ts";

export {
  divergence,
  MODEL_AB_SCENARIO,
  scenarioDecisions,
} from "./divergence.ts";
export type {
  DivergenceOptions,
  DivergenceScenario,
  ExceptionSeverity,
  ScenarioDecisionsOptions,
} from "./divergence.ts";
export { HONEST_COSTS_FIXTURE, honestCosts } from "./honest_costs.ts";
export type { HonestCostsAttempt, HonestCostsOptions } from "./honest_costs.ts";
export {
  ESCALATION_COUNTEREXAMPLE,
  FLAT_COST_SUITE,
  flatCostTheorem,
  THEOREM_MODELS,
} from "./flat_cost_theorem.ts";
export type { FlatCostTheoremOptions } from "./flat_cost_theorem.ts";
export {
  AUTOMATED_MODELS,
  kSensitivity,
  registryLadderProfiles,
  SENSITIVITY_MODELS,
  SENSITIVITY_SUITES,
} from "./k_sensitivity.ts";
export type { KSensitivityOptions } from "./k_sensitivity.ts";
export {
  counterfactualReplay,
  DESK_MODEL,
  replayMonth,
} from "./counterfactual_replay.ts";
export type { CounterfactualReplayOptions } from "./counterfactual_replay.ts";
export {
  DESIGNED_ERROR_RATE,
  drift,
  DRIFT_MIX,
  DRIFT_MODEL_AFTER,
  DRIFT_MODEL_BEFORE,
  DRIFT_MODEL_STALE,
  driftMonth,
} from "./drift.ts";
export type { DriftOptions } from "./drift.ts";
export {
  calibration,
  CALIBRATION_MODELS,
  severitySuite,
} from "./calibration.ts";
export type { CalibrationOptions } from "./calibration.ts";
export { vetoFrontier } from "./veto_frontier.ts";
export type { VetoFrontierOptions } from "./veto_frontier.ts";
export { routing, ROUTING_USD_PROFILE } from "./routing.ts";
export type { RoutingOptions } from "./routing.ts";
export {
  HARNESS_EXAMPLE_LOGS,
  HARNESS_SEVERITY_MAP,
  harnessLogs,
} from "./harness_logs.ts";
export type { HarnessLogsOptions, HarnessLogSpec } from "./harness_logs.ts";
export {
  COVERAGE_MIX,
  COVERAGE_MODEL_A,
  COVERAGE_MODEL_B,
  coverageCellCounts,
  coverageTrueLoss,
  intervalCoverage,
  simulateCoverageSuite,
} from "./interval_coverage.ts";
export type {
  CoverageCell,
  CoverageModel,
  IntervalCoverageOptions,
} from "./interval_coverage.ts";
export { cardExampleRuns, consequenceCard } from "./consequence_card.ts";
export type {
  ConsequenceCardOptions,
  ConsequenceCardRun,
} from "./consequence_card.ts";

// what an analysis returns, and the check of its claims
export { assertClaims } from "../lib/claims/mod.ts";
/** One registered analysis. */
export interface AnalysisEntry {
  /** Id, equal to the analysis file name and `AnalysisResult.id`. */
  readonly id: string;
  /** Title shown in the report's table of contents. */
  readonly title: string;
  /** Run it with its published defaults. */
  readonly run: () => AnalysisResult | Promise<AnalysisResult>;
}

/** Every analysis, in the order the report shows them. */
export const ANALYSES: readonly AnalysisEntry[] = [
  {
    id: "divergence",
    title: "Model A vs Model B: accuracy and loss disagree",
    run: () => divergence(),
  },
  {
    id: "honest_costs",
    title: "Honest cost evidence: unknown is never printed as zero",
    run: () => honestCosts(),
  },
  {
    id: "flat_cost_theorem",
    title: "The flat-cost theorem, divergence and escalation monotonicity",
    run: () => flatCostTheorem(),
  },
  {
    id: "k_sensitivity",
    title: "K-sensitivity: how the ranking moves as costs vary",
    run: () => kSensitivity(),
  },
  {
    id: "counterfactual_replay",
    title:
      "Counterfactual replay: last month under another policy, with zero model calls",
    run: () => counterfactualReplay(),
  },
  {
    id: "drift",
    title: "Errors flat, cost rising: drift on the loss distribution",
    run: () => drift(),
  },
  {
    id: "calibration",
    title:
      "Calibration in money: reliability, ECE and its noise floor, recalibration, escalation",
    run: () => calibration(),
  },
  {
    id: "veto_frontier",
    title:
      "The veto frontier: p*, cost curve, regret bound, sign test, RRF lattice, certified threshold",
    run: () => vetoFrontier(),
  },
  {
    id: "routing",
    title:
      "Routing in money: Switchyard with the error-cost term, loss-optimal routing, judge kappa",
    run: () => routing(),
  },
  {
    id: "harness_logs",
    title:
      "Harness logs in money: inspect_ai and lm-eval runs under the four profiles",
    run: () => harnessLogs(),
  },
  {
    id: "interval_coverage",
    title: "Intervals that hold where the money is: a coverage study",
    run: () => intervalCoverage(),
  },
  {
    id: "consequence_card",
    title:
      "The consequence card and the board, held to score, sweep, calibrate and their own p-values",
    run: () => consequenceCard(),
  },
];

// constants the types below are defined from
export { SEVERITIES } from "../lib/costs/mod.ts";
export { DECISION_FIELDS } from "../lib/decision/schema.ts";
export { FAILURE_CLASSES } from "../lib/evidence/mod.ts";
export { HARNESS_FORMATS } from "../lib/import/mod.ts";

// the types of what the analyses above take and return
export type {
  AnalysisResult,
  Claim,
  ClaimKind,
  ClaimValue,
  VegaLiteSpec,
} from "../lib/claims/mod.ts";
export type {
  CostProfile,
  CostSlot,
  CostSource,
  Severity,
} from "../lib/costs/mod.ts";
export type {
  Decision,
  DecisionSchemaField,
  FieldValue,
  OptionalDecisionField,
  PCorrectSource,
  RequiredDecisionField,
  RuleValue,
  TopDecisionField,
} from "../lib/decision/mod.ts";
export type {
  AttemptSignals,
  CandidateExit,
  CommonSignals,
  CostEvidence,
  ExecutionEnvelope,
  FailureClass,
  Grade,
  LocalStepSignals,
  ModelAttemptSignals,
  ModelIdentity,
} from "../lib/evidence/mod.ts";
export type { HarnessFormat } from "../lib/import/mod.ts";
export type { RunSource } from "../commands/_input.ts";
export type {
  ClusterOptions,
  FlagValue,
  InputOptions,
  MappingOptions,
} from "../api/options.ts";
export type {
  DecisionRecord,
  LedgerDecision,
  LedgerRecord,
  PolicyRecord,
  RefitBasis,
  Resolution,
  ReviewOpenedRecord,
  ReviewResolvedRecord,
  SimulatedMonth,
} from "../lib/ledger/mod.ts";
export type { Prng } from "../lib/math/mod.ts";
export type { Action, StatsRow } from "../lib/metrics/mod.ts";
export type { VetoCosts } from "../lib/policy/mod.ts";
export type { EscalationColumns } from "../lib/sensitivity/mod.ts";
export type {
  ConfidenceModel,
  SimTask,
  SimulatedModel,
} from "../lib/tasks/mod.ts";
