import assert from "node:assert/strict";
import fc from "fast-check";
import { kendallTauB } from "../../../lib/sensitivity/kendall_tau.ts";

const FC = { seed: 20_261_107, numRuns: 300 } as const;

Deno.test("kendallTauB() matches SciPy's kendalltau (tau-b) on a tied example", () => {
  // scipy.stats.kendalltau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) -> -0.4714045207910316
  const tau = kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])!;
  assert.ok(Math.abs(tau - -0.4714045207910316) < 1e-15);
});

Deno.test("kendallTauB() is 1 for the same ranking, -1 for its reverse, symmetric and invariant under monotone maps", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 2, maxLength: 12 }),
      fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 2, maxLength: 12 }),
      (x, y0) => {
        const y = x.map((_, i) => y0[i % y0.length]);
        const constant = new Set(x).size === 1;
        assert.equal(
          kendallTauB(x, x.map((v) => 3 * v + 1)),
          constant ? null : 1,
        );
        assert.equal(kendallTauB(x, x.map((v) => -v)), constant ? null : -1);
        const t = kendallTauB(x, y);
        assert.equal(t, kendallTauB(y, x));
        assert.equal(t, kendallTauB(x.map((v) => Math.exp(v)), y));
        if (t !== null) assert.ok(t >= -1 - 1e-15 && t <= 1 + 1e-15);
      },
    ),
    FC,
  );
});

Deno.test("kendallTauB() refuses columns of different lengths and NaN, and is null below two values", () => {
  assert.throws(() => kendallTauB([1, 2], [1]), /different lengths, 2 and 1/);
  assert.throws(() => kendallTauB([1, NaN], [1, 2]), /value 1 is NaN/);
  assert.equal(kendallTauB([1], [1]), null);
  assert.equal(kendallTauB([], []), null);
});
