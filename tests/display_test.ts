import assert from "node:assert/strict";
import * as aq from "arquero";
import { calibration } from "../analyses/calibration.ts";
import { divergence } from "../analyses/divergence.ts";
import { honestCosts } from "../analyses/honest_costs.ts";
import { claimClose } from "../lib/claims/claim.ts";
import {
  display,
  JUPYTER_DISPLAY,
  mimeBundle,
  show,
  showChart,
  showClaims,
  showResult,
  showScore,
  showTable,
} from "../display.ts";
import { escapeHtml, formatCell } from "../lib/report/html.ts";
import type { ScoreView } from "../lib/report/score_view.ts";

const html = (b: Record<string, unknown>) => String(b["text/html"]);

Deno.test("JUPYTER_DISPLAY is the symbol the Deno kernel looks up", () => {
  assert.equal(JUPYTER_DISPLAY, Symbol.for("Jupyter.display"));
  const shown = showClaims([]);
  assert.equal(
    typeof shown[Symbol.for("Jupyter.display") as never],
    "function",
  );
});

Deno.test("showTable() renders nulls as unknown or n/a with the reason, and a genuine 0 as 0", () => {
  const { tables } = honestCosts();
  const bundle = mimeBundle(showTable(tables.cost_books));
  const h = html(bundle);
  // yylo-benchmark: echo's rate has an empty denominator, its dollars are unknown, not $0
  assert.match(h, /title="empty denominator[^"]*">n\/a<\/td>/);
  assert.match(h, /title="no attempt has a complete cost[^"]*">n\/a<\/td>/);
  // bravo's cache hits cost a genuine, complete $0
  assert.match(h, /<td class="num">0<\/td>/);
  assert.doesNotMatch(h, /<td[^>]*><\/td>|>NaN<|>undefined<|>null</);
  assert.match(h, /<style>/);
  assert.match(String(bundle["text/plain"]), /^group\tattempts/);
});

Deno.test("showTable() keeps its row limit in both HTML and text and says what it left out", () => {
  const t = aq.table({ x: Array.from({ length: 30 }, (_, i) => i) });
  const bundle = mimeBundle(showTable(t, { maxRows: 5 }));
  assert.match(html(bundle), /25 more rows not shown/);
  assert.match(String(bundle["text/plain"]), /25 more rows not shown$/);
  assert.match(html(bundle), /class="lb-scroll tall"/);
});

Deno.test("showChart() is a Vega-Lite bundle (v5 and v6) with a PNG fallback, no SVG, and a text line", async () => {
  const spec = divergence().charts.loss_by_profile;
  const bundle = mimeBundle(await showChart(spec));
  assert.deepEqual(bundle["application/vnd.vegalite.v5+json"], spec);
  assert.deepEqual(bundle["application/vnd.vegalite.v6+json"], spec);
  const png = Uint8Array.from(
    atob(String(bundle["image/png"])),
    (c) => c.charCodeAt(0),
  );
  assert.deepEqual([...png.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  assert.ok(
    png.length > 5_000,
    `a drawn chart, not an empty image (${png.length} bytes)`,
  );
  assert.ok(!("image/svg+xml" in bundle));
  assert.match(String(bundle["text/plain"]), /^Vega-Lite chart: /);
});

Deno.test("showClaims() counts the claims that hold and marks the ones that fail", () => {
  const bundle = mimeBundle(showClaims([
    claimClose("a", "one is one", 1, 1, { kind: "property" }),
    claimClose("b", "one is two", 2, 1, { kind: "property" }),
  ]));
  assert.match(
    String(bundle["text/plain"]),
    /^0 published figures reproduced .*; 1 of 2 claims hold\nProperties checked:\n {2}holds {2}a/,
  );
  assert.match(
    String(bundle["text/plain"]),
    /FAILS {2}b: expected 2, actual 1/,
  );
  assert.match(html(bundle), /data-holds="false"[^>]*data-claim-id="b"/);
});

Deno.test("showResult() shows an analysis's claims, every chart and every table", async () => {
  const result = calibration({ decisions: 2_000 });
  const h = html(mimeBundle(await showResult(result)));
  assert.equal(
    (h.match(/<tr class="claim /g) ?? []).length,
    result.claims.length,
  );
  assert.equal(
    (h.match(/<svg[\s>]/g) ?? []).length,
    Object.keys(result.charts).length,
  );
  for (const name of Object.keys(result.tables)) {
    assert.ok(h.includes(`<caption>${name} (`), name);
  }
  // empty reliability bins are n/a, with the reason
  assert.match(h, /title="empty bin: [^"]+">n\/a<\/td>/);
  assert.doesNotMatch(h, /<\?xml/);
});

Deno.test("display() picks the display for a result, a table, a chart and claims, and passes displayables through", async () => {
  const result = divergence();
  const forResult = mimeBundle(await display(result));
  assert.match(
    String(forResult["text/plain"]),
    /claims hold, 2 charts, 2 tables$/,
  );
  assert.match(
    html(mimeBundle(await display(result.tables.divergence))),
    /<table/,
  );
  const chart = mimeBundle(await display(result.charts.errors_by_severity));
  assert.ok("image/png" in chart);
  assert.match(
    String(mimeBundle(await display(result.claims))["text/plain"]),
    /of \d+ claims hold/,
  );
  const shown = showClaims([]);
  assert.equal(await display(shown), shown);
});

Deno.test("display() refuses what it cannot show, naming what it got", async () => {
  await assert.rejects(
    () => display({ a: 1 } as never),
    TypeError,
  );
  await assert.rejects(
    () => display(null as never),
    /Cannot display null: expected an analysis result/,
  );
});

Deno.test("show() outside the kernel publishes nothing and returns the bundle", async () => {
  const result = divergence();
  const table = await show(result.tables.divergence);
  assert.deepEqual(table, mimeBundle(showTable(result.tables.divergence)));
  const chart = await show(result.charts.errors_by_severity);
  assert.ok(chart !== undefined && "image/png" in chart);
  assert.deepEqual(await show("12 of 12 claims hold"), {
    "text/plain": "12 of 12 claims hold",
  });
  assert.deepEqual(await show({ kappa: 0.5, lo: null }), {
    "text/plain": "{ kappa: 0.5, lo: null }",
  });
  await assert.rejects(() => show(new Map() as never), TypeError);
});

Deno.test("show() in the kernel publishes display_data (PNG size as metadata), yields 20 ms, then resolves to undefined", async () => {
  const sent: { type: string; content: Record<string, unknown>; at: number }[] =
    [];
  const deno = Deno as unknown as { jupyter: unknown };
  deno.jupyter = {
    broadcast(type: string, content: Record<string, unknown>) {
      sent.push({ type, content, at: performance.now() });
      return Promise.resolve();
    },
  };
  try {
    const result = divergence();
    const shownTable = await show(result.tables.divergence);
    const done = performance.now();
    assert.equal(shownTable, undefined);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].type, "display_data");
    assert.ok(done - sent[0].at >= 15, `yielded ${done - sent[0].at} ms`);
    assert.deepEqual(
      sent[0].content.data,
      mimeBundle(showTable(result.tables.divergence)),
    );
    assert.deepEqual(sent[0].content.metadata, {});
    assert.equal(await show(result.charts.errors_by_severity), undefined);
    const meta = sent[1].content.metadata as Record<
      string,
      { width: number; height: number }
    >;
    assert.ok(meta["image/png"].width > 100 && meta["image/png"].height > 100);
    assert.ok("image/png" in (sent[1].content.data as object));
  } finally {
    deno.jupyter = undefined;
  }
  assert.ok((await show("after")) !== undefined, "no kernel again: the bundle");
});

/** Every `score --json` document pinned in tests/golden, by file name. */
function goldenScores(): [string, ScoreView][] {
  const dir = new URL("golden/", import.meta.url);
  return [...Deno.readDirSync(dir)]
    .map((e) => e.name)
    .filter((n) => /^score_.*\.json$/.test(n))
    .sort()
    .map((n) => [n, JSON.parse(Deno.readTextFileSync(new URL(n, dir)))]);
}

Deno.test("show() of a score document gives a table of every model and figure, then a chart with Vega-Lite and a PNG", async () => {
  const docs = goldenScores();
  assert.ok(docs.length >= 9);
  for (const [name, doc] of docs) {
    const bundles = await show(doc);
    assert.ok(bundles !== undefined && bundles.length === 2, name);
    const [table, chart] = bundles;
    const h = html(table);
    assert.match(h, /<table/);
    for (const m of doc.models) {
      assert.ok(h.includes(`<td>${escapeHtml(m.modelId)}</td>`), name);
      for (const p of doc.profiles) {
        const loss = escapeHtml(formatCell(m.loss[p.id]));
        assert.ok(h.includes(`>${loss}</td>`), `${name} ${p.id}`);
      }
    }
    assert.match(String(table["text/plain"]), /^Loss per model/);
    assert.ok("application/vnd.vegalite.v6+json" in chart, name);
    assert.ok(atob(String(chart["image/png"])).startsWith("\x89PNG"), name);
    assert.ok(!("text/html" in chart) && !("image/svg+xml" in chart), name);
  }
});

Deno.test("show() in the kernel publishes a score document as two outputs, the table and the chart", async () => {
  const [, doc] = goldenScores()[0];
  const sent: Record<string, unknown>[] = [];
  const deno = Deno as unknown as { jupyter: unknown };
  deno.jupyter = {
    broadcast(type: string, content: Record<string, unknown>) {
      assert.equal(type, "display_data");
      sent.push(content);
      return Promise.resolve();
    },
  };
  try {
    assert.equal(await show(doc), undefined);
  } finally {
    deno.jupyter = undefined;
  }
  const [table, chart] = (await showScore(doc)).map(mimeBundle);
  // as JSON: rendering tags the chart's inline data with Vega's own symbols
  const json = (v: unknown) => JSON.parse(JSON.stringify(v));
  assert.deepEqual(json(sent.map((c) => c.data)), json([table, chart]));
  assert.deepEqual(sent[0].metadata, {});
  assert.ok("image/png" in (sent[1].metadata as object));
});

Deno.test("display.ts touches Deno.jupyter only inside show(), guarded for its absence", async () => {
  const source = await Deno.readTextFile(
    new URL("../display.ts", import.meta.url),
  );
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  assert.doesNotMatch(code, /Deno\s*\.\s*jupyter/);
  assert.equal((code.match(/\.jupyter\b/g) ?? []).length, 1);
});
