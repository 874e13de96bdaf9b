/**
 * Calibrators: fit a recalibration map on one split, apply it to another.
 *
 * @module
 */

import { binIndex, type BinningOptions } from "./binning.ts";
import {
  fitHistogramBinning,
  type HistogramCalibrator,
} from "./histogram_binning.ts";
import { fitIsotonic, type IsotonicCalibrator } from "./isotonic.ts";
import { _logit, _sigmoid } from "./_logistic.ts";
import { fitPlatt, type PlattCalibrator } from "./platt.ts";
import { fitTemperature, type TemperatureCalibrator } from "./temperature.ts";

/** A fitted recalibration map, as plain data (it serialises to JSON). */
export type Calibrator =
  | PlattCalibrator
  | IsotonicCalibrator
  | TemperatureCalibrator
  | HistogramCalibrator;

/** The recalibration methods. */
export type CalibrationMethod = Calibrator["kind"];

/** Every method, in a fixed order. */
export const CALIBRATION_METHODS: readonly CalibrationMethod[] = [
  "platt",
  "isotonic",
  "temperature",
  "histogram",
];

/** Options for {@linkcode fitCalibrator}. */
export interface FitCalibratorOptions extends BinningOptions {
  /** Method. Required. `bins` and `strategy` apply to `histogram` only. */
  method: CalibrationMethod;
}

/**
 * Fit a recalibration map by name.
 *
 * Dispatches to {@linkcode fitPlatt}, {@linkcode fitIsotonic},
 * {@linkcode fitTemperature} or {@linkcode fitHistogramBinning}. Fit on one
 * split and judge the result on another: on the fitting split isotonic
 * regression and histogram binning look better than they are.
 *
 * @param p Stated probabilities in [0, 1], from the fitting split.
 * @param y Outcomes in {0, 1}, from the same split.
 * @param options The method, and bins for histogram binning.
 * @returns The fitted map.
 * @throws {RangeError} When an input is out of range or the method is unknown.
 * @throws {TypeError} As the method's fit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitCalibrator } from "./calibrator.ts";
 *
 * assert.equal(fitCalibrator([0.9, 0.8], [1, 0], { method: "isotonic" }).kind, "isotonic");
 * ```
 */
export function fitCalibrator(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  options: FitCalibratorOptions,
): Calibrator {
  switch (options?.method) {
    case "platt":
      return fitPlatt(p, y);
    case "isotonic":
      return fitIsotonic(p, y);
    case "temperature":
      return fitTemperature(p, y);
    case "histogram":
      return fitHistogramBinning(p, y, options);
    default:
      throw new RangeError(
        `Cannot fit a calibrator: method must be one of ${
          CALIBRATION_METHODS.join(", ")
        }, got ${JSON.stringify(options?.method)}`,
      );
  }
}

/**
 * Apply a fitted recalibration map to stated probabilities.
 *
 * @param calibrator A map from {@linkcode fitCalibrator} or one of the fits.
 * @param p Stated probabilities in [0, 1].
 * @returns Calibrated probabilities, one per input, in [0, 1]; the input is not changed.
 * @throws {RangeError} When a probability is outside [0, 1].
 *
 * @example Temperature 1 is the identity
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyCalibrator } from "./calibrator.ts";
 *
 * const q = applyCalibrator({ kind: "temperature", temperature: 1 }, [0.25, 0.9]);
 * assert.ok(Math.abs(q[0] - 0.25) < 1e-12 && Math.abs(q[1] - 0.9) < 1e-12);
 * ```
 */
export function applyCalibrator(
  calibrator: Calibrator,
  p: ArrayLike<number>,
): Float64Array {
  const out = new Float64Array(p.length);
  for (let i = 0; i < p.length; i++) {
    const v = p[i];
    if (!(v >= 0 && v <= 1)) {
      throw new RangeError(
        `Cannot apply a ${calibrator.kind} calibrator: p[${i}] must be a probability in [0, 1], got ${v}`,
      );
    }
    out[i] = _applyOne(calibrator, v);
  }
  return out;
}

function _applyOne(c: Calibrator, v: number): number {
  switch (c.kind) {
    case "platt":
      return _sigmoid(c.a * _logit(v) + c.b);
    case "temperature":
      return _sigmoid(_logit(v) / c.temperature);
    case "histogram":
      return c.values[binIndex(c.edges, v)] ?? v;
    case "isotonic": {
      const { x, y } = c;
      if (v <= x[0]) return y[0];
      if (v >= x[x.length - 1]) return y[y.length - 1];
      let lo = 0;
      let hi = x.length - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >>> 1;
        if (x[mid] <= v) lo = mid;
        else hi = mid;
      }
      const t = (v - x[lo]) / (x[hi] - x[lo]);
      return y[lo] + t * (y[hi] - y[lo]);
    }
  }
}
