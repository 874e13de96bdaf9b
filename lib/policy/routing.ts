/**
 * Loss-optimal routing: per decision, the model that minimises expected
 * loss plus price.
 *
 * @module
 */

/** A model that decisions can be routed to. */
export interface RouteCandidate {
  /** Model id. */
  readonly id: string;
  /** Its P(error) on each decision, in [0, 1]. */
  readonly pError: ArrayLike<number>;
  /** Its price per decision: one number for all, or one per decision. */
  readonly price: number | ArrayLike<number>;
}

/** Options for {@linkcode lossOptimalRoute}. */
export interface RouteOptions {
  /** K(severity) of each decision: what an error costs. Required. */
  exposure: ArrayLike<number>;
}

/** A routing of decisions to models. */
export interface Routing {
  /** Index into the candidates of the model chosen for each decision. */
  readonly choice: Int32Array;
  /** Share of decisions routed to each model, by id. */
  readonly share: Readonly<Record<string, number>>;
  /** Expected cost of the routing: Σ P(error)·K + price over decisions. */
  readonly expectedCost: number;
  /** Its expected loss part, Σ P(error)·K. */
  readonly expectedLoss: number;
  /** Its price part. */
  readonly price: number;
  /** Expected cost of sending every decision to each single model, by id. */
  readonly singleModelCost: Readonly<Record<string, number>>;
}

/**
 * Route each decision to the model with the lowest P(error)·K(s) + price.
 *
 * The price-only routers of the routing literature minimise price subject
 * to a quality target and have no term for what an error costs; adding
 * P(error)·K(s) makes the choice per decision in money (docs/method.md, one cost matrix): a
 * cheap model takes the LOW decisions it may get wrong, an expensive one
 * the CRITICAL decisions it gets right. Expected cost is never above the
 * best single model's, when the probabilities are calibrated. Ties go to
 * the earlier candidate. Cost: O(n × models).
 *
 * @param candidates The models, each with P(error) per decision and a price.
 * @param options K per decision (required).
 * @returns The choice per decision, shares, and expected costs routed and single-model.
 * @throws {RangeError} When a probability, price or K is out of range, or there are no candidates.
 * @throws {TypeError} When a column's length differs from the exposure's.
 *
 * @example The small model takes the LOW decision, the frontier the HIGH one
 * ```ts
 * import assert from "node:assert/strict";
 * import { lossOptimalRoute } from "./routing.ts";
 *
 * const r = lossOptimalRoute([
 *   { id: "small", pError: [0.2, 0.2], price: 0 },
 *   { id: "frontier", pError: [0.02, 0.02], price: 0.08 },
 * ], { exposure: [0.2, 10] });
 * assert.deepEqual([...r.choice], [0, 1]);
 * // 0.2 × 0.2 + (0.02 × 10 + 0.08)
 * assert.ok(Math.abs(r.expectedCost - 0.32) < 1e-12);
 * ```
 */
export function lossOptimalRoute(
  candidates: readonly RouteCandidate[],
  options: RouteOptions,
): Routing {
  const what = "Cannot route decisions";
  if (!Array.isArray(candidates) || candidates.length === 0) {
    throw new RangeError(`${what}: at least one candidate model is needed`);
  }
  const exposure = options?.exposure;
  if (exposure === undefined || typeof exposure.length !== "number") {
    throw new TypeError(`${what}: exposure must be an array of K per decision`);
  }
  const n = exposure.length;
  for (const c of candidates) {
    if (c.pError.length !== n) {
      throw new TypeError(
        `${what}: model ${
          JSON.stringify(c.id)
        } has ${c.pError.length} P(error) values but there are ${n} decisions`,
      );
    }
    if (typeof c.price !== "number" && c.price.length !== n) {
      throw new TypeError(
        `${what}: model ${
          JSON.stringify(c.id)
        } has ${c.price.length} prices but there are ${n} decisions`,
      );
    }
  }
  const priceOf = (c: RouteCandidate, i: number): number => {
    const p = typeof c.price === "number" ? c.price : c.price[i];
    if (!(p >= 0) || !Number.isFinite(p)) {
      throw new RangeError(
        `${what}: price of ${
          JSON.stringify(c.id)
        } for decision ${i} must be a finite number >= 0, got ${p}`,
      );
    }
    return p;
  };
  const m = candidates.length;
  const choice = new Int32Array(n);
  const counts = new Float64Array(m);
  const single = new Float64Array(m);
  let loss = 0;
  let price = 0;
  for (let i = 0; i < n; i++) {
    const k = exposure[i];
    if (!(k >= 0) || !Number.isFinite(k)) {
      throw new RangeError(
        `${what}: exposure[${i}] must be a finite number >= 0, got ${k}`,
      );
    }
    let best = -1;
    let bestCost = Infinity;
    let bestLoss = 0;
    let bestPrice = 0;
    for (let j = 0; j < m; j++) {
      const c = candidates[j];
      const p = c.pError[i];
      if (!(p >= 0 && p <= 1)) {
        throw new RangeError(
          `${what}: P(error) of ${
            JSON.stringify(c.id)
          } for decision ${i} must be in [0, 1], got ${p}`,
        );
      }
      const pr = priceOf(c, i);
      const cost = p * k + pr;
      single[j] += cost;
      if (cost < bestCost) {
        best = j;
        bestCost = cost;
        bestLoss = p * k;
        bestPrice = pr;
      }
    }
    choice[i] = best;
    counts[best]++;
    loss += bestLoss;
    price += bestPrice;
  }
  return {
    choice,
    share: Object.fromEntries(
      candidates.map((c, j) => [c.id, n === 0 ? 0 : counts[j] / n]),
    ),
    expectedCost: loss + price,
    expectedLoss: loss,
    price,
    singleModelCost: Object.fromEntries(
      candidates.map((c, j) => [c.id, single[j]]),
    ),
  };
}
