import assert from "node:assert/strict";
import fc from "fast-check";
import {
  COST_COMPLETENESS,
  type CostCompleteness,
  costTotals,
} from "../../../lib/evidence/mod.ts";

type Row = { completeness: CostCompleteness; usd: number | null };

function cols(rows: readonly Row[]) {
  return {
    costCompleteness: rows.map((r) => r.completeness),
    costUsd: rows.map((r) => r.usd),
  };
}

Deno.test("costTotals() sums complete costs to one total", () => {
  const t = costTotals({
    costCompleteness: ["complete", "complete", "complete"],
    costUsd: [0.012, 0.02, 0.008],
  });
  assert.ok(Math.abs(t.completeUsd! - 0.04) < 1e-15);
  assert.equal(t.counts.complete, 3);
  assert.equal(t.partialFloorUsd, null);
});

Deno.test("costTotals() sums partial costs to a separate observed floor", () => {
  const t = costTotals({
    costCompleteness: ["complete", "partial", "partial"],
    costUsd: [0.05, 0.41, 0.03],
  });
  assert.equal(t.completeUsd, 0.05);
  assert.ok(Math.abs(t.partialFloorUsd! - 0.44) < 1e-15);
  assert.ok(Math.abs(t.observedUsd! - 0.49) < 1e-15);
  assert.equal(t.counts.partial, 2);
});

Deno.test("costTotals() counts unavailable and not_applicable and never sums them", () => {
  const t = costTotals({
    costCompleteness: ["unavailable", "not_applicable", "unavailable"],
    costUsd: [null, null, null],
  });
  assert.deepEqual(t, {
    attempts: 3,
    counts: { complete: 0, partial: 0, unavailable: 2, not_applicable: 1 },
    completeUsd: null,
    partialFloorUsd: null,
    observedUsd: null,
  });
});

Deno.test("costTotals() keeps a genuine complete 0 as a 0 total, distinct from no evidence", () => {
  const zero = costTotals({ costCompleteness: ["complete"], costUsd: [0] });
  assert.ok(Object.is(zero.completeUsd, 0));
  const none = costTotals({ costCompleteness: [], costUsd: [] });
  assert.equal(none.completeUsd, null);
  assert.equal(none.attempts, 0);
});

Deno.test("costTotals() refuses an amount that does not pair with its state, naming row and value", () => {
  assert.throws(
    () =>
      costTotals({
        costCompleteness: ["complete", "unavailable"],
        costUsd: [0.1, 0],
      }),
    {
      name: "RangeError",
      message:
        "Cannot total costs: row 1: costUsd must be null when costCompleteness is unavailable, got 0",
    },
  );
  assert.throws(
    () => costTotals({ costCompleteness: ["complete"], costUsd: [null] }),
    {
      name: "TypeError",
      message:
        "Cannot total costs: row 0: costUsd must be a number when costCompleteness is complete, got null",
    },
  );
  assert.throws(
    () => costTotals({ costCompleteness: ["partial"], costUsd: [-1] }),
    /row 0: costUsd must be finite and >= 0, got -1/,
  );
  assert.throws(
    () =>
      costTotals({
        costCompleteness: ["estimated" as CostCompleteness],
        costUsd: [1],
      }),
    /row 0: costCompleteness must be one of complete, partial, unavailable, not_applicable, got "estimated"/,
  );
  assert.throws(
    () => costTotals({ costCompleteness: ["complete"], costUsd: [] }),
    /costCompleteness has 1 rows but costUsd has 0/,
  );
});

Deno.test("costTotals() does not mutate its columns", () => {
  const c = cols([{ completeness: "complete", usd: 1 }]);
  const before = JSON.stringify(c);
  costTotals(c);
  assert.equal(JSON.stringify(c), before);
});

// Rows drawn with legal pairs: dollars only where the state allows them.
const arbRow: fc.Arbitrary<Row> = fc.constantFrom(...COST_COMPLETENESS).chain(
  (completeness): fc.Arbitrary<Row> =>
    completeness === "complete" || completeness === "partial"
      ? fc.double({ min: 0, max: 1e4, noNaN: true, noDefaultInfinity: true })
        .map((usd) => ({ completeness, usd: Math.abs(usd) }))
      : fc.constant({ completeness, usd: null }),
);
const arbUnknown: fc.Arbitrary<Row> = fc.constantFrom(
  { completeness: "unavailable" as const, usd: null },
  { completeness: "not_applicable" as const, usd: null },
);

Deno.test("costTotals() never turns an unknown into a number (property, seed 20260828)", () => {
  const seed = 20260828;
  const close = (a: number | null, b: number | null) =>
    a === null
      ? b === null
      : b !== null && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
  fc.assert(
    fc.property(
      fc.array(arbRow, { maxLength: 40 }),
      fc.array(fc.tuple(fc.nat(), arbUnknown), { maxLength: 20 }),
      (rows, inserts) => {
        const t = costTotals(cols(rows));
        // The complete total is the sum over complete rows only, and exists
        // exactly when some row is complete; likewise the partial floor.
        const completeRows = rows.filter((r) => r.completeness === "complete");
        const partialRows = rows.filter((r) => r.completeness === "partial");
        const sumOf = (rs: Row[]) =>
          rs.length === 0 ? null : rs.reduce((s, r) => s + r.usd!, 0);
        assert.ok(close(t.completeUsd, sumOf(completeRows)));
        assert.ok(close(t.partialFloorUsd, sumOf(partialRows)));
        assert.equal(
          Object.values(t.counts).reduce((a, b) => a + b, 0),
          rows.length,
        );
        // Inserting unavailable / not_applicable rows anywhere changes only counts.
        const grown = [...rows];
        for (const [at, row] of inserts) {
          grown.splice(at % (grown.length + 1), 0, row);
        }
        const g = costTotals(cols(grown));
        assert.ok(Object.is(g.completeUsd, t.completeUsd));
        assert.ok(Object.is(g.partialFloorUsd, t.partialFloorUsd));
        assert.ok(Object.is(g.observedUsd, t.observedUsd));
        assert.equal(g.counts.complete, t.counts.complete);
        assert.equal(g.counts.partial, t.counts.partial);
        assert.equal(
          g.counts.unavailable + g.counts.not_applicable,
          t.counts.unavailable + t.counts.not_applicable + inserts.length,
        );
      },
    ),
    { seed, numRuns: 500 },
  );
});
