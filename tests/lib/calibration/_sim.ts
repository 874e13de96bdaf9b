// Seeded (p, y) samples with a known relation between stated and true
// probability, for calibration and policy tests.
import { beta, seededPrng } from "../../../lib/math/sampling.ts";

/** How the stated probability relates to the true one. */
export type Miscalibration = (truth: number) => number;

/** Stated = true: a calibrated model. */
export const CALIBRATED: Miscalibration = (t) => t;

/** Over-confident: stated = 1 − (1 − true)^3, as the simulator's frontier model. */
export const OVERCONFIDENT: Miscalibration = (t) => 1 - Math.pow(1 - t, 3);

/**
 * n decisions: true P(correct) ~ Beta(a, b), outcome ~ Bernoulli(true),
 * stated = f(true), rounded to six decimals as run exports are.
 */
export function sample(
  n: number,
  seed: number,
  f: Miscalibration = CALIBRATED,
  shape: [number, number] = [8, 2],
): { p: Float64Array; truth: Float64Array; y: Uint8Array } {
  const rng = seededPrng(seed);
  const p = new Float64Array(n);
  const truth = new Float64Array(n);
  const y = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = beta(rng, shape[0], shape[1]);
    truth[i] = t;
    y[i] = rng.next() < t ? 1 : 0;
    p[i] = Math.round(f(t) * 1e6) / 1e6;
  }
  return { p, truth, y };
}
