/**
 * The reproduction report: one self-contained HTML page with every
 * analysis's claims, tables and figures.
 *
 * @module
 */

import type { Claim } from "../claims/claim.ts";
import { countClaimsByKind } from "../claims/claim_counts.ts";
import {
  claimsHtml,
  claimsSummary,
  escapeHtml,
  REPORT_CSS,
  tableHtml,
} from "./html.ts";

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
  /** Tables as column names and rows, with the CSV file written for each, if any. */
  readonly tables: readonly {
    name: string;
    columns: readonly string[];
    rows: readonly Record<string, unknown>[];
    /** Path of the table's CSV, relative to the report. */
    csv?: string;
  }[];
  /** Figures as inline SVG, with the files written for each, if any. */
  readonly figures: readonly {
    name: string;
    svg: string;
    /** Paths of the figure's files (SVG, PNG, Vega-Lite JSON), relative to the report, by label. */
    files?: Readonly<Record<string, string>>;
  }[];
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
  /** Path of the API reference, relative to the report; `null` or absent when none was generated. */
  readonly api?: string | null;
  /** Why the API reference is missing, when it is. */
  readonly apiError?: string;
}

const PAGE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{scroll-behavior:smooth}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1180px;margin:0 auto;padding:1.5em 1.5em 4em;color:#1f2328;background:#fff}
h1{margin:0 0 0.2em;font-size:1.9em} h2{border-bottom:1px solid #d0d7de;padding-bottom:0.2em;margin:2.2em 0 0.6em;font-size:1.45em}
h3{margin:1.6em 0 0.4em;font-size:1.12em} h4{margin:1.2em 0 0.2em;font-size:0.95em;font-family:ui-monospace,monospace}
a{color:#0969da} a.anchor{color:#8c959f;text-decoration:none;margin-right:0.3em}
.muted{color:#57606a;font-weight:normal} code{font-size:12px}
.summary{font-size:17px;font-weight:600;margin:0.3em 0 0.8em} .summary.ok{color:#1a7f37} .summary.bad{color:#cf222e}
.meta{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 14px;font-size:13px;margin:0 0 1em}
.meta dt{color:#57606a} .meta dd{margin:0;overflow-wrap:anywhere}
nav#contents ol{padding-left:1.6em} nav#contents li{margin:0.35em 0}
nav#contents .parts{font-size:13px;color:#57606a}
.badge{display:inline-block;font-size:12px;font-weight:600;padding:0 6px;border-radius:9px;margin-left:0.4em}
.badge.ok{background:#dafbe1;color:#1a7f37} .badge.bad{background:#ffebe9;color:#cf222e}
.failing{border:1px solid #cf222e;background:#fff8f8;padding:0.5em 1em;border-radius:6px}
.source{margin:0.2em 0}
.lb-params td:first-child{font-family:ui-monospace,monospace;font-size:12px;white-space:nowrap}
.lb-params td{overflow-wrap:anywhere}
details.params{margin:0.4em 0} details.params summary{cursor:pointer;color:#57606a}
.lb-figures{display:flex;flex-wrap:wrap;gap:1.2em 2em;align-items:flex-start}
.lb-figure{margin:0;min-width:0;max-width:100%}
.lb-figure svg{display:block;max-width:100%;height:auto}
.lb-figure figcaption{font-size:12px;color:#57606a;margin-top:0.2em}
.lb-claims td.val{overflow-wrap:anywhere}
.top{font-size:13px;margin-top:1.5em}
footer{margin-top:3em;border-top:1px solid #d0d7de;padding-top:0.8em;font-size:13px;color:#57606a}
.kinds{font-size:13px;margin:0 0 1em}
@media print{
@page{size:A4;margin:14mm 12mm}
body{max-width:none;padding:0;font-size:11px}
.lb-scroll,.lb-scroll.tall{max-height:none;overflow:visible}
.lb-table{font-size:9px;width:100%;table-layout:auto}
.lb-table th,.lb-table td{padding:1px 4px;overflow-wrap:break-word;word-break:normal;white-space:normal}
.lb-table td.num{white-space:nowrap}
.lb-table th{position:static}
.lb-table thead{display:table-header-group}
.lb-table tr{break-inside:avoid}
.lb-figures{display:block}
.lb-figure{break-inside:avoid;page-break-inside:avoid;margin:0 0 1em}
.lb-figure svg{max-width:100%;max-height:240mm;width:auto}
h2,h3,h4{break-after:avoid;page-break-after:avoid}
section.analysis{break-before:page}
.top,nav#contents .parts{display:none}
a{color:inherit;text-decoration:none}
}
`;

function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, "-");
}

/** Give every `id` in an inline SVG a prefix, so that two figures never share one. */
export function scopeSvgIds(svg: string, prefix: string): string {
  const body = svg.replace(/^<\?xml[^>]*>\s*/, "");
  if (!/\sid="/.test(body)) return body;
  return body
    .replace(/(\sid=")([^"]+)"/g, `$1${prefix}-$2"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${prefix}-$1)`)
    .replace(/(href=")#([^"]+)"/g, `$1#${prefix}-$2"`);
}

function parameterValue(v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => parameterValue(x)).join(", ");
  if (v !== null && typeof v === "object") return JSON.stringify(v);
  return String(v);
}

function parametersHtml(parameters: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(parameters);
  if (entries.length === 0) return "";
  const rows = entries.map(([k, v]) =>
    `<tr><td>${escapeHtml(k)}</td><td>${
      escapeHtml(parameterValue(v))
    }</td></tr>`
  ).join("\n");
  return `<details class="params"><summary>Parameters (${entries.length})</summary><div class="lb-scroll"><table class="lb-table lb-params"><tbody>\n${rows}</tbody></table></div></details>`;
}

function fileLinks(
  files: Readonly<Record<string, string>> | undefined,
): string {
  if (files === undefined) return "";
  return Object.entries(files).map(([label, path]) =>
    ` · <a href="${escapeHtml(path)}">${escapeHtml(label)}</a>`
  ).join("");
}

function sectionHtml(s: ReportSection): string {
  const holding = s.claims.filter((c) => c.holds).length;
  const figures = s.figures.map((f) => {
    const id = `${slug(s.id)}--figure-${slug(f.name)}`;
    return `<figure class="lb-figure" id="${id}" data-figure="${
      escapeHtml(s.id)
    }/${escapeHtml(f.name)}">${scopeSvgIds(f.svg, id)}<figcaption>${
      escapeHtml(f.name)
    }${fileLinks(f.files)}</figcaption></figure>`;
  }).join("\n");
  const tables = s.tables.map((t) => {
    const id = `${slug(s.id)}--table-${slug(t.name)}`;
    const n = t.rows.length;
    return `<h4 id="${id}">${escapeHtml(t.name)} <span class="muted">${
      n.toLocaleString("en-US")
    } ${n === 1 ? "row" : "rows"}${n > 200 ? " (first 200 shown)" : ""}${
      t.csv === undefined ? "" : ` · <a href="${escapeHtml(t.csv)}">CSV</a>`
    }</span></h4>
<div class="lb-scroll${n > 15 ? " tall" : ""}" data-table="${
      escapeHtml(s.id)
    }/${escapeHtml(t.name)}">${tableHtml(t.columns, t.rows)}</div>`;
  }).join("\n");
  return `<section id="${escapeHtml(s.id)}" class="analysis">
<h2><a class="anchor" href="#${escapeHtml(s.id)}" aria-hidden="true">#</a>${
    escapeHtml(s.title)
  }</h2>
<p class="source muted">Source: ${escapeHtml(s.source)}</p>
${parametersHtml(s.parameters)}
<h3 id="${slug(s.id)}--claims">Claims <span class="badge ${
    holding === s.claims.length ? "ok" : "bad"
  }">${holding} of ${s.claims.length} hold</span></h3>
<p class="kinds muted">${escapeHtml(claimsSummary(s.claims))}</p>
<div class="lb-scroll">${claimsHtml(s.claims)}</div>
${
    s.figures.length === 0
      ? ""
      : `<h3 id="${
        slug(s.id)
      }--figures">Figures</h3>\n<div class="lb-figures">\n${figures}\n</div>`
  }
${
    s.tables.length === 0
      ? ""
      : `<h3 id="${slug(s.id)}--tables">Tables</h3>\n${tables}`
  }
<p class="top"><a href="#contents">↑ Contents</a></p>
</section>`;
}

function contentsHtml(sections: readonly ReportSection[]): string {
  const items = sections.map((s) => {
    const holding = s.claims.filter((c) => c.holds).length;
    const link = (suffix: string, label: string) =>
      `<a href="#${slug(s.id)}--${suffix}">${escapeHtml(label)}</a>`;
    const parts = [
      link("claims", `${s.claims.length} claims`),
      ...(s.figures.length === 0 ? [] : [
        `figures: ${
          s.figures.map((f) => link(`figure-${slug(f.name)}`, f.name)).join(
            ", ",
          )
        }`,
      ]),
      ...(s.tables.length === 0 ? [] : [
        `tables: ${
          s.tables.map((t) => link(`table-${slug(t.name)}`, t.name)).join(", ")
        }`,
      ]),
    ];
    return `<li><a href="#${escapeHtml(s.id)}">${
      escapeHtml(s.title)
    }</a><span class="badge ${holding === s.claims.length ? "ok" : "bad"}">${
      holding === s.claims.length
        ? `${holding}/${s.claims.length} hold`
        : `${s.claims.length - holding} of ${s.claims.length} fail`
    }</span><div class="parts">${parts.join(" · ")}</div></li>`;
  }).join("\n");
  return `<nav id="contents" aria-label="Contents"><h2>Contents</h2><ol>\n${items}\n</ol></nav>`;
}

function failingHtml(sections: readonly ReportSection[]): string {
  const failing = sections.flatMap((s) =>
    s.claims.filter((c) => !c.holds).map((c) => ({ s, c }))
  );
  if (failing.length === 0) return "";
  return `<div class="failing" id="failing"><h2>Claims that do not hold</h2><ul>\n${
    failing.map(({ s, c }) =>
      `<li><a href="#${slug(s.id)}--claims">${escapeHtml(c.id)}</a>: ${
        escapeHtml(c.statement)
      } (expected ${escapeHtml(JSON.stringify(c.expected))}, got ${
        escapeHtml(JSON.stringify(c.actual))
      })</li>`
    ).join("\n")
  }\n</ul></div>`;
}

function metaHtml(meta: ReportMeta): string {
  const seeds = Object.entries(meta.seeds);
  const api = meta.api
    ? `<a href="${escapeHtml(meta.api)}">${escapeHtml(meta.api)}</a>`
    : `not generated${
      meta.apiError === undefined ? "" : `: ${escapeHtml(meta.apiError)}`
    }`;
  const row = (k: string, v: string) => `<dt>${k}</dt><dd>${v}</dd>`;
  return `<dl class="meta" id="run-facts">
${row("lossbook", escapeHtml(meta.version))}
${row("Deno", escapeHtml(meta.deno))}
${row("git commit", escapeHtml(meta.commit ?? "unknown (not a git checkout)"))}
${row("generated", escapeHtml(meta.generatedAt))}
${
    row(
      "seeds",
      seeds.length === 0
        ? "none used"
        : escapeHtml(seeds.map(([k, v]) => `${k} = ${v}`).join("; ")),
    )
  }
${row("API reference", api)}
</dl>`;
}

/**
 * Build the report page.
 *
 * The page has no scripts, no external links and no web fonts, so it reads
 * the same offline: figures are inline SVG, styles are inline. It opens with
 * the run's facts (version, Deno, commit, time, seeds) and a table of
 * contents; each analysis then gets a section with its parameters, its
 * claims, its figures and its tables. Wide tables scroll inside their own box
 * and figures shrink to the page, so the page itself never scrolls sideways.
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
  const kinds = countClaimsByKind(claims);
  const figures = sections.reduce((n, s) => n + s.figures.length, 0);
  const tables = sections.reduce((n, s) => n + s.tables.length, 0);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lossbook reproduction report</title>
<style>${PAGE_CSS}${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>lossbook reproduction report</h1>
<p class="summary ${
    holding === claims.length ? "ok" : "bad"
  }" id="claim-summary" data-claims="${claims.length}" data-holding="${holding}" data-published="${kinds.published.total}" data-published-holding="${kinds.published.holding}">${
    kinds.published.holding.toLocaleString("en-US")
  } published figure${kinds.published.holding === 1 ? "" : "s"} reproduced · ${
    holding.toLocaleString("en-US")
  } of ${claims.length.toLocaleString("en-US")} claims hold</p>
<p class="kinds" id="claim-kinds">Claims are of three kinds: <b>published</b> figures printed in a cited source (${kinds.published.holding} of ${kinds.published.total} reproduced), <b>derived</b> values computed a second, independent way at run time (${kinds.derived.holding} of ${kinds.derived.total} agree), and <b>properties</b>, checked true/false statements (${kinds.property.holding} of ${kinds.property.total} hold). Sources are cited by their keys in <code>docs/sources.md</code>.</p>
<p class="muted">${sections.length} analyses, ${figures} figures, ${tables} tables. A cell that reads <i>unknown</i> or <i>n/a</i> is empty on purpose: hover over it to see why.</p>
${metaHtml(meta)}
</header>
${contentsHtml(sections)}
${failingHtml(sections)}
<main>
${sections.map(sectionHtml).join("\n")}
</main>
<footer>Generated by <code>deno task reproduce</code>. Every table is also written as CSV under <code>tables/</code>, every figure as SVG, PNG and Vega-Lite JSON under <code>figures/</code>, and every claim to <code>claims.json</code>.</footer>
</body>
</html>
`;
}
