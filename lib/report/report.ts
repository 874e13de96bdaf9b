/**
 * The reproduction report: one self-contained HTML page with every
 * analysis's claims, tables and figures.
 *
 * @module
 */

import type { Claim } from "../claims/claim.ts";
import { claimsHtml, escapeHtml, REPORT_CSS, tableHtml } from "./html.ts";

/** One analysis, ready to print: tables as rows, figures as SVG text. */
export interface ReportSection {
  /** Analysis id, used as the anchor. */
  readonly id: string;
  /** Title. */
  readonly title: string;
  /** Source document and section. */
  readonly source: string;
  /** Parameters the analysis ran with. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Claims. */
  readonly claims: readonly Claim[];
  /** Tables as column names and rows. */
  readonly tables: readonly {
    name: string;
    columns: readonly string[];
    rows: readonly Record<string, unknown>[];
  }[];
  /** Figures as inline SVG. */
  readonly figures: readonly { name: string; svg: string }[];
}

/** What the report's header says about the run. */
export interface ReportMeta {
  /** lossbook version. */
  readonly version: string;
  /** Deno version. */
  readonly deno: string;
  /** Git commit, when known. */
  readonly commit: string | null;
  /** Generation time, ISO 8601. */
  readonly generatedAt: string;
  /** Seeds used, by name. */
  readonly seeds: Readonly<Record<string, number>>;
}

/**
 * Build the report page.
 *
 * The page has no scripts, no external links and no web fonts, so it reads
 * the same offline. Each analysis gets a section with its claims first, then
 * its figures and tables; the header counts the claims.
 *
 * @param sections One per analysis, in order.
 * @param meta Header facts.
 * @returns The HTML document.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportHtml } from "./report.ts";
 *
 * const html = reportHtml([], {
 *   version: "0.1.0", deno: "2.9.6", commit: null,
 *   generatedAt: "2026-11-29T00:00:00Z", seeds: {},
 * });
 * assert.match(html, /^<!doctype html>/);
 * assert.doesNotMatch(html, /https?:\/\/(?!www\.w3\.org)/);
 * ```
 */
export function reportHtml(
  sections: readonly ReportSection[],
  meta: ReportMeta,
): string {
  const claims = sections.flatMap((s) => s.claims);
  const holding = claims.filter((c) => c.holds).length;
  const toc = sections.map((s) =>
    `<li><a href="#${escapeHtml(s.id)}">${
      escapeHtml(s.title)
    }</a> <span class="muted">(${
      s.claims.filter((c) => c.holds).length
    }/${s.claims.length} claims hold)</span></li>`
  ).join("\n");
  const seeds = Object.entries(meta.seeds);
  const body = sections.map((s) => {
    const figures = s.figures.map((f) =>
      `<figure class="lb-figure" data-figure="${escapeHtml(s.id)}/${
        escapeHtml(f.name)
      }">${f.svg.replace(/^<\?xml[^>]*>\s*/, "")}<figcaption>${
        escapeHtml(f.name)
      }</figcaption></figure>`
    ).join("\n");
    const tables = s.tables.map((t) =>
      tableHtml(t.columns, t.rows, { caption: t.name })
    ).join(
      "\n",
    );
    return `<section id="${escapeHtml(s.id)}">
<h2>${escapeHtml(s.title)}</h2>
<p class="muted">Source: ${escapeHtml(s.source)}. Parameters: <code>${
      escapeHtml(JSON.stringify(s.parameters))
    }</code></p>
<h3>Claims</h3>
${claimsHtml(s.claims)}
<h3>Figures</h3>
${figures}
<h3>Tables</h3>
${tables}
</section>`;
  }).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lossbook reproduction report</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1f2328}
h1{margin-bottom:0.2em} h2{border-bottom:1px solid #d0d7de;padding-bottom:0.2em;margin-top:2em}
.muted{color:#57606a} code{font-size:12px}
.lb-figure{display:inline-block;margin:0 1em 1em 0} .lb-figure figcaption{font-size:12px;color:#57606a}
.summary{font-size:16px;font-weight:600}
.summary.ok{color:#1a7f37} .summary.bad{color:#cf222e}
${REPORT_CSS}
</style>
</head>
<body>
<header>
<h1>lossbook reproduction report</h1>
<p class="summary ${
    holding === claims.length ? "ok" : "bad"
  }" id="claim-summary" data-claims="${claims.length}" data-holding="${holding}">${holding} of ${claims.length} claims hold</p>
<p class="muted">lossbook ${escapeHtml(meta.version)} · Deno ${
    escapeHtml(meta.deno)
  } · commit ${escapeHtml(meta.commit ?? "unknown")} · generated ${
    escapeHtml(meta.generatedAt)
  } · seeds ${
    seeds.length === 0
      ? "none used"
      : escapeHtml(seeds.map(([k, v]) => `${k}=${v}`).join(", "))
  }</p>
<nav><h2>Contents</h2><ol>
${toc}
</ol></nav>
</header>
<main>
${body}
</main>
</body>
</html>
`;
}
