/**
 * The ECE noise floor: what a perfectly calibrated model would score with
 * the same confidences and the same number of decisions.
 *
 * @module
 */

import { quantileSorted } from "../metrics/bootstrap.ts";
import { binomial, normal, type Prng, seededPrng } from "../math/sampling.ts";
import { _checkInteger, _checkLevel } from "./_columns.ts";
import { binEdges, binIndex, type BinningOptions } from "./binning.ts";
import type { BinnedResult } from "./reliability.ts";

/** Options for {@linkcode eceNoiseFloor}. */
export interface NoiseFloorOptions extends BinningOptions {
  /** Simulated perfectly calibrated runs. Default: 200. */
  replicates?: number;
  /** Quantile reported as the floor's upper reach, in (0, 1). Default: 0.95. */
  level?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator. Default: `seededPrng(seed)`. */
  prng?: Prng;
}

/** The distribution of ECE under perfect calibration at a given n. */
export interface NoiseFloor extends BinnedResult {
  /** Mean ECE of the simulated calibrated runs; `null` when there are no decisions. */
  readonly mean: number | null;
  /** Its `level` quantile: an observed ECE below it is indistinguishable from noise. */
  readonly quantile: number | null;
  /** The quantile's level. */
  readonly level: number;
  /** Simulated runs. */
  readonly replicates: number;
  /** Seed of the generator. */
  readonly seed: number;
}

/** Distinct values per bin above which a bin's positives come from their normal limit. */
const EXACT_VALUES = 4096;

/**
 * The ECE a perfectly calibrated model would show with these confidences.
 *
 * Plug-in ECE is positive even when every stated probability is exactly
 * right, because each bin's accuracy is a noisy estimate. This simulates
 * that case: outcomes are drawn as y ~ Bernoulli(p) for the same p, binned
 * with the same edges, and the ECE recorded. An observed ECE below the
 * floor's upper quantile is no evidence of miscalibration at this n. Draws
 * are exact: one binomial per distinct probability; a bin with more than
 * 4,096 distinct values draws its positives from the normal limit
 * N(Σp, Σp(1 − p)), rounded. Cost: O(n log n) once, then O(distinct values)
 * per replicate.
 *
 * @param p Stated probabilities in [0, 1].
 * @param options Bins, strategy, replicates (default 200), level (default 0.95), seed or prng.
 * @returns The mean and the upper quantile of the calibrated model's ECE.
 * @throws {RangeError} When a probability is outside [0, 1], `replicates` < 1 or the level is outside (0, 1).
 *
 * @example 100 decisions at 0.7: a calibrated model still shows ECE of a few points
 * ```ts
 * import assert from "node:assert/strict";
 * import { eceNoiseFloor } from "./noise_floor.ts";
 *
 * const floor = eceNoiseFloor(new Array(100).fill(0.7), { seed: 1 });
 * // E|Binomial(100, 0.7)/100 − 0.7| ≈ sqrt(2/π)·sqrt(0.21/100) ≈ 0.037
 * assert.ok(Math.abs(floor.mean! - 0.037) < 0.006);
 * assert.ok(floor.quantile! > floor.mean!);
 * ```
 */
export function eceNoiseFloor(
  p: ArrayLike<number>,
  options: NoiseFloorOptions = {},
): NoiseFloor {
  const replicates = _checkInteger(
    "an ECE noise floor",
    "replicates",
    options.replicates ?? 200,
    1,
  );
  const level = _checkLevel(
    "an ECE noise floor",
    "level",
    options.level ?? 0.95,
  );
  const prng = options.prng ?? seededPrng(options.seed ?? 0);
  for (let i = 0; i < p.length; i++) {
    if (!(p[i] >= 0 && p[i] <= 1)) {
      throw new RangeError(
        `Cannot compute an ECE noise floor: p[${i}] must be a probability in [0, 1], got ${
          p[i]
        }`,
      );
    }
  }
  const strategy = options.strategy ?? "equal-width";
  const binsRequested = options.bins ?? 10;
  const edges = binEdges(p, { bins: binsRequested, strategy });
  const B = edges.length - 1;
  const sorted = Float64Array.from(p).sort();
  const n = sorted.length;
  // distinct values, their counts and bins
  const values: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0 && sorted[i] === sorted[i - 1]) counts[counts.length - 1]++;
    else {
      values.push(sorted[i]);
      counts.push(1);
    }
  }
  const binOf = values.map((v) => binIndex(edges, v));
  const binN = new Float64Array(B);
  const binP = new Float64Array(B);
  const binVar = new Float64Array(B);
  const distinct = new Float64Array(B);
  values.forEach((v, j) => {
    const b = binOf[j];
    binN[b] += counts[j];
    binP[b] += counts[j] * v;
    binVar[b] += counts[j] * v * (1 - v);
    distinct[b]++;
  });
  let nonEmptyBins = 0;
  for (let b = 0; b < B; b++) if (binN[b] > 0) nonEmptyBins++;
  const base = {
    strategy,
    binsRequested,
    edges,
    nonEmptyBins,
    n,
    level,
    replicates,
    seed: prng.seed,
  };
  if (n === 0) return { ...base, mean: null, quantile: null };
  const exact = Array.from(distinct, (d) => d <= EXACT_VALUES);
  const eces = new Float64Array(replicates);
  const pos = new Float64Array(B);
  for (let r = 0; r < replicates; r++) {
    pos.fill(0);
    for (let j = 0; j < values.length; j++) {
      const b = binOf[j];
      if (exact[b]) pos[b] += binomial(prng, counts[j], values[j]);
    }
    let s = 0;
    for (let b = 0; b < B; b++) {
      if (binN[b] === 0) continue;
      if (!exact[b]) {
        const k = Math.round(binP[b] + Math.sqrt(binVar[b]) * normal(prng));
        pos[b] = Math.min(binN[b], Math.max(0, k));
      }
      s += Math.abs(pos[b] - binP[b]);
    }
    eces[r] = s / n;
  }
  let mean = 0;
  for (const e of eces) mean += e;
  mean /= replicates;
  eces.sort();
  return { ...base, mean, quantile: quantileSorted(eces, level) };
}
