import assert from "node:assert/strict";
import { decisionTable } from "../../../lib/read/mod.ts";
import { pairedStats } from "../../../lib/decision/mod.ts";
import { decision } from "../../_helpers.ts";

Deno.test("pairedStats() pairs by task and trial, counts cells and reports unpaired decisions", () => {
  const t = decisionTable([
    decision({ modelId: "a", taskId: "1" }),
    decision({ modelId: "b", taskId: "1", predClass: "MATCH" }),
    decision({ modelId: "a", taskId: "2" }),
    decision({ modelId: "b", taskId: "2", predClass: "MATCH" }),
    decision({ modelId: "a", taskId: "3" }),
    decision({ modelId: "b", taskId: "4" }),
    decision({ modelId: "b", taskId: "5" }),
    decision({ modelId: "c", taskId: "1" }),
  ]);
  const p = pairedStats(t, "a", "b");
  assert.deepEqual(p.rows, [{
    severity: "HIGH",
    trueClass: "AMOUNT_MISMATCH",
    predA: "AMOUNT_MISMATCH",
    actionA: "auto",
    predB: "MATCH",
    actionB: "auto",
    n: 2,
  }]);
  assert.deepEqual([p.onlyA, p.onlyB], [1, 2]);
});

Deno.test("pairedStats() refuses tasks that disagree, repeated decisions, absent models and self-pairs", () => {
  const mismatch = decisionTable([
    decision({ modelId: "a" }),
    decision({ modelId: "b", severity: "LOW" }),
  ]);
  assert.throws(
    () => pairedStats(mismatch, "a", "b"),
    /task "t1" trial 0: a has HIGH\/AMOUNT_MISMATCH but b has LOW\/AMOUNT_MISMATCH/,
  );
  const twice = decisionTable([
    decision({ modelId: "a", runId: "r1" }),
    decision({ modelId: "a", runId: "r2" }),
    decision({ modelId: "b" }),
  ]);
  assert.throws(
    () => pairedStats(twice, "a", "b"),
    /a has two decisions for task "t1" trial 0/,
  );
  assert.throws(
    () => pairedStats(mismatch, "a", "z"),
    /no decisions of model "z"/,
  );
  assert.throws(() => pairedStats(mismatch, "a", "a"), /itself/);
});

Deno.test("pairedStats() orders its cells by their parts joined with NUL, as the seeded resampling of compare has always read them", () => {
  const classes = ["MATCH", "AMOUNT_MISMATCH", "DUPLICATE", "AM"];
  const ds = classes.flatMap((gold, i) =>
    classes.flatMap((pred, j) => [
      decision({
        modelId: "a",
        taskId: `t${i}-${j}`,
        trueClass: gold,
        predClass: pred,
      }),
      decision({
        modelId: "b",
        taskId: `t${i}-${j}`,
        trueClass: gold,
        predClass: classes[(i + j) % 4],
        action: j % 2 === 0 ? "auto" : "escalate",
      }),
    ])
  );
  const { rows } = pairedStats(decisionTable(ds), "a", "b");
  assert.equal(rows.length, 16);
  const joined = rows.map((r) =>
    [r.severity, r.trueClass, r.predA, r.actionA, r.predB, r.actionB].join(
      "\u0000",
    )
  );
  assert.deepEqual(joined, joined.toSorted());
});
