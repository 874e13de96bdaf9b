/**
 * Sufficient statistics of a run: decision counts per (model, severity,
 * trueClass, predClass, action), with the probability sums that expected
 * loss needs. Every metric, every cost sweep and every bootstrap reads these,
 * never the rows.
 *
 * @module
 */

import { type Severity, severityRank } from "../costs/severity.ts";

/** What happened to a decision: acted on automatically or sent to review. */
export type Action = "auto" | "escalate";

/**
 * One cell of the sufficient statistics: the decisions of one model that
 * share a severity, a gold class, a predicted class and an action.
 *
 * Loss under any cost profile and any cost matrix is linear in `n`, so a
 * sweep over a million profiles costs no more passes over the data than one.
 * The table has at most models x severities x classes² x 2 rows, whatever
 * the length of the run.
 */
export interface StatsRow {
  /** Model id. */
  readonly modelId: string;
  /** Task severity. */
  readonly severity: Severity;
  /** Gold class; the clean class (`"MATCH"`) for items without an exception. */
  readonly trueClass: string;
  /** Class the decision was taken as. */
  readonly predClass: string;
  /** `auto` or `escalate`. */
  readonly action: Action;
  /** Number of decisions in the cell. */
  readonly n: number;
  /** Sum of P(error) = 1 - pCorrect over the cell's decisions that state pCorrect. */
  readonly pErrorSum: number;
  /** Decisions in the cell with no stated pCorrect. */
  readonly pMissing: number;
  /** Decisions in the cell whose raw output did not parse. */
  readonly parseFailures: number;
  /**
   * The cell's decisions counted in tasks: the sum over its decisions of
   * 1 / (decisions of the same model on the same task). A task answered in
   * T trials (epochs, repeated runs, samples) adds 1/T per trial, so the
   * cell's `taskShare` is its count of independent units when trials of a
   * task are treated as one cluster. Equals `n` when every task has one
   * trial; absent (read as `n`) in statistics built before clustering was
   * tracked.
   */
  readonly taskShare?: number;
  /**
   * The sum over the cell's decisions of the trials of their task (the
   * decisions of the same model on the same task): a task answered in T
   * trials adds T per trial. Summed over the cells a rate counts, it is
   * Σ T², the sum over tasks of their squared trial counts, which sets the
   * effective number of independent units of a rate whose trials of a task
   * may agree (see `docs/method.md`, "Accuracy and recall intervals").
   * Equals `n` when every task has one trial; absent in statistics built
   * before it was tracked (read as n² / taskShare, exact when the cell's
   * tasks all have the same number of trials).
   */
  readonly taskTrialsSum?: number;
  /**
   * The sum over the cell's decisions of the decisions of their unit (the
   * same model on the same task) that can carry a cost: every decision but
   * an automatic correct one. A unit with c decisions in this cell and m
   * that can cost adds c · m, so in a cell whose units put all their costly
   * decisions in it this is Σ c², the per-unit second moment that
   * `unitGammaLossInterval` reads (see `docs/method.md`, "Several
   * trials per task"). Equals `n` in a cell of wrong or escalated decisions,
   * and 0 in a cell of automatic correct ones, when every unit has one
   * decision; absent in statistics built before it was tracked (read as
   * `taskTrialsSum`: every decision of a unit counted as one that can
   * cost).
   */
  readonly unitCostPairs?: number;
}

/**
 * A cell's {@linkcode StatsRow.taskTrialsSum}, or, in statistics that do not
 * carry it, n² / taskShare (exact when the cell's tasks all have the same
 * number of trials), or n when `taskShare` is absent too (one trial per
 * task).
 *
 * @param row A cell.
 * @returns The sum over its decisions of the trials of their task.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { taskTrialsSumOf } from "./sufficient_stats.ts";
 *
 * const cell = { modelId: "m", severity: "LOW", trueClass: "X", predClass: "X", action: "auto",
 *   n: 10, pErrorSum: 0, pMissing: 10, parseFailures: 0 } as const;
 * assert.equal(taskTrialsSumOf(cell), 10);
 * assert.equal(taskTrialsSumOf({ ...cell, taskShare: 2 }), 50); // two tasks of five trials
 * assert.equal(taskTrialsSumOf({ ...cell, taskShare: 2, taskTrialsSum: 52 }), 52);
 * ```
 */
export function taskTrialsSumOf(row: StatsRow): number {
  if (row.taskTrialsSum !== undefined) return row.taskTrialsSum;
  if (row.taskShare === undefined || row.taskShare <= 0) return row.n;
  return (row.n * row.n) / row.taskShare;
}

/**
 * A cell's {@linkcode StatsRow.unitCostPairs}, or, in statistics that do not
 * carry it, its {@linkcode taskTrialsSumOf}: every decision of a unit
 * counted as one that can cost, never fewer than there are.
 *
 * @param row A cell.
 * @returns The sum over its decisions of the costly decisions of their unit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unitCostPairsOf } from "./sufficient_stats.ts";
 *
 * const cell = { modelId: "m", severity: "LOW", trueClass: "X", predClass: "MATCH", action: "auto",
 *   n: 3, pErrorSum: 0, pMissing: 3, parseFailures: 0 } as const;
 * // two units of five trials: one missed twice, the other once
 * assert.equal(unitCostPairsOf({ ...cell, taskShare: 0.6, taskTrialsSum: 15, unitCostPairs: 5 }), 5);
 * assert.equal(unitCostPairsOf({ ...cell, taskShare: 0.6, taskTrialsSum: 15 }), 15);
 * ```
 */
export function unitCostPairsOf(row: StatsRow): number {
  return row.unitCostPairs ?? taskTrialsSumOf(row);
}

/**
 * Whether a decision of a cell can carry a cost: every decision but an
 * automatic correct one (the one the consequence matrix prices at zero).
 * The units' costly decisions that {@linkcode StatsRow.unitCostPairs}
 * counts are these.
 *
 * The SQL engines count the same decisions with `CAN_COST_SQL`
 * (lib/sql/duckdb_stats_sql.ts), whose test checks the two agree.
 *
 * @param row A cell, or any decision's gold class, predicted class and action.
 * @param cleanClass Class of clean items. Default: `"MATCH"`.
 * @returns `false` for an automatic decision whose predicted class is its gold class.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canCost } from "./sufficient_stats.ts";
 *
 * const cell = { modelId: "m", severity: "LOW", trueClass: "X", predClass: "X", action: "auto",
 *   n: 1, pErrorSum: 0, pMissing: 1, parseFailures: 0 } as const;
 * assert.equal(canCost(cell), false);
 * assert.equal(canCost({ ...cell, action: "escalate" }), true);
 * assert.equal(canCost({ ...cell, predClass: "MATCH" }), true);
 * ```
 */
export function canCost(
  row: Pick<StatsRow, "trueClass" | "predClass" | "action">,
  cleanClass = "MATCH",
): boolean {
  return row.action === "escalate" ||
    outcomeOf(row.trueClass, row.predClass, cleanClass) !== "correct";
}

/** The numeric fields of a {@linkcode StatsRow}, which add across cells. */
export const STAT_COUNTS = [
  "n",
  "pErrorSum",
  "pMissing",
  "parseFailures",
] as const;

/** The key fields of a {@linkcode StatsRow}. */
export const STAT_KEYS = [
  "modelId",
  "severity",
  "trueClass",
  "predClass",
  "action",
] as const;

/**
 * How a prediction relates to the gold class.
 *
 * - `correct`: the predicted class is the gold class;
 * - `missed`: an exception predicted as the clean class;
 * - `wrongType`: an exception predicted as another exception class;
 * - `falseAlarm`: a clean item predicted as an exception.
 */
export type Outcome = "correct" | "missed" | "wrongType" | "falseAlarm";

/** The four outcomes, in a fixed order. */
export const OUTCOMES: readonly Outcome[] = [
  "correct",
  "missed",
  "wrongType",
  "falseAlarm",
];

/**
 * The gold class of every decision a harness verdict decides (an inspect_ai,
 * lm-evaluation-harness, HELM or promptfoo log): the log has no clean class
 * and no flagging step, only the harness's verdict on the answer.
 */
export const VERDICT_CORRECT = "verdict:correct";

/** The predicted class of an answer the harness scored incorrect. */
export const VERDICT_INCORRECT = "verdict:incorrect";

/** The predicted class of a sample the harness scored as no answer (`parseOk: false`). */
export const VERDICT_NO_ANSWER = "verdict:no_answer";

/** The reserved verdict classes; no task's own class may take these names. */
export const VERDICT_CLASSES = [
  VERDICT_CORRECT,
  VERDICT_INCORRECT,
  VERDICT_NO_ANSWER,
] as const;

/**
 * Whether a class is one of the reserved verdict classes.
 *
 * @param cls A class name.
 * @returns `true` for `verdict:correct`, `verdict:incorrect`, `verdict:no_answer`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isVerdictClass } from "./sufficient_stats.ts";
 *
 * assert.equal(isVerdictClass("verdict:incorrect"), true);
 * assert.equal(isVerdictClass("MATCH"), false);
 * ```
 */
export function isVerdictClass(cls: string): boolean {
  return (VERDICT_CLASSES as readonly string[]).includes(cls);
}

/**
 * Classify a (gold, predicted) pair.
 *
 * A harness verdict (gold class {@linkcode VERDICT_CORRECT}) that is not
 * correct is `missed`, whatever the predicted verdict: the wrong answer was
 * acted on, so every cost matrix prices it at K(severity), never as a
 * review of a wrong exception type.
 *
 * @param trueClass Gold class.
 * @param predClass Predicted class.
 * @param cleanClass Class of clean items. Default: `"MATCH"`.
 * @returns The outcome.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outcomeOf } from "./sufficient_stats.ts";
 *
 * assert.equal(outcomeOf("AMOUNT_MISMATCH", "MATCH"), "missed");
 * assert.equal(outcomeOf("AMOUNT_MISMATCH", "FX_CONVERSION_ERROR"), "wrongType");
 * assert.equal(outcomeOf("MATCH", "DUPLICATE"), "falseAlarm");
 * assert.equal(outcomeOf("verdict:correct", "verdict:incorrect"), "missed");
 * ```
 */
export function outcomeOf(
  trueClass: string,
  predClass: string,
  cleanClass = "MATCH",
): Outcome {
  if (predClass === trueClass) return "correct";
  if (trueClass === VERDICT_CORRECT || isVerdictClass(predClass)) {
    return "missed";
  }
  if (trueClass === cleanClass) return "falseAlarm";
  return predClass === cleanClass ? "missed" : "wrongType";
}

/** Totals of a set of cells, by outcome and action. */
export interface StatsSummary {
  /** Decisions. */
  readonly n: number;
  /** Decisions whose class equals the gold class. */
  readonly correct: number;
  /** Decisions sent to review. */
  readonly escalated: number;
  /** Automatic decisions that were wrong: `missed + wrongType + falseAlarms`. */
  readonly autoErrors: number;
  /** Automatic decisions that predicted clean on an exception. */
  readonly missed: number;
  /** Automatic decisions that predicted the wrong exception class. */
  readonly wrongType: number;
  /** Automatic decisions that flagged a clean item. */
  readonly falseAlarms: number;
  /** Decisions on exceptions (gold class not clean). */
  readonly exceptions: number;
  /** Decisions whose raw output did not parse. */
  readonly parseFailures: number;
  /** Sum of P(error) over automatic decisions that state pCorrect. */
  readonly autoPErrorSum: number;
  /** Automatic decisions that state no pCorrect. */
  readonly autoPMissing: number;
}

/**
 * Add up a set of cells into per-outcome totals.
 *
 * @param stats Cells, usually of one model.
 * @param options Clean class. Default: `"MATCH"`.
 * @returns The totals; all zero for an empty set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarise } from "./sufficient_stats.ts";
 *
 * const cell = { modelId: "m", severity: "HIGH", trueClass: "AMOUNT_MISMATCH",
 *   n: 3, pErrorSum: 0, pMissing: 3, parseFailures: 0 } as const;
 * const s = summarise([
 *   { ...cell, predClass: "MATCH", action: "auto" },
 *   { ...cell, predClass: "MATCH", action: "escalate" },
 * ]);
 * assert.deepEqual([s.n, s.missed, s.escalated, s.autoErrors], [6, 3, 3, 3]);
 * ```
 */
export function summarise(
  stats: readonly StatsRow[],
  options: { cleanClass?: string } = {},
): StatsSummary {
  const clean = options.cleanClass ?? "MATCH";
  let n = 0,
    correct = 0,
    escalated = 0,
    missed = 0,
    wrongType = 0,
    falseAlarms = 0;
  let exceptions = 0, parseFailures = 0, autoPErrorSum = 0, autoPMissing = 0;
  for (const r of stats) {
    n += r.n;
    parseFailures += r.parseFailures;
    if (r.trueClass !== clean) exceptions += r.n;
    const outcome = outcomeOf(r.trueClass, r.predClass, clean);
    if (outcome === "correct") correct += r.n;
    if (r.action === "escalate") {
      escalated += r.n;
      continue;
    }
    autoPErrorSum += r.pErrorSum;
    autoPMissing += r.pMissing;
    if (outcome === "missed") missed += r.n;
    else if (outcome === "wrongType") wrongType += r.n;
    else if (outcome === "falseAlarm") falseAlarms += r.n;
  }
  return {
    n,
    correct,
    escalated,
    autoErrors: missed + wrongType + falseAlarms,
    missed,
    wrongType,
    falseAlarms,
    exceptions,
    parseFailures,
    autoPErrorSum,
    autoPMissing,
  };
}

/**
 * The model ids in a set of statistics, sorted.
 *
 * @param stats Sufficient statistics.
 * @returns Distinct model ids in code-point order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelIds } from "./sufficient_stats.ts";
 *
 * const cell = { severity: "LOW", trueClass: "MATCH", predClass: "MATCH", action: "auto",
 *   n: 1, pErrorSum: 0, pMissing: 1, parseFailures: 0 } as const;
 * assert.deepEqual(modelIds([{ ...cell, modelId: "b" }, { ...cell, modelId: "a" }]), ["a", "b"]);
 * ```
 */
export function modelIds(stats: readonly StatsRow[]): string[] {
  return [...new Set(stats.map((r) => r.modelId))].sort();
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Order statistics rows canonically: by model, severity rank, gold class,
 * predicted class, then action.
 *
 * @param stats Sufficient statistics.
 * @returns A new, sorted array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sortStats } from "./sufficient_stats.ts";
 *
 * const cell = { modelId: "m", trueClass: "X", predClass: "X", action: "auto",
 *   n: 1, pErrorSum: 0, pMissing: 1, parseFailures: 0 } as const;
 * const sorted = sortStats([{ ...cell, severity: "HIGH" }, { ...cell, severity: "LOW" }]);
 * assert.deepEqual(sorted.map((r) => r.severity), ["LOW", "HIGH"]);
 * ```
 */
export function sortStats(stats: readonly StatsRow[]): StatsRow[] {
  return [...stats].sort((a, b) =>
    cmp(a.modelId, b.modelId) ||
    severityRank(a.severity) - severityRank(b.severity) ||
    cmp(a.trueClass, b.trueClass) || cmp(a.predClass, b.predClass) ||
    cmp(a.action, b.action)
  );
}

/**
 * The statistics rows of one model.
 *
 * @param stats Sufficient statistics.
 * @param modelId The model.
 * @returns Its rows; an empty array when the model is absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forModel } from "./sufficient_stats.ts";
 *
 * assert.deepEqual(forModel([], "m"), []);
 * ```
 */
export function forModel(
  stats: readonly StatsRow[],
  modelId: string,
): StatsRow[] {
  return stats.filter((r) => r.modelId === modelId);
}
