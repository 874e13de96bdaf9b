/**
 * Claims: a reproduced figure stated next to the computed one, with the
 * tolerance that decides whether it holds.
 *
 * @module
 */

/** A value a claim can compare. */
export type ClaimValue = number | string | boolean | null;

/**
 * One asserted statement of an analysis.
 *
 * `expected` is the figure from the source document, `actual` what the code
 * computed, and `holds` whether they agree within `tolerance` (absolute, for
 * numbers; exact equality otherwise).
 */
export interface Claim {
  /** Stable id, unique within the analysis, for example `"divergence.loss.reconciliation.A"`. */
  readonly id: string;
  /** The statement in words. */
  readonly statement: string;
  /** The figure being reproduced. */
  readonly expected: ClaimValue;
  /** The figure the code computed. */
  readonly actual: ClaimValue;
  /** Largest absolute difference that still holds; 0 for exact claims. */
  readonly tolerance: number;
  /** Whether `actual` agrees with `expected`. */
  readonly holds: boolean;
  /** Where `expected` comes from. */
  readonly source?: string;
}

/** Options for {@linkcode claimClose}. */
export interface ClaimOptions {
  /**
   * Largest absolute difference that still holds. Default: 1e-9. For a figure
   * published rounded, use half a unit of its last digit (0.0005 for 38.7%
   * written as 0.387).
   */
  tolerance?: number;
  /** Where the expected figure comes from. */
  source?: string;
}

/**
 * A numeric claim: `actual` must be within `tolerance` of `expected`.
 *
 * A `null` or non-finite `actual` never holds: an unknown figure does not
 * reproduce a known one.
 *
 * @param id Claim id.
 * @param statement The statement in words.
 * @param expected The published figure.
 * @param actual The computed figure.
 * @param options Tolerance and source.
 * @returns The claim.
 * @throws {RangeError} When the tolerance is negative or not finite.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimClose } from "./claim.ts";
 *
 * const c = claimClose("cut", "B loses 38.7% less", 0.387, 1 - 64 / 104.4, { tolerance: 0.0005 });
 * assert.equal(c.holds, true);
 * assert.equal(claimClose("x", "x", 1, null).holds, false);
 * ```
 */
export function claimClose(
  id: string,
  statement: string,
  expected: number,
  actual: number | null,
  options: ClaimOptions = {},
): Claim {
  const tolerance = options.tolerance ?? 1e-9;
  if (!(tolerance >= 0) || !Number.isFinite(tolerance)) {
    throw new RangeError(
      `Cannot state claim ${id}: tolerance must be finite and >= 0, got ${tolerance}`,
    );
  }
  const holds = actual !== null && Number.isFinite(actual) &&
    Math.abs(actual - expected) <= tolerance;
  return {
    id,
    statement,
    expected,
    actual,
    tolerance,
    holds,
    ...(options.source === undefined ? {} : { source: options.source }),
  };
}

/**
 * An exact claim: `actual` must equal `expected` (strict equality).
 *
 * @param id Claim id.
 * @param statement The statement in words.
 * @param expected The expected value.
 * @param actual The computed value.
 * @param options Source of the expected value.
 * @returns The claim, with tolerance 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimEqual } from "./claim.ts";
 *
 * assert.equal(claimEqual("rank", "A ranks first", "A", "A").holds, true);
 * ```
 */
export function claimEqual(
  id: string,
  statement: string,
  expected: ClaimValue,
  actual: ClaimValue,
  options: Pick<ClaimOptions, "source"> = {},
): Claim {
  return {
    id,
    statement,
    expected,
    actual,
    tolerance: 0,
    holds: Object.is(expected, actual) || expected === actual,
    ...(options.source === undefined ? {} : { source: options.source }),
  };
}

/**
 * Throw when any claim does not hold, listing every failing one.
 *
 * Notebooks and `reproduce` call this so that nothing is asserted by eye.
 *
 * @param claims Claims to check.
 * @returns Nothing; returns normally when every claim holds.
 * @throws {Error} Naming each failing claim with expected, actual and tolerance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { assertClaims, claimClose } from "./claim.ts";
 *
 * assertClaims([claimClose("ok", "one is one", 1, 1)]);
 * assert.throws(() => assertClaims([claimClose("bad", "one is two", 1, 2)]), /bad/);
 * ```
 */
export function assertClaims(claims: readonly Claim[]): void {
  const failed = claims.filter((c) => !c.holds);
  if (failed.length === 0) return;
  const lines = failed.map((c) =>
    `${c.id}: ${c.statement}: expected ${JSON.stringify(c.expected)}, got ${
      JSON.stringify(c.actual)
    } (tolerance ${c.tolerance})`
  );
  throw new Error(
    `${failed.length} of ${claims.length} claim${
      claims.length === 1 ? "" : "s"
    } failed:\n${lines.join("\n")}`,
  );
}
