/**
 * Rich display in Jupyter (Deno kernel), in one module: objects whose
 * `[Symbol.for("Jupyter.display")]()` returns a MIME bundle. An analysis
 * result shows its claims, tables and charts; a table shows as HTML with
 * every null cell marked "unknown" or "n/a" and the reason as a tooltip; a
 * chart shows as a Vega-Lite bundle with a pre-rendered SVG fallback.
 *
 * Outside the kernel these are plain objects and do nothing, so notebooks
 * also run in-process under `deno test`. This module never touches
 * `Deno.jupyter` (which throws outside the kernel), and `lib/` knows nothing
 * of Jupyter: the HTML comes from `lib/report/html.ts`, the SVG from
 * `lib/charts/render.ts`.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { divergence } from "./analyses/divergence.ts";
 * import { display, mimeBundle } from "./display.ts";
 *
 * const result = divergence();
 * const table = mimeBundle(await display(result.tables.divergence));
 * assert.match(String(table["text/html"]), /<table/);
 * const chart = mimeBundle(await display(result.charts.loss_by_profile));
 * assert.ok("application/vnd.vegalite.v5+json" in chart && "image/svg+xml" in chart);
 * ```
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type {
  AnalysisResult,
  VegaLiteSpec,
} from "./lib/claims/analysis_result.ts";
import { type Claim, CLAIM_KINDS } from "./lib/claims/claim.ts";
import { renderSvg } from "./lib/charts/render.ts";
import {
  CLAIM_KIND_HEADINGS,
  claimsHtml,
  claimsSummary,
  escapeHtml,
  formatCell,
  formatClaimValue,
  REPORT_CSS,
  tableHtml,
  type TableHtmlOptions,
} from "./lib/report/html.ts";

/** The symbol the Deno kernel looks up to display an object richly. */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for(
  "Jupyter.display",
) as never;

/** A MIME bundle, keyed by MIME type. */
export type MimeBundle = Record<string, unknown>;

/** Something the Deno kernel displays richly. */
export interface Displayable {
  /** Return the MIME bundle the kernel shows. */
  [JUPYTER_DISPLAY](): MimeBundle;
}

function displayable(bundle: MimeBundle): Displayable {
  return { [JUPYTER_DISPLAY]: () => bundle };
}

/**
 * The MIME bundle a displayable object shows in Jupyter, for use outside
 * the kernel (tests, saving outputs).
 *
 * @param shown An object made by one of the `show*` functions.
 * @returns Its MIME bundle.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimClose } from "./lib/claims/claim.ts";
 * import { mimeBundle, showClaims } from "./display.ts";
 *
 * assert.ok("text/html" in mimeBundle(showClaims([claimClose("x", "one", 1, 1, { kind: "property" })])));
 * ```
 */
export function mimeBundle(shown: Displayable): MimeBundle {
  return shown[JUPYTER_DISPLAY]();
}

function style(html: string): string {
  return `<style>${REPORT_CSS}</style>${html}`;
}

function scrollBox(table: string, rows: number): string {
  return `<div class="lb-scroll${rows > 15 ? " tall" : ""}">${table}</div>`;
}

/** Options for {@linkcode showTable}. */
export type ShowTableOptions = TableHtmlOptions;

/**
 * Show an Arquero table as HTML, every null cell marked "unknown" or "n/a"
 * with the reason as a tooltip (never blank, never 0), with a plain-text
 * fallback. Wide or long tables scroll inside their own box.
 *
 * @param table An Arquero table.
 * @param options Caption, row limit (default 200) and null reasons (default:
 *   the rules of `nullReason` in `lib/report/null_reasons.ts`).
 * @returns A displayable object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as aq from "arquero";
 * import { mimeBundle, showTable } from "./display.ts";
 *
 * const bundle = mimeBundle(showTable(aq.table({ a: [1, null] })));
 * assert.match(String(bundle["text/html"]), /class="null"[^>]*>unknown</);
 * ```
 */
export function showTable(
  table: ColumnTable,
  options: ShowTableOptions = {},
): Displayable {
  const columns = table.columnNames();
  const maxRows = options.maxRows ?? 200;
  const rows = table.objects() as Record<string, unknown>[];
  const shown = rows.slice(0, maxRows);
  const text = [
    columns.join("\t"),
    ...shown.map((r) => columns.map((c) => formatCell(r[c])).join("\t")),
    ...(rows.length > maxRows
      ? [`... ${rows.length - maxRows} more rows not shown`]
      : []),
  ].join("\n");
  return displayable({
    "text/html": style(
      scrollBox(tableHtml(columns, rows, options), rows.length),
    ),
    "text/plain": text,
  });
}

/**
 * Show a Vega-Lite chart: the Vega-Lite MIME bundle for interactive
 * frontends, with a pre-rendered SVG fallback for everything else (including
 * a notebook viewed on a code-hosting site).
 *
 * @param spec A Vega-Lite spec.
 * @returns A displayable object (the SVG is rendered first, hence async).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { groupedBarChart } from "./lib/charts/specs.ts";
 * import { mimeBundle, showChart } from "./display.ts";
 *
 * const bundle = mimeBundle(await showChart(groupedBarChart(
 *   [{ s: "HIGH", m: "A", v: 10 }], { x: "s", group: "m", y: "v", title: "t" },
 * )));
 * assert.ok("application/vnd.vegalite.v6+json" in bundle);
 * assert.match(String(bundle["image/svg+xml"]), /<svg/);
 * ```
 */
export async function showChart(spec: VegaLiteSpec): Promise<Displayable> {
  const svg = await renderSvg(spec);
  return displayable({
    "application/vnd.vegalite.v6+json": spec,
    "application/vnd.vegalite.v5+json": spec,
    "image/svg+xml": svg,
    "text/plain": `Vega-Lite chart: ${String(spec.title ?? "untitled")}`,
  });
}

/**
 * Show claims as a table of holds/fails with expected, actual and tolerance,
 * grouped by kind and led by the number of published figures reproduced.
 * Numbers show the digits the claim's tolerance can tell apart; the exact
 * values are in the claims themselves (and in `claims.json`).
 *
 * @param claims Claims.
 * @returns A displayable object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claimClose } from "./lib/claims/claim.ts";
 * import { mimeBundle, showClaims } from "./display.ts";
 *
 * const bundle = mimeBundle(showClaims([
 *   claimClose("x", "one", 1, 1, { kind: "property" }),
 *   claimClose("y", "A loses 104.4", 104.4, 104.4, {
 *     kind: "published",
 *     source: "third-number: divergence table",
 *   }),
 * ]));
 * assert.match(String(bundle["text/plain"]), /^1 published figure reproduced/);
 * assert.match(String(bundle["text/plain"]), /2 of 2 claims hold/);
 * ```
 */
export function showClaims(claims: readonly Claim[]): Displayable {
  const holding = claims.filter((c) => c.holds).length;
  const summary = `${
    claimsSummary(claims)
  }; ${holding} of ${claims.length} claims hold`;
  const text = [
    summary,
    ...CLAIM_KINDS.flatMap((kind) => {
      const of = claims.filter((c) => c.kind === kind);
      return of.length === 0 ? [] : [
        `${CLAIM_KIND_HEADINGS[kind]}:`,
        ...of.map((c) =>
          `  ${c.holds ? "holds" : "FAILS"}  ${c.id}: expected ${
            formatClaimValue(c.expected, c.tolerance)
          }, actual ${formatClaimValue(c.actual, c.tolerance)}${
            c.source === undefined ? "" : ` (${c.source})`
          }`
        ),
      ];
    }),
  ].join("\n");
  return displayable({
    "text/html": style(
      `<p><b>${escapeHtml(summary)}</b></p>${claimsHtml(claims)}`,
    ),
    "text/plain": text,
  });
}

/**
 * Show a whole analysis result in one HTML output: its source and
 * parameters, its claims, every chart (as inline SVG) and every table (nulls
 * marked with their reasons).
 *
 * @param result An analysis result.
 * @returns A displayable object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { divergence } from "./analyses/divergence.ts";
 * import { mimeBundle, showResult } from "./display.ts";
 *
 * const bundle = mimeBundle(await showResult(divergence()));
 * assert.match(String(bundle["text/html"]), /<svg/);
 * ```
 */
export async function showResult(result: AnalysisResult): Promise<Displayable> {
  const charts = Object.entries(result.charts);
  const svgs = await Promise.all(charts.map(([, s]) => renderSvg(s)));
  const figures = charts.map(([name], i) =>
    `<figure style="margin:0 0 1em"><div style="max-width:100%;overflow:auto">${
      svgs[i].replace(/^<\?xml[^>]*>\s*/, "")
    }</div><figcaption style="font-size:12px;color:#57606a">${
      escapeHtml(name)
    }</figcaption></figure>`
  );
  const tables = Object.entries(result.tables).map(([name, t]) => {
    const rows = t.objects() as Record<string, unknown>[];
    return scrollBox(
      tableHtml(t.columnNames(), rows, {
        caption: `${name} (${rows.length} ${
          rows.length === 1 ? "row" : "rows"
        })`,
      }),
      rows.length,
    );
  });
  const holding = result.claims.filter((c) => c.holds).length;
  const html = `<h3>${escapeHtml(result.title)}</h3><p>Source: ${
    escapeHtml(result.source)
  }. Parameters: <code>${
    escapeHtml(JSON.stringify(result.parameters))
  }</code></p><p><b>${holding} of ${result.claims.length} claims hold</b></p>${
    scrollBox(claimsHtml(result.claims), 0)
  }${figures.join("")}${tables.join("")}`;
  return displayable({
    "text/html": style(html),
    "text/plain":
      `${result.title}: ${holding} of ${result.claims.length} claims hold, ${charts.length} charts, ${
        Object.keys(result.tables).length
      } tables`,
  });
}

/** What {@linkcode display} knows how to show. */
export type DisplayValue =
  | AnalysisResult
  | ColumnTable
  | VegaLiteSpec
  | readonly Claim[]
  | Displayable;

function isColumnTable(value: object): value is ColumnTable {
  const t = value as Partial<ColumnTable>;
  return typeof t.columnNames === "function" &&
    typeof t.objects === "function" && typeof t.numRows === "function";
}

function isAnalysisResult(value: object): value is AnalysisResult {
  const r = value as Partial<AnalysisResult>;
  return typeof r.id === "string" && Array.isArray(r.claims) &&
    typeof r.tables === "object" && typeof r.charts === "object";
}

function isVegaLiteSpec(value: object): value is VegaLiteSpec {
  const schema = (value as { $schema?: unknown }).$schema;
  return typeof schema === "string" && schema.includes("vega-lite");
}

/**
 * Show anything lossbook makes, choosing the right display: an analysis
 * result ({@linkcode showResult}), an Arquero table ({@linkcode showTable}), a
 * Vega-Lite spec ({@linkcode showChart}), a list of claims
 * ({@linkcode showClaims}); an object that already displays itself is
 * returned as it is.
 *
 * @param value What to show.
 * @returns A displayable object; make it a cell's last expression (after
 *   `await`) and the kernel shows it.
 * @throws {TypeError} When the value is none of these.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { honestCosts } from "./analyses/honest_costs.ts";
 * import { display, mimeBundle } from "./display.ts";
 *
 * const result = honestCosts();
 * const html = String(mimeBundle(await display(result.tables.cost_books))["text/html"]);
 * // echo's success rate has an empty denominator: n/a, with the reason as a tooltip
 * assert.match(html, /title="empty denominator[^"]*">n\/a</);
 * assert.match(String(mimeBundle(await display(result.claims))["text/plain"]), /claims hold/);
 * ```
 */
export async function display(value: DisplayValue): Promise<Displayable> {
  if (value !== null && typeof value === "object") {
    if (JUPYTER_DISPLAY in value) return value as Displayable;
    if (Array.isArray(value)) return showClaims(value as readonly Claim[]);
    if (isColumnTable(value)) return showTable(value);
    if (isAnalysisResult(value)) return await showResult(value);
    if (isVegaLiteSpec(value)) return await showChart(value);
  }
  throw new TypeError(
    `Cannot display ${
      value === null ? "null" : typeof value
    }: expected an analysis result, an Arquero table, a Vega-Lite spec or a list of claims`,
  );
}
