/**
 * HTML fragments for tables and claims, shared by the report and the
 * notebook display. Pure string builders: no DOM, no I/O.
 *
 * @module
 */

import {
  type Claim,
  CLAIM_KINDS,
  type ClaimKind,
  type ClaimValue,
} from "../claims/claim.ts";
import { countClaimsByKind } from "../claims/claim_counts.ts";
import { formatQuantity, formatRule } from "../format/numbers.ts";
import {
  NAN_NULL,
  type NullReason,
  nullReason,
  UNKNOWN_NULL,
} from "./null_reasons.ts";

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

function formatNumber(v: number, resolution?: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (!Number.isFinite(v)) return v > 0 ? "∞" : "−∞";
  if (Math.abs(v) >= 1e15) return v.toExponential(5).replace(/\.?0+e/, "e");
  return formatQuantity(v, resolution === undefined ? {} : { resolution });
}

/**
 * Format a value for a table cell.
 *
 * Numbers go through the shared formatter (`formatQuantity` of
 * `lib/format/numbers.ts`): integers in full and every number with thousands
 * separators, other numbers to six significant digits, in exponent notation
 * below 0.0001 (so a p-value of 5.7e-10 neither turns into a row of zeros nor
 * rounds to 0); everything else as text.
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
 * assert.equal(formatCell(716.6000000000001), "716.6");
 * assert.equal(formatCell(5.678111222975172e-10), "5.67811e-10");
 * assert.equal(formatCell(null), "n/a");
 * ```
 */
export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "n/a";
  if (typeof value === "number") return formatNumber(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * The `<td>` of an empty cell: its label ("unknown" or "n/a") as text and
 * the reason as a tooltip.
 *
 * @param reason Why the cell is empty.
 * @returns A `<td class="null">` element.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nullCellHtml } from "./html.ts";
 *
 * assert.equal(
 *   nullCellHtml({ label: "n/a", why: "empty bin" }),
 *   '<td class="null" data-null="n/a" title="empty bin">n/a</td>',
 * );
 * ```
 */
export function nullCellHtml(reason: NullReason): string {
  return `<td class="null" data-null="${reason.label}" title="${
    escapeHtml(reason.why)
  }">${reason.label}</td>`;
}

/** Options for {@linkcode tableHtml}. */
export interface TableHtmlOptions {
  /** Caption above the table. Default: none. */
  caption?: string;
  /** Largest number of rows shown; a last row says how many were left out. Default: 200. */
  maxRows?: number;
  /**
   * Says why a null cell is empty; `undefined` falls back to a generic
   * "unknown". Default: the rules of {@linkcode nullReason}.
   */
  nullReason?: (
    column: string,
    row: Readonly<Record<string, unknown>>,
  ) => NullReason | undefined;
}

/**
 * Render rows as an HTML table. A null, missing or NaN cell reads "unknown"
 * or "n/a" with a tooltip saying why; it is never blank and never 0.
 *
 * @param columns Column names, in order.
 * @param rows Row objects.
 * @param options Caption, row limit and null reasons.
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
  const why = options.nullReason ?? nullReason;
  const head = columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`)
    .join("");
  const body = rows.slice(0, maxRows).map((r) =>
    "<tr>" +
    columns.map((c) => {
      const v = r[c];
      if (v === null || v === undefined) {
        return nullCellHtml(why(c, r) ?? UNKNOWN_NULL);
      }
      if (typeof v === "number" && Number.isNaN(v)) {
        return nullCellHtml(NAN_NULL);
      }
      const cls = typeof v === "number" ? ' class="num"' : "";
      return `<td${cls}>${escapeHtml(formatCell(v))}</td>`;
    }).join("") +
    "</tr>"
  ).join("\n");
  const more = rows.length > maxRows
    ? `<tr><td colspan="${columns.length}" class="more">${
      (rows.length - maxRows).toLocaleString("en-US")
    } more rows not shown</td></tr>`
    : "";
  const caption = options.caption === undefined
    ? ""
    : `<caption>${escapeHtml(options.caption)}</caption>`;
  return `<table class="lb-table">${caption}<thead><tr>${head}</tr></thead><tbody>\n${body}${more}</tbody></table>`;
}

const EXPECTED_NULL: NullReason = {
  label: "unknown",
  why:
    "expected null: the claim is that this figure is unknown, so it must not be printed as 0",
};
const ACTUAL_NULL: NullReason = {
  label: "unknown",
  why: "computed null: the analysis could not compute this figure",
};

/**
 * A claim's expected or actual value for people: a number to the digits its
 * tolerance can tell apart (six significant digits at most, thousands
 * grouped), anything else as text. The exact values are in `claims.json`.
 *
 * @param value The value.
 * @param tolerance The claim's tolerance; 0 for an exact claim.
 * @returns Display text; `null` gives `"unknown"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatClaimValue } from "./html.ts";
 *
 * assert.equal(formatClaimValue(0.43999999999999995, 1e-12), "0.44");
 * assert.equal(formatClaimValue(0.3869731800766284, 0.0005), "0.387");
 * assert.equal(formatClaimValue(10042, 1e-9), "10,042");
 * assert.equal(formatClaimValue("B", 0), "B");
 * ```
 */
export function formatClaimValue(value: ClaimValue, tolerance: number): string {
  if (value === null) return "unknown";
  if (typeof value === "number") {
    return formatNumber(value, tolerance > 0 ? tolerance : undefined);
  }
  return String(value);
}

function claimValue(
  v: ClaimValue,
  tolerance: number,
  ifNull: NullReason,
): string {
  if (v === null) return nullCellHtml(ifNull);
  const cls = typeof v === "number" ? "num" : "val";
  return `<td class="${cls}">${
    escapeHtml(formatClaimValue(v, tolerance))
  }</td>`;
}

/** How each claim kind is headed in the report and notebooks. */
export const CLAIM_KIND_HEADINGS: Readonly<Record<ClaimKind, string>> = {
  published: "Published figures reproduced",
  derived: "Derived values recomputed",
  property: "Properties checked",
};

/**
 * The one-line summary that leads a claims display: published figures
 * first, then derived values and properties.
 *
 * @param claims Claims.
 * @returns For example "23 published figures reproduced (of 23), 31 of 31
 *   derived values hold, 180 of 180 properties hold".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimClose } from "../claims/claim.ts";
 * import { claimsSummary } from "./html.ts";
 *
 * const s = claimsSummary([
 *   claimClose("a", "A loses 104.4", 104.4, 104.4, { kind: "published", source: "third-number: x" }),
 * ]);
 * assert.equal(s, "1 published figure reproduced (of 1), 0 of 0 derived values hold, 0 of 0 properties hold");
 * ```
 */
export function claimsSummary(claims: readonly Claim[]): string {
  const { published, derived, property } = countClaimsByKind(claims);
  const n = (x: number) => x.toLocaleString("en-US");
  return `${n(published.holding)} published figure${
    published.holding === 1 ? "" : "s"
  } reproduced (of ${n(published.total)}), ${n(derived.holding)} of ${
    n(derived.total)
  } derived values hold, ${n(property.holding)} of ${
    n(property.total)
  } properties hold`;
}

/**
 * Render claims as an HTML table, grouped by kind (published figures, then
 * derived values, then properties, each under a heading row): status,
 * statement, expected, actual and tolerance. Numbers show the digits the
 * claim's tolerance can tell apart (`formatClaimValue`); the tolerance, a
 * decision rule, prints exactly. A derived claim says how its expected value
 * was computed.
 *
 * @param claims Claims.
 * @returns An HTML `<table>` string whose rows carry `data-holds` and
 *   `data-kind`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimClose } from "../claims/claim.ts";
 * import { claimsHtml } from "./html.ts";
 *
 * const html = claimsHtml([
 *   claimClose("x", "one is one", 1, 1, { kind: "property" }),
 * ]);
 * assert.match(html, /data-holds="true"/);
 * ```
 */
export function claimsHtml(claims: readonly Claim[]): string {
  const row = (c: Claim) =>
    `<tr class="claim ${
      c.holds ? "holds" : "fails"
    }" data-holds="${c.holds}" data-kind="${c.kind}" data-claim-id="${
      escapeHtml(c.id)
    }"><td class="status">${c.holds ? "holds" : "FAILS"}</td><td>${
      escapeHtml(c.statement)
    }<div class="claim-id">${escapeHtml(c.id)}${
      c.source === undefined ? "" : ` · ${escapeHtml(c.source)}`
    }${
      c.how === undefined ? "" : ` · expected: ${escapeHtml(c.how)}`
    }</div></td>${claimValue(c.expected, c.tolerance, EXPECTED_NULL)}${
      claimValue(c.actual, c.tolerance, ACTUAL_NULL)
    }<td class="num">${escapeHtml(formatRule(c.tolerance))}</td></tr>`;
  const rows = CLAIM_KINDS.flatMap((kind) => {
    const of = claims.filter((c) => c.kind === kind);
    if (of.length === 0) return [];
    const holding = of.filter((c) => c.holds).length;
    return [
      `<tr class="kind" data-kind-heading="${kind}"><th scope="rowgroup" colspan="5">${
        CLAIM_KIND_HEADINGS[kind]
      } <span class="muted">${holding} of ${of.length} hold</span></th></tr>`,
      ...of.map(row),
    ];
  }).join("\n");
  return `<table class="lb-table lb-claims"><thead><tr><th scope="col">status</th><th scope="col">claim</th><th scope="col">expected</th><th scope="col">actual</th><th scope="col">tolerance</th></tr></thead><tbody>\n${rows}</tbody></table>`;
}

/** Styles shared by the report and notebook HTML output. */
export const REPORT_CSS = `
.lb-scroll{max-width:100%;overflow:auto;margin:0.5em 0 1.2em}
.lb-scroll.tall{max-height:34em}
.lb-table{border-collapse:collapse;font:13px/1.4 system-ui,sans-serif;margin:0}
.lb-table caption{text-align:left;font-weight:600;padding:4px 0}
.lb-table th,.lb-table td{border:1px solid #d0d7de;padding:3px 8px;vertical-align:top;text-align:left}
.lb-table th{background:#f6f8fa;text-align:left;position:sticky;top:0;white-space:nowrap}
.lb-table td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.lb-table td.null{color:#6e7781;font-style:italic;text-align:center;cursor:help;text-decoration:underline dotted}
.lb-table td.more{color:#57606a;font-style:italic}
.lb-claims td.val{font-family:ui-monospace,monospace;font-size:12px}
.lb-claims tr.holds td.status{color:#1a7f37;font-weight:600}
.lb-claims tr.fails td.status{color:#cf222e;font-weight:700}
.lb-claims tr.fails{background:#fff0f0}
.lb-claims .claim-id{color:#57606a;font-size:11px}
.lb-claims tr.kind th{background:#eef1f4;text-align:left;position:static}
@media print{.lb-scroll,.lb-scroll.tall{max-height:none;overflow:visible}.lb-table th{position:static}.lb-table tr{break-inside:avoid}}
`;
