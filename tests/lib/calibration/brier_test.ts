import assert from "node:assert/strict";
import fc from "fast-check";
import {
  brierDecomposition,
  brierScore,
} from "../../../lib/calibration/mod.ts";

const FC = { seed: 20_261_132, numRuns: 300, verbose: 1 } as const;

const rows = fc.array(
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean()),
  { minLength: 1, maxLength: 200 },
);

Deno.test("brierDecomposition() adds up: brier = reliability − resolution + uncertainty + withinBin", () => {
  fc.assert(
    fc.property(
      rows,
      fc.integer({ min: 1, max: 20 }),
      fc.constantFrom("equal-width" as const, "equal-mass" as const),
      (r, bins, strategy) => {
        const p = r.map((x) => x[0]);
        const y = r.map((x) => (x[1] ? 1 : 0));
        const d = brierDecomposition(p, y, { bins, strategy })!;
        assert.ok(
          Math.abs(
            d.brier -
              (d.reliability - d.resolution + d.uncertainty + d.withinBin),
          ) < 1e-12,
        );
        assert.ok(d.reliability >= 0 && d.resolution >= 0);
        assert.ok(d.uncertainty >= 0 && d.uncertainty <= 0.25);
      },
    ),
    FC,
  );
});

Deno.test("brierDecomposition() is Murphy's exact identity when every bin holds one forecast value", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.boolean()), {
        minLength: 1,
        maxLength: 200,
      }),
      (r) => {
        // forecasts at bin centres 0.05, 0.15, ..., 0.95: one value per bin
        const p = r.map((x) => x[0] / 10 + 0.05);
        const y = r.map((x) => (x[1] ? 1 : 0));
        const d = brierDecomposition(p, y, { bins: 10 })!;
        assert.ok(Math.abs(d.withinBin) < 1e-12);
      },
    ),
    FC,
  );
});

Deno.test("brierScore() is the mean squared error of the stated probability", () => {
  fc.assert(
    fc.property(rows, (r) => {
      const p = r.map((x) => x[0]);
      const y = r.map((x) => (x[1] ? 1 : 0));
      const mse = p.reduce((s, v, i) => s + (v - y[i]) ** 2, 0) / p.length;
      assert.ok(Math.abs(brierScore(p, y)! - mse) < 1e-12);
    }),
    FC,
  );
  assert.equal(brierScore([], []), null);
  assert.equal(brierDecomposition([], []), null);
  // a constant 0.5 scores 0.25 whatever happens
  assert.equal(brierScore([0.5, 0.5, 0.5], [1, 0, 1]), 0.25);
});
