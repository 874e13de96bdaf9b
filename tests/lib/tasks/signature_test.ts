import assert from "node:assert/strict";
import {
  canonicalJson,
  checkTask,
  generateTask,
  sha256Hex,
  taskPrompt,
  taskSignature,
} from "../../../lib/tasks/mod.ts";

Deno.test("canonicalJson() sorts keys at every depth and writes numbers without exponents", () => {
  assert.equal(
    canonicalJson({ z: { b: 1, a: [true, null, "é"] }, a: -0.125 }),
    '{"a":-0.125,"z":{"a":[true,null,"é"],"b":1}}',
  );
  assert.equal(canonicalJson({ a: 1, b: undefined }), '{"a":1}');
  assert.throws(() => canonicalJson(1e21), TypeError);
  assert.throws(() => canonicalJson(NaN), TypeError);
  assert.throws(() => canonicalJson(1n), TypeError);
  assert.equal(
    canonicalJson(JSON.parse(canonicalJson({ b: [1.5, 2], a: "x" }))),
    '{"a":"x","b":[1.5,2]}',
  );
});

Deno.test("taskSignature() ignores id, seed, index, difficulty and prompt but not content", () => {
  const t = generateTask("reconciliation", 7, 2);
  assert.equal(taskSignature(t), t.signature);
  const renamed = {
    ...t,
    id: "x",
    seed: 1,
    index: 9,
    difficulty: 0,
    prompt: "",
  };
  assert.equal(taskSignature(renamed), t.signature);
  const s = structuredClone(t.state);
  (s.ledger as { amount: string }).amount = "0.01";
  assert.notEqual(taskSignature({ ...t, state: s }), t.signature);
  assert.notEqual(
    taskSignature({ ...t, gold: { ...t.gold, severity: "CRITICAL" } }),
    t.signature,
  );
  assert.equal(
    sha256Hex(""),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
});

Deno.test("taskPrompt() states every rule value the label depends on", () => {
  const r = generateTask("reconciliation", 7, 0).prompt;
  for (
    const needle of [
      "at most 0.05",
      "10 basis points",
      ">= 3/4",
      "DEUTDEFFXXX",
      "following Monday",
      "at least 8 characters",
      "9. VALUE_DATE_MISMATCH",
    ]
  ) {
    assert.ok(r.includes(needle), needle);
  }
  const p = generateTask("payment_repair", 7, 0).prompt;
  for (
    const needle of [
      "fraudScore >= 70",
      "at most 3 calendar days",
      "longer than 140",
      "mod 97",
      "DE: 22",
      "repairSafe false, action HOLD_FOR_FRAUD_REVIEW",
    ]
  ) {
    assert.ok(p.includes(needle), needle);
  }
  const s = generateTask("settlement", 7, 0);
  for (
    const needle of [
      "EUR 16:00",
      "strictly after",
      "below 1000000.00 UNDER_1M",
      "1. HERSTATT_EXPOSURE (severity CRITICAL",
    ]
  ) {
    assert.ok(s.prompt.includes(needle), needle);
  }
  assert.ok(s.prompt.includes(canonicalJson(s.state)));
  assert.equal(taskPrompt(s.domain, s.state), s.prompt);
});

Deno.test("checkTask() reports a tampered label, signature or prompt", () => {
  const t = generateTask("settlement", 7, 4);
  assert.deepEqual(checkTask(t).problems, []);
  assert.match(
    checkTask({ ...t, gold: { ...t.gold, exposureClass: "NONE_SUCH" } })
      .problems.join(),
    /gold\.exposureClass/,
  );
  assert.deepEqual(checkTask({ ...t, signature: "0".repeat(64) }).problems, [
    "signature does not match the task content",
  ]);
  assert.deepEqual(
    checkTask({ ...t, prompt: t.prompt.replace("16:00", "17:00") }).problems,
    [
      "prompt is not the rule table's prompt for this state",
    ],
  );
});
