/**
 * Confidence bins: equal-width and equal-mass edges, and the rule that puts
 * a probability in a bin.
 *
 * @module
 */

import { _checkInteger } from "./_columns.ts";

/**
 * How bin edges are chosen.
 *
 * - `equal-width`: edges at i·(1/B), i = 0..B, the last set to 1, exactly
 *   numpy's `linspace(0, 1, B + 1)` (scikit-learn's `"uniform"`);
 * - `equal-mass`: about n/B decisions per bin, moved so that equal
 *   probabilities never fall on both sides of an edge (ties stay together,
 *   so there may be fewer than B bins).
 */
export type BinStrategy = "equal-width" | "equal-mass";

/** The two strategies, in a fixed order. */
export const BIN_STRATEGIES: readonly BinStrategy[] = [
  "equal-width",
  "equal-mass",
];

/** Options shared by every binned statistic. */
export interface BinningOptions {
  /** Bins requested, an integer >= 1. Default: 10. */
  bins?: number;
  /** Edge strategy. Default: `"equal-width"`. */
  strategy?: BinStrategy;
}

/**
 * Equal-width bin edges on [0, 1], computed as numpy's `linspace(0, 1, B + 1)`
 * computes them, so they equal scikit-learn's `"uniform"` edges bit for bit.
 *
 * numpy (`numpy/core/function_base.py`) takes step = (stop − start) / (num −
 * 1) = 1/B, multiplies it by i, adds start and then sets the last edge to
 * stop. So edge i is i·(1/B), which is not always the double nearest i/B
 * (at B = 10, edge 3 is 0.30000000000000004, not 0.3), and edge B is
 * exactly 1. Cost: O(B).
 *
 * @param bins Number of bins, an integer >= 1.
 * @returns The B + 1 ascending edges, 0 first and 1 last.
 * @throws {RangeError} When `bins` is not an integer >= 1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { equalWidthEdges } from "./binning.ts";
 *
 * const e = equalWidthEdges(10);
 * assert.equal(e[3], 0.30000000000000004); // np.linspace(0, 1, 11)[3]
 * assert.equal(e[5], 0.5);
 * assert.equal(e[10], 1);
 * ```
 */
export function equalWidthEdges(bins: number): number[] {
  _checkInteger("bin edges", "bins", bins, 1);
  const step = (1 - 0) / bins;
  const edges = new Array<number>(bins + 1);
  for (let i = 0; i < bins; i++) edges[i] = i * step; // + start, which is 0
  edges[bins] = 1;
  return edges;
}

/**
 * The bin edges of a strategy for a column of probabilities.
 *
 * Bins are right-closed, (lo, hi], except the first, which also holds its
 * lower edge: a probability exactly on an inner edge goes to the lower bin.
 * That is the convention of scikit-learn's `calibration_curve`
 * (`np.searchsorted(edges[1:-1], p)`, side left) and of Guo et al. (2017).
 * Equal-width edges are {@linkcode equalWidthEdges}, bit for bit the edges
 * scikit-learn's `"uniform"` strategy uses. Equal-mass edges start at the cut after
 * round(i·n/B) sorted values; when that cut would separate two equal values
 * it moves to the nearest place between distinct values, and an inner edge
 * sits halfway between the two values it separates. The outer edges are
 * always 0 and 1. Cost: O(B) for equal-width, O(n log n) for equal-mass.
 *
 * @param p Probabilities in [0, 1] (only read for equal-mass).
 * @param options Bins (default 10) and strategy (default equal-width).
 * @returns Ascending edges, 0 first and 1 last; B + 1 of them for equal-width,
 * at most B + 1 for equal-mass.
 * @throws {RangeError} When `bins` is not an integer >= 1 or the strategy is unknown.
 *
 * @example Ties never straddle an equal-mass edge
 * ```ts
 * import assert from "node:assert/strict";
 * import { binEdges } from "./binning.ts";
 *
 * assert.deepEqual(binEdges([], { bins: 4 }), [0, 0.25, 0.5, 0.75, 1]);
 * // six values, three bins requested; the cut after two values would split the 0.5s
 * const edges = binEdges([0.1, 0.5, 0.5, 0.5, 0.9, 0.95], { bins: 3, strategy: "equal-mass" });
 * assert.deepEqual(edges, [0, 0.3, 0.7, 1]);
 * ```
 */
export function binEdges(
  p: ArrayLike<number>,
  options: BinningOptions = {},
): number[] {
  const bins = _checkInteger("bin edges", "bins", options.bins ?? 10, 1);
  const strategy = options.strategy ?? "equal-width";
  if (strategy === "equal-width") {
    return equalWidthEdges(bins);
  }
  if (strategy !== "equal-mass") {
    throw new RangeError(
      `Cannot compute bin edges: strategy must be equal-width or equal-mass, got ${
        JSON.stringify(strategy)
      }`,
    );
  }
  const sorted = Float64Array.from(p).sort();
  const n = sorted.length;
  const edges = [0];
  let last = 0; // values already in lower bins
  for (let i = 1; i < bins; i++) {
    const target = Math.round((i * n) / bins);
    const cut = _nearestCut(sorted, target, last);
    if (cut <= last || cut >= n) continue;
    const a = sorted[cut - 1];
    const b = sorted[cut];
    let mid = (a + b) / 2;
    if (!(mid < b)) mid = a;
    if (mid <= edges[edges.length - 1]) continue;
    edges.push(mid);
    last = cut;
  }
  edges.push(1);
  return edges;
}

/**
 * A cut position c (values sorted[0..c-1] below) at or next to `target`
 * with sorted[c-1] < sorted[c], strictly after `after`; n when none.
 */
function _nearestCut(sorted: Float64Array, target: number, after: number) {
  const n = sorted.length;
  const ok = (c: number) => c > after && c < n && sorted[c - 1] < sorted[c];
  for (let d = 0; d < n; d++) {
    const down = target - d;
    const up = target + d;
    if (down > after && ok(down)) return down;
    if (up < n && ok(up)) return up;
    if (down <= after && up >= n) break;
  }
  return n;
}

/**
 * The bin a probability falls in: the number of inner edges strictly below
 * it, so a value on an inner edge goes to the lower bin (right-closed bins,
 * as scikit-learn's `calibration_curve`). Cost: O(log B).
 *
 * @param edges Ascending edges, as from {@linkcode binEdges}.
 * @param value A probability.
 * @returns The bin index, in [0, edges.length - 2].
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { binEdges, binIndex } from "./binning.ts";
 *
 * const edges = binEdges([], { bins: 10 });
 * assert.equal(binIndex(edges, 0), 0);
 * assert.equal(binIndex(edges, 0.3), 2); // on the edge 0.3: the lower bin (0.2, 0.3]
 * assert.equal(binIndex(edges, 0.30001), 3);
 * assert.equal(binIndex(edges, 1), 9);
 * ```
 */
export function binIndex(edges: ArrayLike<number>, value: number): number {
  // binary search over the inner edges edges[1..B-1]
  let lo = 1;
  let hi = edges.length - 1; // first inner edge index >= value lies in [lo, hi]
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (edges[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
