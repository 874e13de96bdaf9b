/**
 * Formatting for people: decision rules exactly, measured quantities to the
 * digits they carry, thousands always grouped.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatLevel, formatQuantity, formatRule } from "./mod.ts";
 *
 * assert.equal(formatRule(0.12), "0.12");
 * assert.equal(formatLevel(0.995), "99.5%");
 * assert.equal(formatQuantity(0.43999999999999995), "0.44");
 * ```
 *
 * @module
 */

export * from "./numbers.ts";
