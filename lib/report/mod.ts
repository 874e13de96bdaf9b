/**
 * Report: HTML for tables, claims and the self-contained reproduction page,
 * with every null cell marked "unknown" or "n/a" and the reason as a tooltip.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatCell, nullReason, tableHtml } from "./mod.ts";
 *
 * assert.equal(formatCell(104.4), "104.4");
 * assert.match(tableHtml(["a"], [{ a: 1 }]), /<td class="num">1<\/td>/);
 * assert.equal(nullReason("gap", { n: 0, gap: null })?.label, "n/a");
 * ```
 *
 * @module
 */

export * from "./html.ts";
export * from "./null_reasons.ts";
export * from "./report.ts";
export * from "./score_view.ts";
