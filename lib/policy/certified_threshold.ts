/**
 * The certified threshold of the veto frontier: calibration and
 * quantisation safety composed into one margin threshold.
 *
 * @module
 */

import { fitIsotonic } from "../calibration/isotonic.ts";
import { rrfErosionBound } from "./rrf_lattice.ts";

/** Options for {@linkcode marginThreshold}. */
export interface MarginThresholdOptions {
  /** The break-even p*: serve automatically where the calibrated P(wrong) is at most p*. Required. */
  pStar: number;
}

/** The calibrated margin threshold t*. */
export interface MarginThreshold {
  /**
   * t*: the smallest margin at which the calibrated P(wrong) is at most p*,
   * so "serve automatically iff margin ≥ t*" is the Bayes rule on the
   * calibrated margin. `Infinity` when no margin is safe enough.
   */
  readonly tStar: number;
  /** p*. */
  readonly pStar: number;
  /** The fitted map from margin to P(correct): knots of an isotonic fit. */
  readonly knots: {
    readonly x: readonly number[];
    readonly y: readonly number[];
  };
}

/**
 * Calibrate a margin into P(wrong) by isotonic regression and find t*, the
 * margin where the calibrated posterior touches p*.
 *
 * The margin is an ordinal, not a probability; an isotonic fit of
 * correctness on margin (monotone: a wider margin is never less safe) turns
 * it into one without assuming a shape, and t* is where that posterior
 * crosses p* (linear between the fit's knots). Fit it on labelled queries
 * that the threshold is not then judged on. Cost: O(n log n).
 *
 * @param margin Margin per labelled query, in [0, 1] (RRF margins are below 2/(k+1)).
 * @param error 1 when the router's top-1 was wrong.
 * @param options p* (required).
 * @returns t* and the fitted knots.
 * @throws {RangeError} When a margin is outside [0, 1], an error flag is not 0/1 or p* is negative.
 * @throws {TypeError} When the columns differ in length or are empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { marginThreshold } from "./certified_threshold.ts";
 *
 * const margin = [0.0001, 0.0002, 0.0005, 0.0006, 0.002, 0.003];
 * const error = [1, 1, 1, 0, 0, 0];
 * const t = marginThreshold(margin, error, { pStar: 0.12 });
 * // P(wrong) falls from 1 to 0 between 0.0005 and 0.0006; it crosses 0.12 at 0.0005 + 0.88 × 0.0001
 * assert.ok(Math.abs(t.tStar - 0.000588) < 1e-12);
 * ```
 */
export function marginThreshold(
  margin: ArrayLike<number>,
  error: ArrayLike<number>,
  options: MarginThresholdOptions,
): MarginThreshold {
  const pStar = options?.pStar;
  if (!(pStar >= 0) || !Number.isFinite(pStar)) {
    throw new RangeError(
      `Cannot compute a margin threshold: pStar must be a finite number >= 0, got ${pStar}`,
    );
  }
  if (margin.length !== error.length) {
    throw new TypeError(
      `Cannot compute a margin threshold: margin and error must have the same length, got ${margin.length} and ${error.length}`,
    );
  }
  const correct = Uint8Array.from({ length: error.length }, (_, i) => {
    const e = error[i];
    if (e !== 0 && e !== 1) {
      throw new RangeError(
        `Cannot compute a margin threshold: error[${i}] must be 0 or 1, got ${e}`,
      );
    }
    return 1 - e;
  });
  const iso = fitIsotonic(margin, correct);
  const { x, y } = iso;
  let tStar = Infinity;
  for (let j = 0; j < x.length; j++) {
    if (1 - y[j] <= pStar) {
      if (j === 0) tStar = 0;
      else {
        // P(wrong) is linear between knots j−1 and j
        const w0 = 1 - y[j - 1];
        const w1 = 1 - y[j];
        tStar = w0 === w1
          ? x[j]
          : x[j - 1] + ((w0 - pStar) / (w0 - w1)) * (x[j] - x[j - 1]);
      }
      break;
    }
  }
  return { tStar, pStar, knots: { x, y } };
}

/** Options for the certified threshold. */
export interface CertifiedOptions {
  /** t*, the calibrated margin threshold. Required. */
  tStar: number;
  /** δ_r(b): the largest dense-rank move quantisation at bit width b causes. Required. */
  rankShift: number;
  /** The RRF constant. Default: 60. */
  k?: number;
}

/** The certified threshold and which side binds. */
export interface CertifiedThreshold {
  /** max(t*, Δ_RRF(b)): serve automatically iff margin ≥ threshold. */
  readonly threshold: number;
  /** t*. */
  readonly tStar: number;
  /** Δ_RRF(b) = 2·δ_r(b)/(k+1)², the worst-case margin erosion. */
  readonly erosion: number;
  /** `calibration` when t* ≥ Δ_RRF(b), `quantisation` otherwise. */
  readonly binding: "calibration" | "quantisation";
}

/**
 * The certified threshold max(t*, Δ_RRF(b)) of the Veto Frontier.
 *
 * t* is where the calibrated posterior touches p*; Δ_RRF(b) = 2δ_r/(k+1)²
 * bounds how far quantising the dense ranker to b bits can erode a margin.
 * A query served automatically above both is worth serving and keeps its
 * top skill under quantisation, so compression adds no rank-flip errors to
 * the automatic decisions. Cost: O(1).
 *
 * @param options t*, δ_r(b) and k.
 * @returns The threshold and which constraint binds.
 * @throws {RangeError} When t* is negative or NaN, δ_r is not an integer >= 0, or k is not positive.
 *
 * @example At 8 bits a rank move of 5 binds above a calibrated t* of 0.001
 * ```ts
 * import assert from "node:assert/strict";
 * import { certifiedThreshold } from "./certified_threshold.ts";
 *
 * const c = certifiedThreshold({ tStar: 0.001, rankShift: 5 });
 * assert.ok(Math.abs(c.threshold - 10 / 3721) < 1e-15);
 * assert.equal(c.binding, "quantisation");
 * ```
 */
export function certifiedThreshold(
  options: CertifiedOptions,
): CertifiedThreshold {
  const tStar = options?.tStar;
  if (!(tStar >= 0)) {
    throw new RangeError(
      `Cannot compute a certified threshold: tStar must be a number >= 0, got ${tStar}`,
    );
  }
  const erosion = rrfErosionBound(options.rankShift, { k: options.k });
  return {
    threshold: Math.max(tStar, erosion),
    tStar,
    erosion,
    binding: tStar >= erosion ? "calibration" : "quantisation",
  };
}

/** Options for {@linkcode certificationOverhead}. */
export interface OverheadOptions extends CertifiedOptions {
  /** C_e, the cost of one judge call. Required. */
  ce: number;
}

/** The escalation overhead of certification, and its bound. */
export interface CertificationOverhead extends CertifiedThreshold {
  /** Queries. */
  readonly n: number;
  /** ρ(b): share of queries whose margin is below Δ_RRF(b), the uncertified band. */
  readonly atRisk: number;
  /** Share of queries escalated only because of certification: t* ≤ margin < Δ_RRF(b). */
  readonly extraEscalated: number;
  /** Extra judge spend per query: extraEscalated × C_e. */
  readonly overhead: number;
  /** The Veto Frontier's bound ρ(b) × C_e. */
  readonly bound: number;
  /** Whether overhead ≤ bound. */
  readonly holds: boolean;
}

/**
 * What certification costs in judge calls: the queries escalated because
 * their margin, though above t*, is within the quantisation band.
 *
 * Raising the threshold from t* to max(t*, Δ_RRF(b)) escalates exactly the
 * queries with t* ≤ margin < Δ_RRF(b), a subset of the at-risk band
 * margin < Δ_RRF(b) of share ρ(b); each costs one more judge call, so the
 * extra judge spend per query is at most ρ(b)·C_e (The Veto Frontier: the
 * veto layer reprices the quantisation band from C_r to C_e). The bound is
 * on judge spend; whether the escalated queries' error cost rises depends
 * on p_j against their P(wrong). Cost: O(n).
 *
 * @param margin Margin per query.
 * @param options t*, δ_r(b), k and C_e.
 * @returns ρ(b), the extra escalations, the overhead and its bound.
 * @throws {RangeError} As {@linkcode certifiedThreshold}, or when C_e is negative.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { certificationOverhead } from "./certified_threshold.ts";
 *
 * const o = certificationOverhead([0.0005, 0.0015, 0.002, 0.01], { tStar: 0.001, rankShift: 5, ce: 0.02 });
 * // Δ = 10/3721 ≈ 0.0027: three queries are below it, two of them above t*
 * assert.equal(o.atRisk, 0.75);
 * assert.equal(o.extraEscalated, 0.5);
 * assert.ok(o.holds && Math.abs(o.overhead - 0.01) < 1e-15);
 * ```
 */
export function certificationOverhead(
  margin: ArrayLike<number>,
  options: OverheadOptions,
): CertificationOverhead {
  const c = certifiedThreshold(options);
  const ce = options.ce;
  if (!(ce >= 0) || !Number.isFinite(ce)) {
    throw new RangeError(
      `Cannot compute a certification overhead: ce must be a finite number >= 0, got ${ce}`,
    );
  }
  const n = margin.length;
  let atRisk = 0;
  let extra = 0;
  for (let i = 0; i < n; i++) {
    const m = margin[i];
    if (!Number.isFinite(m)) {
      throw new RangeError(
        `Cannot compute a certification overhead: margin[${i}] must be a finite number, got ${m}`,
      );
    }
    if (m < c.erosion) {
      atRisk++;
      if (m >= c.tStar) extra++;
    }
  }
  const rho = n === 0 ? 0 : atRisk / n;
  const extraShare = n === 0 ? 0 : extra / n;
  return {
    ...c,
    n,
    atRisk: rho,
    extraEscalated: extraShare,
    overhead: extraShare * ce,
    bound: rho * ce,
    holds: extraShare * ce <= rho * ce,
  };
}
