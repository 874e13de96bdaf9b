/**
 * Rank uncertainty from posterior draws: each model's probability of having
 * the lowest expected loss.
 *
 * @module
 */

/**
 * Each model's posterior probability of having the lowest expected loss.
 *
 * Draw d of every model is one joint posterior draw (the models' posteriors
 * are independent, so aligning their draws by index samples the joint); the
 * probability of model m is the share of draws in which its loss is the
 * smallest, a tie of k models giving each 1/k. The shares sum to 1. Cost is
 * O(models × draws).
 *
 * @param draws Posterior loss draws per model id (from `posteriorLossDraws`), all of one length.
 * @returns The probability per model id, in the order given.
 * @throws {RangeError} When there are no models, no draws, or the draws differ in length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { probabilityBest } from "./rank_probability.ts";
 *
 * const p = probabilityBest({ a: [1, 1, 5, 2], b: [2, 3, 4, 2] });
 * assert.deepEqual(p, { a: 0.625, b: 0.375 });
 * ```
 */
export function probabilityBest(
  draws: Readonly<Record<string, ArrayLike<number>>>,
): Record<string, number> {
  const ids = Object.keys(draws);
  if (ids.length === 0) {
    throw new RangeError("Cannot rank models: no models given");
  }
  const n = draws[ids[0]].length;
  if (n === 0) throw new RangeError("Cannot rank models: no draws given");
  for (const id of ids) {
    if (draws[id].length !== n) {
      throw new RangeError(
        `Cannot rank models: model ${JSON.stringify(id)} has ${
          draws[id].length
        } draws, expected ${n}`,
      );
    }
  }
  const wins = new Float64Array(ids.length);
  for (let d = 0; d < n; d++) {
    let best = Infinity;
    let ties = 0;
    for (const id of ids) {
      const v = draws[id][d];
      if (v < best) {
        best = v;
        ties = 1;
      } else if (v === best) ties++;
    }
    ids.forEach((id, i) => {
      if (draws[id][d] === best) wins[i] += 1 / ties;
    });
  }
  return Object.fromEntries(ids.map((id, i) => [id, wins[i] / n]));
}
