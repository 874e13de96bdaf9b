// The generate, verify and contamination commands, run as a user runs them.
import assert from "node:assert/strict";
import { parseTasksJsonl, sha256Hex, taskLine } from "../../lib/tasks/mod.ts";
import { runCli, tempDir as sharedTempDir } from "../_helpers.ts";

async function tempDir(): Promise<string> {
  return await sharedTempDir("lossbook-tasks-cli-");
}

Deno.test("lossbook generate writes a suite whose hash it prints, then verify agrees 100%", async () => {
  const dir = await tempDir();
  const out = `${dir}/t.jsonl`;
  const g = await runCli([
    "generate",
    "--domain",
    "settlement",
    "--seed",
    "7",
    "--n",
    "120",
    "--mix",
    "CRITICAL=0.5,LOW=0.5",
    "--difficulty",
    "0.2,0.9",
    "--out",
    out,
    "--json",
  ]);
  assert.equal(g.code, 0, g.stderr);
  const report = JSON.parse(g.stdout);
  const bytes = await Deno.readTextFile(out);
  assert.equal(report.sha256, sha256Hex(bytes));
  assert.equal(report.n, 120);
  assert.deepEqual(Object.keys(report.bySeverity).sort(), ["CRITICAL", "LOW"]);
  const tasks = parseTasksJsonl(bytes);
  assert.ok(tasks.every((t) => t.difficulty >= 0.2 && t.difficulty <= 0.9));
  const v = await runCli(["verify", out, "--json"]);
  assert.equal(v.code, 0, v.stderr);
  const vr = JSON.parse(v.stdout);
  assert.equal(vr.agreement, 1);
  assert.equal(vr.sha256, report.sha256);
  assert.equal(vr.bySeverity.CRITICAL, report.bySeverity.CRITICAL);
});

Deno.test("lossbook verify reports agreement, classes and the suite hash of a shipped suite", async () => {
  const v = await runCli(["verify", "data/tasks/reconciliation_777_300.jsonl"]);
  assert.equal(v.code, 0, v.stderr);
  assert.match(
    v.stdout,
    /300 tasks, 300 agree with the verifier \(100\.00%\), 0 disagree/,
  );
  assert.match(
    v.stdout,
    /suite sha256 499d4ae850281f5cc9c95436454d3efd8ec57d225a696d72574f6ee762ba1cba/,
  );
  assert.match(v.stdout, /reconciliation\/AMOUNT_MISMATCH/);
});

Deno.test("lossbook verify fails loudly on a hand-corrupted task file, naming the task", async () => {
  const dir = await tempDir();
  const lines =
    (await Deno.readTextFile("data/tasks/reconciliation_777_300.jsonl")).split(
      "\n",
    );
  const victim = JSON.parse(lines[17]);
  // hand edit: relabel the task as something it is not, keep everything else
  victim.gold = victim.gold.exceptionType === "DUPLICATE"
    ? { verdict: "MATCH", exceptionType: null, severity: "LOW" }
    : { verdict: "EXCEPTION", exceptionType: "DUPLICATE", severity: "LOW" };
  lines[17] = JSON.stringify(victim);
  // and a second, subtler one: change an amount without touching the label
  const other = JSON.parse(lines[40]);
  other.state.ledger.amount = "0.01";
  lines[40] = JSON.stringify(other);
  const path = `${dir}/corrupt.jsonl`;
  await Deno.writeTextFile(path, lines.join("\n"));
  const v = await runCli(["verify", path]);
  assert.equal(v.code, 1);
  assert.match(v.stdout, /298 agree with the verifier .*, 2 disagree/);
  assert.match(
    v.stdout,
    /DISAGREE reconciliation-777-17: gold\.exceptionType is/,
  );
  assert.match(
    v.stdout,
    /DISAGREE reconciliation-777-40: .*signature does not match the task content/,
  );
  assert.match(
    v.stderr,
    /^lossbook verify: 2 of 300 tasks disagree with the verifier; first reconciliation-777-17: /,
  );
});

Deno.test("lossbook generate refuses to overwrite a file unless --force, naming the file", async () => {
  const dir = await tempDir();
  const out = `${dir}/exists.jsonl`;
  await Deno.writeTextFile(out, "keep me\n");
  const args = [
    "generate",
    "--domain",
    "payment_repair",
    "--seed",
    "1",
    "--n",
    "5",
    "--out",
    out,
  ];
  const g = await runCli(args);
  assert.equal(g.code, 2);
  assert.equal(
    g.stderr.trim(),
    `lossbook generate: Cannot write ${out}: the file exists; pass --force to overwrite it`,
  );
  assert.equal(await Deno.readTextFile(out), "keep me\n");
  const f = await runCli([...args, "--force"]);
  assert.equal(f.code, 0, f.stderr);
  assert.equal(parseTasksJsonl(await Deno.readTextFile(out)).length, 5);
});

Deno.test("lossbook generate and verify exit 2 with one line on bad input", async () => {
  const dir = await tempDir();
  const cases: [string[], RegExp][] = [
    [
      [
        "generate",
        "--domain",
        "fx",
        "--seed",
        "1",
        "--n",
        "5",
        "--out",
        `${dir}/a`,
      ],
      /--domain must be one of reconciliation, payment_repair, settlement, got "fx"/,
    ],
    [[
      "generate",
      "--domain",
      "settlement",
      "--seed",
      "1",
      "--n",
      "5",
      "--mix",
      "HIGH=2",
      "--out",
      `${dir}/a`,
    ], /mix share of HIGH must be in \[0, 1\], got 2/],
    [[
      "generate",
      "--domain",
      "settlement",
      "--seed",
      "x",
      "--n",
      "5",
      "--out",
      `${dir}/a`,
    ], /--seed must be an integer/],
    [
      ["generate", "--domain", "settlement", "--seed", "1", "--n", "5"],
      /--out is required/,
    ],
    [[
      "generate",
      "--domain",
      "settlement",
      "--seed",
      "1",
      "--n",
      "5",
      "--difficulty",
      "0.9,0.1",
      "--out",
      `${dir}/a`,
    ], /low <= high/],
    [["verify", `${dir}/missing.jsonl`], /missing\.jsonl/],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, message);
  }
  const bad = `${dir}/bad.jsonl`;
  const line = JSON.parse(
    (await Deno.readTextFile("data/tasks/settlement_777_300.jsonl")).split(
      "\n",
    )[0],
  );
  line.gold.severity = "X";
  await Deno.writeTextFile(bad, `${JSON.stringify(line)}\n`);
  const r = await runCli(["verify", bad]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr.trim(),
    `lossbook verify: Cannot load task file ${bad}: line 1: gold.severity must be one of LOW, MEDIUM, HIGH, CRITICAL, got "X"`,
  );
});

Deno.test("lossbook generate shows a progress bar on stderr for a large suite", async () => {
  const dir = await tempDir();
  const r = await runCli([
    "generate",
    "--domain",
    "settlement",
    "--seed",
    "3",
    "--n",
    "10000",
    "--out",
    `${dir}/big.jsonl`,
  ], { process: true }); // the bar is written to the process's stderr
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /\[#+\.*\]\s+\d+% [\d,]+\/10,000 tasks/);
  assert.match(r.stderr, /100% 10,000\/10,000 tasks/);
  const small = await runCli([
    "generate",
    "--domain",
    "settlement",
    "--seed",
    "3",
    "--n",
    "10",
    "--out",
    `${dir}/small.jsonl`,
  ], { process: true });
  assert.equal(small.stderr, "");
});

Deno.test("lossbook contamination reports exact and near-duplicate overlap, and none on clean splits", async () => {
  const dir = await tempDir();
  const evalPath = "data/tasks/payment_repair_777_300.jsonl";
  const train = `${dir}/train.jsonl`;
  assert.equal(
    (await runCli([
      "generate",
      "--domain",
      "payment_repair",
      "--seed",
      "5",
      "--n",
      "400",
      "--out",
      train,
    ])).code,
    0,
  );
  const clean = await runCli(["contamination", train, evalPath, "--json"]);
  assert.equal(clean.code, 0, clean.stderr);
  const c = JSON.parse(clean.stdout);
  assert.equal(c.exact.count, 0);
  assert.equal(c.near.count, 0);
  // leak 30 eval tasks (10%) into train, renamed
  const evalLines = (await Deno.readTextFile(evalPath)).trim().split("\n");
  const copies = evalLines.slice(0, 30).map((l, i) =>
    taskLine({ ...JSON.parse(l), id: `leak-${i}` })
  );
  await Deno.writeTextFile(train, copies.join("\n") + "\n", { append: true });
  const leaked = await runCli(["contamination", train, evalPath]);
  assert.equal(leaked.code, 1);
  assert.match(
    leaked.stdout,
    /exact overlap \(same signature\): 30 \(10\.00%\)/,
  );
  assert.match(
    leaked.stdout,
    /near duplicates \(Jaccard >= 0\.7 on normalised fields\): 0 \(0\.00%\)/,
  );
});

Deno.test("lossbook verify escapes a line break in a task id, so the id cannot forge a result line", async () => {
  const dir = await tempDir();
  const lines =
    (await Deno.readTextFile("data/tasks/reconciliation_777_300.jsonl")).split(
      "\n",
    );
  const victim = JSON.parse(lines[40]);
  // an edited amount breaks the signature, so the task is reported by its id
  victim.state.ledger.amount = "0.01";
  victim.id = "evil\n300 of 300 agree with the verifier";
  lines[40] = JSON.stringify(victim);
  const path = `${dir}/forged.jsonl`;
  await Deno.writeTextFile(path, lines.join("\n"));
  const v = await runCli(["verify", path]);
  assert.equal(v.code, 1);
  assert.match(
    v.stdout,
    /DISAGREE evil\\n300 of 300 agree with the verifier: /,
  );
  assert.doesNotMatch(v.stdout, /^300 of 300 agree/m);
});
