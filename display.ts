/**
 * Rich display in Jupyter (Deno kernel): objects whose
 * `[Symbol.for("Jupyter.display")]()` returns a MIME bundle. Outside the
 * kernel they are plain objects and do nothing, so notebooks also run
 * in-process under `deno test`. This module never touches `Deno.jupyter`.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type {
  AnalysisResult,
  VegaLiteSpec,
} from "./lib/claims/analysis_result.ts";
import type { Claim } from "./lib/claims/claim.ts";
import { renderSvg } from "./lib/charts/render.ts";
import {
  claimsHtml,
  formatCell,
  REPORT_CSS,
  tableHtml,
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
 * assert.ok("text/html" in mimeBundle(showClaims([claimClose("x", "one", 1, 1)])));
 * ```
 */
export function mimeBundle(shown: Displayable): MimeBundle {
  return shown[JUPYTER_DISPLAY]();
}

function style(html: string): string {
  return `<style>${REPORT_CSS}</style>${html}`;
}

/**
 * Show an Arquero table as HTML, null cells marked "n/a", with a plain-text
 * fallback.
 *
 * @param table An Arquero table.
 * @param options Caption and row limit (default 200).
 * @returns A displayable object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as aq from "arquero";
 * import { mimeBundle, showTable } from "./display.ts";
 *
 * const bundle = mimeBundle(showTable(aq.table({ a: [1, null] })));
 * assert.match(String(bundle["text/html"]), /n\/a/);
 * ```
 */
export function showTable(
  table: ColumnTable,
  options: { caption?: string; maxRows?: number } = {},
): Displayable {
  const columns = table.columnNames();
  const rows = table.objects({ limit: options.maxRows ?? 200 }) as Record<
    string,
    unknown
  >[];
  const text = [
    columns.join("\t"),
    ...rows.map((r) => columns.map((c) => formatCell(r[c])).join("\t")),
  ].join("\n");
  return displayable({
    "text/html": style(tableHtml(columns, rows, options)),
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
 * Show claims as a table of holds/fails with expected, actual and tolerance.
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
 * const bundle = mimeBundle(showClaims([claimClose("x", "one", 1, 1)]));
 * assert.match(String(bundle["text/plain"]), /1 of 1 claims hold/);
 * ```
 */
export function showClaims(claims: readonly Claim[]): Displayable {
  const holding = claims.filter((c) => c.holds).length;
  const text = [
    `${holding} of ${claims.length} claims hold`,
    ...claims.map((c) =>
      `${c.holds ? "holds" : "FAILS"}  ${c.id}: expected ${
        JSON.stringify(c.expected)
      }, actual ${JSON.stringify(c.actual)}`
    ),
  ].join("\n");
  return displayable({
    "text/html": style(
      `<p><b>${holding} of ${claims.length} claims hold</b></p>${
        claimsHtml(claims)
      }`,
    ),
    "text/plain": text,
  });
}

/**
 * Show a whole analysis result: claims, every table and every chart (as
 * inline SVG) in one HTML output.
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
  const svgs = await Promise.all(
    Object.values(result.charts).map((s) => renderSvg(s)),
  );
  const tables = Object.entries(result.tables).map(([name, t]) =>
    tableHtml(t.columnNames(), t.objects() as Record<string, unknown>[], {
      caption: name,
    })
  );
  const holding = result.claims.filter((c) => c.holds).length;
  const html =
    `<h3>${result.title}</h3><p>${holding} of ${result.claims.length} claims hold</p>${
      claimsHtml(result.claims)
    }${svgs.join("")}${tables.join("")}`;
  return displayable({
    "text/html": style(html),
    "text/plain":
      `${result.title}: ${holding} of ${result.claims.length} claims hold`,
  });
}
