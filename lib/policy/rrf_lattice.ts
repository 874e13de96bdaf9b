/**
 * The RRF margin lattice: the exact range and resolution of the margin of
 * two fused rankings, and how far a rank move can erode it.
 *
 * @module
 */

/** Options for the lattice functions. */
export interface LatticeOptions {
  /** Candidates N ranked by each ranker, an integer >= 2. Default: 2,000. */
  candidates?: number;
  /** The RRF constant k > 0. Default: 60. */
  k?: number;
}

/** The structural facts of the RRF margin of two rankers. */
export interface MarginLattice {
  /** Candidates N. */
  readonly candidates: number;
  /** RRF constant k. */
  readonly k: number;
  /**
   * The Veto Frontier's bound on the margin, 2/(k+1) − 2/(k+N): the top item
   * first in both rankings and the runner-up last in both (0.0318 at k = 60,
   * N = 2,000).
   */
  readonly maxMarginBound: number;
  /**
   * The largest margin two rankings of N items can actually produce,
   * 2/(k+1) − 1/(k+2) − 1/(k+N): some item is second in one ranking, so
   * the runner-up scores at least 1/(k+2) + 1/(k+N); the reversed order
   * attains it.
   */
  readonly maxMarginAttainable: number;
  /** The margin when the top two are adjacent in both rankings, 2/((k+1)(k+2)) (0.00053). */
  readonly adjacentTop2: number;
  /**
   * The smallest positive margin when the top item is first in both
   * rankings: the runner-up second in both, so equal to `adjacentTop2`.
   * Below it the lattice has no point with an undisputed top item.
   */
  readonly smallestUndisputedMargin: number;
  /** Worst-case erosion per position of dense-rank movement, 2/(k+1)². */
  readonly erosionPerRank: number;
  /** An upper bound on the lattice's size: the rank tuples (a₁, b₁, a₂, b₂), N⁴. */
  readonly latticePointsBound: number;
}

function _check(
  what: string,
  options: LatticeOptions,
): { n: number; k: number } {
  const n = options.candidates ?? 2000;
  const k = options.k ?? 60;
  if (!Number.isInteger(n) || n < 2) {
    throw new RangeError(
      `Cannot compute ${what}: candidates must be an integer >= 2, got ${n}`,
    );
  }
  if (!(k > 0) || !Number.isFinite(k)) {
    throw new RangeError(
      `Cannot compute ${what}: k must be a finite number > 0, got ${k}`,
    );
  }
  return { n, k };
}

/**
 * The margin lattice of reciprocal rank fusion over two rankers.
 *
 * The RRF margin is a function of four rank integers, the two rankers'
 * ranks of the top item and of the runner-up, so it takes at most N⁴
 * values and any risk-coverage curve on it is a step function (The Veto
 * Frontier, `veto-frontier`). The source's range, 2/(k+1) − 2/(k+N) =
 * 0.0318 at k = 60, N = 2,000, assumes the runner-up can be last in both
 * rankings; it cannot (some item is second in each), so the attainable
 * maximum is 2/(k+1) − 1/(k+2) − 1/(k+N) ≈ 0.0162, half of it. The
 * adjacent top-2 margin 2/((k+1)(k+2)) ≈ 0.00053 is the smallest margin an
 * undisputed top item can have: the lattice is coarsest exactly where a
 * veto threshold cuts. Cost: O(1).
 *
 * @param options Candidates N (default 2,000) and k (default 60).
 * @returns The lattice's range, resolution and erosion rate.
 * @throws {RangeError} When N < 2 or k is not positive.
 *
 * @example The Veto Frontier's figures
 * ```ts
 * import assert from "node:assert/strict";
 * import { rrfMarginLattice } from "./rrf_lattice.ts";
 *
 * const l = rrfMarginLattice({ candidates: 2000, k: 60 });
 * assert.ok(Math.abs(l.maxMarginBound - 0.0318) < 5e-5);
 * assert.ok(Math.abs(l.adjacentTop2 - 0.00053) < 5e-6);
 * assert.ok(l.maxMarginAttainable < l.maxMarginBound);
 * ```
 */
export function rrfMarginLattice(options: LatticeOptions = {}): MarginLattice {
  const { n, k } = _check("an RRF margin lattice", options);
  const g = (r: number) => 1 / (k + r);
  return {
    candidates: n,
    k,
    maxMarginBound: 2 * g(1) - 2 * g(n),
    maxMarginAttainable: 2 * g(1) - g(2) - g(n),
    adjacentTop2: 2 / ((k + 1) * (k + 2)),
    smallestUndisputedMargin: 2 * g(1) - 2 * g(2),
    erosionPerRank: 2 / ((k + 1) * (k + 1)),
    latticePointsBound: n ** 4,
  };
}

/**
 * The Veto Frontier's first-order bound on margin erosion: if quantisation
 * moves the dense rank of each of the top two items by at most d positions,
 * the RRF margin falls by at most 2d/(k+1)².
 *
 * Each item's dense term 1/(k + r) changes by at most d/((k+1)(k+1+d)) <
 * d/(k+1)² when r moves by d (the derivative of 1/(k + r) is largest at
 * r = 1), and the margin is a difference of two such terms plus unchanged
 * lexical ones. The bound covers any challenger, not only the runner-up:
 * every other item trails the top by at least the margin. Cost: O(1).
 *
 * @param rankShift d, the largest dense-rank move, an integer >= 0.
 * @param options The constant k. Default: 60.
 * @returns 2d/(k+1)².
 * @throws {RangeError} When d is not an integer >= 0 or k is not positive.
 *
 * @example One position at k = 60 erodes about one two-thousandth
 * ```ts
 * import assert from "node:assert/strict";
 * import { rrfErosionBound } from "./rrf_lattice.ts";
 *
 * assert.ok(Math.abs(rrfErosionBound(1) - 2 / 3721) < 1e-15);
 * assert.ok(rrfErosionBound(1) > 1 / 2000 && rrfErosionBound(1) < 1 / 1800);
 * ```
 */
export function rrfErosionBound(
  rankShift: number,
  options: Pick<LatticeOptions, "k"> = {},
): number {
  const { k } = _check("an RRF erosion bound", { k: options.k });
  if (!Number.isInteger(rankShift) || rankShift < 0) {
    throw new RangeError(
      `Cannot compute an RRF erosion bound: rankShift must be an integer >= 0, got ${rankShift}`,
    );
  }
  return (2 * rankShift) / ((k + 1) * (k + 1));
}

/**
 * The exact worst-case margin erosion when each of the top two items'
 * dense ranks moves by at most d: 2d/((k+1)(k+1+d)), reached when the top
 * item falls from dense rank 1 to 1 + d and the runner-up rises from 1 + d
 * to 1. Strictly below the first-order bound 2d/(k+1)², and for d = 1 equal
 * to the adjacent top-2 margin: one position of movement can erase the
 * most contested margin exactly. Cost: O(1).
 *
 * @param rankShift d, an integer >= 0.
 * @param options The constant k. Default: 60.
 * @returns The largest possible decrease of the margin.
 * @throws {RangeError} As {@linkcode rrfErosionBound}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rrfErosionBound, rrfWorstErosion } from "./rrf_lattice.ts";
 *
 * assert.ok(rrfWorstErosion(3) < rrfErosionBound(3));
 * assert.ok(Math.abs(rrfWorstErosion(1) - 2 / (61 * 62)) < 1e-15);
 * ```
 */
export function rrfWorstErosion(
  rankShift: number,
  options: Pick<LatticeOptions, "k"> = {},
): number {
  const { k } = _check("an RRF worst-case erosion", { k: options.k });
  if (!Number.isInteger(rankShift) || rankShift < 0) {
    throw new RangeError(
      `Cannot compute an RRF worst-case erosion: rankShift must be an integer >= 0, got ${rankShift}`,
    );
  }
  return (2 * rankShift) / ((k + 1) * (k + 1 + rankShift));
}
