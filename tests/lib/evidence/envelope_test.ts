import assert from "node:assert/strict";
import {
  isModelIdentity,
  readEnvelope,
  sameIdentity,
} from "../../../lib/evidence/mod.ts";
import { envelopeLine, REQUESTED } from "./_fixtures.ts";

Deno.test("readEnvelope() ignores progress logs before the final structured object", () => {
  const stdout = [
    "loading model",
    "progress 1/3",
    "progress 2/3",
    envelopeLine({ completeness: "complete", usd: 0.012 }),
    "",
  ].join("\n");
  assert.deepEqual(readEnvelope(stdout), {
    identity: REQUESTED,
    cost: { completeness: "complete", usd: 0.012 },
  });
});

Deno.test("readEnvelope() never reads a number from prose or logs", () => {
  // yylo-benchmark: "no log line, no model prose, and no partial output can supply a number"
  assert.equal(readEnvelope("The call cost $0.07.\ncost=0.07\n"), null);
  assert.equal(readEnvelope(""), null);
  assert.equal(readEnvelope('{"identity": {"provider": "acme"'), null);
});

Deno.test("readEnvelope() takes the final structured object, and none when it is not an envelope", () => {
  const first = envelopeLine({ completeness: "complete", usd: 1 });
  const second = envelopeLine({ completeness: "partial", usd: 2 });
  assert.deepEqual(readEnvelope(`${first}\n${second}\n`)?.cost, {
    completeness: "partial",
    usd: 2,
  });
  // a structured log after the envelope is the final structured object: no envelope
  assert.equal(readEnvelope(`${first}\n{"progress": 1}\n`), null);
  // an array or a JSON scalar is not a structured object and is skipped
  assert.ok(readEnvelope(`${first}\n[1, 2]\n42\n`) !== null);
});

Deno.test("readEnvelope() leaves the cost unchecked and absent when the envelope has none", () => {
  assert.deepEqual(readEnvelope(envelopeLine()), { identity: REQUESTED });
  assert.deepEqual(
    readEnvelope(envelopeLine({ completeness: "estimated", usd: 3 }))?.cost,
    { completeness: "estimated", usd: 3 },
  );
  assert.throws(() => readEnvelope(42 as unknown as string), {
    name: "TypeError",
    message:
      "Cannot read execution envelope: stdout must be a string, got number",
  });
});

Deno.test("sameIdentity() requires provider, model and version all equal", () => {
  assert.equal(sameIdentity(REQUESTED, { ...REQUESTED }), true);
  assert.equal(sameIdentity(REQUESTED, { ...REQUESTED, provider: "b" }), false);
  assert.equal(sameIdentity(REQUESTED, { ...REQUESTED, model: "beta" }), false);
  assert.equal(sameIdentity(REQUESTED, { ...REQUESTED, version: "x" }), false);
});

Deno.test("isModelIdentity() rejects missing or empty fields", () => {
  assert.equal(isModelIdentity(REQUESTED), true);
  assert.equal(isModelIdentity({ ...REQUESTED, version: "" }), false);
  assert.equal(isModelIdentity({ ...REQUESTED, version: 1 }), false);
  assert.equal(isModelIdentity(null), false);
});
