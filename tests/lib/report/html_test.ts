import assert from "node:assert/strict";
import { claimClose, claimEqual } from "../../../lib/claims/claim.ts";
import {
  claimsHtml,
  escapeHtml,
  formatCell,
  reportHtml,
  tableHtml,
} from "../../../lib/report/mod.ts";

Deno.test("tableHtml() marks null, missing and NaN cells with a reason and never prints them as 0 or blank", () => {
  const html = tableHtml(["model", "recall", "loss"], [{
    model: "A",
    recall: null,
    loss: 0,
  }, { model: "B", loss: Number.NaN }]);
  assert.equal((html.match(/class="null"/g) ?? []).length, 3);
  // a null no rule explains is "unknown", with the generic reason
  assert.match(
    html,
    /data-null="unknown" title="unknown: [^"]+">unknown<\/td>/,
  );
  assert.match(html, /data-null="n\/a" title="not a number[^"]*">n\/a<\/td>/);
  // a genuine zero stays a zero
  assert.match(html, /<td class="num">0<\/td>/);
  assert.doesNotMatch(html, /<td[^>]*><\/td>|>NaN<|>undefined</);
});

Deno.test("tableHtml() explains a null from the rest of its row", () => {
  const html = tableHtml(["model", "n", "accuracy"], [
    { model: "A", n: 0, accuracy: null },
    { model: "B", n: 3, accuracy: null },
  ]);
  assert.match(html, /title="empty bin: [^"]+">n\/a<\/td>/);
  assert.match(html, /title="unknown: [^"]+">unknown<\/td>/);
  const own = tableHtml(["x"], [{ x: null }], {
    nullReason: () => ({ label: "n/a", why: "mine" }),
  });
  assert.match(own, /title="mine">n\/a</);
});

Deno.test("tableHtml() escapes text and says how many rows it left out", () => {
  const rows = Array.from({ length: 5 }, (_, i) => ({ x: `<b>${i}</b>` }));
  const html = tableHtml(["x"], rows, { maxRows: 2 });
  assert.doesNotMatch(html, /<b>/);
  assert.match(html, /3 more rows not shown/);
  assert.equal(escapeHtml(`a&b"'`), "a&amp;b&quot;&#39;");
});

Deno.test("formatCell() keeps integer parts whole, six significant digits otherwise, and never rounds a small number to 0", () => {
  assert.equal(formatCell(100000), "100,000");
  assert.equal(formatCell(123456789), "123,456,789");
  assert.equal(formatCell(123456789.25), "123,456,789");
  assert.equal(formatCell(716.6000000000001), "716.6");
  assert.equal(formatCell(0.9225), "0.9225");
  assert.equal(formatCell(0.00053), "0.00053");
  assert.equal(formatCell(4.549724383627065e-42), "4.54972e-42");
  assert.equal(formatCell(1e-5), "1e-5");
  assert.equal(formatCell(-0), "0");
  assert.equal(formatCell(Number.POSITIVE_INFINITY), "∞");
  assert.equal(formatCell(true), "true");
  assert.equal(formatCell(undefined), "n/a");
  assert.equal(formatCell({ a: 1 }), '{"a":1}');
});

Deno.test("claimsHtml() prints values to the digits the tolerance tells apart, the tolerance exactly, and marks a null expected or actual as unknown with a reason", () => {
  const html = claimsHtml([
    claimClose("cut", "B loses 38.7% less", 0.387, 1 - 64 / 104.4, {
      kind: "published",
      tolerance: 0.0005,
      source: "third-number: divergence table",
    }),
    claimClose("floor", "0.41 + 0.03 = 0.44", 0.44, 0.41 + 0.03, {
      kind: "property",
      tolerance: 1e-12,
    }),
    claimEqual("rate", "the rate is unknown", null, null, { kind: "property" }),
  ]);
  assert.match(
    html,
    /<td class="num">0\.387<\/td><td class="num">0\.387<\/td><td class="num">0\.0005<\/td>/,
  );
  assert.match(
    html,
    /<td class="num">0\.44<\/td><td class="num">0\.44<\/td><td class="num">1e-12<\/td>/,
  );
  assert.doesNotMatch(html, /0\.43999/);
  assert.match(html, /title="expected null: [^"]+">unknown</);
  assert.match(html, /title="computed null: [^"]+">unknown</);
});

Deno.test("claimsHtml() groups claims by kind, published figures first, each group headed with its count", () => {
  const html = claimsHtml([
    claimEqual("p", "a property", true, true, { kind: "property" }),
    claimClose("d", "a derived value", 2, 2, { kind: "derived", how: "1 + 1" }),
    claimClose("f", "a figure", 104.4, 104.4, {
      kind: "published",
      source: "third-number: divergence table",
    }),
  ]);
  const order = [
    ...html.matchAll(/data-kind-heading="(\w+)"|data-claim-id="(\w+)"/g),
  ]
    .map((m) => m[1] ?? m[2]);
  assert.deepEqual(order, ["published", "f", "derived", "d", "property", "p"]);
  assert.match(
    html,
    /Published figures reproduced <span class="muted">1 of 1 hold/,
  );
  assert.match(html, /expected: 1 \+ 1/);
});

Deno.test("claimsHtml() and reportHtml() count claims and mark the ones that fail", () => {
  const claims = [
    claimClose("a", "holds", 1, 1, { kind: "property" }),
    claimClose("b", "fails", 1, 2, { kind: "property" }),
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
    /id="claim-summary" data-claims="2" data-holding="1" data-published="0" data-published-holding="0">0 published figures reproduced · 1 of 2 claims hold/,
  );
  assert.match(html, /id="claim-kinds">[^<]*<b>published<\/b>/);
  assert.match(html, /<a href="#x">X<\/a>/);
  assert.match(html, /x\.seed = 1/);
  assert.match(html, /id="failing"[\s\S]*<a href="#x--claims">b<\/a>/);
  assert.doesNotMatch(html, /<script|<link|src="http/);
});
