/**
 * A seeded synthetic skill catalog routed by reciprocal rank fusion of a
 * BM25-like and a dense-like ranker, with the dense side quantised at
 * several bit widths: the Veto Frontier's setting as computed data.
 *
 * @module
 */

import { type Prng, seededPrng } from "../math/sampling.ts";

/** Options for {@linkcode simulateSkillCatalog}. */
export interface SkillCatalogOptions {
  /** Skills N in the catalog. Default: 2,000. */
  skills?: number;
  /** Queries routed. Default: 1,000. */
  queries?: number;
  /** The RRF constant k. Default: 60. */
  k?: number;
  /** Bit widths at which the dense scores are quantised. Default: [10, 8, 7, 6]. */
  bits?: readonly number[];
  /** Noise of the lexical ranker around the latent relevance (standard deviation). Default: 0.9. */
  lexicalNoise?: number;
  /** Noise of the dense ranker around the latent relevance. Default: 0.7. */
  denseNoise?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator. Default: `seededPrng(seed)`. */
  prng?: Prng;
}

/** The dense side quantised at one bit width. */
export interface QuantisedRouting {
  /** Bits per dense score. */
  readonly bits: number;
  /** Quantisation step on the dense score scale. */
  readonly step: number;
  /** Per query: the largest dense-rank move of the two top items. */
  readonly rankShift: Int32Array;
  /** Per query: the largest dense-rank move among all candidates that could reach the top. */
  readonly candidateShift: Int32Array;
  /** The largest `rankShift` over all queries: the run's δ_r(b). */
  readonly maxRankShift: number;
  /** Per query: 1 when the quantised router's top skill differs from the full-precision one. */
  readonly top1Changed: Uint8Array;
  /** Per query: the RRF margin after quantisation. */
  readonly margin: Float64Array;
  /** Per query: 1 when the quantised router's top skill is wrong. */
  readonly error: Uint8Array;
}

/** A routed run over the synthetic catalog. */
export interface SkillRoutingRun {
  /** Skills. */
  readonly skills: number;
  /** Queries. */
  readonly queries: number;
  /** The RRF constant. */
  readonly k: number;
  /** Seed of the generator. */
  readonly seed: number;
  /** Per query: the gold skill. */
  readonly gold: Int32Array;
  /** Per query: the fused top skill. */
  readonly top1: Int32Array;
  /** Per query: the RRF margin, top-1 minus top-2 fused score. */
  readonly margin: Float64Array;
  /** Per query: 1 when the top skill is not the gold one. */
  readonly error: Uint8Array;
  /** Per query: lexical and dense ranks of the top two skills. */
  readonly ranks: {
    readonly lexical1: Int32Array;
    readonly dense1: Int32Array;
    readonly lexical2: Int32Array;
    readonly dense2: Int32Array;
  };
  /** Per bit width: the quantised router. */
  readonly quantised: readonly QuantisedRouting[];
}

/** Only items ranked in the top M by some ranker can be fused top-2 (M ≥ k suffices; see below). */
const TOP = 72;
/** The gold skill's relevance boost is drawn from U(MU_LO, MU_HI). */
const MU_LO = 6;
const MU_HI = 12;
/** Dense scores are quantised on [−DENSE_RANGE, DENSE_RANGE]. */
const DENSE_RANGE = 8;

/**
 * Route queries over a synthetic catalog of N skills with two rankers fused
 * by RRF, and quantise the dense ranker.
 *
 * Every skill has a latent relevance to the query, N(0, 1); the gold skill
 * gets a boost μ ~ U(6, 12), and one sibling skill (a near-duplicate, the
 * source's "paired skills with swapped roles") a boost ρ·μ with ρ ~ U(0, 1).
 * The BM25-like ranker sees relevance plus N(0, σ_lex²), the dense-like one
 * relevance plus N(0, σ_dense²); their ranks are fused by RRF (k = 60) and
 * the top skill is executed. The margin is the fused top-1 minus top-2
 * score; the query is an error when the top skill is not the gold one.
 * Quantising the dense scores to b bits on [−8, 8] (ties ordered by skill
 * index, as a stable sort would) moves dense ranks; the run records each
 * query's largest move of the top two items, the top-1 flips it causes and
 * the quantised margin. Only items in some ranker's top 72 are fused: an
 * item outside both top-72 lists scores at most 2/(k + 73), below the
 * runner-up's floor 1/(k + 2) + 1/(k + N) whenever k ≤ 70. Cost: O(queries
 * × N log N).
 *
 * @param options Catalog size, queries, k, bit widths, noise levels and seed.
 * @returns Per-query columns for full precision and each bit width.
 * @throws {RangeError} When a size is too small, k exceeds 70, a bit width is outside [1, 16] or a noise level is negative.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { simulateSkillCatalog } from "./skill_catalog.ts";
 *
 * const run = simulateSkillCatalog({ skills: 300, queries: 200, bits: [4], seed: 1 });
 * assert.equal(run.margin.length, 200);
 * assert.ok(run.margin.every((m) => m >= 0 && m <= 2 / 61));
 * const errors = run.error.reduce((a, b) => a + b, 0);
 * assert.ok(errors > 0 && errors < 200);
 * assert.deepEqual(simulateSkillCatalog({ skills: 300, queries: 200, bits: [4], seed: 1 }).margin, run.margin);
 * ```
 */
export function simulateSkillCatalog(
  options: SkillCatalogOptions = {},
): SkillRoutingRun {
  const what = "Cannot simulate a skill catalog";
  const N = options.skills ?? 2000;
  const Q = options.queries ?? 1000;
  const k = options.k ?? 60;
  const bits = options.bits ?? [10, 8, 7, 6];
  const sLex = options.lexicalNoise ?? 0.9;
  const sDense = options.denseNoise ?? 0.7;
  if (!Number.isInteger(N) || N < TOP + 2) {
    throw new RangeError(
      `${what}: skills must be an integer >= ${TOP + 2}, got ${N}`,
    );
  }
  if (!Number.isInteger(Q) || Q < 1) {
    throw new RangeError(`${what}: queries must be an integer >= 1, got ${Q}`);
  }
  if (!(k > 0 && k <= 70)) {
    throw new RangeError(`${what}: k must be in (0, 70], got ${k}`);
  }
  for (const b of bits) {
    if (!Number.isInteger(b) || b < 1 || b > 16) {
      throw new RangeError(
        `${what}: bit widths must be integers in [1, 16], got ${b}`,
      );
    }
  }
  for (
    const [name, v] of [["lexicalNoise", sLex], ["denseNoise", sDense]] as const
  ) {
    if (!(v >= 0) || !Number.isFinite(v)) {
      throw new RangeError(
        `${what}: ${name} must be a finite number >= 0, got ${v}`,
      );
    }
  }
  const prng = options.prng ?? seededPrng(options.seed ?? 0);
  let spare: number | null = null;
  const gauss = (): number => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    for (;;) {
      const u = 2 * prng.next() - 1;
      const v = 2 * prng.next() - 1;
      const s = u * u + v * v;
      if (s === 0 || s >= 1) continue;
      const f = Math.sqrt((-2 * Math.log(s)) / s);
      spare = v * f;
      return u * f;
    }
  };
  const g = (r: number) => 1 / (k + r);
  const lexScale = Math.sqrt(1 + sLex * sLex);
  const denseLoad = 1 / lexScale;
  const denseRest = Math.sqrt(1 + sDense * sDense - denseLoad * denseLoad);
  const gold = new Int32Array(Q);
  const top1 = new Int32Array(Q);
  const margin = new Float64Array(Q);
  const error = new Uint8Array(Q);
  const ranks = {
    lexical1: new Int32Array(Q),
    dense1: new Int32Array(Q),
    lexical2: new Int32Array(Q),
    dense2: new Int32Array(Q),
  };
  const quantised = bits.map((b) => ({
    bits: b,
    step: (2 * DENSE_RANGE) / ((1 << b) - 1),
    rankShift: new Int32Array(Q),
    candidateShift: new Int32Array(Q),
    maxRankShift: 0,
    top1Changed: new Uint8Array(Q),
    margin: new Float64Array(Q),
    error: new Uint8Array(Q),
  }));
  const lex = new Float64Array(N);
  const dense = new Float64Array(N);
  const sortedLex = new Float64Array(N);
  const sortedDense = new Float64Array(N);
  const cand: number[] = [];
  const qCand: number[] = [];
  const inCand = new Uint8Array(N);
  const lexRank = new Int32Array(N);
  const denseRank = new Int32Array(N);
  const qRank = new Int32Array(N);
  const level = new Int32Array(N);
  for (let q = 0; q < Q; q++) {
    const gq = Math.min(N - 1, Math.floor(prng.next() * N));
    let sib = Math.min(N - 2, Math.floor(prng.next() * (N - 1)));
    if (sib >= gq) sib++;
    const mu = MU_LO + (MU_HI - MU_LO) * prng.next();
    const rho = prng.next();
    // background: relevance r ~ N(0, 1) shared by both rankers, drawn as a
    // correlated pair: lex = r + σ_lex·z, dense = r + σ_dense·z'
    for (let j = 0; j < N; j++) {
      const z1 = gauss();
      const z2 = gauss();
      lex[j] = lexScale * z1;
      dense[j] = denseLoad * z1 + denseRest * z2;
    }
    lex[gq] += mu;
    dense[gq] += mu;
    lex[sib] += rho * mu;
    dense[sib] += rho * mu;
    // exact ranks for the candidates only: items in some ranker's top TOP
    sortedLex.set(lex);
    sortedLex.sort();
    sortedDense.set(dense);
    sortedDense.sort();
    const thrLex = sortedLex[N - TOP];
    const thrDense = sortedDense[N - TOP];
    cand.length = 0;
    inCand.fill(0);
    for (let j = 0; j < N; j++) {
      if (lex[j] >= thrLex || dense[j] >= thrDense) {
        cand.push(j);
        inCand[j] = 1;
        lexRank[j] = _rankIn(sortedLex, lex[j]);
        denseRank[j] = _rankIn(sortedDense, dense[j]);
      }
    }
    const [a, b2, ma] = _fuseTop2(cand, lexRank, denseRank, g);
    gold[q] = gq;
    top1[q] = a;
    margin[q] = ma;
    error[q] = a === gq ? 0 : 1;
    ranks.lexical1[q] = lexRank[a];
    ranks.dense1[q] = denseRank[a];
    ranks.lexical2[q] = lexRank[b2];
    ranks.dense2[q] = denseRank[b2];
    for (const qz of quantised) {
      const levels = (1 << qz.bits) - 1;
      for (let j = 0; j < N; j++) {
        const x = Math.min(DENSE_RANGE, Math.max(-DENSE_RANGE, dense[j]));
        level[j] = Math.round(((x + DENSE_RANGE) / (2 * DENSE_RANGE)) * levels);
      }
      _ranksOfLevels(level, levels, qRank);
      qCand.length = 0;
      for (const j of cand) qCand.push(j);
      for (let j = 0; j < N; j++) {
        if (qRank[j] <= TOP && inCand[j] === 0) {
          qCand.push(j);
          lexRank[j] = _rankIn(sortedLex, lex[j]);
          denseRank[j] = _rankIn(sortedDense, dense[j]);
        }
      }
      const [qa, , qm] = _fuseTop2(qCand, lexRank, qRank, g);
      qz.top1Changed[q] = qa === a ? 0 : 1;
      qz.margin[q] = qm;
      qz.error[q] = qa === gq ? 0 : 1;
      const shift = Math.max(
        Math.abs(qRank[a] - denseRank[a]),
        Math.abs(qRank[b2] - denseRank[b2]),
      );
      qz.rankShift[q] = shift;
      let widest = shift;
      for (const j of qCand) {
        widest = Math.max(widest, Math.abs(qRank[j] - denseRank[j]));
      }
      qz.candidateShift[q] = widest;
      if (shift > qz.maxRankShift) qz.maxRankShift = shift;
    }
  }
  return {
    skills: N,
    queries: Q,
    k,
    seed: prng.seed,
    gold,
    top1,
    margin,
    error,
    ranks,
    quantised,
  };
}

/** 1-based rank of v among ascending sorted scores, highest first: 1 + the number above it. */
function _rankIn(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo + 1;
}

/** 1-based ranks of integer levels, highest first, ties by index (counting sort). */
function _ranksOfLevels(
  level: Int32Array,
  maxLevel: number,
  rank: Int32Array,
): void {
  const count = new Int32Array(maxLevel + 2);
  for (let j = 0; j < level.length; j++) count[level[j]]++;
  // start rank of each level, from the top level down
  const start = new Int32Array(maxLevel + 2);
  let r = 1;
  for (let l = maxLevel; l >= 0; l--) {
    start[l] = r;
    r += count[l];
  }
  for (let j = 0; j < level.length; j++) rank[j] = start[level[j]]++;
}

/** The fused top two among the candidates, and their margin. */
function _fuseTop2(
  items: readonly number[],
  a: Int32Array,
  b: Int32Array,
  g: (r: number) => number,
): [number, number, number] {
  let best = -1;
  let bestScore = -Infinity;
  let second = -1;
  let secondScore = -Infinity;
  for (const j of items) {
    const s = g(a[j]) + g(b[j]);
    if (s > bestScore || (s === bestScore && j < best)) {
      second = best;
      secondScore = bestScore;
      best = j;
      bestScore = s;
    } else if (s > secondScore || (s === secondScore && j < second)) {
      second = j;
      secondScore = s;
    }
  }
  return [best, second, bestScore - secondScore];
}
