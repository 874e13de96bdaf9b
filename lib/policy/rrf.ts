/**
 * Reciprocal rank fusion and its top-1 margin.
 *
 * @module
 */

/** Options for reciprocal rank fusion. */
export interface RrfOptions {
  /** The RRF constant k, > 0. Default: 60 (Cormack, Clarke & Büttcher 2009). */
  k?: number;
}

/** One fused item. */
export interface FusedItem {
  /** Item id. */
  readonly id: string;
  /** Fused score Σ 1/(k + rank) over the rankings that list it. */
  readonly score: number;
  /** Its 1-based rank in each ranking; `null` where a ranking does not list it. */
  readonly ranks: readonly (number | null)[];
}

function _k(what: string, options: RrfOptions): number {
  const k = options.k ?? 60;
  if (!(k > 0) || !Number.isFinite(k)) {
    throw new RangeError(
      `Cannot compute ${what}: k must be a finite number > 0, got ${k}`,
    );
  }
  return k;
}

/**
 * The RRF score of an item from its 1-based ranks: Σ 1/(k + rank).
 *
 * @param ranks The item's rank in each ranking, integers >= 1.
 * @param options The constant k. Default: 60.
 * @returns The fused score.
 * @throws {RangeError} When a rank is not an integer >= 1 or k is not positive.
 *
 * @example First in both of two rankings, k = 60
 * ```ts
 * import assert from "node:assert/strict";
 * import { rrfScore } from "./rrf.ts";
 *
 * assert.equal(rrfScore([1, 1]), 2 / 61);
 * ```
 */
export function rrfScore(
  ranks: readonly number[],
  options: RrfOptions = {},
): number {
  const k = _k("an RRF score", options);
  let s = 0;
  for (const r of ranks) {
    if (!Number.isInteger(r) || r < 1) {
      throw new RangeError(
        `Cannot compute an RRF score: ranks must be integers >= 1, got ${r}`,
      );
    }
    s += 1 / (k + r);
  }
  return s;
}

/**
 * Reciprocal rank fusion of rankings (Cormack, Clarke & Büttcher 2009).
 *
 * Each ranking lists item ids, best first; an item's fused score is
 * Σ 1/(k + rank) over the rankings that list it (a ranking that omits it
 * adds nothing). Only ranks enter, never the rankers' scores, which is why
 * the top-1 margin lives on a finite lattice (see `rrfMarginLattice`). Equal
 * scores are ordered by id. Cost: O(total listed × log).
 *
 * @param rankings Item ids per ranking, best first; ids must be unique within a ranking.
 * @param options The constant k. Default: 60.
 * @returns Every listed item, by fused score descending.
 * @throws {RangeError} When k is not positive.
 * @throws {TypeError} When a ranking lists an id twice.
 *
 * @example A lexical and a dense ranker disagree on the top skill
 * ```ts
 * import assert from "node:assert/strict";
 * import { reciprocalRankFusion, rrfMargin } from "./rrf.ts";
 *
 * const fused = reciprocalRankFusion([["pay", "refund", "fx"], ["refund", "pay", "fx"]]);
 * assert.deepEqual(fused.map((f) => f.id), ["pay", "refund", "fx"]);
 * assert.equal(rrfMargin(fused), 0); // (1, 2) against (2, 1): a tie
 * ```
 */
export function reciprocalRankFusion(
  rankings: readonly (readonly string[])[],
  options: RrfOptions = {},
): FusedItem[] {
  const k = _k("a reciprocal rank fusion", options);
  const ranks = new Map<string, (number | null)[]>();
  rankings.forEach((ranking, r) => {
    const seen = new Set<string>();
    ranking.forEach((id, i) => {
      if (seen.has(id)) {
        throw new TypeError(
          `Cannot fuse rankings: ranking ${r} lists ${
            JSON.stringify(id)
          } twice`,
        );
      }
      seen.add(id);
      let entry = ranks.get(id);
      if (!entry) {
        entry = new Array(rankings.length).fill(null);
        ranks.set(id, entry);
      }
      entry[r] = i + 1;
    });
  });
  const out: FusedItem[] = [];
  for (const [id, rs] of ranks) {
    let score = 0;
    for (const r of rs) if (r !== null) score += 1 / (k + r);
    out.push({ id, score, ranks: rs });
  }
  return out.sort((a, b) =>
    b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * The RRF margin: the fused score of the top item minus the runner-up's,
 * the only per-query confidence a rank-fusion router has.
 *
 * @param fused Fused items by score descending, as from {@linkcode reciprocalRankFusion}.
 * @returns The margin, or `null` when fewer than two items are fused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reciprocalRankFusion, rrfMargin } from "./rrf.ts";
 *
 * // first in both against second in both: 2/((k+1)(k+2)) at k = 60
 * const m = rrfMargin(reciprocalRankFusion([["a", "b"], ["a", "b"]]))!;
 * assert.ok(Math.abs(m - 2 / (61 * 62)) < 1e-15);
 * ```
 */
export function rrfMargin(fused: readonly FusedItem[]): number | null {
  return fused.length < 2 ? null : fused[0].score - fused[1].score;
}
