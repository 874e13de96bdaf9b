import assert from "node:assert/strict";
import { roundNumbers, tempFile } from "../_helpers.ts";
import {
  HARNESS_EXAMPLE_LOGS,
  HARNESS_SEVERITY_MAP,
  harnessLogs,
} from "../../analyses/harness_logs.ts";

Deno.test("harnessLogs() on the shipped inspect and lm-eval logs: every claim holds", async () => {
  const result = await harnessLogs();
  assert.deepEqual(result.claims.filter((c) => !c.holds).map((c) => c.id), []);
  const ids = result.claims.map((c) => c.id);
  for (
    const id of [
      "harness_logs.accuracy.inspect",
      "harness_logs.accuracy.lm-eval",
      "harness_logs.severity.inspect",
      "harness_logs.severity.lm-eval",
      "harness_logs.matrix.inspect",
      "harness_logs.flat.lm-eval",
      "harness_logs.softmax.lm-eval",
      "harness_logs.provenance.inspect",
    ]
  ) assert.ok(ids.includes(id), id);
  const scores = result.tables.scores.objects() as Record<string, unknown>[];
  const loss = (log: string, profile: string) =>
    scores.find((r) => String(r.log).startsWith(log) && r.profile === profile)!
      .loss;
  // by hand, inspect log: wrong answers are sample 3 epoch 2 (HIGH) and dup-5
  // epoch 2 (LOW): reconciliation 10 + 0.2, principal_risk 1000 + 1
  assert.ok(
    Math.abs((loss("inspect", "reconciliation") as number) - 10.2) < 1e-9,
  );
  assert.equal(loss("inspect", "principal_risk"), 1001);
  const sources = (result.tables.provenance.objects() as {
    pCorrectSource: string;
  }[]).map((r) => r.pCorrectSource);
  assert.ok(sources.includes("logprob-option"));
});

Deno.test("harnessLogs() claims fail when the severity map disagrees with a log's own severities", async () => {
  const text = await Deno.readTextFile(HARNESS_SEVERITY_MAP);
  assert.match(text, /\n3,HIGH\n/);
  const map = await tempFile(
    "map.csv",
    text.replace("\n3,HIGH\n", "\n3,LOW\n"),
  );
  const result = await harnessLogs({ severityMap: map });
  assert.deepEqual(
    result.claims.filter((c) => !c.holds).map((c) => c.id),
    ["harness_logs.severity.inspect"],
  );
});

Deno.test("harnessLogs() refuses a severity map that does not cover a task, naming it", async () => {
  const text = await Deno.readTextFile(HARNESS_SEVERITY_MAP);
  const map = await tempFile(
    "short.csv",
    text.replace("\nrecon_mc/7,", "\nother,"),
  );
  await assert.rejects(
    () => harnessLogs({ severityMap: map, logs: [HARNESS_EXAMPLE_LOGS[1]] }),
    /does not cover task id "recon_mc\/7"/,
  );
});

Deno.test("harnessLogs() tables and chart match the snapshot", async (t) => {
  const result = await harnessLogs();
  const strip = (rows: Record<string, unknown>[]) => roundNumbers(rows, 6);
  await t.assertSnapshot({
    scores: strip(result.tables.scores.objects() as Record<string, unknown>[]),
    provenance: strip(
      result.tables.provenance.objects() as Record<string, unknown>[],
    ),
    decisions: result.tables.decisions.numRows(),
    chart: roundNumbers(result.charts.loss_by_profile, 6),
  });
});
