/**
 * Sample-size planning for a paired comparison: how many tasks a suite needs
 * before `compare`'s sign-flip test tells two models apart in loss (or in
 * accuracy) with a given power, simulated from a pilot run.
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

/** Power at one suite size. */
export interface PowerPoint {
  /** Tasks in the simulated suite. */
  readonly tasks: number;
  /** Share of simulated suites in which the test rejects at `alpha`. */
  readonly power: number;
}

/** What {@linkcode planSampleSize} found for one statistic. */
export interface SampleSizePlan {
  /** Smallest number of tasks found to reach the power; `null` when no size up to `maxTasks` does. */
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
  /** Sizes at which the power is also reported (for example `--n-tasks`). Default: none. */
  at?: readonly number[];
  /** Simulated suites per size. Default: 400. */
  simulations?: number;
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
      n += r.n;
    }
    return { share: n / total, diff, alpha };
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
 * How many tasks a paired comparison of two models needs to reach a power,
 * by seeded simulation of `compare`'s sign-flip permutation test.
 *
 * The pilot's tasks are grouped by severity and gold class; each stratum's
 * joint outcomes (A's kind × B's kind, as the cost matrix prices them) get a
 * Dirichlet posterior from the pilot counts plus a Jeffreys-type prior
 * (1/2 per kind of each model, spread over the joint categories), so a
 * costly outcome never observed in the pilot is still simulated. Each
 * simulated suite draws joint shares from that posterior (one draw per
 * simulation, shared by every size: common random numbers), allocates N
 * tasks to the strata in the pilot's mix, draws the outcomes, and runs the
 * two-sided sign-flip test on the per-task differences (loss of A minus B,
 * or correct A minus correct B) at `alpha`. From `normalFrom` tasks on, the
 * test is its normal approximation, |Σd| / sqrt(Σd²) > z(1 − alpha/2), whose
 * rejection probability given a posterior draw is two normal tails (T = Σd
 * is about normal with the draw's mean and variance, Σd² about its expected
 * value), so no outcomes are drawn there. The power at N is the share of
 * rejections averaged over the posterior draws:
 * a pilot that barely separates the models plans for that uncertainty. The
 * search doubles N from 16 until the power is reached (or `maxTasks` is
 * passed), then bisects on a log scale to within 2%. Cost is
 * O(sizes × simulations × (categories + resamples × categories)), whatever N.
 *
 * @param paired The pilot's paired cells (from `pairedStats` in lib/decision).
 * @param profile Cost profile of the loss.
 * @param options Statistic, alpha, power, sizes, simulations, resamples, matrix, prior and seed.
 * @returns The smallest N found and every simulated power.
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
 * const plan = planSampleSize(pilot, getProfile("reconciliation"), { simulations: 200, seed: 1 });
 * assert.ok(plan.tasksNeeded !== null && plan.tasksNeeded < 2000);
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
  const cache = new Map<number, number>();
  const powerAt = (n: number): number => {
    const hit = cache.get(n);
    if (hit !== undefined) return hit;
    const counts = allocate(n, st.map((x) => x.share));
    let rejections = 0;
    if (n >= normalFrom) {
      // The normal approximation, in closed form given each posterior draw:
      // T = Σd is about N(Σ n_c μ_c, Σ n_c σ_c²) and the permutation
      // variance Σd² is about Σ n_c E[d²]_c, so P(|T| > z sqrt(Σd²)) is two
      // normal tails; averaged over the draws, it has no outcome noise.
      for (let s = 0; s < simulations; s++) {
        let mean = 0;
        let variance = 0;
        let second = 0;
        st.forEach((x, i) => {
          const th = theta[s][i];
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
        if (second === 0) continue;
        const bar = z * Math.sqrt(second);
        const sd = Math.sqrt(Math.max(variance, 0));
        rejections += sd === 0
          ? (Math.abs(mean) > bar ? 1 : 0)
          : _normalCdf((mean - bar) / sd) + _normalCdf((-mean - bar) / sd);
      }
    } else {
      for (let s = 0; s < simulations; s++) {
        // One stream per simulation, the same at every size: common random
        // numbers, so neighbouring sizes see correlated suites.
        const rng: Prng = seededPrng(seedFor(seed, `plan/outcomes/${s}`));
        const values: number[] = [];
        const weights: number[] = [];
        st.forEach((x, i) => {
          if (counts[i] === 0) return;
          const k = multinomial(rng, counts[i], theta[s][i]);
          for (let j = 0; j < k.length; j++) {
            if (k[j] > 0 && x.diff[j] !== 0) {
              values.push(x.diff[j]);
              weights.push(k[j]);
            }
          }
        });
        const test = signFlipTest(values, { weights, resamples, prng: rng });
        if (test.pValue <= alpha) rejections++;
      }
    }
    const p = rejections / simulations;
    cache.set(n, p);
    return p;
  };
  for (const n of options.at ?? []) powerAt(n);
  let lo = 0;
  let hi: number | null = null;
  for (let n = 16;; n *= 2) {
    const m = Math.min(n, maxTasks);
    if (powerAt(m) >= target) {
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
      if (powerAt(m) >= target) hi = m;
      else lo = m;
    }
  }
  return {
    tasksNeeded: hi,
    powerAt: [...cache.entries()].sort((x, y) => x[0] - y[0]).map((
      [t, p],
    ) => ({ tasks: t, power: p })),
  };
}
