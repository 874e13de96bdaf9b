/**
 * Temperature scaling: one parameter that divides the log-odds.
 *
 * @module
 */

import { _checkProbabilities } from "./_columns.ts";
import { _logit, _sigmoid, _softplus } from "./_logistic.ts";

/** A fitted temperature: q = σ(logit(p) / T). */
export interface TemperatureCalibrator {
  /** Discriminator. */
  readonly kind: "temperature";
  /** The temperature T > 0; above 1 softens over-confident probabilities. */
  readonly temperature: number;
}

/** Bounds on 1/T while fitting. */
const MIN_INVERSE = 1e-6;
const MAX_INVERSE = 1e6;

/**
 * Fit temperature scaling (Guo et al. 2017) for a stated probability of a
 * binary event.
 *
 * The map is q = σ(logit(p) / T) with one parameter, fitted by minimising
 * the log loss on the fitting split; the loss is convex in 1/T, so Newton's
 * method with step halving finds the optimum. Unlike Platt scaling it has
 * no intercept, so q = 1/2 stays at 1/2 and the ranking of decisions never
 * changes. 1/T is kept in [1e-6, 1e6]. Cost: O(n) per iteration.
 *
 * @param p Stated probabilities in [0, 1], from the fitting split.
 * @param y Outcomes in {0, 1}, from the same split.
 * @param options Maximum Newton iterations. Default: 100.
 * @returns The fitted temperature.
 * @throws {RangeError} When an input is out of range.
 * @throws {TypeError} When `p` and `y` differ in length, or there is nothing to fit.
 *
 * @example An over-confident model is cooled down: T > 1
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitTemperature } from "./temperature.ts";
 *
 * const p = new Array(100).fill(0.99);
 * const y = p.map((_, i) => (i % 10 < 8 ? 1 : 0)); // right 80% of the time
 * const t = fitTemperature(p, y);
 * // σ(logit(0.99) / T) = 0.8 exactly at T = logit(0.99) / logit(0.8)
 * assert.ok(Math.abs(t.temperature - Math.log(99) / Math.log(4)) < 1e-6);
 * ```
 */
export function fitTemperature(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  options: { maxIterations?: number } = {},
): TemperatureCalibrator {
  _checkProbabilities("a temperature scaling", p, y);
  const n = p.length;
  if (n === 0) {
    throw new TypeError(
      "Cannot fit a temperature scaling: no decisions to fit on",
    );
  }
  const maxIterations = options.maxIterations ?? 100;
  const x = Float64Array.from(p as ArrayLike<number>, _logit);
  const loss = (beta: number) => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      const z = beta * x[i];
      s += _softplus(z) - y[i] * z;
    }
    return s;
  };
  let beta = 1;
  let f = loss(beta);
  for (let it = 0; it < maxIterations; it++) {
    let g = 0;
    let h = 1e-12;
    for (let i = 0; i < n; i++) {
      const q = _sigmoid(beta * x[i]);
      g += (q - y[i]) * x[i];
      h += q * (1 - q) * x[i] * x[i];
    }
    if (Math.abs(g) < 1e-12 * n) break;
    const d = -g / h;
    let step = 1;
    let improved = false;
    while (step > 1e-12) {
      const next = Math.min(
        MAX_INVERSE,
        Math.max(MIN_INVERSE, beta + step * d),
      );
      const fn = loss(next);
      if (fn < f) {
        improved = next !== beta;
        beta = next;
        f = fn;
        break;
      }
      step /= 2;
    }
    if (!improved) break;
  }
  return { kind: "temperature", temperature: 1 / beta };
}
