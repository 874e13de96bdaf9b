// The calibrate, escalate and breakeven commands: JSON contracts, agreement
// with the library, and exit codes.
import assert from "node:assert/strict";
import { runCli, tempFile } from "../_helpers.ts";
import { severitySuite } from "../../analyses/calibration.ts";
import { expectedCalibrationError } from "../../lib/calibration/calibration_error.ts";
import { outcomeColumns } from "../../lib/calibration/outcome_columns.ts";
import { getProfile } from "../../lib/costs/load.ts";
import {
  decisionsToJsonl,
  SIMULATED_MODELS,
  simulateRun,
} from "../../lib/tasks/simulate.ts";

const suite = severitySuite(600);
const over = simulateRun(suite, {
  ...SIMULATED_MODELS.frontier_even,
  errorRate: { LOW: 0.25, MEDIUM: 0.2, HIGH: 0.12, CRITICAL: 0.06, clean: 0.1 },
  concentration: 4,
}, { seed: 3 });
const calibrated = simulateRun(suite, {
  ...SIMULATED_MODELS.small_severity_shaped,
  errorRate: { LOW: 0.25, MEDIUM: 0.2, HIGH: 0.12, CRITICAL: 0.06, clean: 0.1 },
  concentration: 4,
}, { seed: 3 });
const RUN = await tempFile(
  "run.jsonl",
  decisionsToJsonl([...over, ...calibrated]),
);

Deno.test("calibrate --json has ece, mce, brier, bins {lo, hi, n, meanConfidence, accuracy} and costWeightedEce, as the library computes them", async () => {
  const r = await runCli(["calibrate", RUN, "--json", "--resamples", "200"]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  for (const k of ["ece", "mce", "brier", "bins", "costWeightedEce"]) {
    assert.ok(k in doc, k);
  }
  assert.equal(doc.bins.length, 10);
  for (const b of doc.bins) {
    assert.deepEqual(Object.keys(b), [
      "lo",
      "hi",
      "n",
      "meanConfidence",
      "accuracy",
    ]);
  }
  assert.equal(
    doc.bins.reduce((s: number, b: { n: number }) => s + b.n, 0),
    1200,
  );
  const pooled = outcomeColumns([...over, ...calibrated], {
    profile: getProfile("reconciliation"),
  });
  assert.ok(
    Math.abs(doc.ece - expectedCalibrationError(pooled.p, pooled.y).value!) <
      1e-12,
  );
  assert.deepEqual(doc.models.map((m: { modelId: string }) => m.modelId), [
    "frontier_even",
    "small_severity_shaped",
  ]);
  const [o, c] = doc.models;
  // the over-confident model clears its noise floor; the calibrated one does not
  assert.ok(o.eceInterval.lo > o.noiseFloor.quantile);
  assert.ok(c.ece < o.ece);
  assert.equal(doc.profile.id, "reconciliation");
});

Deno.test("calibrate --strategy equal-mass --bins 5 records its edges; bad options exit 2", async () => {
  const r = await runCli([
    "calibrate",
    RUN,
    "--strategy",
    "equal-mass",
    "--bins",
    "5",
    "--json",
    "--resamples",
    "50",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.strategy, "equal-mass");
  assert.ok(
    doc.edges.length <= 6 && doc.edges[0] === 0 && doc.edges.at(-1) === 1,
  );
  assert.equal(
    doc.nonEmptyBins,
    doc.bins.filter((b: { n: number }) => b.n > 0).length,
  );
  let bad = await runCli(["calibrate", RUN, "--strategy", "quantile"]);
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    /--strategy must be one of equal-width, equal-mass, got "quantile"/,
  );
  bad = await runCli(["calibrate", RUN, "--bins", "0"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--bins must be an integer >= 1, got 0/);
  bad = await runCli(["calibrate"]);
  assert.equal(bad.code, 2);
});

Deno.test("calibrate exits 2 when no decision states pCorrect", async () => {
  const path = await tempFile(
    "none.jsonl",
    decisionsToJsonl(over.slice(0, 5).map((d) => ({ ...d, pCorrect: null }))),
  );
  const r = await runCli(["calibrate", path]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /none of its 5 decisions states pCorrect, so there is nothing to calibrate/,
  );
});

Deno.test("escalate --json gives the optimal thresholds globally and per severity, the loss saved and risk-coverage points", async () => {
  const r = await runCli([
    "escalate",
    RUN,
    "--json",
    "--profile",
    "reconciliation",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  const m = doc.models.find((x: { modelId: string }) =>
    x.modelId === "frontier_even"
  );
  for (
    const k of [
      "global",
      "bySeverity",
      "perSeverity",
      "bayes",
      "lossSaved",
      "riskCoverage",
      "aurc",
      "eAurc",
    ]
  ) {
    assert.ok(k in m, k);
  }
  // the global optimum is the cheapest of every threshold, checked naively;
  // consequence matrix: a wrong predicted MATCH is a miss (K), any other wrong answer a review (1)
  assert.equal(doc.matrix, "consequence");
  const K = getProfile("reconciliation").K;
  const rows = over.map((d) => ({
    p: 1 - d.pCorrect!,
    err: d.predClass === d.trueClass ? 0 : 1,
    k: d.predClass === "MATCH" ? K[d.severity] : 1,
  }));
  const thresholds = [-1, ...new Set(rows.map((x) => x.p))];
  let best = Infinity;
  for (const t of thresholds) {
    best = Math.min(
      best,
      rows.reduce((s, x) => s + (x.p <= t ? x.err * x.k : 1), 0),
    );
  }
  assert.ok(Math.abs(m.global.cost - best) < 1e-9);
  assert.ok(m.perSeverity.cost <= m.global.cost + 1e-9);
  assert.ok(
    Math.abs(m.lossSaved - (m.costAllAuto - m.perSeverity.cost)) < 1e-9,
  );
  assert.equal(m.riskCoverage[0].coverage, 0);
  assert.equal(m.riskCoverage.at(-1).coverage, 1);
  assert.deepEqual(Object.keys(m.bySeverity), [
    "LOW",
    "MEDIUM",
    "HIGH",
    "CRITICAL",
  ]);
  // the Bayes rule's thresholds are reviewCost / cost if wrong: K(s) for a predicted MATCH,
  // a review for a predicted exception (never worth escalating), capped at 1
  assert.equal(m.bayes.thresholds.HIGH, 0.1);
  assert.equal(m.bayes.thresholds.LOW, 1);
  assert.equal(m.bayes.thresholdsIfFlagged.HIGH, 1);
  // --mode strict prices every automatic error at K(severity), as before
  const s = await runCli([
    "escalate",
    RUN,
    "--json",
    "--profile",
    "reconciliation",
    "--mode",
    "strict",
  ]);
  assert.equal(s.code, 0, s.stderr);
  const sdoc = JSON.parse(s.stdout);
  assert.equal(sdoc.matrix, "strict");
  const sm = sdoc.models.find((x: { modelId: string }) =>
    x.modelId === "frontier_even"
  );
  const strictAllAuto = over.reduce(
    (t, d) => t + (d.predClass === d.trueClass ? 0 : K[d.severity]),
    0,
  );
  assert.ok(Math.abs(sm.costAllAuto - strictAllAuto) < 1e-9);
  assert.equal(sm.bayes.thresholdsIfFlagged.HIGH, 0.1);
  const bad = await runCli(["escalate", RUN, "--mode", "lenient"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--mode must be one of consequence, strict/);
});

Deno.test("escalate prints thresholds, the Bayes rule and the risk-coverage curve", async () => {
  const r = await runCli([
    "escalate",
    RUN,
    "--profile",
    "principal_risk",
    "--points",
    "5",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /under principal_risk, consequence matrix \(a missed exception costs K\(severity\);.*\) \(review cost 1 error units\)/,
  );
  assert.match(r.stdout, /best global threshold: serve automatically iff/);
  assert.match(r.stdout, /risk-coverage in money:/);
  const bad = await runCli(["escalate", RUN, "--points", "1"]);
  assert.equal(bad.code, 2);
});

Deno.test("breakeven prints p* and its regime, as text and JSON", async () => {
  let r = await runCli([
    "breakeven",
    "--pj",
    "0.1",
    "--ce",
    "0.02",
    "--cr",
    "1",
  ]);
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout.trim(),
    "p* = 0.1 + 0.02/1 = 0.12: escalate a decision to the judge iff P(wrong) > 0.12",
  );
  r = await runCli([
    "breakeven",
    "--pj",
    "0.1",
    "--ce",
    "0.02",
    "--cr",
    "1",
    "--json",
  ]);
  const doc = JSON.parse(r.stdout);
  assert.ok(Math.abs(doc.pStar - 0.12) < 1e-12);
  assert.equal(doc.regime, "threshold");
  r = await runCli([
    "breakeven",
    "--pj",
    "0.4",
    "--ce",
    "0.6",
    "--cr",
    "1",
    "--json",
  ]);
  assert.equal(JSON.parse(r.stdout).regime, "never-pays");
  r = await runCli(["breakeven", "--pj", "0.4", "--ce", "0.6", "--cr", "1"]);
  assert.match(r.stdout, /escalation never pays/);
});

Deno.test("breakeven exits 2 on a missing, non-numeric or out-of-range value", async () => {
  let r = await runCli(["breakeven", "--pj", "0.1", "--ce", "0.02"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--cr is required/);
  r = await runCli(["breakeven", "--pj", "abc", "--ce", "0.02", "--cr", "1"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--pj must be a number, got "abc"/);
  r = await runCli(["breakeven", "--pj", "1.5", "--ce", "0.02", "--cr", "1"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /pj must be in \[0, 1\], got 1.5/);
  r = await runCli(["breakeven", "--pj", "0.1", "--ce", "0.02", "--cr", "0"]);
  assert.equal(r.code, 2);
});

Deno.test("calibrate, escalate and breakeven have --help with a runnable example", async () => {
  for (const cmd of ["calibrate", "escalate", "breakeven"]) {
    const r = await runCli([cmd, "--help"]);
    assert.equal(r.code, 0, cmd);
    assert.match(r.stdout, /Usage: lossbook /);
    assert.match(r.stdout, /Example:\n {2}deno task lossbook /);
  }
});
