/**
 * Success rate over attempts, with its denominator, its interval, and
 * null when there is nothing to divide by.
 *
 * @module
 */

import { type Rate, rate } from "../math/rate.ts";
import type { FailureClass } from "./cost_evidence.ts";
import { checkClassList, checkOutcome } from "./_columns.ts";

/** Options for {@linkcode successRate}. */
export interface SuccessRateOptions {
  /** Confidence level of the interval, in (0, 1). Default: 0.95. */
  level?: number;
  /**
   * Classes left out of the denominator, for example
   * `["cancelled", "harness_failure", "environment_failure"]` to rate a
   * model only on attempts that say something about it. Must not contain
   * `resolved`. Default: `[]` (every attempt counts).
   */
  exclude?: readonly FailureClass[];
}

/**
 * The share of attempts that resolved, as a rate with its denominator.
 *
 * The evidence semantics of `yylo-benchmark` (docs/sources.md): "a rate computed over an empty denominator is not 0.0
 * — it is null, with a null interval beside it". This is `rate()` (Wilson,
 * Clopper–Pearson within three of 0 or n) over the attempts whose class is not excluded; when none
 * remain, `value` and `interval` are `null`. O(n).
 *
 * @param outcome Failure class per attempt.
 * @param options Confidence level and classes left out of the denominator.
 * @returns The rate: resolved attempts over counted attempts.
 * @throws {RangeError} When an outcome is not one of the nine classes (an
 * ungraded `null` included), `exclude` lists an unknown class or `resolved`,
 * or the level is outside (0, 1).
 * @throws {TypeError} When `outcome` or `exclude` is not an array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { successRate } from "./success_rate.ts";
 *
 * assert.equal(successRate(["resolved", "model_failure"]).value, 0.5);
 * const none = successRate(["harness_failure"], { exclude: ["harness_failure"] });
 * assert.deepEqual([none.denominator, none.value, none.interval], [0, null, null]);
 * ```
 */
export function successRate(
  outcome: ArrayLike<FailureClass>,
  options: SuccessRateOptions = {},
): Rate {
  const action = "compute success rate";
  const exclude = checkClassList("exclude", options.exclude ?? [], action);
  if (exclude.includes("resolved")) {
    throw new RangeError(
      `Cannot ${action}: exclude must not contain resolved, got ${
        JSON.stringify(exclude)
      }`,
    );
  }
  if (
    outcome === null || typeof outcome !== "object" ||
    typeof outcome.length !== "number"
  ) {
    throw new TypeError(
      `Cannot ${action}: outcome must be an array, got ${
        outcome === null ? "null" : typeof outcome
      }`,
    );
  }
  let successes = 0;
  let counted = 0;
  for (let i = 0; i < outcome.length; i++) {
    const c = checkOutcome(outcome[i], i, action);
    if (exclude.includes(c)) continue;
    counted++;
    if (c === "resolved") successes++;
  }
  return rate(successes, counted, { level: options.level ?? 0.95 });
}
