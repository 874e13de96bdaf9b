/**
 * Loss intervals by method: the gamma interval with a Clopper–Pearson-sized
 * extra event (the default), the Fay–Feuer gamma interval, Jeffreys
 * posteriors per cell, or the percentile bootstrap of earlier versions; and
 * intervals for the difference of two models' losses.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { lossInterval } from "./loss_interval.ts";
 *
 * const base = { modelId: "m", severity: "CRITICAL", trueClass: "X", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const stats = [{ ...base, predClass: "X", n: 30 }];
 * const p = getProfile("principal_risk");
 * // zero misses seen: the bootstrap collapses to [0, 0], the default does not
 * assert.equal(lossInterval(stats, p, { method: "bootstrap", seed: 1 }).hi, 0);
 * assert.ok(lossInterval(stats, p, { seed: 1 }).hi! > 100_000);
 * ```
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { bootstrapInterval, quantileSorted } from "./bootstrap.ts";
import { gammaLossInterval, unitGammaLossInterval } from "./fay_feuer.ts";
import { type CostMatrix, realisedLoss } from "./loss.ts";
import {
  type LossCellOptions,
  lossPosterior,
  posteriorLossDraws,
} from "./loss_posterior.ts";
import { type Prng, seededPrng } from "../math/sampling.ts";
import type { StatsRow } from "./sufficient_stats.ts";

/** The interval methods a user can ask for; `auto` picks {@linkcode AUTO_INTERVAL}. */
export const INTERVAL_METHODS = [
  "auto",
  "jeffreys",
  "fay-feuer",
  "bootstrap",
  "cp-gamma",
] as const;

/** An interval method a user can ask for. */
export type IntervalMethod = typeof INTERVAL_METHODS[number];

/** A method that computes: every method but `auto`. */
export type ResolvedIntervalMethod = Exclude<IntervalMethod, "auto">;

/**
 * What `auto` picks for the loss of one model: the gamma interval whose
 * variance is read from the units' second moments and whose extra event is
 * sized by the Clopper–Pearson bound of its cell (`cp-gamma`). On the seeded coverage study of `docs/method.md` (its
 * reference suites, the width grid of 30 designs from n = 30 to 5,000, and
 * 50 tasks of 5 correlated epochs; four profiles) it covers at or above
 * 0.93 in every row, as the Fay–Feuer interval does, and is never wider
 * than it: narrower wherever a costly cell holds few tasks. The
 * Tiwari–Clegg–Zou and mid-p gamma intervals are narrower still and fall
 * below 0.93 on some rows; per-cell Jeffreys posteriors fall to 0.14 on
 * suites with many small cells and the percentile bootstrap to 0.015 under
 * `principal_risk`.
 */
export const AUTO_INTERVAL: ResolvedIntervalMethod = "cp-gamma";

/**
 * What `auto` picks for a difference of two models' losses: Jeffreys
 * posteriors per cell, drawn independently for each model (the Fay–Feuer
 * interval is for one sum of counts, not a difference).
 */
export const AUTO_DIFFERENCE_INTERVAL: ResolvedIntervalMethod = "jeffreys";

/** The estimand of every loss interval, as the JSON states it. */
export const LOSS_ESTIMAND =
  "expected loss of this model on this suite, conditional on its counts per severity and gold class, under the profile and the cost matrix";

/** The estimand of every loss-difference interval. */
export const LOSS_DIFFERENCE_ESTIMAND =
  "difference of the two models' expected losses on this suite (A - B), conditional on its counts per severity and gold class, under the profile and the cost matrix";

/** The estimand of a loss difference with each task's trials averaged (the unit of `compare`). */
export const LOSS_DIFFERENCE_TASK_ESTIMAND =
  `${LOSS_DIFFERENCE_ESTIMAND}, each task's trials averaged`;

/** What the `method` field of an interval says for each method. */
export const METHOD_LABELS: Readonly<Record<ResolvedIntervalMethod, string>> = {
  jeffreys: "jeffreys posterior per cell, monte carlo",
  "fay-feuer": "fay-feuer gamma",
  bootstrap: "percentile bootstrap",
  "cp-gamma": "gamma, extra event sized by clopper-pearson",
};

/**
 * Resolve a requested method: `auto` becomes {@linkcode AUTO_INTERVAL}, or
 * the given choice for `auto` (compare passes
 * {@linkcode AUTO_DIFFERENCE_INTERVAL}).
 *
 * @param method The requested method.
 * @param auto What `auto` means. Default: {@linkcode AUTO_INTERVAL}.
 * @returns The method that computes.
 * @throws {RangeError} When the method is not one of {@linkcode INTERVAL_METHODS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveIntervalMethod } from "./loss_interval.ts";
 *
 * assert.equal(resolveIntervalMethod("auto"), "cp-gamma");
 * assert.equal(resolveIntervalMethod("bootstrap"), "bootstrap");
 * ```
 */
export function resolveIntervalMethod(
  method: string,
  auto: ResolvedIntervalMethod = AUTO_INTERVAL,
): ResolvedIntervalMethod {
  if (!(INTERVAL_METHODS as readonly string[]).includes(method)) {
    throw new RangeError(
      `Unknown interval method ${JSON.stringify(method)}: expected one of ${
        INTERVAL_METHODS.join(", ")
      }`,
    );
  }
  return method === "auto" ? auto : method as ResolvedIntervalMethod;
}

/**
 * A loss interval. Its first keys are those of a bootstrap interval, so the
 * JSON keeps its shape whatever the method.
 */
export interface LossInterval {
  /** Realised loss on the observed data. */
  readonly estimate: number | null;
  /** Lower bound, or `null` when there are no decisions. */
  readonly lo: number | null;
  /** Upper bound, or `null` when there are no decisions. */
  readonly hi: number | null;
  /** Confidence level. */
  readonly level: number;
  /** Monte Carlo draws or bootstrap resamples (0 for the closed-form gamma intervals). */
  readonly resamples: number;
  /** Resamples on which the statistic was undefined (bootstrap only; else 0). */
  readonly undefinedResamples: number;
  /** Seed of the generator. */
  readonly seed: number;
  /** How it was computed, in words (see {@linkcode METHOD_LABELS}). */
  readonly method: string;
  /** The method's id, as `--interval` takes it. */
  readonly interval: ResolvedIntervalMethod;
  /** What the interval is for (see {@linkcode LOSS_ESTIMAND}). */
  readonly estimand: string;
}

/** Options for {@linkcode lossInterval}. */
export interface LossIntervalOptions extends LossCellOptions {
  /** Method. Default: `"auto"`. */
  method?: IntervalMethod;
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
  /** Monte Carlo draws or bootstrap resamples. Default: 1,000. */
  draws?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator. Default: `seededPrng(seed)`. */
  prng?: Prng;
  /** Cost matrix. Default: the consequence matrix. */
  matrix?: CostMatrix;
  /** Dirichlet prior weight per kind for `jeffreys`. Default: 0.5. */
  prior?: number;
}

function checkLevel(level: number): void {
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot compute a loss interval: level must be in (0, 1), got ${level}`,
    );
  }
}

/**
 * Bounds from Monte Carlo draws: the (1 - level)/2 and (1 + level)/2
 * quantiles (type 7). Sorts a copy.
 *
 * @param draws Posterior draws.
 * @param level Confidence level in (0, 1).
 * @returns The bounds, or nulls for no draws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drawBounds } from "./loss_interval.ts";
 *
 * assert.deepEqual(drawBounds([3, 1, 2], 0.5), { lo: 1.5, hi: 2.5 });
 * ```
 */
export function drawBounds(
  draws: ArrayLike<number>,
  level: number,
): { lo: number | null; hi: number | null } {
  checkLevel(level);
  const sorted = Float64Array.from(draws).sort();
  return {
    lo: quantileSorted(sorted, (1 - level) / 2),
    hi: quantileSorted(sorted, (1 + level) / 2),
  };
}

/**
 * The interval of a loss from posterior draws already made (so that one set
 * of draws serves several profiles and the probability of being best).
 *
 * @param estimate The realised loss.
 * @param draws Draws from `posteriorLossDraws`.
 * @param options Level and the seed the draws came from.
 * @returns A Jeffreys loss interval.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jeffreysFromDraws } from "./loss_interval.ts";
 *
 * const ci = jeffreysFromDraws(2, [1, 2, 3, 4, 5], { level: 0.5, seed: 0 });
 * assert.deepEqual([ci.lo, ci.hi, ci.interval], [2, 4, "jeffreys"]);
 * ```
 */
export function jeffreysFromDraws(
  estimate: number | null,
  draws: ArrayLike<number>,
  options: { level: number; seed: number; estimand?: string },
): LossInterval {
  const { lo, hi } = estimate === null
    ? { lo: null, hi: null }
    : drawBounds(draws, options.level);
  return {
    estimate,
    lo,
    hi,
    level: options.level,
    resamples: draws.length,
    undefinedResamples: 0,
    seed: options.seed,
    method: METHOD_LABELS.jeffreys,
    interval: "jeffreys",
    estimand: options.estimand ?? LOSS_ESTIMAND,
  };
}

/**
 * An interval for the expected loss of one model on its suite.
 *
 * - `cp-gamma` (what `auto` picks): the gamma interval on the weighted
 *   counts, its variance read from the units' second moments
 *   (`unitCostPairs`), with an extra event sized by the Clopper–Pearson
 *   bound of its cell, clipped to the possible range
 *   (`unitGammaLossInterval`);
 * - `fay-feuer`: the gamma interval with every decision of a unit counted
 *   as failing together and one extra event of the largest weight, wider
 *   wherever a costly cell holds few tasks (`gammaLossInterval`);
 * - `jeffreys`: quantiles of `posteriorLossDraws` from Jeffreys–Dirichlet
 *   posteriors per cell (under-covers on suites with many small cells);
 * - `bootstrap`: the percentile bootstrap over decisions, which cannot see a
 *   costly cell with zero observed errors (kept for comparison).
 *
 * The first two count trials of a task as one task; the bootstrap resamples
 * decisions. Cost is O(draws × kinds).
 *
 * @param stats Sufficient statistics of one model.
 * @param profile Cost profile.
 * @param options Method, level, draws, seed or generator, matrix, cell options.
 * @returns The interval, with its method and estimand.
 * @throws {RangeError} When the level, draws or method are out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { lossInterval } from "./loss_interval.ts";
 *
 * const base = { modelId: "m", severity: "HIGH", trueClass: "X", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const stats = [{ ...base, predClass: "MATCH", n: 5 }, { ...base, predClass: "X", n: 95 }];
 * const ci = lossInterval(stats, getProfile("reconciliation"), { method: "fay-feuer" });
 * assert.equal(ci.estimate, 50);
 * assert.ok(ci.lo! < 50 && 50 < ci.hi!);
 * ```
 */
export function lossInterval(
  stats: readonly StatsRow[],
  profile: CostProfile,
  options: LossIntervalOptions = {},
): LossInterval {
  const level = options.level ?? 0.95;
  checkLevel(level);
  const method = resolveIntervalMethod(options.method ?? "auto");
  const prng = options.prng ?? seededPrng(options.seed ?? 0);
  const draws = options.draws ?? 1000;
  const matrix = options.matrix;
  const estimate = realisedLoss(stats, profile, {
    matrix,
    cleanClass: options.cleanClass,
  });
  if (method === "bootstrap") {
    const b = bootstrapInterval(
      stats,
      (s) =>
        realisedLoss(s, profile, { matrix, cleanClass: options.cleanClass }),
      { level, resamples: draws, prng },
    );
    return {
      ...b,
      interval: "bootstrap",
      estimand: LOSS_ESTIMAND,
    };
  }
  if (method === "fay-feuer" || method === "cp-gamma") {
    const b = method === "cp-gamma"
      ? unitGammaLossInterval(stats, profile, { ...options, level })
      : gammaLossInterval(stats, profile, { ...options, level, extra: "max" });
    return {
      estimate,
      lo: b?.lo ?? null,
      hi: b?.hi ?? null,
      level,
      resamples: 0,
      undefinedResamples: 0,
      seed: prng.seed,
      method: METHOD_LABELS[method],
      interval: method,
      estimand: LOSS_ESTIMAND,
    };
  }
  const post = lossPosterior(stats, { ...options, draws, prng });
  return jeffreysFromDraws(
    estimate,
    posteriorLossDraws(post, profile, { matrix }),
    { level, seed: prng.seed },
  );
}

/** Options for {@linkcode lossDifferenceInterval}. */
export interface LossDifferenceOptions extends LossCellOptions {
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
  /** Monte Carlo draws. Default: 1,000. */
  draws?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator; A's draws come first, then B's. Default: `seededPrng(seed)`. */
  prng?: Prng;
  /** Cost matrix. Default: the consequence matrix. */
  matrix?: CostMatrix;
  /** Dirichlet prior weight per kind. Default: 0.5 (Jeffreys). */
  prior?: number;
  /**
   * `"decision"`: losses summed over every decision; `"task"`: a task's
   * trials averaged (each row weighs `taskShare`), the unit of `compare`.
   * Equal with one trial per task. Default: `"decision"`.
   */
  unit?: "decision" | "task";
}

/**
 * A Jeffreys interval for the difference of two models' expected losses on
 * the same suite, loss(A) - loss(B).
 *
 * Each model's kind shares get their own posterior per cell (as in
 * {@linkcode lossInterval}) and the interval is the quantiles of the
 * differences of the draws. The two posteriors are drawn independently:
 * when the models tend to fail on the same tasks (positive correlation, the
 * usual case) this is wider than a paired interval, so it errs on the side of
 * coverage; the paired test of `signFlipTest` is what decides significance.
 *
 * @param statsA Sufficient statistics of model A.
 * @param statsB Sufficient statistics of model B, on the same tasks.
 * @param profile Cost profile.
 * @param options Level, draws, seed or generator, matrix and cell options.
 * @returns The interval of A - B.
 * @throws {RangeError} When the level or draws are out of range.
 *
 * @example Equal models: the interval straddles 0
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { lossDifferenceInterval } from "./loss_interval.ts";
 *
 * const base = { severity: "HIGH", trueClass: "X", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const side = (m: string) => [{ ...base, modelId: m, predClass: "MATCH", n: 4 },
 *   { ...base, modelId: m, predClass: "X", n: 96 }];
 * const ci = lossDifferenceInterval(side("a"), side("b"), getProfile("flat"), { seed: 4 });
 * assert.equal(ci.estimate, 0);
 * assert.ok(ci.lo! < 0 && 0 < ci.hi!);
 * ```
 */
export function lossDifferenceInterval(
  statsA: readonly StatsRow[],
  statsB: readonly StatsRow[],
  profile: CostProfile,
  options: LossDifferenceOptions = {},
): LossInterval {
  const level = options.level ?? 0.95;
  checkLevel(level);
  const prng = options.prng ?? seededPrng(options.seed ?? 0);
  const draws = options.draws ?? 1000;
  const clean = options.cleanClass;
  const classes = options.classes ?? [
    ...new Set(
      [...statsA, ...statsB].flatMap((r) => [r.trueClass, r.predClass]),
    ),
  ];
  const cellOptions = { ...options, classes, draws, prng };
  const perTask = (s: readonly StatsRow[]) =>
    options.unit === "task"
      ? s.map((r) => ({ ...r, n: r.taskShare ?? r.n }))
      : s;
  const lossOptions = { matrix: options.matrix, cleanClass: clean };
  const a = realisedLoss(perTask(statsA), profile, lossOptions);
  const b = realisedLoss(perTask(statsB), profile, lossOptions);
  const da = posteriorLossDraws(
    lossPosterior(statsA, cellOptions),
    profile,
    options,
  );
  const db = posteriorLossDraws(
    lossPosterior(statsB, cellOptions),
    profile,
    options,
  );
  const diff = new Float64Array(draws);
  for (let d = 0; d < draws; d++) diff[d] = da[d] - db[d];
  return jeffreysFromDraws(
    a === null || b === null ? null : a - b,
    diff,
    {
      level,
      seed: prng.seed,
      estimand: options.unit === "task"
        ? LOSS_DIFFERENCE_TASK_ESTIMAND
        : LOSS_DIFFERENCE_ESTIMAND,
    },
  );
}
