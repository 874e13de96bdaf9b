import assert from "node:assert/strict";
import { severityWeightedRecall } from "../../../lib/metrics/reconforge.ts";
import { accuracy } from "../../../lib/metrics/accuracy.ts";
import { decisionStats, decisionTable } from "../../../lib/runs/mod.ts";
import {
  loadReconforge,
  parseReconforge,
  UNTYPED_EXCEPTION,
} from "../../../lib/runs/import_reconforge.ts";
import { tempFile } from "../../_helpers.ts";

const FIXTURE = "data/examples/reconforge_run.json";

function doc(perTask: unknown[]): string {
  return JSON.stringify({
    run: "r",
    n: perTask.length,
    metrics: {},
    per_task: perTask,
  });
}

function task(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    task_id: "t1",
    difficulty: 0.5,
    expected: {
      verdict: "EXCEPTION",
      exception_type: "DUPLICATE",
      severity: "LOW",
    },
    predicted: {
      verdict: "EXCEPTION",
      exception_type: "DUPLICATE",
      severity: "LOW",
      confidence: 0.8,
    },
    ...patch,
  };
}

Deno.test("loadReconforge() maps parse misses to MATCH, untyped verdicts to their own class, and counts both", async () => {
  const { decisions, notes } = await loadReconforge(FIXTURE);
  assert.equal(decisions.length, 12);
  assert.deepEqual(notes, { parseMisses: 1, untypedExceptionVerdicts: 1 });
  const miss = decisions.find((d) => d.taskId === "rf-008")!;
  assert.deepEqual(
    [miss.predClass, miss.parseOk, miss.pCorrect, miss.outcome],
    ["MATCH", false, null, "model_failure"],
  );
  assert.equal(
    decisions.find((d) => d.taskId === "rf-007")!.predClass,
    UNTYPED_EXCEPTION,
  );
  assert.equal(
    decisions.find((d) => d.taskId === "rf-010")!.trueClass,
    "MATCH",
  );
  assert.ok(
    decisions.every((d) =>
      d.modelId === "example-run" && d.cost.completeness === "unavailable"
    ),
  );
});

Deno.test("ReconForge accuracy and R_w on the fixture match a hand count", async () => {
  const { decisions } = await loadReconforge(FIXTURE);
  const stats = decisionStats(decisionTable(decisions));
  // right answers: rf-001, 003, 005, 009, 010, 012 -> 6 of 12
  assert.equal(accuracy(stats).value, 0.5);
  // R_w over the 9 exceptions, weights from DESIGN §4.8; HIGH caught by any exception verdict:
  // caught: AMOUNT 1.0 (001), FX 1.0 (002, wrong type but flagged), BENEFICIARY 0.9 (003),
  //         VALUE_DATE 0.6 (005), FIELD_CORRUPTION 0.2 (009) = 3.7
  // total:  1.0 + 1.0 + 0.9 + 0.9 + 0.6 + 0.6 + 0.5 + 0.2 + 0.2 = 5.9
  assert.ok(Math.abs(severityWeightedRecall(stats)! - 3.7 / 5.9) < 1e-12);
});

Deno.test("parseReconforge() reads self-consistency confidence when asked", async () => {
  const text = await Deno.readTextFile(FIXTURE);
  const d = parseReconforge(text, { confidence: "self_consistency" }).decisions;
  assert.equal(d.find((x) => x.taskId === "rf-002")!.pCorrect, 0.67);
  assert.equal(
    parseReconforge(text, { modelId: "mine" }).decisions[0].modelId,
    "mine",
  );
});

Deno.test("parseReconforge() names file, per_task index, task id and field on bad input", () => {
  assert.throws(
    () =>
      parseReconforge(
        doc([
          task(),
          task({
            task_id: "t2",
            expected: {
              verdict: "EXCEPTION",
              exception_type: "X",
              severity: "SEVERE",
            },
          }),
        ]),
        { path: "rf.json" },
      ),
    {
      name: "RangeError",
      message:
        'Cannot load ReconForge file rf.json: per_task[1] (task_id "t2"): expected.severity must be one of LOW, MEDIUM, HIGH, CRITICAL, got "SEVERE"',
    },
  );
  assert.throws(
    () =>
      parseReconforge(
        doc([
          task({
            predicted: {
              verdict: "EXCEPTION",
              exception_type: "DUPLICATE",
              confidence: 1.4,
            },
          }),
        ]),
        { path: "rf.json" },
      ),
    /per_task\[0\] \(task_id "t1"\): predicted\.confidence must be in \[0, 1\], got 1\.4/,
  );
  assert.throws(
    () =>
      parseReconforge(
        doc([
          task({
            expected: {
              verdict: "EXCEPTION",
              exception_type: null,
              severity: "LOW",
            },
          }),
        ]),
        { path: "rf.json" },
      ),
    /per_task\[0\] \(task_id "t1"\): expected\.exception_type must name the exception/,
  );
  const { expected: _, ...noExpected } = task();
  assert.throws(
    () => parseReconforge(doc([noExpected]), { path: "rf.json" }),
    /per_task\[0\] \(task_id "t1"\): expected is missing/,
  );
  assert.throws(
    () => parseReconforge(doc([task(), task()]), { path: "rf.json" }),
    /per_task\[1\] \(task_id "t1"\): task_id repeats per_task\[0\]/,
  );
  assert.throws(() => parseReconforge("{", { path: "rf.json" }), {
    name: "SyntaxError",
    message: /rf\.json: invalid JSON/,
  });
  assert.throws(
    () =>
      parseReconforge(JSON.stringify({ run: "r", n: 3, per_task: [task()] }), {
        path: "rf.json",
      }),
    /rf\.json: n is 3 but per_task has 1 elements/,
  );
});

Deno.test("loadReconforge() puts the path in errors", async () => {
  const path = await tempFile("bad.json", doc([task({ expected: "oops" })]));
  await assert.rejects(
    () => loadReconforge(path),
    new RegExp(`Cannot load ReconForge file ${path}: per_task\\[0\\]`),
  );
});
