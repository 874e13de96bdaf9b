import assert from "node:assert/strict";
import { type FailureClass, stepCells } from "../../../lib/evidence/mod.ts";

Deno.test("stepCells() makes a harness-invalid step's cell null, not false", () => {
  // yylo-benchmark: "When a model's receipts for a step include a harness-invalid one, that cell is null — not false"
  assert.deepEqual(
    stepCells(
      [true, false, false, true],
      ["resolved", "grader_failure", "harness_failure", "harness_failure"],
    ),
    [true, false, null, null],
  );
});

Deno.test("stepCells() keeps false for a valid answer that was no, and null stays null", () => {
  assert.deepEqual(
    stepCells([false, null], ["model_failure", "resolved"]),
    [false, null],
  );
});

Deno.test("stepCells() takes other invalid classes when asked", () => {
  assert.deepEqual(
    stepCells([false, false], ["environment_failure", "harness_failure"], {
      invalid: ["environment_failure", "harness_failure"],
    }),
    [null, null],
  );
  assert.deepEqual(
    stepCells([false], ["harness_failure"], { invalid: [] }),
    [false],
  );
});

Deno.test("stepCells() names the bad row and value", () => {
  assert.throws(
    () => stepCells([1 as unknown as boolean], ["resolved"]),
    {
      name: "TypeError",
      message:
        "Cannot build step cells: row 0: value must be true, false or null, got 1",
    },
  );
  assert.throws(
    () => stepCells([true], ["broken" as FailureClass]),
    /row 0: outcome must be one of .*, got "broken"/,
  );
  assert.throws(
    () => stepCells([true, false], ["resolved"]),
    /values has 2 rows but outcome has 1/,
  );
});
