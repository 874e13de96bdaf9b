import assert from "node:assert/strict";
import fc from "fast-check";
import {
  binEdges,
  binIndex,
  reliabilityDiagram,
} from "../../../lib/calibration/mod.ts";

// Fixed seed: a failure prints the seed and the shrunk counterexample.
const FC = { seed: 20_261_130, numRuns: 300, verbose: 1 } as const;

// probabilities with many ties: a few distinct values, repeated
const tiedProbabilities = fc.array(
  fc.integer({ min: 0, max: 20 }).map((k) => k / 20),
  { minLength: 0, maxLength: 200 },
);

Deno.test("binEdges() equal-mass never puts equal probabilities on both sides of an edge", () => {
  fc.assert(
    fc.property(
      tiedProbabilities,
      fc.integer({ min: 1, max: 15 }),
      (p, bins) => {
        const edges = binEdges(p, { bins, strategy: "equal-mass" });
        assert.equal(edges[0], 0);
        assert.equal(edges[edges.length - 1], 1);
        assert.ok(edges.length <= bins + 1);
        for (let i = 1; i < edges.length; i++) {
          assert.ok(
            edges[i] > edges[i - 1],
          );
        }
        // every inner edge separates two distinct observed values: nothing
        // observed lies strictly between the largest value below it and the edge
        for (let i = 1; i < edges.length - 1; i++) {
          const below = p.filter((v) => v <= edges[i]);
          const above = p.filter((v) => v > edges[i]);
          assert.ok(below.length > 0 && above.length > 0);
          assert.ok(Math.max(...below) < Math.min(...above));
        }
      },
    ),
    FC,
  );
});

Deno.test("binEdges() equal-mass gives bins within one decision of n/B when values are distinct", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 0, max: 1_000_000 }), {
        minLength: 1,
        maxLength: 300,
      }),
      fc.integer({ min: 1, max: 20 }),
      (ints, bins) => {
        const p = ints.map((k) => k / 1_000_000);
        const d = reliabilityDiagram(p, p.map(() => 1), {
          bins,
          strategy: "equal-mass",
        });
        const want = Math.min(bins, p.length);
        assert.equal(d.nonEmptyBins, want);
        for (const b of d.bins) {
          assert.ok(
            Math.abs(b.n - p.length / want) <= 1 + 1e-9,
            `${b.n} vs ${p.length}/${want}`,
          );
        }
      },
    ),
    FC,
  );
});

Deno.test("binIndex() puts a value on an inner edge in the lower bin (scikit-learn's right-closed convention)", () => {
  const edges = binEdges([], { bins: 10 });
  for (let i = 1; i < 10; i++) {
    assert.equal(binIndex(edges, i / 10), i - 1, `edge ${i / 10}`);
  }
  assert.equal(binIndex(edges, 0), 0);
  assert.equal(binIndex(edges, 1), 9);
});

Deno.test("reliabilityDiagram() bins agree with binIndex() and count every decision once", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean()),
        { maxLength: 200 },
      ),
      fc.integer({ min: 1, max: 12 }),
      fc.constantFrom("equal-width" as const, "equal-mass" as const),
      (rows, bins, strategy) => {
        const p = rows.map((r) => r[0]);
        const y = rows.map((r) => (r[1] ? 1 : 0));
        const d = reliabilityDiagram(p, y, { bins, strategy });
        const counts = new Array(d.edges.length - 1).fill(0);
        for (const v of p) counts[binIndex(d.edges, v)]++;
        assert.deepEqual(d.bins.map((b) => b.n), counts);
        assert.equal(d.n, p.length);
        assert.equal(d.nonEmptyBins, counts.filter((c) => c > 0).length);
      },
    ),
    FC,
  );
});

Deno.test("binEdges() names a bad bin count or strategy", () => {
  assert.throws(() => binEdges([], { bins: 0 }), RangeError);
  assert.throws(
    () => binEdges([], { bins: 2.5 }),
    /bins must be an integer >= 1, got 2.5/,
  );
  assert.throws(
    () => binEdges([], { strategy: "quantile" as never }),
    /strategy must be equal-width or equal-mass, got "quantile"/,
  );
});
