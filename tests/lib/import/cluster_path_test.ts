// --cluster PATH on harness logs: every importer reads each item's cluster
// at PATH of its record (the path syntax of --severity-field), a nested
// path and a number included; an item without it is refused, naming the
// file, the item and the path; and two logs that put one task in two
// clusters are refused, naming both.
import assert from "node:assert/strict";
import { importHarness } from "../../../commands/_harness_input.ts";
import { clusterResolver } from "../../../lib/import/mapping.ts";
import { tempDir } from "../../_helpers.ts";
import { parseJsonStrict } from "../../../lib/_json.ts";

const EX = "data/examples/harness";
const INSPECT_JSON = `${EX}/inspect_sonnet.json`;
const INSPECT_EVAL = `${EX}/inspect_qwen.eval`;
const LM_EVAL =
  `${EX}/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl`;
const HELM = `${EX}/helm/recon_model_example_recon-7b`;
const PROMPTFOO = `${EX}/promptfoo_results.json`;

const quiet = { quiet: true } as const;

Deno.test("every harness importer fills each decision's cluster from --cluster PATH, and none without it", async () => {
  const cases = [
    { paths: [INSPECT_JSON], format: "inspect", path: "metadata.class" },
    { paths: [INSPECT_EVAL], format: "inspect", path: "metadata.class" },
    { paths: [LM_EVAL], format: "lm-eval", path: "doc.gold_class" },
    { paths: [HELM], format: "helm", path: "instance.split" },
    {
      paths: [PROMPTFOO],
      format: "promptfoo",
      path: "testCase.metadata.class",
      correct: "equals",
    },
  ] as const;
  for (const c of cases) {
    const flags = {
      severity: "HIGH",
      ...("correct" in c ? { correct: c.correct } : {}),
    };
    const named = await importHarness(c.paths, c.format, {
      ...flags,
      cluster: c.path,
    }, quiet);
    assert.ok(named.decisions.length > 0, c.format);
    assert.ok(
      named.decisions.every((d) =>
        typeof d.cluster === "string" && d.cluster !== ""
      ),
      `${c.format}: every decision names a cluster`,
    );
    const plain = await importHarness(c.paths, c.format, flags, quiet);
    assert.ok(plain.decisions.every((d) => !("cluster" in d)), c.format);
    // taskId keeps the task as the unit: no cluster is filled
    const tasks = await importHarness(c.paths, c.format, {
      ...flags,
      cluster: "taskId",
    }, quiet);
    assert.deepEqual(tasks.decisions, plain.decisions, c.format);
    // the decisions are those without the flag, and their clusters
    assert.deepEqual(
      named.decisions.map(({ cluster: _, ...d }) => d),
      plain.decisions,
      c.format,
    );
  }
  // inspect: an item's epochs share its cluster, which is its metadata's
  const r = await importHarness([INSPECT_JSON], "inspect", {
    severity: "HIGH",
    cluster: "metadata.class",
  }, quiet);
  assert.deepEqual(
    r.decisions.filter((d) => d.taskId === "3").map((d) => d.cluster),
    ["BENEFICIARY_MISMATCH", "BENEFICIARY_MISMATCH"],
  );
});

Deno.test("an item without the --cluster path is refused, naming the file, the item and the path", async () => {
  await assert.rejects(
    () =>
      importHarness(
        [INSPECT_JSON],
        "inspect",
        { severity: "HIGH", cluster: "metadata.source" },
        quiet,
      ),
    {
      name: "TypeError",
      message:
        `Cannot import inspect log ${INSPECT_JSON}: sample 1 epoch 1: metadata.source is missing (--cluster metadata.source)`,
    },
  );
  await assert.rejects(
    () =>
      importHarness(
        [LM_EVAL],
        "lm-eval",
        { severity: "HIGH", cluster: "doc.source" },
        quiet,
      ),
    /samples_recon_mc_.*\.jsonl: line 1 \(doc_id 0, filter "none"\): doc\.source is missing \(--cluster doc\.source\)/,
  );
  await assert.rejects(
    () =>
      importHarness(
        [HELM],
        "helm",
        { severity: "HIGH", cluster: "instance.source" },
        quiet,
      ),
    /per_instance_stats\.json\[0\] \(instance_id "id100", train_trial_index 0\): instance\.source is missing \(--cluster instance\.source\)/,
  );
  await assert.rejects(
    () =>
      importHarness(
        [PROMPTFOO],
        "promptfoo",
        { severity: "HIGH", correct: "equals", cluster: "vars" },
        quiet,
      ),
    /results\.results\[0\] \(testIdx 0\): vars must be a non-empty string or a number to name a cluster \(--cluster vars\), got \{"pair":"ledger line 1 vs bank line 1"\}/,
  );
  // a path with an empty key is a usage error before anything is read
  await assert.rejects(
    () =>
      importHarness(
        [INSPECT_JSON],
        "inspect",
        { severity: "HIGH", cluster: "metadata..source" },
        quiet,
      ),
    /--cluster must be a dotted path such as metadata\.severity with no empty key, got "metadata\.\.source"/,
  );
});

Deno.test("clusterResolver() reads a nested path and a number, and refuses an empty or non-scalar value", () => {
  const clusterOf = clusterResolver("metadata.source.document");
  const item = (v: unknown) => ({
    taskId: "t",
    record: { metadata: { source: { document: v } } },
  });
  assert.equal(clusterOf(item("10-K 2024"), "x"), "10-K 2024");
  assert.equal(clusterOf(item(7), "x"), "7");
  assert.throws(
    () => clusterOf(item(""), "x"),
    /x: metadata\.source\.document must be a non-empty string or a number/,
  );
  assert.throws(() => clusterOf(item(null), "x"), /got null/);
  assert.throws(
    () =>
      clusterOf(
        { taskId: "t", record: { metadata: {} } },
        "a.eval: sample 2 epoch 1",
      ),
    /^TypeError: a\.eval: sample 2 epoch 1: metadata\.source\.document is missing \(--cluster metadata\.source\.document\)$/,
  );
});

Deno.test("two logs that put one task in two clusters are refused, naming both", async () => {
  const dir = await tempDir();
  // the log holds bare NaN scores, as Python writes them: kept as they are
  const log = parseJsonStrict(await Deno.readTextFile(INSPECT_JSON), {
    nonFinite: true,
  }) as {
    eval: Record<string, unknown>;
    samples: { id: unknown; metadata: Record<string, unknown> }[];
  };
  const text = (v: unknown) =>
    JSON.stringify(v, (_, x) => Number.isNaN(x) ? "@NaN@" : x)
      .replaceAll('"@NaN@"', "NaN");
  // the same samples, answered by another model, with sample 2 moved
  log.eval.model = "other/model";
  log.eval.run_id = "other-run";
  for (const s of log.samples) {
    s.metadata.source = s.id === 2 ? "doc-B" : "doc-A";
  }
  const other = `${dir}/other.json`;
  await Deno.writeTextFile(other, text(log));
  for (const s of log.samples) s.metadata.source = "doc-A";
  const first = `${dir}/first.json`;
  await Deno.writeTextFile(
    first,
    text({
      ...log,
      eval: { ...log.eval, model: "first/model", run_id: "first-run" },
    }),
  );
  await assert.rejects(
    () =>
      importHarness(
        [first, other],
        "inspect",
        { severity: "HIGH", cluster: "metadata.source" },
        quiet,
      ),
    {
      name: "RangeError",
      message:
        `Cannot import inspect logs: ${other}'s decision for taskId "2", trial 0: cluster "doc-B" of taskId "2" differs from "doc-A", which ${first}'s decision for taskId "2", trial 0 names: all the decisions of a task name one cluster`,
    },
  );
});
