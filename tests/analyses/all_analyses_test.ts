import assert from "node:assert/strict";
import { ANALYSES } from "../../analyses/mod.ts";
import { intervalCoverage } from "../../analyses/interval_coverage.ts";
import {
  type Claim,
  CLAIM_KINDS,
  countClaimsByKind,
} from "../../lib/claims/mod.ts";
import { reportHtml } from "../../lib/report/report.ts";
import { mimeBundle, showClaims, showTable } from "../../display.ts";
import { noisyNumbers, visibleText } from "../_human_numbers.ts";

// Every analysis with its defaults, except the coverage study, which runs
// small here (its own test does the same): the claims it states do not
// depend on the sizes.
const results = await Promise.all(
  ANALYSES.map((a) =>
    a.id === "interval_coverage"
      ? intervalCoverage({
        sizes: [60, 400],
        replicates: 40,
        rowReplicates: 4,
        draws: 200,
        widthSizes: [100],
        widthReplicates: 40,
        widthDraws: 50,
      })
      : a.run()
  ),
);
const claims: (Claim & { analysis: string })[] = results.flatMap((r) =>
  r.claims.map((c) => ({ analysis: r.id, ...c }))
);

// The citation keys of docs/sources.md: the first cell of each table row.
const sources = await Deno.readTextFile(
  new URL("../../docs/sources.md", import.meta.url),
);
const keys = new Set(
  [...sources.matchAll(/^\|\s*`([a-z0-9_.-]+)`\s*\|/gm)].map((m) => m[1]),
);

function keyOf(source: string): string {
  const m = /^([a-z0-9_.-]+)(?::|,|$)/.exec(source);
  return m === null ? "" : m[1];
}

Deno.test("docs/sources.md defines the citation keys the claims use", () => {
  for (const k of ["third-number", "veto-frontier", "lossbook"]) {
    assert.ok(keys.has(k), `docs/sources.md has no key ${k}`);
  }
});

Deno.test("every claim of every analysis has a kind", () => {
  const unclassified = claims.filter((c) => !CLAIM_KINDS.includes(c.kind));
  assert.deepEqual(unclassified.map((c) => c.id), []);
});

Deno.test("every published claim names a source that starts with an external citation key of docs/sources.md", () => {
  const bad = claims.filter((c) =>
    c.kind === "published" &&
    (c.source === undefined || !keys.has(keyOf(c.source)) ||
      keyOf(c.source) === "lossbook")
  ).map((c) => `${c.analysis}/${c.id}: ${c.source}`);
  assert.deepEqual(bad, []);
});

Deno.test("every claim source starts with a citation key of docs/sources.md", () => {
  const bad = claims.filter((c) =>
    c.source !== undefined && !keys.has(keyOf(c.source))
  ).map((c) => `${c.analysis}/${c.id}: ${c.source}`);
  assert.deepEqual(bad, []);
});

Deno.test("every derived claim says how its expected value is computed", () => {
  const bad = claims.filter((c) =>
    c.kind === "derived" && (c.how ?? "").trim() === ""
  );
  assert.deepEqual(bad.map((c) => c.id), []);
});

Deno.test("a property claim's expected value is not a figure read from a source: no claim with a lossbook source is published", () => {
  const bad = claims.filter((c) =>
    c.kind === "published" && c.source?.startsWith("lossbook")
  );
  assert.deepEqual(bad.map((c) => c.id), []);
});

Deno.test("the analyses reproduce published figures, recompute derived ones and check properties", () => {
  const counts = countClaimsByKind(claims);
  for (const kind of CLAIM_KINDS) {
    assert.ok(counts[kind].total > 0, `no ${kind} claim`);
  }
  assert.equal(
    CLAIM_KINDS.reduce((n, k) => n + counts[k].total, 0),
    claims.length,
  );
});

Deno.test("noisyNumbers() finds float noise and leaves clean numbers alone", () => {
  assert.deepEqual(
    noisyNumbers(
      "0.44 716.6 10,042 16,000,000,000,000 6.94e-18 c8419ba1bc160e588",
    ),
    [],
  );
  assert.equal(noisyNumbers("floor 0.43999999999999995").length, 1);
  assert.equal(noisyNumbers("loss 716.6000000000001").length, 1);
  assert.equal(noisyNumbers("E-AURC 0.000000000000000006939").length, 1);
  assert.equal(noisyNumbers("x 0.0000010000000000287557").length, 1);
});

Deno.test("the report of every analysis prints no number with 12 or more significant digits", () => {
  const html = reportHtml(
    results.map((r) => ({
      id: r.id,
      title: r.title,
      source: r.source,
      parameters: r.parameters,
      claims: r.claims,
      tables: Object.entries(r.tables).map(([name, t]) => ({
        name,
        columns: t.columnNames(),
        rows: t.objects() as Record<string, unknown>[],
      })),
      figures: [],
    })),
    {
      version: "0",
      deno: Deno.version.deno,
      commit: null,
      generatedAt: "2026-01-01T00:00:00Z",
      seeds: {},
    },
  );
  assert.deepEqual(noisyNumbers(visibleText(html)), []);
  assert.match(html, /\d+ published figures reproduced · /);
});

Deno.test("the notebook display of every analysis's claims and tables prints no number with 12 or more significant digits", () => {
  const found: string[] = [];
  for (const r of results) {
    const shown = [
      showClaims(r.claims),
      ...Object.values(r.tables).map((t) => showTable(t)),
    ];
    for (const s of shown) {
      const b = mimeBundle(s);
      found.push(
        ...noisyNumbers(visibleText(String(b["text/html"]))),
        ...noisyNumbers(String(b["text/plain"])),
      );
    }
  }
  assert.deepEqual(found, []);
});

Deno.test("the report shows the figures the issue found raw as people read them", () => {
  const byId = new Map(claims.map((c) => [c.id, c]));
  // the claim values were 0.43999999999999995 and 716.6000000000001
  const html = visibleText(reportHtml([{
    id: "x",
    title: "x",
    source: "x",
    parameters: {},
    claims: [
      "honest_costs.charlie.partial_floor_usd",
      "counterfactual_replay.replay.recorded_policy.same_loss",
      "divergence.loss.principal_risk.A",
    ].map((id) => byId.get(id)!),
    tables: [],
    figures: [],
  }], { version: "0", deno: "x", commit: null, generatedAt: "x", seeds: {} }));
  assert.match(html, / 0\.44 +0\.44 /);
  assert.match(html, / 716\.6 +716\.6 /);
  assert.match(html, / 10,042 +10,042 /);
});
