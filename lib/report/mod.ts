/**
 * Report: HTML for tables, claims and the self-contained reproduction page.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatCell, tableHtml } from "./mod.ts";
 *
 * assert.equal(formatCell(104.4), "104.4");
 * assert.match(tableHtml(["a"], [{ a: 1 }]), /<td class="num">1<\/td>/);
 * ```
 *
 * @module
 */

export * from "./html.ts";
export * from "./report.ts";
