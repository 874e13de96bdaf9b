import assert from "node:assert/strict";
import fc from "fast-check";
import {
  COST_COMPLETENESS,
  type CostCompleteness,
  costPerSuccess,
  costReportBy,
  costTotals,
  FAILURE_CLASSES,
  type FailureClass,
  successRate,
} from "../../../lib/evidence/mod.ts";

const columns = {
  costCompleteness: [
    "complete",
    "unavailable",
    "complete",
    "complete",
    "partial",
  ] as CostCompleteness[],
  costUsd: [0.01, null, 0, 0, 0.2],
  outcome: [
    "resolved",
    "harness_failure",
    "resolved",
    "resolved",
    "model_failure",
  ] as FailureClass[],
};
const keys = ["a", "e", "b", "b", "c"];

Deno.test("costReportBy() gives one row per group in order of first appearance", () => {
  const rows = costReportBy(keys, columns);
  assert.deepEqual(rows.map((r) => r.group), ["a", "e", "b", "c"]);
  const b = rows.find((r) => r.group === "b")!;
  assert.equal(b.costPerSuccessLabel, "complete");
  assert.ok(Object.is(b.costPerSuccessUsd, 0));
  const c = rows.find((r) => r.group === "c")!;
  assert.deepEqual(
    [c.partialFloorUsd, c.completeUsd, c.costPerSuccessLabel],
    [0.2, null, "not_computable"],
  );
});

Deno.test("costReportBy() reports listed groups with no attempts as null rate and not_computable", () => {
  const rows = costReportBy(keys, columns, {
    groups: ["a", "b", "c", "e", "never_run"],
    exclude: ["harness_failure"],
  });
  const e = rows.find((r) => r.group === "e")!;
  assert.deepEqual(
    [e.rateDenominator, e.successRate, e.successRateLo, e.successRateHi],
    [0, null, null, null],
  );
  assert.equal(e.unavailableCount, 1);
  const none = rows.at(-1)!;
  assert.deepEqual(none, {
    group: "never_run",
    attempts: 0,
    completeCount: 0,
    partialCount: 0,
    unavailableCount: 0,
    notApplicableCount: 0,
    completeUsd: null,
    partialFloorUsd: null,
    observedUsd: null,
    successes: 0,
    rateDenominator: 0,
    successRate: null,
    successRateLo: null,
    successRateHi: null,
    costPerSuccessUsd: null,
    costPerSuccessLabel: "not_computable",
  });
});

Deno.test("costReportBy() refuses a key outside the listed groups and a repeated group", () => {
  assert.throws(
    () => costReportBy(keys, columns, { groups: ["a", "b", "c"] }),
    {
      name: "RangeError",
      message:
        'Cannot build cost report: row 1: key "e" is not among the groups ["a","b","c"]',
    },
  );
  assert.throws(
    () => costReportBy(keys, columns, { groups: ["a", "a"] }),
    /groups lists "a" twice/,
  );
  assert.throws(
    () => costReportBy(["a"], columns),
    /keys has 1 rows but outcome has 5/,
  );
});

const arbRow = fc.tuple(
  fc.constantFrom("m1", "m2", "m3"),
  fc.constantFrom(...COST_COMPLETENESS),
  fc.double({ min: 0, max: 10, noNaN: true }),
  fc.constantFrom(...FAILURE_CLASSES),
);

Deno.test("costReportBy() agrees with the aggregations run on each group alone (property, seed 99)", () => {
  fc.assert(
    fc.property(fc.array(arbRow, { maxLength: 40 }), (rows) => {
      const cols = {
        costCompleteness: rows.map((r) => r[1]),
        costUsd: rows.map((r) =>
          r[1] === "complete" || r[1] === "partial" ? r[2] : null
        ),
        outcome: rows.map((r) => r[3]),
      };
      const report = costReportBy(rows.map((r) => r[0]), cols);
      for (const row of report) {
        const idx = rows.flatMap((r, i) => r[0] === row.group ? [i] : []);
        const sub = {
          costCompleteness: idx.map((i) => cols.costCompleteness[i]),
          costUsd: idx.map((i) => cols.costUsd[i]),
          outcome: idx.map((i) => cols.outcome[i]),
        };
        const t = costTotals(sub);
        const p = costPerSuccess(sub);
        const r = successRate(sub.outcome);
        assert.equal(row.completeUsd, t.completeUsd);
        assert.equal(row.partialFloorUsd, t.partialFloorUsd);
        assert.equal(row.unavailableCount, t.counts.unavailable);
        assert.equal(row.costPerSuccessUsd, p.usd);
        assert.equal(row.costPerSuccessLabel, p.label);
        assert.equal(row.successRate, r.value);
      }
      assert.equal(
        report.reduce((s, r) => s + r.attempts, 0),
        rows.length,
      );
    }),
    { seed: 99, numRuns: 300 },
  );
});
