/**
 * Claims: a reproduced figure stated next to the computed one, with the
 * tolerance that decides whether it holds.
 *
 * @module
 */

/** A value a claim can compare. */
export type ClaimValue = number | string | boolean | null;

/**
 * What a claim is.
 *
 * - `published`: `expected` is a figure printed in a cited source, and
 *   `source` names it by its citation key in `docs/sources.md`.
 * - `derived`: `expected` is computed at run time by a second, independent
 *   route (another function, a brute force, the figure a log states about
 *   itself); `how` says which.
 * - `property`: a checked statement that is true or false: a theorem, a rule
 *   of a cited specification applied to a constructed case, or an acceptance
 *   bound; `expected` is fixed by the statement, not read from a source.
 */
export type ClaimKind = "published" | "derived" | "property";

/** Every claim kind, in the order reports list them. */
export const CLAIM_KINDS: readonly ClaimKind[] = [
  "published",
  "derived",
  "property",
];

/**
 * One asserted statement of an analysis.
 *
 * `expected` is the figure the claim states (from a cited source, from a
 * second computation, or fixed by a property, as `kind` says), `actual` what
 * the code computed, and `holds` whether they agree within `tolerance`
 * (absolute, for numbers; exact equality otherwise).
 */
export interface Claim {
  /** Stable id, unique within the analysis, for example `"divergence.loss.reconciliation.A"`. */
  readonly id: string;
  /** The statement in words. */
  readonly statement: string;
  /** What the claim is: a published figure, a derived value or a property. */
  readonly kind: ClaimKind;
  /** For a `derived` claim, how `expected` was computed. */
  readonly how?: string;
  /** The figure being reproduced. */
  readonly expected: ClaimValue;
  /** The figure the code computed. */
  readonly actual: ClaimValue;
  /** Largest absolute difference that still holds; 0 for exact claims. */
  readonly tolerance: number;
  /** Whether `actual` agrees with `expected`. */
  readonly holds: boolean;
  /**
   * Where `expected` comes from, starting with a citation key of
   * `docs/sources.md` (`"third-number: divergence table"`); always set on a
   * `published` claim.
   */
  readonly source?: string;
}

/** Options for {@linkcode claimClose}. */
export interface ClaimOptions {
  /** What the claim is; required, so that every claim is classified where it is made. */
  kind: ClaimKind;
  /** How a `derived` claim's expected value is computed; required for `derived`. */
  how?: string;
  /**
   * Largest absolute difference that still holds. Default: 1e-9. For a figure
   * published rounded, use half a unit of its last digit (0.0005 for 38.7%
   * written as 0.387).
   */
  tolerance?: number;
  /**
   * Where the expected figure comes from, starting with a citation key of
   * `docs/sources.md`; required for `published`.
   */
  source?: string;
}

function classified(
  id: string,
  options: Omit<ClaimOptions, "tolerance">,
): Pick<Claim, "kind" | "how" | "source"> {
  const { kind, how, source } = options;
  if (!CLAIM_KINDS.includes(kind)) {
    throw new RangeError(
      `Cannot state claim ${id}: kind must be one of ${
        CLAIM_KINDS.join(", ")
      }, got ${JSON.stringify(kind)}`,
    );
  }
  if (kind === "published" && (source === undefined || source.trim() === "")) {
    throw new TypeError(
      `Cannot state claim ${id}: a published claim must name its source`,
    );
  }
  if (kind === "derived" && (how === undefined || how.trim() === "")) {
    throw new TypeError(
      `Cannot state claim ${id}: a derived claim must say how its expected value is computed`,
    );
  }
  return {
    kind,
    ...(how === undefined ? {} : { how }),
    ...(source === undefined ? {} : { source }),
  };
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
 * @param options Kind, tolerance, source and, for a derived claim, how.
 * @returns The claim.
 * @throws {RangeError} When the tolerance is negative or not finite, or the
 * kind is unknown.
 * @throws {TypeError} When a published claim has no source or a derived one
 * no `how`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimClose } from "./claim.ts";
 *
 * const c = claimClose("cut", "B loses 38.7% less", 0.387, 1 - 64 / 104.4, {
 *   kind: "published",
 *   tolerance: 0.0005,
 *   source: "third-number: divergence table",
 * });
 * assert.equal(c.holds, true);
 * assert.equal(claimClose("x", "x", 1, null, { kind: "property" }).holds, false);
 * ```
 */
export function claimClose(
  id: string,
  statement: string,
  expected: number,
  actual: number | null,
  options: ClaimOptions,
): Claim {
  const tolerance = options.tolerance ?? 1e-9;
  if (!(tolerance >= 0) || !Number.isFinite(tolerance)) {
    throw new RangeError(
      `Cannot state claim ${id}: tolerance must be finite and >= 0, got ${tolerance}`,
    );
  }
  const holds = actual !== null && Number.isFinite(actual) &&
    Math.abs(actual - expected) <= tolerance;
  const { kind, how, source } = classified(id, options);
  return {
    id,
    statement,
    kind,
    ...(how === undefined ? {} : { how }),
    expected,
    actual,
    tolerance,
    holds,
    ...(source === undefined ? {} : { source }),
  };
}

/**
 * An exact claim: `actual` must equal `expected` (strict equality).
 *
 * @param id Claim id.
 * @param statement The statement in words.
 * @param expected The expected value.
 * @param actual The computed value.
 * @param options Kind, source and, for a derived claim, how.
 * @returns The claim, with tolerance 0.
 * @throws {RangeError} When the kind is unknown.
 * @throws {TypeError} When a published claim has no source or a derived one
 * no `how`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimEqual } from "./claim.ts";
 *
 * const c = claimEqual("rank", "A ranks first", "A", "A", {
 *   kind: "published",
 *   source: "third-number: divergence table",
 * });
 * assert.equal(c.holds, true);
 * ```
 */
export function claimEqual(
  id: string,
  statement: string,
  expected: ClaimValue,
  actual: ClaimValue,
  options: Omit<ClaimOptions, "tolerance">,
): Claim {
  const { kind, how, source } = classified(id, options);
  return {
    id,
    statement,
    kind,
    ...(how === undefined ? {} : { how }),
    expected,
    actual,
    tolerance: 0,
    holds: Object.is(expected, actual) || expected === actual,
    ...(source === undefined ? {} : { source }),
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
 * const property = { kind: "property" } as const;
 * assertClaims([claimClose("ok", "one is one", 1, 1, property)]);
 * assert.throws(
 *   () => assertClaims([claimClose("bad", "one is two", 1, 2, property)]),
 *   /bad/,
 * );
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
