/**
 * The Bayes escalation rule and the realised cost of any escalation policy.
 *
 * @module
 */

import { _checkReviewCost } from "./_score_groups.ts";
import type { EscalationOptions } from "./optimal_threshold.ts";

/**
 * The Bayes pointwise escalation rule: escalate iff P(error) × exposure > reviewCost.
 *
 * The exposure of a decision is what it costs if wrong, under the cost
 * matrix (`costIfWrong`: K(s) for a decision that predicted clean; under
 * `consequence`, a review for one that predicted an exception). A decision
 * served automatically costs P(error) × exposure in expectation; a review
 * costs reviewCost. Escalating exactly when the first exceeds the second
 * minimises expected cost decision by decision (Chow's reject rule in
 * money). Its threshold on P(error) is reviewCost / exposure,
 * so it needs no fitting, only calibrated probabilities. Ties are served
 * automatically. Cost: O(n).
 *
 * @param pError P(error) per decision, in [0, 1].
 * @param exposure Cost if wrong per decision (`costIfWrong`), for example K(severity).
 * @param options Review cost. Default: 1.
 * @returns 1 where the rule escalates, 0 where it serves automatically.
 * @throws {RangeError} When a probability or exposure is out of range.
 * @throws {TypeError} When the columns differ in length.
 *
 * @example Under `reconciliation` (review 1), a HIGH decision escalates above P(error) 0.1
 * ```ts
 * import assert from "node:assert/strict";
 * import { bayesEscalation } from "./bayes_rule.ts";
 *
 * const k = [10, 10, 0.2];
 * assert.deepEqual([...bayesEscalation([0.05, 0.15, 0.9], k)], [0, 1, 0]);
 * ```
 */
export function bayesEscalation(
  pError: ArrayLike<number>,
  exposure: ArrayLike<number>,
  options: { reviewCost?: number } = {},
): Uint8Array {
  const what = "the Bayes escalation rule";
  const reviewCost = _checkReviewCost(what, options.reviewCost ?? 1);
  if (pError.length !== exposure.length) {
    throw new TypeError(
      `Cannot apply ${what}: pError and exposure must have the same length, got ${pError.length} and ${exposure.length}`,
    );
  }
  const out = new Uint8Array(pError.length);
  for (let i = 0; i < pError.length; i++) {
    const p = pError[i];
    const k = exposure[i];
    if (!(p >= 0 && p <= 1)) {
      throw new RangeError(
        `Cannot apply ${what}: pError[${i}] must be in [0, 1], got ${p}`,
      );
    }
    if (!(k >= 0) || !Number.isFinite(k)) {
      throw new RangeError(
        `Cannot apply ${what}: exposure[${i}] must be a finite number >= 0, got ${k}`,
      );
    }
    out[i] = p * k > reviewCost ? 1 : 0;
  }
  return out;
}

/** The realised cost of an escalation policy. */
export interface PolicyCost {
  /** Decisions. */
  readonly n: number;
  /** Decisions escalated. */
  readonly escalated: number;
  /** Decisions served automatically. */
  readonly autoServed: number;
  /** Errors served automatically. */
  readonly autoErrors: number;
  /** Loss of those errors. */
  readonly autoLoss: number;
  /** `autoLoss + reviewCost × escalated`. */
  readonly cost: number;
}

/**
 * The realised cost of an escalation policy on a run: the loss of its
 * automatic errors plus a review for every escalation. Cost: O(n).
 *
 * @param escalate 1 (or `true`) where the policy escalates.
 * @param error 1 when the decision was wrong.
 * @param options Exposure per decision (default 1) and review cost (default 1).
 * @returns Counts and cost.
 * @throws {RangeError} When an error flag is not 0 or 1 or a cost is out of range.
 * @throws {TypeError} When the columns differ in length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyCost } from "./bayes_rule.ts";
 *
 * const c = policyCost([0, 1, 0], [1, 1, 0], { exposure: [10, 10, 0.2], reviewCost: 1 });
 * assert.deepEqual([c.autoErrors, c.escalated, c.cost], [1, 1, 11]);
 * ```
 */
export function policyCost(
  escalate: ArrayLike<number | boolean>,
  error: ArrayLike<number>,
  options: EscalationOptions = {},
): PolicyCost {
  const what = "a policy cost";
  const reviewCost = _checkReviewCost(what, options.reviewCost ?? 1);
  const n = escalate.length;
  if (error.length !== n) {
    throw new TypeError(
      `Cannot compute ${what}: escalate and error must have the same length, got ${n} and ${error.length}`,
    );
  }
  const exposure = options.exposure;
  if (exposure !== undefined && exposure.length !== n) {
    throw new TypeError(
      `Cannot compute ${what}: exposure must have one value per decision (${n}), got ${exposure.length}`,
    );
  }
  let escalated = 0;
  let autoErrors = 0;
  let autoLoss = 0;
  for (let i = 0; i < n; i++) {
    const e = error[i];
    if (e !== 0 && e !== 1) {
      throw new RangeError(
        `Cannot compute ${what}: error[${i}] must be 0 or 1, got ${e}`,
      );
    }
    if (escalate[i]) {
      escalated++;
    } else if (e === 1) {
      autoErrors++;
      autoLoss += exposure === undefined ? 1 : exposure[i];
    }
  }
  return {
    n,
    escalated,
    autoServed: n - escalated,
    autoErrors,
    autoLoss,
    cost: autoLoss + reviewCost * escalated,
  };
}
