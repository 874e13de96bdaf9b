/**
 * The statistics lossbook's analyses are built from: metrics over
 * sufficient statistics (accuracy, errors and recall per severity, loss under
 * a cost profile), their intervals and tests (bootstrap, Jeffreys and
 * Fay–Feuer loss intervals, the loss posterior and the probability that each
 * model is best, paired tests, sample-size plans), calibration (reliability
 * bins, ECE with its interval and noise floor, the Brier score, calibration
 * error in money, recalibrators), policy (money-optimal escalation
 * thresholds, risk-coverage, the Bayes rule, conformal thresholds, the
 * veto frontier's break-even and regret bound, loss-optimal routing) and
 * K-sensitivity (loss coefficients, sweeps over profiles and cost families,
 * exact crossovers, the rank-reversal distance).
 *
 * Metrics take the rows of `decisionStats` (one per model, severity, true
 * and predicted class, with counts), which the root entry builds from a run;
 * calibration and policy take plain columns (arrays or typed arrays of
 * probabilities, outcomes and exposures). Randomness is a seed or a
 * {@linkcode seededPrng}, never global. Where each quantity comes from is in
 * `docs/method.md`.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   accuracy,
 *   expectedCalibrationError,
 *   optimalThreshold,
 *   wilsonInterval,
 * } from "./stats.ts";
 *
 * // sufficient statistics: 498 HIGH exceptions caught, 2 missed
 * const cell = { modelId: "B", severity: "HIGH", trueClass: "AMOUNT_MISMATCH", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const stats = [
 *   { ...cell, predClass: "AMOUNT_MISMATCH", n: 498 },
 *   { ...cell, predClass: "MATCH", n: 2 },
 * ];
 * assert.equal(accuracy(stats).value, 0.996);
 * assert.ok(wilsonInterval(498, 500)!.lo > 0.98);
 *
 * // columns: stated P(correct), and whether each decision was right
 * const p = [0.9, 0.9, 0.9, 0.9, 0.6, 0.6];
 * const y = [1, 1, 1, 0, 1, 0];
 * // stated 0.9 and right 3 times in 4, stated 0.6 and right 1 in 2
 * assert.ok(Math.abs(expectedCalibrationError(p, y).value! - (4 / 6 * 0.15 + 2 / 6 * 0.1)) < 1e-12);
 * // an error costs 3 and a review 1: serve the 0.9s, escalate the 0.6s
 * const pError = [0.1, 0.1, 0.1, 0.1, 0.4, 0.4];
 * const error = [0, 0, 0, 1, 0, 1];
 * const policy = optimalThreshold(pError, error, { exposure: new Array(6).fill(3) });
 * assert.deepEqual([policy.autoServed, policy.escalated, policy.cost], [4, 2, 5]);
 * ```
 *
 * @module
 */

// metrics over sufficient statistics
export {
  accuracy,
  confusionMatrix,
  CONSEQUENCE_MATRIX,
  errorsBySeverity,
  expectedLoss,
  lossBySeverity,
  realisedLoss,
  recallBySeverity,
  severityWeightedRecall,
  STRICT_MATRIX,
} from "./lib/metrics/mod.ts";

// intervals, posteriors and tests
export {
  bootstrapInterval,
  cltInterval,
  comparisonShrinkage,
  lossDifferenceInterval,
  lossInterval,
  lossPosterior,
  newcombePairedInterval,
  pairedLossTest,
  planClusterSampleSize,
  planSampleSize,
  pooledLossDraws,
  pooledLossPosterior,
  pooledProbabilityBest,
  posteriorLossDraws,
  probabilityBest,
  signFlipTest,
  weightedRecallInterval,
} from "./lib/metrics/mod.ts";
export type {
  PooledBest,
  PooledCell,
  PooledLossPosterior,
  PooledPosteriorOptions,
} from "./lib/metrics/pooled_posterior.ts";
export {
  clopperPearsonInterval,
  seededPrng,
  wilsonInterval,
} from "./lib/math/mod.ts";

// calibration
export {
  applyCalibrator,
  binEdges,
  brierDecomposition,
  brierScore,
  costWeightedCalibrationError,
  debiasedCalibrationError,
  eceInterval,
  eceNoiseFloor,
  expectedCalibrationError,
  fitCalibrator,
  maxCalibrationError,
  reliabilityDiagram,
} from "./lib/calibration/mod.ts";

// escalation and routing policy
export {
  bayesEscalation,
  breakEven,
  certifiedThreshold,
  cohensKappa,
  conformalEscalationThreshold,
  lossOptimalRoute,
  optimalThreshold,
  policyCost,
  policyRegret,
  riskCoverage,
  signTest,
} from "./lib/policy/mod.ts";

// K-sensitivity
export {
  coefficientDraws,
  coefficientLoss,
  costFamily,
  crossoverInterval,
  crossoverRatio,
  drawRegistryProfiles,
  kendallTauB,
  lossCoefficients,
  rankReversalDistance,
  sweepFamily,
  sweepProfiles,
} from "./lib/sensitivity/mod.ts";

// constants the types below are defined from
export { SEVERITIES } from "./lib/costs/mod.ts";
export { INTERVAL_METHODS } from "./lib/metrics/mod.ts";

// the types of what the functions above take and return
export type {
  BinnedResult,
  BinningOptions,
  BinStrategy,
  BrierDecomposition,
  CalibrationError,
  CalibrationMethod,
  Calibrator,
  CostWeightedBin,
  CostWeightedCalibrationError,
  CostWeightedOptions,
  DebiasedCalibrationError,
  EceInterval,
  EceIntervalOptions,
  FitCalibratorOptions,
  HistogramCalibrator,
  IsotonicCalibrator,
  NoiseFloor,
  NoiseFloorOptions,
  PlattCalibrator,
  ReliabilityBin,
  ReliabilityDiagram,
  TemperatureCalibrator,
} from "./lib/calibration/mod.ts";
export type {
  Confidence,
  CostAnchor,
  CostProfile,
  CostRegistry,
  CostSlot,
  CostSource,
  Severity,
} from "./lib/costs/mod.ts";
export type {
  ExactInterval,
  Prng,
  Rate,
  RateInterval,
  RateOptions,
} from "./lib/math/mod.ts";
export type {
  Action,
  BootstrapInterval,
  BootstrapOptions,
  CaughtOptions,
  CltInterval,
  CltOptions,
  ClusterPowerPoint,
  ClusterSampleSizeOptions,
  ClusterSampleSizePlan,
  ConfusionCell,
  CostMatrix,
  CostRule,
  IntervalMethod,
  LossCell,
  LossCellOptions,
  LossDifferenceOptions,
  LossInterval,
  LossIntervalOptions,
  LossKind,
  LossOptions,
  LossPosterior,
  LossPosteriorOptions,
  Outcome,
  PairedLossOptions,
  PairedLossTestOptions,
  PairedProportionInterval,
  PairedRow,
  PairedTable,
  PairedTaskGroup,
  PosteriorLossOptions,
  PowerPoint,
  ResolvedIntervalMethod,
  SampleSizeOptions,
  SampleSizePlan,
  SelectOptions,
  SeverityLoss,
  SignFlipOptions,
  SignFlipResult,
  StatsRow,
  TrialCount,
  WeightedRecallInterval,
  WeightedRecallIntervalOptions,
  WeightedRecallOptions,
} from "./lib/metrics/mod.ts";
export type {
  BreakEven,
  BreakEvenRegime,
  CertifiedOptions,
  CertifiedThreshold,
  ConformalOptions,
  ConformalThreshold,
  EscalationOptions,
  Kappa,
  OptimalThreshold,
  PolicyCost,
  PolicyRegret,
  RiskCoverageCurve,
  RouteCandidate,
  RouteOptions,
  Routing,
  SignTest,
  SignTestOptions,
  SignVerdict,
  VetoCosts,
} from "./lib/policy/mod.ts";
export type {
  AnchorMap,
  CoefficientDrawOptions,
  CoefficientDraws,
  CoefficientLossOptions,
  CostFamily,
  CostFamilyOptions,
  Crossover,
  CrossoverInterval,
  CrossoverIntervalOptions,
  CrossoverOptions,
  DrawDistribution,
  FamilySweep,
  FamilySweepOptions,
  LossCoefficientOptions,
  LossCoefficients,
  LossPer,
  RankReversal,
  RankReversalOptions,
  RegistryDrawOptions,
  Sweep,
  SweepOptions,
  SweepPoint,
  WinnerChange,
} from "./lib/sensitivity/mod.ts";
