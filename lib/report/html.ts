/**
 * HTML fragments for tables and claims, shared by the report and the
 * notebook display. Pure string builders: no DOM, no I/O.
 *
 * @module
 */

import type { Claim, ClaimValue } from "../claims/claim.ts";

/**
 * Escape text for HTML element content and attribute values.
 *
 * @param text Any text.
 * @returns The text with `&`, `<`, `>`, `"` and `'` escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeHtml } from "./html.ts";
 *
 * assert.equal(escapeHtml('<a href="x">'), "&lt;a href=&quot;x&quot;&gt;");
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) =>
      c === "&"
        ? "&amp;"
        : c === "<"
        ? "&lt;"
        : c === ">"
        ? "&gt;"
        : c === '"'
        ? "&quot;"
        : "&#39;",
  );
}

/**
 * Format a value for a table cell: numbers to at most 6 significant digits
 * with thousands separators, everything else as text.
 *
 * @param value A cell value.
 * @returns Display text; `null` and `undefined` give `"n/a"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatCell } from "./html.ts";
 *
 * assert.equal(formatCell(10042), "10,042");
 * assert.equal(formatCell(0.3869731800766284), "0.386973");
 * assert.equal(formatCell(null), "n/a");
 * ```
 */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "n/a";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return String(value);
    return value.toLocaleString("en-US", { maximumSignificantDigits: 6 });
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const NULL_CELL =
  '<td class="null" title="unknown: no value was observed or the denominator is empty">n/a</td>';

/** Options for {@linkcode tableHtml}. */
export interface TableHtmlOptions {
  /** Caption above the table. */
  caption?: string;
  /** Largest number of rows shown; a note says how many were left out. Default: 200. */
  maxRows?: number;
}

/**
 * Render rows as an HTML table; null cells read "n/a" with a tooltip.
 *
 * @param columns Column names, in order.
 * @param rows Row objects.
 * @param options Caption and row limit.
 * @returns An HTML `<table>` string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tableHtml } from "./html.ts";
 *
 * const html = tableHtml(["model", "recall"], [{ model: "A", recall: null }]);
 * assert.match(html, /class="null"/);
 * assert.doesNotMatch(html, />0</);
 * ```
 */
export function tableHtml(
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  options: TableHtmlOptions = {},
): string {
  const maxRows = options.maxRows ?? 200;
  const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join("");
  const body = rows.slice(0, maxRows).map((r) =>
    "<tr>" +
    columns.map((c) => {
      const v = r[c];
      if (v === null || v === undefined) return NULL_CELL;
      const cls = typeof v === "number" ? ' class="num"' : "";
      return `<td${cls}>${escapeHtml(formatCell(v))}</td>`;
    }).join("") +
    "</tr>"
  ).join("\n");
  const more = rows.length > maxRows
    ? `<tr><td colspan="${columns.length}" class="more">${
      rows.length - maxRows
    } more rows not shown</td></tr>`
    : "";
  const caption = options.caption === undefined
    ? ""
    : `<caption>${escapeHtml(options.caption)}</caption>`;
  return `<table class="lb-table">${caption}<thead><tr>${head}</tr></thead><tbody>\n${body}${more}</tbody></table>`;
}

function claimValue(v: ClaimValue): string {
  return v === null
    ? NULL_CELL
    : `<td class="num">${escapeHtml(formatClaimValue(v))}</td>`;
}

function formatClaimValue(v: Exclude<ClaimValue, null>): string {
  return typeof v === "number" ? String(v) : String(v);
}

/**
 * Render claims as an HTML table: status, statement, expected, actual and
 * tolerance, with full-precision numbers.
 *
 * @param claims Claims.
 * @returns An HTML `<table>` string whose rows carry `data-holds`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimClose } from "../claims/claim.ts";
 * import { claimsHtml } from "./html.ts";
 *
 * const html = claimsHtml([claimClose("x", "one is one", 1, 1)]);
 * assert.match(html, /data-holds="true"/);
 * ```
 */
export function claimsHtml(claims: readonly Claim[]): string {
  const rows = claims.map((c) =>
    `<tr class="claim ${
      c.holds ? "holds" : "fails"
    }" data-holds="${c.holds}" data-claim-id="${
      escapeHtml(c.id)
    }"><td class="status">${c.holds ? "holds" : "FAILS"}</td><td>${
      escapeHtml(c.statement)
    }<div class="claim-id">${escapeHtml(c.id)}${
      c.source === undefined ? "" : ` · ${escapeHtml(c.source)}`
    }</div></td>${claimValue(c.expected)}${
      claimValue(c.actual)
    }<td class="num">${c.tolerance}</td></tr>`
  ).join("\n");
  return `<table class="lb-table lb-claims"><thead><tr><th>status</th><th>claim</th><th>expected</th><th>actual</th><th>tolerance</th></tr></thead><tbody>\n${rows}</tbody></table>`;
}

/** Styles shared by the report and notebook HTML output. */
export const REPORT_CSS = `
.lb-table{border-collapse:collapse;font:13px/1.4 system-ui,sans-serif;margin:0.5em 0 1.2em}
.lb-table caption{text-align:left;font-weight:600;padding:4px 0}
.lb-table th,.lb-table td{border:1px solid #d0d7de;padding:3px 8px;vertical-align:top}
.lb-table th{background:#f6f8fa;text-align:left}
.lb-table td.num{text-align:right;font-variant-numeric:tabular-nums}
.lb-table td.null{color:#8c959f;font-style:italic;text-align:center}
.lb-table td.more{color:#57606a;font-style:italic}
.lb-claims tr.holds td.status{color:#1a7f37;font-weight:600}
.lb-claims tr.fails td.status{color:#cf222e;font-weight:700}
.lb-claims .claim-id{color:#57606a;font-size:11px}
`;
