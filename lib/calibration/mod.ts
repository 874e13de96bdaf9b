/**
 * Calibration: does a stated probability mean what it says? Reliability
 * diagrams with recorded edges, ECE (plug-in, debiased, with a bootstrap
 * interval and a noise floor), MCE, the Brier score and its Murphy
 * decomposition, calibration error in money, and recalibration fitted on one
 * split and reported on another.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   costWeightedCalibrationError,
 *   eceNoiseFloor,
 *   expectedCalibrationError,
 * } from "./mod.ts";
 *
 * const p = Array.from({ length: 500 }, (_, i) => 0.6 + 0.38 * ((i * 0.618) % 1));
 * const y = p.map((v, i) => ((i * 0.377) % 1) < v - 0.2 ? 1 : 0); // 0.2 over-confident
 * const ece = expectedCalibrationError(p, y, { bins: 10, strategy: "equal-mass" });
 * assert.ok(ece.value! > eceNoiseFloor(p, { seed: 1 }).quantile!);
 * const money = costWeightedCalibrationError(p, y, { exposure: new Array(500).fill(10) });
 * assert.ok(Math.abs(money.value! - 10 * expectedCalibrationError(p, y).value!) < 1e-9);
 * ```
 *
 * @module
 */

export * from "./binning.ts";
export * from "./reliability.ts";
export * from "./calibration_error.ts";
export * from "./brier.ts";
export * from "./ece_interval.ts";
export * from "./noise_floor.ts";
export * from "./cost_weighted.ts";
export * from "./platt.ts";
export * from "./isotonic.ts";
export * from "./temperature.ts";
export * from "./histogram_binning.ts";
export * from "./calibrator.ts";
export * from "./recalibrate.ts";
export * from "./outcome_columns.ts";
