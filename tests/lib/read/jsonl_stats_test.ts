import assert from "node:assert/strict";
import fc from "fast-check";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { decisionStats } from "../../../lib/decision/mod.ts";
import {
  decisionTable,
  jsonlStats,
  parseDecisionsJsonl,
} from "../../../lib/read/mod.ts";
import { decision } from "../../_helpers.ts";

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
      // the same cells and the same exact sums, to the last bit
      assert.deepEqual(fast.stats, slow);
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
