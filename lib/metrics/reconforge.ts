/**
 * ReconForge's severity-weighted recall: did the model catch the exceptions
 * that cost money, weighted by what each class puts at risk (`reconforge`).
 *
 * @module
 */

import { SEVERITIES, type Severity } from "../costs/severity.ts";
import type { Rate, RateOptions } from "../math/rate.ts";
import { isVerdictClass, type StatsRow } from "./sufficient_stats.ts";
import { type Counts, ratesBySeverity } from "./accuracy.ts";
import { tupleKey } from "../_tuple_key.ts";

/**
 * ReconForge's class weights: HIGH classes 1.0 / 1.0 / 0.9 / 0.9 (amount,
 * FX, beneficiary, counterparty), MEDIUM 0.6 / 0.6 / 0.5 (value date, missing
 * message, partial match), LOW 0.2 / 0.2 (duplicate, field corruption).
 */
export const RECONFORGE_CLASS_WEIGHTS: Readonly<Record<string, number>> = Object
  .freeze({
    AMOUNT_MISMATCH: 1.0,
    FX_CONVERSION_ERROR: 1.0,
    BENEFICIARY_MISMATCH: 0.9,
    COUNTERPARTY_MISMATCH: 0.9,
    VALUE_DATE_MISMATCH: 0.6,
    MISSING_MESSAGE: 0.6,
    PARTIAL_MATCH: 0.5,
    DUPLICATE: 0.2,
    FIELD_CORRUPTION: 0.2,
  });

/** Options for the caught rule. */
export interface CaughtOptions extends RateOptions {
  /** Gold class of clean items. Default: `"MATCH"`. */
  cleanClass?: string;
  /**
   * Severities at which any exception verdict catches an exception, whatever
   * its type. Default: `["HIGH", "CRITICAL"]` (ReconForge names HIGH; a
   * CRITICAL exception is treated the same way). At other severities only the
   * exact class catches.
   */
  flagCatches?: readonly Severity[];
}

function isCaught(
  r: StatsRow,
  clean: string,
  flag: readonly Severity[],
): boolean {
  // a harness verdict is caught only when correct: "verdict:incorrect" is
  // not a flag that reaches a human, it is a wrong answer acted on
  if (isVerdictClass(r.trueClass) || isVerdictClass(r.predClass)) {
    return r.predClass === r.trueClass;
  }
  return flag.includes(r.severity)
    ? r.predClass !== clean
    : r.predClass === r.trueClass;
}

/** Options for {@linkcode severityWeightedRecall}. */
export interface WeightedRecallOptions extends CaughtOptions {
  /** Weight per exception class. Default: {@linkcode RECONFORGE_CLASS_WEIGHTS}. */
  weights?: Readonly<Record<string, number>>;
}

/**
 * Severity-weighted recall R_w = Σ w(class)·caught / Σ w(class) over the
 * exceptions.
 *
 * A HIGH exception is caught by any exception verdict (it reaches a human);
 * MEDIUM and LOW need the exact type. The published ReconForge run has a
 * 1.7B fine-tune at accuracy 0.805 and R_w 0.9128 against a frontier model at
 * 0.8762 and 0.8719: the less accurate model catches more of what matters.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param options Weights, clean class, and the severities caught by any flag.
 * @returns R_w, or `null` when there are no exceptions or some exception class has no weight (R_w is not defined for it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { severityWeightedRecall } from "./reconforge.ts";
 *
 * const cell = { modelId: "m", action: "auto", pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const rw = severityWeightedRecall([
 *   // a HIGH amount mismatch called an FX error still counts as caught
 *   { ...cell, severity: "HIGH", trueClass: "AMOUNT_MISMATCH", predClass: "FX_CONVERSION_ERROR", n: 1 },
 *   // a LOW duplicate called a field corruption does not
 *   { ...cell, severity: "LOW", trueClass: "DUPLICATE", predClass: "FIELD_CORRUPTION", n: 1 },
 * ]);
 * assert.ok(Math.abs(rw! - 1.0 / 1.2) < 1e-12);
 * ```
 */
export function severityWeightedRecall(
  stats: readonly StatsRow[],
  options: WeightedRecallOptions = {},
): number | null {
  const clean = options.cleanClass ?? "MATCH";
  const flag = options.flagCatches ?? ["HIGH", "CRITICAL"];
  const weights = options.weights ?? RECONFORGE_CLASS_WEIGHTS;
  let num = 0;
  let den = 0;
  for (const r of stats) {
    if (r.trueClass === clean) continue;
    const w = weights[r.trueClass];
    if (w === undefined) return null;
    den += w * r.n;
    if (isCaught(r, clean, flag)) num += w * r.n;
  }
  return den === 0 ? null : num / den;
}

/**
 * Recall per severity under the caught rule: HIGH (and CRITICAL) exceptions
 * count as caught on any exception verdict, MEDIUM and LOW only on the exact
 * class. Each interval counts tasks, as `recallBySeverity`'s does.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param options Clean class, flag severities and interval level.
 * @returns A rate per severity, `null`-valued where there are no exceptions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caughtRecallBySeverity } from "./reconforge.ts";
 *
 * const cell = { modelId: "m", severity: "HIGH", trueClass: "AMOUNT_MISMATCH", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const r = caughtRecallBySeverity([
 *   { ...cell, predClass: "BENEFICIARY_MISMATCH", n: 3 },
 *   { ...cell, predClass: "MATCH", n: 1 },
 * ]);
 * assert.equal(r.HIGH.value, 0.75);
 * ```
 */
export function caughtRecallBySeverity(
  stats: readonly StatsRow[],
  options: CaughtOptions = {},
): Record<Severity, Rate> {
  const clean = options.cleanClass ?? "MATCH";
  const flag = options.flagCatches ?? ["HIGH", "CRITICAL"];
  return ratesBySeverity(
    stats,
    (r) => isCaught(r, clean, flag),
    clean,
    options,
  );
}

/**
 * The counts behind {@linkcode caughtRecallBySeverity}, with no interval:
 * of the exceptions at each severity, how many were caught.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param options Clean class and flag severities.
 * @returns Caught `k` of `n` exceptions per severity.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caughtRecallCounts } from "./reconforge.ts";
 *
 * const cell = { modelId: "m", severity: "HIGH", trueClass: "AMOUNT_MISMATCH", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const c = caughtRecallCounts([
 *   { ...cell, predClass: "BENEFICIARY_MISMATCH", n: 3 },
 *   { ...cell, predClass: "MATCH", n: 1 },
 * ]);
 * assert.deepEqual(c.HIGH, { k: 3, n: 4 });
 * ```
 */
export function caughtRecallCounts(
  stats: readonly StatsRow[],
  options: Omit<CaughtOptions, keyof RateOptions> = {},
): Record<Severity, Counts> {
  const clean = options.cleanClass ?? "MATCH";
  const flag = options.flagCatches ?? ["HIGH", "CRITICAL"];
  const counts = Object.fromEntries(
    SEVERITIES.map((s) => [s, { k: 0, n: 0 }]),
  ) as Record<Severity, Counts>;
  for (const r of stats) {
    if (r.trueClass === clean) continue;
    counts[r.severity].n += r.n;
    if (isCaught(r, clean, flag)) counts[r.severity].k += r.n;
  }
  return counts;
}

/** One cell of a confusion matrix. */
export interface ConfusionCell {
  /** Gold class. */
  readonly trueClass: string;
  /** Predicted class. */
  readonly predClass: string;
  /** Decisions. */
  readonly n: number;
}

/**
 * The confusion matrix of gold class by predicted class, in long form.
 *
 * Only non-empty cells are listed, sorted by gold then predicted class.
 * Importers map a parse miss to the clean class and an exception verdict
 * with no type to its own class, so both show up as columns.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @returns Cells with their counts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { confusionMatrix } from "./reconforge.ts";
 *
 * const cell = { modelId: "m", severity: "LOW", action: "auto", pErrorSum: 0, pMissing: 0,
 *   parseFailures: 0 } as const;
 * assert.deepEqual(
 *   confusionMatrix([
 *     { ...cell, trueClass: "DUPLICATE", predClass: "MATCH", n: 2, action: "escalate" },
 *     { ...cell, trueClass: "DUPLICATE", predClass: "MATCH", n: 1 },
 *   ]),
 *   [{ trueClass: "DUPLICATE", predClass: "MATCH", n: 3 }],
 * );
 * ```
 */
export function confusionMatrix(stats: readonly StatsRow[]): ConfusionCell[] {
  const cells = new Map<string, ConfusionCell>();
  for (const r of stats) {
    const key = tupleKey([r.trueClass, r.predClass]);
    const prev = cells.get(key);
    cells.set(key, {
      trueClass: r.trueClass,
      predClass: r.predClass,
      n: (prev?.n ?? 0) + r.n,
    });
  }
  return [...cells.values()].sort((a, b) =>
    a.trueClass < b.trueClass
      ? -1
      : a.trueClass > b.trueClass
      ? 1
      : a.predClass < b.predClass
      ? -1
      : a.predClass > b.predClass
      ? 1
      : 0
  );
}
