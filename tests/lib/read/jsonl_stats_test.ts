import assert from "node:assert/strict";
import fc from "fast-check";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { decisionSchema, decisionStats } from "../../../lib/decision/mod.ts";
import {
  decisionTable,
  jsonlStats,
  parseDecisionsJsonl,
} from "../../../lib/read/mod.ts";
import { fastDecision } from "../../../lib/decision/_fast_decision.ts";
import { decision } from "../../_helpers.ts";

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

Deno.test("jsonlStats() gives the same statistics as the Arquero path (property, seed 41)", () => {
  const classes = ["MATCH", "AMOUNT_MISMATCH", "DUPLICATE"];
  const arb = fc.array(
    fc.record({
      runId: fc.constantFrom("r1", "r2"),
      modelId: fc.constantFrom("a", "b"),
      trial: fc.integer({ min: 0, max: 2 }),
      severity: fc.constantFrom(...SEVERITIES),
      trueClass: fc.constantFrom(...classes),
      predClass: fc.constantFrom(...classes),
      action: fc.constantFrom("auto" as const, "escalate" as const),
      pCorrect: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), {
        nil: null,
      }),
      parseOk: fc.boolean(),
    }),
    { maxLength: 80 },
  );
  fc.assert(
    fc.property(arb, (rows) => {
      const text = rows.map((r, i) =>
        JSON.stringify(decision({ ...r, taskId: `t${i}` }))
      ).join("\n");
      const fast = jsonlStats(text);
      const slow = decisionStats(decisionTable(parseDecisionsJsonl(text)));
      assert.equal(fast.decisions, rows.length);
      assert.equal(fast.stats.length, slow.length);
      fast.stats.forEach((f, i) => {
        const s = slow[i];
        assert.deepEqual(
          [
            f.modelId,
            f.severity,
            f.trueClass,
            f.predClass,
            f.action,
            f.n,
            f.pMissing,
            f.parseFailures,
          ],
          [
            s.modelId,
            s.severity,
            s.trueClass,
            s.predClass,
            s.action,
            s.n,
            s.pMissing,
            s.parseFailures,
          ],
        );
        assert.ok(close(f.pErrorSum, s.pErrorSum));
      });
    }),
    { seed: 41, numRuns: 150 },
  );
});

Deno.test("jsonlStats() reports the same errors as parseDecisionsJsonl()", () => {
  const cases = [
    [
      JSON.stringify(decision()),
      JSON.stringify({ ...decision({ taskId: "x" }), pCorrect: 7 }),
    ],
    [JSON.stringify(decision()), "{nope"],
    [JSON.stringify(decision()), JSON.stringify(decision())],
    ["[1]"],
    [JSON.stringify({ ...decision(), extra: 1 })],
  ];
  for (const lines of cases) {
    const text = lines.join("\n");
    let expected = "";
    try {
      parseDecisionsJsonl(text, { path: "p.jsonl" });
    } catch (e) {
      expected = `${(e as Error).name}: ${(e as Error).message}`;
    }
    assert.notEqual(expected, "");
    assert.throws(
      () => jsonlStats(text, { path: "p.jsonl" }),
      (e: Error) => `${e.name}: ${e.message}` === expected,
    );
  }
});

Deno.test("jsonlStats() reports progress every 100,000 decisions", () => {
  const text = Array.from(
    { length: 200_001 },
    (_, i) => JSON.stringify(decision({ taskId: `t${i}` })),
  ).join("\n");
  const calls: number[] = [];
  jsonlStats(text, { onProgress: (lines) => calls.push(lines) });
  assert.deepEqual(calls, [100_000, 200_000]);
});

Deno.test("the fast Decision check accepts exactly what the zod schema accepts (property, seed 43)", () => {
  const valid = decision();
  const weird = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.boolean(),
    fc.constantFrom(0, -1, 1, 0.5, 1.5, 1e300, -0, 2 ** 53, 3.2),
    fc.constantFrom(
      "",
      "x",
      "HIGH",
      "auto",
      "escalate",
      "resolved",
      "MATCH",
      "LOW",
      "stated",
      "agreement@2",
      "agreement@0",
      "score-metadata:",
      "score-metadata:confidence",
    ),
    fc.constant([]),
    fc.constant({}),
    fc.constantFrom(
      { completeness: "complete", usd: 0 },
      { completeness: "partial", usd: -1 },
      { completeness: "unavailable", usd: null },
      { completeness: "unavailable", usd: 0 },
      { completeness: "not_applicable", usd: null, extra: 1 },
      { completeness: "complete" },
    ),
  );
  const keys = [
    ...Object.keys(valid),
    "tokensIn",
    "tokensOut",
    "latencyMs",
    "pCorrectSource",
    "answer",
    "target",
    "bogus",
  ];
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom(...keys), weird), { maxLength: 3 }),
      (patches) => {
        const value: Record<string, unknown> = { ...valid };
        for (const [k, v] of patches) {
          if (v === undefined) delete value[k];
          else value[k] = v;
        }
        const roundTrip = JSON.parse(JSON.stringify(value));
        assert.equal(
          fastDecision(roundTrip) !== null,
          decisionSchema.safeParse(roundTrip).success,
          JSON.stringify(roundTrip),
        );
      },
    ),
    { seed: 43, numRuns: 3000 },
  );
});
