/**
 * How sure is a crossover? Posterior draws of each model's loss
 * coefficients give each crossover ratio an interval, and the share of
 * draws in which the two lines do not cross at all.
 *
 * @module
 */

import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { quantileSorted } from "../metrics/bootstrap.ts";
import { CONSEQUENCE_MATRIX, type CostMatrix } from "../metrics/loss.ts";
import { lossPosterior } from "../metrics/loss_posterior.ts";
import { seededPrng, seedFor } from "../math/sampling.ts";
import { forModel, type StatsRow } from "../metrics/sufficient_stats.ts";
import type { CostFamily } from "./cost_family.ts";
import type { LossPer } from "./loss_coefficients.ts";

/** Posterior draws of one model's loss coefficients. */
export interface CoefficientDraws {
  /** Model id. */
  readonly modelId: string;
  /** Decisions of the model. */
  readonly n: number;
  /** Per severity, the expected multiplier of K(severity) in each draw. */
  readonly K: Readonly<Record<Severity, Float64Array>>;
  /** The expected multiplier of the review cost in each draw. */
  readonly review: Float64Array;
  /** The expected fixed cost in each draw. */
  readonly fixed: Float64Array;
}

/** Options for {@linkcode coefficientDraws}. */
export interface CoefficientDrawOptions {
  /** Cost matrix. Default: the consequence matrix. */
  matrix?: CostMatrix;
  /** Monte Carlo draws. Default: 1,000. */
  draws?: number;
  /** Seed; each model draws from `seedFor(seed, "crossover/<model>")`. Default: 0. */
  seed?: number;
  /** Classes a decision can be predicted as. Default: every class in `stats`. */
  classes?: readonly string[];
}

/**
 * Posterior draws of a model's loss coefficients: the expected number of
 * decisions the cost matrix charges each slot (K per severity, the review
 * cost, fixed costs), given Jeffreys–Dirichlet posteriors of the outcome
 * shares in each cell (`lossPosterior`). A costly outcome never observed
 * keeps posterior mass, so a model with zero CRITICAL misses still has draws
 * with a CRITICAL coefficient above 0. Cost is O(draws × kinds).
 *
 * @param stats Sufficient statistics (one or more models).
 * @param modelId The model.
 * @param options Matrix, draws, seed and classes.
 * @returns The draws, `draws` values per coefficient.
 * @throws {RangeError} When the model has no decisions or draws is not an integer >= 1.
 *
 * @example Two HIGH misses in 100: the HIGH coefficient centres near 2.5, the Jeffreys posterior mean
 * ```ts
 * import assert from "node:assert/strict";
 * import { coefficientDraws } from "./crossover_interval.ts";
 *
 * const cell = { modelId: "m", severity: "HIGH", trueClass: "X", action: "auto", pErrorSum: 0,
 *   pMissing: 0, parseFailures: 0 } as const;
 * const d = coefficientDraws([{ ...cell, predClass: "MATCH", n: 2 }, { ...cell, predClass: "X", n: 98 }],
 *   "m", { draws: 4000, seed: 1 });
 * const mean = d.K.HIGH.reduce((a, b) => a + b, 0) / 4000;
 * assert.ok(Math.abs(mean - 100 * 2.5 / 101) < 0.15);
 * ```
 */
export function coefficientDraws(
  stats: readonly StatsRow[],
  modelId: string,
  options: CoefficientDrawOptions = {},
): CoefficientDraws {
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const draws = options.draws ?? 1000;
  const rows = forModel(stats, modelId);
  const n = rows.reduce((a, r) => a + r.n, 0);
  if (n === 0) {
    throw new RangeError(
      `Cannot draw loss coefficients of model ${
        JSON.stringify(modelId)
      }: it has no decisions`,
    );
  }
  const classes = options.classes ??
    [...new Set(stats.flatMap((r) => [r.trueClass, r.predClass]))];
  const post = lossPosterior(rows, {
    draws,
    classes,
    prng: seededPrng(seedFor(options.seed ?? 0, `crossover/${modelId}`)),
  });
  const K = Object.fromEntries(
    SEVERITIES.map((s) => [s, new Float64Array(draws)]),
  ) as Record<Severity, Float64Array>;
  const review = new Float64Array(draws);
  const fixed = new Float64Array(draws);
  post.cells.forEach((cell, c) => {
    const m = cell.kinds.length;
    const shares = post.shares[c];
    cell.kinds.forEach((kind, k) => {
      const rule = (kind.action === "escalate" ? matrix.escalate : matrix.auto)[
        kind.outcome
      ];
      if (rule.of === "zero") return;
      const target = rule.of === "K"
        ? K[cell.severity]
        : rule.of === "review"
        ? review
        : fixed;
      const per = rule.of === "fixed" ? rule.value : rule.times ?? 1;
      for (let d = 0; d < draws; d++) {
        target[d] += cell.n * shares[d * m + k] * per;
      }
    });
  });
  return { modelId, n, K, review, fixed };
}

/** A crossover ratio's interval over posterior draws. */
export interface CrossoverInterval {
  /** Lower percentile of the ratio over the draws in which the lines cross; `null` when none do. */
  readonly lo: number | null;
  /** Upper percentile, likewise. */
  readonly hi: number | null;
  /** Confidence level. */
  readonly level: number;
  /** Draws. */
  readonly draws: number;
  /** Share of draws in which the two lines do not cross at r > 0 (parallel, or crossing at r <= 0). */
  readonly noCrossShare: number;
  /** How it was computed. */
  readonly method: string;
}

/** Options for {@linkcode crossoverInterval}. */
export interface CrossoverIntervalOptions {
  /** Loss per decision (default) or per run. */
  per?: LossPer;
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
}

function line(
  d: CoefficientDraws,
  i: number,
  family: CostFamily,
  per: LossPer,
): [number, number] {
  let intercept = d.review[i] * family.base.reviewCost + d.fixed[i];
  let slope = 0;
  for (const s of SEVERITIES) {
    const term = d.K[s][i] * family.base.K[s];
    if (family.scaled.includes(s)) slope += term;
    else intercept += term;
  }
  return per === "decision"
    ? [intercept / d.n, slope / d.n]
    : [intercept, slope];
}

/**
 * The interval of the ratio r at which two models' loss lines cross along a
 * family, over posterior draws of both models' loss coefficients.
 *
 * In each draw the two lines (intercept + slope × r, from the drawn
 * coefficients) cross at r = (intercept_B − intercept_A) / (slope_A −
 * slope_B), or not at all when the slopes are equal or r ≤ 0: such a draw
 * gives no ratio (`null`) and counts in `noCrossShare`. The interval is the
 * equal-tailed percentile interval of the ratios of the crossing draws, so
 * it is conditional on a crossing: read it with `noCrossShare`. The two
 * models' posteriors are drawn independently. Cost is O(draws).
 *
 * @param a Draws of the first model.
 * @param b Draws of the second model (the same number of draws).
 * @param family The cost family.
 * @param options Per decision or per run, and the level.
 * @returns The interval and the share of draws without a crossing.
 * @throws {RangeError} When the draws differ in number or the level is not in (0, 1).
 *
 * @example A clear crossing near r = 5.8
 * ```ts
 * import assert from "node:assert/strict";
 * import { costFamily } from "./cost_family.ts";
 * import { coefficientDraws, crossoverInterval } from "./crossover_interval.ts";
 *
 * const rows = (modelId: string, low: number, high: number) => {
 *   const c = { modelId, action: "auto", pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 *   return [
 *     { ...c, severity: "LOW", trueClass: "DUPLICATE", predClass: "MATCH", n: low },
 *     { ...c, severity: "LOW", trueClass: "DUPLICATE", predClass: "DUPLICATE", n: 5000 - low },
 *     { ...c, severity: "HIGH", trueClass: "AMOUNT_MISMATCH", predClass: "MATCH", n: high },
 *     { ...c, severity: "HIGH", trueClass: "AMOUNT_MISMATCH", predClass: "AMOUNT_MISMATCH", n: 5000 - high },
 *   ] as const;
 * };
 * const stats = [...rows("A", 100, 40), ...rows("B", 3000, 30)];
 * const x = crossoverInterval(coefficientDraws(stats, "A", { seed: 1 }), coefficientDraws(stats, "B", { seed: 1 }),
 *   costFamily());
 * assert.ok(x.lo! < 5.8 && 5.8 < x.hi!);
 * ```
 */
export function crossoverInterval(
  a: CoefficientDraws,
  b: CoefficientDraws,
  family: CostFamily,
  options: CrossoverIntervalOptions = {},
): CrossoverInterval {
  const per = options.per ?? "decision";
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot compute a crossover interval: level must be in (0, 1), got ${level}`,
    );
  }
  const draws = a.review.length;
  if (b.review.length !== draws) {
    throw new RangeError(
      `Cannot compute a crossover interval: ${draws} draws of ${a.modelId} but ${b.review.length} of ${b.modelId}`,
    );
  }
  const ratios: number[] = [];
  for (let i = 0; i < draws; i++) {
    const [ia, sa] = line(a, i, family, per);
    const [ib, sb] = line(b, i, family, per);
    const dSlope = sa - sb;
    if (dSlope === 0) continue;
    const r = (ib - ia) / dSlope;
    if (r > 0 && Number.isFinite(r)) ratios.push(r);
  }
  ratios.sort((x, y) => x - y);
  return {
    lo: quantileSorted(ratios, (1 - level) / 2),
    hi: quantileSorted(ratios, (1 + level) / 2),
    level,
    draws,
    noCrossShare: (draws - ratios.length) / draws,
    method:
      "percentile of the crossing ratio over jeffreys-dirichlet posterior draws of both models' loss coefficients",
  };
}
