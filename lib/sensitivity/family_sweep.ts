/**
 * A sweep along a cost family on a log grid, with the exact crossovers and
 * winner changes next to the grid's view.
 *
 * @module
 */

import { type CostFamily, familyProfile, logGrid } from "./cost_family.ts";
import {
  type Crossover,
  crossovers,
  type WinnerChange,
  winnerChanges,
} from "./crossover.ts";
import type { LossCoefficients, LossPer } from "./loss_coefficients.ts";
import { type Sweep, sweepProfiles } from "./sweep.ts";

/** Options for {@linkcode sweepFamily}. */
export interface FamilySweepOptions {
  /** Smallest ratio r. Default: 1. */
  from?: number;
  /** Largest ratio r. Default: 100,000. */
  to?: number;
  /** Grid points, log-spaced. Default: 61 (twelve per decade from 1 to 100,000). */
  points?: number;
  /** Loss per decision or per run. Default: `"decision"`. */
  per?: LossPer;
}

/** A sweep along a family: the grid sweep plus the exact answers. */
export interface FamilySweep extends Sweep {
  /** The family swept. */
  readonly family: CostFamily;
  /** The grid's ratios, one per point. */
  readonly ratios: readonly number[];
  /** Every pairwise crossing of loss lines at r > 0, exact, in order of r (also outside the grid's range). */
  readonly crossovers: readonly Crossover[];
  /** Every change of the loss winner strictly inside (from, to), exact. */
  readonly winnerChanges: readonly WinnerChange[];
  /** The exact number of winner changes over the range: `winnerChanges.length`. */
  readonly flips: number;
  /** Changes of the winner set between consecutive grid points (a tie on the grid counts twice). */
  readonly gridFlips: number;
}

/**
 * Sweep a cost family over a log grid of ratios.
 *
 * LossBench's K-sensitivity sweep: the base profile with the scaled
 * severities' K multiplied by r for r on a log grid. Each grid point has its
 * winner, Kendall tau against the accuracy ranking and regret; the
 * crossovers and winner changes are solved exactly from the loss lines, so
 * `flips` counts every change of the top model, including two that fall
 * between grid points, and a crossover is reported where it is, not at the
 * next grid point.
 *
 * @param coefficients Loss coefficients, one per model.
 * @param family The cost family (see `costFamily`).
 * @param options Grid range and size; per decision or per run.
 * @returns The grid sweep with exact crossovers, winner changes and flips.
 * @throws {RangeError} On an invalid grid, no models, or a model without decisions.
 *
 * @example The 5.8 crossover that a decade grid reports as 10
 * ```ts
 * import assert from "node:assert/strict";
 * import { costFamily } from "./cost_family.ts";
 * import { sweepFamily } from "./family_sweep.ts";
 *
 * const model = (modelId: string, low: number, high: number) => ({ modelId, n: 10_000,
 *   correct: 10_000 - low - high, K: { LOW: low, MEDIUM: 0, HIGH: high, CRITICAL: 0 }, review: 0, fixed: 0 });
 * const sweep = sweepFamily([model("A", 100, 40), model("B", 3000, 30)], costFamily(), { to: 1000, points: 4 });
 * assert.equal(sweep.crossovers[0].ratio, 5.8);
 * assert.equal(sweep.ratios[sweep.points.findIndex((p) => p.winners[0] === "B")], 10);
 * assert.equal(sweep.flips, 1);
 * ```
 */
export function sweepFamily(
  coefficients: readonly LossCoefficients[],
  family: CostFamily,
  options: FamilySweepOptions = {},
): FamilySweep {
  const from = options.from ?? 1;
  const to = options.to ?? 100_000;
  const per = options.per ?? "decision";
  const ratios = logGrid({ from, to, points: options.points ?? 61 });
  const grid = sweepProfiles(
    coefficients,
    ratios.map((r) => familyProfile(family, r)),
    { per, ordered: true },
  );
  const changes = winnerChanges(coefficients, family, { from, to, per });
  return {
    ...grid,
    family,
    ratios,
    crossovers: crossovers(coefficients, family, { per }),
    winnerChanges: changes,
    flips: changes.length,
    gridFlips: grid.flips ?? 0,
  };
}
