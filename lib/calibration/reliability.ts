/**
 * Reliability diagrams: per-bin mean stated confidence against observed
 * accuracy, with the edges and counts that make a bin readable.
 *
 * @module
 */

import { _checkProbabilities } from "./_columns.ts";
import { _binSums, _diagramFromSums } from "./_bin_sums.ts";
import { binEdges, type BinningOptions, type BinStrategy } from "./binning.ts";

/** One bin of a reliability diagram. */
export interface ReliabilityBin {
  /** Lower edge (exclusive, except for the first bin). */
  readonly lo: number;
  /** Upper edge (inclusive). */
  readonly hi: number;
  /** Decisions in the bin. */
  readonly n: number;
  /** Mean stated probability in the bin; `null` when the bin is empty. */
  readonly meanConfidence: number | null;
  /** Share of outcomes equal to 1 in the bin; `null` when the bin is empty. */
  readonly accuracy: number | null;
  /** `accuracy - meanConfidence`: negative when over-confident; `null` when empty. */
  readonly gap: number | null;
}

/** What every binned result records, so that it can be read and repeated. */
export interface BinnedResult {
  /** Edge strategy. */
  readonly strategy: BinStrategy;
  /** Bins requested. */
  readonly binsRequested: number;
  /** Edges used, ascending, 0 first and 1 last (right-closed bins). */
  readonly edges: readonly number[];
  /** Bins holding at least one decision. */
  readonly nonEmptyBins: number;
  /** Decisions. */
  readonly n: number;
}

/** A reliability diagram: every bin, empty ones included, and the ECE and MCE they give. */
export interface ReliabilityDiagram extends BinnedResult {
  /** One entry per bin, in edge order. */
  readonly bins: readonly ReliabilityBin[];
  /** Expected calibration error; `null` when there are no decisions. */
  readonly ece: number | null;
  /** Maximum calibration error over non-empty bins; `null` when there are no decisions. */
  readonly mce: number | null;
}

/**
 * The reliability diagram of stated probabilities against 0/1 outcomes.
 *
 * Decisions are binned by their stated probability (see
 * {@linkcode binEdges} for the right-closed convention); each bin reports
 * its mean stated probability and the share of outcomes that came true. A
 * calibrated model sits on the diagonal. ECE is the count-weighted mean of
 * |accuracy − mean confidence| over bins (Naeini et al. 2015; Guo et al.
 * 2017), MCE the largest of them. Cost: O(n), or O(n log n) for equal-mass.
 *
 * @param p Stated probabilities in [0, 1], for example pCorrect.
 * @param y Outcomes, 1 when the stated event happened (the answer was correct).
 * @param options Bins (default 10) and strategy (default equal-width).
 * @returns Every bin with its edges and count, and the ECE and MCE.
 * @throws {RangeError} When a probability is outside [0, 1], an outcome is not 0 or 1, or `bins` < 1.
 * @throws {TypeError} When `p` and `y` differ in length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reliabilityDiagram } from "./reliability.ts";
 *
 * const d = reliabilityDiagram([0.9, 0.9, 0.9, 0.9, 0.2], [1, 1, 1, 0, 0], { bins: 5 });
 * assert.equal(d.nonEmptyBins, 2);
 * assert.deepEqual(d.bins[4], { lo: 0.8, hi: 1, n: 4, meanConfidence: 0.9, accuracy: 0.75, gap: -0.15000000000000002 });
 * // (4/5)·0.15 + (1/5)·0.2
 * assert.ok(Math.abs(d.ece! - 0.16) < 1e-12);
 * assert.ok(Math.abs(d.mce! - 0.2) < 1e-12);
 * ```
 */
export function reliabilityDiagram(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  options: BinningOptions = {},
): ReliabilityDiagram {
  _checkProbabilities("a reliability diagram", p, y);
  const strategy = options.strategy ?? "equal-width";
  const binsRequested = options.bins ?? 10;
  const edges = binEdges(p, { bins: binsRequested, strategy });
  const sums = _binSums(p, y, edges);
  return _diagramFromSums(
    strategy,
    binsRequested,
    edges,
    sums.count,
    sums.sumP,
    sums.sumY,
  );
}
