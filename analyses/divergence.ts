/**
 * Model A vs Model B: the divergence table of "The Third Number".
 *
 * Two models answer the same month of reconciliation work. A makes fewer
 * errors, spread evenly; B makes more, but few on HIGH-severity exceptions.
 * By accuracy A wins; by loss under any cost profile with a wide span, B does.
 * The analysis expands the published error counts into decision records and
 * runs them through the same loader, statistics and metrics as any user run.
 *
 * @module
 */

import * as aq from "arquero";
import { groupedBarChart } from "../lib/charts/specs.ts";
import { type Claim, claimClose, claimEqual } from "../lib/claims/claim.ts";
import type { AnalysisResult } from "../lib/claims/analysis_result.ts";
import { getProfile, SHIPPED_PROFILES } from "../lib/costs/load.ts";
import {
  type CostProfile,
  isFlatProfile,
  profileSpan,
} from "../lib/costs/profile.ts";
import type { Severity } from "../lib/costs/severity.ts";
import {
  accuracy,
  errorsBySeverity,
  recallBySeverity,
} from "../lib/metrics/accuracy.ts";
import { realisedLoss } from "../lib/metrics/loss.ts";
import { forModel, type StatsRow } from "../lib/metrics/sufficient_stats.ts";
import { CLEAN_CLASS, type Decision } from "../lib/decision/decision.ts";
import { decisionStats } from "../lib/decision/decision_stats.ts";
import { decisionTable } from "../lib/read/load_decisions.ts";

const SOURCE = "third-number: divergence table";

/** The severities that carry exceptions in the scenario, most costly first. */
export type ExceptionSeverity = Extract<Severity, "HIGH" | "MEDIUM" | "LOW">;

/** A month of decisions for two models, described by its counts. */
export interface DivergenceScenario {
  /** Decisions per model in the month, exceptions and clean items together. */
  readonly decisionsPerModel: number;
  /** Exceptions per severity. */
  readonly exceptions: Readonly<Record<ExceptionSeverity, number>>;
  /** Exception classes per severity; exceptions are spread over them in turn. */
  readonly classes: Readonly<Record<ExceptionSeverity, readonly string[]>>;
  /** Per model id: its label and its errors per severity. */
  readonly models: Readonly<
    Record<
      string,
      { label: string; errors: Readonly<Record<ExceptionSeverity, number>> }
    >
  >;
}

/**
 * The published scenario: 10,000 decisions a month, 800 of them exceptions
 * (500 HIGH, 200 MEDIUM, 100 LOW); Model A errs 10/4/2 and Model B 2/40/20 on
 * HIGH/MEDIUM/LOW. Exceptions are spread over the nine reconciliation classes
 * of `reconforge`.
 */
export const MODEL_AB_SCENARIO: DivergenceScenario = {
  decisionsPerModel: 10_000,
  exceptions: { HIGH: 500, MEDIUM: 200, LOW: 100 },
  classes: {
    HIGH: [
      "AMOUNT_MISMATCH",
      "FX_CONVERSION_ERROR",
      "BENEFICIARY_MISMATCH",
      "COUNTERPARTY_MISMATCH",
    ],
    MEDIUM: ["VALUE_DATE_MISMATCH", "MISSING_MESSAGE", "PARTIAL_MATCH"],
    LOW: ["DUPLICATE", "FIELD_CORRUPTION"],
  },
  models: {
    A: {
      label: "Model A (even errors)",
      errors: { HIGH: 10, MEDIUM: 4, LOW: 2 },
    },
    B: {
      label: "Model B (severity-shaped)",
      errors: { HIGH: 2, MEDIUM: 40, LOW: 20 },
    },
  },
};

const EXCEPTION_SEVERITIES: readonly ExceptionSeverity[] = [
  "HIGH",
  "MEDIUM",
  "LOW",
];

/** Options for {@linkcode scenarioDecisions}. */
export interface ScenarioDecisionsOptions {
  /** Include the clean (MATCH) items as well as the exceptions. Default: `true`. */
  includeClean?: boolean;
}

/**
 * Expand a scenario's counts into decision records.
 *
 * Exception i of a severity gets class `classes[i mod k]`; the first
 * `errors[severity]` of them are missed (predicted MATCH), the rest answered
 * correctly. Clean items are LOW severity and answered correctly, as the
 * published accuracies imply. Every decision is automatic, states no
 * probability, and has unavailable cost: the source gives neither. Right
 * answers end `resolved`, wrong ones `model_failure`.
 *
 * @param scenario The counts. Default: {@linkcode MODEL_AB_SCENARIO}.
 * @param options Whether to include clean items.
 * @returns Decisions, model by model, exceptions first.
 * @throws {RangeError} When errors exceed exceptions or exceptions exceed decisions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scenarioDecisions } from "./divergence.ts";
 *
 * const ds = scenarioDecisions(undefined, { includeClean: false });
 * assert.equal(ds.length, 1600);
 * assert.equal(ds.filter((d) => d.modelId === "B" && d.predClass !== d.trueClass).length, 62);
 * ```
 */
export function scenarioDecisions(
  scenario: DivergenceScenario = MODEL_AB_SCENARIO,
  options: ScenarioDecisionsOptions = {},
): Decision[] {
  const includeClean = options.includeClean ?? true;
  const totalExceptions = EXCEPTION_SEVERITIES.reduce(
    (s, k) => s + scenario.exceptions[k],
    0,
  );
  if (totalExceptions > scenario.decisionsPerModel) {
    throw new RangeError(
      `Cannot expand scenario: ${totalExceptions} exceptions exceed ${scenario.decisionsPerModel} decisions`,
    );
  }
  const out: Decision[] = [];
  for (const [modelId, model] of Object.entries(scenario.models)) {
    let index = 0;
    const push = (severity: Severity, trueClass: string, predClass: string) => {
      out.push({
        runId: "third-number-month",
        modelId,
        taskId: `recon-${String(index++).padStart(5, "0")}`,
        trial: 0,
        severity,
        trueClass,
        predClass,
        parseOk: true,
        pCorrect: null,
        action: "auto",
        cost: { completeness: "unavailable", usd: null },
        outcome: predClass === trueClass ? "resolved" : "model_failure",
      });
    };
    for (const s of EXCEPTION_SEVERITIES) {
      const n = scenario.exceptions[s];
      const errors = model.errors[s];
      if (errors > n) {
        throw new RangeError(
          `Cannot expand scenario: model ${modelId} has ${errors} ${s} errors but only ${n} ${s} exceptions`,
        );
      }
      const classes = scenario.classes[s];
      for (let i = 0; i < n; i++) {
        const cls = classes[i % classes.length];
        push(s, cls, i < errors ? CLEAN_CLASS : cls);
      }
    }
    if (includeClean) {
      for (let i = totalExceptions; i < scenario.decisionsPerModel; i++) {
        push("LOW", CLEAN_CLASS, CLEAN_CLASS);
      }
    }
  }
  return out;
}

/** Options for {@linkcode divergence}. */
export interface DivergenceOptions {
  /**
   * Profiles to show in the tables and charts. Default: the four shipped
   * profiles. Claims always check the published figures against the shipped
   * `flat`, `reconciliation` and `principal_risk`, whatever is shown.
   */
  profiles?: readonly CostProfile[];
  /** The scenario. Default: {@linkcode MODEL_AB_SCENARIO}. */
  scenario?: DivergenceScenario;
}

function lossOf(
  stats: readonly StatsRow[],
  model: string,
  profile: CostProfile,
): number | null {
  return realisedLoss(forModel(stats, model), profile);
}

/**
 * Reproduce the Model A vs Model B divergence table.
 *
 * Builds the month of decisions, loads it into a table, reduces it to
 * sufficient statistics and computes accuracy (over the 800 exceptions and
 * over all 10,000 decisions), errors per severity and loss under each
 * profile. Claims assert every published figure: accuracies 98.0% / 92.25%
 * and 99.84% / 99.38%, losses 104.4 / 64.0 (reconciliation) and 10,042 /
 * 2,420 (principal_risk), reductions 38.7% and 75.9%, and that the flat
 * profile ranks the models exactly as accuracy does.
 *
 * @param options Profiles to show and the scenario.
 * @returns Tables `divergence` (the published layout) and `loss_by_profile`,
 * charts `errors_by_severity` and `loss_by_profile`, and the claims.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { divergence } from "./divergence.ts";
 *
 * const result = divergence();
 * assert.ok(result.claims.every((c) => c.holds));
 * assert.equal(result.tables.divergence.numRows() > 0, true);
 * ```
 */
export function divergence(options: DivergenceOptions = {}): AnalysisResult {
  const scenario = options.scenario ?? MODEL_AB_SCENARIO;
  const profiles = options.profiles ?? SHIPPED_PROFILES;
  const models = Object.keys(scenario.models);
  const stats = decisionStats(decisionTable(scenarioDecisions(scenario)));

  const perModel = models.map((m) => {
    const rows = forModel(stats, m);
    return {
      model: m,
      label: scenario.models[m].label,
      accExceptions: accuracy(rows, { exceptionsOnly: true }),
      accAll: accuracy(rows),
      errors: errorsBySeverity(rows, { exceptionsOnly: true }),
      recall: recallBySeverity(rows),
    };
  });

  const metricRows: Record<string, unknown>[] = [];
  const addRow = (
    metric: string,
    denominator: string,
    values: (number | null)[],
  ) => {
    const row: Record<string, unknown> = { metric, denominator };
    models.forEach((m, i) => (row[m] = values[i]));
    metricRows.push(row);
  };
  for (const s of EXCEPTION_SEVERITIES) {
    addRow(
      `errors on ${s}`,
      `${scenario.exceptions[s]} ${s} exceptions`,
      perModel.map((p) => p.errors[s]),
    );
  }
  const nExceptions = perModel[0].accExceptions.denominator;
  addRow(
    "total errors",
    `${nExceptions} exceptions`,
    perModel.map((p) =>
      p.accExceptions.denominator - p.accExceptions.numerator
    ),
  );
  addRow(
    "accuracy",
    `${nExceptions} exceptions`,
    perModel.map((p) => p.accExceptions.value),
  );
  addRow(
    "accuracy",
    `${perModel[0].accAll.denominator} decisions`,
    perModel.map((p) => p.accAll.value),
  );
  for (const profile of profiles) {
    addRow(
      `loss, ${profile.id}`,
      `${perModel[0].accAll.denominator} decisions`,
      models.map((m) => lossOf(stats, m, profile)),
    );
  }
  const divergenceTable = aq.from(metricRows);

  const accRank = rankBy(
    models,
    (m) => -perModel[models.indexOf(m)].accAll.value!,
  );
  const lossRows: Record<string, unknown>[] = [];
  for (const profile of profiles) {
    const losses = models.map((m) => lossOf(stats, m, profile));
    const lossRank = rankBy(models, (m) => losses[models.indexOf(m)]!);
    models.forEach((m, i) => {
      lossRows.push({
        profile: profile.id,
        span: profileSpan(profile),
        model: m,
        loss: losses[i],
        lossRank: lossRank[i],
        accuracyRank: accRank[i],
      });
    });
  }
  const lossTable = aq.from(lossRows);

  const claims = divergenceClaims(stats, perModel, models);

  const errorValues = perModel.flatMap((p) =>
    EXCEPTION_SEVERITIES.map((s) => ({
      severity: s,
      model: p.label,
      errors: p.errors[s],
    }))
  );
  const charts = {
    errors_by_severity: groupedBarChart(errorValues, {
      x: "severity",
      group: "model",
      y: "errors",
      title: "Errors by severity (800 exceptions per model)",
      xTitle: "severity",
      yTitle: "errors",
      groupTitle: "model",
      xOrder: EXCEPTION_SEVERITIES,
      yCounts: true,
      colorBy: "model",
    }),
    loss_by_profile: groupedBarChart(
      lossRows.map((r) => ({
        profile: r.profile,
        model: scenario.models[r.model as string].label,
        loss: r.loss,
      })),
      {
        x: "profile",
        group: "model",
        y: "loss",
        title: "Realised loss per cost profile (log scale)",
        xTitle: "cost profile",
        yTitle: "loss (profile units)",
        groupTitle: "model",
        yScale: "log",
        xOrder: profiles.map((p) => p.id),
        colorBy: "model",
      },
    ),
  };

  return {
    id: "divergence",
    title: "Model A vs Model B: accuracy and loss disagree",
    source: SOURCE,
    parameters: {
      profiles: profiles.map((p) => `${p.id}@${p.version}`),
      decisionsPerModel: scenario.decisionsPerModel,
      exceptions: scenario.exceptions,
    },
    tables: { divergence: divergenceTable, loss_by_profile: lossTable },
    charts,
    claims,
  };
}

/** Competition ranks (1 = best, ties share a rank) of items by ascending key. */
function rankBy(
  items: readonly string[],
  key: (item: string) => number,
): number[] {
  const keys = items.map(key);
  return keys.map((k) => 1 + keys.filter((other) => other < k).length);
}

function divergenceClaims(
  stats: readonly StatsRow[],
  perModel: readonly {
    model: string;
    accExceptions: { value: number | null };
    accAll: { value: number | null };
  }[],
  models: readonly string[],
): Claim[] {
  const source = SOURCE;
  const get = (m: string) => perModel.find((p) => p.model === m)!;
  const flat = getProfile("flat");
  const recon = getProfile("reconciliation");
  const principal = getProfile("principal_risk");
  const loss = (m: string, p: CostProfile) => lossOf(stats, m, p);
  const reduction = (p: CostProfile) => {
    const a = loss("A", p);
    const b = loss("B", p);
    return a === null || b === null || a === 0 ? null : 1 - b / a;
  };
  const exact = { kind: "published", tolerance: 1e-9, source } as const;
  const claims: Claim[] = [
    claimClose(
      "divergence.accuracy.exceptions.A",
      "Model A is right on 98.0% of the 800 exceptions",
      0.98,
      get("A").accExceptions.value,
      exact,
    ),
    claimClose(
      "divergence.accuracy.exceptions.B",
      "Model B is right on 92.25% of the 800 exceptions",
      0.9225,
      get("B").accExceptions.value,
      exact,
    ),
    claimClose(
      "divergence.accuracy.all.A",
      "Over all 10,000 decisions Model A is right 99.84% of the time",
      0.9984,
      get("A").accAll.value,
      exact,
    ),
    claimClose(
      "divergence.accuracy.all.B",
      "Over all 10,000 decisions Model B is right 99.38% of the time",
      0.9938,
      get("B").accAll.value,
      exact,
    ),
    claimClose(
      "divergence.loss.reconciliation.A",
      "Model A loses 104.4 under reconciliation",
      104.4,
      loss("A", recon),
      exact,
    ),
    claimClose(
      "divergence.loss.reconciliation.B",
      "Model B loses 64.0 under reconciliation",
      64.0,
      loss("B", recon),
      exact,
    ),
    claimClose(
      "divergence.loss.principal_risk.A",
      "Model A loses 10,042 under principal_risk",
      10_042,
      loss("A", principal),
      exact,
    ),
    claimClose(
      "divergence.loss.principal_risk.B",
      "Model B loses 2,420 under principal_risk",
      2_420,
      loss("B", principal),
      exact,
    ),
    claimClose(
      "divergence.reduction.reconciliation",
      "Model B loses 38.7% less than A under reconciliation",
      0.387,
      reduction(recon),
      { kind: "published", tolerance: 0.0005, source },
    ),
    claimClose(
      "divergence.reduction.principal_risk",
      "Model B loses 75.9% less than A under principal_risk",
      0.759,
      reduction(principal),
      { kind: "published", tolerance: 0.0005, source },
    ),
    claimClose(
      "divergence.loss.flat.A",
      "Under the flat profile Model A's loss is its error count, 16",
      16,
      loss("A", flat),
      {
        kind: "property",
        tolerance: 0,
        source:
          "third-number: flat-cost theorem, flat K makes loss a count of errors",
      },
    ),
    claimClose(
      "divergence.loss.flat.B",
      "Under the flat profile Model B's loss is its error count, 62",
      62,
      loss("B", flat),
      {
        kind: "property",
        tolerance: 0,
        source:
          "third-number: flat-cost theorem, flat K makes loss a count of errors",
      },
    ),
  ];
  const byAccuracy = [...models].sort((x, y) =>
    get(y).accAll.value! - get(x).accAll.value!
  );
  for (const p of SHIPPED_PROFILES.filter(isFlatProfile)) {
    const byLoss = [...models].sort((x, y) => loss(x, p)! - loss(y, p)!);
    claims.push(claimEqual(
      `divergence.flat_ranking.${p.id}`,
      `Under the flat profile "${p.id}" the loss ranking equals the accuracy ranking`,
      byAccuracy.join(" < "),
      byLoss.join(" < "),
      {
        kind: "derived",
        how: "the accuracy ranking of the same models on the same decisions",
        source: "third-number: flat-cost theorem",
      },
    ));
  }
  claims.push(
    claimEqual(
      "divergence.winner.accuracy",
      "Model A is the more accurate model",
      "A",
      byAccuracy[0],
      { kind: "published", source },
    ),
    claimEqual(
      "divergence.winner.reconciliation",
      "Model B has the lower loss under reconciliation",
      "B",
      [...models].sort((x, y) => loss(x, recon)! - loss(y, recon)!)[0],
      { kind: "published", source },
    ),
  );
  return claims;
}
