import assert from "node:assert/strict";
import { claimClose } from "../../../lib/claims/claim.ts";
import {
  claimsHtml,
  escapeHtml,
  formatCell,
  reportHtml,
  tableHtml,
} from "../../../lib/report/mod.ts";

Deno.test("tableHtml() marks null cells n/a with a tooltip and never prints them as 0 or blank", () => {
  const html = tableHtml(["model", "recall", "loss"], [{
    model: "A",
    recall: null,
    loss: 0,
  }, { model: "B" }]);
  assert.equal((html.match(/class="null"/g) ?? []).length, 3);
  assert.match(html, /title="unknown: [^"]+">n\/a<\/td>/);
  // a genuine zero stays a zero
  assert.match(html, /<td class="num">0<\/td>/);
});

Deno.test("tableHtml() escapes text and says how many rows it left out", () => {
  const rows = Array.from({ length: 5 }, (_, i) => ({ x: `<b>${i}</b>` }));
  const html = tableHtml(["x"], rows, { maxRows: 2 });
  assert.doesNotMatch(html, /<b>/);
  assert.match(html, /3 more rows not shown/);
  assert.equal(escapeHtml(`a&b"'`), "a&amp;b&quot;&#39;");
});

Deno.test("formatCell() keeps six significant digits and separates thousands", () => {
  assert.equal(formatCell(100000), "100,000");
  assert.equal(formatCell(0.9225), "0.9225");
  assert.equal(formatCell(true), "true");
  assert.equal(formatCell(undefined), "n/a");
});

Deno.test("claimsHtml() and reportHtml() count claims and mark the ones that fail", () => {
  const claims = [
    claimClose("a", "holds", 1, 1),
    claimClose("b", "fails", 1, 2),
  ];
  assert.match(claimsHtml(claims), /data-holds="false"[^>]*data-claim-id="b"/);
  const html = reportHtml(
    [{
      id: "x",
      title: "X",
      source: "s",
      parameters: { seed: 1 },
      claims,
      tables: [],
      figures: [{ name: "f", svg: "<svg></svg>" }],
    }],
    {
      version: "0.1.0",
      deno: "2.9.6",
      commit: "abc",
      generatedAt: "2026-11-29T00:00:00Z",
      seeds: { "x.seed": 1 },
    },
  );
  assert.match(
    html,
    /id="claim-summary" data-claims="2" data-holding="1">1 of 2 claims hold/,
  );
  assert.match(html, /<a href="#x">X<\/a>/);
  assert.match(html, /x\.seed=1/);
  assert.doesNotMatch(html, /<script|<link|src="http/);
});
