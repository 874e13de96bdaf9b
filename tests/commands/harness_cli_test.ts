// The harness logs through the CLI: detection, the mapping flags, several
// files, the price of a wrong harness answer, import and export-tasks.
import assert from "node:assert/strict";
import { getProfile } from "../../lib/costs/load.ts";
import { readTasksJsonl } from "../../lib/tasks/load_tasks.ts";
import { runCli, tempDir } from "../_helpers.ts";

const root = new URL("../../", import.meta.url).pathname;
const QWEN = `${root}tests/fixtures/inspect/qwen.json`;
const SONNET = `${root}tests/fixtures/inspect/sonnet.json`;
const QWEN_EVAL = `${root}tests/fixtures/inspect/qwen_zstd.eval`;
const A = "ollama/qwen2.5:0.5b";
const B = "anthropic/claude-sonnet-4-0";
const PROFILES = ["flat", "reconciliation", "review_heavy", "principal_risk"];

async function json(args: string[]) {
  const r = await runCli([...args, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

Deno.test("compare of two inspect logs at --severity HIGH prices each wrong answer at K(HIGH), in every --mode", async () => {
  // on the 9 shared (task, epoch) pairs qwen is wrong 5 times, sonnet twice;
  // loss compares tasks, a task's epochs averaged: qwen's mean wrong answers
  // per task are 0, 1/2, 1, 0, 1 (2.5 in all), sonnet's 0, 0, 1/2, 0, 1/2 (1)
  for (const mode of ["consequence", "strict", "reconforge"]) {
    const doc = await json([
      "compare",
      QWEN,
      SONNET,
      "--format",
      "inspect",
      "--severity",
      "HIGH",
      "--a",
      A,
      "--b",
      B,
      "--mode",
      mode,
      "--resamples",
      "50",
    ]);
    assert.deepEqual(doc.files, [QWEN, SONNET]);
    assert.equal(doc.format, "inspect");
    assert.equal(doc.pairs, 9);
    for (const id of PROFILES) {
      const K = getProfile(id).K.HIGH;
      assert.equal(
        doc.differences.loss[id].estimate,
        (2.5 - 1) * K,
        `${mode}/${id}`,
      );
    }
    const score = await json([
      "score",
      QWEN,
      SONNET,
      "--severity",
      "HIGH",
      "--mode",
      mode,
      "--resamples",
      "20",
    ]);
    for (const m of score.models) {
      const wrong = m.errorsBySeverity.HIGH;
      for (const id of PROFILES) {
        assert.equal(
          m.loss[id],
          wrong * getProfile(id).K.HIGH,
          `${mode}/${m.modelId}/${id}`,
        );
      }
    }
    // a wrong verdict is never "caught": recall is the share right
    const q = score.models.find((m: { modelId: string }) => m.modelId === A);
    assert.equal(q.recallBySeverity.HIGH, 4 / 9);
  }
});

Deno.test("score says which cost matrix it used, in JSON and in the human report", async () => {
  const doc = await json([
    "score",
    QWEN_EVAL,
    "--severity",
    "HIGH",
    "--mode",
    "strict",
    "--resamples",
    "20",
  ]);
  assert.equal(doc.matrix, "strict");
  assert.equal(doc.file, QWEN_EVAL);
  assert.equal(doc.format, "inspect");
  assert.deepEqual(doc.pCorrectSources, {
    "agreement@2": 6,
    "logprob-token": 2,
    null: 1,
  });
  assert.deepEqual(
    doc.setAside.map((
      a: { taskId: string; outcome: string },
    ) => [a.taskId, a.outcome]),
    [["4", "harness_failure"]],
  );
  const r = await runCli([
    "score",
    QWEN_EVAL,
    "--severity",
    "HIGH",
    "--resamples",
    "20",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /\(inspect, consequence mode, consequence matrix\)/,
  );
  // the probability's provenance is printed on stderr
  assert.match(
    r.stderr,
    /pCorrect source: agreement@2 \(6\), logprob-token \(2\), none \(1\)/,
  );
});

Deno.test("a harness log without a severity source, or with two, exits 2 saying so", async () => {
  const none = await runCli(["score", QWEN]);
  assert.equal(none.code, 2);
  assert.equal(
    none.stderr.trim(),
    "lossbook score: a harness log holds no severity and lossbook does not invent one: give exactly one of --severity LEVEL, --severity-map FILE or --severity-field PATH",
  );
  const two = await runCli([
    "score",
    QWEN,
    "--severity",
    "HIGH",
    "--severity-field",
    "metadata.severity",
  ]);
  assert.equal(two.code, 2);
  assert.match(two.stderr, /got --severity and --severity-field/);
  const filter = await runCli([
    "score",
    QWEN,
    "--severity",
    "HIGH",
    "--filter",
    "none",
  ]);
  assert.equal(filter.code, 2);
  assert.match(
    filter.stderr,
    /--filter applies to --format lm-eval, not to inspect/,
  );
  const onDecisions = await runCli([
    "score",
    `${root}data/examples/model_ab.jsonl`,
    "--severity",
    "HIGH",
  ]);
  assert.equal(onDecisions.code, 2);
  assert.match(
    onDecisions.stderr,
    /--severity applies to the harness formats .*not to --format decisions/,
  );
});

Deno.test("a severity map keyed on a metadata field gives each decision its severity, and an uncovered item is refused", async () => {
  const dir = await tempDir();
  const map = `${dir}/map.json`;
  await Deno.writeTextFile(
    map,
    JSON.stringify({
      AMOUNT_MISMATCH: "CRITICAL",
      BENEFICIARY_MISMATCH: "HIGH",
      VALUE_DATE_MISMATCH: "MEDIUM",
      DUPLICATE: "LOW",
      MATCH: "LOW",
    }),
  );
  const doc = await json([
    "score",
    QWEN,
    "--severity-map",
    map,
    "--severity-map-key",
    "field:metadata.class",
    "--resamples",
    "20",
  ]);
  const m = doc.models[0];
  // sample 1 (AMOUNT_MISMATCH) is right both times; 2 (MATCH) once wrong
  assert.equal(m.errorsBySeverity.CRITICAL, 0);
  assert.equal(m.errorsBySeverity.LOW, 3);
  await Deno.writeTextFile(
    map,
    JSON.stringify({ AMOUNT_MISMATCH: "CRITICAL" }),
  );
  const r = await runCli([
    "score",
    QWEN,
    "--severity-map",
    map,
    "--severity-map-key",
    "field:metadata.class",
  ]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    new RegExp(
      `^lossbook score: Cannot import inspect log .*qwen\\.json: sample 2 epoch 1: severity map .*map\\.json does not cover metadata\\.class "MATCH"\\n$`,
    ),
  );
});

Deno.test("format detection: a .json that is neither ReconForge nor inspect is refused naming both; mixed formats are refused", async () => {
  const dir = await tempDir();
  const other = `${dir}/other.json`;
  await Deno.writeTextFile(other, JSON.stringify({ hello: "world" }));
  const r = await runCli(["score", other]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /neither a ReconForge per-task file .* nor an inspect_ai log/,
  );
  const mixed = await runCli([
    "score",
    QWEN,
    `${root}data/examples/reconforge_run.json`,
    "--severity",
    "HIGH",
  ]);
  assert.equal(mixed.code, 2);
  assert.match(
    mixed.stderr,
    /all input files must share one format, got .*qwen\.json \(inspect\), .*reconforge_run\.json \(reconforge\)/,
  );
  // detection keeps the old readings
  const rf = await json([
    "score",
    `${root}data/examples/reconforge_run.json`,
    "--resamples",
    "20",
  ]);
  assert.equal(rf.format, "reconforge");
  const ab = await json([
    "score",
    `${root}data/examples/model_ab.jsonl`,
    "--resamples",
    "20",
  ]);
  assert.equal(ab.format, "decisions");
  assert.equal(ab.file, `${root}data/examples/model_ab.jsonl`);
});

Deno.test("several run exports are concatenated, and a decision repeated across files is refused", async () => {
  const dir = await tempDir();
  const lines = (await Deno.readTextFile(`${root}data/examples/model_ab.jsonl`))
    .trim().split("\n");
  await Deno.writeTextFile(
    `${dir}/a.jsonl`,
    lines.slice(0, 10).join("\n") + "\n",
  );
  await Deno.writeTextFile(`${dir}/b.jsonl`, lines.slice(10).join("\n") + "\n");
  const whole = await json([
    "score",
    `${root}data/examples/model_ab.jsonl`,
    "--resamples",
    "20",
  ]);
  const parts = await json([
    "score",
    `${dir}/a.jsonl`,
    `${dir}/b.jsonl`,
    "--resamples",
    "20",
  ]);
  assert.deepEqual(parts.files, [`${dir}/a.jsonl`, `${dir}/b.jsonl`]);
  assert.equal(parts.file, undefined);
  assert.equal(parts.decisions, whole.decisions);
  assert.deepEqual(
    parts.models.map((m: { loss: unknown }) => m.loss),
    whole.models.map((m: { loss: unknown }) => m.loss),
  );
  const twice = await runCli(["score", `${dir}/a.jsonl`, `${dir}/a.jsonl`]);
  assert.equal(twice.code, 2);
  assert.match(
    twice.stderr,
    /Cannot combine .*a\.jsonl: its decision for runId .* repeats one in .*a\.jsonl/,
  );
});

Deno.test("an lm-eval log, whose reader refuses a repeated doc_id itself, still has its keys checked against another log's", async () => {
  const log =
    "data/examples/harness/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl";
  const flags = ["--format", "lm-eval", "--severity-field", "doc.severity"];
  const once = await runCli(["score", log, ...flags, "--json"]);
  assert.equal(once.code, 0, once.stderr);
  const twice = await runCli(["score", log, log, ...flags]);
  assert.equal(twice.code, 2);
  assert.match(
    twice.stderr,
    /Cannot combine .*samples_recon_mc_.*\.jsonl: its decision for runId .* taskId "recon_mc\/0", trial 0 repeats one in .*samples_recon_mc_.*\.jsonl/,
  );
});

Deno.test("lossbook import writes the decisions once; scoring them equals scoring the log; it never overwrites an input or an existing file without --force", async () => {
  const dir = await tempDir();
  const out = `${dir}/qwen.jsonl`;
  const imp = await json([
    "import",
    QWEN_EVAL,
    "--severity-field",
    "metadata.severity",
    "--out",
    out,
  ]);
  assert.equal(imp.decisions, 9);
  assert.equal(imp.format, "inspect");
  const lines = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.equal(lines.length, 9);
  assert.ok(lines.every((d) => "pCorrectSource" in d));
  const fromLog = await json([
    "score",
    QWEN_EVAL,
    "--severity-field",
    "metadata.severity",
    "--resamples",
    "20",
  ]);
  const fromImport = await json(["score", out, "--resamples", "20"]);
  assert.deepEqual(fromImport.models, fromLog.models);
  const again = await runCli([
    "import",
    QWEN_EVAL,
    "--severity",
    "HIGH",
    "--out",
    out,
  ]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /the file exists; pass --force to overwrite it/);
  const copy = `${dir}/log.json`;
  await Deno.copyFile(QWEN, copy);
  const onInput = await runCli([
    "import",
    copy,
    "--severity",
    "HIGH",
    "--out",
    copy.replace(".json", ".jsonl"),
  ]);
  assert.equal(onInput.code, 0, onInput.stderr);
  const self = await runCli([
    "import",
    out,
    "--format",
    "inspect",
    "--severity",
    "HIGH",
    "--out",
    out,
    "--force",
  ]);
  assert.equal(self.code, 2);
  assert.match(
    self.stderr,
    /--out .* is the same file as the input log .*never overwrites an input, not even with --force/,
  );
});

Deno.test("calibrate --by-source reports each probability provenance on its own", async () => {
  const doc = await json([
    "calibrate",
    QWEN,
    SONNET,
    "--severity",
    "HIGH",
    "--by-source",
    "--resamples",
    "20",
    "--bins",
    "2",
  ]);
  assert.deepEqual(
    doc.sources.map((
      s: { pCorrectSource: string; n: number },
    ) => [s.pCorrectSource, s.n]),
    [["agreement@2", 16], ["logprob-token", 2]],
  );
  assert.equal(doc.n, 18);
});

Deno.test("ledger append takes harness logs with the same mapping flags and keeps each probability's source", async () => {
  const dir = await tempDir();
  const ledger = `${dir}/ledger.jsonl`;
  const r = await runCli([
    "ledger",
    "append",
    ledger,
    QWEN,
    "--severity",
    "HIGH",
    "--at",
    "2026-03-01T09:00:00Z",
    "--json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).decisions, 9);
  const first = JSON.parse((await Deno.readTextFile(ledger)).split("\n")[0]);
  assert.equal(first.record.decision.pCorrectSource, "agreement@2");
  assert.equal(first.record.decision.answer, "No.");
});

Deno.test("export-tasks writes an inspect dataset; a log of it in inspect's format scores back with --severity-field metadata.severity", async () => {
  const dir = await tempDir();
  const suite = `${dir}/suite.jsonl`;
  const all =
    (await Deno.readTextFile(`${root}data/tasks/reconciliation_777_300.jsonl`))
      .split("\n");
  await Deno.writeTextFile(suite, all.slice(0, 40).join("\n") + "\n");
  const dataset = `${dir}/dataset.jsonl`;
  const exp = await json([
    "export-tasks",
    suite,
    "--format",
    "inspect",
    "--out",
    dataset,
  ]);
  assert.equal(exp.samples, 40);
  const records = (await Deno.readTextFile(dataset)).trim().split("\n").map((
    l,
  ) => JSON.parse(l));
  const tasks = await readTasksJsonl(suite);
  assert.deepEqual(records.map((r) => r.id), tasks.map((t) => t.id));
  assert.deepEqual(
    records.map((r) => r.metadata.severity),
    tasks.map((t) => t.gold.severity),
  );
  // a log written in inspect's format from the dataset: samples carry the
  // dataset's id, input, target and metadata; every third answer is wrong
  const samples = records.map((r, i) => ({
    id: r.id,
    epoch: 1,
    input: r.input,
    target: r.target,
    metadata: r.metadata,
    scores: {
      includes: {
        value: i % 3 === 0 ? "I" : "C",
        answer: i % 3 === 0 ? "MATCH" : r.target,
      },
    },
    model_usage: {
      "ollama/qwen2.5:0.5b": {
        input_tokens: 900,
        output_tokens: 30,
        total_tokens: 930,
      },
    },
    total_time: 1.5,
  }));
  const log = `${dir}/log.json`;
  await Deno.writeTextFile(
    log,
    JSON.stringify(
      {
        version: 2,
        status: "success",
        eval: {
          run_id: "roundtrip",
          model: "ollama/qwen2.5:0.5b",
          task: "lossbook_recon",
          created: "2026-11-30T10:00:00Z",
          dataset: { name: "dataset", location: dataset },
        },
        samples,
      },
      null,
      2,
    ),
  );
  const doc = await json([
    "score",
    log,
    "--severity-field",
    "metadata.severity",
    "--resamples",
    "20",
  ]);
  assert.equal(doc.decisions, 40);
  const m = doc.models[0];
  for (const s of ["LOW", "MEDIUM", "HIGH", "CRITICAL"]) {
    const n = tasks.filter((t) => t.gold.severity === s).length;
    const wrong = tasks.filter((t, i) =>
      t.gold.severity === s && i % 3 === 0
    ).length;
    assert.equal(m.errorsBySeverity[s], n === 0 ? null : wrong, s);
  }
  const ref = getProfile("principal_risk").K;
  const expected = tasks.reduce(
    (sum, t, i) => sum + (i % 3 === 0 ? ref[t.gold.severity] : 0),
    0,
  );
  assert.equal(m.loss.principal_risk, expected);
  const twice = await runCli([
    "export-tasks",
    suite,
    "--format",
    "inspect",
    "--out",
    dataset,
  ]);
  assert.equal(twice.code, 2);
  const wrongFormat = await runCli([
    "export-tasks",
    suite,
    "--format",
    "helm",
    "--out",
    `${dir}/x.jsonl`,
  ]);
  assert.equal(wrongFormat.code, 2);
  assert.match(wrongFormat.stderr, /--format must be inspect/);
});

Deno.test("score gives the same result on the deflate, zstd, chunked and .json forms of one inspect run", async () => {
  const forms = [
    "qwen_deflate.eval",
    "qwen_zstd.eval",
    "qwen_chunked.eval",
    "qwen.json",
  ];
  const docs = [];
  for (const f of forms) {
    docs.push(
      await json([
        "score",
        `${root}tests/fixtures/inspect/${f}`,
        "--severity-field",
        "metadata.severity",
        "--resamples",
        "20",
      ]),
    );
  }
  for (const d of docs.slice(1)) {
    assert.deepEqual(d.models, docs[0].models);
    assert.deepEqual(d.pCorrectSources, docs[0].pCorrectSources);
    assert.equal(d.decisions, 9);
  }
});

Deno.test("import --out JSONL is written as the decisions are made, into a file beside it that takes its place: a log refused on the way leaves the old --out and nothing else", async () => {
  const dir = await tempDir();
  const out = `${dir}/decisions.jsonl`;
  const importQwen = (...args: string[]) =>
    runCli(["import", QWEN_EVAL, "--severity", "HIGH", ...args]);
  const first = await importQwen("--out", out);
  assert.equal(first.code, 0, first.stderr);
  await Deno.chmod(out, 0o640);
  const before = await Deno.readTextFile(out);
  // a scorer no sample has: refused once every sample is read
  const refused = await importQwen("--scorer", "nope", "--out", out, "--force");
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /--scorer nope: no sample has that scorer/);
  assert.equal(await Deno.readTextFile(out), before);
  const names = async () =>
    (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
  assert.deepEqual(await names(), ["decisions.jsonl"]);
  // written again, the file keeps its mode, and a link to it is followed
  await Deno.symlink(out, `${dir}/link.jsonl`);
  const again = await importQwen("--out", `${dir}/link.jsonl`, "--force");
  assert.equal(again.code, 0, again.stderr);
  assert.equal(await Deno.readTextFile(out), before);
  assert.equal((await Deno.stat(out)).mode! & 0o777, 0o640);
  assert.ok((await Deno.lstat(`${dir}/link.jsonl`)).isSymlink);
  assert.deepEqual(await names(), ["decisions.jsonl", "link.jsonl"]);
});

Deno.test("two harness logs holding one decision key are refused, naming the key and the file that had it first", async () => {
  const dir = await tempDir();
  for (const name of ["a.eval", "b.eval"]) {
    await Deno.copyFile(QWEN_EVAL, `${dir}/${name}`);
  }
  for (const command of ["score", "import"]) {
    const r = await runCli([
      command,
      `${dir}/a.eval`,
      `${dir}/b.eval`,
      "--severity",
      "HIGH",
      ...(command === "import" ? ["--out", `${dir}/d.jsonl`] : []),
    ]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /Cannot combine .*b\.eval: its decision for runId ".*", modelId ".*", taskId ".*", trial \d+ repeats one in .*a\.eval\n$/,
    );
  }
  assert.deepEqual(
    (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort(),
    ["a.eval", "b.eval"],
  );
});
