import assert from "node:assert/strict";
import { claimClose } from "../../../lib/claims/claim.ts";
import { reportHtml, type ReportMeta } from "../../../lib/report/mod.ts";

const META: ReportMeta = {
  version: "0.1.0",
  deno: "2.9.6",
  commit: "0123456789ab",
  generatedAt: "2026-11-29T00:00:00Z",
  seeds: { "a.seed": 7, "b.drawSeed": 20261105 },
};

const SECTION = {
  id: "a",
  title: "Analysis <A>",
  source: "third-number: divergence table",
  parameters: { seed: 7, profiles: ["flat", "reconciliation"] },
  claims: [claimClose("a.x", "x is 1", 1, 1, { kind: "property" })],
  tables: [{
    name: "bins",
    columns: ["lo", "n", "accuracy"],
    rows: [{ lo: 0, n: 0, accuracy: null }, { lo: 0.1, n: 4, accuracy: 0.5 }],
    csv: "tables/a.bins.csv",
  }],
  figures: [{
    name: "curve",
    svg:
      '<?xml version="1.0"?><svg width="10" height="10" viewBox="0 0 10 10"><defs><clipPath id="clip1"><rect/></clipPath></defs><g clip-path="url(#clip1)"/></svg>',
    files: { SVG: "figures/a.curve.svg", PNG: "figures/a.curve.png" },
  }],
};

Deno.test("reportHtml() header states the version, Deno, commit, generation time, seeds and API link", () => {
  const html = reportHtml([SECTION], { ...META, api: "api/index.html" });
  for (
    const s of [
      "<dt>lossbook</dt><dd>0.1.0</dd>",
      "<dt>Deno</dt><dd>2.9.6</dd>",
      "<dt>git commit</dt><dd>0123456789ab</dd>",
      "<dt>generated</dt><dd>2026-11-29T00:00:00Z</dd>",
      "a.seed = 7; b.drawSeed = 20261105",
      '<a href="api/index.html">api/index.html</a>',
    ]
  ) assert.ok(html.includes(s), s);
  const none = reportHtml([], {
    ...META,
    commit: null,
    seeds: {},
    apiError: "deno doc exited 1",
  });
  assert.match(none, /unknown \(not a git checkout\)/);
  assert.match(none, /none used/);
  assert.match(none, /not generated: deno doc exited 1/);
});

Deno.test("reportHtml() has a table of contents linking every section, figure and table", () => {
  const html = reportHtml([SECTION], META);
  const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
  const nav = html.slice(
    html.indexOf('<nav id="contents"'),
    html.indexOf("</nav>"),
  );
  const links = [...nav.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(links, [
    "a",
    "a--claims",
    "a--figure-curve",
    "a--table-bins",
  ]);
  for (const l of links) assert.ok(ids.has(l), l);
});

Deno.test("reportHtml() puts each table in its own scroll box, with a null reason and its CSV", () => {
  const html = reportHtml([SECTION], META);
  assert.match(html, /<div class="lb-scroll" data-table="a\/bins"><table/);
  assert.match(html, /title="empty bin: [^"]+">n\/a<\/td>/);
  assert.match(html, /<a href="tables\/a\.bins\.csv">CSV<\/a>/);
  assert.match(html, /\.lb-scroll\{max-width:100%;overflow:auto/);
  assert.match(html, /Analysis &lt;A&gt;/);
});

Deno.test("reportHtml() inlines figures without the XML prologue, scales them to the page and keeps their ids apart", () => {
  const html = reportHtml([SECTION, { ...SECTION, id: "b" }], META);
  assert.doesNotMatch(html, /<\?xml/);
  assert.match(
    html,
    /\.lb-figure svg\{display:block;max-width:100%;height:auto\}/,
  );
  assert.match(html, /id="a--figure-curve-clip1"/);
  assert.match(html, /url\(#b--figure-curve-clip1\)/);
  assert.doesNotMatch(html, /id="clip1"/);
  assert.match(html, /<a href="figures\/a\.curve\.png">PNG<\/a>/);
});

Deno.test("reportHtml() is one offline page: no script, stylesheet link, web font or remote URL", () => {
  const html = reportHtml([SECTION], META);
  assert.doesNotMatch(html, /<script|<link|@import|@font-face|<iframe/);
  assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//);
});

Deno.test("reportHtml() prints whole tables and keeps each figure on one page", () => {
  const html = reportHtml([SECTION], META);
  const print = html.slice(html.indexOf("@media print{\n"));
  // no scroll box on paper: every row of a tall table is printed
  assert.match(
    print,
    /\.lb-scroll,\.lb-scroll\.tall\{max-height:none;overflow:visible\}/,
  );
  // column headings repeat on each page; rows and figures are not cut in two
  assert.match(print, /\.lb-table thead\{display:table-header-group\}/);
  assert.match(print, /\.lb-table tr\{break-inside:avoid\}/);
  assert.match(print, /\.lb-figure\{break-inside:avoid;/);
  // a sticky heading would print over the rows
  assert.match(print, /\.lb-table th\{position:static\}/);
});

Deno.test("reportHtml() leads with the published figures reproduced and groups each section's claims by kind", () => {
  const published = claimClose("a.p", "A loses 104.4", 104.4, 104.4, {
    kind: "published",
    source: "third-number: divergence table",
  });
  const html = reportHtml([{
    ...SECTION,
    claims: [...SECTION.claims, published],
  }], META);
  assert.match(
    html,
    /id="claim-summary"[^>]*>1 published figure reproduced · 2 of 2 claims hold</,
  );
  assert.match(
    html,
    /1 published figure reproduced \(of 1\), 0 of 0 derived values hold, 1 of 1 properties hold/,
  );
  assert.ok(
    html.indexOf('data-claim-id="a.p"') < html.indexOf('data-claim-id="a.x"'),
  );
});
