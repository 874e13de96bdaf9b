/**
 * Claims and analysis results: how a reproduced figure is stated, compared
 * and asserted.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   assertClaims,
 *   claimClose,
 *   claimEqual,
 *   countClaimsByKind,
 * } from "./mod.ts";
 *
 * const source = "third-number: divergence table";
 * const claims = [
 *   claimClose("acc", "accuracy is 98.0%", 0.98, 784 / 800, {
 *     kind: "published",
 *     source,
 *   }),
 *   claimEqual("winner", "B wins on loss", "B", "B", { kind: "published", source }),
 * ];
 * assertClaims(claims);
 * assert.equal(countClaimsByKind(claims).published.holding, 2);
 * ```
 *
 * @module
 */

export * from "./claim.ts";
export * from "./claim_counts.ts";
export * from "./analysis_result.ts";
