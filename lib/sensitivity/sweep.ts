/**
 * Sweeps over cost profiles: which model wins at each profile, how far the
 * loss ranking agrees with the accuracy ranking, and what choosing by
 * accuracy costs.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import {
  compareErrorRate,
  costVector,
  denseRanks,
  lossesInto,
  lossRanks as rankLosses,
  prepare,
} from "./_prepared.ts";
import { kendallTauB } from "./kendall_tau.ts";
import type { LossCoefficients, LossPer } from "./loss_coefficients.ts";

/** One profile of a sweep. */
export interface SweepPoint {
  /** Profile id. */
  readonly id: string;
  /** Loss of each model, in the sweep's model order. */
  readonly losses: readonly number[];
  /** Dense loss rank of each model (0 = lowest loss; exact ties share a rank). */
  readonly ranks: readonly number[];
  /** Models with the lowest loss: one, or several when they tie exactly. */
  readonly winners: readonly string[];
  /**
   * Kendall's tau-b between the loss ranking and the accuracy ranking (1:
   * they agree, ties included); `null` when either ranking is all ties.
   */
  readonly kendallTau: number | null;
  /**
   * Regret of choosing by accuracy: the loss of the most accurate model minus
   * the lowest loss (>= 0). When several models tie on accuracy, the one with
   * the lower loss is taken.
   */
  readonly regret: number;
  /** Whether no most-accurate model is among the loss winners. */
  readonly disagrees: boolean;
}

/** The result of a sweep. */
export interface Sweep {
  /** Model ids, in the order of every per-model array. */
  readonly models: readonly string[];
  /** Decisions per model. */
  readonly n: readonly number[];
  /** Accuracy of each model: correct / n (escalated decisions count by their answer). */
  readonly accuracy: readonly number[];
  /** Models with the highest accuracy (several when they tie exactly). */
  readonly accuracyWinners: readonly string[];
  /** Whether losses are per decision or per run. */
  readonly per: LossPer;
  /** One entry per profile, in the order given. */
  readonly points: readonly SweepPoint[];
  /**
   * Share of profiles each model wins; a tie between k models gives each 1/k,
   * so the shares add up to 1.
   */
  readonly winShare: Readonly<Record<string, number>>;
  /**
   * Changes of the winner set between consecutive profiles, for an ordered
   * sweep (a tie in between counts as two changes); `null` when the sweep is
   * unordered (draws), where consecutive points mean nothing.
   */
  readonly flips: number | null;
  /** Share of profiles where the loss winner is not a most-accurate model. */
  readonly disagreementShare: number;
  /** Mean regret of choosing by accuracy over the profiles. */
  readonly meanRegret: number;
  /** Largest regret of choosing by accuracy. */
  readonly maxRegret: number;
}

/** Options for {@linkcode sweepProfiles}. */
export interface SweepOptions {
  /** Loss per decision (a mean, comparable across run lengths) or per run (a sum). Default: `"decision"`. */
  per?: LossPer;
  /** Whether the profiles form a sequence, so that flips are counted. Default: `true`. */
  ordered?: boolean;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Sweep a list of cost profiles over the models' loss coefficients.
 *
 * At each profile every model's loss is a dot product of its coefficients
 * with the profile (K per severity, review cost, fixed costs), so the sweep
 * costs O(models × profiles) plus O(models²) per profile for Kendall's tau,
 * whatever the length of the runs. Ties are exact: losses that agree to 1e-9
 * relative are compared again in rational arithmetic on the decimal values of
 * the costs, so two models with the same errors under a flat profile tie
 * rather than split on a rounding error. The accuracy ranking is exact too
 * (correct/n compared by cross-multiplication). A point "disagrees" when no
 * most-accurate model has the lowest loss; under a flat profile where every
 * error costs the same, no point disagrees (`third-number`, flat-cost theorem).
 *
 * @param coefficients Loss coefficients, one per model (see `lossCoefficients`).
 * @param profiles The profiles to sweep.
 * @param options Loss per decision or per run; ordered or not.
 * @returns Winners, tau, regret per profile, and the summaries.
 * @throws {RangeError} When there are no models or no profiles, or a model has no decisions or appears twice.
 *
 * @example Model A vs Model B over the four shipped profiles
 * ```ts
 * import assert from "node:assert/strict";
 * import { SHIPPED_PROFILES } from "../costs/mod.ts";
 * import { sweepProfiles } from "./sweep.ts";
 *
 * const zero = { CRITICAL: 0 };
 * const coefficients = [
 *   { modelId: "A", n: 800, correct: 784, K: { LOW: 2, MEDIUM: 4, HIGH: 10, ...zero }, review: 0, fixed: 0 },
 *   { modelId: "B", n: 800, correct: 738, K: { LOW: 20, MEDIUM: 40, HIGH: 2, ...zero }, review: 0, fixed: 0 },
 * ];
 * const sweep = sweepProfiles(coefficients, SHIPPED_PROFILES);
 * assert.deepEqual(sweep.points.map((p) => p.winners[0]), ["A", "B", "B", "B"]);
 * assert.deepEqual(sweep.points.map((p) => p.kendallTau), [1, -1, -1, -1]);
 * assert.equal(sweep.winShare.B, 0.75);
 * assert.equal(sweep.flips, 1);
 * ```
 */
export function sweepProfiles(
  coefficients: readonly LossCoefficients[],
  profiles: readonly CostProfile[],
  options: SweepOptions = {},
): Sweep {
  const p = prepare(coefficients, options.per ?? "decision", "sweep profiles");
  if (profiles.length === 0) {
    throw new RangeError(
      "Cannot sweep profiles: the list of profiles is empty",
    );
  }
  const ordered = options.ordered ?? true;
  const M = p.models.length;
  const errorRanks = denseRanks(M, (i, j) => compareErrorRate(p, i, j));
  const accuracyWinnerIdx: number[] = [];
  for (let m = 0; m < M; m++) {
    if (errorRanks[m] === 0) accuracyWinnerIdx.push(m);
  }
  const wins = new Float64Array(M);
  const losses = new Float64Array(M);
  const order = new Int32Array(M);
  const points: SweepPoint[] = [];
  let flips = 0;
  let disagreements = 0;
  let regretSum = 0;
  let regretMax = 0;
  let previous: readonly string[] | null = null;
  for (const profile of profiles) {
    const v = costVector(profile);
    lossesInto(p, v, losses);
    const lossRanks = rankLosses(p, v, losses, order);
    const winnerIdx: number[] = [];
    for (let m = 0; m < M; m++) if (lossRanks[m] === 0) winnerIdx.push(m);
    const winners = winnerIdx.map((m) => p.models[m]);
    for (const m of winnerIdx) wins[m] += 1 / winnerIdx.length;
    let best = accuracyWinnerIdx[0];
    for (const m of accuracyWinnerIdx) {
      if (lossRanks[m] < lossRanks[best]) best = m;
    }
    const disagrees = lossRanks[best] !== 0;
    const regret = disagrees ? losses[best] - losses[winnerIdx[0]] : 0;
    if (disagrees) disagreements++;
    regretSum += regret;
    if (regret > regretMax) regretMax = regret;
    if (previous !== null && !sameSet(previous, winners)) flips++;
    previous = winners;
    points.push({
      id: profile.id,
      losses: Array.from(losses),
      ranks: Array.from(lossRanks),
      winners,
      kendallTau: kendallTauB(lossRanks, errorRanks),
      regret,
      disagrees,
    });
  }
  const count = points.length;
  return {
    models: p.models,
    n: p.n,
    accuracy: p.models.map((_, m) => p.correct[m] / p.n[m]),
    accuracyWinners: accuracyWinnerIdx.map((m) => p.models[m]),
    per: p.per,
    points,
    winShare: Object.fromEntries(
      p.models.map((id, m) => [id, wins[m] / count]),
    ),
    flips: ordered ? flips : null,
    disagreementShare: disagreements / count,
    meanRegret: regretSum / count,
    maxRegret: regretMax,
  };
}
