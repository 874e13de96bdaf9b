/**
 * The gamma interval of Fay and Feuer (1997) for a weighted sum of Poisson
 * counts, and its use as a loss interval.
 *
 * @module
 */

import { _gammaP } from "../math/_special.ts";
import type { CostProfile } from "../costs/profile.ts";
import {
  kindCosts,
  type LossCellOptions,
  lossCells,
} from "./loss_posterior.ts";
import type { CostMatrix } from "./loss.ts";
import type { StatsRow } from "./sufficient_stats.ts";

/**
 * The q-quantile of the Gamma(shape, 1) distribution.
 *
 * Found by bisection on the regularised lower incomplete gamma function
 * P(shape, x) (series and continued fraction), to the last representable
 * bit; about 1e-13 relative accuracy. A chi-square quantile with k degrees of
 * freedom is `2 * gammaQuantile(q, k / 2)`.
 *
 * @param q A probability in [0, 1].
 * @param shape Shape > 0.
 * @returns The quantile: 0 at q = 0, Infinity at q = 1.
 * @throws {RangeError} When q is outside [0, 1] or the shape is not a positive finite number.
 *
 * @example The 97.5% quantile of chi-square with 2 degrees of freedom
 * ```ts
 * import assert from "node:assert/strict";
 * import { gammaQuantile } from "./fay_feuer.ts";
 *
 * // chi-square(2) is exponential with mean 2: quantile -2 ln(0.025) = 7.3778
 * assert.ok(Math.abs(2 * gammaQuantile(0.975, 1) - 7.377758908227871) < 1e-9);
 * ```
 */
export function gammaQuantile(q: number, shape: number): number {
  if (!(q >= 0 && q <= 1)) {
    throw new RangeError(
      `Cannot compute a gamma quantile: q must be in [0, 1], got ${q}`,
    );
  }
  if (!(shape > 0) || !Number.isFinite(shape)) {
    throw new RangeError(
      `Cannot compute a gamma quantile: shape must be a finite number > 0, got ${shape}`,
    );
  }
  if (q === 0) return 0;
  if (q === 1) return Infinity;
  let lo = 0;
  let hi = Math.max(1, shape);
  while (_gammaP(shape, hi) < q) {
    lo = hi;
    hi *= 2;
  }
  for (let i = 0; i < 2000; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (_gammaP(shape, mid) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** One term of a weighted sum of Poisson counts. */
export interface WeightedCount {
  /** Weight of one event (for loss: the cost of one decision of the kind). */
  readonly weight: number;
  /** Observed events (may be fractional when counted in tasks). */
  readonly count: number;
}

/** Options for {@linkcode fayFeuerInterval}. */
export interface FayFeuerOptions {
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
  /**
   * The largest weight any term could have, observed or not: the term that
   * keeps the upper bound open when the costliest kind shows no event.
   * Default: the largest weight among `terms`.
   */
  maxWeight?: number;
}

/** A two-sided interval. */
export interface Bounds {
  /** Lower bound. */
  readonly lo: number;
  /** Upper bound. */
  readonly hi: number;
}

/**
 * The Fay–Feuer gamma interval for Y = Σ weightᵢ · λᵢ from counts xᵢ ~
 * Poisson(λᵢ).
 *
 * With y = Σ wᵢxᵢ, v = Σ wᵢ²xᵢ and w_M the largest possible weight, the
 * bounds are (v / y) · G⁻¹(α/2; y²/v) and ((v + w_M²) / (y + w_M)) ·
 * G⁻¹(1 − α/2; (y + w_M)² / (v + w_M²)), with G⁻¹(q; s) the Gamma(s)
 * quantile (Fay & Feuer 1997, `fay-feuer-1997`). The lower bound is 0 when
 * y = 0. The interval reduces to the exact Garwood interval for one Poisson
 * count, and is conservative for weighted sums; the w_M term is what makes
 * it see a costly kind with zero events.
 *
 * @param terms Weights and counts.
 * @param options Level and largest weight.
 * @returns The bounds.
 * @throws {RangeError} When a weight or count is negative or not finite, or the level is outside (0, 1).
 *
 * @example One count of 0 gives the exact Poisson upper bound 3.689
 * ```ts
 * import assert from "node:assert/strict";
 * import { fayFeuerInterval } from "./fay_feuer.ts";
 *
 * const b = fayFeuerInterval([{ weight: 1, count: 0 }]);
 * assert.equal(b.lo, 0);
 * assert.ok(Math.abs(b.hi - 3.6888794541139363) < 1e-9);
 * ```
 */
export function fayFeuerInterval(
  terms: readonly WeightedCount[],
  options: FayFeuerOptions = {},
): Bounds {
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot compute a Fay-Feuer interval: level must be in (0, 1), got ${level}`,
    );
  }
  let y = 0, v = 0, wMax = 0;
  for (const [i, t] of terms.entries()) {
    if (!(t.weight >= 0 && Number.isFinite(t.weight))) {
      throw new RangeError(
        `Cannot compute a Fay-Feuer interval: term ${i} weight must be finite and >= 0, got ${t.weight}`,
      );
    }
    if (!(t.count >= 0 && Number.isFinite(t.count))) {
      throw new RangeError(
        `Cannot compute a Fay-Feuer interval: term ${i} count must be finite and >= 0, got ${t.count}`,
      );
    }
    y += t.weight * t.count;
    v += t.weight * t.weight * t.count;
    wMax = Math.max(wMax, t.weight);
  }
  const wM = options.maxWeight ?? wMax;
  const alpha = 1 - level;
  const lo = y > 0 && v > 0
    ? (v / y) * gammaQuantile(alpha / 2, (y * y) / v)
    : 0;
  const hi = wM > 0
    ? ((v + wM * wM) / (y + wM)) *
      gammaQuantile(1 - alpha / 2, (y + wM) ** 2 / (v + wM * wM))
    : y;
  return { lo, hi };
}

/** Options for {@linkcode fayFeuerLossInterval}. */
export interface FayFeuerLossOptions extends LossCellOptions {
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
  /** Cost matrix. Default: the consequence matrix. */
  matrix?: CostMatrix;
}

/**
 * A Fay–Feuer gamma interval for the expected loss of one model on its
 * suite, conditional on its cell counts.
 *
 * Each kind with a cost in each cell is a Poisson term: its count (in tasks,
 * so trials of a task count once) times the weight cost × n / effectiveN,
 * which is the cost of one decision when every task has one trial and
 * charges a whole task's trials otherwise. w_M is the largest weight of any
 * possible kind of any cell, observed or not. The bounds are then clipped
 * to the range the expected loss can take (every decision of a cell at its
 * cheapest kind, or at its costliest), which a Poisson model ignores. This
 * is what `--interval auto` picks: on the seeded coverage study of
 * `docs/method.md` it covers at or above its level at every size and
 * profile, where per-cell Jeffreys posteriors under-cover on suites with many
 * small cells. Cost is O(kinds).
 *
 * @param stats Sufficient statistics of one model.
 * @param profile Cost profile.
 * @param options Level, matrix and cell options.
 * @returns The bounds, or `null` when there are no decisions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { fayFeuerLossInterval } from "./fay_feuer.ts";
 *
 * const base = { modelId: "m", severity: "HIGH", trueClass: "X", action: "auto", pErrorSum: 0,
 *   pMissing: 0, parseFailures: 0 } as const;
 * const b = fayFeuerLossInterval([{ ...base, predClass: "X", n: 100 }], getProfile("reconciliation"))!;
 * // no miss seen: the upper bound is 3.689 misses of K(HIGH) = 10
 * assert.ok(Math.abs(b.hi - 36.888794541139363) < 1e-8);
 * ```
 */
export function fayFeuerLossInterval(
  stats: readonly StatsRow[],
  profile: CostProfile,
  options: FayFeuerLossOptions = {},
): Bounds | null {
  const cells = lossCells(stats, options);
  if (cells.length === 0) return null;
  const terms: WeightedCount[] = [];
  let maxWeight = 0;
  let floor = 0;
  let ceiling = 0;
  for (const cell of cells) {
    const cost = kindCosts(cell, profile, options);
    floor += cell.n * Math.min(...cost);
    ceiling += cell.n * Math.max(...cost);
    const scale = cell.effectiveN > 0 ? cell.n / cell.effectiveN : 1;
    cell.kinds.forEach((k, i) => {
      const weight = cost[i] * scale;
      maxWeight = Math.max(maxWeight, weight);
      if (weight > 0 && k.effectiveCount > 0) {
        terms.push({ weight, count: k.effectiveCount });
      }
    });
  }
  const b = fayFeuerInterval(terms, { level: options.level, maxWeight });
  // The expected loss of fixed cells lies between every decision at its
  // cell's cheapest kind and every decision at its costliest: the Poisson
  // bounds are clipped to that range, which cannot lower coverage.
  return {
    lo: Math.min(Math.max(b.lo, floor), ceiling),
    hi: Math.max(Math.min(b.hi, ceiling), floor),
  };
}
