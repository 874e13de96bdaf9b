/**
 * Sample-size planning for a paired comparison: how many tasks a suite needs
 * before `compare`'s sign-flip test tells two models apart in loss (or in
 * accuracy) with a given power at the pilot's estimates, with the assurance
 * over the pilot's uncertainty beside it, simulated from a pilot run.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { type PairedRow, unpair } from "./bootstrap.ts";
import { CONSEQUENCE_MATRIX, type CostMatrix } from "./loss.ts";
import { kindCosts, lossCells } from "./loss_posterior.ts";
import { _normalCdf } from "../math/_special.ts";
import { normalQuantile } from "../math/normal_quantile.ts";
import {
  gamma,
  multinomial,
  type Prng,
  seededPrng,
  seedFor,
} from "../math/sampling.ts";
import { signFlipTest } from "./sign_flip.ts";
import { outcomeOf } from "./sufficient_stats.ts";

/** Power and assurance at one suite size. */
export interface PowerPoint {
  /** Tasks in the simulated suite. */
  readonly tasks: number;
  /**
   * Power at the pilot's estimates: the probability that the test rejects at
   * `alpha` when the truth equals the pilot's joint shares, estimated as the
   * share of simulated suites drawn from them in which it rejects.
   */
  readonly power: number;
  /** Assurance: that probability averaged over the pilot's posterior. */
  readonly assurance: number;
}

/** What {@linkcode planSampleSize} found for one statistic. */
export interface SampleSizePlan {
  /** Smallest number of tasks found whose power at the pilot's estimates reaches the target; `null` when no size up to `maxTasks` does. */
  readonly tasksNeeded: number | null;
  /** Every size simulated, in increasing order of tasks. */
  readonly powerAt: readonly PowerPoint[];
}

/** Options for {@linkcode planSampleSize}. */
export interface SampleSizeOptions {
  /** What is compared: loss under the profile (default) or accuracy. */
  statistic?: "loss" | "accuracy";
  /** Significance level of the two-sided test, in (0, 1). Default: 0.05. */
  alpha?: number;
  /** Power to reach, in (0, 1). Default: 0.8. */
  power?: number;
  /** Largest suite considered. Default: 1,000,000. */
  maxTasks?: number;
  /** Sizes at which the power and the assurance are also reported (for example `--n-tasks`). Default: none. */
  at?: readonly number[];
  /** Posterior draws per size for the assurance, one simulated suite each. Default: 400. */
  simulations?: number;
  /** Suites per size drawn from the pilot's estimates for the power (below `normalFrom`). Default: 1,000. */
  powerSimulations?: number;
  /** Sign assignments of the Monte Carlo permutation test. Default: 400. */
  resamples?: number;
  /** From this many tasks on, the permutation test is replaced by its normal approximation. Default: 5,000. */
  normalFrom?: number;
  /** Cost matrix. Default: the consequence matrix. */
  matrix?: CostMatrix;
  /** Dirichlet prior weight per kind of each model (Jeffreys: 1/2). Default: 0.5. */
  prior?: number;
  /** Seed. Default: 0. */
  seed?: number;
}

/** One stratum of the pilot: a severity and a gold class, with its joint outcome categories. */
interface Stratum {
  share: number;
  /** Loss (or correctness) difference A − B of each joint category. */
  diff: Float64Array;
  /** Posterior Dirichlet parameters of the joint categories. */
  alpha: Float64Array;
  /** The pilot's joint shares (its estimates); the posterior mean when the pilot has no task here. */
  estimate: Float64Array;
}

function strata(
  paired: readonly PairedRow[],
  profile: CostProfile,
  statistic: "loss" | "accuracy",
  matrix: CostMatrix,
  prior: number,
): Stratum[] {
  const [a, b] = unpair(paired);
  const classes = [
    ...new Set(paired.flatMap((r) => [r.trueClass, r.predA, r.predB])),
  ];
  const actions = [
    ...new Set(paired.flatMap((r) => [r.actionA, r.actionB])),
  ];
  const cellsA = lossCells(a, { classes, actions });
  const cellsB = lossCells(b, { classes, actions });
  const total = paired.reduce((s, r) => s + r.n, 0);
  return cellsA.map((ca, i) => {
    const cb = cellsB[i];
    const ka = ca.kinds.length;
    const kb = cb.kinds.length;
    const costA = kindCosts(ca, profile, { matrix });
    const costB = kindCosts(cb, profile, { matrix });
    const diff = new Float64Array(ka * kb);
    for (let x = 0; x < ka; x++) {
      for (let y = 0; y < kb; y++) {
        diff[x * kb + y] = statistic === "loss"
          ? costA[x] - costB[y]
          : (ca.kinds[x].outcome === "correct" ? 1 : 0) -
            (cb.kinds[y].outcome === "correct" ? 1 : 0);
      }
    }
    // Each model's kinds get prior/max(ka, kb) per joint category, so a kind
    // never observed (a CRITICAL miss) keeps posterior mass, and the joint
    // table keeps the pilot's correlation between the two models.
    const alpha = new Float64Array(ka * kb).fill(prior / Math.max(ka, kb));
    const count = new Float64Array(ka * kb);
    let n = 0;
    for (const r of paired) {
      if (r.severity !== ca.severity || r.trueClass !== ca.trueClass) continue;
      const x = ca.kinds.findIndex((k) =>
        k.action === r.actionA && k.outcome === outcomeOf(r.trueClass, r.predA)
      );
      const y = cb.kinds.findIndex((k) =>
        k.action === r.actionB && k.outcome === outcomeOf(r.trueClass, r.predB)
      );
      alpha[x * kb + y] += r.n;
      count[x * kb + y] += r.n;
      n += r.n;
    }
    const mass = n > 0 ? n : alpha.reduce((p, q) => p + q, 0);
    const estimate = (n > 0 ? count : alpha).map((v) => v / mass);
    return { share: n / total, diff, alpha, estimate };
  });
}

function allocate(n: number, shares: readonly number[]): number[] {
  const exact = shares.map((s) => s * n);
  const counts = exact.map(Math.floor);
  let left = n - counts.reduce((x, y) => x + y, 0);
  const order = exact.map((v, i) => [v - Math.floor(v), i] as const).sort((
    x,
    y,
  ) => y[0] - x[0] || x[1] - y[1]);
  for (const [, i] of order) {
    if (left-- <= 0) break;
    counts[i]++;
  }
  return counts;
}

function check(name: string, v: number, ok: boolean, want: string): void {
  if (!ok) {
    throw new RangeError(
      `Cannot plan a sample size: ${name} must be ${want}, got ${v}`,
    );
  }
}

/**
 * The normal approximation of the test, in closed form given every stratum's
 * joint shares: T = Σd is about N(Σ n_c μ_c, Σ n_c σ_c²) and the permutation
 * variance Σd² is about Σ n_c E[d²]_c, so P(|T| > z sqrt(Σd²)) is two normal
 * tails, with no outcome noise.
 */
function normalRejection(
  st: readonly { diff: Float64Array }[],
  counts: readonly number[],
  theta: readonly ArrayLike<number>[],
  z: number,
): number {
  let mean = 0;
  let variance = 0;
  let second = 0;
  st.forEach((x, i) => {
    const th = theta[i];
    let mu = 0;
    let m2 = 0;
    for (let j = 0; j < th.length; j++) {
      mu += th[j] * x.diff[j];
      m2 += th[j] * x.diff[j] * x.diff[j];
    }
    mean += counts[i] * mu;
    variance += counts[i] * (m2 - mu * mu);
    second += counts[i] * m2;
  });
  if (second === 0) return 0;
  const bar = z * Math.sqrt(second);
  const sd = Math.sqrt(Math.max(variance, 0));
  return sd === 0
    ? (Math.abs(mean) > bar ? 1 : 0)
    : _normalCdf((mean - bar) / sd) + _normalCdf((-mean - bar) / sd);
}

/**
 * Whether the sign-flip test rejects on one suite drawn from every stratum's
 * joint shares (`counts` tasks per stratum).
 */
function rejects(
  st: readonly { diff: Float64Array }[],
  counts: readonly number[],
  theta: readonly ArrayLike<number>[],
  rng: Prng,
  test: { resamples: number; alpha: number },
): boolean {
  // Tasks with equal differences are pooled, in whichever stratum: the
  // signs of m tasks flip as one Binomial(m, 1/2), so the test is the same
  // with one draw per distinct difference instead of one per category.
  const pooled = new Map<number, number>();
  st.forEach((x, i) => {
    if (counts[i] === 0) return;
    const k = multinomial(rng, counts[i], theta[i]);
    for (let j = 0; j < k.length; j++) {
      if (k[j] > 0 && x.diff[j] !== 0) {
        pooled.set(x.diff[j], (pooled.get(x.diff[j]) ?? 0) + k[j]);
      }
    }
  });
  const t = signFlipTest([...pooled.keys()], {
    weights: [...pooled.values()],
    resamples: test.resamples,
    prng: rng,
  });
  return t.pValue <= test.alpha;
}

const powerOf = (p: { power: number; assurance: number }) => ({
  power: p.power,
  assurance: p.assurance,
});

// one draw from Dirichlet(alpha), as normalised gammas
function dirichlet(rng: Prng, alpha: ArrayLike<number>): number[] {
  const g = Array.from(alpha, (a) => gamma(rng, a));
  const sum = g.reduce((p, q) => p + q, 0);
  return g.map((v) => v / sum);
}

/** The settings of a search shared by tasks and clusters, checked. */
interface Settings {
  maxUnits: number;
  alpha: number;
  target: number;
  at: readonly number[];
  simulations: number;
  powerSimulations: number;
  resamples: number;
  normalFrom: number;
  seed: number;
}

function settings(
  options: Omit<SampleSizeOptions, "statistic" | "matrix" | "prior">,
  maxName: "maxTasks" | "maxClusters",
  max = 1_000_000,
): Settings {
  check(
    maxName,
    max,
    Number.isSafeInteger(max) && max >= 2,
    "an integer >= 2",
  );
  const s = {
    maxUnits: max,
    alpha: options.alpha ?? 0.05,
    target: options.power ?? 0.8,
    at: options.at ?? [],
    simulations: options.simulations ?? 400,
    powerSimulations: options.powerSimulations ?? 1000,
    resamples: options.resamples ?? 400,
    normalFrom: options.normalFrom ?? 5000,
    seed: options.seed ?? 0,
  };
  check("alpha", s.alpha, s.alpha > 0 && s.alpha < 1, "in (0, 1)");
  check("power", s.target, s.target > 0 && s.target < 1, "in (0, 1)");
  for (
    const name of ["simulations", "powerSimulations", "resamples"] as const
  ) {
    const v = s[name];
    check(name, v, Number.isInteger(v) && v >= 1, "an integer >= 1");
  }
  for (const n of s.at) {
    check("a size", n, Number.isSafeInteger(n) && n >= 1, "an integer >= 1");
  }
  return s;
}

/**
 * The power and assurance at every size the search visits, and the
 * smallest size found whose power reaches the target: sizes double from 16
 * until it does (or `maxUnits` is passed), then a log bisection to 2%.
 * `countsOf(n)` spreads n units over the strata; `draw(rng)` draws one set
 * of every stratum's shares from the posterior.
 */
function search(
  st: readonly { diff: Float64Array }[],
  countsOf: (n: number) => number[],
  estimate: readonly ArrayLike<number>[],
  draw: (rng: Prng) => ArrayLike<number>[],
  s: Settings,
): {
  needed: number | null;
  powerAt: { n: number; power: number; assurance: number }[];
} {
  // One posterior draw of every stratum's joint shares per simulation.
  const theta = Array.from(
    { length: s.simulations },
    (_, i) => draw(seededPrng(seedFor(s.seed, `plan/theta/${i}`))),
  );
  const z = normalQuantile(1 - s.alpha / 2);
  const cache = new Map<
    number,
    { n: number; power: number; assurance: number }
  >();
  const at = (n: number) => {
    const hit = cache.get(n);
    if (hit !== undefined) return hit;
    const counts = countsOf(n);
    let power = 0;
    let assurance = 0;
    if (n >= s.normalFrom) {
      power = normalRejection(st, counts, estimate, z);
      for (let i = 0; i < s.simulations; i++) {
        assurance += normalRejection(st, counts, theta[i], z);
      }
    } else {
      // One stream per simulation, the same at every size: common random
      // numbers, so neighbouring sizes see correlated suites.
      const test = { resamples: s.resamples, alpha: s.alpha };
      let rejections = 0;
      for (let i = 0; i < s.powerSimulations; i++) {
        const rng = seededPrng(seedFor(s.seed, `plan/estimates/${i}`));
        if (rejects(st, counts, estimate, rng, test)) rejections++;
      }
      power = rejections / s.powerSimulations;
      for (let i = 0; i < s.simulations; i++) {
        const rng = seededPrng(seedFor(s.seed, `plan/outcomes/${i}`));
        if (rejects(st, counts, theta[i], rng, test)) assurance++;
      }
    }
    const point = { n, power, assurance: assurance / s.simulations };
    cache.set(n, point);
    return point;
  };
  for (const n of s.at) at(n);
  let lo = 0;
  let hi: number | null = null;
  for (let n = 16;; n *= 2) {
    const m = Math.min(n, s.maxUnits);
    if (at(m).power >= s.target) {
      hi = m;
      break;
    }
    lo = m;
    if (m === s.maxUnits) break;
  }
  if (hi !== null) {
    while (hi - lo > 1 && hi > 1.02 * lo) {
      const mid = lo === 0
        ? Math.floor(hi / 2)
        : Math.round(Math.sqrt(lo * hi));
      const m = Math.min(hi - 1, Math.max(lo + 1, mid));
      if (at(m).power >= s.target) hi = m;
      else lo = m;
    }
  }
  return {
    needed: hi,
    powerAt: [...cache.values()].sort((x, y) => x.n - y.n),
  };
}

/**
 * How many tasks a paired comparison of two models needs to reach a power,
 * by seeded simulation of `compare`'s sign-flip permutation test.
 *
 * The pilot's tasks are grouped by severity and gold class. Each size N is
 * allocated to the strata in the pilot's mix, and two figures are reported:
 *
 * - `power`, the power at the pilot's estimates: the probability that the
 *   two-sided sign-flip test on the per-task differences (loss of A minus B,
 *   or correct A minus correct B) rejects at `alpha` when each stratum's
 *   joint outcomes (A's kind × B's kind, as the cost matrix prices them)
 *   have exactly the pilot's shares. It is the share of rejections among
 *   `powerSimulations` suites drawn from those shares.
 * - `assurance`, that probability averaged over the pilot's uncertainty:
 *   each stratum's joint outcomes get a Dirichlet posterior from the pilot
 *   counts plus a Jeffreys-type prior (1/2 per kind of each model, spread
 *   over the joint categories), so a costly outcome never observed in the
 *   pilot is still simulated; each of `simulations` suites draws its joint
 *   shares from that posterior, then its outcomes. A pilot that barely
 *   separates the models gives an assurance below the power.
 *
 * Every suite has its own seeded stream, the same at every size (common
 * random numbers), and each posterior draw is shared by every size. From
 * `normalFrom` tasks on, the test is its normal approximation,
 * |Σd| / sqrt(Σd²) > z(1 − alpha/2), whose rejection probability given the
 * shares is two normal tails (T = Σd is about normal with the shares' mean
 * and variance, Σd² about its expected value), so no outcomes are drawn
 * there and the power is exact given the approximation. `tasksNeeded` is
 * the smallest N found whose power reaches the target: the search doubles N
 * from 16 until it does (or `maxTasks` is passed), then bisects on a log
 * scale to within 2%. Cost is
 * O(sizes × (simulations + powerSimulations) × (categories + resamples × distinct differences)),
 * whatever N.
 *
 * @param paired The pilot's paired cells (from `pairedStats` in lib/decision).
 * @param profile Cost profile of the loss.
 * @param options Statistic, alpha, power, sizes, simulations, power simulations, resamples, matrix, prior and seed.
 * @returns The smallest N found and the power and assurance at every size simulated.
 * @throws {RangeError} When the pilot is empty or an option is out of range.
 *
 * @example B makes half of A's HIGH misses: a few hundred tasks find it
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { planSampleSize } from "./sample_size.ts";
 *
 * const cell = { severity: "HIGH", trueClass: "X", actionA: "auto", actionB: "auto" } as const;
 * const pilot = [
 *   { ...cell, predA: "X", predB: "X", n: 80 },
 *   { ...cell, predA: "MATCH", predB: "X", n: 14 },
 *   { ...cell, predA: "X", predB: "MATCH", n: 6 },
 * ];
 * const plan = planSampleSize(pilot, getProfile("reconciliation"), { simulations: 200, powerSimulations: 200, seed: 1 });
 * assert.ok(plan.tasksNeeded !== null && plan.tasksNeeded < 2000);
 * const at = plan.powerAt.find((p) => p.tasks === plan.tasksNeeded)!;
 * assert.ok(at.power >= 0.8 && at.assurance < at.power);
 * ```
 */
export function planSampleSize(
  paired: readonly PairedRow[],
  profile: CostProfile,
  options: SampleSizeOptions = {},
): SampleSizePlan {
  const statistic = options.statistic ?? "loss";
  const checked = settings(options, "maxTasks", options.maxTasks);
  const prior = options.prior ?? 0.5;
  check("prior", prior, prior > 0 && Number.isFinite(prior), "> 0");
  const tasks = paired.reduce((s, r) => s + r.n, 0);
  if (tasks === 0) {
    throw new RangeError(
      "Cannot plan a sample size: the pilot has no paired tasks",
    );
  }
  const st = strata(
    paired,
    profile,
    statistic,
    options.matrix ?? CONSEQUENCE_MATRIX,
    prior,
  );
  const found = search(
    st,
    (n) => allocate(n, st.map((x) => x.share)),
    st.map((x) => x.estimate),
    (rng) => st.map((x) => dirichlet(rng, x.alpha)),
    checked,
  );
  return {
    tasksNeeded: found.needed,
    powerAt: found.powerAt.map((p) => ({ tasks: p.n, ...powerOf(p) })),
  };
}

/** Power and assurance at one number of clusters. */
export interface ClusterPowerPoint {
  /** Clusters in the simulated suite. */
  readonly clusters: number;
  /**
   * Power at the pilot's estimates: the share of simulated suites, each
   * drawn from the pilot's clusters with replacement, in which the test
   * rejects at `alpha`.
   */
  readonly power: number;
  /** Assurance: that probability averaged over the Bayesian bootstrap posterior of the pilot's clusters. */
  readonly assurance: number;
}

/** What {@linkcode planClusterSampleSize} found for one statistic. */
export interface ClusterSampleSizePlan {
  /** Smallest number of clusters found whose power at the pilot's estimates reaches the target; `null` when no number up to `maxClusters` does. */
  readonly clustersNeeded: number | null;
  /** Every number of clusters simulated, in increasing order. */
  readonly powerAt: readonly ClusterPowerPoint[];
}

/** Options for {@linkcode planClusterSampleSize}: those of {@linkcode planSampleSize} that apply, with sizes in clusters. */
export interface ClusterSampleSizeOptions
  extends
    Omit<SampleSizeOptions, "statistic" | "matrix" | "prior" | "maxTasks"> {
  /** Largest number of clusters considered. Default: 1,000,000. */
  maxClusters?: number;
}

/**
 * How many clusters a paired comparison of two models needs to reach a
 * power, by seeded simulation of `compare`'s sign-flip test with the
 * cluster as the unit.
 *
 * The pilot is given as its clusters' differences: each cluster's sum of
 * its tasks' differences (loss of A minus B, or correct A minus correct B),
 * as `unitDifferences` merges them, with the number of pilot clusters that
 * share it as its weight. A future suite of k clusters draws k of the
 * pilot's clusters with replacement, each whole (its tasks and both
 * models' answers on them, so however its tasks fail together), and the
 * test flips each drawn cluster's difference as one unit. Two figures:
 *
 * - `power`, at the pilot's estimates: the truth is the pilot's own clusters
 *   (the empirical distribution of a cluster's difference), estimated from
 *   `powerSimulations` suites per size.
 * - `assurance`, that probability averaged over the Bayesian bootstrap
 *   posterior (`rubin-1981`): each of `simulations` suites first draws
 *   Dirichlet(1, …, 1) weights over the pilot's clusters, then its clusters.
 *   It never simulates a cluster unlike every pilot cluster, so it carries
 *   less of the pilot's uncertainty than the Dirichlet of {@linkcode planSampleSize}.
 *
 * Clusters are not stratified: a cluster's tasks may span severities and
 * gold classes, so a suite of clusters cannot keep a mix of tasks fixed.
 * Common random numbers, the normal approximation from `normalFrom`
 * clusters and the search are those of {@linkcode planSampleSize}. Cost is
 * O(sizes × (simulations + powerSimulations) × (distinct differences + resamples × distinct differences)).
 *
 * @param differences Each distinct cluster difference of the pilot.
 * @param weights The pilot's clusters with that difference.
 * @param options Alpha, power, sizes, simulations, resamples and seed.
 * @returns The smallest number of clusters found and the power and assurance at every size simulated.
 * @throws {RangeError} When the pilot has no cluster, a weight is not a positive integer, or an option is out of range.
 *
 * @example A gains in 30 of 100 clusters and loses in 10: a few dozen clusters
 * ```ts
 * import assert from "node:assert/strict";
 * import { planClusterSampleSize } from "./sample_size.ts";
 *
 * const plan = planClusterSampleSize([0, 3, -2], [60, 30, 10], { simulations: 100, powerSimulations: 200, seed: 1 });
 * assert.ok(plan.clustersNeeded !== null && plan.clustersNeeded < 100);
 * ```
 */
export function planClusterSampleSize(
  differences: ArrayLike<number>,
  weights: ArrayLike<number>,
  options: ClusterSampleSizeOptions = {},
): ClusterSampleSizePlan {
  const checked = settings(options, "maxClusters", options.maxClusters);
  if (differences.length !== weights.length || differences.length === 0) {
    throw new RangeError(
      `Cannot plan a sample size: expected one weight per cluster difference and at least one, got ${differences.length} differences and ${weights.length} weights`,
    );
  }
  let clusters = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i];
    check(
      `weight ${i}`,
      w,
      Number.isSafeInteger(w) && w >= 1,
      "an integer >= 1",
    );
    check(
      `difference ${i}`,
      differences[i],
      Number.isFinite(differences[i]),
      "finite",
    );
    clusters += w;
  }
  const st = [{ diff: Float64Array.from(differences) }];
  const found = search(
    st,
    (n) => [n],
    [Array.from(weights, (w) => w / clusters)],
    // the Bayesian bootstrap: Dirichlet(1) per pilot cluster, so w clusters
    // sharing a difference weigh Gamma(w) together
    (rng) => [dirichlet(rng, weights)],
    checked,
  );
  return {
    clustersNeeded: found.needed,
    powerAt: found.powerAt.map((p) => ({ clusters: p.n, ...powerOf(p) })),
  };
}
