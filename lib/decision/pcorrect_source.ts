/**
 * The vocabulary of a probability's provenance: where a decision's
 * `pCorrect` came from. A Decision field's values, so it lives with the
 * record; importers choose among these sources.
 *
 * @module
 */

import { InputRangeError } from "../input_error.ts";

/**
 * Where a decision's probability came from: the model stated it; the
 * softmax of option log-likelihoods; token log-probabilities; agreement over
 * k samples; or a scorer's metadata key.
 */
export type PCorrectSource =
  | "stated"
  | "logprob-option"
  | "logprob-token"
  | `agreement@${number}`
  | `score-metadata:${string}`;

/** The sources that carry no parameter. */
export const PCORRECT_SOURCES = [
  "stated",
  "logprob-option",
  "logprob-token",
] as const;

/**
 * Whether a value is a pCorrect source: one of {@linkcode PCORRECT_SOURCES},
 * `agreement@k` with k an integer >= 1, or `score-metadata:KEY` with a
 * non-empty key.
 *
 * @param value Any value.
 * @returns `true` for a valid source.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPCorrectSource } from "./pcorrect_source.ts";
 *
 * assert.equal(isPCorrectSource("agreement@5"), true);
 * assert.equal(isPCorrectSource("score-metadata:confidence"), true);
 * assert.equal(isPCorrectSource("score-metadata:a\nb"), true); // any non-empty key
 * assert.equal(isPCorrectSource("score-metadata:"), false);
 * assert.equal(isPCorrectSource("agreement@0"), false);
 * assert.equal(isPCorrectSource("guess"), false);
 * ```
 */
export function isPCorrectSource(value: unknown): value is PCorrectSource {
  if (typeof value !== "string") return false;
  if ((PCORRECT_SOURCES as readonly string[]).includes(value)) return true;
  if (/^agreement@[1-9][0-9]*$/.test(value)) return true;
  return /^score-metadata:.+$/s.test(value);
}

/** The message used when a `pCorrectSource` value is not in the vocabulary. */
export const PCORRECT_SOURCE_ERROR = `must be one of ${
  PCORRECT_SOURCES.join(", ")
}, agreement@K, score-metadata:KEY, or null`;

/**
 * Check a `pCorrectSource` value: a valid source or `null`.
 *
 * @param value The value.
 * @param where Names the file, record and field in the error.
 * @returns The value.
 * @throws {RangeError} For anything else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkPCorrectSource } from "./pcorrect_source.ts";
 *
 * assert.equal(checkPCorrectSource(null, "x"), null);
 * assert.throws(() => checkPCorrectSource("agreement", "a.jsonl: line 3: pCorrectSource"), /line 3/);
 * ```
 */
export function checkPCorrectSource(
  value: unknown,
  where: string,
): PCorrectSource | null {
  if (value === null || isPCorrectSource(value)) return value;
  throw new InputRangeError(
    `${where} ${PCORRECT_SOURCE_ERROR}, got ${JSON.stringify(value)}`,
  );
}
