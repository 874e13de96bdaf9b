/**
 * Gamma intervals for a weighted sum of Poisson counts and their use as loss
 * intervals: the interval of Fay and Feuer (1997), lossbook's default (the
 * same interval with its extra event sized by the Clopper–Pearson bound of
 * its cell), and, for the coverage study, the modified interval of Tiwari,
 * Clegg and Zou (2006) and the mid-p interval of Fay and Kim (2017).
 *
 * @module
 */

import { _gammaP } from "../math/_special.ts";
import type { CostProfile } from "../costs/profile.ts";
import {
  kindCosts,
  type LossCellOptions,
  lossCells,
  type LossKind,
} from "./loss_posterior.ts";
import type { CostMatrix } from "./loss.ts";
import { canCost, type StatsRow } from "./sufficient_stats.ts";

/**
 * The q-quantile of the Gamma(shape, 1) distribution.
 *
 * Found by bisection on the regularised lower incomplete gamma function
 * P(shape, x) (series and continued fraction), to the last representable
 * bit; about 1e-13 relative accuracy. A chi-square quantile with k degrees of
 * freedom is `2 * gammaQuantile(q, k / 2)`.
 *
 * @param q A probability in [0, 1].
 * @param shape Shape > 0.
 * @returns The quantile: 0 at q = 0, Infinity at q = 1.
 * @throws {RangeError} When q is outside [0, 1] or the shape is not a positive finite number.
 *
 * @example The 97.5% quantile of chi-square with 2 degrees of freedom
 * ```ts
 * import assert from "node:assert/strict";
 * import { gammaQuantile } from "./fay_feuer.ts";
 *
 * // chi-square(2) is exponential with mean 2: quantile -2 ln(0.025) = 7.3778
 * assert.ok(Math.abs(2 * gammaQuantile(0.975, 1) - 7.377758908227871) < 1e-9);
 * ```
 */
export function gammaQuantile(q: number, shape: number): number {
  if (!(q >= 0 && q <= 1)) {
    throw new RangeError(
      `Cannot compute a gamma quantile: q must be in [0, 1], got ${q}`,
    );
  }
  if (!(shape > 0) || !Number.isFinite(shape)) {
    throw new RangeError(
      `Cannot compute a gamma quantile: shape must be a finite number > 0, got ${shape}`,
    );
  }
  if (q === 0) return 0;
  if (q === 1) return Infinity;
  let lo = 0;
  let hi = Math.max(1, shape);
  while (_gammaP(shape, hi) < q) {
    lo = hi;
    hi *= 2;
  }
  for (let i = 0; i < 2000; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (_gammaP(shape, mid) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** One term of a weighted sum of Poisson counts. */
export interface WeightedCount {
  /** Weight of one event (for loss: the cost of one decision of the kind). */
  readonly weight: number;
  /** Observed events (may be fractional when counted in tasks). */
  readonly count: number;
}

/** Options for {@linkcode fayFeuerInterval}. */
export interface FayFeuerOptions {
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
  /**
   * The largest weight any term could have, observed or not: the term that
   * keeps the upper bound open when the costliest kind shows no event.
   * Default: the largest weight among `terms`.
   */
  maxWeight?: number;
}

/** A two-sided interval. */
export interface Bounds {
  /** Lower bound. */
  readonly lo: number;
  /** Upper bound. */
  readonly hi: number;
}

/** Options for {@linkcode gammaInterval}. */
export interface GammaIntervalOptions {
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
  /**
   * The extra event added to the upper bound: its weight (added to the mean)
   * and its squared weight (added to the variance). Default: one event of
   * the largest weight among `terms` (Fay and Feuer's w_M).
   */
  extra?: { readonly weight: number; readonly square: number };
  /**
   * Mid-p bounds (Fay and Kim 2017): quantiles of the even mixture of the
   * lower and the upper gamma distributions instead of one of each.
   * Default: `false`.
   */
  midp?: boolean;
}

// The level and the terms checked, and the sums of the terms: y = Σ wx,
// v = Σ w²x and the largest weight.
function checkTerms(
  terms: readonly WeightedCount[],
  level: number,
  what: string,
): {
  y: number;
  v: number;
  wMax: number;
} {
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot compute a ${what}: level must be in (0, 1), got ${level}`,
    );
  }
  let y = 0, v = 0, wMax = 0;
  for (const [i, t] of terms.entries()) {
    if (!(t.weight >= 0 && Number.isFinite(t.weight))) {
      throw new RangeError(
        `Cannot compute a ${what}: term ${i} weight must be finite and >= 0, got ${t.weight}`,
      );
    }
    if (!(t.count >= 0 && Number.isFinite(t.count))) {
      throw new RangeError(
        `Cannot compute a ${what}: term ${i} count must be finite and >= 0, got ${t.count}`,
      );
    }
    y += t.weight * t.count;
    v += t.weight * t.weight * t.count;
    wMax = Math.max(wMax, t.weight);
  }
  return { y, v, wMax };
}

// The q-quantile of the even mixture of Gamma(a1, scale s1) (a point mass at
// 0 when a1 is 0) and Gamma(a2, scale s2), by bisection on its distribution
// function.
function mixtureQuantile(
  q: number,
  a1: number,
  s1: number,
  a2: number,
  s2: number,
): number {
  const cdf = (t: number) =>
    0.5 * (a1 > 0 ? _gammaP(a1, t / s1) : 1) + 0.5 * _gammaP(a2, t / s2);
  let lo = 0;
  let hi = Math.max(s2 * a2, a1 > 0 ? s1 * a1 : 0, Number.MIN_VALUE);
  while (cdf(hi) < q) {
    lo = hi;
    hi *= 2;
  }
  for (let i = 0; i < 2000; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (cdf(mid) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * A gamma interval for Y = Σ weightᵢ · λᵢ from counts xᵢ ~ Poisson(λᵢ),
 * with an extra event of a given size on the upper bound.
 *
 * With y = Σ wᵢxᵢ and v = Σ wᵢ²xᵢ, the lower bound is the α/2 quantile of
 * the gamma distribution with mean y and variance v (0 when y = 0) and the
 * upper bound the 1 − α/2 quantile of the one with mean y + e and variance
 * v + e₂, e and e₂ being the extra event's weight and squared weight. One
 * event of the largest weight is Fay and Feuer's interval
 * ({@linkcode fayFeuerInterval}); the mean weight and the mean squared
 * weight of all terms is the modified interval of Tiwari, Clegg and Zou
 * (2006, `tiwari-clegg-zou-2006`). With `midp`, both bounds are quantiles
 * of the even mixture of the two gamma distributions (Fay and Kim 2017,
 * `fay-kim-2017`). Cost is O(terms) and two quantile searches.
 *
 * @param terms Weights and counts.
 * @param options Level, extra event and mid-p.
 * @returns The bounds.
 * @throws {RangeError} When a weight or count is negative or not finite, or the level is outside (0, 1).
 *
 * @example The extra event sets the upper bound of a zero count
 * ```ts
 * import assert from "node:assert/strict";
 * import { gammaInterval } from "./fay_feuer.ts";
 *
 * const half = gammaInterval([{ weight: 2, count: 0 }], { extra: { weight: 1, square: 1 } });
 * assert.ok(Math.abs(half.hi - 3.6888794541139363) < 1e-9);
 * // mid-p: the upper bound of a zero count is the one-sided 95% bound -ln(0.05)
 * const midp = gammaInterval([{ weight: 1, count: 0 }], { midp: true });
 * assert.ok(Math.abs(midp.hi - 2.995732273553991) < 1e-9);
 * ```
 */
export function gammaInterval(
  terms: readonly WeightedCount[],
  options: GammaIntervalOptions = {},
): Bounds {
  const level = options.level ?? 0.95;
  const { y, v, wMax } = checkTerms(terms, level, "gamma interval");
  const e = options.extra ?? { weight: wMax, square: wMax * wMax };
  const alpha = 1 - level;
  const ys = y + e.weight;
  const vs = v + e.square;
  const upperShape = e.weight > 0 && vs > 0 ? ys ** 2 / vs : 0;
  const upperScale = ys > 0 ? vs / ys : 0;
  const lowerShape = y > 0 && v > 0 ? (y * y) / v : 0;
  const lowerScale = y > 0 && v > 0 ? v / y : 0;
  if (options.midp === true && upperShape > 0) {
    return {
      lo: mixtureQuantile(
        alpha / 2,
        lowerShape,
        lowerScale,
        upperShape,
        upperScale,
      ),
      hi: mixtureQuantile(
        1 - alpha / 2,
        lowerShape,
        lowerScale,
        upperShape,
        upperScale,
      ),
    };
  }
  return {
    lo: lowerShape > 0 ? lowerScale * gammaQuantile(alpha / 2, lowerShape) : 0,
    hi: upperShape > 0
      ? upperScale * gammaQuantile(1 - alpha / 2, upperShape)
      : y,
  };
}

/**
 * The Fay–Feuer gamma interval for Y = Σ weightᵢ · λᵢ from counts xᵢ ~
 * Poisson(λᵢ).
 *
 * With y = Σ wᵢxᵢ, v = Σ wᵢ²xᵢ and w_M the largest possible weight, the
 * bounds are (v / y) · G⁻¹(α/2; y²/v) and ((v + w_M²) / (y + w_M)) ·
 * G⁻¹(1 − α/2; (y + w_M)² / (v + w_M²)), with G⁻¹(q; s) the Gamma(s)
 * quantile (Fay & Feuer 1997, `fay-feuer-1997`). The lower bound is 0 when
 * y = 0. The interval reduces to the exact Garwood interval for one Poisson
 * count, and is conservative for weighted sums; the w_M term is what makes
 * it see a costly kind with zero events.
 *
 * @param terms Weights and counts.
 * @param options Level and largest weight.
 * @returns The bounds.
 * @throws {RangeError} When a weight or count is negative or not finite, or the level is outside (0, 1).
 *
 * @example One count of 0 gives the exact Poisson upper bound 3.689
 * ```ts
 * import assert from "node:assert/strict";
 * import { fayFeuerInterval } from "./fay_feuer.ts";
 *
 * const b = fayFeuerInterval([{ weight: 1, count: 0 }]);
 * assert.equal(b.lo, 0);
 * assert.ok(Math.abs(b.hi - 3.6888794541139363) < 1e-9);
 * ```
 */
export function fayFeuerInterval(
  terms: readonly WeightedCount[],
  options: FayFeuerOptions = {},
): Bounds {
  const level = options.level ?? 0.95;
  const { wMax } = checkTerms(terms, level, "Fay-Feuer interval");
  const wM = options.maxWeight ?? wMax;
  return gammaInterval(terms, {
    level,
    extra: { weight: wM, square: wM * wM },
  });
}

/** Options for {@linkcode fayFeuerLossInterval}. */
export interface FayFeuerLossOptions extends LossCellOptions {
  /** Confidence level in (0, 1). Default: 0.95. */
  level?: number;
  /** Cost matrix. Default: the consequence matrix. */
  matrix?: CostMatrix;
}

/**
 * How the extra event of a gamma loss interval is sized, over every possible
 * kind of every cell (observed or not) with a cost:
 *
 * - `max`: one event of the largest weight (Fay and Feuer);
 * - `clopper-pearson`: the largest weight times the share of a Poisson
 *   count's zero-event bound that the exact binomial bound of its cell
 *   allows, N(1 − (α/2)^(1/N)) / −ln(α/2) with N the cell's units (tasks):
 *   the extra event of a single kind is then its Clopper–Pearson bound at
 *   zero instead of the Poisson one (the two agree as N grows);
 * - `mean`: the mean weight and the mean squared weight (Tiwari, Clegg and
 *   Zou).
 */
export type ExtraEvent = "max" | "clopper-pearson" | "mean";

/** Options for {@linkcode gammaLossInterval}. */
export interface GammaLossOptions extends FayFeuerLossOptions {
  /** How the extra event is sized. Default: `"max"` (Fay and Feuer). */
  extra?: ExtraEvent;
  /** Mid-p bounds (Fay and Kim). Default: `false`. */
  midp?: boolean;
}

/**
 * A gamma interval for the expected loss of one model on its suite,
 * conditional on its cell counts.
 *
 * Each kind with a cost in each cell is a Poisson term: its count (in tasks,
 * so trials of a task count once) times the weight cost × n / effectiveN,
 * which is the cost of one decision when every task has one trial and
 * charges a whole task's trials otherwise. The upper bound carries one extra
 * event, sized over every possible kind of every cell, observed or not, as
 * `extra` says ({@linkcode ExtraEvent}); that event is what keeps the upper
 * bound open when a costly kind shows no event. The bounds are then clipped
 * to the range the expected loss can take (every decision of a cell at its
 * cheapest kind, or at its costliest), which a Poisson model ignores and
 * which cannot lower coverage. `--interval fay-feuer` is `extra: "max"`;
 * `--interval cp-gamma` (what `auto` picks) is
 * {@linkcode unitGammaLossInterval}, which is `extra: "clopper-pearson"`
 * with its variance read from the units' second moments, and this interval
 * itself where every unit has one decision; the coverage study of
 * `docs/method.md` measures them, this interval with `extra:
 * "clopper-pearson"` (every trial of a unit counted as failing together),
 * and the Tiwari–Clegg–Zou and mid-p candidates it rejected. Cost is
 * O(kinds).
 *
 * @param stats Sufficient statistics of one model.
 * @param profile Cost profile.
 * @param options Level, matrix, extra event, mid-p and cell options.
 * @returns The bounds, or `null` when there are no decisions.
 *
 * @example A CRITICAL cell of 3 decisions with no miss seen
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { gammaLossInterval } from "./fay_feuer.ts";
 *
 * const stats = [{ modelId: "m", severity: "CRITICAL", trueClass: "X", predClass: "X",
 *   action: "auto", n: 3, pErrorSum: 0, pMissing: 0, parseFailures: 0 }] as const;
 * const p = getProfile("reconciliation");
 * // Poisson: 3.689 misses, clipped to the 3 the cell holds; binomial: 3 x (1 - 0.025^(1/3)) = 2.12
 * assert.equal(gammaLossInterval(stats, p)!.hi, 150);
 * const cp = gammaLossInterval(stats, p, { extra: "clopper-pearson" })!;
 * assert.ok(Math.abs(cp.hi - 50 * 3 * (1 - 0.025 ** (1 / 3))) < 1e-9);
 * ```
 */
export function gammaLossInterval(
  stats: readonly StatsRow[],
  profile: CostProfile,
  options: GammaLossOptions = {},
): Bounds | null {
  const parts = gammaLossParts(stats, profile, options);
  if (parts === null) return null;
  // a kind's count in units, each unit weighing its cell's decisions per unit
  const terms = parts.kinds.flatMap(({ cost, perUnit, kind }) =>
    cost > 0 && kind.effectiveCount > 0
      ? [{ weight: cost * perUnit, count: kind.effectiveCount }]
      : []
  );
  return parts.clip(gammaInterval(terms, {
    level: parts.level,
    extra: parts.extra[options.extra ?? "max"],
    midp: options.midp,
  }));
}

/**
 * A gamma interval for the expected loss of one model on its suite whose
 * variance is read from its units' second moments, with an extra event
 * sized by the Clopper–Pearson bound of its cell: `cp-gamma`, the default.
 *
 * A unit (a task and its trials) adds a loss L_u to the realised loss y =
 * Σ L_u; the units are independent, so the variance of y is at most
 * Σ E[L_u²], estimated by Σ L_u² (the uncentred ultimate-cluster variance
 * of a total, `kish-1965`, as Σ w²x is for Poisson counts in
 * `fay-feuer-1997`). Per-cell statistics do not hold Σ L_u², but they hold
 * a bound on it: with m_u the unit's decisions that can cost (`canCost`),
 * L_u² ≤ m_u · Σ over those decisions of their squared cost (Cauchy–Schwarz),
 * so v = Σ over kinds of cost² × `unitCostPairs`. Each kind enters
 * {@linkcode gammaInterval} with that mean and that variance; the extra
 * event (one unit of the kind whose whole trials fail, sized by the
 * Clopper–Pearson bound of its cell's units) and the clip to the possible
 * range are those of {@linkcode gammaLossInterval} with `extra:
 * "clopper-pearson"`, so where a costly kind shows no event the upper
 * bound is the one that interval gives. Where a cell's units all have the
 * same number of trials, that interval is this one with m_u replaced by
 * every trial of the unit (the trials fail together); where every unit has
 * one decision the two are equal to the last bit. Statistics without
 * `unitCostPairs` are read as `taskTrialsSum` (see `unitCostPairsOf`); under
 * a matrix that prices an automatic correct decision the bound does not
 * hold and the interval is the one with every trial of a unit counted as
 * failing together. This is `cp-gamma`, what `--interval auto` picks; every
 * engine computes `unitCostPairs`. Cost is O(kinds).
 *
 * @param stats Sufficient statistics of one model.
 * @param profile Cost profile.
 * @param options Level, matrix and cell options.
 * @returns The bounds, or `null` when there are no decisions.
 * @throws {RangeError} When a cell's `unitCostPairs` is not finite, is below its decisions where they can cost, or above its `taskTrialsSum`.
 *
 * @example Ten tasks of five epochs: one wrong in three epochs, another in one
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { gammaLossInterval, unitGammaLossInterval } from "./fay_feuer.ts";
 *
 * const base = { modelId: "m", severity: "HIGH", trueClass: "verdict:correct", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const stats = [
 *   { ...base, predClass: "verdict:correct", n: 46, taskShare: 9.2, taskTrialsSum: 230, unitCostPairs: 3 * 2 + 1 * 4 },
 *   { ...base, predClass: "verdict:incorrect", n: 4, taskShare: 0.8, taskTrialsSum: 20, unitCostPairs: 3 * 3 + 1 * 1 },
 * ];
 * const p = getProfile("reconciliation");
 * const unit = unitGammaLossInterval(stats, p)!;
 * const cp = gammaLossInterval(stats, p, { extra: "clopper-pearson" })!;
 * // the four wrong epochs are not four whole tasks: a narrower interval
 * assert.ok(cp.lo < unit.lo && unit.hi < cp.hi);
 * ```
 */
export function unitGammaLossInterval(
  stats: readonly StatsRow[],
  profile: CostProfile,
  options: FayFeuerLossOptions = {},
): Bounds | null {
  for (const r of stats) checkUnitCostPairs(r, options.cleanClass);
  const parts = gammaLossParts(stats, profile, options);
  if (parts === null) return null;
  if (parts.pricedCorrect) {
    return gammaLossInterval(stats, profile, {
      ...options,
      extra: "clopper-pearson",
    });
  }
  // mean cost × count and variance cost² × unitCostPairs, as one term whose
  // weight is the cost times the costly decisions per unit a decision sees
  // (1, exactly, with one decision per unit)
  const terms = parts.kinds.flatMap(({ cost, kind }) => {
    if (!(cost > 0 && kind.count > 0)) return [];
    const perDecision = kind.unitCostPairs / kind.count;
    return [{ weight: cost * perDecision, count: kind.count / perDecision }];
  });
  return parts.clip(gammaInterval(terms, {
    level: parts.level,
    extra: parts.extra["clopper-pearson"],
  }));
}

function checkUnitCostPairs(r: StatsRow, cleanClass?: string): void {
  const pairs = r.unitCostPairs;
  if (pairs === undefined || r.n === 0) return;
  const fail = (what: string) => {
    throw new RangeError(
      `Cannot compute a unit gamma loss interval: cell ${
        [r.modelId, r.severity, r.trueClass, r.predClass, r.action].join("/")
      }: unitCostPairs must be ${what}, got ${pairs}`,
    );
  };
  if (!(pairs >= 0 && Number.isFinite(pairs))) fail("finite and >= 0");
  if (canCost(r, cleanClass) && pairs < r.n) {
    fail(`at least n = ${r.n} (each costly decision counts itself)`);
  }
  if (r.taskTrialsSum !== undefined && pairs > r.taskTrialsSum) {
    fail(
      `at most taskTrialsSum = ${r.taskTrialsSum} (a unit has no more costly decisions than trials)`,
    );
  }
}

// What every gamma loss interval reads from one model's cells: each possible
// kind with its cost and its cell's decisions per unit (the weight of a unit
// whose decisions all take that kind), the extra event of each sizing, and
// the clip to the range the expected loss can take.
interface GammaLossParts {
  readonly level: number;
  readonly kinds: readonly {
    readonly cost: number;
    readonly perUnit: number;
    readonly kind: LossKind;
  }[];
  readonly extra: Readonly<
    Record<ExtraEvent, { readonly weight: number; readonly square: number }>
  >;
  /** Whether some automatic correct kind has a cost. */
  readonly pricedCorrect: boolean;
  clip(b: Bounds): Bounds;
}

function gammaLossParts(
  stats: readonly StatsRow[],
  profile: CostProfile,
  options: FayFeuerLossOptions,
): GammaLossParts | null {
  const cells = lossCells(stats, options);
  if (cells.length === 0) return null;
  const level = options.level ?? 0.95;
  const alpha = 1 - level;
  const poissonZero = -Math.log(alpha / 2);
  const kinds: { cost: number; perUnit: number; kind: LossKind }[] = [];
  let maxWeight = 0;
  let maxCp = 0;
  let possible = 0;
  let sum = 0;
  let sumSquares = 0;
  let floor = 0;
  let ceiling = 0;
  let pricedCorrect = false;
  for (const cell of cells) {
    const cost = kindCosts(cell, profile, options);
    floor += cell.n * Math.min(...cost);
    ceiling += cell.n * Math.max(...cost);
    const units = cell.effectiveN;
    const perUnit = units > 0 ? cell.n / units : 1;
    // the exact binomial bound at zero over N units, as a share of Poisson's
    const share = units > 0
      ? Math.min(
        1,
        (units * -Math.expm1(Math.log(alpha / 2) / units)) /
          poissonZero,
      )
      : 1;
    cell.kinds.forEach((kind, i) => {
      const weight = cost[i] * perUnit;
      maxWeight = Math.max(maxWeight, weight);
      if (weight > 0) {
        maxCp = Math.max(maxCp, weight * share);
        possible++;
        sum += weight;
        sumSquares += weight * weight;
        if (kind.action === "auto" && kind.outcome === "correct") {
          pricedCorrect = true;
        }
      }
      kinds.push({ cost: cost[i], perUnit, kind });
    });
  }
  return {
    level,
    kinds,
    extra: {
      max: { weight: maxWeight, square: maxWeight * maxWeight },
      "clopper-pearson": { weight: maxCp, square: maxCp * maxCp },
      mean: possible > 0
        ? { weight: sum / possible, square: sumSquares / possible }
        : { weight: 0, square: 0 },
    },
    pricedCorrect,
    clip: (b) => ({
      lo: Math.min(Math.max(b.lo, floor), ceiling),
      hi: Math.max(Math.min(b.hi, ceiling), floor),
    }),
  };
}

/**
 * A Fay–Feuer gamma interval for the expected loss of one model on its
 * suite, conditional on its cell counts: {@linkcode gammaLossInterval} with
 * one extra event of the largest weight of any possible kind of any cell,
 * observed or not (Fay and Feuer's w_M). `--interval fay-feuer`; it was
 * what `auto` picked before the Clopper–Pearson-sized extra event. Cost is
 * O(kinds).
 *
 * @param stats Sufficient statistics of one model.
 * @param profile Cost profile.
 * @param options Level, matrix and cell options.
 * @returns The bounds, or `null` when there are no decisions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { fayFeuerLossInterval } from "./fay_feuer.ts";
 *
 * const base = { modelId: "m", severity: "HIGH", trueClass: "X", action: "auto", pErrorSum: 0,
 *   pMissing: 0, parseFailures: 0 } as const;
 * const b = fayFeuerLossInterval([{ ...base, predClass: "X", n: 100 }], getProfile("reconciliation"))!;
 * // no miss seen: the upper bound is 3.689 misses of K(HIGH) = 10
 * assert.ok(Math.abs(b.hi - 36.888794541139363) < 1e-8);
 * ```
 */
export function fayFeuerLossInterval(
  stats: readonly StatsRow[],
  profile: CostProfile,
  options: FayFeuerLossOptions = {},
): Bounds | null {
  return gammaLossInterval(stats, profile, { ...options, extra: "max" });
}
