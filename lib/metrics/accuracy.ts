/**
 * Accuracy, errors and recall per severity, from sufficient statistics.
 *
 * @module
 */

import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { type Rate, rate, type RateOptions } from "./rate.ts";
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
 * const row = { modelId: "A", severity: "HIGH", trueClass: "AMOUNT_MISMATCH", n: 500,
 *   correct: 490, escalated: 0, autoErrors: 10, pErrorSum: 0, pMissing: 500, parseFailures: 0 } as const;
 * const acc = accuracy([row]);
 * assert.equal(acc.value, 0.98);
 * assert.equal(acc.denominator, 500);
 * assert.equal(accuracy([]).value, null);
 * ```
 */
export function accuracy(
  stats: readonly StatsRow[],
  options: SelectOptions = {},
): Rate {
  let n = 0;
  let correct = 0;
  for (const r of select(stats, options)) {
    n += r.n;
    correct += r.correct;
  }
  return rate(correct, n, options);
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
 * const row = { modelId: "B", severity: "MEDIUM", trueClass: "PARTIAL_MATCH", n: 200,
 *   correct: 160, escalated: 0, autoErrors: 40, pErrorSum: 0, pMissing: 200, parseFailures: 0 } as const;
 * assert.deepEqual(errorsBySeverity([row]), { LOW: null, MEDIUM: 40, HIGH: null, CRITICAL: null });
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
    out[r.severity] = (out[r.severity] ?? 0) + (r.n - r.correct);
  }
  return out;
}

/**
 * Recall per severity: of the exceptions at each severity, the share given
 * exactly their gold class.
 *
 * Clean items never enter recall. A severity with no exceptions has a rate
 * whose value is `null`.
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
 * const row = { modelId: "A", severity: "HIGH", trueClass: "FX_CONVERSION_ERROR", n: 125,
 *   correct: 120, escalated: 0, autoErrors: 5, pErrorSum: 0, pMissing: 125, parseFailures: 0 } as const;
 * const r = recallBySeverity([row]);
 * assert.equal(r.HIGH.value, 0.96);
 * assert.equal(r.LOW.value, null);
 * ```
 */
export function recallBySeverity(
  stats: readonly StatsRow[],
  options: Omit<SelectOptions, "exceptionsOnly"> = {},
): Record<Severity, Rate> {
  const counts = Object.fromEntries(
    SEVERITIES.map((s) => [s, { k: 0, n: 0 }]),
  ) as Record<
    Severity,
    { k: number; n: number }
  >;
  for (const r of select(stats, { ...options, exceptionsOnly: true })) {
    counts[r.severity].n += r.n;
    counts[r.severity].k += r.correct;
  }
  return Object.fromEntries(
    SEVERITIES.map((s) => [s, rate(counts[s].k, counts[s].n, options)]),
  ) as Record<Severity, Rate>;
}
