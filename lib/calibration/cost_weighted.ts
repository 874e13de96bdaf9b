/**
 * Cost-weighted calibration error: miscalibration in money.
 *
 * @module
 */

import { _binSums } from "./_bin_sums.ts";
import { _checkProbabilities, _checkWeights } from "./_columns.ts";
import { binEdges, type BinningOptions } from "./binning.ts";
import type { BinnedResult } from "./reliability.ts";

/** Options for {@linkcode costWeightedCalibrationError}. */
export interface CostWeightedOptions extends BinningOptions {
  /**
   * Exposure of each decision: what it costs if it is wrong, usually
   * K(severity) of its task under a cost profile. Required.
   */
  exposure: ArrayLike<number>;
}

/** One bin of a cost-weighted calibration error. */
export interface CostWeightedBin {
  /** Lower edge (exclusive, except for the first bin). */
  readonly lo: number;
  /** Upper edge (inclusive). */
  readonly hi: number;
  /** Decisions in the bin. */
  readonly n: number;
  /** Sum of the exposures in the bin. */
  readonly exposure: number;
  /** |accuracy − mean confidence|; `null` when the bin is empty. */
  readonly gap: number | null;
  /**
   * |Σ exposure × (p − y)| over the bin's decisions: how much the stated
   * probabilities misstate the bin's expected loss; 0 when empty.
   */
  readonly money: number;
}

/** A cost-weighted calibration error with its bins. */
export interface CostWeightedCalibrationError extends BinnedResult {
  /** Money of miscalibration per decision, `total / n`; `null` when there are no decisions. */
  readonly value: number | null;
  /** Expected loss misstated over all decisions, Σ over bins of |Σ exposure × (p − y)|. */
  readonly total: number;
  /** Sum of every decision's exposure. */
  readonly exposure: number;
  /** Every bin, empty ones included. */
  readonly bins: readonly CostWeightedBin[];
}

/**
 * Cost-weighted calibration error: the expected loss that the stated
 * probabilities misstate, bin by bin, in money.
 *
 * A decision stated correct with probability p and exposed to K (its cost
 * if wrong) carries a stated expected loss K·(1 − p); what it realises is
 * K·(1 − y). Within a bin the stated expected loss is off by |Σ K·(p − y)|,
 * and `total` = Σ over bins of |Σ_{i in bin} K_i·(p_i − y_i)| is how many
 * units of expected loss the stated probabilities misstate; `value` =
 * total / n is that per decision. A gap among CRITICAL decisions costs what
 * the same gap among LOW ones cannot, and within a bin it is the errors'
 * own exposures that count, not the bin's average: two bins with the same
 * total exposure and the same gap misstate very different amounts when the
 * expensive decisions are the ones that were wrong. With a constant
 * exposure k it equals k × ECE; with one bin it is |stated − realised
 * expected loss| / n. Cost as {@linkcode reliabilityDiagram}.
 *
 * @param p Stated probabilities in [0, 1].
 * @param y Outcomes in {0, 1}.
 * @param options Exposure per decision (required), bins (default 10) and strategy (default equal-width).
 * @returns The error per decision and in total, with each bin's exposure and money.
 * @throws {RangeError} When an input is out of range or an exposure is negative or not finite.
 * @throws {TypeError} When the columns differ in length or the exposure is missing.
 *
 * @example The same gap costs more where the exposure is
 * ```ts
 * import assert from "node:assert/strict";
 * import { costWeightedCalibrationError } from "./cost_weighted.ts";
 *
 * const p = [0.95, 0.95, 0.55, 0.55];
 * const y = [1, 0, 1, 0]; // gap 0.45 in the top bin, 0.05 in the middle one
 * const low = costWeightedCalibrationError(p, y, { exposure: [0.2, 0.2, 50, 50] });
 * const high = costWeightedCalibrationError(p, y, { exposure: [50, 50, 0.2, 0.2] });
 * assert.ok(high.value! > low.value!);
 * // top bin |50 × (0.95 − 1) + 50 × (0.95 − 0)| = 45, middle |0.2 × (−0.45) + 0.2 × 0.55| = 0.02
 * assert.ok(Math.abs(high.value! - 45.02 / 4) < 1e-9);
 * ```
 */
export function costWeightedCalibrationError(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  options: CostWeightedOptions,
): CostWeightedCalibrationError {
  const what = "a cost-weighted calibration error";
  _checkProbabilities(what, p, y);
  const exposure = _checkWeights(what, "exposure", options?.exposure, p.length);
  const strategy = options.strategy ?? "equal-width";
  const binsRequested = options.bins ?? 10;
  const edges = binEdges(p, { bins: binsRequested, strategy });
  const { count, sumP, sumY, sumW, index } = _binSums(p, y, edges, exposure);
  // Σ K·(p − y) per bin: the bin's stated minus realised expected loss
  const misstated = new Float64Array(count.length);
  for (let i = 0; i < p.length; i++) {
    misstated[index[i]] += exposure[i] * (p[i] - y[i]);
  }
  const bins: CostWeightedBin[] = [];
  let total = 0;
  let totalExposure = 0;
  let nonEmptyBins = 0;
  for (let b = 0; b < count.length; b++) {
    const c = count[b];
    totalExposure += sumW[b];
    if (c === 0) {
      bins.push({
        lo: edges[b],
        hi: edges[b + 1],
        n: 0,
        exposure: 0,
        gap: null,
        money: 0,
      });
      continue;
    }
    nonEmptyBins++;
    const gap = Math.abs(sumY[b] / c - sumP[b] / c);
    const money = Math.abs(misstated[b]);
    total += money;
    bins.push({
      lo: edges[b],
      hi: edges[b + 1],
      n: c,
      exposure: sumW[b],
      gap,
      money,
    });
  }
  const n = p.length;
  return {
    strategy,
    binsRequested,
    edges,
    nonEmptyBins,
    n,
    value: n === 0 ? null : total / n,
    total,
    exposure: totalExposure,
    bins,
  };
}
