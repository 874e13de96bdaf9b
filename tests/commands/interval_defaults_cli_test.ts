// The defaults that replaced a percentile bootstrap, through the CLI: each
// names its method, keeps the former keys, and gives the former interval back
// under --interval bootstrap; and score's wording for harness (verdict) runs.
import assert from "node:assert/strict";
import { runCli, tempDir } from "../_helpers.ts";
import { simulatedLedger } from "./_replay_ledger.ts";

const root = new URL("../../", import.meta.url).pathname;
const AB = `${root}data/examples/model_ab.jsonl`;
const LM_EVAL =
  `${root}data/examples/harness/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl`;

async function json(args: string[]) {
  const r = await runCli([...args, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

Deno.test("compare's accuracy difference is Newcombe's paired interval with a sign-flip test, the bootstrap under --interval bootstrap", async () => {
  const base = ["compare", AB, "--a", "A", "--b", "B", "--resamples", "200"];
  const doc = await json(base);
  const acc = doc.differences.accuracy;
  assert.equal(acc.interval, "newcombe");
  assert.match(acc.method, /newcombe/);
  assert.match(acc.test, /^sign-flip permutation/);
  for (const key of ["estimate", "lo", "hi", "level", "pValue", "pairs"]) {
    assert.ok(key in acc, key);
  }
  assert.ok(acc.lo <= acc.estimate && acc.estimate <= acc.hi);
  const boot = (await json([...base, "--interval", "bootstrap"])).differences
    .accuracy;
  assert.equal(boot.method, "percentile bootstrap");
  assert.equal(boot.estimate, acc.estimate);
});

Deno.test("score's R_w interval is Clopper-Pearson per cell by default and the bootstrap under --interval bootstrap", async () => {
  const args = ["score", AB, "--profile", "flat", "--resamples", "200"];
  const m = (await json(args)).models[0];
  const ci = m.intervals.severityWeightedRecall;
  assert.equal(ci.interval, "clopper-pearson");
  assert.match(ci.estimand, /R_w/);
  assert.ok(
    ci.lo <= m.severityWeightedRecall && m.severityWeightedRecall <= ci.hi,
  );
  const boot = (await json([...args, "--interval", "bootstrap"])).models[0]
    .intervals.severityWeightedRecall;
  assert.equal(boot.interval, "bootstrap");
  assert.equal(boot.method, "percentile bootstrap");
  const human = await runCli(args);
  assert.match(
    human.stdout,
    /R_w [0-9.]+ \[[0-9.]+, [0-9.]+\] \(95% Clopper-Pearson per cell\)/,
  );
});

Deno.test("score says graded answers and answered correctly for a harness run, exceptions and recall otherwise", async () => {
  const harness = await runCli(["score", LM_EVAL, "--severity", "HIGH"]);
  assert.equal(harness.code, 0, harness.stderr);
  assert.match(harness.stdout, /decisions \(\d+ graded answers\)/);
  assert.match(harness.stdout, /answered correctly 95% CI/);
  assert.doesNotMatch(harness.stdout, /exceptions\)|recall 95% CI/);
  const recon = await runCli(["score", AB, "--profile", "flat"]);
  assert.match(recon.stdout, /decisions \(\d+ exceptions\)/);
  assert.match(recon.stdout, /recall 95% CI/);
});

Deno.test("calibrate's ECE interval names its method and estimand; --interval bootstrap gives the former one", async () => {
  const run = `${await tempDir()}/run.jsonl`;
  const sim = await runCli([
    "simulate",
    "--tasks",
    `${root}data/tasks/reconciliation_777_300.jsonl`,
    "--model",
    "frontier_even",
    "--seed",
    "1",
    "--out",
    run,
  ]);
  assert.equal(sim.code, 0, sim.stderr);
  const doc = await json(["calibrate", run]);
  const ci = doc.eceInterval;
  assert.match(ci.method, /clopper-pearson/);
  assert.match(ci.estimand, /true rates/);
  assert.equal(ci.resamples, 0);
  assert.ok(ci.lo <= doc.ece && doc.ece <= ci.hi);
  const boot = (await json(["calibrate", run, "--interval", "bootstrap"]))
    .eceInterval;
  assert.match(boot.method, /bootstrap/);
  assert.match(boot.estimand, /expected binned ECE/);
  const bad = await runCli(["calibrate", run, "--interval", "wald"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--interval must be auto or bootstrap, got "wald"/);
});

Deno.test("replay's difference names its method and test; --interval bootstrap gives the former paired bootstrap", async () => {
  const path = await simulatedLedger(2, 300);
  const args = ["replay", path, "--threshold", "0.05", "--resamples", "200"];
  const d = (await json(args)).difference;
  assert.equal(d.interval, "auto");
  assert.match(d.test, /^sign-flip permutation/);
  assert.match(d.estimand, /conditional on which cases change/);
  assert.ok(d.lo <= d.estimate && d.estimate <= d.hi);
  const b = (await json([...args, "--interval", "bootstrap"])).difference;
  assert.equal(b.method, "percentile bootstrap");
  assert.equal(b.estimate, d.estimate);
  const bad = await runCli([...args, "--interval", "wald"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--interval must be auto or bootstrap, got "wald"/);
});
