/**
 * Platt scaling: a logistic map of the stated probability's log-odds.
 *
 * @module
 */

import { _checkProbabilities } from "./_columns.ts";
import { _logit, _sigmoid, _softplus } from "./_logistic.ts";

/** A fitted Platt scaling: q = σ(a·logit(p) + b). */
export interface PlattCalibrator {
  /** Discriminator. */
  readonly kind: "platt";
  /** Slope on the log-odds; below 1 shrinks over-confident probabilities towards 1/2. */
  readonly a: number;
  /** Intercept. */
  readonly b: number;
}

/**
 * Fit Platt scaling (Platt 1999) by Newton's method with a backtracking
 * line search, as Lin, Lin & Weng (2007) recommend.
 *
 * The map is q = σ(a·logit(p) + b), fitted by minimising the log loss
 * against Platt's smoothed targets, (N₊ + 1)/(N₊ + 2) for a 1 and
 * 1/(N₋ + 2) for a 0, which keep the fit finite when one class is rare. Two
 * parameters, so it corrects a global over- or under-confidence but not a
 * bent reliability curve (use isotonic for that). Cost: O(n) per iteration,
 * usually under 10 iterations.
 *
 * @param p Stated probabilities in [0, 1], from the fitting split.
 * @param y Outcomes in {0, 1}, from the same split.
 * @param options Maximum Newton iterations. Default: 100.
 * @returns The fitted slope and intercept.
 * @throws {RangeError} When an input is out of range.
 * @throws {TypeError} When `p` and `y` differ in length, or there is nothing to fit.
 *
 * @example An over-confident model gets a slope below 1
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyCalibrator } from "./calibrator.ts";
 * import { fitPlatt } from "./platt.ts";
 *
 * // stated 0.99 and 0.9, right 80% and 60% of the time
 * const p = [...new Array(100).fill(0.99), ...new Array(100).fill(0.9)];
 * const y = p.map((v, i) => (v === 0.99 ? i % 5 !== 0 : i % 5 < 3) ? 1 : 0);
 * const platt = fitPlatt(p, y);
 * assert.ok(platt.a < 1);
 * const [hi] = applyCalibrator(platt, [0.99]);
 * assert.ok(hi < 0.9 && hi > 0.7);
 * ```
 */
export function fitPlatt(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  options: { maxIterations?: number } = {},
): PlattCalibrator {
  _checkProbabilities("a Platt scaling", p, y);
  const n = p.length;
  if (n === 0) {
    throw new TypeError("Cannot fit a Platt scaling: no decisions to fit on");
  }
  const maxIterations = options.maxIterations ?? 100;
  let pos = 0;
  for (let i = 0; i < n; i++) pos += y[i];
  const hiTarget = (pos + 1) / (pos + 2);
  const loTarget = 1 / (n - pos + 2);
  const x = new Float64Array(n);
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = _logit(p[i]);
    t[i] = y[i] === 1 ? hiTarget : loTarget;
  }
  const loss = (a: number, b: number) => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      const z = a * x[i] + b;
      // −[t log σ(z) + (1 − t) log(1 − σ(z))] = softplus(z) − t·z
      s += _softplus(z) - t[i] * z;
    }
    return s;
  };
  let a = 1;
  let b = 0;
  let f = loss(a, b);
  for (let it = 0; it < maxIterations; it++) {
    let ga = 0, gb = 0, haa = 1e-12, hab = 0, hbb = 1e-12;
    for (let i = 0; i < n; i++) {
      const q = _sigmoid(a * x[i] + b);
      const d = q - t[i];
      const w = q * (1 - q);
      ga += d * x[i];
      gb += d;
      haa += w * x[i] * x[i];
      hab += w * x[i];
      hbb += w;
    }
    if (Math.abs(ga) < 1e-10 * n && Math.abs(gb) < 1e-10 * n) break;
    const det = haa * hbb - hab * hab;
    const da = -(hbb * ga - hab * gb) / det;
    const db = -(haa * gb - hab * ga) / det;
    let step = 1;
    let improved = false;
    while (step > 1e-10) {
      const fa = loss(a + step * da, b + step * db);
      if (fa < f - 1e-4 * step * Math.abs(ga * da + gb * db)) {
        a += step * da;
        b += step * db;
        f = fa;
        improved = true;
        break;
      }
      step /= 2;
    }
    if (!improved) break;
  }
  return { kind: "platt", a, b };
}
