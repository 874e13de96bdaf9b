/**
 * Posterior draws of expected loss: Jeffreys–Dirichlet posteriors of the
 * outcome shares in each cell (severity × gold class), combined by seeded
 * Monte Carlo.
 *
 * The estimand is the expected loss of this model on this suite,
 * conditional on its counts per severity and gold class: the sum over cells
 * of (decisions in the cell) × (expected cost of one decision of that cell).
 * A decision of a cell lands in one *kind* (an action and an outcome, as
 * `outcomeOf` and the cost matrix see it); its cost is the matrix's rule for
 * that kind. The shares of the kinds in a cell get a Dirichlet posterior
 * with the Jeffreys prior (1/2 per kind), so a costly kind that was never
 * observed still has posterior mass: a CRITICAL cell with zero misses in 6
 * decisions keeps an upper bound near a quarter of its K per decision, where
 * a bootstrap over rows sees none.
 *
 * Draws are profile-free (shares per cell); the loss under a profile and a
 * matrix is a linear map of them, so one set of draws serves every profile,
 * every interval and the probability of being best.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { type Severity, severityRank } from "../costs/severity.ts";
import { CONSEQUENCE_MATRIX, type CostMatrix, ruleCost } from "./loss.ts";
import { gamma, type Prng, seededPrng } from "../math/sampling.ts";
import {
  type Action,
  type Outcome,
  outcomeOf,
  OUTCOMES,
  type StatsRow,
  unitCostPairsOf,
} from "./sufficient_stats.ts";

/** One kind of decision in a cell: an action and an outcome. */
export interface LossKind {
  /** `auto` or `escalate`. */
  readonly action: Action;
  /** The outcome, as `outcomeOf` classifies it. */
  readonly outcome: Outcome;
  /** Decisions of this kind. */
  readonly count: number;
  /** The same decisions counted in tasks (sum of `taskShare`). */
  readonly effectiveCount: number;
  /**
   * The sum over these decisions of the costly decisions of their unit (sum
   * of `unitCostPairsOf`): Σ c² over units when a unit's costly decisions
   * are all of this kind.
   */
  readonly unitCostPairs: number;
}

/** One cell of the loss model: the decisions sharing a severity and a gold class. */
export interface LossCell {
  /** Severity of the cell. */
  readonly severity: Severity;
  /** Gold class of the cell. */
  readonly trueClass: string;
  /** Decisions in the cell: the fixed count the estimand conditions on. */
  readonly n: number;
  /** Tasks in the cell (trials of a task count as one): the sample size of its posterior. */
  readonly effectiveN: number;
  /** Every kind a decision of this cell can be, observed or not, in a fixed order. */
  readonly kinds: readonly LossKind[];
}

/** Options for {@linkcode lossCells}. */
export interface LossCellOptions {
  /** Gold class of clean items. Default: `"MATCH"`. */
  cleanClass?: string;
  /**
   * Classes a decision can be predicted as; each gold class's possible
   * outcomes are `outcomeOf(gold, c)` over these. Default: every gold and
   * predicted class in `stats`, plus the clean class.
   */
  classes?: readonly string[];
  /**
   * Actions a decision can take. Default: the actions that occur in `stats`
   * (a model that never escalates gets no prior mass on escalation).
   */
  actions?: readonly Action[];
}

/**
 * Group one model's sufficient statistics into loss cells, each with every
 * kind its decisions can take (observed or not).
 *
 * The possible outcomes of a gold class come from `outcomeOf` applied to the
 * classes of the run, never from comparing classes here, so a change to how
 * outcomes are classified flows through. Whatever the classes, a cell of an
 * exception or of a harness verdict always has its miss (answered clean) and
 * a cell of clean items its false alarm: a run with no wrong answer, or a
 * harness log whose only class is `verdict:correct`, still has costly kinds.
 * Cost is O(rows × classes).
 *
 * @param stats Sufficient statistics of one model.
 * @param options Clean class, possible classes and actions.
 * @returns Cells in severity then gold-class order; cells with no decisions are left out.
 *
 * @example A harness verdict with no wrong answer still has its miss
 * ```ts
 * import assert from "node:assert/strict";
 * import { lossCells } from "./loss_posterior.ts";
 *
 * const [cell] = lossCells([{ modelId: "m", severity: "HIGH", trueClass: "verdict:correct",
 *   predClass: "verdict:correct", action: "auto", n: 4, pErrorSum: 0, pMissing: 4, parseFailures: 0 }],
 *   { classes: ["verdict:correct"] });
 * assert.deepEqual(cell.kinds.map((k) => [k.outcome, k.count]), [["correct", 4], ["missed", 0]]);
 * ```
 *
 * @example A HIGH cell with no miss observed still has a `missed` kind
 * ```ts
 * import assert from "node:assert/strict";
 * import { lossCells } from "./loss_posterior.ts";
 *
 * const base = { modelId: "m", severity: "HIGH", action: "auto", pErrorSum: 0, pMissing: 0,
 *   parseFailures: 0 } as const;
 * const cells = lossCells([
 *   { ...base, trueClass: "X", predClass: "X", n: 9 },
 *   { ...base, trueClass: "MATCH", predClass: "MATCH", n: 5 },
 * ]);
 * const x = cells.find((c) => c.trueClass === "X")!;
 * assert.deepEqual(x.kinds.map((k) => [k.outcome, k.count]), [["correct", 9], ["missed", 0]]);
 * ```
 */
export function lossCells(
  stats: readonly StatsRow[],
  options: LossCellOptions = {},
): LossCell[] {
  const clean = options.cleanClass ?? "MATCH";
  const classes = new Set(options.classes ?? []);
  if (options.classes === undefined) {
    classes.add(clean);
    for (const r of stats) {
      classes.add(r.trueClass);
      classes.add(r.predClass);
    }
  }
  const actions: Action[] = options.actions !== undefined
    ? [...options.actions]
    : (["auto", "escalate"] as const).filter((a) =>
      stats.some((r) => r.action === a && r.n > 0)
    );
  const groups = new Map<
    string,
    { severity: Severity; trueClass: string; rows: StatsRow[] }
  >();
  for (const r of stats) {
    if (r.n === 0) continue;
    const key = `${r.severity}\u0000${r.trueClass}`;
    let g = groups.get(key);
    if (g === undefined) {
      groups.set(
        key,
        g = { severity: r.severity, trueClass: r.trueClass, rows: [] },
      );
    }
    g.rows.push(r);
  }
  const out: LossCell[] = [];
  for (const g of groups.values()) {
    const possible = new Set<Outcome>();
    for (const c of classes) possible.add(outcomeOf(g.trueClass, c, clean));
    // Zero observed is not zero risk: whatever classes the run shows, an
    // exception (or a harness verdict) can be answered clean, and a clean
    // item can be flagged. outcomeOf names the two, so a reserved verdict
    // class gets its miss as the matrix prices it.
    possible.add(
      g.trueClass === clean
        ? outcomeOf(clean, `${clean}\u0000flagged`, clean)
        : outcomeOf(g.trueClass, clean, clean),
    );
    const counts = new Map<string, [number, number, number]>();
    for (const r of g.rows) {
      const outcome = outcomeOf(r.trueClass, r.predClass, clean);
      possible.add(outcome);
      const key = `${r.action}/${outcome}`;
      const prev = counts.get(key) ?? [0, 0, 0];
      counts.set(key, [
        prev[0] + r.n,
        prev[1] + (r.taskShare ?? r.n),
        prev[2] + unitCostPairsOf(r),
      ]);
    }
    const acts = new Set<Action>(actions);
    for (const r of g.rows) acts.add(r.action);
    const kinds: LossKind[] = [];
    for (const action of ["auto", "escalate"] as const) {
      if (!acts.has(action)) continue;
      for (const outcome of OUTCOMES) {
        if (!possible.has(outcome)) continue;
        const [count, effectiveCount, unitCostPairs] =
          counts.get(`${action}/${outcome}`) ?? [0, 0, 0];
        kinds.push({ action, outcome, count, effectiveCount, unitCostPairs });
      }
    }
    out.push({
      severity: g.severity,
      trueClass: g.trueClass,
      n: kinds.reduce((a, k) => a + k.count, 0),
      effectiveN: kinds.reduce((a, k) => a + k.effectiveCount, 0),
      kinds,
    });
  }
  return out.sort((a, b) =>
    severityRank(a.severity) - severityRank(b.severity) ||
    (a.trueClass < b.trueClass ? -1 : a.trueClass > b.trueClass ? 1 : 0)
  );
}

/** Seeded posterior draws of the kind shares of every cell. */
export interface LossPosterior {
  /** The cells, as {@linkcode lossCells} builds them. */
  readonly cells: readonly LossCell[];
  /** Number of draws. */
  readonly draws: number;
  /** Dirichlet prior weight per kind: 1/2 is Jeffreys. */
  readonly prior: number;
  /**
   * Per cell, its kind shares per draw, row-major: `shares[c][d * kinds + k]`
   * is the share of kind k in cell c in draw d (each row sums to 1).
   */
  readonly shares: readonly Float64Array[];
  /** Seed of the generator the draws came from. */
  readonly seed: number;
}

/** Options for {@linkcode lossPosterior}. */
export interface LossPosteriorOptions extends LossCellOptions {
  /** Monte Carlo draws. Default: 1,000. */
  draws?: number;
  /** Dirichlet prior weight per kind. Default: 0.5 (Jeffreys). */
  prior?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator. Default: `seededPrng(seed)`. */
  prng?: Prng;
}

/**
 * Seeded draws from the posterior of the kind shares of every cell of one
 * model.
 *
 * In each cell the shares of its kinds have the posterior
 * Dirichlet(effectiveCount₁ + a, …, effectiveCount_m + a) with a = `prior`
 * (1/2, Jeffreys); effective counts count a task's trials as one task, so
 * several correlated trials per task do not pass for independent evidence,
 * and with one trial per task they are the plain counts. A Dirichlet draw is
 * m gamma draws, normalised. Cost is O(draws × kinds).
 *
 * @param stats Sufficient statistics of one model.
 * @param options Draws, prior, seed or generator, and the cell options.
 * @returns The cells and their draws.
 * @throws {RangeError} When draws is not an integer >= 1 or the prior is not > 0.
 *
 * @example Shares of each draw sum to 1
 * ```ts
 * import assert from "node:assert/strict";
 * import { lossPosterior } from "./loss_posterior.ts";
 *
 * const base = { modelId: "m", severity: "LOW", trueClass: "X", action: "auto", pErrorSum: 0,
 *   pMissing: 0, parseFailures: 0 } as const;
 * const post = lossPosterior([{ ...base, predClass: "X", n: 50 }], { draws: 10, seed: 1 });
 * const s = post.shares[0];
 * assert.ok(Math.abs(s[0] + s[1] - 1) < 1e-12);
 * ```
 */
export function lossPosterior(
  stats: readonly StatsRow[],
  options: LossPosteriorOptions = {},
): LossPosterior {
  const draws = options.draws ?? 1000;
  const prior = options.prior ?? 0.5;
  if (!Number.isInteger(draws) || draws < 1) {
    throw new RangeError(
      `Cannot draw a loss posterior: draws must be an integer >= 1, got ${draws}`,
    );
  }
  if (!(prior > 0) || !Number.isFinite(prior)) {
    throw new RangeError(
      `Cannot draw a loss posterior: prior must be a finite number > 0, got ${prior}`,
    );
  }
  const prng = options.prng ?? seededPrng(options.seed ?? 0);
  const cells = lossCells(stats, options);
  const shares = cells.map((cell) => {
    const m = cell.kinds.length;
    const out = new Float64Array(draws * m);
    const shape = cell.kinds.map((k) => k.effectiveCount + prior);
    for (let d = 0; d < draws; d++) {
      let total = 0;
      for (let k = 0; k < m; k++) {
        const g = gamma(prng, shape[k]);
        out[d * m + k] = g;
        total += g;
      }
      for (let k = 0; k < m; k++) out[d * m + k] /= total;
    }
    return out;
  });
  return { cells, draws, prior, shares, seed: prng.seed };
}

/** Options for {@linkcode posteriorLossDraws}. */
export interface PosteriorLossOptions {
  /** Cost matrix. Default: {@linkcode CONSEQUENCE_MATRIX}. */
  matrix?: CostMatrix;
  /**
   * What a cell's loss is summed over: `"decision"` (every trial, n per
   * cell) or `"task"` (a task's trials averaged, effectiveN per cell, the
   * scale of per-task paired differences). The two agree with one trial per
   * task. Default: `"decision"`.
   */
  unit?: "decision" | "task";
}

/**
 * The cost of one decision of each kind of a cell, under a profile and a
 * matrix: the matrix's rule for the kind's action and outcome.
 *
 * @param cell A loss cell.
 * @param profile Cost profile.
 * @param options Cost matrix.
 * @returns One cost per kind, in the cell's kind order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { kindCosts } from "./loss_posterior.ts";
 *
 * const cell = { severity: "HIGH", trueClass: "X", n: 1, effectiveN: 1, kinds: [
 *   { action: "auto", outcome: "correct", count: 1, effectiveCount: 1, unitCostPairs: 0 },
 *   { action: "auto", outcome: "missed", count: 0, effectiveCount: 0, unitCostPairs: 0 },
 * ] } as const;
 * assert.deepEqual(kindCosts(cell, getProfile("reconciliation")), [0, 10]);
 * ```
 */
export function kindCosts(
  cell: LossCell,
  profile: CostProfile,
  options: PosteriorLossOptions = {},
): number[] {
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  return cell.kinds.map((k) =>
    ruleCost(
      (k.action === "escalate" ? matrix.escalate : matrix.auto)[k.outcome],
      profile,
      cell.severity,
    )
  );
}

/**
 * Posterior draws of the expected loss of one model on its suite under a
 * profile and a cost matrix.
 *
 * Draw d is Σ over cells of n(cell) × Σ over kinds of share(d, kind) ×
 * cost(kind): the expected loss of the suite's fixed cells if the kind
 * shares were those of the draw. Its quantiles are the Jeffreys interval of
 * `lossInterval`; comparing two models' draws index by index gives the
 * probability that one has the lower expected loss. Cost is O(draws × kinds).
 *
 * @param posterior Draws from {@linkcode lossPosterior}.
 * @param profile Cost profile.
 * @param options Cost matrix.
 * @returns One expected loss per draw, in the profile's unit (totals, not per decision).
 *
 * @example Zero CRITICAL misses observed, yet the upper draws price them
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { lossPosterior, posteriorLossDraws } from "./loss_posterior.ts";
 *
 * const base = { modelId: "m", severity: "CRITICAL", trueClass: "X", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const post = lossPosterior([{ ...base, predClass: "X", n: 6 }], { draws: 2000, seed: 3 });
 * const draws = [...posteriorLossDraws(post, getProfile("principal_risk"))].sort((a, b) => a - b);
 * // realised loss is 0; the posterior still puts a tenth of its draws above 20,000
 * assert.ok(draws[1800] > 20_000);
 * ```
 */
export function posteriorLossDraws(
  posterior: LossPosterior,
  profile: CostProfile,
  options: PosteriorLossOptions = {},
): Float64Array {
  const out = new Float64Array(posterior.draws);
  const perTask = options.unit === "task";
  posterior.cells.forEach((cell, c) => {
    const cost = kindCosts(cell, profile, options);
    const weight = perTask ? cell.effectiveN : cell.n;
    const m = cost.length;
    const s = posterior.shares[c];
    for (let d = 0; d < posterior.draws; d++) {
      let v = 0;
      for (let k = 0; k < m; k++) v += s[d * m + k] * cost[k];
      out[d] += weight * v;
    }
  });
  return out;
}
