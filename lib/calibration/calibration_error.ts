/**
 * Calibration error: expected (ECE), maximum (MCE) and debiased.
 *
 * @module
 */

import { _normalCdf } from "../math/_special.ts";
import type { BinningOptions } from "./binning.ts";
import { type BinnedResult, reliabilityDiagram } from "./reliability.ts";

/** A calibration error with the bins it was computed on. */
export interface CalibrationError extends BinnedResult {
  /** The error; `null` when there are no decisions. */
  readonly value: number | null;
}

/**
 * Expected calibration error: the count-weighted mean gap between stated
 * confidence and accuracy over bins.
 *
 * ECE = Σ_b (n_b / n)·|acc_b − conf_b| (Naeini, Cooper & Hauskrecht 2015;
 * Guo et al. 2017), the number scikit-learn's `calibration_curve` lets you
 * compute and most papers report. It is biased upwards at small n: even a
 * perfectly calibrated model shows a positive ECE (see `eceNoiseFloor`).
 * Cost: O(n), or O(n log n) for equal-mass bins.
 *
 * @param p Stated probabilities in [0, 1].
 * @param y Outcomes in {0, 1}.
 * @param options Bins (default 10) and strategy (default equal-width).
 * @returns The ECE with its edges and non-empty bin count.
 * @throws {RangeError} As {@linkcode reliabilityDiagram}.
 * @throws {TypeError} As {@linkcode reliabilityDiagram}.
 *
 * @example An over-confident model
 * ```ts
 * import assert from "node:assert/strict";
 * import { expectedCalibrationError } from "./calibration_error.ts";
 *
 * const ece = expectedCalibrationError([0.95, 0.95, 0.95, 0.95], [1, 1, 0, 0]);
 * assert.ok(Math.abs(ece.value! - 0.45) < 1e-12);
 * assert.equal(ece.nonEmptyBins, 1);
 * assert.equal(expectedCalibrationError([], []).value, null);
 * ```
 */
export function expectedCalibrationError(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  options: BinningOptions = {},
): CalibrationError {
  const { bins: _bins, ece, mce: _mce, ...rest } = reliabilityDiagram(
    p,
    y,
    options,
  );
  return { ...rest, value: ece };
}

/**
 * Maximum calibration error: the largest |accuracy − confidence| over the
 * non-empty bins (Naeini, Cooper & Hauskrecht 2015).
 *
 * A small bin can dominate it; read it with the bin counts of
 * {@linkcode reliabilityDiagram}. Cost as {@linkcode expectedCalibrationError}.
 *
 * @param p Stated probabilities in [0, 1].
 * @param y Outcomes in {0, 1}.
 * @param options Bins (default 10) and strategy (default equal-width).
 * @returns The MCE with its edges and non-empty bin count.
 * @throws {RangeError} As {@linkcode reliabilityDiagram}.
 * @throws {TypeError} As {@linkcode reliabilityDiagram}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { maxCalibrationError } from "./calibration_error.ts";
 *
 * const mce = maxCalibrationError([0.95, 0.95, 0.1, 0.1], [1, 1, 1, 0], { bins: 10 });
 * assert.ok(Math.abs(mce.value! - 0.4) < 1e-12);
 * ```
 */
export function maxCalibrationError(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  options: BinningOptions = {},
): CalibrationError {
  const { bins: _bins, ece: _ece, mce, ...rest } = reliabilityDiagram(
    p,
    y,
    options,
  );
  return { ...rest, value: mce };
}

/** A debiased calibration error, in both the L1 and the L2 (root mean square) sense. */
export interface DebiasedCalibrationError extends CalibrationError {
  /** The plug-in ECE the L1 estimate corrects; `null` when there are no decisions. */
  readonly plugIn: number | null;
  /**
   * Debiased L2 calibration error: the square root of max(0, the unbiased
   * estimate of Σ_b (n_b/n)(acc_b − conf_b)²); `null` when there are no decisions.
   */
  readonly rms: number | null;
}

/** E|X| for X ~ N(mu, sigma²). */
function _absNormalMean(mu: number, sigma: number): number {
  if (sigma === 0) return Math.abs(mu);
  const z = mu / sigma;
  return sigma * Math.sqrt(2 / Math.PI) * Math.exp(-0.5 * z * z) +
    mu * (1 - 2 * _normalCdf(-z));
}

/**
 * Debiased calibration error (Kumar, Liang & Ma 2019, "Verified uncertainty
 * calibration").
 *
 * The plug-in ECE overstates the true binned calibration error because
 * |acc_b − conf_b| is the absolute value of a noisy difference. Two
 * corrections, as in the authors' `uncertainty-calibration` package:
 *
 * - `value`, L1: 2·ECE − Σ_b (n_b/n)·E|N(d_b, s_b²)|, with d_b the observed
 *   gap and s_b² = acc_b(1 − acc_b)/n_b. The package draws the normal by
 *   Monte Carlo; this uses the closed form of E|N(μ, σ²)|, so it needs no
 *   generator. It is exact to first order when the gap is large; at a true
 *   gap of 0 it keeps a share 2 − √2 ≈ 0.59 of the plug-in bias, and it can
 *   be negative.
 * - `rms`, L2: sqrt(max(0, Σ_b (n_b/n)[d_b² − acc_b(1 − acc_b)/(n_b − 1)])),
 *   an unbiased estimate of the squared error before the root; bins of one
 *   decision contribute 0.
 *
 * Cost as {@linkcode expectedCalibrationError}.
 *
 * @param p Stated probabilities in [0, 1].
 * @param y Outcomes in {0, 1}.
 * @param options Bins (default 10) and strategy (default equal-width).
 * @returns Both debiased estimates, the plug-in ECE and the bins' edges.
 * @throws {RangeError} As {@linkcode reliabilityDiagram}.
 * @throws {TypeError} As {@linkcode reliabilityDiagram}.
 *
 * @example The correction is below the plug-in ECE
 * ```ts
 * import assert from "node:assert/strict";
 * import { debiasedCalibrationError } from "./calibration_error.ts";
 *
 * const p = Array.from({ length: 200 }, (_, i) => 0.5 + (i % 50) / 100);
 * const y = p.map((v, i) => (i * 0.618) % 1 < v ? 1 : 0);
 * const d = debiasedCalibrationError(p, y);
 * assert.ok(d.value! < d.plugIn!);
 * assert.ok(d.rms! >= 0);
 * ```
 */
export function debiasedCalibrationError(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  options: BinningOptions = {},
): DebiasedCalibrationError {
  const { bins, ece, mce: _mce, ...rest } = reliabilityDiagram(p, y, options);
  if (rest.n === 0) return { ...rest, value: null, plugIn: null, rms: null };
  let correction = 0;
  let squared = 0;
  for (const b of bins) {
    if (b.n === 0) continue;
    const acc = b.accuracy!;
    const d = b.gap!;
    const w = b.n / rest.n;
    correction += w * _absNormalMean(d, Math.sqrt((acc * (1 - acc)) / b.n));
    if (b.n >= 2) squared += w * (d * d - (acc * (1 - acc)) / (b.n - 1));
  }
  return {
    ...rest,
    value: 2 * ece! - correction,
    plugIn: ece,
    rms: Math.sqrt(Math.max(0, squared)),
  };
}
