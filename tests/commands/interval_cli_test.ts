import assert from "node:assert/strict";
import { getProfile } from "../../lib/costs/mod.ts";
import {
  bootstrapInterval,
  forModel,
  gammaLossInterval,
  pairedBootstrap,
  realisedLoss,
} from "../../lib/metrics/mod.ts";
import { seededPrng, seedFor } from "../../lib/math/mod.ts";
import { jsonlStats } from "../../lib/read/jsonl_text_stats.ts";
import { decisionTable } from "../../lib/read/load_decisions.ts";
import { pairedStats } from "../../lib/decision/paired_stats.ts";
import { decision, runCli, tempFile } from "../_helpers.ts";

const FILE = "data/examples/model_ab.jsonl";

// compare of the file's two models
const PAIR = ["compare", FILE, "--a", "A", "--b", "B"];
Deno.test("score --json: default loss intervals are the Clopper-Pearson-sized gamma (cp-gamma), name their method and estimand, and pBest, stated on this run, sums to 1 per profile", async () => {
  const { code, stdout } = await runCli([
    "score",
    FILE,
    "--profile",
    "principal_risk",
    "--profile",
    "reconciliation",
    "--json",
  ]);
  assert.equal(code, 0);
  const out = JSON.parse(stdout);
  assert.equal(out.interval, "auto");
  assert.match(
    out.estimand,
    /conditional on its counts per severity and gold class/,
  );
  const { stats } = jsonlStats(await Deno.readTextFile(FILE));
  for (const id of ["principal_risk", "reconciliation"]) {
    let total = 0;
    for (const m of out.models) {
      const ci = m.intervals.loss[id];
      // the keys of the old bootstrap interval are all still there
      for (
        const k of [
          "estimate",
          "lo",
          "hi",
          "level",
          "resamples",
          "undefinedResamples",
          "seed",
          "method",
        ]
      ) {
        assert.ok(k in ci, `${m.modelId} ${id}: ${k}`);
      }
      assert.equal(ci.method, "gamma, extra event sized by clopper-pearson");
      assert.equal(ci.interval, "cp-gamma");
      const b = gammaLossInterval(
        forModel(stats, m.modelId),
        getProfile(id),
        {
          classes: [
            ...new Set(stats.flatMap((r) => [r.trueClass, r.predClass])),
          ],
          extra: "clopper-pearson",
        },
      )!;
      assert.ok(Math.abs(ci.lo - b.lo) < 1e-9 && Math.abs(ci.hi - b.hi) < 1e-9);
      assert.ok(m.pBest[id] >= 0 && m.pBest[id] <= 1);
      total += m.pBest[id];
    }
    assert.ok(Math.abs(total - 1) < 1e-12, `${id}: ${total}`);
  }
});

Deno.test("score: pBest is null under a profile whose comparison the pooled prior carries, with the shrinkage in the JSON and the reason in the report", async () => {
  // three models: LOW misses 4, 12 and 24 of 120 (flat tells them apart);
  // CRITICAL misses 0, 1 and 2 of 30 (principal_risk rests on those)
  const ds = ["a", "b", "c"].flatMap((modelId, i) => [
    ...Array.from({ length: 120 }, (_, t) =>
      decision({
        modelId,
        taskId: `low${t}`,
        severity: "LOW",
        predClass: t < [4, 12, 24][i] ? "MATCH" : "AMOUNT_MISMATCH",
      })),
    ...Array.from({ length: 30 }, (_, t) =>
      decision({
        modelId,
        taskId: `crit${t}`,
        severity: "CRITICAL",
        predClass: t < i ? "MATCH" : "AMOUNT_MISMATCH",
      })),
  ]);
  const path = await tempFile(
    "three.jsonl",
    ds.map((d) => JSON.stringify(d)).join("\n"),
  );
  const args = [
    "score",
    path,
    "--profile",
    "flat",
    "--profile",
    "principal_risk",
  ];
  const json = JSON.parse((await runCli([...args, "--json"])).stdout);
  for (const m of json.models) {
    assert.ok(m.pBestShrinkage.flat <= 0.5);
    assert.equal(typeof m.pBest.flat, "number");
    assert.ok(m.pBestShrinkage.principal_risk > 0.5);
    assert.equal(m.pBest.principal_risk, null);
  }
  assert.ok(json.models[0].pBest.flat > 0.9);
  const human = await runCli(args);
  assert.equal(human.code, 0);
  assert.match(
    human.stdout,
    /P\(best\) is n\/a under principal_risk \(shrinkage 0\.\d\d\): the prior pooled across models/,
  );
  assert.doesNotMatch(human.stdout, /n\/a under flat/);
});

Deno.test("score --interval bootstrap gives the percentile bootstrap of earlier versions, byte for byte", async () => {
  const { stdout } = await runCli([
    "score",
    FILE,
    "--profile",
    "principal_risk",
    "--interval",
    "bootstrap",
    "--seed",
    "3",
    "--json",
  ]);
  const out = JSON.parse(stdout);
  const { stats } = jsonlStats(await Deno.readTextFile(FILE));
  const p = getProfile("principal_risk");
  for (const m of out.models) {
    const want = bootstrapInterval(
      forModel(stats, m.modelId),
      (s) => realisedLoss(s, p),
      { prng: seededPrng(seedFor(3, `${m.modelId}/loss/principal_risk`)) },
    );
    const got = m.intervals.loss.principal_risk;
    assert.deepEqual(
      [got.lo, got.hi, got.method],
      [want.lo, want.hi, "percentile bootstrap"],
    );
  }
});

Deno.test("score with one model reports pBest as null, and the human output names the interval method", async () => {
  const ds = [0, 1, 2].map((i) => decision({ taskId: `t${i}` }));
  const path = await tempFile(
    "one.jsonl",
    ds.map((d) => JSON.stringify(d)).join("\n"),
  );
  const json = JSON.parse((await runCli(["score", path, "--json"])).stdout);
  assert.equal(json.models[0].pBest, null);
  const human = await runCli(["score", path, "--interval", "jeffreys"]);
  assert.equal(human.code, 0);
  assert.match(
    human.stdout,
    /loss intervals: jeffreys posterior per cell, monte carlo \(--interval jeffreys\)/,
  );
  assert.match(human.stdout, /loss 95% CI \(jeffreys\)/);
});

Deno.test("score and compare refuse an unknown --interval with exit 2 and one line; compare refuses fay-feuer and cp-gamma", async () => {
  const bad = await runCli(["score", FILE, "--interval", "wald"]);
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr.trim(),
    /^lossbook score: --interval must be one of auto, jeffreys, fay-feuer, bootstrap, cp-gamma, got "wald"$/,
  );
  for (const one of ["fay-feuer", "cp-gamma"]) {
    const ff = await runCli([...PAIR, "--interval", one]);
    assert.equal(ff.code, 2);
    assert.equal(ff.stderr.trim().split("\n").length, 1);
    assert.match(ff.stderr, new RegExp(`--interval ${one} gives one model's`));
  }
  const help = await runCli(["score", "--help"]);
  assert.match(
    help.stdout,
    /--interval auto\|cp-gamma\|fay-feuer\|jeffreys\|bootstrap: /,
  );
});

Deno.test("compare --json: loss differences carry a sign-flip test on tasks, the notes say where no size is claimed, and bootstrap keeps the old p-value", async () => {
  const { code, stdout } = await runCli([
    "compare",
    FILE,
    "--a",
    "A",
    "--b",
    "B",
    "--profile",
    "principal_risk",
    "--json",
  ]);
  assert.equal(code, 0);
  const out = JSON.parse(stdout);
  const d = out.differences.loss.principal_risk;
  assert.match(d.test, /^sign-flip permutation, (exact|monte carlo)$/);
  assert.equal(d.interval, "jeffreys");
  assert.equal(d.tasks, 800);
  assert.ok(d.lo < d.estimate && d.estimate < d.hi);
  assert.ok(out.notes.some((n: string) => /no size is claimed/.test(n)));
  const boot = JSON.parse(
    (await runCli([
      "compare",
      FILE,
      "--a",
      "A",
      "--b",
      "B",
      "--profile",
      "principal_risk",
      "--interval",
      "bootstrap",
      "--json",
    ])).stdout,
  );
  const table = decisionTable(
    (await Deno.readTextFile(FILE)).trim().split("\n").map((l) =>
      JSON.parse(l)
    ),
  );
  const p = getProfile("principal_risk");
  const want = pairedBootstrap(
    pairedStats(table, "A", "B").rows,
    (s) => realisedLoss(s, p),
    {
      prng: seededPrng(seedFor(0, "loss/principal_risk")),
    },
  );
  assert.equal(boot.differences.loss.principal_risk.pValue, want.pValue);
  assert.equal(boot.differences.loss.principal_risk.test, "paired bootstrap");
});

Deno.test("compare pairs by task: several trials of a task are one pair, and the estimate averages them", async () => {
  const ds = [];
  for (let t = 0; t < 20; t++) {
    for (let k = 0; k < 3; k++) {
      ds.push(
        decision({
          modelId: "a",
          taskId: `t${t}`,
          trial: k,
          predClass: t < 6 && k === 0 ? "MATCH" : "AMOUNT_MISMATCH",
        }),
      );
    }
    ds.push(decision({ modelId: "b", taskId: `t${t}`, trial: 0 }));
  }
  const path = await tempFile(
    "trials.jsonl",
    ds.map((d) => JSON.stringify(d)).join("\n"),
  );
  const out = JSON.parse(
    (await runCli([
      "compare",
      path,
      "--a",
      "a",
      "--b",
      "b",
      "--profile",
      "reconciliation",
      "--json",
    ])).stdout,
  );
  const d = out.differences.loss.reconciliation;
  assert.equal(out.tasks, 20);
  assert.equal(d.tasks, 20);
  // on 6 tasks one of a's three trials misses (K(HIGH) = 10): 10 / 3 per
  // task, trials averaged, so 20 over the tasks; b never misses
  assert.ok(Math.abs(d.estimate - 20) < 1e-9);
  assert.match(d.estimand, /each task's trials averaged/);
  // 6 tasks, each differing by 10 / 3: exact test, p = 2 / 64
  assert.equal(d.test, "sign-flip permutation, exact");
  assert.ok(Math.abs(d.pValue - 2 / 64) < 1e-12);
});
