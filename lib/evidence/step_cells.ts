/**
 * Comparison-table cells that keep "no valid answer" apart from "the answer
 * was no".
 *
 * @module
 */

import type { FailureClass } from "./cost_evidence.ts";
import { checkClassList, checkOutcome, sameLength } from "./_columns.ts";

/** Options for {@linkcode stepCells}. */
export interface StepCellsOptions {
  /**
   * Classes whose receipts carry no valid answer, so their cell is `null`.
   * Default: `["harness_failure"]` (`yylo-benchmark`: a harness-invalid
   * receipt).
   */
  invalid?: readonly FailureClass[];
}

/**
 * Turn per-step booleans into table cells, `null` where the step is invalid.
 *
 * The evidence semantics of `yylo-benchmark` (docs/sources.md): when a step's receipt is harness-invalid, "that cell is
 * null — not false. 'We could not get a valid answer' and 'we got a valid
 * answer and it was no' are different facts". A value that is already
 * `null` stays `null`. The inputs are not changed. O(n).
 *
 * @param values The per-step boolean (passed, matched, answered yes ...).
 * @param outcome The failure class of each step's receipt.
 * @param options Which classes make a cell invalid.
 * @returns One cell per step: the boolean, or `null`.
 * @throws {RangeError} When the columns differ in length, an outcome is not
 * one of the nine classes, or `invalid` lists an unknown class.
 * @throws {TypeError} When a column is not an array or a value is neither a
 * boolean nor null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stepCells } from "./step_cells.ts";
 *
 * assert.deepEqual(
 *   stepCells([true, false, false], ["resolved", "grader_failure", "harness_failure"]),
 *   [true, false, null],
 * );
 * ```
 */
export function stepCells(
  values: ArrayLike<boolean | null>,
  outcome: ArrayLike<FailureClass>,
  options: StepCellsOptions = {},
): (boolean | null)[] {
  const action = "build step cells";
  const invalid = checkClassList(
    "invalid",
    options.invalid ?? ["harness_failure"],
    action,
  );
  const n = sameLength(["values", "outcome"], values, outcome, action);
  const out = new Array<boolean | null>(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v !== null && typeof v !== "boolean") {
      throw new TypeError(
        `Cannot ${action}: row ${i}: value must be true, false or null, got ${
          JSON.stringify(v)
        }`,
      );
    }
    out[i] = invalid.includes(checkOutcome(outcome[i], i, action)) ? null : v;
  }
  return out;
}
