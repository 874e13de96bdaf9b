/**
 * A ranking with tie groups from pairwise tests: Holm's step-down
 * adjustment of the pairs' p-values, each pair's verdict (the adjusted test
 * and, where given, an interval of the difference that must exclude zero),
 * the compact letter display of the pairs told apart (the insert-absorb
 * algorithm), and each model's rank interval.
 *
 * @module
 */

/**
 * Holm's step-down adjustment of m p-values (`holm-1979`): sorted
 * ascending, the k-th smallest (k from 1) becomes the running maximum of
 * min(1, (m − k + 1) × p). A hypothesis is rejected at level alpha when its
 * adjusted p-value is at most alpha, which keeps the family-wise error rate
 * at alpha under any dependence between the tests. Equal p-values keep
 * their input order. O(m log m).
 *
 * @param pValues The raw p-values, each in [0, 1].
 * @returns The adjusted p-values, in the input's order.
 * @throws {RangeError} When a p-value is not in [0, 1].
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holmAdjust } from "./ranking.ts";
 *
 * // sorted: 0.01 x 3 = 0.03, then 0.02 x 2 = 0.04, then 0.04 x 1 (the running maximum, 0.04)
 * assert.deepEqual(holmAdjust([0.04, 0.01, 0.02]), [0.04, 0.03, 0.04]);
 * assert.deepEqual(holmAdjust([]), []);
 * ```
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  pValues.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) {
      throw new RangeError(
        `Cannot adjust p-values: p-value ${i} must be in [0, 1], got ${p}`,
      );
    }
  });
  const m = pValues.length;
  const order = pValues.map((_, i) => i).sort((x, y) =>
    pValues[x] - pValues[y] || x - y
  );
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((i, k) => {
    running = Math.max(running, Math.min(1, (m - k) * pValues[i]));
    adjusted[i] = running;
  });
  return adjusted;
}

// a, b, ..., z, then aa, ab, ...: the name of the k-th letter (from 0)
function letterName(k: number): string {
  let name = "";
  let rest = k;
  do {
    name = String.fromCharCode(97 + (rest % 26)) + name;
    rest = Math.floor(rest / 26) - 1;
  } while (rest >= 0);
  return name;
}

/**
 * The compact letter display of items some pairs of which are told apart,
 * by the insert-absorb algorithm (`piepho-2004`): start with one letter
 * shared by all; for each pair told apart, split every letter holding both
 * into one without the first and one without the second (insert), then drop
 * every letter whose items are all under another letter (absorb). Two items
 * share a letter exactly when they are not told apart. Letters are named in
 * the order of their first item, so with items listed best first, `a` is
 * the best item's group.
 *
 * @param n Number of items, listed in display order.
 * @param apart The pairs told apart, as item indices.
 * @returns Each item's letters, in name order.
 * @throws {RangeError} When a pair names an item outside [0, n) or an item twice.
 *
 * @example Three items: the first two not told apart, the third apart from the first
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactLetters } from "./ranking.ts";
 *
 * assert.deepEqual(compactLetters(3, [[0, 2]]), [["a"], ["a", "b"], ["b"]]);
 * assert.deepEqual(compactLetters(2, []), [["a"], ["a"]]);
 * ```
 */
export function compactLetters(
  n: number,
  apart: readonly (readonly [number, number])[],
): string[][] {
  let columns: number[][] = n === 0
    ? []
    : [Array.from({ length: n }, (_, i) => i)];
  for (const [i, j] of apart) {
    if (
      !Number.isInteger(i) || !Number.isInteger(j) || i < 0 || j < 0 ||
      i >= n || j >= n || i === j
    ) {
      throw new RangeError(
        `Cannot make letters: the pair [${i}, ${j}] must name two items of ${n}`,
      );
    }
    const inserted = columns.flatMap((c) =>
      c.includes(i) && c.includes(j)
        ? [c.filter((x) => x !== i), c.filter((x) => x !== j)]
        : [c]
    );
    columns = absorb(inserted);
  }
  // name the letters in the order of their items (each column is sorted)
  columns.sort((x, y) => {
    for (let k = 0; k < Math.min(x.length, y.length); k++) {
      if (x[k] !== y[k]) return x[k] - y[k];
    }
    return x.length - y.length;
  });
  const letters: string[][] = Array.from({ length: n }, () => []);
  columns.forEach((c, k) => {
    for (const i of c) letters[i].push(letterName(k));
  });
  return letters;
}

// Drop every column whose items are all in another column (of two equal
// columns, the later one), and empty columns.
function absorb(columns: readonly number[][]): number[][] {
  const sets = columns.map((c) => new Set(c));
  return columns.filter((c, k) =>
    c.length > 0 &&
    !sets.some((s, l) =>
      l !== k && s.size >= c.length && c.every((x) => s.has(x)) &&
      (s.size > c.length || l < k)
    )
  );
}

/**
 * Whether an interval of a difference lies wholly on the side of zero the
 * difference is on: below 0 when it is negative, above 0 when positive.
 * An interval with an unknown bound, or a difference of 0, excludes
 * nothing.
 *
 * @param interval The interval's bounds.
 * @param difference The point estimate whose side counts.
 * @returns True when the interval excludes zero on that side.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { excludesZero } from "./ranking.ts";
 *
 * assert.equal(excludesZero({ lo: -5, hi: -1 }, -3), true);
 * assert.equal(excludesZero({ lo: -5, hi: 2 }, -3), false);
 * assert.equal(excludesZero({ lo: 1, hi: 4 }, -3), false);
 * ```
 */
export function excludesZero(
  interval: { readonly lo: number | null; readonly hi: number | null },
  difference: number,
): boolean {
  const { lo, hi } = interval;
  if (lo === null || hi === null) return false;
  return difference < 0 ? hi < 0 : difference > 0 ? lo > 0 : false;
}

/** One pair's test, as {@linkcode rankModels} reads it. */
export interface PairTest {
  /** Index of the first model. */
  readonly a: number;
  /** Index of the second model. */
  readonly b: number;
  /** The loss of `a` minus the loss of `b`: its sign says which is better. */
  readonly difference: number;
  /** The two-sided p-value of the pair's test. */
  readonly pValue: number;
  /**
   * An interval of the loss difference (`a` minus `b`), bounds null when
   * unknown. When given, the pair is told apart only when the interval
   * lies wholly on the side of `difference` (below 0 when it is negative,
   * above 0 when positive); when absent, the test alone decides.
   */
  readonly interval?: {
    readonly lo: number | null;
    readonly hi: number | null;
  };
}

/** One model's place in {@linkcode rankModels}'s ranking. */
export interface RankedModel {
  /** The model's index, as given. */
  readonly model: number;
  /** Its position, from 1 (lowest loss); ties in loss go by index. */
  readonly position: number;
  /** Its compact letters: models sharing a letter are not told apart. */
  readonly groups: readonly string[];
  /** Lowest rank it can hold: 1 + the models significantly better. */
  readonly rankLo: number;
  /** Highest rank it can hold: n − the models significantly worse. */
  readonly rankHi: number;
  /** Models significantly worse, by index, in ranking order. */
  readonly betterThan: readonly number[];
  /** Models significantly better, by index, in ranking order. */
  readonly worseThan: readonly number[];
}

/** What {@linkcode rankModels} returns. */
export interface Ranking {
  /** The models, lowest loss first. */
  readonly ranking: readonly RankedModel[];
  /** Each pair's Holm-adjusted p-value, in the pairs' order. */
  readonly adjusted: readonly number[];
  /** Per pair, the model declared better (index), or null when not told apart. */
  readonly better: readonly (number | null)[];
}

/**
 * Rank models by loss, with the tie groups the pairwise tests allow: the
 * pairs' p-values are Holm-adjusted ({@linkcode holmAdjust}); a pair is
 * told apart when its adjusted p-value is at most `alpha` and, where the
 * pair gives an interval of the difference, that interval excludes zero on
 * the side of the difference; the model with the lower loss is declared
 * better (a difference of exactly 0 is never told apart). Requiring both
 * can only withhold verdicts the test alone would give. Each model gets its compact letters ({@linkcode compactLetters},
 * in ranking order) and its rank interval [1 + the models significantly
 * better, n − the models significantly worse].
 *
 * @param losses Each model's loss (lower is better).
 * @param pairs The tests of some or all pairs.
 * @param alpha Family-wise level, in (0, 1).
 * @returns The ranking, the adjusted p-values and each pair's verdict.
 * @throws {RangeError} When alpha is not in (0, 1) or a pair names an unknown model.
 *
 * @example Three models: the first two not told apart
 * ```ts
 * import assert from "node:assert/strict";
 * import { rankModels } from "./ranking.ts";
 *
 * const r = rankModels([10, 12, 30], [
 *   { a: 0, b: 1, difference: -2, pValue: 0.6 },
 *   { a: 0, b: 2, difference: -20, pValue: 0.001 },
 *   { a: 1, b: 2, difference: -18, pValue: 0.004 },
 * ], 0.05);
 * assert.deepEqual(r.ranking.map((m) => m.groups.join("")), ["a", "a", "b"]);
 * assert.deepEqual(r.ranking.map((m) => [m.rankLo, m.rankHi]), [[1, 2], [1, 2], [3, 3]]);
 * assert.deepEqual(r.better, [null, 0, 1]);
 * ```
 */
export function rankModels(
  losses: readonly number[],
  pairs: readonly PairTest[],
  alpha: number,
): Ranking {
  if (!(alpha > 0 && alpha < 1)) {
    throw new RangeError(
      `Cannot rank models: alpha must be in (0, 1), got ${alpha}`,
    );
  }
  const n = losses.length;
  const order = losses.map((_, i) => i).sort((x, y) =>
    losses[x] - losses[y] || x - y
  );
  const position = new Array<number>(n);
  order.forEach((m, k) => position[m] = k);
  const adjusted = holmAdjust(pairs.map((p) => p.pValue));
  const better = pairs.map((p, k) => {
    if (
      !(p.a >= 0 && p.a < n && p.b >= 0 && p.b < n && p.a !== p.b) ||
      !Number.isInteger(p.a) || !Number.isInteger(p.b)
    ) {
      throw new RangeError(
        `Cannot rank models: pair ${k} must name two of the ${n} models, got ${p.a} and ${p.b}`,
      );
    }
    if (!(adjusted[k] <= alpha) || p.difference === 0) return null;
    if (p.interval !== undefined && !excludesZero(p.interval, p.difference)) {
      return null;
    }
    return p.difference < 0 ? p.a : p.b;
  });
  const beats: number[][] = Array.from({ length: n }, () => []);
  const beaten: number[][] = Array.from({ length: n }, () => []);
  const apart: [number, number][] = [];
  pairs.forEach((p, k) => {
    const w = better[k];
    if (w === null) return;
    const l = w === p.a ? p.b : p.a;
    beats[w].push(l);
    beaten[l].push(w);
    apart.push([position[p.a], position[p.b]]);
  });
  const letters = compactLetters(n, apart);
  const byPosition = (x: number, y: number) => position[x] - position[y];
  return {
    ranking: order.map((m, k) => ({
      model: m,
      position: k + 1,
      groups: letters[k],
      rankLo: 1 + beaten[m].length,
      rankHi: n - beats[m].length,
      betterThan: [...beats[m]].sort(byPosition),
      worseThan: [...beaten[m]].sort(byPosition),
    })),
    adjusted,
    better,
  };
}
