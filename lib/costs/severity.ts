/**
 * The severity ladder: the four consequence levels an error can land on.
 *
 * @module
 */

/** The four severities, from least to most costly. */
export const SEVERITIES = ["LOW", "MEDIUM", "HIGH", "CRITICAL"] as const;

/** A consequence level: `LOW < MEDIUM < HIGH < CRITICAL`. */
export type Severity = typeof SEVERITIES[number];

/**
 * Tell whether a value is one of the four severities.
 *
 * The check is exact and case-sensitive: `"high"` is not a severity. Use it at
 * the edges, where text from files or flags becomes a typed value.
 *
 * @param value Any value.
 * @returns `true` when `value` is `"LOW"`, `"MEDIUM"`, `"HIGH"` or `"CRITICAL"`.
 *
 * @example Narrow a string
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSeverity } from "./severity.ts";
 *
 * assert.equal(isSeverity("HIGH"), true);
 * assert.equal(isSeverity("high"), false);
 * ```
 */
export function isSeverity(value: unknown): value is Severity {
  return typeof value === "string" &&
    (SEVERITIES as readonly string[]).includes(value);
}

/**
 * Give the rank of a severity on the ladder, 0 for LOW up to 3 for CRITICAL.
 *
 * Ranks order severities; they are not costs. Costs come from a cost profile.
 *
 * @param severity A severity.
 * @returns Its zero-based position on the ladder.
 * @throws {RangeError} When `severity` is not one of the four severities.
 *
 * @example Order two severities
 * ```ts
 * import assert from "node:assert/strict";
 * import { severityRank } from "./severity.ts";
 *
 * assert.ok(severityRank("CRITICAL") > severityRank("HIGH"));
 * assert.equal(severityRank("LOW"), 0);
 * ```
 */
export function severityRank(severity: Severity): number {
  const rank = SEVERITIES.indexOf(severity);
  if (rank < 0) {
    throw new RangeError(
      `Cannot rank severity: expected one of ${SEVERITIES.join(", ")}, got ${
        JSON.stringify(severity)
      }`,
    );
  }
  return rank;
}
