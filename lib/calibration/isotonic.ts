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
 * Decisions are sorted by stated probability; equal probabilities are pooled
 * first, so ties always get one calibrated value. Adjacent blocks whose mean
 * outcomes decrease are merged until the sequence is non-decreasing. Each
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
  // blocks: [xMin, xMax, weight, sum]
  const xMin: number[] = [];
  const xMax: number[] = [];
  const w: number[] = [];
  const s: number[] = [];
  for (const i of order) {
    const v = p[i];
    const top = xMin.length - 1;
    if (top >= 0 && xMax[top] === v) {
      w[top] += 1;
      s[top] += y[i];
    } else {
      xMin.push(v);
      xMax.push(v);
      w.push(1);
      s.push(y[i]);
    }
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
