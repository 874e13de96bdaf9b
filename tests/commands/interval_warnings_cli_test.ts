// A method that fell below 0.93 in the coverage study stays selectable, with
// a warning naming its measured coverage: a `warning:` line on standard
// error from the CLI, the same lines under `warnings` in the JSON document
// (and so in the library's); a method that holds prints none and the key is
// absent.
import assert from "node:assert/strict";
import { calibrate, compare, score } from "../../mod.ts";
import {
  COVERAGE_SHORTFALLS,
  intervalWarnings,
} from "../../lib/metrics/interval_warnings.ts";
import { runCli } from "../_helpers.ts";
import { simulatedLedger } from "./_replay_ledger.ts";

const root = new URL("../../", import.meta.url).pathname;
const AB = `${root}data/examples/model_ab.jsonl`;
const LM_EVAL =
  `${root}data/examples/harness/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl`;

// the warnings on standard error, without their prefix
function stderrWarnings(stderr: string): string[] {
  return stderr.split("\n").filter((l) => l.startsWith("warning: ")).map((
    l,
  ) => l.slice("warning: ".length));
}

async function cli(args: string[]) {
  const r = await runCli([...args, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return { doc: JSON.parse(r.stdout), warnings: stderrWarnings(r.stderr) };
}

Deno.test("score --interval jeffreys and bootstrap warn with the study's worst coverage, on stderr and under warnings; auto, cp-gamma and fay-feuer do not", async () => {
  const base = ["score", AB, "--profile", "flat", "--resamples", "100"];
  const boot = await cli([...base, "--interval", "bootstrap"]);
  assert.equal(boot.warnings.length, 2);
  assert.deepEqual(boot.doc.warnings, boot.warnings);
  assert.match(
    boot.warnings[0],
    /^--interval bootstrap: the loss interval covered as few as 0\.01 of simulated suites at nominal 0\.95 in lossbook's coverage study/,
  );
  assert.match(
    boot.warnings[1],
    /the severity-weighted recall interval covered as few as 0\.83/,
  );
  const jeffreys = await cli([...base, "--interval", "jeffreys"]);
  assert.deepEqual(jeffreys.warnings, jeffreys.doc.warnings);
  assert.match(jeffreys.warnings[0], /covered as few as 0\.00/);
  assert.equal(jeffreys.warnings.length, 1);
  for (
    const held of [[], ["--interval", "cp-gamma"], ["--interval", "fay-feuer"]]
  ) {
    const r = await cli([...base, ...held]);
    assert.deepEqual(r.warnings, []);
    assert.ok(!("warnings" in r.doc), held.join(" "));
  }
  // the human report warns too
  const human = await runCli([...base, "--interval", "bootstrap"]);
  assert.deepEqual(stderrWarnings(human.stderr), boot.warnings);
  // the library's document carries the same lines
  const doc = await score([AB], {
    profiles: ["flat"],
    resamples: 100,
    interval: "bootstrap",
  });
  assert.deepEqual(doc.warnings, boot.warnings);
  assert.ok(!("warnings" in await score([AB], { profiles: ["flat"] })));
});

Deno.test("compare and calibrate --interval bootstrap warn for each interval the bootstrap gives", async () => {
  const pair = ["compare", AB, "--a", "A", "--b", "B", "--resamples", "100"];
  const c = await cli([...pair, "--interval", "bootstrap"]);
  assert.deepEqual(c.warnings, intervalWarnings("compare", "bootstrap"));
  assert.deepEqual(c.doc.warnings, c.warnings);
  assert.match(
    c.warnings[0],
    /loss-difference interval covered as few as 0\.08/,
  );
  assert.match(
    c.warnings[1],
    /accuracy-difference interval covered as few as 0\.84/,
  );
  assert.ok(!("warnings" in (await cli(pair)).doc));
  const lib = await compare([AB], {
    a: "A",
    b: "B",
    resamples: 100,
    interval: "bootstrap",
  });
  assert.deepEqual(lib.warnings, c.warnings);

  const calArgs = ["calibrate", LM_EVAL, "--severity", "HIGH"];
  const cal = await cli([...calArgs, "--interval", "bootstrap"]);
  assert.equal(cal.warnings.length, 1);
  assert.match(cal.warnings[0], /the ECE interval covered as few as 0\.00/);
  assert.deepEqual(cal.doc.warnings, cal.warnings);
  assert.ok(!("warnings" in (await cli(calArgs)).doc));
  const libCal = await calibrate([LM_EVAL], {
    severity: "HIGH",
    interval: "bootstrap",
  });
  assert.deepEqual(libCal.warnings, cal.warnings);
});

Deno.test("replay --interval bootstrap warns; its default does not", async () => {
  const path = await simulatedLedger(1, 200);
  const args = ["replay", path, "--threshold", "0.05", "--resamples", "100"];
  const boot = await cli([...args, "--interval", "bootstrap"]);
  assert.deepEqual(boot.warnings, intervalWarnings("replay", "bootstrap"));
  assert.match(
    boot.warnings[0],
    /the paired replay interval covered as few as 0\.00/,
  );
  assert.deepEqual(boot.doc.warnings, boot.warnings);
  const auto = await cli(args);
  assert.deepEqual(auto.warnings, []);
  assert.ok(!("warnings" in auto.doc));
});

Deno.test("every shortfall quotes a coverage below the study's floor and is reachable from its command", () => {
  for (const s of Object.values(COVERAGE_SHORTFALLS)) {
    assert.ok(s.worstCoverage < 0.93, JSON.stringify(s));
    assert.ok(intervalWarnings(s.command, s.interval).length > 0);
  }
  for (const command of ["score", "compare", "calibrate", "replay"] as const) {
    assert.deepEqual(intervalWarnings(command, "auto"), []);
  }
});
