import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalJson } from "../../../lib/ledger/_canonical_json.ts";
import { fastDecisionRecord } from "../../../lib/ledger/_fast_record.ts";
import {
  checkLedgerRecord,
  ledgerRecordSchema,
} from "../../../lib/ledger/record.ts";
import { ledgerEntries } from "../../../lib/ledger/read.ts";
import { ledgerText } from "../../../lib/ledger/chain.ts";
import { decisionRec, FC } from "./_fixtures.ts";

Deno.test("canonicalJson() has one text per value: key order does not matter and parsing is a fixed point", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (v) => {
      const text = canonicalJson(v);
      assert.equal(canonicalJson(JSON.parse(text)), text);
      assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(v)));
    }),
    FC,
  );
  // integer-like keys keep their code-unit order, which a rebuilt object would not
  assert.equal(
    canonicalJson({ b: 1, 10: 2, 9: 3, a: [1.5, -0, null] }),
    '{"10":2,"9":3,"a":[1.5,0,null],"b":1}',
  );
  assert.throws(
    () => canonicalJson({ a: { b: NaN } }),
    /\(root\)\.a\.b must be a finite number/,
  );
});

// Mutations of a valid decision record: the hand-written check must agree with zod on each.
const mutations: [string, (r: Record<string, unknown>) => void][] = [
  ["valid", () => {}],
  ["extra field", (r) => (r.extra = 1)],
  ["missing served", (r) => delete r.served],
  ["risk 1.5", (r) => (r.risk = 1.5)],
  ["risk null", (r) => (r.risk = null)],
  ["negative expected loss", (r) => (r.expectedLoss = -1)],
  ["bad timestamp", (r) => (r.at = "2026-03-01 09:00")],
  ["impossible date", (r) => (r.at = "2026-02-30T09:00:00Z")],
  ["fractional timestamp", (r) => (r.at = "2026-03-01T09:00:00.125Z")],
  ["empty id", (r) => (r.id = "")],
  ["null model revision", (r) => (r.modelRevision = null)],
  ["empty prompt hash", (r) => (r.promptHash = "")],
  [
    "gold null",
    (r) => ((r.decision as Record<string, unknown>).trueClass = null),
  ],
  [
    "gold empty",
    (r) => ((r.decision as Record<string, unknown>).trueClass = ""),
  ],
  [
    "severity lower case",
    (r) => ((r.decision as Record<string, unknown>).severity = "high"),
  ],
  ["pCorrect 2", (r) => ((r.decision as Record<string, unknown>).pCorrect = 2)],
  [
    "cost usd on unavailable",
    (
      r,
    ) => ((r.decision as Record<string, unknown>).cost = {
      completeness: "unavailable",
      usd: 1,
    }),
  ],
  ["tokens", (r) => ((r.decision as Record<string, unknown>).tokensIn = 12)],
  [
    "fractional tokens",
    (r) => ((r.decision as Record<string, unknown>).tokensIn = 1.5),
  ],
  [
    "decision extra",
    (r) => ((r.decision as Record<string, unknown>).note = "x"),
  ],
  ["served string", (r) => (r.served = "yes")],
];

Deno.test("fastDecisionRecord() accepts exactly what the zod schema accepts", () => {
  for (const [name, mutate] of mutations) {
    const r = structuredClone(decisionRec("d1")) as unknown as Record<
      string,
      unknown
    >;
    mutate(r);
    const fast = fastDecisionRecord(r) !== null;
    const zod = ledgerRecordSchema.safeParse(r).success;
    assert.equal(fast, zod, name);
  }
});

Deno.test("checkLedgerRecord() names the file, line and field", () => {
  const bad = structuredClone(decisionRec("d1")) as unknown as Record<
    string,
    Record<string, unknown>
  >;
  bad.decision.pCorrect = 1.3;
  assert.throws(
    () => checkLedgerRecord(bad, "Cannot read ledger m.jsonl: line 17"),
    (e: Error) =>
      e instanceof RangeError &&
      e.message ===
        "Cannot read ledger m.jsonl: line 17: record.decision.pCorrect must be in [0, 1], got 1.3",
  );
  assert.throws(
    () => checkLedgerRecord({ kind: "memo" }, "here"),
    /here: record\.kind must be decision, review_opened, review_resolved or policy/,
  );
  const reject = {
    kind: "review_resolved",
    at: "2026-03-01T09:00:00Z",
    decisionId: "d1",
    resolution: "reject",
    trueClass: "X",
    reviewer: "ana",
  };
  assert.throws(
    () => checkLedgerRecord(reject, "here"),
    /trueClass must be null when resolution is reject/,
  );
  const open = {
    kind: "review_opened",
    at: "2026-03-01T09:00:00Z",
    decisionId: "d1",
    slaHours: 24,
    dueAt: "2026-03-01T10:00:00Z",
  };
  assert.throws(
    () => checkLedgerRecord(open, "here"),
    /dueAt must be at \+ slaHours \(2026-03-02T09:00:00\.000Z\)/,
  );
});

Deno.test("ledgerEntries() reads back exactly the records that were written", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          risk: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), {
            nil: null,
          }),
          gold: fc.option(fc.constantFrom("MATCH", "DUPLICATE", "ÄÖ\u2028"), {
            nil: null,
          }),
          pred: fc.constantFrom("MATCH", "DUPLICATE", "\ud800"),
        }),
        { maxLength: 8 },
      ),
      (rows) => {
        const records = rows.map((r, i) => decisionRec(`d${i}`, r));
        const text = ledgerText(records).text;
        const back = [...ledgerEntries(new TextEncoder().encode(text))].map((
          e,
        ) => e.record);
        assert.deepEqual(back, JSON.parse(JSON.stringify(records)));
      },
    ),
    FC,
  );
});
