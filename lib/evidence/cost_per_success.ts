/**
 * Cost per success, born only when every cost is complete and something
 * succeeded, and labelled either way.
 *
 * @module
 */

import type { FailureClass } from "./cost_evidence.ts";
import { type CostColumns, costTotals } from "./cost_totals.ts";
import { checkOutcome, sameLength } from "./_columns.ts";

/** The flattened cost columns and the outcome column of a decision table. */
export interface EvidenceColumns extends CostColumns {
  /** Failure class per attempt; `resolved` is the only success. */
  readonly outcome: ArrayLike<FailureClass>;
}

/**
 * Why a cost-per-success figure exists or not: `complete` (every attempt's
 * cost is complete and at least one succeeded), `incomplete` (something
 * succeeded but some cost is not complete), `not_computable` (nothing
 * succeeded).
 */
export const COST_PER_SUCCESS_LABELS = [
  "complete",
  "incomplete",
  "not_computable",
] as const;

/** A cost-per-success label. */
export type CostPerSuccessLabel = typeof COST_PER_SUCCESS_LABELS[number];

/** A cost-per-success figure with the label that says whether it exists. */
export interface CostPerSuccess {
  /** Why the figure exists or not. */
  readonly label: CostPerSuccessLabel;
  /** Dollars per resolved attempt; `null` unless `label` is `complete`. */
  readonly usd: number | null;
  /** Resolved attempts. */
  readonly successes: number;
  /** All attempts. */
  readonly attempts: number;
  /** Attempts whose cost is not complete (partial, unavailable or not_applicable). */
  readonly notComplete: number;
}

/**
 * Cost per successful resolution over a group of attempts.
 *
 * `yylo-benchmark`: the figure "is born only when every
 * attempt in a system's group carries a complete cost and at least one
 * succeeded", and is then the complete total divided by the number of
 * resolved attempts. Otherwise it is `null` and the label says why:
 * `not_computable` for a group where nothing succeeded (checked first, since
 * it is "reserved for the group where nothing succeeded at all", whatever
 * the costs), `incomplete` when some attempt's cost is partial, unavailable
 * or not_applicable. A group whose costs are all a genuine complete 0 earns
 * the figure 0. O(n).
 *
 * @param columns `costCompleteness`, `costUsd` and `outcome`, equal length.
 * @returns The label, the figure and its counts.
 * @throws {RangeError} When the columns differ in length or hold a value
 * outside their states or classes (as `costTotals()`).
 * @throws {TypeError} When a column is not an array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { costPerSuccess } from "./cost_per_success.ts";
 *
 * const all = costPerSuccess({
 *   costCompleteness: ["complete", "complete"], costUsd: [0.03, 0.01],
 *   outcome: ["resolved", "model_failure"],
 * });
 * assert.equal(all.label, "complete");
 * assert.ok(Math.abs(all.usd! - 0.04) < 1e-15);
 * const hole = costPerSuccess({
 *   costCompleteness: ["complete", "unavailable"], costUsd: [0.03, null],
 *   outcome: ["resolved", "resolved"],
 * });
 * assert.deepEqual([hole.label, hole.usd], ["incomplete", null]);
 * ```
 */
export function costPerSuccess(columns: EvidenceColumns): CostPerSuccess {
  const action = "compute cost per success";
  const { costCompleteness, costUsd, outcome } = columns ??
    {} as EvidenceColumns;
  const n = sameLength(
    ["costCompleteness", "outcome"],
    costCompleteness,
    outcome,
    action,
  );
  let successes = 0;
  for (let i = 0; i < n; i++) {
    if (checkOutcome(outcome[i], i, action) === "resolved") successes++;
  }
  const totals = costTotals({ costCompleteness, costUsd });
  const notComplete = n - totals.counts.complete;
  const base = { successes, attempts: n, notComplete };
  if (successes === 0) return { label: "not_computable", usd: null, ...base };
  if (notComplete > 0) return { label: "incomplete", usd: null, ...base };
  return { label: "complete", usd: totals.completeUsd! / successes, ...base };
}
