/**
 * Miller's CLT standard errors: the normal-approximation interval of a mean
 * over questions, with clustered standard errors when questions come in
 * groups, as "Adding Error Bars to Evals" recommends. lossbook keeps it as a
 * baseline: on heavy-tailed losses it fails the way the percentile bootstrap
 * does (see the coverage study in `docs/method.md`).
 *
 * @module
 */

import { normalQuantile } from "../math/normal_quantile.ts";

/** A CLT interval for a mean, or for a total (mean × n). */
export interface CltInterval {
  /** The mean (or total) on the observed data; `null` when there is no data. */
  readonly estimate: number | null;
  /** Its standard error; `null` when there is no data. */
  readonly se: number | null;
  /** estimate − z·se; `null` when there is no data. */
  readonly lo: number | null;
  /** estimate + z·se; `null` when there is no data. */
  readonly hi: number | null;
  /** Confidence level. */
  readonly level: number;
  /** Observations (weighted count). */
  readonly n: number;
  /** Clusters the standard error was computed over. */
  readonly clusters: number;
  /** How it was computed. */
  readonly method: "clt" | "clustered clt";
}

/** Options for {@linkcode cltInterval}. */
export interface CltOptions {
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
  /**
   * How many observations each value stands for (counts of identical
   * values, as in sufficient statistics). Default: 1 each.
   */
  weights?: ArrayLike<number>;
  /**
   * Cluster of each value (for example its task id when a task has several
   * trials). Values of one cluster are summed before the variance is taken.
   * Default: every observation its own cluster.
   */
  clusters?: ArrayLike<string | number>;
  /** Report the total (mean × n) instead of the mean. Default: `false`. */
  total?: boolean;
}

/**
 * The CLT interval of a mean with Miller's (clustered) standard error.
 *
 * Miller (`miller-2024`) writes the standard error of an eval score, the
 * mean x̄ of n question scores, as sqrt(s²/n) with s² the sample variance,
 * and, when questions fall into clusters c (several questions on one
 * passage, several trials of one task), as the cluster-robust
 * sqrt(Σ_c (Σ_{i∈c} (x_i − x̄))²) / n, which reduces to the unclustered
 * form up to the factor n/(n − 1) when every cluster holds one question. For
 * a paired comparison of two models he takes the per-question differences;
 * pass those. The interval is
 * x̄ ± z·SE with z the normal quantile at (1 + level) / 2. Weighted values
 * (a value with weight w counts as w identical observations, each its own
 * cluster unless `clusters` is given) let it run on sufficient statistics.
 * Cost is O(values).
 *
 * @param values One score per observation (or per group of identical ones, with `weights`).
 * @param options Level, weights, clusters and whether to report the total.
 * @returns The interval; every number is `null` when there are no observations.
 * @throws {RangeError} When the level is not in (0, 1), a weight is negative or not finite, or a value is not finite.
 * @throws {TypeError} When weights or clusters differ in length from the values.
 *
 * @example 3 errors in 60 questions, unclustered and by cluster of two
 * ```ts
 * import assert from "node:assert/strict";
 * import { cltInterval } from "./clt_interval.ts";
 *
 * const x = Array.from({ length: 60 }, (_, i) => (i < 3 ? 1 : 0));
 * const ci = cltInterval(x);
 * // sqrt(s² / n) with s² = 60 × 0.05 × 0.95 / 59
 * assert.ok(Math.abs(ci.se! - Math.sqrt((0.05 * 0.95) / 59)) < 1e-12);
 * const paired = cltInterval(x, { clusters: x.map((_, i) => Math.floor(i / 2)) });
 * assert.equal(paired.clusters, 30);
 * assert.equal(cltInterval([]).estimate, null);
 * ```
 */
export function cltInterval(
  values: ArrayLike<number>,
  options: CltOptions = {},
): CltInterval {
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot compute a CLT interval: level must be in (0, 1), got ${level}`,
    );
  }
  const m = values.length;
  const w = options.weights;
  const cl = options.clusters;
  if (w !== undefined && w.length !== m) {
    throw new TypeError(
      `Cannot compute a CLT interval: ${m} values but ${w.length} weights`,
    );
  }
  if (cl !== undefined && cl.length !== m) {
    throw new TypeError(
      `Cannot compute a CLT interval: ${m} values but ${cl.length} clusters`,
    );
  }
  let n = 0;
  let sum = 0;
  for (let i = 0; i < m; i++) {
    const wi = w === undefined ? 1 : w[i];
    if (!(wi >= 0) || !Number.isFinite(wi)) {
      throw new RangeError(
        `Cannot compute a CLT interval: weight ${i} must be finite and >= 0, got ${wi}`,
      );
    }
    if (!Number.isFinite(values[i])) {
      throw new RangeError(
        `Cannot compute a CLT interval: value ${i} must be finite, got ${
          values[i]
        }`,
      );
    }
    n += wi;
    sum += wi * values[i];
  }
  const method = cl === undefined ? "clt" : "clustered clt";
  if (n === 0) {
    return {
      estimate: null,
      se: null,
      lo: null,
      hi: null,
      level,
      n: 0,
      clusters: 0,
      method,
    };
  }
  const mean = sum / n;
  let se: number;
  let clusters: number;
  if (cl === undefined) {
    let ss = 0;
    for (let i = 0; i < m; i++) {
      const wi = w === undefined ? 1 : w[i];
      ss += wi * (values[i] - mean) ** 2;
    }
    se = n > 1 ? Math.sqrt(ss / (n - 1) / n) : 0;
    clusters = n;
  } else {
    const byCluster = new Map<string | number, number>();
    for (let i = 0; i < m; i++) {
      const wi = w === undefined ? 1 : w[i];
      byCluster.set(
        cl[i],
        (byCluster.get(cl[i]) ?? 0) + wi * (values[i] - mean),
      );
    }
    let ss = 0;
    for (const v of byCluster.values()) ss += v * v;
    se = Math.sqrt(ss) / n;
    clusters = byCluster.size;
  }
  const scale = options.total ? n : 1;
  const z = normalQuantile((1 + level) / 2);
  const estimate = mean * scale;
  const s = se * scale;
  return {
    estimate,
    se: s,
    lo: estimate - z * s,
    hi: estimate + z * s,
    level,
    n,
    clusters,
    method,
  };
}
