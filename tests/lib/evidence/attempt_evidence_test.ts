// The three positive controls of `yylo-benchmark`, each through the whole
// path: candidate stdout -> readEnvelope -> classifyAttempt + reconcileCost.
import assert from "node:assert/strict";
import {
  attemptEvidence,
  isCostEvidence,
  readEnvelope,
} from "../../../lib/evidence/mod.ts";
import { envelopeLine, REQUESTED } from "./_fixtures.ts";

function run(stdout: string) {
  return attemptEvidence({
    requested: REQUESTED,
    envelope: readEnvelope(stdout),
    exit: "clean",
    grade: "pass",
  });
}

Deno.test("attemptEvidence() positive control cost:missing is unavailable with null", () => {
  // yylo-benchmark: cost:missing "observed as unavailable with null"
  const e = run(`progress 1/1\n${envelopeLine()}\n`);
  assert.equal(e.cost.completeness, "unavailable");
  assert.equal(e.cost.usd, null);
  // a missing price is not itself a failure
  assert.equal(e.outcome, "resolved");
});

Deno.test("attemptEvidence() positive control cost:zero is complete with exactly 0", () => {
  // yylo-benchmark: cost:zero "observed as complete with exactly 0"
  const e = run(envelopeLine({ completeness: "complete", usd: 0 }));
  assert.equal(e.cost.completeness, "complete");
  assert.ok(Object.is(e.cost.usd, 0));
  assert.equal(e.outcome, "resolved");
});

Deno.test("attemptEvidence() positive control cost:positive is complete and greater than 0", () => {
  // yylo-benchmark: cost:positive "observed as complete and greater than zero"
  const e = run(envelopeLine({ completeness: "complete", usd: 0.0123 }));
  assert.equal(e.cost.completeness, "complete");
  assert.ok(typeof e.cost.usd === "number" && e.cost.usd > 0);
  assert.equal(e.cost.usd, 0.0123);
});

Deno.test("attemptEvidence() keeps the three controls distinct from each other", () => {
  const shown = [
    run(envelopeLine()),
    run(envelopeLine({ completeness: "complete", usd: 0 })),
    run(envelopeLine({ completeness: "complete", usd: 0.0123 })),
  ].map((e) => JSON.stringify(e.cost));
  assert.equal(new Set(shown).size, 3);
});

Deno.test("attemptEvidence() records a harness failure's cost as unavailable, never 0", () => {
  const e = run("I spent $0.00 on this\n");
  assert.deepEqual(e, {
    outcome: "harness_failure",
    cost: { completeness: "unavailable", usd: null },
  });
  assert.ok(isCostEvidence(e.cost));
});

Deno.test("attemptEvidence() records a local step as not_applicable, distinct from unavailable", () => {
  const e = attemptEvidence({ kind: "local", exit: "clean", grade: "pass" });
  assert.deepEqual(e, {
    outcome: "resolved",
    cost: { completeness: "not_applicable", usd: null },
  });
});
