// Private: loss coefficients packed for sweeps, with a float fast path and an
// exact fallback that decides ties and near-ties in rational arithmetic.
import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES } from "../costs/severity.ts";
import { add, cmp, mul, rat, RAT_ZERO, type Rational } from "./_rational.ts";
import type { LossCoefficients, LossPer } from "./loss_coefficients.ts";

/** Slots of a cost vector: K for the four severities, review cost, and 1 (fixed costs). */
export const SLOTS = 6;

/** A cost vector [K.LOW, K.MEDIUM, K.HIGH, K.CRITICAL, reviewCost, 1]. */
export function costVector(profile: CostProfile): Float64Array {
  const v = new Float64Array(SLOTS);
  SEVERITIES.forEach((s, i) => (v[i] = profile.K[s]));
  v[4] = profile.reviewCost;
  v[5] = 1;
  return v;
}

/** Coefficients of many models in one flat array, ready for dot products. */
export interface Prepared {
  readonly models: readonly string[];
  readonly per: LossPer;
  readonly n: readonly number[];
  readonly correct: readonly number[];
  /** M × SLOTS coefficients, divided by n when per decision. */
  readonly coef: Float64Array;
  /** Raw (undivided) coefficients per model, as numbers. */
  readonly raw: readonly (readonly number[])[];
}

/** Pack coefficient vectors; refuses an empty list and models without decisions. */
export function prepare(
  coefficients: readonly LossCoefficients[],
  per: LossPer,
  what: string,
): Prepared {
  if (coefficients.length === 0) {
    throw new RangeError(`Cannot ${what}: there are no models`);
  }
  if (per !== "decision" && per !== "run") {
    throw new RangeError(
      `Cannot ${what}: per must be "decision" or "run", got ${
        JSON.stringify(per)
      }`,
    );
  }
  const seen = new Set<string>();
  const coef = new Float64Array(coefficients.length * SLOTS);
  const raw: number[][] = [];
  coefficients.forEach((c, m) => {
    if (seen.has(c.modelId)) {
      throw new RangeError(
        `Cannot ${what}: model ${JSON.stringify(c.modelId)} appears twice`,
      );
    }
    seen.add(c.modelId);
    if (!(c.n > 0)) {
      throw new RangeError(
        `Cannot ${what}: model ${
          JSON.stringify(c.modelId)
        } has no decisions (n = ${c.n})`,
      );
    }
    const r = [...SEVERITIES.map((s) => c.K[s]), c.review, c.fixed];
    for (const [i, v] of r.entries()) {
      if (!(v >= 0) || !Number.isFinite(v)) {
        throw new RangeError(
          `Cannot ${what}: model ${
            JSON.stringify(c.modelId)
          } has coefficient ${i} = ${v}; coefficients must be finite and >= 0`,
        );
      }
      coef[m * SLOTS + i] = per === "decision" ? v / c.n : v;
    }
    raw.push(r);
  });
  return {
    models: coefficients.map((c) => c.modelId),
    per,
    n: coefficients.map((c) => c.n),
    correct: coefficients.map((c) => c.correct),
    coef,
    raw,
  };
}

/** Losses of every model under one cost vector, written into `out`. */
export function lossesInto(
  p: Prepared,
  v: Float64Array,
  out: Float64Array,
): void {
  const c = p.coef;
  for (let m = 0, o = 0; m < out.length; m++, o += SLOTS) {
    out[m] = c[o] * v[0] + c[o + 1] * v[1] + c[o + 2] * v[2] +
      c[o + 3] * v[3] + c[o + 4] * v[4] + c[o + 5] * v[5];
  }
}

/** Exact total (undivided) loss of model m under a cost vector. */
export function exactTotal(
  p: Prepared,
  m: number,
  v: ArrayLike<number>,
): Rational {
  let total = RAT_ZERO;
  const r = p.raw[m];
  for (let i = 0; i < SLOTS; i++) {
    if (r[i] !== 0 && v[i] !== 0) total = add(total, mul(rat(r[i]), rat(v[i])));
  }
  return total;
}

/**
 * Compare the losses of models i and j: -1, 0 or 1. Floats decide when they
 * differ by more than 1e-9 relative (every term is >= 0, so the dot product's
 * rounding error is far below that); otherwise the losses are compared
 * exactly, so a tie is a tie.
 */
export function compareLoss(
  p: Prepared,
  v: ArrayLike<number>,
  i: number,
  j: number,
  li: number,
  lj: number,
): number {
  const scale = Math.max(Math.abs(li), Math.abs(lj));
  if (Math.abs(li - lj) > 1e-9 * scale) return li < lj ? -1 : 1;
  const ti = exactTotal(p, i, v);
  const tj = exactTotal(p, j, v);
  if (p.per === "run") return cmp(ti, tj);
  return cmp(mul(ti, rat(p.n[j])), mul(tj, rat(p.n[i])));
}

/** Compare error rates (1 - accuracy) of models i and j exactly: -1, 0 or 1. */
export function compareErrorRate(p: Prepared, i: number, j: number): number {
  // error_i / n_i vs error_j / n_j  <=>  correct_j * n_i vs correct_i * n_j
  return cmp(
    mul(rat(p.correct[j]), rat(p.n[i])),
    mul(rat(p.correct[i]), rat(p.n[j])),
  );
}

/** Dense ranks (0 = best) of indices under a comparator. */
export function denseRanks(
  count: number,
  compare: (i: number, j: number) => number,
): Int32Array {
  const order = Array.from({ length: count }, (_, i) => i).sort(compare);
  const ranks = new Int32Array(count);
  let rank = 0;
  for (let k = 0; k < count; k++) {
    if (k > 0 && compare(order[k - 1], order[k]) !== 0) rank++;
    ranks[order[k]] = rank;
  }
  return ranks;
}

/**
 * Dense loss ranks of every model under one cost vector (0 = lowest loss).
 * Fast path: order by the float losses (insertion sort, M is small) and, when
 * no two neighbours are within 1e-9 relative, ranks are positions; otherwise
 * the exact comparator decides every pair.
 */
export function lossRanks(
  p: Prepared,
  v: ArrayLike<number>,
  losses: Float64Array,
  order: Int32Array,
): Int32Array {
  const M = losses.length;
  for (let k = 0; k < M; k++) {
    const x = k;
    const lx = losses[x];
    let j = k - 1;
    while (j >= 0 && losses[order[j]] > lx) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = x;
  }
  for (let k = 1; k < M; k++) {
    const a = losses[order[k - 1]];
    const b = losses[order[k]];
    if (b - a <= 1e-9 * Math.max(Math.abs(a), Math.abs(b))) {
      return denseRanks(
        M,
        (i, j) => compareLoss(p, v, i, j, losses[i], losses[j]),
      );
    }
  }
  const ranks = new Int32Array(M);
  for (let k = 0; k < M; k++) ranks[order[k]] = k;
  return ranks;
}
