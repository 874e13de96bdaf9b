/**
 * Isotonic recalibration by pool-adjacent-violators.
 *
 * @module
 */

import { _checkProbabilities } from "./_columns.ts";

/**
 * A fitted isotonic map: knots (x, y), non-decreasing in both, linearly
 * interpolated between knots and held constant outside them.
 */
export interface IsotonicCalibrator {
  /** Discriminator. */
  readonly kind: "isotonic";
  /** Knot positions (stated probabilities), ascending. */
  readonly x: readonly number[];
  /** Calibrated probability at each knot, non-decreasing. */
  readonly y: readonly number[];
}

/**
 * Fit an isotonic (monotone non-decreasing) map from stated probability to
 * observed accuracy by pool-adjacent-violators (Ayer et al. 1955; Zadrozny &
 * Elkan 2002).
 *
 * Decisions are sorted by stated probability and all decisions that share a
 * probability become one block, weighted by their count, before any pooling
 * (as scikit-learn's `IsotonicRegression` does), so ties always get one
 * calibrated value and the fit does not depend on the order of the rows.
 * Adjacent blocks whose mean outcomes decrease are then merged until the
 * sequence is non-decreasing. Each
 * block contributes a knot at its smallest and largest probability; between
 * blocks the map interpolates linearly, as scikit-learn's
 * `IsotonicRegression` does. It fits any monotone reliability curve, at the
 * price of overfitting small splits. Cost: O(n log n).
 *
 * @param p Stated probabilities in [0, 1], from the fitting split.
 * @param y Outcomes in {0, 1}, from the same split.
 * @returns The knots of the fitted map.
 * @throws {RangeError} When an input is out of range.
 * @throws {TypeError} When `p` and `y` differ in length, or there is nothing to fit.
 *
 * @example A violation is pooled
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitIsotonic } from "./isotonic.ts";
 *
 * const iso = fitIsotonic([0.6, 0.7, 0.8, 0.9], [0, 1, 0, 1]);
 * // 0.7 (right) and 0.8 (wrong) violate monotonicity and pool to 0.5
 * assert.deepEqual(iso.x, [0.6, 0.7, 0.8, 0.9]);
 * assert.deepEqual(iso.y, [0, 0.5, 0.5, 1]);
 * ```
 *
 * @example A tie group is pooled whole, whatever the row order
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitIsotonic } from "./isotonic.ts";
 *
 * // 0.7 holds 1 wrong and 3 right (mean 0.75), above 0.6's 0.5: no violation
 * const a = fitIsotonic([0.6, 0.6, 0.7, 0.7, 0.7, 0.7], [0, 1, 0, 1, 1, 1]);
 * const b = fitIsotonic([0.6, 0.6, 0.7, 0.7, 0.7, 0.7], [1, 0, 1, 1, 1, 0]);
 * assert.deepEqual(a, b);
 * assert.deepEqual(a.y, [0.5, 0.75]);
 * ```
 */
export function fitIsotonic(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
): IsotonicCalibrator {
  _checkProbabilities("an isotonic fit", p, y);
  const n = p.length;
  if (n === 0) {
    throw new TypeError("Cannot fit an isotonic map: no decisions to fit on");
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) =>
    p[i] - p[j]
  );
  // 1. one block per distinct probability, weighted by its count, so a tie
  //    group enters the pooling whole and the fit cannot depend on row order
  const tx: number[] = [];
  const tw: number[] = [];
  const ts: number[] = [];
  for (const i of order) {
    const v = p[i];
    const top = tx.length - 1;
    if (top >= 0 && tx[top] === v) {
      tw[top] += 1;
      ts[top] += y[i];
    } else {
      tx.push(v);
      tw.push(1);
      ts.push(y[i]);
    }
  }
  // 2. pool adjacent violators over the tie blocks
  // blocks: [xMin, xMax, weight, sum]
  const xMin: number[] = [];
  const xMax: number[] = [];
  const w: number[] = [];
  const s: number[] = [];
  for (let t = 0; t < tx.length; t++) {
    xMin.push(tx[t]);
    xMax.push(tx[t]);
    w.push(tw[t]);
    s.push(ts[t]);
    // pool while the last two blocks violate monotonicity
    while (xMin.length >= 2) {
      const b = xMin.length - 1;
      if (s[b - 1] / w[b - 1] <= s[b] / w[b]) break;
      xMax[b - 1] = xMax[b];
      w[b - 1] += w[b];
      s[b - 1] += s[b];
      xMin.pop();
      xMax.pop();
      w.pop();
      s.pop();
    }
  }
  const kx: number[] = [];
  const ky: number[] = [];
  for (let b = 0; b < xMin.length; b++) {
    const v = s[b] / w[b];
    kx.push(xMin[b]);
    ky.push(v);
    if (xMax[b] > xMin[b]) {
      kx.push(xMax[b]);
      ky.push(v);
    }
  }
  return { kind: "isotonic", x: kx, y: ky };
}
