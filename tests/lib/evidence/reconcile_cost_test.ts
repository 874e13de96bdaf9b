import assert from "node:assert/strict";
import {
  type AttemptSignals,
  reconcileCost,
} from "../../../lib/evidence/mod.ts";
import { envelope, REQUESTED, step } from "./_fixtures.ts";

const UNAVAILABLE = { completeness: "unavailable", usd: null };

Deno.test("reconcileCost() takes the cost from a valid envelope as written", () => {
  for (
    const cost of [
      { completeness: "complete", usd: 0 },
      { completeness: "complete", usd: 0.0123 },
      { completeness: "partial", usd: 0.41 },
      { completeness: "unavailable", usd: null },
      { completeness: "not_applicable", usd: null },
    ]
  ) {
    assert.deepEqual(reconcileCost(step({ envelope: envelope(cost) })), cost);
  }
});

Deno.test("reconcileCost() gives unavailable with null when there is no valid envelope", () => {
  assert.deepEqual(reconcileCost(step({ envelope: null })), UNAVAILABLE);
  // an envelope from another version is not evidence about this attempt
  assert.deepEqual(
    reconcileCost(step({
      envelope: {
        identity: { ...REQUESTED, version: "2025-12" },
        cost: { completeness: "complete", usd: 0.09 },
      },
    })),
    UNAVAILABLE,
  );
});

Deno.test("reconcileCost() gives unavailable when a valid envelope carries no cost", () => {
  assert.deepEqual(reconcileCost(step({ envelope: envelope() })), UNAVAILABLE);
});

Deno.test("reconcileCost() degrades a completeness outside the four literals to unavailable", () => {
  for (
    const cost of [
      { completeness: "estimated", usd: 0.2 },
      { completeness: "COMPLETE", usd: 0.2 },
      { completeness: null, usd: 0.2 },
      { usd: 0.2 },
      0.2,
      "0.2",
    ]
  ) {
    assert.deepEqual(
      reconcileCost(step({ envelope: envelope(cost) })),
      UNAVAILABLE,
      JSON.stringify(cost),
    );
  }
});

Deno.test("reconcileCost() degrades an amount that does not pair with its state to unavailable", () => {
  for (
    const cost of [
      { completeness: "complete", usd: null },
      { completeness: "complete", usd: -0.01 },
      { completeness: "complete", usd: Number.NaN },
      { completeness: "partial", usd: "0.41" },
      { completeness: "unavailable", usd: 0 },
      { completeness: "not_applicable", usd: 0.5 },
    ]
  ) {
    assert.deepEqual(
      reconcileCost(step({ envelope: envelope(cost) })),
      UNAVAILABLE,
      JSON.stringify(cost),
    );
  }
});

Deno.test("reconcileCost() gives not_applicable for a local step", () => {
  for (const exit of ["clean", "failed", "runner_error"] as const) {
    assert.deepEqual(
      reconcileCost({ kind: "local", exit } as AttemptSignals),
      { completeness: "not_applicable", usd: null },
    );
  }
});

Deno.test("reconcileCost() keeps the observed cost whatever the attempt's class", () => {
  const cost = { completeness: "partial", usd: 0.03 };
  for (
    const patch of [
      { cancelled: true },
      { timedOut: true },
      { exit: "failed" as const },
      { exit: "runner_error" as const },
      { grade: "fail" as const },
    ]
  ) {
    assert.deepEqual(
      reconcileCost(step({ envelope: envelope(cost), ...patch })),
      cost,
    );
  }
});

Deno.test("reconcileCost() copies only the two evidence fields", () => {
  const got = reconcileCost(step({
    envelope: envelope({ completeness: "complete", usd: 1, note: "x" }),
  }));
  assert.deepEqual(got, { completeness: "complete", usd: 1 });
});

Deno.test("reconcileCost() rejects malformed signals with the action in the message", () => {
  assert.throws(
    () => reconcileCost({ exit: "clean" } as unknown as AttemptSignals),
    /^TypeError: Cannot reconcile attempt cost: requested must be/,
  );
});
