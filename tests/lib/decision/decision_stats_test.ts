import assert from "node:assert/strict";
import fc from "fast-check";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { summarise } from "../../../lib/metrics/sufficient_stats.ts";
import { decisionStats } from "../../../lib/decision/mod.ts";
import { decisionTable } from "../../../lib/read/mod.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
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
  assert.deepEqual(
    stats.map((
      r,
    ) => [r.modelId, r.severity, r.trueClass, r.predClass, r.action, r.n]),
    [
      ["a", "MEDIUM", "PARTIAL_MATCH", "PARTIAL_MATCH", "auto", 1],
      ["m", "LOW", "MATCH", "DUPLICATE", "auto", 1],
      ["m", "HIGH", "AMOUNT_MISMATCH", "AMOUNT_MISMATCH", "auto", 2],
      ["m", "HIGH", "AMOUNT_MISMATCH", "MATCH", "auto", 1],
      ["m", "HIGH", "AMOUNT_MISMATCH", "MATCH", "escalate", 1],
    ],
  );
  const right = stats[2];
  // (1 - 0.9) from the stated probability; the null one is counted as missing
  assert.ok(Math.abs(right.pErrorSum - 0.1) < 1e-12);
  assert.equal(right.pMissing, 1);
  assert.equal(right.parseFailures, 1);
  assert.ok(Math.abs(stats[3].pErrorSum - 0.4) < 1e-12);
  const m = summarise(stats.filter((r) => r.modelId === "m"));
  assert.deepEqual(
    [
      m.n,
      m.correct,
      m.escalated,
      m.autoErrors,
      m.missed,
      m.wrongType,
      m.falseAlarms,
      m.exceptions,
    ],
    [5, 2, 1, 2, 1, 0, 1, 4],
  );
  // P(error) over automatic decisions that state it: 0.1 + 0.4 + 0.25; the escalated 0.5 is not automatic
  assert.ok(Math.abs(m.autoPErrorSum - 0.75) < 1e-12);
  assert.equal(m.autoPMissing, 1);
});

Deno.test("decisionStats() of an empty table is empty", () => {
  assert.deepEqual(decisionStats(decisionTable([])), []);
});

Deno.test("decisionStats() and summarise() agree with a direct count over the decisions (property, seed 20261129)", () => {
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
      const s = summarise(stats);
      const auto = ds.filter((d) => d.action === "auto");
      assert.equal(s.n, ds.length);
      assert.equal(
        s.correct,
        ds.filter((d) => d.predClass === d.trueClass).length,
      );
      assert.equal(s.escalated, ds.length - auto.length);
      assert.equal(
        s.autoErrors,
        auto.filter((d) => d.predClass !== d.trueClass).length,
      );
      assert.equal(s.autoErrors, s.missed + s.wrongType + s.falseAlarms);
      assert.equal(
        s.missed,
        auto.filter((d) => d.trueClass !== "MATCH" && d.predClass === "MATCH")
          .length,
      );
      assert.equal(
        s.falseAlarms,
        auto.filter((d) => d.trueClass === "MATCH" && d.predClass !== "MATCH")
          .length,
      );
      assert.equal(
        s.autoPMissing,
        auto.filter((d) => d.pCorrect === null).length,
      );
      const pe = auto.reduce(
        (t, d) => t + (d.pCorrect !== null ? 1 - d.pCorrect : 0),
        0,
      );
      assert.ok(Math.abs(s.autoPErrorSum - pe) < 1e-9);
      assert.equal(s.parseFailures, ds.filter((d) => !d.parseOk).length);
      assert.ok(stats.every((r) => r.n > 0));
      assert.equal(
        new Set(stats.map((r) =>
          JSON.stringify([
            r.modelId,
            r.severity,
            r.trueClass,
            r.predClass,
            r.action,
          ])
        )).size,
        stats.length,
      );
    }),
    { seed: 20261129, numRuns: 200 },
  );
});
