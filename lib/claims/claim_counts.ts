/**
 * Claim counts per kind, for `claims.json`, the report and notebooks.
 *
 * @module
 */

import { type Claim, CLAIM_KINDS, type ClaimKind } from "./claim.ts";

/** How many claims of one kind there are and how many hold. */
export interface ClaimKindCount {
  /** Claims of this kind. */
  readonly total: number;
  /** Of those, how many hold. */
  readonly holding: number;
  /** Of those, how many do not hold. */
  readonly failed: number;
}

/**
 * Count claims per kind: published figures reproduced, derived values
 * recomputed, properties checked.
 *
 * Every kind is present in the result, with zeros when no claim has it, so
 * a reader of `claims.json` never has to guess whether a missing key means 0.
 *
 * @param claims Claims, of any analyses.
 * @returns For each kind, in the order of `CLAIM_KINDS`, total, holding and
 * failed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimClose } from "./claim.ts";
 * import { countClaimsByKind } from "./claim_counts.ts";
 *
 * const counts = countClaimsByKind([
 *   claimClose("a", "A loses 104.4", 104.4, 104.4, {
 *     kind: "published",
 *     source: "third-number: divergence table",
 *   }),
 *   claimClose("b", "one is two", 1, 2, { kind: "property" }),
 * ]);
 * assert.deepEqual(counts.published, { total: 1, holding: 1, failed: 0 });
 * assert.deepEqual(counts.property, { total: 1, holding: 0, failed: 1 });
 * assert.deepEqual(counts.derived, { total: 0, holding: 0, failed: 0 });
 * ```
 */
export function countClaimsByKind(
  claims: readonly Claim[],
): Record<ClaimKind, ClaimKindCount> {
  const out = {} as Record<ClaimKind, ClaimKindCount>;
  for (const kind of CLAIM_KINDS) {
    const of = claims.filter((c) => c.kind === kind);
    const holding = of.filter((c) => c.holds).length;
    out[kind] = { total: of.length, holding, failed: of.length - holding };
  }
  return out;
}
