/**
 * Exact crossovers: where two models' loss lines meet along a cost family,
 * and where the winner changes, solved from the coefficients rather than
 * read off a grid.
 *
 * @module
 */

import { SEVERITIES } from "../costs/severity.ts";
import {
  add,
  cmp,
  div,
  mul,
  rat,
  RAT_ZERO,
  type Rational,
  ratString,
  sign,
  sub,
  toNumber,
} from "./_rational.ts";
import type { CostFamily } from "./cost_family.ts";
import type { LossCoefficients, LossPer } from "./loss_coefficients.ts";

/** A model's loss along a family: intercept + slope × r. */
export interface FamilyLine {
  /** Model id. */
  readonly modelId: string;
  /** Loss at r = 0: the unscaled severities, the review and fixed costs. */
  readonly intercept: number;
  /** Loss added per unit of r: the scaled severities. */
  readonly slope: number;
}

/** Options of the crossover functions. */
export interface CrossoverOptions {
  /** Loss per decision or per run. Default: `"decision"`. */
  per?: LossPer;
}

interface ExactLine {
  readonly modelId: string;
  readonly intercept: Rational;
  readonly slope: Rational;
}

function exactLine(
  c: LossCoefficients,
  family: CostFamily,
  per: LossPer,
): ExactLine {
  let intercept = add(
    mul(rat(c.review), rat(family.base.reviewCost)),
    rat(c.fixed),
  );
  let slope = RAT_ZERO;
  for (const s of SEVERITIES) {
    const term = mul(rat(c.K[s]), rat(family.base.K[s]));
    if (family.scaled.includes(s)) slope = add(slope, term);
    else intercept = add(intercept, term);
  }
  if (per === "decision") {
    if (!(c.n > 0)) {
      throw new RangeError(
        `Cannot draw the loss line of model ${
          JSON.stringify(c.modelId)
        }: it has no decisions (n = ${c.n})`,
      );
    }
    intercept = div(intercept, rat(c.n));
    slope = div(slope, rat(c.n));
  }
  return { modelId: c.modelId, intercept, slope };
}

/**
 * A model's loss line along a cost family.
 *
 * Loss is linear in K, so along K_r it is intercept + slope × r, where the
 * slope collects the scaled severities and the intercept everything else.
 *
 * @param coefficients The model's loss coefficients.
 * @param family The cost family.
 * @param options Per decision (default) or per run.
 * @returns The line, in the profile's unit.
 * @throws {RangeError} Per decision, when the model has no decisions.
 *
 * @example The model A: 100 LOW and 40 HIGH errors, K(LOW) = 0.2, K(HIGH) = 10 r
 * ```ts
 * import assert from "node:assert/strict";
 * import { costFamily } from "./cost_family.ts";
 * import { familyLine } from "./crossover.ts";
 *
 * const a = { modelId: "A", n: 10_000, correct: 9_860, K: { LOW: 100, MEDIUM: 0, HIGH: 40, CRITICAL: 0 },
 *   review: 0, fixed: 0 };
 * assert.deepEqual(familyLine(a, costFamily(), { per: "run" }), { modelId: "A", intercept: 20, slope: 400 });
 * ```
 */
export function familyLine(
  coefficients: LossCoefficients,
  family: CostFamily,
  options: CrossoverOptions = {},
): FamilyLine {
  const line = exactLine(coefficients, family, options.per ?? "decision");
  return {
    modelId: line.modelId,
    intercept: toNumber(line.intercept),
    slope: toNumber(line.slope),
  };
}

/** Where two models' loss lines cross. */
export interface Crossover {
  /** The model with the lower loss below the crossing (the steeper line). */
  readonly a: string;
  /** The model with the lower loss above the crossing. */
  readonly b: string;
  /** The ratio r at which they cross: the double nearest the exact value. */
  readonly ratio: number;
  /** The exact ratio as a fraction "p/q" of the costs' decimal values. */
  readonly exact: string;
}

function crossing(x: ExactLine, y: ExactLine): Crossover | null {
  const dSlope = sub(x.slope, y.slope);
  if (sign(dSlope) === 0) return null;
  const r = div(sub(y.intercept, x.intercept), dSlope);
  if (sign(r) <= 0) return null;
  const [a, b] = sign(dSlope) > 0 ? [x, y] : [y, x];
  return {
    a: a.modelId,
    b: b.modelId,
    ratio: toNumber(r),
    exact: ratString(r),
  };
}

/**
 * The exact ratio at which two models' loss lines cross along a family.
 *
 * Solves intercept_A + slope_A r = intercept_B + slope_B r in rational
 * arithmetic on the counts and on the decimal values of the costs, so the
 * answer is the intersection, not the nearest grid point. The issue's
 * example: A with 100 LOW and 40 HIGH errors, B with 3,000 LOW and 30 HIGH,
 * K(LOW) = 0.2 and K(HIGH) = 10 r lose 20 + 400 r and 600 + 300 r, which
 * cross at r = 5.8 exactly (a decade grid reports 10).
 *
 * @param a First model's coefficients.
 * @param b Second model's coefficients.
 * @param family The cost family.
 * @param options Per decision (default) or per run; the ratio is the same when both models have the same decisions.
 * @returns The crossing, or `null` when the lines are parallel or cross only at r <= 0.
 *
 * @example r = 5.8, exactly
 * ```ts
 * import assert from "node:assert/strict";
 * import { costFamily } from "./cost_family.ts";
 * import { crossoverRatio } from "./crossover.ts";
 *
 * const model = (modelId: string, low: number, high: number) => ({ modelId, n: 10_000,
 *   correct: 10_000 - low - high, K: { LOW: low, MEDIUM: 0, HIGH: high, CRITICAL: 0 }, review: 0, fixed: 0 });
 * const x = crossoverRatio(model("A", 100, 40), model("B", 3000, 30), costFamily());
 * assert.deepEqual(x, { a: "A", b: "B", ratio: 5.8, exact: "29/5" });
 * ```
 */
export function crossoverRatio(
  a: LossCoefficients,
  b: LossCoefficients,
  family: CostFamily,
  options: CrossoverOptions = {},
): Crossover | null {
  const per = options.per ?? "decision";
  return crossing(exactLine(a, family, per), exactLine(b, family, per));
}

/** Options for {@linkcode crossovers} and {@linkcode winnerChanges}. */
export interface RangeOptions extends CrossoverOptions {
  /** Smallest ratio. Default: 0 for crossovers (every r > 0), 1 for winner changes. */
  from?: number;
  /** Largest ratio. Default: Infinity for crossovers, 100,000 for winner changes. */
  to?: number;
}

/**
 * Every pairwise crossover of a set of models along a family, in order of r.
 *
 * @param coefficients Loss coefficients of the models.
 * @param family The cost family.
 * @param options Range of r (default: every r > 0) and per decision or per run.
 * @returns The crossings with from <= r <= to, sorted by ratio then by model ids.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { costFamily } from "./cost_family.ts";
 * import { crossovers } from "./crossover.ts";
 *
 * const zero = { review: 0, fixed: 0 };
 * const models = [
 *   { modelId: "even", n: 100, correct: 96, K: { LOW: 1, MEDIUM: 1, HIGH: 1, CRITICAL: 1 }, ...zero },
 *   { modelId: "shaped", n: 100, correct: 90, K: { LOW: 5, MEDIUM: 5, HIGH: 0, CRITICAL: 0 }, ...zero },
 * ];
 * // 2 + 2r = 10: the shaped model wins from r = 4 on
 * assert.deepEqual(crossovers(models, costFamily(getProfile("flat"))).map((c) => [c.b, c.ratio]), [["shaped", 4]]);
 * ```
 */
export function crossovers(
  coefficients: readonly LossCoefficients[],
  family: CostFamily,
  options: RangeOptions = {},
): Crossover[] {
  const per = options.per ?? "decision";
  const from = options.from ?? 0;
  const to = options.to ?? Infinity;
  const lines = coefficients.map((c) => exactLine(c, family, per));
  const out: (Crossover & { r: Rational })[] = [];
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const x = crossing(lines[i], lines[j]);
      if (x === null || x.ratio < from || x.ratio > to) continue;
      const dSlope = sub(lines[i].slope, lines[j].slope);
      out.push({
        ...x,
        r: div(sub(lines[j].intercept, lines[i].intercept), dSlope),
      });
    }
  }
  out.sort((x, y) =>
    cmp(x.r, y.r) || (x.a < y.a ? -1 : x.a > y.a ? 1 : 0) ||
    (x.b < y.b ? -1 : x.b > y.b ? 1 : 0)
  );
  return out.map(({ a, b, ratio, exact }) => ({ a, b, ratio, exact }));
}

/** A change of the loss winner along a family. */
export interface WinnerChange {
  /** The ratio where the change happens (the winners tie there). */
  readonly ratio: number;
  /** The exact ratio, "p/q". */
  readonly exact: string;
  /** Winners just below the ratio. */
  readonly from: readonly string[];
  /** Winners just above the ratio. */
  readonly to: readonly string[];
}

/**
 * Every change of the loss winner along a family, exactly: the breakpoints
 * of the lower envelope of the models' loss lines strictly inside (from, to).
 *
 * Identical lines share the win. The number of changes is the exact number
 * of flips of the top model over the range; a grid can only miss some.
 *
 * @param coefficients Loss coefficients of the models.
 * @param family The cost family.
 * @param options Range of r (default 1 to 100,000) and per decision or per run.
 * @returns The changes, in order of r.
 * @throws {RangeError} When there are no models or the range is not 0 <= from <= to.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { costFamily } from "./cost_family.ts";
 * import { winnerChanges } from "./crossover.ts";
 *
 * const zero = { review: 0, fixed: 0 };
 * const models = [
 *   { modelId: "even", n: 100, correct: 96, K: { LOW: 1, MEDIUM: 1, HIGH: 1, CRITICAL: 1 }, ...zero },
 *   { modelId: "shaped", n: 100, correct: 90, K: { LOW: 5, MEDIUM: 5, HIGH: 0, CRITICAL: 0 }, ...zero },
 * ];
 * const changes = winnerChanges(models, costFamily(getProfile("flat")));
 * assert.deepEqual(changes, [{ ratio: 4, exact: "4", from: ["even"], to: ["shaped"] }]);
 * ```
 */
export function winnerChanges(
  coefficients: readonly LossCoefficients[],
  family: CostFamily,
  options: RangeOptions = {},
): WinnerChange[] {
  const per = options.per ?? "decision";
  const from = options.from ?? 1;
  const to = options.to ?? 100_000;
  if (coefficients.length === 0) {
    throw new RangeError("Cannot find winner changes: there are no models");
  }
  if (!(from >= 0) || !(to >= from) || !Number.isFinite(from)) {
    throw new RangeError(
      `Cannot find winner changes: the range must satisfy 0 <= from <= to, got from ${from}, to ${to}`,
    );
  }
  const lines = coefficients.map((c) => exactLine(c, family, per));
  const value = (l: ExactLine, r: Rational) =>
    add(l.intercept, mul(l.slope, r));
  // The winners just after r: lowest value at r, then lowest slope.
  const winnersAfter = (r: Rational): number[] => {
    let best: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (best.length === 0) {
        best = [i];
        continue;
      }
      const b = lines[best[0]];
      const c = cmp(value(lines[i], r), value(b, r)) ||
        cmp(lines[i].slope, b.slope);
      if (c < 0) best = [i];
      else if (c === 0) best.push(i);
    }
    return best;
  };
  const names = (idx: number[]) => idx.map((i) => lines[i].modelId);
  const upper = Number.isFinite(to) ? rat(to) : null;
  const changes: WinnerChange[] = [];
  let r0 = rat(from);
  let current = winnersAfter(r0);
  for (;;) {
    const w = lines[current[0]];
    let next: Rational | null = null;
    for (let j = 0; j < lines.length; j++) {
      if (current.includes(j) || cmp(lines[j].slope, w.slope) >= 0) continue;
      const r = div(
        sub(lines[j].intercept, w.intercept),
        sub(w.slope, lines[j].slope),
      );
      if (cmp(r, r0) > 0 && (next === null || cmp(r, next) < 0)) next = r;
    }
    if (next === null || (upper !== null && cmp(next, upper) >= 0)) break;
    const after = winnersAfter(next);
    changes.push({
      ratio: toNumber(next),
      exact: ratString(next),
      from: names(current),
      to: names(after),
    });
    current = after;
    r0 = next;
  }
  return changes;
}
