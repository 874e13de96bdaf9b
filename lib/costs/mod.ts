/**
 * Costs: the severity ladder, cost profiles, and the sourced registry they
 * can be derived from.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile, profileFromAnchor, profileSpan, SHIPPED_REGISTRY } from "./mod.ts";
 *
 * assert.equal(profileSpan(getProfile("principal_risk")), 100_000);
 * const wire = profileFromAnchor(SHIPPED_REGISTRY, "misrouted_wire", { reviewCost: 50 });
 * assert.equal(wire.K.CRITICAL, 10_000_000);
 * ```
 *
 * @module
 */

export * from "./severity.ts";
export * from "./profile.ts";
export * from "./registry.ts";
export * from "./load.ts";
