import assert from "node:assert/strict";
import * as aq from "arquero";
import { ANALYSES, type AnalysisEntry } from "../analyses/mod.ts";
import { claimClose } from "../lib/claims/claim.ts";
import { reproduce } from "../reproduce.ts";

// Two cheap analyses of the registry and one whose table holds values JSON
// cannot: enough to see a merge without running the whole registry.
const nonJson: AnalysisEntry = {
  id: "non_json",
  title: "Values JSON has no literal for",
  run: () => ({
    id: "non_json",
    title: "Values JSON has no literal for",
    source: "lossbook: test",
    parameters: { seed: 3 },
    tables: {
      t: aq.table({
        x: [Number.NaN, Number.POSITIVE_INFINITY, 1.5],
        at: [new Date("2026-11-30T00:00:00Z"), null, null],
      }),
    },
    charts: {},
    claims: [claimClose("non_json.one", "one is one", 1, 1, {
      kind: "property",
    })],
  }),
};
const registry = [
  ...ANALYSES.filter((a) => a.id === "divergence" || a.id === "honest_costs"),
  nonJson,
];
const quiet = { png: false, apiDocs: false, analyses: registry };
const withoutTime = (html: string) =>
  html.replace(/<dt>generated<\/dt><dd>[^<]*<\/dd>/, "");

Deno.test("reproduce({ only }) rewrites the report and claims.json with the other analyses' last results, so out/ stays whole", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "lossbook-only-" });
  try {
    const full = await reproduce({ ...quiet, outDir, log: () => {} });
    const claimsFull = JSON.parse(
      await Deno.readTextFile(`${outDir}/claims.json`),
    );
    const reportFull = await Deno.readTextFile(`${outDir}/report.html`);
    for (const id of ["divergence", "honest_costs", "non_json"]) {
      assert.ok((await Deno.stat(`${outDir}/results/${id}.json`)).isFile, id);
    }
    // a file an earlier run of divergence wrote and this one does not
    await Deno.writeTextFile(`${outDir}/tables/divergence.stale.csv`, "x\n1\n");
    const log: string[] = [];
    const only = await reproduce({
      ...quiet,
      outDir,
      only: ["divergence"],
      log: (l) => log.push(l),
    });
    assert.deepEqual(only.ran, ["divergence"]);
    assert.deepEqual(only.reused, ["honest_costs", "non_json"]);
    assert.deepEqual(only.missing, []);
    assert.equal(only.claims.length, full.claims.length);
    const claimsOnly = JSON.parse(
      await Deno.readTextFile(`${outDir}/claims.json`),
    );
    assert.deepEqual(claimsOnly.analyses, {
      ran: ["divergence"],
      reused: ["honest_costs", "non_json"],
      missing: [],
    });
    // the same claims, counts and kinds as the full run
    const { analyses: _a, ...restOnly } = claimsOnly;
    const { analyses: _b, ...restFull } = claimsFull;
    assert.deepEqual(restOnly, restFull);
    // the same report, NaN, Infinity and dates included, but for its time
    assert.equal(
      withoutTime(await Deno.readTextFile(`${outDir}/report.html`)),
      withoutTime(reportFull),
    );
    assert.ok(
      log.some((l) =>
        /merged with the last results of 2 other analyses: honest_costs, non_json/
          .test(l)
      ),
      log.join("\n"),
    );
    assert.ok(
      log.at(-1)!.startsWith(
        `wrote ${only.files.length} files to ${outDir}/: `,
      ),
    );
    assert.match(
      log.at(-1)!,
      /: \d+ of \d+ claims hold \(\d+ of \d+ published figures reproduced/,
    );
    await assert.rejects(
      () => Deno.stat(`${outDir}/tables/divergence.stale.csv`),
      Deno.errors.NotFound,
    );
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test("reproduce({ only }) on a folder without earlier results reports only what is in it and names the analyses missing", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "lossbook-only-" });
  try {
    const log: string[] = [];
    const summary = await reproduce({
      ...quiet,
      outDir,
      only: ["non_json"],
      log: (l) => log.push(l),
    });
    assert.deepEqual(summary.missing, ["divergence", "honest_costs"]);
    const claims = JSON.parse(await Deno.readTextFile(`${outDir}/claims.json`));
    assert.equal(claims.total, 1);
    assert.deepEqual(claims.analyses.missing, ["divergence", "honest_costs"]);
    assert.ok(
      log.some((l) =>
        /^divergence: not in the report \(no earlier results\); run reproduce without --only/
          .test(l)
      ),
      log.join("\n"),
    );
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test("reproduce({ only }) leaves out, and names, an analysis whose earlier tables are gone rather than report files that are not there", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "lossbook-only-" });
  try {
    await reproduce({ ...quiet, outDir, log: () => {} });
    const table = [...Deno.readDirSync(`${outDir}/tables`)]
      .map((e) => e.name).filter((n) => n.startsWith("honest_costs."))
      .sort()[0];
    await Deno.remove(`${outDir}/tables/${table}`);
    const log: string[] = [];
    const summary = await reproduce({
      ...quiet,
      outDir,
      only: ["divergence"],
      log: (l) => log.push(l),
    });
    assert.deepEqual(summary.missing, ["honest_costs"]);
    assert.ok(
      log.some((l) =>
        /^honest_costs: not in the report \(tables\/honest_costs\.[^ ]+ is gone\)/
          .test(l)
      ),
      log.join("\n"),
    );
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test("claims.json counts claims per kind and gives every claim its kind", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "lossbook-only-" });
  try {
    await reproduce({ ...quiet, outDir, log: () => {} });
    const claims = JSON.parse(await Deno.readTextFile(`${outDir}/claims.json`));
    const count = (k: string) =>
      claims.claims.filter((c: { kind: string }) => c.kind === k).length;
    for (const k of ["published", "derived", "property"]) {
      assert.equal(claims.kinds[k].total, count(k), k);
    }
    assert.ok(claims.kinds.published.total > 0);
    assert.equal(
      claims.kinds.published.total + claims.kinds.derived.total +
        claims.kinds.property.total,
      claims.total,
    );
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});
