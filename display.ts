/**
 * Rich display in Jupyter (Deno kernel), in one module. The `show*`
 * builders make objects whose `[Symbol.for("Jupyter.display")]()` returns a
 * MIME bundle: an analysis result shows its claims, tables and charts; a
 * table shows as HTML with every null cell marked "unknown" or "n/a" and the
 * reason as a tooltip; a chart shows as a Vega-Lite bundle with a
 * pre-rendered PNG fallback; a score document (what `score()` returns)
 * shows as its table and its chart, so a notebook needs no table library.
 *
 * {@linkcode show} publishes one of them from a notebook cell: `await
 * show(x)` sends the bundle to the kernel and waits a moment before the cell
 * ends, because the Deno kernel sometimes publishes a cell's output after
 * that cell's "idle" status, and headless runners (nbconvert, papermill, CI)
 * stop listening at the idle and lose the output (see
 * `docs/deno-kernel-late-output.md`). Outside the kernel (tests, `deno test
 * --doc`, notebooks run in-process) there is no `Deno.jupyter`: `show`
 * returns the bundle instead, and nothing else here touches the kernel.
 * `lib/` knows nothing of Jupyter: the HTML comes from `lib/report/html.ts`,
 * the SVG and PNG from `lib/charts/render.ts`.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { divergence } from "./analyses/divergence.ts";
 * import { display, mimeBundle, show } from "./display.ts";
 *
 * const result = divergence();
 * const table = mimeBundle(await display(result.tables.divergence));
 * assert.match(String(table["text/html"]), /<table/);
 * const chart = await show(result.charts.loss_by_profile); // outside the kernel: the bundle
 * assert.ok(chart !== undefined && "application/vnd.vegalite.v5+json" in chart && "image/png" in chart);
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
import { Buffer } from "node:buffer";
import { renderPng, renderSvg } from "./lib/charts/render.ts";
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
import { readChartFonts } from "./lib/read/chart_fonts.ts";
import { isColumnTable } from "./lib/_column_table.ts";
import {
  isScoreView,
  scoreChart,
  scoreTable,
  type ScoreView,
} from "./lib/report/score_view.ts";

// the score document's shape that show() and showScore() take
export type {
  ScoreView,
  ScoreViewBounds,
  ScoreViewModel,
} from "./lib/report/score_view.ts";

// the types of what the functions below take
export type {
  AnalysisResult,
  Claim,
  ClaimKind,
  ClaimValue,
  VegaLiteSpec,
} from "./lib/claims/mod.ts";

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
  return showRows(
    table.columnNames(),
    table.objects() as Record<string, unknown>[],
    options,
  );
}

// Rows as an HTML table in its scroll box, with a tab-separated fallback.
function showRows(
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
  options: ShowTableOptions,
): Displayable {
  const maxRows = options.maxRows ?? 200;
  const shown = rows.slice(0, maxRows);
  const text = [
    ...(options.caption === undefined ? [] : [options.caption]),
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

// Output metadata beside a bundle (the display size of a chart's PNG), for
// show() to publish with it; the Deno kernel's display protocol carries
// only the bundle.
const outputMetadata = new WeakMap<Displayable, Record<string, unknown>>();

/** The CSS pixel size of an SVG document, from its root element. */
function svgSize(svg: string): { width: number; height: number } | null {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? "";
  const width = Number(/\swidth="([\d.]+)"/.exec(root)?.[1]);
  const height = Number(/\sheight="([\d.]+)"/.exec(root)?.[1]);
  return width > 0 && height > 0 ? { width, height } : null;
}

/**
 * Show a Vega-Lite chart: the Vega-Lite MIME bundle (v6 and v5) for
 * interactive frontends (JupyterLab, VS Code), with a pre-rendered PNG
 * (base64, drawn at twice its size and displayed at its size) for everything
 * else: a notebook viewed on a code-hosting site, nbconvert's HTML. No SVG:
 * some nbconvert builds prefer SVG over PNG in HTML and then strip it.
 *
 * @param spec A Vega-Lite spec.
 * @returns A displayable object (the PNG is rendered first, hence async).
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
 * assert.ok(atob(String(bundle["image/png"])).startsWith("\x89PNG"));
 * assert.ok(!("image/svg+xml" in bundle));
 * ```
 */
export async function showChart(spec: VegaLiteSpec): Promise<Displayable> {
  const svg = await renderSvg(spec, readChartFonts());
  const png = await renderPng(svg, readChartFonts(), { scale: 2 });
  const shown = displayable({
    "application/vnd.vegalite.v6+json": spec,
    "application/vnd.vegalite.v5+json": spec,
    "image/png": Buffer.from(png).toString("base64"),
    "text/plain": `Vega-Lite chart: ${String(spec.title ?? "untitled")}`,
  });
  const size = svgSize(svg);
  if (size !== null) outputMetadata.set(shown, { "image/png": size });
  return shown;
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
  const svgs = await Promise.all(
    charts.map(([, s]) => renderSvg(s, readChartFonts())),
  );
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

/**
 * Show a score document (what `score()` returns and `lossbook score --json`
 * prints) as two outputs: a table of every model under every profile
 * (decisions, accuracy and its interval, loss, its interval and its unit;
 * a null value reads "n/a" or "unknown" with the reason, never 0), and a
 * chart of loss per model with its interval, one panel per profile, as
 * {@linkcode showChart} shows charts. A document read back from a `--json`
 * file shows the same.
 *
 * @param doc A score document.
 * @returns The table and the chart, in that order (the chart's PNG is
 *   rendered first, hence async).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { score } from "./mod.ts";
 * import { mimeBundle, showScore } from "./display.ts";
 *
 * const doc = await score(["data/examples/model_ab.jsonl"]);
 * const [table, chart] = (await showScore(doc)).map(mimeBundle);
 * // third-number: divergence table: Model A loss under reconciliation = 104.4
 * assert.match(String(table["text/html"]), /<td class="num">104.4<\/td>/);
 * assert.ok(atob(String(chart["image/png"])).startsWith("\x89PNG"));
 * ```
 */
export async function showScore(
  doc: ScoreView,
): Promise<[Displayable, Displayable]> {
  const table = scoreTable(doc);
  return [
    showRows(table.columns, table.rows, table),
    await showChart(scoreChart(doc)),
  ];
}

/** What {@linkcode display} knows how to show. */
export type DisplayValue =
  | AnalysisResult
  | ColumnTable
  | VegaLiteSpec
  | readonly Claim[]
  | Displayable;

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
 * @returns A displayable object; in a notebook, publish it with
 *   {@linkcode show} (`await show(value)` does both).
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

/** A plain value {@linkcode show} prints as text: a primitive or a plain object. */
export type PlainValue =
  | string
  | number
  | boolean
  | bigint
  | null
  | undefined
  | { readonly [key: string]: unknown };

/** Everything {@linkcode show} shows. */
export type ShowValue = DisplayValue | PlainValue;

/** Milliseconds `show` yields after publishing, before the cell may end. */
const PUBLISH_YIELD_MS = 20;

interface JupyterKernel {
  broadcast(
    msgType: string,
    content: Record<string, unknown>,
  ): Promise<void>;
}

// The kernel's API, when this runs inside `deno jupyter`; elsewhere the
// `Deno.jupyter` getter throws, and this returns undefined.
function jupyterKernel(): JupyterKernel | undefined {
  try {
    const kernel = (Deno as unknown as { jupyter?: Partial<JupyterKernel> })
      .jupyter;
    return typeof kernel?.broadcast === "function"
      ? kernel as JupyterKernel
      : undefined;
  } catch {
    return undefined;
  }
}

function isPlainValue(value: unknown): value is PlainValue {
  if (value === null || typeof value !== "object") {
    return typeof value !== "function" && typeof value !== "symbol";
  }
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) &&
    !(JUPYTER_DISPLAY in value) && !isColumnTable(value) &&
    !isAnalysisResult(value) && !isVegaLiteSpec(value) && !isScoreView(value);
}

function showText(value: PlainValue): Displayable {
  return displayable({
    "text/plain": typeof value === "string" ? value : Deno.inspect(value, {
      colors: false,
      depth: 6,
      iterableLimit: 200,
      strAbbreviateSize: 10_000,
    }),
  });
}

/**
 * Show a score document in a notebook (what `score()` returns, or a
 * `lossbook score --json` file parsed): its table and its chart
 * ({@linkcode showScore}), published as two outputs, then yield for a moment
 * before the cell ends, as for anything else shown.
 *
 * @param value A score document.
 * @returns The two MIME bundles, table then chart, outside the kernel;
 *   `undefined` in it, once published.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { score } from "./mod.ts";
 * import { show } from "./display.ts";
 *
 * const doc = await score(["data/examples/model_ab.jsonl"], { profiles: ["reconciliation"] });
 * const [table, chart] = (await show(doc)) ?? [];
 * assert.match(String(table["text/html"]), /<table/);
 * assert.ok("image/png" in chart);
 * ```
 */
export function show(value: ScoreView): Promise<MimeBundle[] | undefined>;
/**
 * Show something in a notebook, so that every runner keeps it: build its
 * display ({@linkcode display}; a primitive or plain object shows as
 * text), publish it as the cell's output, then yield for a moment before
 * the cell ends. The yield is the workaround for the Deno kernel publishing
 * output after the cell's "idle" status, which nbconvert, papermill and CI
 * runners then drop (`docs/deno-kernel-late-output.md`). Write `await
 * show(x);` instead of leaving a displayable as the cell's last expression.
 *
 * Inside `deno jupyter` this publishes and resolves to `undefined`, which
 * the kernel shows as nothing more. Outside the kernel (tests, doc
 * examples, notebooks run in-process) there is nothing to publish to: it
 * resolves to the MIME bundle. A score document shows as two outputs (see
 * the other signature).
 *
 * @param value What to show: an analysis result, an Arquero table, a
 *   Vega-Lite spec, a list of claims, a displayable from a `show*` builder
 *   (for options such as `showTable(t, { maxRows })`), or a plain value.
 * @returns The MIME bundle outside the kernel; `undefined` in it, once
 *   published.
 * @throws {TypeError} When the value is none of these.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as aq from "arquero";
 * import { show, showTable } from "./display.ts";
 *
 * const table = await show(showTable(aq.table({ a: [1, 2, 3] }), { maxRows: 1 }));
 * assert.match(String(table?.["text/html"]), /2 more rows not shown/);
 * assert.deepEqual(await show("3 of 3 claims hold"), { "text/plain": "3 of 3 claims hold" });
 * assert.deepEqual(await show({ valid: true }), { "text/plain": "{ valid: true }" });
 * ```
 */
export function show(value: ShowValue): Promise<MimeBundle | undefined>;
export async function show(
  value: ScoreView | ShowValue,
): Promise<MimeBundle | MimeBundle[] | undefined> {
  const score = isScoreView(value);
  const shown = score
    ? await showScore(value)
    : [isPlainValue(value) ? showText(value) : await display(value)];
  const kernel = jupyterKernel();
  if (kernel === undefined) {
    const bundles = shown.map(mimeBundle);
    return score ? bundles : bundles[0];
  }
  for (const one of shown) {
    await kernel.broadcast("display_data", {
      data: mimeBundle(one),
      metadata: outputMetadata.get(one) ?? {},
      transient: {},
    });
  }
  await new Promise((resolve) => setTimeout(resolve, PUBLISH_YIELD_MS));
  return undefined;
}
