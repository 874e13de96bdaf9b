/**
 * Accuracy, errors and recall per severity, from sufficient statistics.
 *
 * @module
 */

import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { clusteredRate, type Rate, type RateOptions } from "../math/rate.ts";
import { type StatsRow, taskTrialsSumOf } from "./sufficient_stats.ts";

/** Options that choose which decisions a count covers. */
export interface SelectOptions extends RateOptions {
  /**
   * Count only exceptions (items whose gold class is not the clean class).
   * Default: `false`, every decision.
   */
  exceptionsOnly?: boolean;
  /** Gold class of clean items. Default: `"MATCH"`. */
  cleanClass?: string;
}

function select(
  stats: readonly StatsRow[],
  options: SelectOptions,
): readonly StatsRow[] {
  if (!options.exceptionsOnly) return stats;
  const clean = options.cleanClass ?? "MATCH";
  return stats.filter((r) => r.trueClass !== clean);
}

/**
 * Accuracy: the share of decisions whose class equals the gold class.
 *
 * The denominator travels with the value, because "98.0%" over 800
 * exceptions and "99.84%" over 10,000 decisions are the same model (the
 * Third Number, Model A). Escalated decisions count by the model's answer.
 *
 * The interval counts tasks, not trials: when some task was answered in
 * several trials (epochs, repeated runs), its trials share the task's
 * difficulty, and the interval is `clusteredRate`'s over the effective
 * number of tasks (n² / Σ T², from the cells' `taskTrialsSum`), its
 * `method` ending in `-clustered`. With one trial per task it is the
 * Wilson (or, next to the boundary, Clopper–Pearson) interval over the
 * decisions.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param options Which decisions to count, and the interval level.
 * @returns Correct over counted decisions with its interval; `value` is `null` when nothing is counted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { accuracy } from "./accuracy.ts";
 *
 * const cell = { modelId: "A", severity: "HIGH", trueClass: "AMOUNT_MISMATCH", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const acc = accuracy([
 *   { ...cell, predClass: "AMOUNT_MISMATCH", n: 490 },
 *   { ...cell, predClass: "MATCH", n: 10 },
 * ]);
 * assert.equal(acc.value, 0.98);
 * assert.equal(acc.denominator, 500);
 * assert.equal(accuracy([]).value, null);
 * // the same 500 decisions as 100 tasks of 5 trials: the interval counts 100
 * const tasks = accuracy([
 *   { ...cell, predClass: "AMOUNT_MISMATCH", n: 490, taskShare: 98, taskTrialsSum: 2450 },
 *   { ...cell, predClass: "MATCH", n: 10, taskShare: 2, taskTrialsSum: 50 },
 * ]);
 * assert.equal(tasks.value, 0.98);
 * assert.equal(tasks.interval!.effectiveN, 100);
 * assert.ok(tasks.interval!.lo < acc.interval!.lo);
 * ```
 */
export function accuracy(
  stats: readonly StatsRow[],
  options: SelectOptions = {},
): Rate {
  const { k, n, trialsSquared } = accuracyTally(stats, options);
  return clusteredRate(k, n, trialsSquared, options);
}

/**
 * Count the wrong decisions at each severity, escalated or not.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param options Which decisions to count.
 * @returns Errors per severity; a severity with no decisions is `null`, not 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorsBySeverity } from "./accuracy.ts";
 *
 * const cell = { modelId: "B", severity: "MEDIUM", trueClass: "PARTIAL_MATCH", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * assert.deepEqual(
 *   errorsBySeverity([{ ...cell, predClass: "PARTIAL_MATCH", n: 160 }, { ...cell, predClass: "MATCH", n: 40 }]),
 *   { LOW: null, MEDIUM: 40, HIGH: null, CRITICAL: null },
 * );
 * ```
 */
export function errorsBySeverity(
  stats: readonly StatsRow[],
  options: SelectOptions = {},
): Record<Severity, number | null> {
  const out = { LOW: null, MEDIUM: null, HIGH: null, CRITICAL: null } as Record<
    Severity,
    number | null
  >;
  for (const r of select(stats, options)) {
    out[r.severity] = (out[r.severity] ?? 0) +
      (r.predClass === r.trueClass ? 0 : r.n);
  }
  return out;
}

/**
 * Recall per severity: of the exceptions at each severity, the share given
 * exactly their gold class.
 *
 * Clean items never enter recall. A severity with no exceptions has a rate
 * whose value is `null`. Each interval counts tasks, as {@linkcode accuracy}'s
 * does. For ReconForge's rule, where any exception verdict
 * catches a HIGH exception, see `caughtRecallBySeverity`.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param options Clean class and interval level.
 * @returns A rate per severity.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recallBySeverity } from "./accuracy.ts";
 *
 * const cell = { modelId: "A", severity: "HIGH", trueClass: "FX_CONVERSION_ERROR", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const r = recallBySeverity([
 *   { ...cell, predClass: "FX_CONVERSION_ERROR", n: 120 },
 *   { ...cell, predClass: "MATCH", n: 5 },
 * ]);
 * assert.equal(r.HIGH.value, 0.96);
 * assert.equal(r.LOW.value, null);
 * ```
 */
export function recallBySeverity(
  stats: readonly StatsRow[],
  options: Omit<SelectOptions, "exceptionsOnly"> = {},
): Record<Severity, Rate> {
  return ratesBySeverity(
    stats,
    (r) => r.predClass === r.trueClass,
    options.cleanClass ?? "MATCH",
    options,
  );
}

/** Successes `k` of `n` trials. */
export interface Counts {
  /** Successes. */
  k: number;
  /** Trials. */
  n: number;
}

/** {@linkcode Counts}, with Σ T² over the tasks of the trials (see `clusteredRate`). */
interface Tally extends Counts {
  trialsSquared: number;
}

/**
 * Rates per severity over the exceptions (gold class not `cleanClass`),
 * each a `clusteredRate`: recall by whichever rule `success` states.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param success Whether a cell's decisions count as caught.
 * @param cleanClass Gold class of clean items.
 * @param options Interval level.
 * @returns A rate per severity, its interval counting tasks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ratesBySeverity } from "./accuracy.ts";
 *
 * const cell = { modelId: "m", severity: "LOW", trueClass: "X", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const r = ratesBySeverity([
 *   { ...cell, predClass: "X", n: 8, taskShare: 4, taskTrialsSum: 16 },
 *   { ...cell, predClass: "MATCH", n: 2, taskShare: 1, taskTrialsSum: 4 },
 * ], (c) => c.predClass === c.trueClass, "MATCH");
 * assert.equal(r.LOW.value, 0.8);
 * assert.equal(r.LOW.interval!.effectiveN, 5);
 * ```
 */
export function ratesBySeverity(
  stats: readonly StatsRow[],
  success: (row: StatsRow) => boolean,
  cleanClass: string,
  options: RateOptions = {},
): Record<Severity, Rate> {
  const tally = Object.fromEntries(
    SEVERITIES.map((s) => [s, { k: 0, n: 0, trialsSquared: 0 }]),
  ) as Record<Severity, Tally>;
  for (const r of stats) {
    if (r.trueClass === cleanClass) continue;
    const t = tally[r.severity];
    t.n += r.n;
    t.trialsSquared += taskTrialsSumOf(r);
    if (success(r)) t.k += r.n;
  }
  return Object.fromEntries(
    SEVERITIES.map((
      s,
    ) => [
      s,
      clusteredRate(tally[s].k, tally[s].n, tally[s].trialsSquared, options),
    ]),
  ) as Record<Severity, Rate>;
}

/**
 * The counts behind {@linkcode recallBySeverity}, with no interval: of the
 * exceptions at each severity, how many were given their gold class. (A
 * bootstrap asks for the value a thousand times and never for its interval.)
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param options The clean class.
 * @returns Counts per severity.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recallCounts } from "./accuracy.ts";
 *
 * const cell = { modelId: "A", severity: "HIGH", trueClass: "FX_CONVERSION_ERROR", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const c = recallCounts([
 *   { ...cell, predClass: "FX_CONVERSION_ERROR", n: 120 },
 *   { ...cell, predClass: "MATCH", n: 5 },
 *   { ...cell, trueClass: "MATCH", predClass: "MATCH", n: 900 },
 * ]);
 * assert.deepEqual(c.HIGH, { k: 120, n: 125 });
 * assert.deepEqual(c.LOW, { k: 0, n: 0 });
 * ```
 */
export function recallCounts(
  stats: readonly StatsRow[],
  options: Pick<SelectOptions, "cleanClass"> = {},
): Record<Severity, Counts> {
  const counts = Object.fromEntries(
    SEVERITIES.map((s) => [s, { k: 0, n: 0 }]),
  ) as Record<Severity, Counts>;
  for (const r of select(stats, { ...options, exceptionsOnly: true })) {
    counts[r.severity].n += r.n;
    if (r.predClass === r.trueClass) counts[r.severity].k += r.n;
  }
  return counts;
}

/**
 * The counts behind {@linkcode accuracy}, with no interval.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param options Which decisions to count.
 * @returns Correct decisions `k` of the `n` counted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { accuracyCounts } from "./accuracy.ts";
 *
 * const cell = { modelId: "A", severity: "HIGH", trueClass: "AMOUNT_MISMATCH", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * assert.deepEqual(
 *   accuracyCounts([{ ...cell, predClass: "AMOUNT_MISMATCH", n: 490 }, { ...cell, predClass: "MATCH", n: 10 }]),
 *   { k: 490, n: 500 },
 * );
 * ```
 */
export function accuracyCounts(
  stats: readonly StatsRow[],
  options: Omit<SelectOptions, keyof RateOptions> = {},
): Counts {
  const { k, n } = accuracyTally(stats, options);
  return { k, n };
}

function accuracyTally(
  stats: readonly StatsRow[],
  options: Omit<SelectOptions, keyof RateOptions>,
): Tally {
  let n = 0;
  let k = 0;
  let trialsSquared = 0;
  for (const r of select(stats, options)) {
    n += r.n;
    trialsSquared += taskTrialsSumOf(r);
    if (r.predClass === r.trueClass) k += r.n;
  }
  return { k, n, trialsSquared };
}
