import assert from "node:assert/strict";
import fc from "fast-check";
import {
  COST_COMPLETENESS,
  type CostCompleteness,
  costPerSuccess,
  FAILURE_CLASSES,
  type FailureClass,
} from "../../../lib/evidence/mod.ts";

type Row = [CostCompleteness, number | null, FailureClass];

function cols(rows: readonly Row[]) {
  return {
    costCompleteness: rows.map((r) => r[0]),
    costUsd: rows.map((r) => r[1]),
    outcome: rows.map((r) => r[2]),
  };
}

Deno.test("costPerSuccess() is complete total over successes when every cost is complete and one succeeded", () => {
  const got = costPerSuccess(cols([
    ["complete", 0.012, "resolved"],
    ["complete", 0.02, "resolved"],
    ["complete", 0.008, "grader_failure"],
  ]));
  assert.equal(got.label, "complete");
  // by hand: (0.012 + 0.02 + 0.008) / 2 = 0.02
  assert.ok(Math.abs(got.usd! - 0.02) < 1e-15);
  assert.deepEqual(
    [got.successes, got.attempts, got.notComplete],
    [2, 3, 0],
  );
});

Deno.test("costPerSuccess() earns the figure 0 for a group whose costs are all a genuine complete 0", () => {
  const got = costPerSuccess(cols([
    ["complete", 0, "resolved"],
    ["complete", 0, "resolved"],
  ]));
  assert.equal(got.label, "complete");
  assert.ok(Object.is(got.usd, 0));
});

Deno.test("costPerSuccess() is incomplete and null when any cost is partial, unavailable or not_applicable", () => {
  for (
    const hole of [
      ["partial", 0.41, "resolved"],
      ["unavailable", null, "resolved"],
      ["not_applicable", null, "resolved"],
      ["unavailable", null, "harness_failure"],
    ] as Row[]
  ) {
    const got = costPerSuccess(cols([["complete", 0.05, "resolved"], hole]));
    assert.equal(got.label, "incomplete", hole[0]);
    assert.equal(got.usd, null);
    assert.equal(got.notComplete, 1);
  }
});

Deno.test("costPerSuccess() is not_computable and null when nothing succeeded, whatever the costs", () => {
  for (
    const rows of [
      [["complete", 0.015, "model_failure"], ["complete", 0.025, "timeout"]],
      [["complete", 0.015, "model_failure"], ["unavailable", null, "timeout"]],
      [],
    ] as Row[][]
  ) {
    const got = costPerSuccess(cols(rows));
    assert.equal(got.label, "not_computable");
    assert.equal(got.usd, null);
    assert.equal(got.successes, 0);
  }
});

Deno.test("costPerSuccess() refuses an ungraded (null) outcome, naming the row", () => {
  assert.throws(
    () =>
      costPerSuccess({
        costCompleteness: ["complete"],
        costUsd: [0.1],
        outcome: [null as unknown as FailureClass],
      }),
    {
      name: "RangeError",
      message:
        /^Cannot compute cost per success: row 0: outcome must be one of resolved, .*, got null \(an ungraded attempt has no outcome yet\)$/,
    },
  );
  assert.throws(
    () =>
      costPerSuccess({
        costCompleteness: ["complete"],
        costUsd: [0.1],
        outcome: [],
      }),
    /costCompleteness has 1 rows but outcome has 0/,
  );
});

const arbRow: fc.Arbitrary<Row> = fc.tuple(
  fc.constantFrom(...COST_COMPLETENESS),
  fc.double({ min: 0, max: 100, noNaN: true }),
  fc.constantFrom(...FAILURE_CLASSES),
).map(([c, usd, o]) =>
  [c, c === "complete" || c === "partial" ? usd : null, o] as Row
);

Deno.test("costPerSuccess() gives a number only under its label, and an unknown row can only remove it (property, seed 4309)", () => {
  fc.assert(
    fc.property(
      fc.array(arbRow, { maxLength: 30 }),
      fc.constantFrom<Row>(
        ["unavailable", null, "resolved"],
        ["unavailable", null, "harness_failure"],
        ["not_applicable", null, "resolved"],
      ),
      fc.nat(),
      (rows, unknown, at) => {
        const got = costPerSuccess(cols(rows));
        const successes = rows.filter((r) => r[2] === "resolved").length;
        const allComplete = rows.every((r) => r[0] === "complete");
        assert.equal(got.usd !== null, got.label === "complete");
        assert.equal(got.label === "complete", allComplete && successes > 0);
        assert.equal(got.label === "not_computable", successes === 0);
        const grown = [...rows];
        grown.splice(at % (rows.length + 1), 0, unknown);
        const after = costPerSuccess(cols(grown));
        // never a different number: either no figure, or none before either
        assert.equal(after.usd, null);
        assert.notEqual(after.label, "complete");
      },
    ),
    { seed: 4309, numRuns: 500 },
  );
});
