/**
 * Joint posterior draws of several models' expected losses under a prior
 * pooled across the models, cell by cell: what the probability of being
 * best reads.
 *
 * A costly cell often expects about one error per model. Independent
 * Jeffreys posteriors per model take a 0-against-2 count in such a cell at
 * face value, so the probability of being best comes out over-confident
 * wherever those cells carry the loss. Here the models' shares in a cell are
 * drawn from one population, whose spread is learned from every cell of
 * every model:
 *
 * - In each cell (severity × gold class) of each model, the decisions fall
 *   into *cost groups*: kinds priced by the same rule of the cost matrix
 *   (under `consequence`: correct, missed, and everything that costs a
 *   review). Kinds of one group cost the same under every profile, so the
 *   loss depends on the group shares only.
 * - The group shares of a cell are written as a chain of binary splits
 *   (stick-breaking): the share of the first group, then of the second among
 *   the rest, and so on, in the order of the cell's kinds.
 * - In split s, model m's share V has the prior Beta(κμ, κ(1 − μ)),
 *   independently across models, with the split's own mean μ (prior
 *   Beta(1/2, 1/2), Jeffreys) and κ set so that the models' log-odds spread
 *   with standard deviation τ: ψ₁(κμ) + ψ₁(κ(1 − μ)) = τ² (ψ₁ the trigamma
 *   function; the left side is the variance of the log-odds of a Beta draw).
 * - τ is one number for the whole run (models differ from one another by
 *   about as much, in log-odds, in every cell), with the uniform-shrinkage
 *   prior of Natarajan and Kass (`natarajan-kass-2000`): τ² has density
 *   c / (c + τ²)², c the inverse of the mean binomial information
 *   n·μ̂(1 − μ̂) of a model's split, so that the shrinkage c / (c + τ²) is
 *   uniform on (0, 1).
 *
 * The posterior is sampled exactly up to two grids: τ on 16 points (the
 * midpoints of 16 equal steps of the shrinkage), each split's μ on 13
 * points of the log-odds around its posterior given τ; given (τ, μ) the
 * splits are Beta (conjugate), with the effective counts (a task's trials as
 * one task) as data. A draw takes τ, then each split's μ, then every
 * model's shares, so the models' draws are joint and aligned by index. Cost
 * is O(splits × grid × models) for the grids and O(draws × splits × models)
 * for the draws.
 *
 * Pooling also decides where the probability is worth stating:
 * {@linkcode comparisonShrinkage} measures how much of the comparison the
 * prior, rather than the models' own counts, carries, and
 * {@linkcode pooledProbabilityBest} (what `score` reports) gives null where
 * that is more than half.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { type Severity, severityRank } from "../costs/severity.ts";
import { _logGamma as logGamma } from "../math/_special.ts";
import { gamma, type Prng, seededPrng } from "../math/sampling.ts";
import {
  CONSEQUENCE_MATRIX,
  type CostMatrix,
  type CostRule,
  ruleCost,
} from "./loss.ts";
import { type LossCellOptions, lossCells } from "./loss_posterior.ts";
import { probabilityBest } from "./rank_probability.ts";
import {
  forModel,
  modelIds,
  OUTCOMES,
  type StatsRow,
} from "./sufficient_stats.ts";

/** One cell of one model in a {@linkcode PooledLossPosterior}. */
export interface PooledCell {
  /** Severity of the cell. */
  readonly severity: Severity;
  /** Gold class of the cell. */
  readonly trueClass: string;
  /** Decisions in the cell. */
  readonly n: number;
  /** Tasks in the cell (trials of a task count as one). */
  readonly effectiveN: number;
  /** The cost rule of each group, in the cell's group order (the same for every model with the cell). */
  readonly rules: readonly CostRule[];
  /** Group shares per draw, row-major: `shares[d * rules.length + g]`; a group the model cannot reach has share 0. */
  readonly shares: Float64Array;
  /**
   * The Dirichlet shapes of the group shares under the model's own
   * Jeffreys posterior (`lossPosterior`: effective count + 1/2 per kind,
   * summed over the group's kinds; 0 for a group the model cannot reach):
   * the posterior without pooling, which {@linkcode comparisonShrinkage}
   * compares with.
   */
  readonly jeffreys: readonly number[];
}

/** Seeded joint draws of every model's cost-group shares. */
export interface PooledLossPosterior {
  /** Model ids, sorted. */
  readonly models: readonly string[];
  /** Cells per model id. */
  readonly cells: Readonly<Record<string, readonly PooledCell[]>>;
  /** Number of draws. */
  readonly draws: number;
  /** The grid of τ, the spread of the models' log-odds, and its posterior weights. */
  readonly tau: {
    readonly grid: readonly number[];
    readonly posterior: readonly number[];
  };
  /** Seed of the generator the draws came from. */
  readonly seed: number;
}

/** Options for {@linkcode pooledLossPosterior}. */
export interface PooledPosteriorOptions extends LossCellOptions {
  /** Cost matrix whose rules form the cost groups. Default: {@linkcode CONSEQUENCE_MATRIX}. */
  matrix?: CostMatrix;
  /** Monte Carlo draws. Default: 1,000. */
  draws?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator. Default: `seededPrng(seed)`. */
  prng?: Prng;
}

/**
 * The largest {@linkcode comparisonShrinkage} at which `score` states the
 * probability of being best: above it the prior pooled across models, not
 * the models' own counts, would carry more than half of the comparison, and
 * `pBest` is null for that profile.
 */
export const MAX_COMPARISON_SHRINKAGE = 0.5;

// points of the grid of τ
const TAU_POINTS = 16;
// points of the grid of each split's μ
const MU_POINTS = 13;

// Trigamma ψ₁ and tetragamma ψ₂ for x > 0: recurrence up to 6, then the
// asymptotic series (`abramowitz-stegun-1964`, §6.4).
function trigamma(x: number): number {
  let r = 0;
  while (x < 6) {
    r += 1 / (x * x);
    x += 1;
  }
  const i2 = 1 / (x * x);
  return r + 1 / x +
    i2 * (0.5 + (1 / x) * (1 / 6 - i2 * (1 / 30 - i2 * (1 / 42 - i2 / 30))));
}

function tetragamma(x: number): number {
  let r = 0;
  while (x < 6) {
    r -= 2 / (x * x * x);
    x += 1;
  }
  const i2 = 1 / (x * x);
  return r -
    i2 * (1 + (1 / x) + i2 * (0.5 - i2 * (1 / 6 - i2 * (1 / 6 - i2 * 0.3))));
}

/**
 * The concentration κ of a Beta(κμ, κν), ν = 1 − μ (given apart, so that
 * neither rounds to 0), whose log-odds have variance τ²: the root of
 * ψ₁(κμ) + ψ₁(κν) = τ², by safeguarded Newton steps on log κ (the left side
 * falls from +∞ to 0 as κ grows, nearly a power of κ).
 */
function concentrationFor(
  mu: number,
  nu: number,
  tau: number,
  start = NaN,
): number {
  const target = 2 * Math.log(tau);
  let u = start;
  if (Number.isNaN(u)) {
    // start from ψ₁(x) ≈ 1/x + 1/x², a quadratic in 1/κ
    const a = 1 / (mu * mu) + 1 / (nu * nu);
    const b = 1 / mu + 1 / nu;
    const t2 = tau * tau;
    u = -Math.log((-b + Math.sqrt(b * b + 4 * a * t2)) / (2 * a));
  }
  let lo = -Infinity, hi = Infinity;
  // Newton on log(ψ₁(κμ) + ψ₁(κν)) − 2 log τ, nearly linear in log κ
  for (let it = 0; it < 100; it++) {
    const k = Math.exp(u);
    const s = trigamma(k * mu) + trigamma(k * nu);
    const f = Math.log(s) - target;
    if (f > 0) lo = u;
    else hi = u;
    const df = (k * mu * tetragamma(k * mu) + k * nu * tetragamma(k * nu)) / s;
    const step = f / df;
    if (Math.abs(step) < 1e-10) return Math.exp(u - step);
    let next = u - step;
    if (!(next > lo && next < hi)) {
      next = Number.isFinite(lo) && Number.isFinite(hi)
        ? (lo + hi) / 2
        : Number.isFinite(lo)
        ? lo + 1
        : hi - 1;
    }
    u = next;
  }
  return Math.exp(u);
}

// A rule's key: rules with the same key cost the same under every profile.
function ruleKey(rule: CostRule): string {
  if (rule.of === "zero") return "zero";
  if (rule.of === "fixed") {
    return rule.value === 0 ? "zero" : `fixed:${rule.value}`;
  }
  const times = rule.times ?? 1;
  return times === 0 ? "zero" : `${rule.of}:${times}`;
}

// One binary split of one cell: the models it concerns, and their counts
// (y in the split's group, n in it and the groups after it).
interface Split {
  readonly members: number[];
  readonly y: number[];
  readonly n: number[];
  // per τ index: the Beta shapes κμ and κ(1 − μ) of each μ grid point,
  // and the points' cumulative posterior weights
  readonly alpha: Float64Array[];
  readonly beta: Float64Array[];
  readonly cum: Float64Array[];
}

// log Γ(z + x) − log Γ(z), x >= 0, without cancellation when z is large
// (Stirling's series for both terms).
function logRising(z: number, x: number): number {
  if (x === 0) return 0;
  if (z < 1e6) return logGamma(z + x) - logGamma(z);
  return (z + x - 0.5) * Math.log1p(x / z) + x * Math.log(z) - x +
    (1 / (z + x) - 1 / z) / 12;
}

// Digamma ψ for x > 0: recurrence up to 6, then the asymptotic series
// (`abramowitz-stegun-1964`, §6.3).
function digamma(x: number): number {
  let r = 0;
  while (x < 6) {
    r -= 1 / x;
    x += 1;
  }
  const i2 = 1 / (x * x);
  return r + Math.log(x) - 0.5 / x -
    i2 * (1 / 12 - i2 * (1 / 120 - i2 / 252));
}

// Mean and variance of the log-odds of a Beta(a, b) draw.
function logOddsMoments(a: number, b: number): [number, number] {
  return [digamma(a) - digamma(b), trigamma(a) + trigamma(b)];
}

// The grid of μ of one split given τ, on the log-odds scale: it spans 7
// standard deviations either side of two approximations of μ's posterior,
// the pooled one (every model's counts as one, right when τ is small) and
// the average of the models' log-odds weighted by 1 / (variance + τ²)
// (right when τ is large). Returns the Beta shapes of each point, the
// cumulative weights (prior × likelihood) to draw from, and the log of the
// integral over μ, for the posterior of τ.
function splitGrid(
  y: readonly number[],
  n: readonly number[],
  tau: number,
): {
  alpha: Float64Array;
  beta: Float64Array;
  cum: Float64Array;
  logZ: number;
} {
  let Y = 0, N = 0, sw = 0, swl = 0;
  for (let m = 0; m < y.length; m++) {
    const [l, v] = logOddsMoments(y[m] + 0.5, n[m] - y[m] + 0.5);
    const w = 1 / (v + tau * tau);
    sw += w;
    swl += w * l;
    Y += y[m];
    N += n[m];
  }
  const [pl, pv] = logOddsMoments(Y + 0.5, N - Y + 0.5);
  const cl = swl / sw, csd = 1 / Math.sqrt(sw), psd = Math.sqrt(pv);
  const lo = Math.min(pl - 7 * psd, cl - 7 * csd);
  const hi = Math.max(pl + 7 * psd, cl + 7 * csd);
  const g = MU_POINTS;
  const h = (hi - lo) / (g - 1);
  const alpha = new Float64Array(g);
  const beta = new Float64Array(g);
  const logw = new Float64Array(g);
  let max = -Infinity;
  // each point's κ starts from the last one's, with κμ(1 − μ) kept
  let logK = NaN, logPQ = NaN;
  for (let i = 0; i < g; i++) {
    const l = lo + i * h;
    // μ and 1 − μ computed apart, so neither rounds to 0
    const e = Math.exp(-Math.abs(l));
    const p = l >= 0 ? 1 / (1 + e) : e / (1 + e);
    const q = l >= 0 ? e / (1 + e) : 1 / (1 + e);
    const pq = Math.log(p) + Math.log(q);
    const k = concentrationFor(p, q, tau, logK + logPQ - pq);
    logK = Math.log(k);
    logPQ = pq;
    const a = k * p, b = k * q;
    // Jeffreys Beta(1/2, 1/2) on μ, as a density on the log-odds: √(μ(1 − μ))
    let lw = 0.5 * Math.log(p * q);
    for (let m = 0; m < y.length; m++) {
      lw += logRising(a, y[m]) + logRising(b, n[m] - y[m]) -
        logRising(a + b, n[m]);
    }
    alpha[i] = a;
    beta[i] = b;
    logw[i] = lw;
    if (lw > max) max = lw;
  }
  const cum = new Float64Array(g);
  let total = 0;
  for (let i = 0; i < g; i++) cum[i] = total += Math.exp(logw[i] - max);
  return { alpha, beta, cum, logZ: max + Math.log(total * h) };
}

// Beta(a, b) draws. With both shapes above 1, Cheng's algorithm BB
// (`cheng-1978`): two uniforms and a few logarithms per try, about half the
// work of two gamma draws; otherwise X / (X + Y) with X, Y gamma draws.
function betaSampler(rng: Prng): (a: number, b: number) => number {
  return (aa: number, bb: number): number => {
    const a = Math.min(aa, bb), b = Math.max(aa, bb);
    if (a <= 1) {
      const x = gamma(rng, aa);
      return x / (x + gamma(rng, bb));
    }
    const alpha = a + b;
    const beta = Math.sqrt((alpha - 2) / (2 * a * b - alpha));
    const gam = a + 1 / beta;
    let w: number;
    for (;;) {
      let u1 = rng.next();
      while (u1 === 0) u1 = rng.next();
      const u2 = rng.next();
      const v = beta * Math.log(u1 / (1 - u1));
      w = v <= 709 ? a * Math.exp(v) : Number.MAX_VALUE;
      const z = u1 * u1 * u2;
      const r = gam * v - 1.3862944;
      const s = a + r - w;
      if (s + 2.609438 >= 5 * z) break;
      const t = Math.log(z);
      if (s > t) break;
      if (r + alpha * Math.log(alpha / (b + w)) >= t) break;
    }
    return aa === a ? w / (b + w) : b / (b + w);
  };
}

function pick(cum: ArrayLike<number>, u: number): number {
  const target = u * cum[cum.length - 1];
  let lo = 0, hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid] <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Seeded joint posterior draws of every model's cost-group shares, under the
 * pooled prior of this module: per split of a cell, a Beta across models
 * whose mean is the split's own and whose spread τ (log-odds) is shared by
 * the whole run, with the uniform-shrinkage prior.
 *
 * Models are pooled in a cell when they have it; a model's groups are those
 * its kinds reach (a model that never escalates has no escalation kind), and
 * a split is shared by the models that reach both its group and a later one.
 *
 * @param stats Sufficient statistics of every model.
 * @param options Cost matrix, draws, seed or generator, and the cell options (pass the run's classes).
 * @returns The cells of every model and their joint draws.
 * @throws {RangeError} When draws is not an integer >= 1.
 *
 * @example Group shares of a draw sum to 1
 * ```ts
 * import assert from "node:assert/strict";
 * import { pooledLossPosterior } from "./pooled_posterior.ts";
 *
 * const row = { severity: "HIGH", trueClass: "X", action: "auto", pErrorSum: 0, pMissing: 0,
 *   parseFailures: 0 } as const;
 * const post = pooledLossPosterior([
 *   { ...row, modelId: "a", predClass: "X", n: 59 }, { ...row, modelId: "a", predClass: "MATCH", n: 1 },
 *   { ...row, modelId: "b", predClass: "X", n: 60 },
 * ], { draws: 10, seed: 1 });
 * const s = post.cells.a[0].shares;
 * assert.ok(Math.abs(s[0] + s[1] - 1) < 1e-12);
 * ```
 */
export function pooledLossPosterior(
  stats: readonly StatsRow[],
  options: PooledPosteriorOptions = {},
): PooledLossPosterior {
  const draws = options.draws ?? 1000;
  if (!Number.isInteger(draws) || draws < 1) {
    throw new RangeError(
      `Cannot draw a pooled loss posterior: draws must be an integer >= 1, got ${draws}`,
    );
  }
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const prng = options.prng ?? seededPrng(options.seed ?? 0);
  const models = modelIds(stats);
  const order = (action: string, outcome: string) =>
    (action === "escalate" ? OUTCOMES.length : 0) +
    OUTCOMES.indexOf(outcome as (typeof OUTCOMES)[number]);

  // every model's cells, joined on (severity, gold class)
  interface Joined {
    severity: Severity;
    trueClass: string;
    groups: Map<string, { rule: CostRule; first: number }>;
    byModel: Map<
      number,
      {
        n: number;
        effectiveN: number;
        eff: Map<string, number>;
        kinds: Map<string, number>;
      }
    >;
  }
  const joined = new Map<string, Joined>();
  models.forEach((id, mi) => {
    for (const cell of lossCells(forModel(stats, id), options)) {
      const key = `${cell.severity}\u0000${cell.trueClass}`;
      let j = joined.get(key);
      if (j === undefined) {
        joined.set(
          key,
          j = {
            severity: cell.severity,
            trueClass: cell.trueClass,
            groups: new Map(),
            byModel: new Map(),
          },
        );
      }
      const eff = new Map<string, number>();
      const kinds = new Map<string, number>();
      for (const k of cell.kinds) {
        const rule =
          (k.action === "escalate" ? matrix.escalate : matrix.auto)[k.outcome];
        const rk = ruleKey(rule);
        const at = order(k.action, k.outcome);
        const g = j.groups.get(rk);
        if (g === undefined) j.groups.set(rk, { rule, first: at });
        else if (at < g.first) g.first = at;
        eff.set(rk, (eff.get(rk) ?? 0) + k.effectiveCount);
        kinds.set(rk, (kinds.get(rk) ?? 0) + 1);
      }
      j.byModel.set(mi, {
        n: cell.n,
        effectiveN: cell.effectiveN,
        eff,
        kinds,
      });
    }
  });
  const cellKeys = [...joined.keys()].sort((a, b) => {
    const ja = joined.get(a)!, jb = joined.get(b)!;
    return severityRank(ja.severity) - severityRank(jb.severity) ||
      (ja.trueClass < jb.trueClass ? -1 : ja.trueClass > jb.trueClass ? 1 : 0);
  });

  // the splits of every cell
  interface Planned {
    joined: Joined;
    keys: string[];
    splits: (Split | null)[];
  }
  const planned: Planned[] = [];
  // Σ over (model, split) of the binomial information n·μ̂(1 − μ̂) at the
  // split's pooled share, and the number of those units: their ratio is
  // the prior scale of τ² (Natarajan and Kass)
  let information = 0, units = 0;
  for (const ck of cellKeys) {
    const j = joined.get(ck)!;
    const keys = [...j.groups.keys()].sort((a, b) =>
      j.groups.get(a)!.first - j.groups.get(b)!.first
    );
    const splits: (Split | null)[] = [];
    for (let g = 0; g + 1 < keys.length; g++) {
      const members: number[] = [], y: number[] = [], n: number[] = [];
      for (const [mi, c] of j.byModel) {
        if (!c.eff.has(keys[g])) continue;
        let rest = 0, later = false;
        for (let h = g; h < keys.length; h++) {
          if (!c.eff.has(keys[h])) continue;
          rest += c.eff.get(keys[h])!;
          if (h > g) later = true;
        }
        if (!later) continue;
        members.push(mi);
        y.push(c.eff.get(keys[g])!);
        n.push(rest);
      }
      if (members.length === 0) {
        splits.push(null);
        continue;
      }
      const Y = y.reduce((a, b) => a + b, 0);
      const N = n.reduce((a, b) => a + b, 0);
      const share = (Y + 0.5) / (N + 1);
      information += N * share * (1 - share);
      units += members.length;
      splits.push({ members, y, n, alpha: [], beta: [], cum: [] });
    }
    planned.push({ joined: j, keys, splits });
  }
  // τ² has the uniform-shrinkage prior c / (c + τ²)², c = units /
  // information: the shrinkage B = c / (c + τ²) is uniform on (0, 1), so
  // the grid is B's midpoints, equally weighted a priori
  const scale = units === 0 ? 1 : units / information;
  const tauGrid = Array.from({ length: TAU_POINTS }, (_, k) => {
    const b = (k + 0.5) / TAU_POINTS;
    return Math.sqrt(scale * (1 - b) / b);
  }).reverse();
  const logPost = tauGrid.map(() => 0);
  for (const { splits } of planned) {
    for (const split of splits) {
      if (split === null) continue;
      tauGrid.forEach((tau, t) => {
        const grid = splitGrid(split.y, split.n, tau);
        split.alpha.push(grid.alpha);
        split.beta.push(grid.beta);
        split.cum.push(grid.cum);
        logPost[t] += grid.logZ;
      });
    }
  }
  const top = Math.max(...logPost);
  const weights = logPost.map((l) => Math.exp(l - top));
  const wsum = weights.reduce((a, b) => a + b, 0);
  const tauCum = new Float64Array(weights.length);
  weights.reduce((acc, w, i) => (tauCum[i] = acc + w), 0);

  // the draws: τ, then each split's μ, then every model's shares
  const out: Record<string, PooledCell[]> = Object.fromEntries(
    models.map((m) => [m, []]),
  );
  const betaDraw = betaSampler(prng);
  const tauOf = new Int32Array(draws);
  for (let d = 0; d < draws; d++) tauOf[d] = pick(tauCum, prng.next());
  for (const { joined: j, keys, splits } of planned) {
    const rules = keys.map((k) => j.groups.get(k)!.rule);
    const G = keys.length;
    // a model's last reachable group holds what the splits before it leave
    const shares = new Map<number, Float64Array>();
    const lastOf = new Map<number, number>();
    for (const [mi, c] of j.byModel) {
      const s = new Float64Array(draws * G);
      let last = -1;
      for (let g = 0; g < G; g++) if (c.eff.has(keys[g])) last = g;
      for (let d = 0; d < draws; d++) s[d * G + last] = 1;
      shares.set(mi, s);
      lastOf.set(mi, last);
    }
    splits.forEach((split, g) => {
      if (split === null) return;
      const members = split.members.map((mi) => ({
        s: shares.get(mi)!,
        last: lastOf.get(mi)!,
      }));
      for (let d = 0; d < draws; d++) {
        const t = tauOf[d];
        const i = pick(split.cum[t], prng.next());
        const a = split.alpha[t][i];
        const b = split.beta[t][i];
        for (let k = 0; k < members.length; k++) {
          const v = betaDraw(a + split.y[k], b + split.n[k] - split.y[k]);
          const { s, last } = members[k];
          const rest = s[d * G + last];
          s[d * G + g] = rest * v;
          s[d * G + last] = rest * (1 - v);
        }
      }
    });
    for (const [mi, c] of j.byModel) {
      out[models[mi]].push({
        severity: j.severity,
        trueClass: j.trueClass,
        n: c.n,
        effectiveN: c.effectiveN,
        rules,
        shares: shares.get(mi)!,
        jeffreys: keys.map((k) =>
          c.eff.has(k) ? c.eff.get(k)! + 0.5 * c.kinds.get(k)! : 0
        ),
      });
    }
  }
  return {
    models,
    cells: out,
    draws,
    tau: { grid: tauGrid, posterior: weights.map((w) => w / wsum) },
    seed: prng.seed,
  };
}

/**
 * Every model's expected-loss draws under a profile, from a
 * {@linkcode PooledLossPosterior}: draw d of model m is Σ over its cells of
 * n × Σ over groups of share × the group's cost. The draws of different
 * models are joint (aligned by index), as `probabilityBest` needs.
 *
 * @param posterior Draws from {@linkcode pooledLossPosterior}.
 * @param profile Cost profile.
 * @param options What a cell's loss is summed over: decisions (default) or tasks.
 * @returns One Float64Array of draws per model id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { pooledLossDraws, pooledLossPosterior } from "./pooled_posterior.ts";
 * import { probabilityBest } from "./rank_probability.ts";
 *
 * const row = { severity: "CRITICAL", trueClass: "X", action: "auto", pErrorSum: 0, pMissing: 0,
 *   parseFailures: 0 } as const;
 * const post = pooledLossPosterior([
 *   { ...row, modelId: "a", predClass: "X", n: 28 }, { ...row, modelId: "a", predClass: "MATCH", n: 2 },
 *   { ...row, modelId: "b", predClass: "X", n: 30 },
 * ], { draws: 400, seed: 2 });
 * const p = probabilityBest(pooledLossDraws(post, getProfile("principal_risk")));
 * assert.ok(p.b > p.a);
 * ```
 */
export function pooledLossDraws(
  posterior: PooledLossPosterior,
  profile: CostProfile,
  options: { unit?: "decision" | "task" } = {},
): Record<string, Float64Array> {
  const perTask = options.unit === "task";
  return Object.fromEntries(posterior.models.map((m) => {
    const out = new Float64Array(posterior.draws);
    for (const cell of posterior.cells[m]) {
      const weight = perTask ? cell.effectiveN : cell.n;
      const G = cell.rules.length;
      const s = cell.shares;
      // each group that costs anything adds weight × cost × its share
      cell.rules.forEach((r, g) => {
        const c = weight * ruleCost(r, profile, cell.severity);
        if (c === 0) return;
        for (let d = 0; d < posterior.draws; d++) out[d] += c * s[d * G + g];
      });
    }
    return [m, out];
  }));
}

/**
 * How much of the comparison of the models under a profile the pooling
 * carries: 1 − Σ over pairs of models of the posterior variance of their
 * loss difference under the pooled posterior, over the same sum under each
 * model's own Jeffreys posterior (independent across models). In a normal
 * model this is the shrinkage weight of the prior, the share of the
 * estimate that comes from the other models rather than from the model's
 * own counts; near 0 the data carry the comparison, near 1 the prior does.
 *
 * The pooled variances come from the draws, the Jeffreys ones in closed
 * form (the variance of a linear map of Dirichlet shares). It is 0 when the
 * Jeffreys variances are (every cost 0) or with fewer than two models.
 *
 * @param posterior Draws from {@linkcode pooledLossPosterior}.
 * @param profile Cost profile.
 * @param draws Its loss draws under the profile, when already computed. Default: {@linkcode pooledLossDraws}.
 * @returns A share in [0, 1] (clamped: draws can add noise).
 *
 * @example Costly cells with about one error each: the prior carries the comparison
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { comparisonShrinkage, pooledLossPosterior } from "./pooled_posterior.ts";
 *
 * const row = { severity: "CRITICAL", trueClass: "X", action: "auto", pErrorSum: 0, pMissing: 0,
 *   parseFailures: 0 } as const;
 * // 30 CRITICAL tasks each: no miss, one miss, two misses
 * const post = pooledLossPosterior([
 *   { ...row, modelId: "a", predClass: "X", n: 30 },
 *   { ...row, modelId: "b", predClass: "X", n: 29 }, { ...row, modelId: "b", predClass: "MATCH", n: 1 },
 *   { ...row, modelId: "c", predClass: "X", n: 28 }, { ...row, modelId: "c", predClass: "MATCH", n: 2 },
 * ], { draws: 1000, seed: 2 });
 * assert.ok(comparisonShrinkage(post, getProfile("principal_risk")) > 0.5);
 * ```
 */
export function comparisonShrinkage(
  posterior: PooledLossPosterior,
  profile: CostProfile,
  draws: Readonly<Record<string, Float64Array>> = pooledLossDraws(
    posterior,
    profile,
  ),
): number {
  const models = posterior.models;
  if (models.length < 2) return 0;
  // each model's loss variance under its own Jeffreys posterior
  const own = models.map((m) => {
    let v = 0;
    for (const cell of posterior.cells[m]) {
      const a = cell.jeffreys;
      const a0 = a.reduce((x, y) => x + y, 0);
      let m1 = 0, m2 = 0;
      cell.rules.forEach((r, g) => {
        const c = ruleCost(r, profile, cell.severity);
        m1 += c * a[g] / a0;
        m2 += c * c * a[g] / a0;
      });
      v += cell.n * cell.n * (m2 - m1 * m1) / (a0 + 1);
    }
    return v;
  });
  let pooled = 0, independent = 0;
  const D = posterior.draws;
  for (let i = 0; i < models.length; i++) {
    for (let j = i + 1; j < models.length; j++) {
      const a = draws[models[i]], b = draws[models[j]];
      let s = 0, s2 = 0;
      for (let d = 0; d < D; d++) {
        const x = a[d] - b[d];
        s += x;
        s2 += x * x;
      }
      pooled += Math.max(0, s2 / D - (s / D) * (s / D));
      independent += own[i] + own[j];
    }
  }
  if (!(independent > 0)) return 0;
  return Math.min(1, Math.max(0, 1 - pooled / independent));
}

/** The probability of being best under one profile, and how much of it the pooling carries. */
export interface PooledBest {
  /** Each model's probability of having the lowest expected loss; null when `shrinkage` is above {@linkcode MAX_COMPARISON_SHRINKAGE}. */
  readonly pBest: Record<string, number> | null;
  /** {@linkcode comparisonShrinkage} under the profile. */
  readonly shrinkage: number;
}

/**
 * Each model's probability of having the lowest expected loss under each
 * profile, from one set of joint draws under the pooled prior
 * ({@linkcode pooledLossPosterior}), stated where the models' own counts
 * carry the comparison: null for a profile whose
 * {@linkcode comparisonShrinkage} is above
 * {@linkcode MAX_COMPARISON_SHRINKAGE}. This is what `score` reports as
 * `pBest`.
 *
 * @param stats Sufficient statistics of every model.
 * @param profiles Cost profiles.
 * @param options Cost matrix, draws, seed or generator, and the cell options (pass the run's classes).
 * @returns Per profile id, the probabilities (or null) and the shrinkage.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { pooledProbabilityBest } from "./pooled_posterior.ts";
 *
 * const row = { severity: "LOW", trueClass: "X", action: "auto", pErrorSum: 0, pMissing: 0,
 *   parseFailures: 0 } as const;
 * const out = pooledProbabilityBest([
 *   { ...row, modelId: "a", predClass: "X", n: 960 }, { ...row, modelId: "a", predClass: "MATCH", n: 40 },
 *   { ...row, modelId: "b", predClass: "X", n: 900 }, { ...row, modelId: "b", predClass: "MATCH", n: 100 },
 * ], [getProfile("flat")], { draws: 400, seed: 1 });
 * assert.ok(out.flat.pBest!.a > 0.9);
 * ```
 */
export function pooledProbabilityBest(
  stats: readonly StatsRow[],
  profiles: readonly CostProfile[],
  options: PooledPosteriorOptions = {},
): Record<string, PooledBest> {
  const posterior = pooledLossPosterior(stats, options);
  return Object.fromEntries(profiles.map((p) => {
    const draws = pooledLossDraws(posterior, p);
    const shrinkage = comparisonShrinkage(posterior, p, draws);
    return [p.id, {
      pBest: shrinkage > MAX_COMPARISON_SHRINKAGE
        ? null
        : probabilityBest(draws),
      shrinkage,
    }];
  }));
}
