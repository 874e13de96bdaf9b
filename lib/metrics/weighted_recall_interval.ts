/**
 * An interval for ReconForge's severity-weighted recall R_w: the
 * Clopper–Pearson confidence distributions of the caught share per
 * exception cell, combined by seeded Monte Carlo.
 *
 * @module
 */

import { type BootstrapInterval, bootstrapInterval } from "./bootstrap.ts";
import { drawBounds } from "./loss_interval.ts";
import {
  RECONFORGE_CLASS_WEIGHTS,
  severityWeightedRecall,
  type WeightedRecallOptions,
} from "./reconforge.ts";
import { beta, type Prng, seededPrng } from "../math/sampling.ts";
import type { StatsRow } from "./sufficient_stats.ts";

/** The estimand of an R_w interval, as the JSON states it. */
export const WEIGHTED_RECALL_ESTIMAND =
  "severity-weighted recall R_w that this model's true catch rate per exception class would give on this suite, conditional on its counts per severity and gold class";

/** What the `method` field of the default R_w interval says. */
export const WEIGHTED_RECALL_METHOD =
  "clopper-pearson confidence distribution per cell, monte carlo";

/** An interval for R_w: the keys of a bootstrap interval, plus its id and estimand. */
export interface WeightedRecallInterval
  extends Omit<BootstrapInterval, "method"> {
  /** How it was computed, in words. */
  readonly method: string;
  /** The method's id: `"clopper-pearson"` or `"bootstrap"`. */
  readonly interval: "clopper-pearson" | "bootstrap";
  /** What the interval is for (see {@linkcode WEIGHTED_RECALL_ESTIMAND}). */
  readonly estimand: string;
}

/** Options for {@linkcode weightedRecallInterval}. */
export interface WeightedRecallIntervalOptions extends WeightedRecallOptions {
  /** `"clopper-pearson"` (the default) or `"bootstrap"` (the percentile bootstrap of earlier versions). */
  method?: "clopper-pearson" | "bootstrap";
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
  /** Monte Carlo draws or bootstrap resamples. Default: 1,000. */
  draws?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator. Default: `seededPrng(seed)`. */
  prng?: Prng;
}

/**
 * An interval for the severity-weighted recall R_w of one model.
 *
 * R_w = Σ w(g) · n(s, g) · θ(s, g) / Σ w(g) · n(s, g) over the exception
 * cells (severity s, gold class g), with θ the true share of the cell's
 * exceptions that are caught (`reconforge`'s rule, as in
 * `severityWeightedRecall`). The cell counts are fixed. For the lower
 * bound, each θ is drawn from Beta(caught, missed + 1); for the upper, from
 * Beta(caught + 1, missed): the confidence distributions whose quantiles
 * are one cell's Clopper–Pearson bounds (a shape of 0 is a point mass at 0
 * or 1). The bounds are the (1 − level)/2 quantile of the weighted sum of
 * the lower draws and the (1 + level)/2 quantile of the upper ones, over
 * `draws` seeded joint draws. Counts are in tasks (a task's trials count as
 * one task, through `taskShare`). Unlike a percentile bootstrap over
 * decisions, it does not collapse onto R_w = 1 when a small cell shows no
 * miss; unlike Jeffreys posteriors, it is not pulled away from 1 when every
 * exception of a small cell is caught (in the coverage study of
 * `docs/method.md`, Jeffreys covered 0.81 at n = 60). `method: "bootstrap"`
 * keeps the bootstrap of earlier versions. Cost is O(draws × cells).
 *
 * @param stats Sufficient statistics of one model.
 * @param options Method, level, draws, seed or generator, weights and caught rule.
 * @returns The interval; bounds `null` when R_w is not defined (no exceptions, or a class without a weight).
 * @throws {RangeError} When the level or draws are out of range.
 *
 * @example Every exception caught: the interval still opens below 1
 * ```ts
 * import assert from "node:assert/strict";
 * import { weightedRecallInterval } from "./weighted_recall_interval.ts";
 *
 * const base = { modelId: "m", action: "auto", pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const stats = [
 *   { ...base, severity: "HIGH", trueClass: "AMOUNT_MISMATCH", predClass: "AMOUNT_MISMATCH", n: 6 },
 *   { ...base, severity: "LOW", trueClass: "DUPLICATE", predClass: "DUPLICATE", n: 12 },
 * ] as const;
 * const ci = weightedRecallInterval(stats, { seed: 1 });
 * assert.equal(ci.estimate, 1);
 * assert.ok(ci.lo! < 0.95 && ci.hi! > 0.99);
 * // the bootstrap sees no miss in any resample
 * assert.equal(weightedRecallInterval(stats, { method: "bootstrap", seed: 1 }).lo, 1);
 * ```
 */
export function weightedRecallInterval(
  stats: readonly StatsRow[],
  options: WeightedRecallIntervalOptions = {},
): WeightedRecallInterval {
  const level = options.level ?? 0.95;
  const draws = options.draws ?? 1000;
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot compute an R_w interval: level must be in (0, 1), got ${level}`,
    );
  }
  if (!Number.isInteger(draws) || draws < 1) {
    throw new RangeError(
      `Cannot compute an R_w interval: draws must be an integer >= 1, got ${draws}`,
    );
  }
  const prng = options.prng ?? seededPrng(options.seed ?? 0);
  const estimate = severityWeightedRecall(stats, options);
  if (options.method === "bootstrap") {
    const b = bootstrapInterval(
      stats,
      (s) => severityWeightedRecall(s, options),
      { level, resamples: draws, prng },
    );
    return {
      ...b,
      interval: "bootstrap",
      estimand: WEIGHTED_RECALL_ESTIMAND,
    };
  }
  const base = {
    estimate,
    level,
    resamples: draws,
    undefinedResamples: 0,
    seed: prng.seed,
    method: WEIGHTED_RECALL_METHOD,
    interval: "clopper-pearson" as const,
    estimand: WEIGHTED_RECALL_ESTIMAND,
  };
  if (estimate === null) return { ...base, lo: null, hi: null };
  const clean = options.cleanClass ?? "MATCH";
  const weights = options.weights ?? RECONFORGE_CLASS_WEIGHTS;
  // cells: weight × decisions, caught and total counted in tasks
  const cells = new Map<
    string,
    { w: number; caught: number; tasks: number }
  >();
  let den = 0;
  for (const r of stats) {
    if (r.trueClass === clean || r.n === 0) continue;
    const w = weights[r.trueClass];
    const key = `${r.severity}\u0000${r.trueClass}`;
    let c = cells.get(key);
    if (c === undefined) cells.set(key, c = { w: 0, caught: 0, tasks: 0 });
    c.w += w * r.n;
    den += w * r.n;
    const tasks = r.taskShare ?? r.n;
    c.tasks += tasks;
    // one row is caught or not: R_w of the row alone is 1 or 0
    if (severityWeightedRecall([r], options) === 1) c.caught += tasks;
  }
  const list = [...cells.values()].filter((c) => c.w > 0);
  // Per cell, the lower bound draws θ from Beta(caught, missed + 1) and the
  // upper bound from Beta(caught + 1, missed): the Clopper–Pearson
  // confidence distributions, whose quantiles are the exact bounds of one
  // cell; a shape of 0 is a point mass at 0 (or 1).
  const lowDraws = new Float64Array(draws);
  const highDraws = new Float64Array(draws);
  for (let d = 0; d < draws; d++) {
    let lo = 0;
    let hi = 0;
    for (const c of list) {
      const missed = Math.max(0, c.tasks - c.caught);
      lo += c.w * (c.caught <= 0 ? 0 : beta(prng, c.caught, missed + 1));
      hi += c.w * (missed <= 0 ? 1 : beta(prng, c.caught + 1, missed));
    }
    lowDraws[d] = lo / den;
    highDraws[d] = hi / den;
  }
  const out = {
    lo: drawBounds(lowDraws, level).lo,
    hi: drawBounds(highDraws, level).hi,
  };
  return { ...base, ...out };
}
