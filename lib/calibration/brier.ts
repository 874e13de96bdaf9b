/**
 * The Brier score and its Murphy decomposition.
 *
 * @module
 */

import { _binSums } from "./_bin_sums.ts";
import { _checkProbabilities } from "./_columns.ts";
import { binEdges, type BinningOptions } from "./binning.ts";
import type { BinnedResult } from "./reliability.ts";

/**
 * The Brier score: the mean squared difference between stated probability
 * and outcome (Brier 1950).
 *
 * Equal to scikit-learn's `brier_score_loss(y, p)`. 0 is perfect; a constant
 * 0.5 scores 0.25. Cost: O(n).
 *
 * @param p Stated probabilities in [0, 1].
 * @param y Outcomes in {0, 1}.
 * @returns The score, or `null` when there are no decisions.
 * @throws {RangeError} When a probability is outside [0, 1] or an outcome is not 0 or 1.
 * @throws {TypeError} When `p` and `y` differ in length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { brierScore } from "./brier.ts";
 *
 * // ((0.9-1)² + (0.8-0)²) / 2 = (0.01 + 0.64) / 2
 * assert.ok(Math.abs(brierScore([0.9, 0.8], [1, 0])! - 0.325) < 1e-12);
 * assert.equal(brierScore([], []), null);
 * ```
 */
export function brierScore(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
): number | null {
  _checkProbabilities("a Brier score", p, y);
  if (p.length === 0) return null;
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const d = p[i] - y[i];
    s += d * d;
  }
  return s / p.length;
}

/** The Murphy decomposition of a Brier score over bins. */
export interface BrierDecomposition extends BinnedResult {
  /** The Brier score. */
  readonly brier: number;
  /** Reliability: Σ_b (n_b/n)(conf_b − acc_b)²; 0 when calibrated. Lower is better. */
  readonly reliability: number;
  /** Resolution: Σ_b (n_b/n)(acc_b − base rate)²; how far bins sit from the base rate. Higher is better. */
  readonly resolution: number;
  /** Uncertainty: base rate × (1 − base rate); a property of the outcomes alone. */
  readonly uncertainty: number;
  /**
   * What binning leaves over: brier − (reliability − resolution + uncertainty),
   * the within-bin variance minus covariance terms of Stephenson, Coelho &
   * Jolliffe (2008). Exactly 0 when every bin holds one distinct probability.
   */
  readonly withinBin: number;
}

/**
 * The Murphy (1973) decomposition of the Brier score:
 * brier = reliability − resolution + uncertainty (+ a within-bin term).
 *
 * Murphy's identity is exact when forecasts take one value per bin; with
 * continuous probabilities binned, the remainder is reported as `withinBin`
 * (Stephenson, Coelho & Jolliffe 2008), so the four numbers always add up.
 * Reliability is the squared-error analogue of ECE. Cost as
 * {@linkcode reliabilityDiagram}.
 *
 * @param p Stated probabilities in [0, 1].
 * @param y Outcomes in {0, 1}.
 * @param options Bins (default 10) and strategy (default equal-width).
 * @returns The decomposition, or `null` when there are no decisions.
 * @throws {RangeError} As {@linkcode brierScore}, or when `bins` < 1.
 * @throws {TypeError} As {@linkcode brierScore}.
 *
 * @example Two forecast values, one per bin: the identity is exact
 * ```ts
 * import assert from "node:assert/strict";
 * import { brierDecomposition } from "./brier.ts";
 *
 * const d = brierDecomposition([0.2, 0.2, 0.8, 0.8, 0.8], [0, 1, 1, 1, 0])!;
 * assert.ok(Math.abs(d.brier - (d.reliability - d.resolution + d.uncertainty)) < 1e-12);
 * assert.ok(Math.abs(d.withinBin) < 1e-12);
 * assert.ok(Math.abs(d.uncertainty - 0.6 * 0.4) < 1e-12);
 * ```
 */
export function brierDecomposition(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  options: BinningOptions = {},
): BrierDecomposition | null {
  const brier = brierScore(p, y);
  if (brier === null) return null;
  const strategy = options.strategy ?? "equal-width";
  const binsRequested = options.bins ?? 10;
  const edges = binEdges(p, { bins: binsRequested, strategy });
  const { count, sumP, sumY } = _binSums(p, y, edges);
  const n = p.length;
  let positives = 0;
  for (let b = 0; b < count.length; b++) positives += sumY[b];
  const base = positives / n;
  let reliability = 0;
  let resolution = 0;
  let nonEmptyBins = 0;
  for (let b = 0; b < count.length; b++) {
    const c = count[b];
    if (c === 0) continue;
    nonEmptyBins++;
    const conf = sumP[b] / c;
    const acc = sumY[b] / c;
    reliability += (c / n) * (conf - acc) ** 2;
    resolution += (c / n) * (acc - base) ** 2;
  }
  const uncertainty = base * (1 - base);
  return {
    strategy,
    binsRequested,
    edges,
    nonEmptyBins,
    n,
    brier,
    reliability,
    resolution,
    uncertainty,
    withinBin: brier - (reliability - resolution + uncertainty),
  };
}
