/**
 * Cost totals that refuse to fold: complete costs, partial floors and
 * unknowns kept in separate books.
 *
 * @module
 */

import type { CostCompleteness } from "./cost_evidence.ts";
import { checkCostRow, sameLength } from "./_columns.ts";
import { DoubleSum } from "../math/exact_sum.ts";

/** The two flattened cost columns of a decision table. */
export interface CostColumns {
  /** Completeness state per attempt. */
  readonly costCompleteness: ArrayLike<CostCompleteness>;
  /** Dollars per attempt; `null` for unavailable and not_applicable. */
  readonly costUsd: ArrayLike<number | null>;
}

/** The cost books of a set of attempts. */
export interface CostTotals {
  /** Number of attempts (rows). */
  readonly attempts: number;
  /** Attempts per completeness state; the four counts add up to `attempts`. */
  readonly counts: Readonly<Record<CostCompleteness, number>>;
  /**
   * Sum of the complete costs: the whole spend of exactly
   * `counts.complete` attempts. `null` when no attempt's cost is complete.
   */
  readonly completeUsd: number | null;
  /**
   * Sum of the partial costs: an observed floor, never a total. `null` when
   * no attempt's cost is partial.
   */
  readonly partialFloorUsd: number | null;
  /**
   * All observed dollars, complete plus partial: a floor on the spend
   * unless every attempt is complete or not_applicable. `null` when nothing
   * was observed.
   */
  readonly observedUsd: number | null;
}

/**
 * Sum costs by completeness state, counting what cannot be summed.
 *
 * `yylo-benchmark` ("Sums that refuse to fold"): complete
 * costs sum to one total; partial costs sum to a separate observed floor;
 * unavailable and not_applicable attempts are counted, never summed, so no
 * unknown becomes a number. A sum over no rows is `null`, not 0: $0.00
 * beside zero complete attempts would read as "cost nothing". A genuine
 * complete 0 is summed like any other amount. O(n); sums are compensated.
 *
 * @param columns `costCompleteness` and `costUsd`, equal length.
 * @returns Counts per state, the complete total, the partial floor and the
 * observed total.
 * @throws {RangeError} When the columns differ in length, a state is not one
 * of the four, or an amount does not pair with its state (negative, or a
 * number where the state requires null).
 * @throws {TypeError} When a column is not an array, or a complete or partial
 * amount is not a number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { costTotals } from "./cost_totals.ts";
 *
 * const t = costTotals({
 *   costCompleteness: ["complete", "complete", "partial", "unavailable", "not_applicable"],
 *   costUsd: [1.5, 0, 0.41, null, null],
 * });
 * assert.equal(t.completeUsd, 1.5);
 * assert.equal(t.partialFloorUsd, 0.41);
 * assert.deepEqual(t.counts, { complete: 2, partial: 1, unavailable: 1, not_applicable: 1 });
 * assert.equal(costTotals({ costCompleteness: ["unavailable"], costUsd: [null] }).completeUsd, null);
 * ```
 */
export function costTotals(columns: CostColumns): CostTotals {
  const action = "total costs";
  const { costCompleteness, costUsd } = columns ?? {} as CostColumns;
  const n = sameLength(
    ["costCompleteness", "costUsd"],
    costCompleteness,
    costUsd,
    action,
  );
  const counts: Record<CostCompleteness, number> = {
    complete: 0,
    partial: 0,
    unavailable: 0,
    not_applicable: 0,
  };
  const complete = new DoubleSum();
  const partial = new DoubleSum();
  const observed = new DoubleSum();
  for (let i = 0; i < n; i++) {
    const state = checkCostRow(costCompleteness[i], costUsd[i], i, action);
    counts[state]++;
    if (state === "complete") {
      complete.add(costUsd[i] as number);
      observed.add(costUsd[i] as number);
    } else if (state === "partial") {
      partial.add(costUsd[i] as number);
      observed.add(costUsd[i] as number);
    }
  }
  return {
    attempts: n,
    counts,
    completeUsd: counts.complete === 0 ? null : complete.value,
    partialFloorUsd: counts.partial === 0 ? null : partial.value,
    observedUsd: counts.complete + counts.partial === 0 ? null : observed.value,
  };
}
