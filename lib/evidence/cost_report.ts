/**
 * The cost report per group (per model, per system): the books of
 * `costTotals()`, `costPerSuccess()` and `successRate()` side by side.
 *
 * @module
 */

import type { CostCompleteness, FailureClass } from "./cost_evidence.ts";
import { costPerSuccess, type EvidenceColumns } from "./cost_per_success.ts";
import type { CostPerSuccessLabel } from "./cost_per_success.ts";
import { costTotals } from "./cost_totals.ts";
import { successRate, type SuccessRateOptions } from "./success_rate.ts";
import { sameLength } from "./_columns.ts";

/** One group's row of the cost report; every field is a plain table cell. */
export interface CostReportRow {
  /** The group key, for example a model id. */
  readonly group: string;
  /** Attempts in the group. */
  readonly attempts: number;
  /** Attempts whose cost is complete. */
  readonly completeCount: number;
  /** Attempts whose cost is partial. */
  readonly partialCount: number;
  /** Attempts whose cost is unavailable. */
  readonly unavailableCount: number;
  /** Attempts whose cost is not_applicable. */
  readonly notApplicableCount: number;
  /** Sum of complete costs, or `null` when there are none. */
  readonly completeUsd: number | null;
  /** Sum of partial costs (an observed floor), or `null` when there are none. */
  readonly partialFloorUsd: number | null;
  /** Complete plus partial dollars, or `null` when nothing was observed. */
  readonly observedUsd: number | null;
  /** Resolved attempts. */
  readonly successes: number;
  /** Attempts counted in the success rate (all but the excluded classes). */
  readonly rateDenominator: number;
  /** Success rate, or `null` over an empty denominator. */
  readonly successRate: number | null;
  /** Lower bound of the rate interval (`rateInterval`), or `null` over an empty denominator. */
  readonly successRateLo: number | null;
  /** Upper bound of the rate interval (`rateInterval`), or `null` over an empty denominator. */
  readonly successRateHi: number | null;
  /** Dollars per resolved attempt, or `null` unless the label is `complete`. */
  readonly costPerSuccessUsd: number | null;
  /** Why the cost-per-success figure exists or not. */
  readonly costPerSuccessLabel: CostPerSuccessLabel;
}

/** Options for {@linkcode costReportBy}. */
export interface CostReportOptions extends SuccessRateOptions {
  /**
   * The groups to report, in this order, including groups with no attempts
   * (their rate is null, their label not_computable). Every key must be
   * listed. Default: the keys in order of first appearance.
   */
  groups?: readonly string[];
}

/**
 * Report costs, successes and cost per success per group.
 *
 * One row per group with the books `yylo-benchmark` asks a report to
 * expose: complete-attempt count and total, partial-attempt count and its
 * observed floor, unavailable and not_applicable counts, the success rate
 * with its denominator and interval (null over an empty denominator),
 * and cost per success with its label. A group's rows are aggregated
 * exactly as `costTotals()`, `costPerSuccess()` and `successRate()` would on
 * that group alone. O(n + groups).
 *
 * @param keys The group of each attempt, for example the `modelId` column.
 * @param columns `costCompleteness`, `costUsd` and `outcome`.
 * @param options Group order, success-rate exclusions and level.
 * @returns One row per group.
 * @throws {RangeError} When the columns differ in length, hold a value
 * outside their states or classes, a key is missing from `options.groups`,
 * or `options.groups` repeats a group.
 * @throws {TypeError} When a column is not an array or a key is not a string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { costReportBy } from "./cost_report.ts";
 *
 * const rows = costReportBy(["a", "a", "b"], {
 *   costCompleteness: ["complete", "complete", "unavailable"],
 *   costUsd: [0, 0, null],
 *   outcome: ["resolved", "resolved", "harness_failure"],
 * }, { exclude: ["harness_failure"], groups: ["a", "b", "c"] });
 * assert.deepEqual(rows.map((r) => r.costPerSuccessLabel), ["complete", "not_computable", "not_computable"]);
 * assert.equal(rows[0].costPerSuccessUsd, 0);
 * assert.equal(rows[1].successRate, null);
 * ```
 */
export function costReportBy(
  keys: ArrayLike<string>,
  columns: EvidenceColumns,
  options: CostReportOptions = {},
): CostReportRow[] {
  const action = "build cost report";
  const { costCompleteness, costUsd, outcome } = columns ??
    {} as EvidenceColumns;
  const n = sameLength(["keys", "outcome"], keys, outcome, action);
  sameLength(["keys", "costCompleteness"], keys, costCompleteness, action);
  sameLength(["keys", "costUsd"], keys, costUsd, action);
  const rowsOf = new Map<string, number[]>();
  if (options.groups !== undefined) {
    for (const g of options.groups) {
      if (rowsOf.has(g)) {
        throw new RangeError(
          `Cannot ${action}: groups lists ${JSON.stringify(g)} twice`,
        );
      }
      rowsOf.set(g, []);
    }
  }
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    if (typeof k !== "string") {
      throw new TypeError(
        `Cannot ${action}: row ${i}: key must be a string, got ${
          JSON.stringify(k)
        }`,
      );
    }
    let rows = rowsOf.get(k);
    if (rows === undefined) {
      if (options.groups !== undefined) {
        throw new RangeError(
          `Cannot ${action}: row ${i}: key ${
            JSON.stringify(k)
          } is not among the groups ${JSON.stringify(options.groups)}`,
        );
      }
      rows = [];
      rowsOf.set(k, rows);
    }
    rows.push(i);
  }
  const out: CostReportRow[] = [];
  for (const [group, rows] of rowsOf) {
    const sub = {
      costCompleteness: rows.map((i) =>
        costCompleteness[i]
      ) as CostCompleteness[],
      costUsd: rows.map((i) => costUsd[i]),
      outcome: rows.map((i) => outcome[i]) as FailureClass[],
    };
    const totals = costTotals(sub);
    const perSuccess = costPerSuccess(sub);
    const r = successRate(sub.outcome, options);
    out.push({
      group,
      attempts: totals.attempts,
      completeCount: totals.counts.complete,
      partialCount: totals.counts.partial,
      unavailableCount: totals.counts.unavailable,
      notApplicableCount: totals.counts.not_applicable,
      completeUsd: totals.completeUsd,
      partialFloorUsd: totals.partialFloorUsd,
      observedUsd: totals.observedUsd,
      successes: perSuccess.successes,
      rateDenominator: r.denominator,
      successRate: r.value,
      successRateLo: r.interval?.lo ?? null,
      successRateHi: r.interval?.hi ?? null,
      costPerSuccessUsd: perSuccess.usd,
      costPerSuccessLabel: perSuccess.label,
    });
  }
  return out;
}
