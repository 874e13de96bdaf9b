import assert from "node:assert/strict";
import fc from "fast-check";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { decisionStats } from "../../../lib/decision/mod.ts";
import { decisionTable } from "../../../lib/read/mod.ts";
import { statsOfDecisionList } from "../../../lib/read/_stats_builder.ts";
import { decision } from "../../_helpers.ts";

Deno.test("statsOfDecisionList() gives the Arquero path's statistics, tasks with several trials included (property, seed 43)", () => {
  const classes = ["verdict:correct", "verdict:incorrect"];
  // a task id and a trial per decision, each key once: several trials of a
  // task, in several runs and models, so that taskShare is not n
  const arb = fc.uniqueArray(
    fc.record({
      runId: fc.constantFrom("r1", "r2"),
      modelId: fc.constantFrom("a", "b"),
      taskId: fc.constantFrom("t1", "t2", "t3", "t4"),
      trial: fc.integer({ min: 0, max: 3 }),
      severity: fc.constantFrom(...SEVERITIES),
      predClass: fc.constantFrom(...classes),
      pCorrect: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), {
        nil: null,
      }),
      parseOk: fc.boolean(),
    }),
    {
      maxLength: 60,
      selector: (r) => `${r.runId}/${r.modelId}/${r.taskId}/${r.trial}`,
    },
  );
  fc.assert(
    fc.property(arb, (rows) => {
      const decisions = rows.map((r) =>
        decision({ ...r, trueClass: "verdict:correct" })
      );
      const fast = statsOfDecisionList(decisions, "x.eval");
      assert.equal(fast.decisions, rows.length);
      // the same cells and the same exact sums, to the last bit
      assert.deepEqual(fast.stats, decisionStats(decisionTable(decisions)));
    }),
    { seed: 43, numRuns: 200 },
  );
});
