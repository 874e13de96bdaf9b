/**
 * Accuracy, errors and recall per severity, from sufficient statistics.
 *
 * @module
 */

import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { type Rate, rate, type RateOptions } from "../math/rate.ts";
import type { StatsRow } from "./sufficient_stats.ts";

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
 * @param stats Sufficient statistics, usually of one model.
 * @param options Which decisions to count, and the interval level.
 * @returns Correct over counted decisions with a Wilson interval; `value` is `null` when nothing is counted.
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
 * ```
 */
export function accuracy(
  stats: readonly StatsRow[],
  options: SelectOptions = {},
): Rate {
  const { k, n } = accuracyCounts(stats, options);
  return rate(k, n, options);
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
 * whose value is `null`. For ReconForge's rule, where any exception verdict
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
  const counts = recallCounts(stats, options);
  return Object.fromEntries(
    SEVERITIES.map((s) => [s, rate(counts[s].k, counts[s].n, options)]),
  ) as Record<Severity, Rate>;
}

/** Successes `k` of `n` trials. */
export interface Counts {
  /** Successes. */
  k: number;
  /** Trials. */
  n: number;
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
  let n = 0;
  let k = 0;
  for (const r of select(stats, options)) {
    n += r.n;
    if (r.predClass === r.trueClass) k += r.n;
  }
  return { k, n };
}
