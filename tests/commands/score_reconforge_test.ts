// The CLI on ReconForge files: the published shapes score, the probability
// source is printed and can be chosen, and a bad file exits 2 with one line.
import assert from "node:assert/strict";
import { runCli, tempFile } from "../_helpers.ts";

const FRONTIER = "tests/fixtures/reconforge/frontier_like.json";
const FINE_TUNE = "tests/fixtures/reconforge/fine_tune_like.json";

Deno.test("score --mode reconforge on a frontier-style file prints the file's own accuracy, R_w and caught recall", async () => {
  const { code, stdout, stderr } = await runCli([
    "score",
    FRONTIER,
    "--mode",
    "reconforge",
    "--json",
  ]);
  assert.equal(code, 0, stderr);
  const file = JSON.parse(await Deno.readTextFile(FRONTIER)).metrics;
  const m = JSON.parse(stdout).models[0];
  assert.equal(m.modelId, "frontier-fixture");
  assert.ok(Math.abs(m.accuracy - file.accuracy) <= 5e-5);
  assert.ok(
    Math.abs(m.severityWeightedRecall - file.severity_weighted_recall) <= 5e-5,
  );
  for (const level of ["HIGH", "MEDIUM", "LOW"]) {
    assert.ok(
      Math.abs(m.recallBySeverity[level] - file.per_type_recall[level]) <= 5e-5,
      level,
    );
  }
  assert.equal(m.escalated, 3);
  assert.match(stderr, /pCorrect source: stated \(37\), none \(3\)/);
});

Deno.test("score --pcorrect-from picks the probability of a fine-tune-style file and says so", async () => {
  const byDefault = await runCli(["score", FINE_TUNE]);
  assert.equal(byDefault.code, 0, byDefault.stderr);
  // one task's self-consistency is over 2 parsed samples, one task parsed none
  assert.match(
    byDefault.stderr,
    /pCorrect source: agreement@3 \(38\), agreement@2 \(1\), none \(1\)/,
  );
  const stated = await runCli([
    "score",
    FINE_TUNE,
    "--pcorrect-from",
    "stated",
  ]);
  assert.equal(stated.code, 0, stated.stderr);
  assert.match(stated.stderr, /pCorrect source: stated \(39\), none \(1\)/);
});

Deno.test("score exits 2 with one line naming file, record and field on a misspelt key, a missing source or a false summary", async () => {
  const doc = JSON.parse(await Deno.readTextFile(FRONTIER));
  const misspelt = structuredClone(doc);
  misspelt.per_task[4].prediction = misspelt.per_task[4].predicted;
  delete misspelt.per_task[4].predicted;
  const id = misspelt.per_task[4].task_id;
  const badKey = await tempFile("misspelt.json", JSON.stringify(misspelt));
  const falseSummary = await tempFile(
    "summary.json",
    JSON.stringify({ ...doc, metrics: { ...doc.metrics, accuracy: 0.9 } }),
  );
  const cases: [string[], RegExp][] = [
    [
      ["score", badKey],
      new RegExp(
        `misspelt\\.json: per_task\\[4\\] \\(task_id "${id}"\\): unknown field "prediction" \\(did you mean "predicted"\\?\\)`,
      ),
    ],
    [
      ["score", FRONTIER, "--pcorrect-from", "agreement"],
      /frontier_like\.json: per_task\[0\] \(task_id "fx-001"\): --pcorrect-from agreement asks for self_consistency_confidence or samples/,
    ],
    [
      ["score", falseSummary],
      /summary\.json: metrics\.accuracy is 0\.9 but per_task gives 0\.675/,
    ],
    [
      ["score", "data/examples/model_ab.jsonl", "--pcorrect-from", "stated"],
      /--pcorrect-from applies to imported logs/,
    ],
  ];
  for (const [args, message] of cases) {
    const { code, stdout, stderr } = await runCli(args);
    assert.equal(code, 2, `${args.join(" ")}: ${stderr}`);
    assert.equal(stdout, "");
    assert.equal(stderr.trim().split("\n").length, 1, stderr);
    assert.match(stderr, message);
  }
});
