import assert from "node:assert/strict";
import { decision, runCli, tempFile } from "../_helpers.ts";

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
  assert.match(stdout, /reconciliation\s+104\.4\s+n\/a/);
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
  assert.match(r.stderr, /expected one decisions file, got 0/);
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
  for (const cmd of ["profiles", "score", "reproduce"]) {
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
