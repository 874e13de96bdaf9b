import assert from "node:assert/strict";
import { type FailureClass, successRate } from "../../../lib/evidence/mod.ts";
import { rate } from "../../../lib/math/rate.ts";

Deno.test("successRate() over an empty denominator is null with a null interval", () => {
  // yylo-benchmark: "a rate computed over an empty denominator is not 0.0 — it is null"
  assert.deepEqual(successRate([]), {
    numerator: 0,
    denominator: 0,
    value: null,
    interval: null,
  });
  const allInvalid = successRate(
    ["harness_failure", "harness_failure"],
    { exclude: ["harness_failure"] },
  );
  assert.equal(allInvalid.denominator, 0);
  assert.equal(allInvalid.value, null);
  assert.equal(allInvalid.interval, null);
});

Deno.test("successRate() is resolved over counted attempts, with rate()'s Wilson interval", () => {
  const outcome: FailureClass[] = [
    "resolved",
    "resolved",
    "grader_failure",
    "cancelled",
  ];
  assert.deepEqual(successRate(outcome), rate(2, 4));
  assert.deepEqual(
    successRate(outcome, { exclude: ["cancelled"], level: 0.9 }),
    rate(2, 3, { level: 0.9 }),
  );
});

Deno.test("successRate() refuses to exclude resolved, unknown classes and ungraded outcomes", () => {
  assert.throws(
    () => successRate(["resolved"], { exclude: ["resolved"] }),
    {
      name: "RangeError",
      message:
        'Cannot compute success rate: exclude must not contain resolved, got ["resolved"]',
    },
  );
  assert.throws(
    () => successRate(["resolved"], { exclude: ["oops" as FailureClass] }),
    /exclude must list failure classes .*, got "oops"/,
  );
  assert.throws(
    () => successRate([null as unknown as FailureClass]),
    /row 0: outcome must be one of .*, got null/,
  );
  assert.throws(
    () => successRate(null as unknown as FailureClass[]),
    /^TypeError: Cannot compute success rate: outcome must be an array, got null$/,
  );
});
