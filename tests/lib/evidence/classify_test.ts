import assert from "node:assert/strict";
import {
  type AttemptSignals,
  classifyAttempt,
  FAILURE_CLASSES,
} from "../../../lib/evidence/mod.ts";
import { envelope, REQUESTED, step } from "./_fixtures.ts";

Deno.test("classifyAttempt() puts cancellation first, before every other signal", () => {
  // yylo-benchmark: "cancellation signals first, then timeout, then harness failure ..."
  for (const exit of ["clean", "failed", "runner_error"] as const) {
    for (const env of [envelope(), null]) {
      assert.equal(
        classifyAttempt(step({
          cancelled: true,
          timedOut: true,
          envelope: env,
          exit,
          grade: "pass",
        })),
        "cancelled",
      );
    }
  }
});

Deno.test("classifyAttempt() puts timeout second, before a missing envelope", () => {
  assert.equal(
    classifyAttempt(step({ timedOut: true, envelope: null })),
    "timeout",
  );
  assert.equal(
    classifyAttempt(step({ timedOut: true, cancelled: false, grade: "pass" })),
    "timeout",
  );
});

Deno.test("classifyAttempt() gives harness_failure when the envelope is missing", () => {
  assert.equal(
    classifyAttempt(step({ envelope: null, grade: "pass" })),
    "harness_failure",
  );
  // before the candidate side: a missing envelope outranks a failed candidate
  assert.equal(
    classifyAttempt(step({ envelope: null, exit: "failed" })),
    "harness_failure",
  );
  assert.equal(
    classifyAttempt(step({ envelope: null, exit: "runner_error" })),
    "harness_failure",
  );
});

Deno.test("classifyAttempt() gives harness_failure when the envelope's provider, model or version differs", () => {
  for (
    const identity of [
      { ...REQUESTED, provider: "other" },
      { ...REQUESTED, model: "beta" },
      { ...REQUESTED, version: "2025-12" },
    ]
  ) {
    assert.equal(
      classifyAttempt(step({ envelope: { identity }, grade: "pass" })),
      "harness_failure",
      JSON.stringify(identity),
    );
  }
});

Deno.test("classifyAttempt() gives environment_failure when the runner throws, model_failure when the candidate fails", () => {
  assert.equal(
    classifyAttempt(step({ exit: "runner_error" })),
    "environment_failure",
  );
  assert.equal(classifyAttempt(step({ exit: "failed" })), "model_failure");
});

Deno.test("classifyAttempt() leaves a clean exit unresolved (null) until graded", () => {
  // yylo-benchmark: "successful execution remains unresolved until governed grading"
  assert.equal(classifyAttempt(step()), null);
  assert.equal(classifyAttempt(step({ grade: null })), null);
  assert.notEqual(classifyAttempt(step()), "resolved");
});

Deno.test("classifyAttempt() overlays grading on a clean exit: pass is resolved, fail is grader_failure", () => {
  assert.equal(classifyAttempt(step({ grade: "pass" })), "resolved");
  assert.equal(classifyAttempt(step({ grade: "fail" })), "grader_failure");
});

Deno.test("classifyAttempt() lets an unsuccessful candidate keep its own class whatever the grade", () => {
  for (const grade of ["pass", "fail", null] as const) {
    assert.equal(
      classifyAttempt(step({ exit: "failed", grade })),
      "model_failure",
    );
    assert.equal(
      classifyAttempt(step({ exit: "runner_error", grade })),
      "environment_failure",
    );
    assert.equal(
      classifyAttempt(step({ envelope: null, grade })),
      "harness_failure",
    );
  }
});

Deno.test("classifyAttempt() skips the envelope check for a local step", () => {
  const local = (patch: Partial<AttemptSignals> = {}): AttemptSignals =>
    ({ kind: "local", exit: "clean", ...patch }) as AttemptSignals;
  assert.equal(classifyAttempt(local({ grade: "pass" })), "resolved");
  assert.equal(classifyAttempt(local()), null);
  assert.equal(classifyAttempt(local({ exit: "failed" })), "model_failure");
  assert.equal(classifyAttempt(local({ cancelled: true })), "cancelled");
});

Deno.test("classifyAttempt() never produces the reserved classes safety_failure and invalid_case", () => {
  const produced = new Set<string | null>();
  for (const cancelled of [false, true]) {
    for (const timedOut of [false, true]) {
      for (const env of [envelope(), null]) {
        for (const exit of ["clean", "failed", "runner_error"] as const) {
          for (const grade of ["pass", "fail", null] as const) {
            produced.add(
              classifyAttempt(
                step({ cancelled, timedOut, envelope: env, exit, grade }),
              ),
            );
          }
        }
      }
    }
  }
  assert.deepEqual(
    [...produced].sort(),
    [
      "cancelled",
      "environment_failure",
      "grader_failure",
      "harness_failure",
      "model_failure",
      "resolved",
      "timeout",
      null,
    ].sort(),
  );
  for (const c of produced) {
    if (c !== null) assert.ok(FAILURE_CLASSES.includes(c as never));
  }
});

Deno.test("classifyAttempt() names the bad signal and its value", () => {
  const bad = (s: unknown) => classifyAttempt(s as AttemptSignals);
  assert.throws(() => bad(step({ exit: "ok" as never })), {
    name: "TypeError",
    message:
      'Cannot classify attempt: exit must be one of clean, failed, runner_error, got "ok"',
  });
  assert.throws(() => bad(step({ grade: "maybe" as never })), {
    name: "TypeError",
    message:
      'Cannot classify attempt: grade must be "pass", "fail" or null, got "maybe"',
  });
  assert.throws(() => bad(step({ cancelled: "yes" as never })), {
    name: "TypeError",
    message:
      'Cannot classify attempt: cancelled must be true or false, got "yes"',
  });
  assert.throws(
    () => bad({ exit: "clean", envelope: null }),
    /requested must be an identity with non-empty provider, model and version, got nothing/,
  );
  assert.throws(
    () => bad({ requested: REQUESTED, exit: "clean" }),
    /envelope must be an envelope, or null when none was found/,
  );
  assert.throws(
    () => bad(step({ envelope: { identity: { provider: "acme" } } as never })),
    /envelope\.identity must have non-empty provider, model and version, got \{"provider":"acme"\}/,
  );
  assert.throws(
    () => bad({ kind: "local", exit: "clean", envelope: envelope() }),
    /a local step spawns no provider child/,
  );
  assert.throws(() => bad(null), /signals must be an object, got null/);
});
