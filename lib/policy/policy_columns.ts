/**
 * From calibration columns (stated P(correct), correct) to the columns
 * escalation policies read (P(error), error).
 *
 * @module
 */

import { pError as errorOf } from "../decision/decision.ts";

/** The columns every escalation policy reads. */
export interface PolicyColumns {
  /** P(error) = 1 − pCorrect per decision, derived by the runs module's `pError`. */
  readonly pError: Float64Array;
  /** 1 when the decision was wrong. */
  readonly error: Uint8Array;
  /** What an automatic error costs per decision (K of its severity); `null` when not given. */
  readonly exposure: Float64Array | null;
}

/**
 * Turn (pCorrect, correct) columns into (P(error), error) columns.
 *
 * P(error) is derived from the stated P(correct) in one place, the runs
 * module's `pError`, so the two meanings of a probability are never mixed.
 * Use it on the output of `outcomeColumns`. Cost: O(n).
 *
 * @param columns `p` (stated P(correct)), `y` (1 when correct) and optionally `exposure`.
 * @returns P(error), the error flag and the exposure copied.
 * @throws {RangeError} When a probability is outside [0, 1] or a flag is not 0 or 1.
 * @throws {TypeError} When the columns differ in length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyColumns } from "./policy_columns.ts";
 *
 * const c = policyColumns({ p: [0.9, 0.25], y: [1, 0] });
 * assert.deepEqual([...c.error], [0, 1]);
 * assert.ok(Math.abs(c.pError[0] - 0.1) < 1e-12 && c.pError[1] === 0.75);
 * ```
 */
export function policyColumns(
  columns: {
    readonly p: ArrayLike<number>;
    readonly y: ArrayLike<number>;
    readonly exposure?: ArrayLike<number> | null;
  },
): PolicyColumns {
  const { p, y } = columns;
  if (p.length !== y.length) {
    throw new TypeError(
      `Cannot make policy columns: p and y must have the same length, got ${p.length} and ${y.length}`,
    );
  }
  const exposure = columns.exposure ?? null;
  if (exposure !== null && exposure.length !== p.length) {
    throw new TypeError(
      `Cannot make policy columns: exposure must have one value per decision (${p.length}), got ${exposure.length}`,
    );
  }
  const n = p.length;
  const pErr = new Float64Array(n);
  const error = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    pErr[i] = errorOf(p[i])!;
    const v = y[i];
    if (v !== 0 && v !== 1) {
      throw new RangeError(
        `Cannot make policy columns: y[${i}] must be 0 or 1, got ${v}`,
      );
    }
    error[i] = 1 - v;
  }
  return {
    pError: pErr,
    error,
    exposure: exposure === null ? null : Float64Array.from(exposure),
  };
}
