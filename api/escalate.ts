// `escalate`: the escalation thresholds that minimise a run's cost under a
// profile, globally and per severity, and the risk-coverage curve; the
// library function and its flags.
import type { OutcomeColumns } from "../lib/calibration/outcome_columns.ts";
import type { CostProfile } from "../lib/costs/profile.ts";
import type { RunSource } from "../commands/_input.ts";
import { flagValues, type FlagValuesOf } from "./_options.ts";
import type { EscalateOptions } from "./options.ts";
import { SEVERITIES, type Severity } from "../lib/costs/severity.ts";
import { bayesEscalation, policyCost } from "../lib/policy/bayes_rule.ts";
import { thresholdsByGroup } from "../lib/policy/optimal_threshold.ts";
import { policyColumns } from "../lib/policy/policy_columns.ts";
import { riskCoverage } from "../lib/policy/risk_coverage.ts";
import { readOutcomes } from "./calibrate.ts";
import {
  fileKeys,
  type ImportKeys,
  importKeys,
  requireInputs,
} from "../commands/_input.ts";
import { MAPPING_FLAGS } from "../commands/_harness_input.ts";
import { UsageError } from "../commands/_command.ts";
import {
  CONSEQUENCE_MATRIX,
  costIfWrong,
  type CostMatrix,
} from "../lib/metrics/loss.ts";
import {
  formatOption,
  JSON_OPTION,
  LENIENT_OPTION,
  MATRIX_MODE_OPTION,
  PROBABILITY_OPTION,
  profileOption,
} from "../commands/_options.ts";

/** One threshold policy's result. Keys are a contract: extend, never rename. */
export interface ThresholdResult {
  /** Serve automatically iff P(error) ≤ threshold; null when escalating everything is cheapest. */
  threshold: number | null;
  /** Decisions served automatically. */
  autoServed: number;
  /** Decisions sent to review. */
  escalated: number;
  /** Wrong decisions among those served automatically. */
  autoErrors: number;
  /** Realised cost of the policy: errors served automatically plus reviews. */
  cost: number;
  /** Cost of always serving automatically minus this cost. */
  saved: number;
}

/** The `escalate --json` document of one model. */
export interface EscalationReport {
  /** Model id. */
  modelId: string;
  /** Decisions with a stated pCorrect (the others cannot be ranked and are left out). */
  n: number;
  /** Decisions with no stated pCorrect, left out. */
  missingPCorrect: number;
  /** Realised cost of acting on every decision automatically, under the matrix. */
  costAllAuto: number;
  /**
   * Expected cost of acting on every decision automatically, Σ P(error) ×
   * cost if wrong under the matrix: `score`'s expected loss of the same
   * decisions when none was escalated.
   */
  expectedCostAllAuto: number;
  /** Cost of sending every decision to review. */
  costAllEscalate: number;
  /** The best single threshold on P(error). */
  global: ThresholdResult;
  /** The best threshold within each severity; null where a severity has no decisions. */
  bySeverity: Record<Severity, ThresholdResult | null>;
  /** Cost and saving of the per-severity policy. */
  perSeverity: { cost: number; saved: number };
  /** The Bayes rule on the stated probabilities: escalate iff P(error) × cost if wrong > review cost. */
  bayes: {
    /** Realised cost of the rule. */
    cost: number;
    /** Cost of always-auto minus this cost. */
    saved: number;
    /** Decisions it sends to review. */
    escalated: number;
    /** Thresholds on P(error) of a decision that predicted the clean class (a miss if wrong), capped at 1; null where an error costs nothing. */
    thresholds: Record<Severity, number | null>;
    /** Thresholds on P(error) of a decision that predicted an exception class (wrong type or false alarm if wrong). */
    thresholdsIfFlagged: Record<Severity, number | null>;
  };
  /** Loss saved by the best policy found (per severity) against always-auto. */
  lossSaved: number;
  /** Area under the risk-coverage curve (error rate). */
  aurc: number | null;
  /** Its excess over the best ranking of the same errors. */
  eAurc: number | null;
  /** Area under the risk-coverage curve in money. */
  moneyAurc: number | null;
  /** Its excess over the best ranking of the same costs. */
  moneyEAurc: number | null;
  /** Points of the risk-coverage curve in money, thinned to about --points. */
  riskCoverage: {
    coverage: number;
    threshold: number | null;
    cost: number;
    selectiveRisk: number | null;
  }[];
}

function thresholdResult(
  t: {
    threshold: number | null;
    autoServed: number;
    escalated: number;
    autoErrors: number;
    cost: number;
    saved: number;
  },
): ThresholdResult {
  return {
    threshold: t.threshold,
    autoServed: t.autoServed,
    escalated: t.escalated,
    autoErrors: t.autoErrors,
    cost: t.cost,
    saved: t.saved,
  };
}

/**
 * Chow's threshold on P(error): escalate iff P(error) × cost if wrong >
 * review cost, so the threshold is review / cost if wrong, capped at 1 (a
 * review that costs at least the error never pays); null when an error
 * costs nothing.
 */
function chowThreshold(wrong: number, review: number): number | null {
  return wrong <= 0 ? null : Math.min(1, review / wrong);
}

/** Every escalation figure of one set of decisions. */
export function escalationReport(
  modelId: string,
  cols: OutcomeColumns,
  profile: CostProfile,
  points: number,
  matrix: CostMatrix = CONSEQUENCE_MATRIX,
): EscalationReport {
  const pol = policyColumns(cols);
  const opts = { exposure: pol.exposure!, reviewCost: profile.reviewCost };
  const rc = riskCoverage(pol.pError, pol.error, opts);
  const by = thresholdsByGroup(pol.pError, pol.error, {
    ...opts,
    group: cols.severity,
  });
  const bayesMask = bayesEscalation(pol.pError, pol.exposure!, opts);
  const bayes = policyCost(bayesMask, pol.error, opts);
  const costAllAuto = rc.optimal.costAllAuto;
  let expectedCostAllAuto = 0;
  for (let i = 0; i < pol.pError.length; i++) {
    expectedCostAllAuto += pol.pError[i] * pol.exposure![i];
  }
  // the same sums added in different orders: an exact 0 must not print as 1e-15
  const snap = (x: number) =>
    Math.abs(x) < 1e-9 * Math.max(1, Math.abs(costAllAuto)) ? 0 : x;
  const picked = new Set<number>();
  for (let i = 0; i < points; i++) {
    const target = points === 1 ? 1 : i / (points - 1);
    let j = rc.coverage.findIndex((c) => c >= target - 1e-12);
    if (j < 0) j = rc.coverage.length - 1;
    picked.add(j);
  }
  picked.add(rc.autoServed.indexOf(rc.optimal.autoServed));
  const curve = [...picked].sort((a, b) => a - b).map((j) => ({
    coverage: rc.coverage[j],
    threshold: Number.isFinite(rc.threshold[j]) ? rc.threshold[j] : null,
    cost: rc.cost[j],
    selectiveRisk: rc.selectiveRisk[j],
  }));
  return {
    modelId,
    n: rc.n,
    missingPCorrect: cols.missing,
    costAllAuto,
    expectedCostAllAuto,
    costAllEscalate: rc.optimal.costAllEscalate,
    global: thresholdResult(rc.optimal),
    bySeverity: Object.fromEntries(
      SEVERITIES.map((
        s,
      ) => [s, by.groups[s] ? thresholdResult(by.groups[s]) : null]),
    ) as Record<Severity, ThresholdResult | null>,
    perSeverity: { cost: by.cost, saved: snap(by.saved) },
    bayes: {
      cost: bayes.cost,
      saved: snap(costAllAuto - bayes.cost),
      escalated: bayes.escalated,
      thresholds: Object.fromEntries(
        SEVERITIES.map((s) => [
          s,
          chowThreshold(
            costIfWrong("MATCH", s, { profile, matrix }),
            profile.reviewCost,
          ),
        ]),
      ) as Record<Severity, number | null>,
      thresholdsIfFlagged: Object.fromEntries(
        SEVERITIES.map((s) => [
          s,
          chowThreshold(
            costIfWrong("AMOUNT_MISMATCH", s, { profile, matrix }),
            profile.reviewCost,
          ),
        ]),
      ) as Record<Severity, number | null>,
    },
    lossSaved: snap(by.saved),
    aurc: rc.aurc,
    eAurc: rc.eAurc,
    moneyAurc: rc.moneyAurc,
    moneyEAurc: rc.moneyEAurc,
    riskCoverage: curve,
  };
}

/** The options of `escalate`, as `--help` lists them and `parseFlags` reads them. */
export const ESCALATE_OPTIONS = {
  format: formatOption(
    "decisions|reconforge|lossbench|inspect|lm-eval|helm|promptfoo",
  ),
  ...MAPPING_FLAGS,
  probability: PROBABILITY_OPTION,
  profile: {
    ...profileOption(),
    doc:
      "cost profile that prices an automatic error and a review: a shipped id (see 'lossbook profiles') or a profile file",
  },
  mode: MATRIX_MODE_OPTION,
  points: {
    type: "string",
    value: "N",
    doc:
      "points of the risk-coverage curve in money (the curve is thinned to about N), 2 to 100,000",
    byDefault: "21",
  },
  lenient: LENIENT_OPTION,
  json: JSON_OPTION,
} as const;

/** What `escalate` prints with `--json`. Keys are a contract: extend, never rename. */
export type EscalateDocument =
  & ImportKeys
  & ({ file: string } | { files: string[] })
  & {
    /** The format the inputs were read as. */
    format: string;
    /** Decisions read. */
    decisions: number;
    /** The profile that prices an automatic error and a review. */
    profile: {
      id: string;
      version: string;
      unit: string;
      K: Readonly<Record<Severity, number>>;
      reviewCost: number;
    };
    /** Id of the cost matrix. */
    matrix: string;
    /** How an automatic error is priced, in words. */
    costing: string;
    /** One report per model with a stated pCorrect. */
    models: EscalationReport[];
  };

/** What {@linkcode escalateRun} read and computed. */
export interface EscalateRun {
  /** The `--json` document. */
  readonly document: EscalateDocument;
  /** The profile. */
  readonly profile: CostProfile;
  /** The cost matrix. */
  readonly matrix: CostMatrix;
  /** The unit of costs. */
  readonly unit: string;
}

/**
 * Escalation with the flag values of `lossbook escalate`: the one
 * computation behind {@linkcode escalate} and the command.
 */
export async function escalateRun(
  inputs: readonly RunSource[],
  values: FlagValuesOf<typeof ESCALATE_OPTIONS>,
): Promise<EscalateRun> {
  requireInputs(inputs);
  const points = values.points === undefined ? 21 : Number(values.points);
  if (!Number.isInteger(points) || points < 2 || points > 100_000) {
    throw new UsageError(
      `--points must be an integer from 2 to 100,000, got ${values.points}`,
    );
  }
  const outcomes = await readOutcomes(inputs, values);
  const { profile, matrix, unit } = outcomes;
  const models = outcomes.models
    .filter((m) => m.columns.p.length > 0)
    .map((m) =>
      escalationReport(m.modelId, m.columns, profile, points, matrix)
    );
  const document: EscalateDocument = {
    ...fileKeys(outcomes.run.files),
    format: outcomes.format,
    ...importKeys(outcomes.run),
    decisions: outcomes.decisions,
    profile: {
      id: profile.id,
      version: profile.version,
      unit,
      K: profile.K,
      reviewCost: profile.reviewCost,
    },
    matrix: matrix.id,
    costing:
      `an automatic error costs what the ${matrix.id} matrix charges (${matrix.description}); decisions are ranked by P(error) = 1 − pCorrect`,
    models,
  };
  return { document, profile, matrix, unit };
}

/**
 * The escalation thresholds that minimise a run's cost under a profile:
 * the best global and per-severity thresholds on P(error), the Bayes rule,
 * the loss saved and the risk-coverage curve in money. Returns the document
 * `lossbook escalate --json` prints for the same inputs and flags.
 *
 * @param inputs Each one input, as one command-line argument: a path, an
 *   array of decisions, or an Arquero decision table (`<memory:N>`).
 * @param options The flags of `lossbook escalate` in camelCase (`profile`,
 *   `mode`, `points`, …).
 * @returns The `escalate --json` document.
 * @throws {UsageError} For options the command would refuse, with its message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escalate } from "./escalate.ts";
 *
 * const doc = await escalate(["data/examples/reconforge_run.json"], { profile: "reconciliation" });
 * const m = doc.models[0];
 * assert.ok(m.global.cost <= m.costAllAuto && m.global.cost <= m.costAllEscalate);
 * ```
 */
export async function escalate(
  inputs: readonly RunSource[],
  options: EscalateOptions = {},
): Promise<EscalateDocument> {
  return (await escalateRun(
    inputs,
    flagValues("escalate", ESCALATE_OPTIONS, options),
  )).document;
}
