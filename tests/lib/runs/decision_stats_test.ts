import assert from "node:assert/strict";
import fc from "fast-check";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import type { STAT_COUNTS } from "../../../lib/metrics/sufficient_stats.ts";
import { decisionStats, decisionTable } from "../../../lib/runs/mod.ts";
import type { Decision } from "../../../lib/runs/decision.ts";
import { decision } from "../../_helpers.ts";

Deno.test("decisionStats() counts a hand-built run cell by cell", () => {
  const ds: Decision[] = [
    // HIGH AMOUNT_MISMATCH: right/auto p=.9, missed/auto p=.6, missed/escalated p=.5, right/auto p=null
    decision({ taskId: "1", pCorrect: 0.9 }),
    decision({ taskId: "2", predClass: "MATCH", pCorrect: 0.6 }),
    decision({
      taskId: "3",
      predClass: "MATCH",
      pCorrect: 0.5,
      action: "escalate",
    }),
    decision({ taskId: "4", pCorrect: null, parseOk: false }),
    // LOW MATCH: a false alarm, auto
    decision({
      taskId: "5",
      severity: "LOW",
      trueClass: "MATCH",
      predClass: "DUPLICATE",
      pCorrect: 0.75,
    }),
    // another model
    decision({
      taskId: "1",
      modelId: "a",
      severity: "MEDIUM",
      trueClass: "PARTIAL_MATCH",
      predClass: "PARTIAL_MATCH",
    }),
  ];
  const stats = decisionStats(decisionTable(ds));
  assert.deepEqual(stats.map((r) => [r.modelId, r.severity, r.trueClass]), [
    ["a", "MEDIUM", "PARTIAL_MATCH"],
    ["m", "LOW", "MATCH"],
    ["m", "HIGH", "AMOUNT_MISMATCH"],
  ]);
  const high = stats[2];
  assert.equal(high.n, 4);
  assert.equal(high.correct, 2);
  assert.equal(high.escalated, 1);
  assert.equal(high.autoErrors, 1); // the escalated miss costs review, not K
  // P(error) over auto decisions that state it: (1 - 0.9) + (1 - 0.6) = 0.5
  assert.ok(Math.abs(high.pErrorSum - 0.5) < 1e-12);
  assert.equal(high.pMissing, 1);
  assert.equal(high.parseFailures, 1);
  const low = stats[1];
  assert.deepEqual(
    [low.n, low.correct, low.autoErrors, low.escalated, low.pMissing],
    [1, 0, 1, 0, 0],
  );
  assert.ok(Math.abs(low.pErrorSum - 0.25) < 1e-12);
});

Deno.test("decisionStats() of an empty table is empty", () => {
  assert.deepEqual(decisionStats(decisionTable([])), []);
});

Deno.test("decisionStats() totals equal a direct count over the decisions (property, seed 20261129)", () => {
  const classes = ["MATCH", "AMOUNT_MISMATCH", "DUPLICATE"];
  const arb = fc.array(
    fc.record({
      modelId: fc.constantFrom("a", "b", "c"),
      severity: fc.constantFrom(...SEVERITIES),
      trueClass: fc.constantFrom(...classes),
      predClass: fc.constantFrom(...classes),
      action: fc.constantFrom("auto" as const, "escalate" as const),
      pCorrect: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), {
        nil: null,
      }),
      parseOk: fc.boolean(),
    }),
    { maxLength: 60 },
  );
  fc.assert(
    fc.property(arb, (rows) => {
      const ds = rows.map((r, i) => decision({ ...r, taskId: `t${i}` }));
      const stats = decisionStats(decisionTable(ds));
      const sum = (k: typeof STAT_COUNTS[number]) =>
        stats.reduce((s, r) => s + r[k], 0);
      assert.equal(sum("n"), ds.length);
      assert.equal(
        sum("correct"),
        ds.filter((d) => d.predClass === d.trueClass).length,
      );
      assert.equal(
        sum("escalated"),
        ds.filter((d) => d.action === "escalate").length,
      );
      assert.equal(
        sum("autoErrors"),
        ds.filter((d) => d.action === "auto" && d.predClass !== d.trueClass)
          .length,
      );
      assert.equal(
        sum("pMissing"),
        ds.filter((d) => d.action === "auto" && d.pCorrect === null).length,
      );
      const pe = ds.reduce(
        (s, d) =>
          s + (d.action === "auto" && d.pCorrect !== null ? 1 - d.pCorrect : 0),
        0,
      );
      assert.ok(Math.abs(sum("pErrorSum") - pe) < 1e-9);
      assert.equal(sum("parseFailures"), ds.filter((d) => !d.parseOk).length);
      assert.ok(stats.every((r) => r.n > 0));
    }),
    { seed: 20261129, numRuns: 200 },
  );
});
