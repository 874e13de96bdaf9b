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
  st: readonly Stratum[],
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
  st: readonly Stratum[],
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
  const alpha = options.alpha ?? 0.05;
  const target = options.power ?? 0.8;
  const maxTasks = options.maxTasks ?? 1_000_000;
  const simulations = options.simulations ?? 400;
  const powerSimulations = options.powerSimulations ?? 1000;
  const resamples = options.resamples ?? 400;
  const normalFrom = options.normalFrom ?? 5000;
  const prior = options.prior ?? 0.5;
  const seed = options.seed ?? 0;
  check("alpha", alpha, alpha > 0 && alpha < 1, "in (0, 1)");
  check("power", target, target > 0 && target < 1, "in (0, 1)");
  check(
    "maxTasks",
    maxTasks,
    Number.isSafeInteger(maxTasks) && maxTasks >= 2,
    "an integer >= 2",
  );
  check(
    "simulations",
    simulations,
    Number.isInteger(simulations) && simulations >= 1,
    "an integer >= 1",
  );
  check(
    "powerSimulations",
    powerSimulations,
    Number.isInteger(powerSimulations) && powerSimulations >= 1,
    "an integer >= 1",
  );
  check(
    "resamples",
    resamples,
    Number.isInteger(resamples) && resamples >= 1,
    "an integer >= 1",
  );
  check("prior", prior, prior > 0 && Number.isFinite(prior), "> 0");
  for (const n of options.at ?? []) {
    check("a size", n, Number.isSafeInteger(n) && n >= 1, "an integer >= 1");
  }
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
  // One posterior draw of every stratum's joint shares per simulation.
  const theta = Array.from({ length: simulations }, (_, s) => {
    const rng = seededPrng(seedFor(seed, `plan/theta/${s}`));
    return st.map((x) => {
      const g = Array.from(x.alpha, (a) => gamma(rng, a));
      const sum = g.reduce((p, q) => p + q, 0);
      return g.map((v) => v / sum);
    });
  });
  const z = normalQuantile(1 - alpha / 2);
  const estimate = st.map((x) => x.estimate);
  const cache = new Map<number, PowerPoint>();
  const at = (n: number): PowerPoint => {
    const hit = cache.get(n);
    if (hit !== undefined) return hit;
    const counts = allocate(n, st.map((x) => x.share));
    let power = 0;
    let assurance = 0;
    if (n >= normalFrom) {
      power = normalRejection(st, counts, estimate, z);
      for (let s = 0; s < simulations; s++) {
        assurance += normalRejection(st, counts, theta[s], z);
      }
    } else {
      // One stream per simulation, the same at every size: common random
      // numbers, so neighbouring sizes see correlated suites.
      const test = { resamples, alpha };
      let rejections = 0;
      for (let s = 0; s < powerSimulations; s++) {
        const rng = seededPrng(seedFor(seed, `plan/estimates/${s}`));
        if (rejects(st, counts, estimate, rng, test)) rejections++;
      }
      power = rejections / powerSimulations;
      for (let s = 0; s < simulations; s++) {
        const rng = seededPrng(seedFor(seed, `plan/outcomes/${s}`));
        if (rejects(st, counts, theta[s], rng, test)) assurance++;
      }
    }
    const point = { tasks: n, power, assurance: assurance / simulations };
    cache.set(n, point);
    return point;
  };
  for (const n of options.at ?? []) at(n);
  let lo = 0;
  let hi: number | null = null;
  for (let n = 16;; n *= 2) {
    const m = Math.min(n, maxTasks);
    if (at(m).power >= target) {
      hi = m;
      break;
    }
    lo = m;
    if (m === maxTasks) break;
  }
  if (hi !== null) {
    while (hi - lo > 1 && hi > 1.02 * lo) {
      const mid = lo === 0
        ? Math.floor(hi / 2)
        : Math.round(Math.sqrt(lo * hi));
      const m = Math.min(hi - 1, Math.max(lo + 1, mid));
      if (at(m).power >= target) hi = m;
      else lo = m;
    }
  }
  return {
    tasksNeeded: hi,
    powerAt: [...cache.values()].sort((x, y) => x.tasks - y.tasks),
  };
}
