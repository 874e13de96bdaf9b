/**
 * Kendall's rank correlation with ties (tau-b).
 *
 * @module
 */

/**
 * Kendall's tau-b between two columns: how far two rankings agree.
 *
 * Over all n(n-1)/2 pairs (i, j), a pair is concordant when x and y order it
 * the same way, discordant when they order it oppositely, and tied when
 * either column ties it. tau-b = (C - D) / sqrt((n0 - n1)(n0 - n2)), with n0
 * = n(n-1)/2 and n1, n2 the pairs tied in x and in y (Kendall 1945; the
 * default of R's `cor(method = "kendall")` and SciPy's `kendalltau`). It is 1
 * for identical rankings, ties included, -1 for reversed ones, and undefined
 * (`null`) when either column is constant or has fewer than two values.
 * Values are compared exactly; NaN is refused. Cost is O(n²), meant for
 * rankings of models, not of decisions.
 *
 * @param x First column.
 * @param y Second column, of the same length.
 * @returns tau-b in [-1, 1], or `null` when it is undefined.
 * @throws {RangeError} When the lengths differ or a value is NaN.
 *
 * @example Loss per decision against error rate, one tie in each
 * ```ts
 * import assert from "node:assert/strict";
 * import { kendallTauB } from "./kendall_tau.ts";
 *
 * assert.equal(kendallTauB([1, 2, 2, 3], [0.1, 0.2, 0.2, 0.3]), 1);
 * assert.equal(kendallTauB([3, 2, 1], [1, 2, 3]), -1);
 * assert.ok(Math.abs(kendallTauB([1, 2, 3], [1, 1, 2])! - 2 / Math.sqrt(6)) < 1e-15);
 * assert.equal(kendallTauB([5, 5], [1, 2]), null);
 * ```
 */
export function kendallTauB(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
): number | null {
  const n = x.length;
  if (y.length !== n) {
    throw new RangeError(
      `Cannot compute Kendall's tau: columns have different lengths, ${n} and ${y.length}`,
    );
  }
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(x[i]) || Number.isNaN(y[i])) {
      throw new RangeError(
        `Cannot compute Kendall's tau: value ${i} is NaN (x ${x[i]}, y ${
          y[i]
        })`,
      );
    }
  }
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = x[i] < x[j] ? -1 : x[i] > x[j] ? 1 : 0;
      const dy = y[i] < y[j] ? -1 : y[i] > y[j] ? 1 : 0;
      if (dx === 0) tiedX++;
      if (dy === 0) tiedY++;
      if (dx === 0 || dy === 0) continue;
      if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((n0 - tiedX) * (n0 - tiedY));
  return denominator === 0 ? null : (concordant - discordant) / denominator;
}
