import assert from "node:assert/strict";
import { ANALYSES } from "../../analyses/mod.ts";
import { intervalCoverage } from "../../analyses/interval_coverage.ts";
import {
  type Claim,
  CLAIM_KINDS,
  countClaimsByKind,
} from "../../lib/claims/mod.ts";

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
