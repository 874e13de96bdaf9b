/**
 * Rank-reversal distance: how far the cost vector must move, multiplicatively,
 * before the top model changes. A stability figure for a leaderboard.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import {
  compareLoss,
  costVector,
  denseRanks,
  lossesInto,
  prepare,
  SLOTS,
} from "./_prepared.ts";
import type { LossCoefficients, LossPer } from "./loss_coefficients.ts";

/** How far the top model is from losing its place. */
export interface RankReversal {
  /** The current loss winners (one unless they tie). */
  readonly winners: readonly string[];
  /** The model that first ties the winner as the costs move; `null` when none can. */
  readonly challenger: string | null;
  /**
   * The smallest factor f >= 1 such that moving every K(severity) by at most
   * a factor f (up or down) lets the challenger tie the winner: 1 when the
   * top is already tied, `Infinity` when no change of K can reverse it.
   */
  readonly factor: number;
  /** log10 of the factor: the distance in decades, the L∞ norm of the change of log10 K. */
  readonly log10Factor: number;
  /** K at the reversal: each severity moved up or down by the factor, or `null` when none exists. */
  readonly reversalK: Readonly<Record<Severity, number>> | null;
}

/** Options for {@linkcode rankReversalDistance}. */
export interface RankReversalOptions {
  /** Loss per decision or per run. Default: `"decision"`. */
  per?: LossPer;
}

/**
 * The smallest multiplicative change of the cost vector that changes the top
 * model.
 *
 * The distance between cost vectors K and K' is max over severities of
 * |log K'(s) − log K(s)|: the L∞ norm on log costs, so a distance of log f
 * allows every K(s) to move anywhere within [K(s)/f, K(s)·f] at once. The
 * review cost and fixed costs stay as they are; a severity with K = 0 stays
 * 0. For the winner W and a challenger C, the loss difference L_W − L_C is
 * linear in K, so over that box it is largest at the vertex that raises K
 * where W is charged more than C and lowers it where W is charged less:
 * P·f − N/f + R, with P and N those two weighted sums and R the difference of
 * review and fixed costs. The reversal factor is the root f ≥ 1 of
 * P·f² + R·f − N = 0, in closed form; the distance is the smallest over the
 * challengers. Exact up to the rounding of one square root.
 *
 * @param coefficients Loss coefficients, one per model.
 * @param profile The cost profile where the distance is measured.
 * @param options Per decision (default) or per run.
 * @returns The winner, the first challenger, the factor and the K where the reversal happens.
 * @throws {RangeError} When there are no models or a model has no decisions.
 *
 * @example Model A vs Model B of the Third Number under reconciliation
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { rankReversalDistance } from "./rank_reversal.ts";
 *
 * const zero = { CRITICAL: 0 };
 * const coefficients = [
 *   { modelId: "A", n: 800, correct: 784, K: { LOW: 2, MEDIUM: 4, HIGH: 10, ...zero }, review: 0, fixed: 0 },
 *   { modelId: "B", n: 800, correct: 738, K: { LOW: 20, MEDIUM: 40, HIGH: 2, ...zero }, review: 0, fixed: 0 },
 * ];
 * const rr = rankReversalDistance(coefficients, getProfile("reconciliation"));
 * assert.deepEqual([rr.winners, rr.challenger], [["B"], "A"]);
 * // B loses 64 and A 104.4. B is charged more on LOW and MEDIUM (18 x 0.2 + 36 x 1
 * // = 39.6) and less on HIGH (8 x 10 = 80): they tie when 39.6 f = 80 / f.
 * assert.ok(Math.abs(rr.factor - Math.sqrt(80 / 39.6)) < 1e-12);
 * assert.ok(Math.abs(rr.reversalK!.HIGH - 10 / rr.factor) < 1e-9);
 * ```
 */
export function rankReversalDistance(
  coefficients: readonly LossCoefficients[],
  profile: CostProfile,
  options: RankReversalOptions = {},
): RankReversal {
  const p = prepare(
    coefficients,
    options.per ?? "decision",
    "measure the rank-reversal distance",
  );
  const M = p.models.length;
  const v = costVector(profile);
  const losses = new Float64Array(M);
  lossesInto(p, v, losses);
  const ranks = denseRanks(
    M,
    (i, j) => compareLoss(p, v, i, j, losses[i], losses[j]),
  );
  const winners: number[] = [];
  for (let m = 0; m < M; m++) if (ranks[m] === 0) winners.push(m);
  const names = winners.map((m) => p.models[m]);
  const K = SEVERITIES.map((s) => profile.K[s]);
  if (winners.length > 1) {
    return {
      winners: names,
      challenger: p.models[winners[1]],
      factor: 1,
      log10Factor: 0,
      reversalK: { ...profile.K },
    };
  }
  const w = winners[0];
  let best = Infinity;
  let challenger: number | null = null;
  let direction: number[] = [];
  for (let c = 0; c < M; c++) {
    if (c === w) continue;
    const d = (s: number) => p.coef[w * SLOTS + s] - p.coef[c * SLOTS + s];
    let P = 0;
    let N = 0;
    const dir: number[] = [];
    for (let s = 0; s < 4; s++) {
      const ds = d(s) * K[s];
      if (ds > 0) P += ds;
      else if (ds < 0) N -= ds;
      dir.push(Math.sign(ds));
    }
    const R = d(4) * v[4] + d(5);
    // Largest L_W - L_C over the box is P f - N / f + R; its root f >= 1.
    const disc = R * R + 4 * P * N;
    let f: number;
    if (P === 0 && R <= 0) f = Infinity;
    else if (R >= 0) f = N === 0 ? 1 : (2 * N) / (R + Math.sqrt(disc));
    else f = (-R + Math.sqrt(disc)) / (2 * P);
    f = Math.max(1, f);
    if (f < best) {
      best = f;
      challenger = c;
      direction = dir;
    }
  }
  return {
    winners: names,
    challenger: challenger === null ? null : p.models[challenger],
    factor: best,
    log10Factor: Math.log10(best),
    reversalK: challenger === null || !Number.isFinite(best)
      ? null
      : Object.fromEntries(
        SEVERITIES.map((
          s,
          i,
        ) => [
          s,
          direction[i] > 0
            ? K[i] * best
            : direction[i] < 0
            ? K[i] / best
            : K[i],
        ]),
      ) as Record<Severity, number>,
  };
}
