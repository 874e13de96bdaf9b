import assert from "node:assert/strict";
import { decision, runCli, tempDir, tempFile } from "../_helpers.ts";

const EXAMPLE = "data/examples/model_ab.jsonl";

Deno.test("score --json keeps the contract keys and reproduces the divergence losses", async () => {
  const { code, stdout, stderr } = await runCli(["score", EXAMPLE, "--json"]);
  assert.equal(code, 0, stderr);
  const doc = JSON.parse(stdout);
  assert.deepEqual(doc.models.map((m: { modelId: string }) => m.modelId), [
    "A",
    "B",
  ]);
  for (const m of doc.models) {
    for (
      const key of [
        "modelId",
        "n",
        "accuracy",
        "errorsBySeverity",
        "recallBySeverity",
        "loss",
      ]
    ) {
      assert.ok(key in m, `missing ${key}`);
    }
    // default: all four shipped profiles
    assert.deepEqual(Object.keys(m.loss), [
      "flat",
      "reconciliation",
      "review_heavy",
      "principal_risk",
    ]);
    assert.deepEqual(Object.keys(m.errorsBySeverity), [
      "LOW",
      "MEDIUM",
      "HIGH",
      "CRITICAL",
    ]);
  }
  const [a, b] = doc.models;
  // the-third-number, divergence table, over the 800 exceptions
  assert.equal(a.n, 800);
  assert.equal(a.accuracy, 0.98);
  assert.equal(b.accuracy, 0.9225);
  assert.ok(Math.abs(a.loss.reconciliation - 104.4) < 1e-9);
  assert.ok(Math.abs(b.loss.reconciliation - 64) < 1e-9);
  assert.equal(a.loss.principal_risk, 10042);
  assert.equal(b.loss.principal_risk, 2420);
  assert.deepEqual(b.errorsBySeverity, {
    LOW: 20,
    MEDIUM: 40,
    HIGH: 2,
    CRITICAL: null,
  });
  assert.equal(b.recallBySeverity.CRITICAL, null);
  assert.equal(b.expectedLoss.flat, null);
  assert.equal(b.intervals.accuracy.method, "wilson");
});

Deno.test("score --profile selects profiles, repeats, and reads a profile file", async () => {
  const file = await tempFile(
    "desk.yaml",
    "id: desk\nversion: '1'\nK: { LOW: 1, MEDIUM: 1, HIGH: 100, CRITICAL: 100 }\nreviewCost: 2\n",
  );
  const { code, stdout } = await runCli([
    "score",
    EXAMPLE,
    "--profile",
    "flat",
    "--profile",
    file,
    "--json",
  ]);
  assert.equal(code, 0);
  const a = JSON.parse(stdout).models[0];
  assert.deepEqual(Object.keys(a.loss), ["flat", "desk"]);
  // by hand: 10 x 100 + 4 x 1 + 2 x 1 = 1006
  assert.equal(a.loss.desk, 1006);
});

Deno.test("score prints a human table with denominators and intervals", async () => {
  const { code, stdout } = await runCli([
    "score",
    EXAMPLE,
    "--profile",
    "reconciliation",
  ]);
  assert.equal(code, 0);
  assert.match(
    stdout,
    // Wilson 784/800 by Python NormalDist: [0.967760, 0.987652]
    /A: 800 decisions \(800 exceptions\), accuracy 98\.00% \[96\.78, 98\.77\] \(95% Wilson\)/,
  );
  assert.match(stdout, /reconciliation\s+104\.4\s+\[[0-9.]+, [0-9.]+\]\s+n\/a/);
});

Deno.test("score exits 2 with one line naming file, line and field on bad input", async () => {
  const lines = [decision(), { ...decision({ taskId: "t2" }), pCorrect: 1.3 }]
    .map((d) => JSON.stringify(d));
  const path = await tempFile("bad.jsonl", lines.join("\n") + "\n");
  const { code, stdout, stderr } = await runCli(["score", path]);
  assert.equal(code, 2);
  assert.equal(stdout, "");
  assert.equal(
    stderr.trim(),
    `lossbook score: Cannot load run export ${path}: line 2: pCorrect must be in [0, 1], got 1.3`,
  );
  assert.doesNotMatch(stderr, /\bat \S+:\d+:\d+/); // no stack trace
});

Deno.test("score exits 2 on invalid JSON, a missing file, an unknown profile and a bad flag", async () => {
  const path = await tempFile(
    "broken.jsonl",
    `${JSON.stringify(decision())}\n{"runId": \n`,
  );
  let r = await runCli(["score", path]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /line 2: invalid JSON/);
  r = await runCli(["score", "/nonexistent/run.jsonl"]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr.trim(),
    "lossbook score: Cannot read /nonexistent/run.jsonl: no such file",
  );
  r = await runCli(["score", EXAMPLE, "--profile", "recon"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Unknown cost profile "recon"/);
  r = await runCli(["score", EXAMPLE, "--frobnicate"]);
  assert.equal(r.code, 2);
  r = await runCli(["score"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /expected one or more run files, got none/);
});

Deno.test("profiles lists the four shipped profiles, as text and as JSON", async () => {
  const text = await runCli(["profiles"]);
  assert.equal(text.code, 0);
  assert.match(
    text.stdout,
    /principal_risk\s+1\s+10\s+1,000\s+100,000\s+100,000x/,
  );
  const json = await runCli(["profiles", "--json"]);
  const ids = JSON.parse(json.stdout).profiles.map((p: { id: string }) => p.id);
  assert.deepEqual(ids, [
    "flat",
    "reconciliation",
    "review_heavy",
    "principal_risk",
  ]);
});

Deno.test("--help works on every command with an example, and unknown commands exit 2", async () => {
  for (const cmd of ["profiles", "score", "compare", "simulate", "reproduce"]) {
    const r = await runCli([cmd, "--help"]);
    assert.equal(r.code, 0, cmd);
    assert.match(r.stdout, /Usage: /);
    assert.match(r.stdout, /Example:\n {2}deno task/);
  }
  const top = await runCli(["--help"]);
  assert.equal(top.code, 0);
  assert.match(
    top.stdout,
    /Exit codes: 0 success, 1 a check failed, 2 bad input or usage/,
  );
  const unknown = await runCli(["scroe"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "scroe"/);
});

Deno.test("score --format lossbench refuses to guess what calibrated_probability means", async () => {
  const r = await runCli([
    "score",
    "data/examples/lossbench_ledger.jsonl",
    "--format",
    "lossbench",
  ]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /say which with --probability correct\|error \(got nothing\)/,
  );
  const ok = await runCli([
    "score",
    "data/examples/lossbench_ledger.jsonl",
    "--format",
    "lossbench",
    "--probability",
    "correct",
    "--profile",
    "reconciliation",
    "--json",
  ]);
  assert.equal(ok.code, 0, ok.stderr);
  const doc = JSON.parse(ok.stdout);
  assert.deepEqual(doc.notes, { intermediateSteps: 1 });
  // small: a HIGH miss (10) and an escalation (1); see tests/lib/import/lossbench_test.ts
  assert.equal(
    doc.models.find((m: { modelId: string }) => m.modelId === "small").loss
      .reconciliation,
    11,
  );
});

Deno.test("score --mode strict and consequence differ only where a wrong type or false alarm is left automatic", async () => {
  const score = async (mode: string) =>
    JSON.parse(
      (await runCli([
        "score",
        "data/examples/reconforge_run.json",
        "--mode",
        mode,
        "--profile",
        "reconciliation",
        "--json",
      ]))
        .stdout,
    ).models[0];
  const strict = await score("strict");
  const consequence = await score("consequence");
  const reconforge = await score("reconforge");
  // by hand, reconciliation K: misses rf-004 HIGH 10, rf-008 LOW 0.2 (parse miss);
  // wrong types rf-002 HIGH, rf-006 MEDIUM, rf-007 MEDIUM (untyped); false alarm rf-011 LOW
  // strict: 10 + 0.2 + 10 + 1 + 1 + 0.2 = 22.4; consequence: 10 + 0.2 + 4 reviews = 14.2
  assert.ok(Math.abs(strict.loss.reconciliation - 22.4) < 1e-9);
  assert.ok(Math.abs(consequence.loss.reconciliation - 14.2) < 1e-9);
  // reconforge mode: HIGH recall counts any exception verdict (3 of 4), consequence needs the type (2 of 4)
  assert.equal(reconforge.recallBySeverity.HIGH, 0.75);
  assert.equal(consequence.recallBySeverity.HIGH, 0.5);
  assert.ok(Math.abs(reconforge.severityWeightedRecall - 3.7 / 5.9) < 1e-12);
  assert.ok(Array.isArray(reconforge.confusion));
  assert.ok(
    reconforge.confusion.some((c: { predClass: string }) =>
      c.predClass === "EXCEPTION_UNTYPED"
    ),
  );
});

Deno.test("score intervals are seeded: the same seed prints the same bytes", async () => {
  const args = [
    "score",
    EXAMPLE,
    "--profile",
    "principal_risk",
    "--json",
    "--resamples",
    "300",
  ];
  const a = await runCli([...args, "--seed", "7"]);
  const b = await runCli([...args, "--seed", "7"]);
  const c = await runCli([...args, "--seed", "8"]);
  assert.equal(a.stdout, b.stdout);
  assert.notEqual(a.stdout, c.stdout);
  const m = JSON.parse(a.stdout).models[0];
  assert.equal(m.intervals.loss.principal_risk.seed !== undefined, true);
  assert.ok(
    m.intervals.loss.principal_risk.lo < 10042 &&
      10042 < m.intervals.loss.principal_risk.hi,
  );
  assert.equal(m.severityWeightedRecall !== undefined, true);
  // recall of HIGH exceptions, by bootstrap; no CRITICAL exceptions, so that interval is null
  const high = m.intervals.recallBySeverityBootstrap.HIGH;
  assert.ok(high.lo < 0.98 && 0.98 < high.hi);
  assert.deepEqual([
    m.intervals.recallBySeverityBootstrap.CRITICAL.lo,
    m.intervals.recallBySeverityBootstrap.CRITICAL.estimate,
  ], [null, null]);
});

Deno.test("compare prints paired differences with intervals and p-values", async () => {
  const r = await runCli([
    "compare",
    EXAMPLE,
    "--a",
    "A",
    "--b",
    "B",
    "--profile",
    "principal_risk",
    "--json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.pairs, 800);
  // the-third-number: 10,042 - 2,420 = 7,622 under principal_risk; accuracy 98.0% - 92.25%
  assert.equal(doc.differences.loss.principal_risk.estimate, 7622);
  assert.ok(Math.abs(doc.differences.accuracy.estimate - 0.0575) < 1e-12);
  assert.ok(doc.differences.loss.principal_risk.lo > 0);
  const bad = await runCli(["compare", EXAMPLE, "--a", "A"]);
  assert.equal(bad.code, 2);
  const missing = await runCli(["compare", EXAMPLE, "--a", "A", "--b", "Z"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no decisions of model "Z"/);
});

Deno.test("simulate writes a seeded run export, refuses to overwrite it, and lists its models", async () => {
  const dir = await tempDir();
  const out = `${dir}/run.jsonl`;
  const args = [
    "simulate",
    "--tasks",
    "data/tasks/settlement_777_300.jsonl",
    "--model",
    "oracle",
    "--model",
    "frontier_even",
    "--seed",
    "3",
    "--out",
    out,
  ];
  const first = await runCli(args);
  assert.equal(first.code, 0, first.stderr);
  const text = await Deno.readTextFile(out);
  assert.equal(text.trim().split("\n").length, 600);
  const again = await runCli(args);
  assert.equal(again.code, 2);
  assert.match(
    again.stderr,
    new RegExp(
      `Cannot write ${out}: the file exists; pass --force to overwrite it`,
    ),
  );
  assert.equal(await Deno.readTextFile(out), text);
  const forced = await runCli([...args, "--force"]);
  assert.equal(forced.code, 0);
  assert.equal(await Deno.readTextFile(out), text);
  const list = await runCli(["simulate", "--list"]);
  assert.match(list.stdout, /small_severity_shaped\s+Small fine-tune/);
  const bad = await runCli([
    "simulate",
    "--tasks",
    "data/tasks/settlement_777_300.jsonl",
    "--model",
    "gpt",
    "--out",
    `${dir}/x.jsonl`,
  ]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown model "gpt"/);
});

Deno.test("score reads CSV, Arrow and Parquet exports, and Parquet through DuckDB, with the same figures", async () => {
  const { writeDecisions } = await import("../../lib/read/load_any.ts");
  const { loadDecisionsJsonl } = await import(
    "../../lib/read/load_decisions.ts"
  );
  const dir = await tempDir();
  const table = await loadDecisionsJsonl(EXAMPLE);
  const losses = async (args: string[]) => {
    const r = await runCli([
      "score",
      ...args,
      "--profile",
      "principal_risk",
      "--json",
      "--resamples",
      "10",
    ]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout).models.map((
      m: { loss: Record<string, number> },
    ) => m.loss.principal_risk);
  };
  for (const ext of ["csv", "arrow", "parquet"]) {
    await writeDecisions(`${dir}/ab.${ext}`, table);
    // the-third-number: 10,042 and 2,420 under principal_risk
    assert.deepEqual(await losses([`${dir}/ab.${ext}`]), [10042, 2420], ext);
  }
  assert.deepEqual(await losses([`${dir}/ab.parquet`, "--engine", "duckdb"]), [
    10042,
    2420,
  ]);
  const bad = await runCli(["score", `${dir}/ab.arrow`, "--engine", "duckdb"]);
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    /--engine duckdb reads \.parquet, \.csv and \.jsonl files/,
  );
});

Deno.test("an interval does not move when another profile is asked for in the same run", async () => {
  const one = await runCli([
    "score",
    EXAMPLE,
    "--profile",
    "principal_risk",
    "--json",
    "--resamples",
    "200",
  ]);
  const two = await runCli([
    "score",
    EXAMPLE,
    "--profile",
    "flat",
    "--profile",
    "principal_risk",
    "--json",
    "--resamples",
    "200",
  ]);
  const ci = (out: string) =>
    JSON.parse(out).models.map((
      m: { intervals: { loss: Record<string, unknown> } },
    ) => m.intervals.loss.principal_risk);
  assert.deepEqual(ci(one.stdout), ci(two.stdout));
  const c1 = await runCli([
    "compare",
    EXAMPLE,
    "--a",
    "A",
    "--b",
    "B",
    "--profile",
    "principal_risk",
    "--json",
    "--resamples",
    "200",
  ]);
  const c2 = await runCli([
    "compare",
    EXAMPLE,
    "--a",
    "A",
    "--b",
    "B",
    "--profile",
    "reconciliation",
    "--profile",
    "principal_risk",
    "--json",
    "--resamples",
    "200",
  ]);
  assert.deepEqual(
    JSON.parse(c1.stdout).differences.loss.principal_risk,
    JSON.parse(c2.stdout).differences.loss.principal_risk,
  );
});

Deno.test("reproduce --json prints its summary, and a foreign output folder exits 2 naming it", async () => {
  const dir = await tempDir();
  const ok = await runCli([
    "reproduce",
    "--only",
    "divergence",
    "--out",
    dir,
    "--no-png",
    "--no-api",
    "--json",
  ]);
  assert.equal(ok.code, 0, ok.stderr);
  const doc = JSON.parse(ok.stdout);
  assert.deepEqual([doc.claims, doc.failed, doc.failing], [15, 0, []]);
  const foreign = await tempDir();
  await Deno.writeTextFile(`${foreign}/thesis.tex`, "x");
  const refused = await runCli([
    "reproduce",
    "--only",
    "divergence",
    "--out",
    foreign,
    "--no-png",
    "--no-api",
  ]);
  assert.equal(refused.code, 2);
  assert.match(
    refused.stderr,
    new RegExp(`Cannot write ${foreign}/: .*thesis\\.tex.*pass --force`),
  );
});
