import assert from "node:assert/strict";
import * as aq from "arquero";
import { claimClose } from "../lib/claims/claim.ts";
import { reproduce } from "../reproduce.ts";

Deno.test("reproduce() writes tables, figures, claims.json and a self-contained report", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "lossbook-out-" });
  const log: string[] = [];
  const summary = await reproduce({ outDir, log: (l) => log.push(l) });
  assert.equal(summary.failed, 0);
  for (
    const f of [
      "tables/divergence.divergence.csv",
      "tables/divergence.loss_by_profile.csv",
      "figures/divergence.errors_by_severity.svg",
      "figures/divergence.errors_by_severity.png",
      "figures/divergence.loss_by_profile.vl.json",
      "claims.json",
      "report.html",
    ]
  ) {
    assert.ok((await Deno.stat(`${outDir}/${f}`)).size > 0, f);
  }
  const claims = JSON.parse(await Deno.readTextFile(`${outDir}/claims.json`));
  assert.equal(claims.failed, 0);
  assert.equal(claims.total, claims.claims.length);
  const ids = claims.claims.map((c: { id: string }) => c.id);
  assert.ok(ids.includes("divergence.loss.principal_risk.B"));
  for (const c of claims.claims) {
    for (
      const k of [
        "analysis",
        "id",
        "statement",
        "expected",
        "actual",
        "tolerance",
        "holds",
      ]
    ) assert.ok(k in c, k);
  }
  const csv = await Deno.readTextFile(
    `${outDir}/tables/divergence.loss_by_profile.csv`,
  );
  assert.match(csv, /^profile,span,model,loss,lossRank,accuracyRank\n/);
  assert.match(csv, /principal_risk,100000,B,2420,1,2/);
  const html = await Deno.readTextFile(`${outDir}/report.html`);
  assert.match(html, new RegExp(`data-claims="${claims.total}"`));
  assert.doesNotMatch(html, /<script|<link|src="http/);
  assert.ok(log.some((l) => /divergence: \d+\/\d+ claims hold/.test(l)));
});

Deno.test("reproduce() output other than the report is byte-identical across runs", async () => {
  const a = await Deno.makeTempDir();
  const b = await Deno.makeTempDir();
  await reproduce({ outDir: a, log: () => {}, png: false });
  await reproduce({ outDir: b, log: () => {}, png: false });
  for (
    const f of [
      "claims.json",
      "tables/divergence.divergence.csv",
      "figures/divergence.loss_by_profile.svg",
    ]
  ) {
    assert.equal(
      await Deno.readTextFile(`${a}/${f}`),
      await Deno.readTextFile(`${b}/${f}`),
      f,
    );
  }
});

Deno.test("reproduce() refuses an unknown analysis id", async () => {
  await assert.rejects(
    () => reproduce({ only: ["nope"], log: () => {} }),
    /Unknown analysis "nope": known analyses are divergence/,
  );
});

Deno.test("reproduce() counts a failing claim, logs it and still writes every artefact", async () => {
  const outDir = await Deno.makeTempDir();
  const log: string[] = [];
  const summary = await reproduce({
    outDir,
    png: false,
    log: (l) => log.push(l),
    analyses: [{
      id: "broken",
      title: "A deliberately wrong figure",
      run: () => ({
        id: "broken",
        title: "A deliberately wrong figure",
        source: "test",
        parameters: {},
        tables: { t: aq.table({ x: [1] }) },
        charts: {},
        claims: [
          claimClose("broken.two", "one is two", 2, 1),
          claimClose("broken.one", "one is one", 1, 1),
        ],
      }),
    }],
  });
  assert.equal(summary.failed, 1);
  assert.ok(log.some((l) => /FAILS broken\.two: expected 2, got 1/.test(l)));
  const claims = JSON.parse(await Deno.readTextFile(`${outDir}/claims.json`));
  assert.deepEqual([claims.total, claims.holding, claims.failed], [2, 1, 1]);
  assert.match(
    await Deno.readTextFile(`${outDir}/report.html`),
    /1 of 2 claims hold/,
  );
});
