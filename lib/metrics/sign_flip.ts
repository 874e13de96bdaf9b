/**
 * The paired sign-flip permutation test: exact for few tasks, seeded Monte
 * Carlo otherwise.
 *
 * @module
 */

import { binomial, type Prng, seededPrng } from "../math/sampling.ts";

/** The result of a sign-flip test. */
export interface SignFlipResult {
  /** The statistic: the sum of the differences (with multiplicities). */
  readonly statistic: number;
  /** Two-sided p-value: the share of sign assignments with |sum| >= |statistic|. */
  readonly pValue: number;
  /** Units (tasks) tested, counting multiplicities. */
  readonly units: number;
  /** Units whose difference is not 0 (the only ones whose sign matters). */
  readonly nonZero: number;
  /** `exact` (every sign assignment enumerated) or `monte carlo`. */
  readonly mode: "exact" | "monte carlo";
  /** Monte Carlo sign assignments drawn; 0 when exact. */
  readonly resamples: number;
  /** Seed of the generator. */
  readonly seed: number;
}

/** Options for {@linkcode signFlipTest}. */
export interface SignFlipOptions {
  /** Multiplicity of each difference (whole numbers >= 0). Default: 1 each. */
  weights?: ArrayLike<number>;
  /** Monte Carlo sign assignments. Default: 10,000. */
  resamples?: number;
  /** Enumerate exactly when at most this many units differ from 0. Default: 16. */
  exactMax?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator. Default: `seededPrng(seed)`. */
  prng?: Prng;
}

/**
 * A two-sided sign-flip permutation test that paired differences are
 * symmetric about 0.
 *
 * Under the null hypothesis that the two members of each pair are
 * exchangeable (the two models' losses on a task could be swapped), each
 * difference is as likely to have either sign, so the sum of the
 * differences is compared with its distribution over all 2^n sign
 * assignments. With at most `exactMax` non-zero differences every
 * assignment is enumerated and the p-value is exact; otherwise it is
 * (1 + hits) / (1 + B) over B seeded random assignments, which keeps the
 * test's level exactly at any B (a Monte Carlo p-value of this form is
 * itself a valid p-value). Differences with a multiplicity m flip as
 * m independent units: their signed sum is d · (2 · Binomial(m, 1/2) − m),
 * one draw per distinct difference, so a Monte Carlo draw costs O(distinct
 * differences). The level holds however heavy the tails of the
 * differences; it is a test of symmetry, so two models with equal expected
 * loss but different error profiles need not give symmetric differences,
 * and there its size is not claimed.
 *
 * @param differences Per-unit differences (for loss: per-task loss of A minus B).
 * @param options Multiplicities, resamples, exact threshold and seed.
 * @returns The statistic and its p-value.
 * @throws {RangeError} When a difference is not finite, a multiplicity is not a whole number >= 0, or resamples is not an integer >= 1.
 *
 * @example One task out of twelve loses 1,000; the rest are ties
 * ```ts
 * import assert from "node:assert/strict";
 * import { signFlipTest } from "./sign_flip.ts";
 *
 * const t = signFlipTest([1000, 0], { weights: [1, 11] });
 * assert.equal(t.mode, "exact");
 * assert.equal(t.pValue, 1); // one non-zero difference is never significant
 * const u = signFlipTest([5, 4, 6, 5, 7, 3, 5, 6]);
 * assert.equal(u.pValue, 2 / 256); // all positive: 2 of 256 assignments are as extreme
 * ```
 */
export function signFlipTest(
  differences: ArrayLike<number>,
  options: SignFlipOptions = {},
): SignFlipResult {
  const resamples = options.resamples ?? 10_000;
  const exactMax = options.exactMax ?? 16;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(
      `Cannot run a sign-flip test: resamples must be an integer >= 1, got ${resamples}`,
    );
  }
  const prng = options.prng ?? seededPrng(options.seed ?? 0);
  const d: number[] = [];
  const m: number[] = [];
  let units = 0;
  let statistic = 0;
  let scale = 0;
  for (let i = 0; i < differences.length; i++) {
    const v = differences[i];
    const w = options.weights === undefined ? 1 : options.weights[i];
    if (!Number.isFinite(v)) {
      throw new RangeError(
        `Cannot run a sign-flip test: difference ${i} must be finite, got ${v}`,
      );
    }
    if (!Number.isSafeInteger(w) || w < 0) {
      throw new RangeError(
        `Cannot run a sign-flip test: weight ${i} must be a whole number >= 0, got ${w}`,
      );
    }
    units += w;
    if (v === 0 || w === 0) continue;
    d.push(v);
    m.push(w);
    statistic += v * w;
    scale += Math.abs(v) * w;
  }
  const nonZero = m.reduce((a, b) => a + b, 0);
  const base = { statistic, units, nonZero, seed: prng.seed };
  if (nonZero === 0) {
    return { ...base, pValue: 1, mode: "exact", resamples: 0 };
  }
  // Sums equal up to rounding count as "as extreme".
  const bar = Math.abs(statistic) - 1e-12 * scale;
  if (nonZero <= exactMax) {
    const flat: number[] = [];
    d.forEach((v, i) => {
      for (let k = 0; k < m[i]; k++) flat.push(v);
    });
    const total = 2 ** flat.length;
    let hits = 0;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let j = 0; j < flat.length; j++) {
        s += (mask >>> j) & 1 ? -flat[j] : flat[j];
      }
      if (Math.abs(s) >= bar) hits++;
    }
    return { ...base, pValue: hits / total, mode: "exact", resamples: 0 };
  }
  let hits = 0;
  for (let b = 0; b < resamples; b++) {
    let s = 0;
    for (let i = 0; i < d.length; i++) {
      s += m[i] === 1
        ? (prng.next() < 0.5 ? -d[i] : d[i])
        : d[i] * (2 * binomial(prng, m[i], 0.5) - m[i]);
    }
    if (Math.abs(s) >= bar) hits++;
  }
  return {
    ...base,
    pValue: (1 + hits) / (1 + resamples),
    mode: "monte carlo",
    resamples,
  };
}
