/**
 * Sufficient statistics of a run: counts and sums per (model, severity,
 * trueClass). Every metric and every cost sweep reads these, never the rows.
 *
 * @module
 */

import { type Severity, severityRank } from "../costs/severity.ts";

/**
 * Counts for one (model, severity, trueClass) cell.
 *
 * Loss under any cost profile is linear in these counts, which is why a
 * sweep over a million profiles costs no more passes over the data than one.
 */
export interface StatsRow {
  /** Model id. */
  readonly modelId: string;
  /** Task severity. */
  readonly severity: Severity;
  /** Gold class; `"MATCH"` for clean items. */
  readonly trueClass: string;
  /** Number of decisions. */
  readonly n: number;
  /** Decisions whose class equals the gold class. */
  readonly correct: number;
  /** Decisions sent to review. */
  readonly escalated: number;
  /** Decisions acted on automatically and wrong: the ones that cost K. */
  readonly autoErrors: number;
  /** Sum of P(error) = 1 - pCorrect over automatic decisions that state pCorrect. */
  readonly pErrorSum: number;
  /** Automatic decisions with no stated pCorrect. */
  readonly pMissing: number;
  /** Decisions whose raw output did not parse. */
  readonly parseFailures: number;
}

/** The numeric fields of a {@linkcode StatsRow}. */
export const STAT_COUNTS = [
  "n",
  "correct",
  "escalated",
  "autoErrors",
  "pErrorSum",
  "pMissing",
  "parseFailures",
] as const;

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
 * const row = { severity: "LOW", trueClass: "MATCH", n: 1, correct: 1, escalated: 0,
 *   autoErrors: 0, pErrorSum: 0, pMissing: 1, parseFailures: 0 } as const;
 * assert.deepEqual(modelIds([{ ...row, modelId: "b" }, { ...row, modelId: "a" }]), ["a", "b"]);
 * ```
 */
export function modelIds(stats: readonly StatsRow[]): string[] {
  return [...new Set(stats.map((r) => r.modelId))].sort();
}

/**
 * Order statistics rows canonically: by model, severity rank, then class.
 *
 * @param stats Sufficient statistics.
 * @returns A new, sorted array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sortStats } from "./sufficient_stats.ts";
 *
 * const row = { modelId: "m", trueClass: "X", n: 1, correct: 1, escalated: 0,
 *   autoErrors: 0, pErrorSum: 0, pMissing: 1, parseFailures: 0 } as const;
 * const sorted = sortStats([{ ...row, severity: "HIGH" }, { ...row, severity: "LOW" }]);
 * assert.deepEqual(sorted.map((r) => r.severity), ["LOW", "HIGH"]);
 * ```
 */
export function sortStats(stats: readonly StatsRow[]): StatsRow[] {
  return [...stats].sort((a, b) =>
    a.modelId < b.modelId
      ? -1
      : a.modelId > b.modelId
      ? 1
      : severityRank(a.severity) -
          severityRank(b.severity) ||
        (a.trueClass < b.trueClass ? -1 : a.trueClass > b.trueClass ? 1 : 0)
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
