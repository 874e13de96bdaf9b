/**
 * Calibration in money: does a stated P(correct) mean what it says, what
 * does its miscalibration cost, and which escalation policy does it support?
 *
 * Four simulated models answer the same seeded suite of reconciliation and
 * settlement tasks: a calibrated one, an over-confident one (the
 * simulator's frontier shape), an under-confident one and one that states
 * 0.9 on everything (ReconForge's shape). Each gets a reliability diagram,
 * ECE with its interval (simultaneous Clopper-Pearson per bin, projected;
 * `eceInterval`) and the noise floor of a calibrated model
 * at the same n, the debiased ECE, MCE, the Brier score with its Murphy
 * decomposition and the cost-weighted calibration error under a cost
 * profile. Recalibration is fitted on the first half of the suite ("last
 * month's labelled outcomes") and reported on the second; escalation
 * policies are priced on the second half; conformal thresholds are checked
 * on held-out decisions over seeded splits.
 *
 * @module
 */

import * as aq from "arquero";
import { brierDecomposition } from "../lib/calibration/brier.ts";
import {
  debiasedCalibrationError,
  expectedCalibrationError,
} from "../lib/calibration/calibration_error.ts";
import { applyCalibrator } from "../lib/calibration/calibrator.ts";
import { costWeightedCalibrationError } from "../lib/calibration/cost_weighted.ts";
import { eceInterval } from "../lib/calibration/ece_interval.ts";
import { fitIsotonic } from "../lib/calibration/isotonic.ts";
import { eceNoiseFloor } from "../lib/calibration/noise_floor.ts";
import { outcomeColumns } from "../lib/calibration/outcome_columns.ts";
import { recalibrate } from "../lib/calibration/recalibrate.ts";
import { reliabilityDiagram } from "../lib/calibration/reliability.ts";
import { reliabilityDiagramChart } from "../lib/charts/reliability_diagram.ts";
import { riskCoverageChart } from "../lib/charts/risk_coverage_curve.ts";
import { groupedBarChart } from "../lib/charts/specs.ts";
import { STRICT_MATRIX } from "../lib/metrics/loss.ts";
import type { AnalysisResult } from "../lib/claims/analysis_result.ts";
import { type Claim, claimClose, claimEqual } from "../lib/claims/claim.ts";
import { getProfile } from "../lib/costs/load.ts";
import type { CostProfile } from "../lib/costs/profile.ts";
import type { Severity } from "../lib/costs/severity.ts";
import { seededPrng } from "../lib/math/sampling.ts";
import { bayesEscalation, policyCost } from "../lib/policy/bayes_rule.ts";
import {
  conformalEscalationThreshold,
  selectiveRiskThreshold,
} from "../lib/policy/conformal_threshold.ts";
import {
  optimalThreshold,
  thresholdsByGroup,
} from "../lib/policy/optimal_threshold.ts";
import { policyColumns } from "../lib/policy/policy_columns.ts";
import { riskCoverage } from "../lib/policy/risk_coverage.ts";
import {
  type SimTask,
  SIMULATED_MODELS,
  type SimulatedModel,
  simulateRun,
} from "../lib/tasks/simulate.ts";

const SOURCE =
  "third-number: 'Calibration is the hinge'; docs/method.md, ECE interval and cost-weighted calibration error";

/** Exception classes per severity used by {@linkcode severitySuite}. */
const CLASSES: Readonly<Record<Severity, readonly string[]>> = {
  LOW: ["DUPLICATE", "FIELD_CORRUPTION"],
  MEDIUM: ["VALUE_DATE_MISMATCH", "MISSING_MESSAGE", "PARTIAL_MATCH"],
  HIGH: [
    "AMOUNT_MISMATCH",
    "FX_CONVERSION_ERROR",
    "BENEFICIARY_MISMATCH",
    "COUNTERPARTY_MISMATCH",
  ],
  CRITICAL: ["HERSTATT_EXPOSURE"],
};

/**
 * A deterministic suite of n tasks: severities LOW, MEDIUM, HIGH and
 * CRITICAL in the proportions 3 : 3 : 3 : 1, two in three tasks an
 * exception (reconciliation classes, and a settlement failure for
 * CRITICAL), classes taken in turn.
 *
 * @param n Tasks.
 * @returns The suite, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { severitySuite } from "./calibration.ts";
 *
 * const suite = severitySuite(1000);
 * assert.equal(suite.filter((t) => t.gold.severity === "CRITICAL").length, 100);
 * ```
 */
export function severitySuite(n: number): SimTask[] {
  const pattern: Severity[] = [
    "LOW",
    "MEDIUM",
    "HIGH",
    "LOW",
    "MEDIUM",
    "HIGH",
    "LOW",
    "MEDIUM",
    "HIGH",
    "CRITICAL",
  ];
  return Array.from({ length: n }, (_, i) => {
    const severity = pattern[i % 10];
    const classes = CLASSES[severity];
    return {
      id: `task-${String(i).padStart(6, "0")}`,
      gold: {
        exceptionType: i % 3 === 0 ? null : classes[(i >> 2) % classes.length],
        severity,
      },
    };
  });
}

const ERROR_RATES = {
  LOW: 0.25,
  MEDIUM: 0.2,
  HIGH: 0.12,
  CRITICAL: 0.06,
  clean: 0.1,
} as const;

/**
 * The four models of the analysis, derived from the simulator's zoo with
 * error rates of 6% (CRITICAL) to 25% (LOW) and a wide spread of per-task
 * difficulty (concentration 4), so that stated probabilities fill the
 * reliability diagram: calibrated; over-confident (1 − (1 − p)³, the
 * frontier shape); under-confident (0.5 + 0.6(p − 0.5)); and constant 0.9
 * on every answer (ReconForge's shape).
 */
export const CALIBRATION_MODELS: readonly SimulatedModel[] = [
  {
    ...SIMULATED_MODELS.small_severity_shaped,
    id: "calibrated",
    label: "Calibrated: states its true P(correct)",
    errorRate: ERROR_RATES,
    concentration: 4,
    confidence: { kind: "calibrated" },
  },
  {
    ...SIMULATED_MODELS.frontier_even,
    id: "over_confident",
    label: "Over-confident: states 1 − (1 − p)³",
    errorRate: ERROR_RATES,
    concentration: 4,
    confidence: { kind: "overconfident", strength: 3 },
  },
  {
    ...SIMULATED_MODELS.small_severity_shaped,
    id: "under_confident",
    label: "Under-confident: states 0.5 + 0.6 (p − 0.5)",
    errorRate: ERROR_RATES,
    concentration: 4,
    confidence: { kind: "underconfident", strength: 0.6 },
  },
  {
    ...SIMULATED_MODELS.constant_confidence,
    id: "constant",
    label: "Constant: states 0.9 on every answer",
    errorRate: ERROR_RATES,
    concentration: 4,
  },
];

/** Options for {@linkcode calibration}. */
export interface CalibrationOptions {
  /** Tasks in the suite (each model answers each once). Default: 20,000. */
  decisions?: number;
  /** Seed of the simulation and of every interval. Default: 20,261,201. */
  seed?: number;
  /** Cost profile for the cost-weighted error and the escalation policies. Default: `reconciliation`. */
  profile?: CostProfile;
  /** Bins of every binned statistic. Default: 10. */
  bins?: number;
  /** Models. Default: {@linkcode CALIBRATION_MODELS}. */
  models?: readonly SimulatedModel[];
  /** Bootstrap resamples of the ECE interval. Default: 1,000. */
  resamples?: number;
  /** Target rate of unreviewed errors per decision for the conformal threshold. Default: 0.03. */
  alpha?: number;
  /** Target error rate among automatic decisions for the Learn-then-Test threshold. Default: 0.05. */
  selectiveAlpha?: number;
  /** Seeded calibration / held-out splits for the conformal checks. Default: 200. */
  conformalTrials?: number;
}

const r6 = (x: number | null) => x === null ? null : Math.round(x * 1e6) / 1e6;

function pick<T extends Float64Array | Uint8Array>(
  col: T,
  idx: ArrayLike<number>,
): T {
  const out = new (col.constructor as new (n: number) => T)(idx.length);
  for (let i = 0; i < idx.length; i++) out[i] = col[idx[i]];
  return out;
}

/**
 * Reproduce calibration as a first-class output: reliability, ECE with its
 * interval and noise floor, Brier, cost-weighted error, recalibration and
 * the escalation policies calibration makes possible.
 *
 * @param options Suite size, seed, profile, bins, models and targets.
 * @returns Tables `calibration_summary`, `reliability_bins`,
 * `recalibration`, `escalation`, `risk_coverage` and `conformal`; charts
 * `reliability`, `recalibration`, `risk_coverage` and `cost_weighted_bins`;
 * and the claims.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { calibration } from "./calibration.ts";
 *
 * const result = calibration({ decisions: 4000, conformalTrials: 40, resamples: 200 });
 * assert.ok(result.claims.every((c) => c.holds), result.claims.filter((c) => !c.holds).map((c) => c.id).join());
 * ```
 */
export function calibration(options: CalibrationOptions = {}): AnalysisResult {
  const n = options.decisions ?? 20_000;
  const seed = options.seed ?? 20_261_201;
  const profile = options.profile ?? getProfile("reconciliation");
  const bins = options.bins ?? 10;
  const models = options.models ?? CALIBRATION_MODELS;
  const resamples = options.resamples ?? 1000;
  const alpha = options.alpha ?? 0.03;
  const selectiveAlpha = options.selectiveAlpha ?? 0.05;
  const trials = options.conformalTrials ?? 200;
  const suite = severitySuite(n);
  const half = Math.floor(n / 2);

  const summary: Record<string, unknown>[] = [];
  const binRows: Record<string, unknown>[] = [];
  const recalRows: Record<string, unknown>[] = [];
  const escRows: Record<string, unknown>[] = [];
  const rcRows: Record<string, unknown>[] = [];
  const rcPoints: {
    series: string;
    coverage: number;
    cost: number;
    optimal: boolean;
  }[] = [];
  const conformalRows: Record<string, unknown>[] = [];
  const cwBars: Record<string, unknown>[] = [];
  const recalPoints: {
    series: string;
    lo: number;
    hi: number;
    n: number;
    meanConfidence: number | null;
    accuracy: number | null;
  }[] = [];
  const claims: Claim[] = [];
  const flat = getProfile("flat");

  models.forEach((model, mi) => {
    const run = simulateRun(suite, model, { seed });
    // exposure K(severity) per decision: every error priced at K (strict matrix)
    const cols = outcomeColumns(run, { profile, matrix: STRICT_MATRIX });
    const { p, y } = cols;
    const exposure = cols.exposure!;
    const binning = { bins };
    const diagram = reliabilityDiagram(p, y, binning);
    const massEce = expectedCalibrationError(p, y, {
      bins,
      strategy: "equal-mass",
    });
    const ci = eceInterval(p, y, { bins, resamples, seed: seed + mi });
    const floor = eceNoiseFloor(p, { bins, seed: seed + 100 + mi });
    const debiased = debiasedCalibrationError(p, y, binning);
    const brier = brierDecomposition(p, y, binning)!;
    const cw = costWeightedCalibrationError(p, y, { bins, exposure });
    const cwFlat = costWeightedCalibrationError(p, y, {
      bins,
      exposure: Float64Array.from(cols.severity, (s) => flat.K[s]),
    });
    const accuracy = y.reduce((a, b) => a + b, 0) / y.length;
    summary.push({
      model: model.id,
      n: diagram.n,
      accuracy: r6(accuracy),
      ece: r6(diagram.ece),
      eceLo: r6(ci.lo),
      eceHi: r6(ci.hi),
      noiseFloorMean: r6(floor.mean),
      noiseFloorQ95: r6(floor.quantile),
      eceEqualMass: r6(massEce.value),
      equalMassBins: massEce.nonEmptyBins,
      debiasedEce: r6(debiased.value),
      debiasedRms: r6(debiased.rms),
      mce: r6(diagram.mce),
      brier: r6(brier.brier),
      reliability: r6(brier.reliability),
      resolution: r6(brier.resolution),
      uncertainty: r6(brier.uncertainty),
      withinBin: r6(brier.withinBin),
      costWeightedEce: r6(cw.value),
      costWeightedTotal: r6(cw.total),
      nonEmptyBins: diagram.nonEmptyBins,
    });
    diagram.bins.forEach((b, j) => {
      binRows.push({
        model: model.id,
        lo: r6(b.lo),
        hi: r6(b.hi),
        n: b.n,
        meanConfidence: r6(b.meanConfidence),
        accuracy: r6(b.accuracy),
        gap: r6(b.gap),
        exposure: r6(cw.bins[j].exposure),
        money: r6(cw.bins[j].money),
      });
      if (b.n > 0) {
        cwBars.push({
          bin: `(${b.lo.toFixed(1)}, ${b.hi.toFixed(1)}]`,
          model: model.id,
          money: r6(cw.bins[j].money / diagram.n),
        });
      }
    });

    // fit on the first half ("last month"), report on the second ("this month")
    const fitIdx: number[] = [];
    const evalIdx: number[] = [];
    cols.index.forEach((orig, j) => (orig < half ? fitIdx : evalIdx).push(j));
    const fit = { p: pick(p, fitIdx), y: pick(y, fitIdx) };
    const evaluate = { p: pick(p, evalIdx), y: pick(y, evalIdx) };
    const recal = recalibrate(fit, evaluate, { bins });
    for (const row of recal.rows) {
      recalRows.push({
        model: model.id,
        method: row.method,
        ece: r6(row.ece),
        mce: r6(row.mce),
        brier: r6(row.brier),
        logLoss: r6(row.logLoss),
        nFit: recal.nFit,
        nEvaluate: recal.nEvaluate,
      });
    }
    if (model.id === "over_confident") {
      const series: [string, ArrayLike<number>][] = [
        ["stated", evaluate.p],
        ["platt", recal.calibrated.platt!],
        ["isotonic", recal.calibrated.isotonic!],
        ["temperature", recal.calibrated.temperature!],
      ];
      for (const [name, q] of series) {
        for (const b of reliabilityDiagram(q, evaluate.y, binning).bins) {
          recalPoints.push({ series: name, ...b });
        }
      }
    }

    // escalation in money, priced on the evaluation half
    const fitPol = policyColumns({ ...fit, exposure: pick(exposure, fitIdx) });
    const evalPol = policyColumns({
      ...evaluate,
      exposure: pick(exposure, evalIdx),
    });
    const evalSeverity = evalIdx.map((j) => cols.severity[j]);
    const fitSeverity = fitIdx.map((j) => cols.severity[j]);
    const ev = { exposure: evalPol.exposure!, reviewCost: profile.reviewCost };
    const allAuto = policyCost(
      new Uint8Array(evaluate.p.length),
      evalPol.error,
      ev,
    );
    const allEscalate = policyCost(
      new Uint8Array(evaluate.p.length).fill(1),
      evalPol.error,
      ev,
    );
    const bayesStated = policyCost(
      bayesEscalation(evalPol.pError, evalPol.exposure!, ev),
      evalPol.error,
      ev,
    );
    const iso = fitIsotonic(fit.p, fit.y);
    const recalibratedPError = Float64Array.from(
      applyCalibrator(iso, evaluate.p),
      (q) => 1 - q,
    );
    const bayesRecal = policyCost(
      bayesEscalation(recalibratedPError, evalPol.exposure!, ev),
      evalPol.error,
      ev,
    );
    const fitGlobal = optimalThreshold(fitPol.pError, fitPol.error, {
      exposure: fitPol.exposure!,
      reviewCost: profile.reviewCost,
    });
    const globalOnEval = policyCost(
      evalPol.pError.map((q) =>
        fitGlobal.threshold === null || q > fitGlobal.threshold ? 1 : 0
      ),
      evalPol.error,
      ev,
    );
    const fitBySeverity = thresholdsByGroup(fitPol.pError, fitPol.error, {
      exposure: fitPol.exposure!,
      reviewCost: profile.reviewCost,
      group: fitSeverity,
    });
    const severityOnEval = policyCost(
      evalPol.pError.map((q, i) => {
        const t = fitBySeverity.groups[evalSeverity[i]]?.threshold ?? null;
        return t === null || q > t ? 1 : 0;
      }),
      evalPol.error,
      ev,
    );
    const oracleGlobal = optimalThreshold(evalPol.pError, evalPol.error, ev);
    const oracleSeverity = thresholdsByGroup(evalPol.pError, evalPol.error, {
      ...ev,
      group: evalSeverity,
    });
    const policies: [string, number, number | null][] = [
      ["always auto", allAuto.cost, 0],
      ["always escalate", allEscalate.cost, evaluate.p.length],
      [
        "Bayes rule on stated P(error)",
        bayesStated.cost,
        bayesStated.escalated,
      ],
      [
        "Bayes rule on recalibrated P(error) (isotonic, fitted on month 1)",
        bayesRecal.cost,
        bayesRecal.escalated,
      ],
      [
        "global threshold fitted on month 1",
        globalOnEval.cost,
        globalOnEval.escalated,
      ],
      [
        "per-severity thresholds fitted on month 1",
        severityOnEval.cost,
        severityOnEval.escalated,
      ],
      [
        "oracle global threshold (in-sample, month 2)",
        oracleGlobal.cost,
        oracleGlobal.escalated,
      ],
      [
        "oracle per-severity thresholds (in-sample, month 2)",
        oracleSeverity.cost,
        Object.values(oracleSeverity.groups).reduce(
          (s, g) => s + g.escalated,
          0,
        ),
      ],
    ];
    for (const [policy, cost, escalated] of policies) {
      escRows.push({
        model: model.id,
        policy,
        cost: r6(cost),
        costPerDecision: r6(cost / evaluate.p.length),
        escalated,
        savedVsAllAuto: r6(allAuto.cost - cost),
      });
    }

    // risk-coverage in money on all decisions
    const all = policyColumns({ p, y, exposure });
    const rc = riskCoverage(all.pError, all.error, {
      exposure: all.exposure!,
      reviewCost: profile.reviewCost,
    });
    rcRows.push({
      model: model.id,
      aurc: r6(rc.aurc),
      eAurc: r6(rc.eAurc),
      aurcOptimal: r6(rc.aurcOptimal),
      moneyAurc: r6(rc.moneyAurc),
      moneyEAurc: r6(rc.moneyEAurc),
      optimalThreshold: r6(rc.optimal.threshold),
      optimalCostPerDecision: r6(rc.optimal.cost / rc.n),
      costAllAutoPerDecision: r6(rc.optimal.costAllAuto / rc.n),
      costAllEscalatePerDecision: r6(rc.optimal.costAllEscalate / rc.n),
      points: rc.threshold.length,
    });
    const step = Math.max(1, Math.floor(rc.coverage.length / 150));
    rc.coverage.forEach((c, j) => {
      const isOpt = rc.autoServed[j] === rc.optimal.autoServed;
      if (j % step === 0 || j === rc.coverage.length - 1 || isOpt) {
        rcPoints.push({
          series: model.id,
          coverage: c,
          cost: rc.cost[j] / rc.n,
          optimal: isOpt,
        });
      }
    });

    // conformal thresholds on seeded calibration / held-out splits of the run
    const conformal = conformalChecks(all.pError, all.error, {
      alpha,
      selectiveAlpha,
      trials,
      seed: seed + 200 + mi,
    });
    conformalRows.push({ model: model.id, ...conformal });

    // claims
    const id = `calibration.${model.id}`;
    claims.push(
      claimClose(
        `${id}.brier_identity`,
        `${model.id}: Brier = reliability − resolution + uncertainty + within-bin term`,
        0,
        brier.brier -
          (brier.reliability - brier.resolution + brier.uncertainty +
            brier.withinBin),
        {
          kind: "property",
          tolerance: 1e-12,
          source:
            "murphy-1973: Brier decomposition, with the within-bin terms of stephenson-2008",
        },
      ),
      claimClose(
        `${id}.cost_weighted_flat`,
        `${model.id}: under the flat profile the cost-weighted error equals ECE`,
        diagram.ece!,
        cwFlat.value,
        {
          kind: "derived",
          how: "the ECE of the same reliability diagram",
          tolerance: 1e-12,
          source:
            "lossbook: cost-weighted calibration error (a property checked here)",
        },
      ),
      claimEqual(
        `${id}.debiased_not_above_plug_in`,
        `${model.id}: the debiased ECE is never above the plug-in ECE (E|N(d, σ²)| ≥ |d|)`,
        true,
        debiased.value! <= diagram.ece!,
        { kind: "property", source: "kumar-2019: debiased ECE" },
      ),
      claimEqual(
        `${id}.conformal_leakage`,
        `${model.id}: over ${trials} seeded splits the held-out rate of unreviewed errors averages at most alpha = ${alpha} (plus 3 standard errors)`,
        true,
        (conformal.meanLeakage as number) <=
          alpha + 3 * (conformal.leakageStandardError as number),
        {
          kind: "property",
          source: "angelopoulos-2022: conformal risk control",
        },
      ),
      claimEqual(
        `${id}.selective_risk`,
        `${model.id}: the Learn-then-Test threshold exceeds an error rate of ${selectiveAlpha} among automatic held-out decisions in at most delta = 0.1 of the splits (plus 3 standard errors)`,
        true,
        (conformal.selectiveViolationShare as number) <=
          0.1 + 3 * Math.sqrt((0.1 * 0.9) / trials),
        { kind: "property", source: "angelopoulos-2021: Learn then Test" },
      ),
      claimEqual(
        `${id}.per_severity_oracle_beats_global`,
        `${model.id}: the best per-severity thresholds never cost more than the best global threshold`,
        true,
        oracleSeverity.cost <= oracleGlobal.cost + 1e-9,
        {
          kind: "property",
          source:
            "veto-frontier: a single global threshold targets the wrong thing",
        },
      ),
    );
    if (model.id === "calibrated") {
      claims.push(claimEqual(
        `${id}.within_noise_floor`,
        "The calibrated model's ECE is within the noise floor of a calibrated model at the same n (its 95th percentile)",
        true,
        diagram.ece! <= floor.quantile!,
        {
          kind: "property",
          source: "lossbook: ECE noise floor (a property checked here)",
        },
      ));
    }
    if (model.id === "over_confident") {
      const none = recal.rows[0];
      claims.push(
        claimEqual(
          `${id}.above_noise_floor`,
          "The over-confident model's ECE interval lies wholly above the noise floor",
          true,
          ci.lo! > floor.quantile!,
          {
            kind: "property",
            source: "lossbook: ECE noise floor (a property checked here)",
          },
        ),
        ...recal.rows.slice(1).map((row) =>
          claimEqual(
            `${id}.recalibrated.${row.method}`,
            `Recalibrating the over-confident model with ${row.method} on month 1 at least halves its month-2 ECE`,
            true,
            row.ece! <= none.ece! / 2,
            {
              kind: "property",
              source: "lossbook: fit on one split, report on another",
            },
          )
        ),
        claimEqual(
          `${id}.bayes_recalibrated_cheaper`,
          "For the over-confident model the Bayes rule on recalibrated probabilities costs less on month 2 than on its stated ones",
          true,
          bayesRecal.cost < bayesStated.cost,
          {
            kind: "property",
            source: "third-number: routing on uncalibrated confidence",
          },
        ),
      );
    }
    if (model.id === "constant") {
      claims.push(
        claimEqual(
          `${id}.equal_mass_one_bin`,
          "Equal-mass bins keep the 0.9s together: a constant-confidence model fills exactly one bin",
          1,
          massEce.nonEmptyBins,
          {
            kind: "property",
            source: "lossbook: ties never straddle a bin edge",
          },
        ),
        claimClose(
          `${id}.ece_is_gap`,
          "With one bin, ECE is |accuracy − 0.9|",
          Math.abs(accuracy - 0.9),
          massEce.value,
          {
            kind: "derived",
            how: "|accuracy − 0.9|, from the labels",
            tolerance: 1e-12,
            source: "guo-2017: ECE",
          },
        ),
      );
    }
  });

  const charts = {
    reliability: reliabilityDiagramChart(
      binRows.map((r) => ({
        series: r.model as string,
        lo: r.lo as number,
        hi: r.hi as number,
        n: r.n as number,
        meanConfidence: r.meanConfidence as number | null,
        accuracy: r.accuracy as number | null,
      })),
      {
        title: `Reliability of four simulated models (${
          n.toLocaleString("en-US")
        } decisions each, ${bins} bins)`,
        colorBy: "model",
      },
    ),
    recalibration: reliabilityDiagramChart(
      recalPoints,
      {
        title:
          "Over-confident model on month 2: stated and recalibrated on month 1",
      },
    ),
    risk_coverage: riskCoverageChart(rcPoints, {
      title:
        `Risk-coverage in money (${profile.id}: loss of automatic errors + review cost; dots: cheapest threshold)`,
      yTitle: `cost per decision (${profile.id} units)`,
      colorBy: "model",
    }),
    cost_weighted_bins: groupedBarChart(cwBars, {
      x: "bin",
      group: "model",
      y: "money",
      title:
        `Cost-weighted calibration error by bin (${profile.id} K, per decision)`,
      xTitle: "stated P(correct) bin",
      yTitle: "exposure × |gap| per decision",
      labelFormat: ",.3~g",
      colorBy: "model",
    }),
  };

  return {
    id: "calibration",
    title:
      "Calibration in money: reliability, ECE and its noise floor, recalibration, escalation",
    source: SOURCE,
    parameters: {
      decisions: n,
      seed,
      profile: `${profile.id}@${profile.version}`,
      bins,
      models: models.map((m) => m.id),
      resamples,
      alpha,
      selectiveAlpha,
      conformalTrials: trials,
    },
    tables: {
      calibration_summary: aq.from(summary),
      reliability_bins: aq.from(binRows),
      recalibration: aq.from(recalRows),
      escalation: aq.from(escRows),
      risk_coverage: aq.from(rcRows),
      conformal: aq.from(conformalRows),
    },
    charts,
    claims,
  };
}

/** Seeded calibration / held-out splits of one run: do the conformal guarantees hold? */
function conformalChecks(
  pError: Float64Array,
  error: Uint8Array,
  options: {
    alpha: number;
    selectiveAlpha: number;
    trials: number;
    seed: number;
  },
): Record<string, number> {
  const n = pError.length;
  const nCal = Math.min(1000, Math.floor(n / 4));
  const rng = seededPrng(options.seed);
  const idx = Int32Array.from({ length: n }, (_, i) => i);
  const leak: number[] = [];
  const coverage: number[] = [];
  let violations = 0;
  let certified = 0;
  let selCoverage = 0;
  const inCal = new Uint8Array(n);
  for (let t = 0; t < options.trials; t++) {
    // a fresh random calibration subset; the rest is held out
    for (let i = 0; i < nCal; i++) {
      const j = i + Math.floor(rng.next() * (n - i));
      const s = idx[i];
      idx[i] = idx[j];
      idx[j] = s;
    }
    inCal.fill(0);
    const calP = new Float64Array(nCal);
    const calE = new Uint8Array(nCal);
    for (let i = 0; i < nCal; i++) {
      calP[i] = pError[idx[i]];
      calE[i] = error[idx[i]];
      inCal[idx[i]] = 1;
    }
    const crc = conformalEscalationThreshold(calP, calE, {
      alpha: options.alpha,
    });
    const ltt = selectiveRiskThreshold(calP, calE, {
      alpha: options.selectiveAlpha,
      delta: 0.1,
    });
    let held = 0, leaked = 0, auto = 0, selAuto = 0, selErr = 0;
    for (let i = 0; i < n; i++) {
      if (inCal[i]) continue;
      held++;
      if (pError[i] < crc.threshold) {
        auto++;
        leaked += error[i];
      }
      if (ltt.threshold !== null && pError[i] <= ltt.threshold) {
        selAuto++;
        selErr += error[i];
      }
    }
    leak.push(leaked / held);
    coverage.push(auto / held);
    if (ltt.threshold !== null) certified++;
    selCoverage += selAuto / held;
    if (selAuto > 0 && selErr / selAuto > options.selectiveAlpha) violations++;
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const m = mean(leak);
  const sd = Math.sqrt(
    leak.reduce((s, v) => s + (v - m) ** 2, 0) / (leak.length - 1),
  );
  return {
    calibrationSize: nCal,
    trials: options.trials,
    alpha: options.alpha,
    meanLeakage: r6(m)!,
    maxLeakage: r6(Math.max(...leak))!,
    leakageStandardError: r6(sd / Math.sqrt(leak.length))!,
    meanCoverage: r6(mean(coverage))!,
    selectiveAlpha: options.selectiveAlpha,
    selectiveViolationShare: r6(violations / options.trials)!,
    selectiveCertifiedShare: r6(certified / options.trials)!,
    selectiveMeanCoverage: r6(selCoverage / options.trials)!,
  };
}
