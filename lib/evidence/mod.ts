/**
 * Evidence: cost completeness states and failure classes.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { FAILURE_CLASSES, isCostEvidence } from "./mod.ts";
 *
 * assert.equal(FAILURE_CLASSES.length, 9);
 * assert.equal(isCostEvidence({ completeness: "not_applicable", usd: null }), true);
 * ```
 *
 * @module
 */

export * from "./cost_evidence.ts";
