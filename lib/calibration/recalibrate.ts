/**
 * Recalibration judged honestly: fit on one split, report on another.
 *
 * @module
 */

import { type Prng, seededPrng } from "../math/sampling.ts";
import { _checkProbabilities } from "./_columns.ts";
import { _logit } from "./_logistic.ts";
import type { BinningOptions } from "./binning.ts";
import { brierScore } from "./brier.ts";
import {
  applyCalibrator,
  CALIBRATION_METHODS,
  type CalibrationMethod,
  type Calibrator,
  fitCalibrator,
} from "./calibrator.ts";
import { reliabilityDiagram } from "./reliability.ts";

/** Options for {@linkcode randomSplit}. */
export interface SplitOptions {
  /** Share of decisions in the fitting split, in (0, 1). Default: 0.5. */
  fraction?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator. Default: `seededPrng(seed)`. */
  prng?: Prng;
}

/** Indices of a two-way split. */
export interface Split {
  /** Indices of the fitting split, ascending. */
  readonly fit: Int32Array;
  /** Indices of the evaluation split, ascending. */
  readonly evaluate: Int32Array;
  /** Seed of the generator. */
  readonly seed: number;
}

/**
 * A seeded random split of n decisions into a fitting and an evaluation
 * part, by a Fisher–Yates shuffle. Cost: O(n).
 *
 * @param n Decisions.
 * @param options Fraction in the fitting split (default 0.5), seed or prng.
 * @returns Both index sets, sorted, with the seed.
 * @throws {RangeError} When n is not an integer >= 0 or the fraction is outside (0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { randomSplit } from "./recalibrate.ts";
 *
 * const s = randomSplit(10, { fraction: 0.3, seed: 1 });
 * assert.equal(s.fit.length, 3);
 * assert.equal(s.evaluate.length, 7);
 * assert.deepEqual(randomSplit(10, { fraction: 0.3, seed: 1 }), s);
 * ```
 */
export function randomSplit(n: number, options: SplitOptions = {}): Split {
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(
      `Cannot split decisions: n must be an integer >= 0, got ${n}`,
    );
  }
  const fraction = options.fraction ?? 0.5;
  if (!(fraction > 0 && fraction < 1)) {
    throw new RangeError(
      `Cannot split decisions: fraction must be in (0, 1), got ${fraction}`,
    );
  }
  const prng = options.prng ?? seededPrng(options.seed ?? 0);
  const idx = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.min(i, Math.floor(prng.next() * (i + 1)));
    const t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
  const k = Math.round(n * fraction);
  return {
    fit: idx.slice(0, k).sort(),
    evaluate: idx.slice(k).sort(),
    seed: prng.seed,
  };
}

/** Probabilities and outcomes of one split. */
export interface LabelledColumns {
  /** Stated probabilities in [0, 1]. */
  readonly p: ArrayLike<number>;
  /** Outcomes in {0, 1}. */
  readonly y: ArrayLike<number>;
}

/** Options for {@linkcode recalibrate}. */
export interface RecalibrateOptions extends BinningOptions {
  /** Methods to compare. Default: all four, in {@linkcode CALIBRATION_METHODS} order. */
  methods?: readonly CalibrationMethod[];
}

/** One method's scores on the evaluation split. */
export interface RecalibrationRow {
  /** `"none"` for the stated probabilities, otherwise the method. */
  readonly method: CalibrationMethod | "none";
  /** ECE on the evaluation split. */
  readonly ece: number | null;
  /** MCE on the evaluation split. */
  readonly mce: number | null;
  /** Brier score on the evaluation split. */
  readonly brier: number | null;
  /** Mean log loss on the evaluation split (probabilities clipped to [1e-12, 1 − 1e-12]). */
  readonly logLoss: number | null;
  /** Non-empty bins of the ECE. */
  readonly nonEmptyBins: number;
}

/** What {@linkcode recalibrate} returns. */
export interface Recalibration {
  /** Scores on the evaluation split: `none` first, then each method. */
  readonly rows: readonly RecalibrationRow[];
  /** The maps fitted on the fitting split, by method. */
  readonly calibrators: Readonly<
    Partial<Record<CalibrationMethod, Calibrator>>
  >;
  /** The evaluation split's probabilities after each map, by method. */
  readonly calibrated: Readonly<
    Partial<Record<CalibrationMethod, Float64Array>>
  >;
  /** Decisions in the fitting split. */
  readonly nFit: number;
  /** Decisions in the evaluation split. */
  readonly nEvaluate: number;
}

function _logLoss(p: ArrayLike<number>, y: ArrayLike<number>): number | null {
  if (p.length === 0) return null;
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    // −log σ(±logit p) = log(1 + e^∓logit p)
    const z = _logit(p[i]);
    s += y[i] === 1 ? Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
  }
  return s / p.length;
}

/**
 * Fit each recalibration method on one split and score it on another.
 *
 * The honest way to read a recalibration: the fitting split trains the map,
 * the evaluation split (which the map never saw) gives ECE, MCE, Brier and
 * log loss before (`none`) and after each method, all with the same bins.
 * Use {@linkcode randomSplit} for a random split, or split by time (fit on
 * last month's labelled outcomes, report on this month's) to mimic a
 * ledger. Cost: the sum of the fits, O(n log n).
 *
 * @param fit Probabilities and outcomes to fit on.
 * @param evaluate Probabilities and outcomes to report on.
 * @param options Methods (default all four), bins (default 10) and strategy (default equal-width).
 * @returns One row per method on the evaluation split, the fitted maps and the recalibrated probabilities.
 * @throws {RangeError} When an input is out of range or a method is unknown.
 * @throws {TypeError} When columns differ in length or the fitting split is empty.
 *
 * @example Recalibrating an over-confident model lowers held-out ECE
 * ```ts
 * import assert from "node:assert/strict";
 * import { recalibrate } from "./recalibrate.ts";
 *
 * const split = (offset: number) => {
 *   const p = Array.from({ length: 1000 }, (_, i) => 0.6 + 0.39 * (((i + offset) * 0.618) % 1));
 *   // the truth is 0.15 below what the model states
 *   const y = p.map((v, i) => (((i + offset) * 0.377) % 1) < v - 0.15 ? 1 : 0);
 *   return { p, y };
 * };
 * const r = recalibrate(split(0), split(5000), { methods: ["platt"] });
 * const [none, platt] = r.rows;
 * assert.ok(platt.ece! < none.ece! / 2);
 * ```
 */
export function recalibrate(
  fit: LabelledColumns,
  evaluate: LabelledColumns,
  options: RecalibrateOptions = {},
): Recalibration {
  _checkProbabilities("a recalibration (fitting split)", fit.p, fit.y);
  _checkProbabilities(
    "a recalibration (evaluation split)",
    evaluate.p,
    evaluate.y,
  );
  const methods = options.methods ?? CALIBRATION_METHODS;
  const binning = { bins: options.bins, strategy: options.strategy };
  const score = (
    method: CalibrationMethod | "none",
    q: ArrayLike<number>,
  ): RecalibrationRow => {
    const d = reliabilityDiagram(q, evaluate.y, binning);
    return {
      method,
      ece: d.ece,
      mce: d.mce,
      brier: brierScore(q, evaluate.y),
      logLoss: _logLoss(q, evaluate.y),
      nonEmptyBins: d.nonEmptyBins,
    };
  };
  const rows: RecalibrationRow[] = [score("none", evaluate.p)];
  const calibrators: Partial<Record<CalibrationMethod, Calibrator>> = {};
  const calibrated: Partial<Record<CalibrationMethod, Float64Array>> = {};
  for (const method of methods) {
    const c = fitCalibrator(fit.p, fit.y, { ...binning, method });
    const q = applyCalibrator(c, evaluate.p);
    calibrators[method] = c;
    calibrated[method] = q;
    rows.push(score(method, q));
  }
  return {
    rows,
    calibrators,
    calibrated,
    nFit: fit.p.length,
    nEvaluate: evaluate.p.length,
  };
}
