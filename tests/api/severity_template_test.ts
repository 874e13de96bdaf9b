// severityTemplate() on every example harness log shipped in
// data/examples/harness/, and the round trip: the template filled in and
// passed to score() as its severity map scores as the severities it holds.
import assert from "node:assert/strict";
import {
  score,
  type ScoreOptions,
  severityTemplate,
  severityTemplateCsv,
  UsageError,
} from "../../mod.ts";
import { readCsvText } from "../../lib/read/_csv_records.ts";
import { csvLine } from "../../lib/read/_csv_line.ts";
import { tempDir } from "../_helpers.ts";

const H = "data/examples/harness";
const QWEN = `${H}/inspect_qwen.eval`;
const SONNET = `${H}/inspect_sonnet.json`;
const LM_EVAL =
  `${H}/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl`;
const HELM = `${H}/helm/recon_model_example_recon-7b`;
const PROMPTFOO = `${H}/promptfoo_results.json`;

/**
 * The template's CSV with each row's severity filled in, as a user fills
 * it in: read by lossbook's CSV reader, the second field of every row set,
 * written back by its CSV writer, every other field as it was.
 */
function fill(
  csv: string,
  severityOf: (row: Readonly<Record<string, string>>) => string,
): string {
  const lines: string[] = [];
  let header: string[] | null = null;
  readCsvText(csv, "template", ({ fields }) => {
    if (header === null) {
      header = fields;
      lines.push(csvLine(fields));
      return;
    }
    const named = Object.fromEntries(header.map((h, i) => [h, fields[i]]));
    assert.equal(named.severity, "", "a template's severity starts empty");
    lines.push(csvLine([fields[0], severityOf(named), ...fields.slice(2)]));
  });
  return lines.join("\n") + "\n";
}

/** Score with a filled-in template as the severity map, and with `given` instead; the models must match. */
async function sameScores(
  inputs: string[],
  filled: string,
  reading: ScoreOptions,
  given: ScoreOptions,
): Promise<void> {
  const map = `${await tempDir()}/map.csv`;
  await Deno.writeTextFile(map, filled);
  const options = { profiles: ["reconciliation"], resamples: 200, ...reading };
  const byMap = await score(inputs, { ...options, severityMap: map });
  const byGiven = await score(inputs, { ...options, ...given });
  assert.ok(byMap.models.length > 0);
  assert.deepEqual(byMap.models, byGiven.models);
}

Deno.test("severityTemplate() of inspect logs (.eval and .json): a row per sample id with metadata.severity and metadata.class, the set-aside epoch needing none", async () => {
  // data/examples/harness/inspect_qwen.eval: samples 1-4 and dup-5, two
  // epochs each; 4/2 errored without a score and is set aside
  const qwen = await severityTemplate([QWEN]);
  assert.equal(qwen.format, "inspect");
  assert.equal(qwen.key, null);
  assert.equal(qwen.decisions, 9);
  assert.deepEqual(qwen.setAside?.map((a) => `${a.taskId}/${a.trial}`), [
    "4/1",
  ]);
  assert.deepEqual(qwen.columns, [
    "key",
    "severity",
    "metadata.severity",
    "metadata.class",
  ]);
  assert.equal(
    severityTemplateCsv(qwen),
    "key,severity,metadata.severity,metadata.class\n" +
      "1,,HIGH,AMOUNT_MISMATCH\n" +
      "2,,LOW,MATCH\n" +
      "3,,HIGH,BENEFICIARY_MISMATCH\n" +
      "4,,MEDIUM,VALUE_DATE_MISMATCH\n" +
      "dup-5,,LOW,DUPLICATE\n",
  );
  // the two logs hold the same five samples: one row each
  const both = await severityTemplate([QWEN, SONNET]);
  assert.deepEqual("files" in both && both.files, [QWEN, SONNET]);
  assert.equal(both.decisions, 19);
  assert.deepEqual(both.rows, qwen.rows);
});

Deno.test("severityTemplate() of an lm-eval samples file: a row per <task>/<doc_id>, the doc's fields as columns, a list as JSON text", async () => {
  const doc = await severityTemplate([LM_EVAL]);
  assert.equal(doc.format, "lm-eval");
  assert.equal(doc.decisions, 16);
  assert.deepEqual(
    doc.rows.map((r) => r.key),
    Array.from({ length: 16 }, (_, i) => `recon_mc/${i}`),
  );
  assert.deepEqual(doc.columns, [
    "key",
    "severity",
    "doc.id",
    "doc.question",
    "doc.choices",
    "doc.label",
    "doc.severity",
    "doc.gold_class",
  ]);
  // the samples file's line of doc_id 6
  assert.equal(
    severityTemplateCsv(doc).split("\n")[7],
    'recon_mc/6,,recon-007,Pair 7: ledger and bank lines differ as described. Which class is it?,"[""MATCH"",""AMOUNT_MISMATCH"",""DUPLICATE"",""VALUE_DATE_MISMATCH""]",1,HIGH,AMOUNT_MISMATCH',
  );
});

Deno.test("severityTemplate() of a HELM run and of promptfoo results: a row per instance id, per test index; promptfoo's errored call needs no severity", async () => {
  const helm = await severityTemplate([HELM]);
  assert.equal(helm.format, "helm");
  assert.deepEqual(
    helm.rows.map((r) => r.key),
    Array.from({ length: 20 }, (_, i) => `id${100 + i}`),
  );
  // the example run's instances carry no extra_data
  assert.deepEqual(helm.columns, ["key", "severity"]);
  const pf = await severityTemplate([PROMPTFOO], { correct: "equals" });
  assert.equal(pf.format, "promptfoo");
  assert.deepEqual(
    pf.rows.map((r) => r.key),
    Array.from({ length: 11 }, (_, i) => String(i)),
  );
  assert.deepEqual(pf.setAside?.map((a) => a.taskId), ["11"]);
  assert.deepEqual(pf.columns, [
    "key",
    "severity",
    "testCase.metadata.severity",
    "testCase.metadata.class",
    "vars.pair",
  ]);
  await assert.rejects(
    () => severityTemplate([PROMPTFOO]),
    /--correct/,
  );
});

Deno.test("a template filled in programmatically and passed to score() as severityMap scores as the severities it was filled with, for every example format", async () => {
  const cases: [string[], ScoreOptions, string][] = [
    [[QWEN, SONNET], {}, "metadata.severity"],
    [[LM_EVAL], { metric: "acc_norm" }, "doc.severity"],
    [[PROMPTFOO], { correct: "equals" }, "testCase.metadata.severity"],
  ];
  for (const [inputs, reading, field] of cases) {
    const csv = severityTemplateCsv(await severityTemplate(inputs, reading));
    const filled = fill(csv, (row) => row[field]);
    await sameScores(inputs, filled, reading, { severityField: field });
  }
  // a HELM instance carries no severity: every row HIGH is --severity HIGH
  const helm = severityTemplateCsv(await severityTemplate([HELM]));
  await sameScores([HELM], fill(helm, () => "HIGH"), {}, { severity: "HIGH" });
  // left as it is, the template is refused at its first row
  const map = `${await tempDir()}/unfilled.csv`;
  await Deno.writeTextFile(map, helm);
  await assert.rejects(
    () => score([HELM], { severityMap: map }),
    new RegExp(
      `Cannot read severity map ${map}: line 2: the severity of key "id100" is empty`,
    ),
  );
});

Deno.test("severityTemplate() keyed by severityMapKey: a row per distinct value with its task count, and the filled map scores with the same key", async () => {
  const doc = await severityTemplate([QWEN, SONNET], {
    severityMapKey: "field:metadata.class",
  });
  assert.equal(doc.key, "field:metadata.class");
  assert.deepEqual(
    doc.rows.map((r) => [r.key, r.tasks, r.metadata["metadata.severity"]]),
    [
      ["AMOUNT_MISMATCH", 1, "HIGH"],
      ["MATCH", 1, "LOW"],
      ["BENEFICIARY_MISMATCH", 1, "HIGH"],
      ["VALUE_DATE_MISMATCH", 1, "MEDIUM"],
      ["DUPLICATE", 1, "LOW"],
    ],
  );
  const filled = fill(
    severityTemplateCsv(doc),
    (row) => row["metadata.severity"],
  );
  const map = `${await tempDir()}/by_class.csv`;
  await Deno.writeTextFile(map, filled);
  const byClass = await score([QWEN, SONNET], {
    profiles: ["reconciliation"],
    resamples: 200,
    severityMap: map,
    severityMapKey: "field:metadata.class",
  });
  const byField = await score([QWEN, SONNET], {
    profiles: ["reconciliation"],
    resamples: 200,
    severityField: "metadata.severity",
  });
  assert.deepEqual(byClass.models, byField.models);
  // many tasks to one key: lm-eval's documents by gold class
  const lm = await severityTemplate([LM_EVAL], {
    severityMapKey: "field:doc.gold_class",
  });
  const total = lm.rows.reduce((n, r) => n + r.tasks, 0);
  assert.equal(total, 16);
  assert.ok(lm.rows.length < 16);
  for (const row of lm.rows) {
    assert.equal(row.metadata["doc.gold_class"], row.key);
    // the question differs between the documents of one class
    if (row.tasks > 1) assert.equal("doc.question" in row.metadata, false);
  }
});

Deno.test("severityTemplate() refuses what is not a harness log, a bad key path and an item without the key, naming file, item and field", async () => {
  await assert.rejects(
    () => severityTemplate(["data/examples/model_ab.jsonl"]),
    (e: Error) =>
      e instanceof UsageError &&
      e.message ===
        "severity-template reads harness logs (inspect, lm-eval, helm, promptfoo), whose items hold no severity; data/examples/model_ab.jsonl is --format decisions, whose records carry their own",
  );
  await assert.rejects(
    () => severityTemplate([QWEN], { severityMapKey: "metadata.class" }),
    /--severity-map-key must be field:PATH \(for example field:metadata\.class\), got "metadata\.class"/,
  );
  await assert.rejects(
    () => severityTemplate([SONNET], { severityMapKey: "field:metadata.nope" }),
    /inspect_sonnet\.json: sample 1 epoch 1: metadata\.nope must be a string or number to key the severity map, got nothing/,
  );
  await assert.rejects(() => severityTemplate([]), /expected one or more/);
});
