/**
 * Claims and analysis results: how a reproduced figure is stated, compared
 * and asserted.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { assertClaims, claimClose, claimEqual } from "./mod.ts";
 *
 * const claims = [
 *   claimClose("acc", "accuracy is 98.0%", 0.98, 784 / 800),
 *   claimEqual("winner", "B wins on loss", "B", "B"),
 * ];
 * assertClaims(claims);
 * assert.equal(claims.every((c) => c.holds), true);
 * ```
 *
 * @module
 */

export * from "./claim.ts";
export * from "./analysis_result.ts";
