/**
 * A seeded bootstrap confidence interval on the expected calibration error,
 * computed on bin sufficient statistics.
 *
 * @module
 */

import { quantileSorted } from "../metrics/bootstrap.ts";
import {
  multinomial,
  normal,
  type Prng,
  seededPrng,
} from "../metrics/sampling.ts";
import { _binSums } from "./_bin_sums.ts";
import { _checkInteger, _checkLevel } from "./_columns.ts";
import type { BinningOptions } from "./binning.ts";
import { type BinnedResult, reliabilityDiagram } from "./reliability.ts";

/** Options for {@linkcode eceInterval}. */
export interface EceIntervalOptions extends BinningOptions {
  /** Resamples. Default: 1,000. */
  resamples?: number;
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator. Default: `seededPrng(seed)`. */
  prng?: Prng;
}

/** A bootstrap interval on ECE, with the bins it holds fixed. */
export interface EceInterval extends BinnedResult {
  /** ECE on the observed data; `null` when there are no decisions. */
  readonly estimate: number | null;
  /** Lower percentile bound; `null` when there are no decisions. */
  readonly lo: number | null;
  /** Upper percentile bound; `null` when there are no decisions. */
  readonly hi: number | null;
  /** Confidence level. */
  readonly level: number;
  /** Resamples drawn. */
  readonly resamples: number;
  /** Seed of the generator. */
  readonly seed: number;
  /** How it was computed. */
  readonly method: "percentile bootstrap on bin sufficient statistics";
}

/** Draws up to this many are summed exactly; above it, from the normal limit. */
const EXACT_DRAWS = 32;

/**
 * A percentile bootstrap interval on ECE, in O(n) once and O(bins) per
 * resample.
 *
 * Resampling n decisions with replacement is the same as drawing how many
 * land in each (bin, outcome) cell from a multinomial with the observed
 * shares, then drawing the confidences of those m decisions from the cell.
 * The cell counts are drawn exactly; the sum of the m confidences is drawn
 * exactly (m uniform picks) when m ≤ 32 and otherwise from its normal limit
 * N(m·mean, m·variance), clamped to [m·min, m·max]. Bin edges are held at
 * the observed ones, as most reports do. So 1,000 resamples of a million
 * decisions cost one pass plus 1,000 × 2B draws, not 10⁹ row draws.
 *
 * @param p Stated probabilities in [0, 1].
 * @param y Outcomes in {0, 1}.
 * @param options Bins, strategy, resamples (default 1,000), level (default 0.95) and seed or prng.
 * @returns The estimate and the interval, with seed and edges for the record.
 * @throws {RangeError} When an input is out of range, `resamples` < 1 or the level is outside (0, 1).
 * @throws {TypeError} When `p` and `y` differ in length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { eceInterval } from "./ece_interval.ts";
 *
 * const p = Array.from({ length: 2000 }, (_, i) => 0.55 + 0.4 * ((i * 0.618) % 1));
 * const y = p.map((v, i) => ((i * 0.381) % 1) < v - 0.1 ? 1 : 0); // over-confident by 0.1
 * const ci = eceInterval(p, y, { resamples: 200, seed: 3 });
 * assert.ok(ci.lo! <= ci.estimate! && ci.estimate! <= ci.hi!);
 * assert.ok(ci.lo! > 0.05);
 * assert.deepEqual(eceInterval(p, y, { resamples: 200, seed: 3 }), ci);
 * ```
 */
export function eceInterval(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  options: EceIntervalOptions = {},
): EceInterval {
  const resamples = _checkInteger(
    "an ECE interval",
    "resamples",
    options.resamples ?? 1000,
    1,
  );
  const level = _checkLevel("an ECE interval", "level", options.level ?? 0.95);
  const prng = options.prng ?? seededPrng(options.seed ?? 0);
  const diagram = reliabilityDiagram(p, y, options);
  const { bins: _bins, ece, mce: _mce, ...binned } = diagram;
  const base = {
    ...binned,
    level,
    resamples,
    seed: prng.seed,
    method: "percentile bootstrap on bin sufficient statistics" as const,
  };
  if (diagram.n === 0) return { ...base, estimate: null, lo: null, hi: null };
  const cells = _cells(p, y, diagram.edges);
  const B = diagram.edges.length - 1;
  const n = diagram.n;
  const draws = new Float64Array(resamples);
  const binN = new Float64Array(B);
  const binP = new Float64Array(B);
  const binY = new Float64Array(B);
  for (let r = 0; r < resamples; r++) {
    const counts = multinomial(prng, n, cells.count);
    binN.fill(0);
    binP.fill(0);
    binY.fill(0);
    for (let c = 0; c < counts.length; c++) {
      const m = counts[c];
      if (m === 0) continue;
      const b = cells.bin[c];
      binN[b] += m;
      if (cells.outcome[c] === 1) binY[b] += m;
      binP[b] += _drawSum(prng, cells, c, m);
    }
    let s = 0;
    for (let b = 0; b < B; b++) {
      if (binN[b] > 0) s += Math.abs(binY[b] - binP[b]);
    }
    draws[r] = s / n;
  }
  draws.sort();
  const alpha = (1 - level) / 2;
  return {
    ...base,
    estimate: ece,
    lo: quantileSorted(draws, alpha),
    hi: quantileSorted(draws, 1 - alpha),
  };
}

interface _Cells {
  bin: Int32Array;
  outcome: Uint8Array;
  count: Float64Array;
  mean: Float64Array;
  variance: Float64Array;
  min: Float64Array;
  max: Float64Array;
  offset: Int32Array;
  values: Float64Array;
}

/** The non-empty (bin, outcome) cells with their confidences laid out contiguously. */
function _cells(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  edges: readonly number[],
): _Cells {
  const B = edges.length - 1;
  const { index } = _binSums(p, y, edges);
  const raw = new Float64Array(2 * B);
  for (let i = 0; i < p.length; i++) raw[2 * index[i] + y[i]]++;
  const ids: number[] = [];
  for (let c = 0; c < 2 * B; c++) if (raw[c] > 0) ids.push(c);
  const k = ids.length;
  const slot = new Int32Array(2 * B).fill(-1);
  ids.forEach((c, j) => (slot[c] = j));
  const cells: _Cells = {
    bin: Int32Array.from(ids, (c) => c >> 1),
    outcome: Uint8Array.from(ids, (c) => c & 1),
    count: Float64Array.from(ids, (c) => raw[c]),
    mean: new Float64Array(k),
    variance: new Float64Array(k),
    min: new Float64Array(k).fill(Infinity),
    max: new Float64Array(k).fill(-Infinity),
    offset: new Int32Array(k + 1),
    values: new Float64Array(p.length),
  };
  for (let j = 0; j < k; j++) {
    cells.offset[j + 1] = cells.offset[j] + cells.count[j];
  }
  const fill = cells.offset.slice(0, k);
  for (let i = 0; i < p.length; i++) {
    const j = slot[2 * index[i] + y[i]];
    cells.values[fill[j]++] = p[i];
  }
  for (let j = 0; j < k; j++) {
    let s = 0;
    let ss = 0;
    for (let i = cells.offset[j]; i < cells.offset[j + 1]; i++) {
      const v = cells.values[i];
      s += v;
      ss += v * v;
      if (v < cells.min[j]) cells.min[j] = v;
      if (v > cells.max[j]) cells.max[j] = v;
    }
    const m = s / cells.count[j];
    cells.mean[j] = m;
    cells.variance[j] = Math.max(0, ss / cells.count[j] - m * m);
  }
  return cells;
}

/** The sum of m confidences drawn with replacement from cell j. */
function _drawSum(prng: Prng, cells: _Cells, j: number, m: number): number {
  const size = cells.count[j];
  if (m <= EXACT_DRAWS || cells.variance[j] === 0) {
    if (cells.variance[j] === 0) return m * cells.mean[j];
    let s = 0;
    const start = cells.offset[j];
    for (let t = 0; t < m; t++) {
      s += cells
        .values[start + Math.min(size - 1, Math.floor(prng.next() * size))];
    }
    return s;
  }
  const s = m * cells.mean[j] + Math.sqrt(m * cells.variance[j]) * normal(prng);
  return Math.min(m * cells.max[j], Math.max(m * cells.min[j], s));
}
