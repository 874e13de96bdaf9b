/**
 * Seeded bootstrap intervals computed on sufficient statistics.
 *
 * Resampling n decisions with replacement from a run is the same as drawing
 * new cell counts from a multinomial over its cells, with the observed
 * shares as probabilities. So a resample costs O(cells), not O(decisions),
 * and the number of decisions in a run does not slow the resamples down.
 *
 * @module
 */

import { multinomial, type Prng, seededPrng } from "../math/sampling.ts";
import type { Severity } from "../costs/severity.ts";
import type { StatsRow } from "./sufficient_stats.ts";

/** A bootstrap confidence interval. */
export interface BootstrapInterval {
  /** The statistic on the observed data. */
  readonly estimate: number | null;
  /** Lower percentile bound, or `null` when no resample gave a value. */
  readonly lo: number | null;
  /** Upper percentile bound, or `null` when no resample gave a value. */
  readonly hi: number | null;
  /** Confidence level. */
  readonly level: number;
  /** Resamples drawn. */
  readonly resamples: number;
  /** Resamples on which the statistic was undefined (null) and left out. */
  readonly undefinedResamples: number;
  /** Seed of the generator. */
  readonly seed: number;
  /** How it was computed. */
  readonly method: "percentile bootstrap";
}

/** Options for bootstrap intervals. */
export interface BootstrapOptions {
  /** Resamples. Default: 1,000. */
  resamples?: number;
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator to draw from. Default: `seededPrng(seed)`. */
  prng?: Prng;
}

/**
 * The q-quantile of sorted values, by linear interpolation between order
 * statistics (type 7 of Hyndman and Fan, the default of R and NumPy).
 *
 * @param sorted Values in ascending order.
 * @param q A probability in [0, 1].
 * @returns The quantile, or `null` for an empty input.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quantileSorted } from "./bootstrap.ts";
 *
 * assert.equal(quantileSorted([1, 2, 3, 4], 0.5), 2.5);
 * assert.equal(quantileSorted([], 0.5), null);
 * ```
 */
export function quantileSorted(
  sorted: ArrayLike<number>,
  q: number,
): number | null {
  if (sorted.length === 0) return null;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

function checkOptions(
  options: BootstrapOptions,
): { resamples: number; level: number; prng: Prng } {
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new RangeError(
      `Cannot bootstrap: resamples must be an integer >= 1, got ${resamples}`,
    );
  }
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot bootstrap: level must be in (0, 1), got ${level}`,
    );
  }
  return {
    resamples,
    level,
    prng: options.prng ?? seededPrng(options.seed ?? 0),
  };
}

function resampleCells(
  rng: Prng,
  cells: readonly StatsRow[],
  weights: readonly number[],
  n: number,
): StatsRow[] {
  const counts = multinomial(rng, n, weights);
  const out: StatsRow[] = [];
  for (let i = 0; i < cells.length; i++) {
    const k = counts[i];
    if (k === 0) continue;
    const c = cells[i];
    const scale = k / c.n;
    out.push({
      ...c,
      n: k,
      pErrorSum: c.pErrorSum * scale,
      pMissing: c.pMissing * scale,
      parseFailures: c.parseFailures * scale,
      ...(c.taskShare === undefined ? {} : { taskShare: c.taskShare * scale }),
      ...(c.taskTrialsSum === undefined
        ? {}
        : { taskTrialsSum: c.taskTrialsSum * scale }),
      ...(c.unitCostPairs === undefined
        ? {}
        : { unitCostPairs: c.unitCostPairs * scale }),
    });
  }
  return out;
}

function interval(
  estimate: number | null,
  values: number[],
  resamples: number,
  level: number,
  seed: number,
): BootstrapInterval {
  values.sort((a, b) => a - b);
  return {
    estimate,
    lo: quantileSorted(values, (1 - level) / 2),
    hi: quantileSorted(values, (1 + level) / 2),
    level,
    resamples,
    undefinedResamples: resamples - values.length,
    seed,
    method: "percentile bootstrap",
  };
}

/**
 * A percentile bootstrap interval for any statistic of sufficient statistics.
 *
 * Each resample draws the same number of decisions as the run, with
 * replacement, as a multinomial over the cells; the statistic is recomputed
 * on the resampled cells. Counts are exact; the within-cell sums of P(error)
 * are scaled with the cell count, so statistics of stated probabilities get
 * an approximate interval. Resamples on which the statistic is undefined
 * (`null`) are counted and left out.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param statistic The statistic, from cells to a number or `null`.
 * @param options Resamples, level and seed.
 * @returns The estimate and its interval.
 * @throws {RangeError} When resamples or level are out of range.
 *
 * @example Loss of Model A under reconciliation
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { bootstrapInterval } from "./bootstrap.ts";
 * import { realisedLoss } from "./loss.ts";
 *
 * const cell = { modelId: "A", trueClass: "X", action: "auto", pErrorSum: 0, pMissing: 0,
 *   parseFailures: 0, severity: "HIGH" } as const;
 * const stats = [{ ...cell, predClass: "MATCH", n: 10 }, { ...cell, predClass: "X", n: 490 }];
 * const ci = bootstrapInterval(stats, (s) => realisedLoss(s, getProfile("reconciliation")), { seed: 1 });
 * assert.equal(ci.estimate, 100);
 * assert.ok(ci.lo! < 100 && 100 < ci.hi!);
 * ```
 */
export function bootstrapInterval(
  stats: readonly StatsRow[],
  statistic: (cells: readonly StatsRow[]) => number | null,
  options: BootstrapOptions = {},
): BootstrapInterval {
  return bootstrapIntervals(stats, { statistic }, options).statistic;
}

/**
 * Percentile bootstrap intervals for several statistics of the same cells,
 * all read off the same resamples: one multinomial draw per resample serves
 * every statistic, so k statistics cost one set of draws, not k. With one
 * statistic it gives what {@linkcode bootstrapInterval} gives for the same
 * generator (it is that function's loop).
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param statistics Statistics by name, each from cells to a number or `null`.
 * @param options Resamples, level and seed.
 * @returns An interval per name.
 * @throws {RangeError} When resamples or level are out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bootstrapInterval, bootstrapIntervals } from "./bootstrap.ts";
 *
 * const cell = { modelId: "A", severity: "HIGH", action: "auto", pErrorSum: 0, pMissing: 0,
 *   parseFailures: 0 } as const;
 * const stats = [{ ...cell, trueClass: "X", predClass: "X", n: 490 },
 *   { ...cell, trueClass: "X", predClass: "MATCH", n: 10 }];
 * const right = (s: readonly { trueClass: string; predClass: string; n: number }[]) =>
 *   s.reduce((a, c) => a + (c.trueClass === c.predClass ? c.n : 0), 0) / 500;
 * const both = bootstrapIntervals(stats, { right, wrong: (s) => 1 - right(s) }, { seed: 3 });
 * assert.deepEqual(both.right, bootstrapInterval(stats, right, { seed: 3 }));
 * assert.ok(Math.abs(both.wrong.lo! - (1 - both.right.hi!)) < 1e-12);
 * ```
 */
export function bootstrapIntervals<K extends string>(
  stats: readonly StatsRow[],
  statistics: Readonly<
    Record<K, (cells: readonly StatsRow[]) => number | null>
  >,
  options: BootstrapOptions = {},
): Record<K, BootstrapInterval> {
  const { resamples, level, prng } = checkOptions(options);
  const names = Object.keys(statistics) as K[];
  const fs = names.map((k) => statistics[k]);
  const cells = stats.filter((c) => c.n > 0);
  const weights = cells.map((c) => c.n);
  const n = weights.reduce((a, b) => a + b, 0);
  const values = fs.map(() => [] as number[]);
  if (n > 0) {
    for (let b = 0; b < resamples; b++) {
      const resample = resampleCells(prng, cells, weights, n);
      for (let j = 0; j < fs.length; j++) {
        const v = fs[j](resample);
        if (v !== null && Number.isFinite(v)) values[j].push(v);
      }
    }
  }
  return Object.fromEntries(
    names.map((k, j) => [
      k,
      interval(fs[j](stats), values[j], resamples, level, prng.seed),
    ]),
  ) as Record<K, BootstrapInterval>;
}

/**
 * A statistic that is a ratio of two weighted counts of decisions: per cell,
 * its decisions count `numerator(cell)` times in the numerator and
 * `denominator(cell)` times in the denominator, so the statistic of cells is
 * Σ numerator·n / Σ denominator·n, undefined (null) when the denominator is
 * 0. Accuracy and recall are such ratios, with weights 0 or 1.
 */
export interface CountRatio {
  /** Weight of one decision of the cell in the numerator. */
  numerator(cell: StatsRow): number;
  /** Weight of one decision of the cell in the denominator. */
  denominator(cell: StatsRow): number;
}

/**
 * A rate's count function as a {@linkcode CountRatio}: a cell's weights are
 * the counts of one of its decisions. Exact for count functions that sum
 * `n` over the cells they select, as accuracy and recall do.
 *
 * @param counts Successes `k` of trials `n` in some cells.
 * @returns The ratio of the same counts, cell by cell.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countRatio } from "./bootstrap.ts";
 *
 * const right = countRatio((cells) => ({
 *   k: cells.reduce((a, c) => a + (c.trueClass === c.predClass ? c.n : 0), 0),
 *   n: cells.reduce((a, c) => a + c.n, 0),
 * }));
 * const cell = { modelId: "A", severity: "LOW", trueClass: "X", predClass: "X", action: "auto",
 *   n: 7, pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * assert.deepEqual([right.numerator(cell), right.denominator(cell)], [1, 1]);
 * ```
 */
export function countRatio(
  counts: (cells: readonly StatsRow[]) => { k: number; n: number },
): CountRatio {
  const one = (cell: StatsRow) => counts([{ ...cell, n: 1 }]);
  return {
    numerator: (cell) => one(cell).k,
    denominator: (cell) => one(cell).n,
  };
}

function ratioOf(
  num: Float64Array,
  den: Float64Array,
  counts: ArrayLike<number>,
): number | null {
  let a = 0;
  let b = 0;
  for (let i = 0; i < counts.length; i++) {
    a += num[i] * counts[i];
    b += den[i] * counts[i];
  }
  return b === 0 ? null : a / b;
}

/**
 * Percentile bootstrap intervals for ratios of weighted counts
 * ({@linkcode CountRatio}), all read off the same resamples, without
 * building resampled cells.
 *
 * Every ratio reads a cell only through its weights, so cells with the same
 * weights in every ratio (say, all the correct LOW decisions, whatever
 * their classes) are one category: a multinomial resample of the cells,
 * summed over such a group, is a multinomial resample of the groups with
 * the groups' counts as weights (the multinomial's aggregation property).
 * Each resample is therefore one multinomial draw over the groups (a few
 * per severity, not one per cell) and each ratio two dot products with it.
 * The intervals have the distribution of the percentile bootstrap that
 * resamples every decision ({@linkcode bootstrapIntervals} of
 * Σ numerator·n / Σ denominator·n), at a cost that does not grow with the
 * number of classes.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param ratios Ratios by name.
 * @param options Resamples, level and seed.
 * @returns An interval per name.
 * @throws {RangeError} When resamples or level are out of range.
 *
 * @example Accuracy as a ratio: the classes of the errors do not matter
 * ```ts
 * import assert from "node:assert/strict";
 * import { bootstrapRatioIntervals } from "./bootstrap.ts";
 *
 * const cell = { modelId: "A", severity: "HIGH", action: "auto", pErrorSum: 0, pMissing: 0,
 *   parseFailures: 0 } as const;
 * const right = (c: { trueClass: string; predClass: string }) => c.trueClass === c.predClass ? 1 : 0;
 * const ratio = { accuracy: { numerator: right, denominator: () => 1 } };
 * const split = bootstrapRatioIntervals([{ ...cell, trueClass: "X", predClass: "X", n: 490 },
 *   { ...cell, trueClass: "X", predClass: "MATCH", n: 6 },
 *   { ...cell, trueClass: "X", predClass: "Y", n: 4 }], ratio, { seed: 3 });
 * const merged = bootstrapRatioIntervals([{ ...cell, trueClass: "X", predClass: "X", n: 490 },
 *   { ...cell, trueClass: "X", predClass: "MATCH", n: 10 }], ratio, { seed: 3 });
 * assert.deepEqual(split, merged);
 * assert.equal(split.accuracy.estimate, 0.98);
 * ```
 */
export function bootstrapRatioIntervals<K extends string>(
  stats: readonly StatsRow[],
  ratios: Readonly<Record<K, CountRatio>>,
  options: BootstrapOptions = {},
): Record<K, BootstrapInterval> {
  const { resamples, level, prng } = checkOptions(options);
  const names = Object.keys(ratios) as K[];
  // one category per distinct tuple of weights, in order of first sight
  const groups = new Map<string, { weights: number[]; n: number }>();
  for (const c of stats) {
    if (!(c.n > 0)) continue;
    const weights = names.flatMap((k) => [
      ratios[k].numerator(c),
      ratios[k].denominator(c),
    ]);
    const key = weights.join(",");
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { weights, n: c.n });
    else g.n += c.n;
  }
  const cats = [...groups.values()];
  const counts0 = cats.map((g) => g.n);
  const n = counts0.reduce((a, b) => a + b, 0);
  const num = names.map((_, j) =>
    Float64Array.from(cats, (g) => g.weights[2 * j])
  );
  const den = names.map((_, j) =>
    Float64Array.from(cats, (g) => g.weights[2 * j + 1])
  );
  const values = names.map(() => [] as number[]);
  if (n > 0) {
    for (let b = 0; b < resamples; b++) {
      const counts = multinomial(prng, n, counts0);
      for (let j = 0; j < names.length; j++) {
        const v = ratioOf(num[j], den[j], counts);
        if (v !== null && Number.isFinite(v)) values[j].push(v);
      }
    }
  }
  return Object.fromEntries(
    names.map((k, j) => [
      k,
      interval(
        ratioOf(num[j], den[j], counts0),
        values[j],
        resamples,
        level,
        prng.seed,
      ),
    ]),
  ) as Record<K, BootstrapInterval>;
}

/** One cell of paired statistics: how two models did on the same tasks. */
export interface PairedRow {
  /** Task severity. */
  readonly severity: Severity;
  /** Gold class. */
  readonly trueClass: string;
  /** Model A's predicted class. */
  readonly predA: string;
  /** Model A's action. */
  readonly actionA: "auto" | "escalate";
  /** Model B's predicted class. */
  readonly predB: string;
  /** Model B's action. */
  readonly actionB: "auto" | "escalate";
  /** Tasks in the cell. */
  readonly n: number;
}

/**
 * Split paired cells into each model's sufficient statistics.
 *
 * @param paired Paired cells.
 * @param ids Model ids to write into the rows. Default: `["A", "B"]`.
 * @returns Model A's and model B's cells.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unpair } from "./bootstrap.ts";
 *
 * const [a, b] = unpair([{ severity: "LOW", trueClass: "DUPLICATE", predA: "DUPLICATE",
 *   actionA: "auto", predB: "MATCH", actionB: "auto", n: 3 }]);
 * assert.equal(a[0].predClass, "DUPLICATE");
 * assert.equal(b[0].predClass, "MATCH");
 * ```
 */
export function unpair(
  paired: readonly PairedRow[],
  ids: readonly [string, string] = ["A", "B"],
): [StatsRow[], StatsRow[]] {
  const side = (
    pred: "predA" | "predB",
    action: "actionA" | "actionB",
    modelId: string,
  ) =>
    paired.map((r) => ({
      modelId,
      severity: r.severity,
      trueClass: r.trueClass,
      predClass: r[pred],
      action: r[action],
      n: r.n,
      pErrorSum: 0,
      pMissing: r.n,
      parseFailures: 0,
    }));
  return [side("predA", "actionA", ids[0]), side("predB", "actionB", ids[1])];
}

/** A paired comparison of two models on the same tasks. */
export interface PairedComparison extends BootstrapInterval {
  /** Two-sided bootstrap p-value for "the difference is 0". */
  readonly pValue: number | null;
  /** Tasks both models answered. */
  readonly pairs: number;
}

/**
 * A paired bootstrap for the difference of a statistic between two models
 * answering the same tasks: statistic(A) - statistic(B).
 *
 * Tasks, not decisions, are resampled, so each resample keeps every task's
 * two answers together and the correlation between the models is respected.
 * The p-value is twice the smaller share of resampled differences at or
 * beyond 0 on either side, capped at 1. When every resample falls on one
 * side it is reported as 1/B, the resolution of B resamples: read it as
 * p <= 1/B.
 *
 * @param paired Paired cells, from `pairedStats` in lib/decision.
 * @param statistic The statistic of one model's cells.
 * @param options Resamples, level and seed.
 * @returns The observed difference, its interval and a p-value.
 * @throws {RangeError} When resamples or level are out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { pairedBootstrap } from "./bootstrap.ts";
 * import { realisedLoss } from "./loss.ts";
 *
 * const cell = { severity: "HIGH", trueClass: "X", actionA: "auto", actionB: "auto" } as const;
 * const cmp = pairedBootstrap(
 *   [{ ...cell, predA: "MATCH", predB: "X", n: 10 }, { ...cell, predA: "X", predB: "X", n: 490 }],
 *   (s) => realisedLoss(s, getProfile("reconciliation")),
 *   { seed: 2 },
 * );
 * assert.equal(cmp.estimate, 100);
 * assert.ok(cmp.pValue! < 0.01);
 * ```
 */
export function pairedBootstrap(
  paired: readonly PairedRow[],
  statistic: (cells: readonly StatsRow[]) => number | null,
  options: BootstrapOptions = {},
): PairedComparison {
  const { resamples, level, prng } = checkOptions(options);
  const cells = paired.filter((c) => c.n > 0);
  const weights = cells.map((c) => c.n);
  const n = weights.reduce((a, b) => a + b, 0);
  const diff = (rows: readonly PairedRow[]): number | null => {
    const [a, b] = unpair(rows);
    const sa = statistic(a);
    const sb = statistic(b);
    return sa === null || sb === null ? null : sa - sb;
  };
  const values: number[] = [];
  if (n > 0) {
    for (let r = 0; r < resamples; r++) {
      const counts = multinomial(prng, n, weights);
      const rows = cells.map((c, i) => ({ ...c, n: counts[i] })).filter((c) =>
        c.n > 0
      );
      const v = diff(rows);
      if (v !== null && Number.isFinite(v)) values.push(v);
    }
  }
  const base = interval(diff(cells), values, resamples, level, prng.seed);
  let below = 0;
  let above = 0;
  for (const v of values) {
    if (v <= 0) below++;
    if (v >= 0) above++;
  }
  const pValue = values.length === 0
    ? null
    : Math.min(1, Math.max(2 * Math.min(below, above), 1) / values.length);
  return { ...base, pValue, pairs: n };
}
