/**
 * Histogram binning: each bin's stated probability is replaced by the
 * accuracy observed in it.
 *
 * @module
 */

import { _binSums } from "./_bin_sums.ts";
import { _checkProbabilities } from "./_columns.ts";
import { binEdges, type BinningOptions } from "./binning.ts";

/** A fitted histogram binning: a calibrated value per bin. */
export interface HistogramCalibrator {
  /** Discriminator. */
  readonly kind: "histogram";
  /** Bin edges, right-closed, as {@linkcode binEdges} makes them. */
  readonly edges: readonly number[];
  /** Observed accuracy per bin; `null` for a bin the fitting split left empty (the stated probability is kept). */
  readonly values: readonly (number | null)[];
  /** Fitting decisions per bin. */
  readonly counts: readonly number[];
}

/**
 * Fit histogram binning (Zadrozny & Elkan 2001): the calibrated probability
 * of a decision is the accuracy its bin showed on the fitting split.
 *
 * Bins follow {@linkcode binEdges}; equal-mass bins give every value the
 * same support. A bin that the fitting split left empty has no estimate, so
 * it keeps the stated probability rather than inventing one. The map is a
 * step function, so it is also the calibration that can be updated from
 * labelled outcomes as they arrive: the per-bin counts add up. Cost: O(n),
 * or O(n log n) for equal-mass.
 *
 * @param p Stated probabilities in [0, 1], from the fitting split.
 * @param y Outcomes in {0, 1}, from the same split.
 * @param options Bins (default 10) and strategy (default equal-width).
 * @returns Edges, per-bin values and counts.
 * @throws {RangeError} When an input is out of range or `bins` < 1.
 * @throws {TypeError} When `p` and `y` differ in length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyCalibrator } from "./calibrator.ts";
 * import { fitHistogramBinning } from "./histogram_binning.ts";
 *
 * const h = fitHistogramBinning([0.95, 0.95, 0.95, 0.95], [1, 1, 1, 0], { bins: 2 });
 * assert.deepEqual(h.values, [null, 0.75]);
 * assert.deepEqual([...applyCalibrator(h, [0.2, 0.9])], [0.2, 0.75]);
 * ```
 */
export function fitHistogramBinning(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  options: BinningOptions = {},
): HistogramCalibrator {
  _checkProbabilities("a histogram binning", p, y);
  const edges = binEdges(p, options);
  const { count, sumY } = _binSums(p, y, edges);
  return {
    kind: "histogram",
    edges,
    values: Array.from(count, (c, b) => (c === 0 ? null : sumY[b] / c)),
    counts: Array.from(count),
  };
}
