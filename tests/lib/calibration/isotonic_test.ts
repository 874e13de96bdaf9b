// fitIsotonic() on tied probabilities: the fit is the isotonic regression
// of the tie blocks, whatever the order of the rows.
import assert from "node:assert/strict";
import fc from "fast-check";
import { applyCalibrator } from "../../../lib/calibration/calibrator.ts";
import { fitIsotonic } from "../../../lib/calibration/isotonic.ts";

/**
 * Brute-force isotonic regression of tie blocks (distinct x, weight = count,
 * mean outcome) by the min-max formula: the fitted value of block i is
 * max over j <= i of min over k >= i of the weighted mean of blocks j..k
 * (Barlow et al. 1972, Theorem 1.4). O(m³), independent of any pooling order.
 */
function bruteForce(p: number[], y: number[]): Map<number, number> {
  const xs = [...new Set(p)].sort((a, b) => a - b);
  const w = xs.map((x) => p.filter((v) => v === x).length);
  const s = xs.map((x) => p.reduce((t, v, i) => t + (v === x ? y[i] : 0), 0));
  const out = new Map<number, number>();
  for (let i = 0; i < xs.length; i++) {
    let best = -Infinity;
    for (let j = 0; j <= i; j++) {
      let inner = Infinity;
      for (let k = i; k < xs.length; k++) {
        let sw = 0, ss = 0;
        for (let t = j; t <= k; t++) {
          sw += w[t];
          ss += s[t];
        }
        inner = Math.min(inner, ss / sw);
      }
      best = Math.max(best, inner);
    }
    out.set(xs[i], best);
  }
  return out;
}

// coarse stated confidences, as LLMs give them: few distinct values, many ties
const arbRows = fc.array(
  fc.tuple(
    fc.integer({ min: 0, max: 10 }).map((k) => k / 10),
    fc.integer({ min: 0, max: 1 }),
  ),
  { minLength: 1, maxLength: 60 },
);

Deno.test("fitIsotonic() on tied probabilities equals a brute-force isotonic fit of the tie blocks (property, seed 8)", () => {
  fc.assert(
    fc.property(arbRows, (rows) => {
      const p = rows.map((r) => r[0]);
      const y = rows.map((r) => r[1]);
      const fit = fitIsotonic(p, y);
      const xs = [...new Set(p)];
      const got = applyCalibrator(fit, xs);
      const want = bruteForce(p, y);
      return xs.every((x, i) => Math.abs(got[i] - want.get(x)!) < 1e-12);
    }),
    { seed: 8, numRuns: 500 },
  );
});

Deno.test("fitIsotonic() does not depend on the order of the rows (property, seed 9)", () => {
  fc.assert(
    fc.property(
      arbRows,
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      (rows, salt) => {
        // a deterministic shuffle of the same rows
        const shuffled = rows.map((r, i) => ({
          r,
          k: Math.imul(i + 1, 2654435761 ^ salt) >>> 0,
        })).sort((a, b) => a.k - b.k).map((x) => x.r);
        const a = fitIsotonic(rows.map((r) => r[0]), rows.map((r) => r[1]));
        const b = fitIsotonic(
          shuffled.map((r) => r[0]),
          shuffled.map((r) => r[1]),
        );
        assert.deepEqual(a.x, b.x);
        a.y.forEach((v, i) => assert.ok(Math.abs(v - b.y[i]) < 1e-12));
      },
    ),
    { seed: 9, numRuns: 300 },
  );
});

Deno.test("fitIsotonic() pools a tie group whole: a group above its neighbour is not merged by its first row", () => {
  // 0.6: one right, one wrong (0.5); 0.7: one wrong then three right (0.75)
  // merging 0.7's first row (wrong) into 0.6 would give 4/6 everywhere
  const fit = fitIsotonic([0.6, 0.6, 0.7, 0.7, 0.7, 0.7], [0, 1, 0, 1, 1, 1]);
  assert.deepEqual(fit.x, [0.6, 0.7]);
  assert.deepEqual(fit.y, [0.5, 0.75]);
});
