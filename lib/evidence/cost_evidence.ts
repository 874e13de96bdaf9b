/**
 * Cost evidence and failure classes: the typed states that keep "cost
 * nothing" apart from "cost unknown", and "the model was wrong" apart from
 * "the harness broke" (`yylo-benchmark`).
 *
 * @module
 */

/** How much of an attempt's cost was observed. */
export const COST_COMPLETENESS = [
  "complete",
  "partial",
  "unavailable",
  "not_applicable",
] as const;

/** A completeness state; only `complete` and `partial` carry dollars. */
export type CostCompleteness = typeof COST_COMPLETENESS[number];

/** The completeness states whose amount is null: no dollars were observed. */
export const COST_WITHOUT_AMOUNT = ["unavailable", "not_applicable"] as const;

/**
 * The observed cost of one attempt, as a value and a completeness state.
 *
 * `complete` is a measurement of the whole attempt (0 is a valid one);
 * `partial` is an observed floor; `unavailable` means money may have moved
 * but was not observed; `not_applicable` means there was no billable event.
 * The last two carry `usd: null`, never 0.
 */
export type CostEvidence =
  | { readonly completeness: "complete"; readonly usd: number }
  | { readonly completeness: "partial"; readonly usd: number }
  | { readonly completeness: "unavailable"; readonly usd: null }
  | { readonly completeness: "not_applicable"; readonly usd: null };

/** The closed set of terminal outcomes of an attempt. */
export const FAILURE_CLASSES = [
  "resolved",
  "model_failure",
  "safety_failure",
  "harness_failure",
  "environment_failure",
  "grader_failure",
  "invalid_case",
  "timeout",
  "cancelled",
] as const;

/** A terminal outcome; `resolved` is the only success. */
export type FailureClass = typeof FAILURE_CLASSES[number];

/**
 * Check that a cost evidence value pairs its state with a legal amount.
 *
 * `complete` and `partial` need a finite `usd >= 0`; `unavailable` and
 * `not_applicable` need `usd === null`. A missing cost therefore cannot
 * parse as a zero.
 *
 * @param value Any value.
 * @returns `true` when `value` is well-formed cost evidence.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isCostEvidence } from "./cost_evidence.ts";
 *
 * assert.equal(isCostEvidence({ completeness: "complete", usd: 0 }), true);
 * assert.equal(isCostEvidence({ completeness: "unavailable", usd: 0 }), false);
 * ```
 */
export function isCostEvidence(value: unknown): value is CostEvidence {
  if (value === null || typeof value !== "object") return false;
  const { completeness, usd } = value as {
    completeness?: unknown;
    usd?: unknown;
  };
  switch (completeness) {
    case "complete":
    case "partial":
      return typeof usd === "number" && Number.isFinite(usd) && usd >= 0;
    case "unavailable":
    case "not_applicable":
      return usd === null;
    default:
      return false;
  }
}
