import assert from "node:assert/strict";
import fc from "fast-check";
import {
  costWeightedCalibrationError,
  expectedCalibrationError,
} from "../../../lib/calibration/mod.ts";

const FC = { seed: 20_261_133, numRuns: 200, verbose: 1 } as const;

const rows = fc.array(
  fc.tuple(
    fc.integer({ min: 0, max: 1000 }).map((k) => k / 1000),
    fc.boolean(),
    fc.constantFrom(0.2, 1, 10, 50),
  ),
  { minLength: 1, maxLength: 200 },
);

Deno.test("costWeightedCalibrationError() with a constant exposure k is k × ECE", () => {
  fc.assert(
    fc.property(
      rows,
      fc.double({ min: 0, max: 1000, noNaN: true }),
      fc.constantFrom("equal-width" as const, "equal-mass" as const),
      (r, k, strategy) => {
        const p = r.map((x) => x[0]);
        const y = r.map((x) => (x[1] ? 1 : 0));
        const cw = costWeightedCalibrationError(p, y, {
          exposure: p.map(() => k),
          strategy,
        });
        const ece = expectedCalibrationError(p, y, { strategy }).value!;
        assert.ok(Math.abs(cw.value! - k * ece) <= 1e-9 * Math.max(1, k));
      },
    ),
    FC,
  );
});

Deno.test("costWeightedCalibrationError() bins add up to the total and the total exposure", () => {
  fc.assert(
    fc.property(rows, (r) => {
      const p = r.map((x) => x[0]);
      const y = r.map((x) => (x[1] ? 1 : 0));
      const exposure = r.map((x) => x[2]);
      const cw = costWeightedCalibrationError(p, y, { exposure });
      const money = cw.bins.reduce((s, b) => s + b.money, 0);
      assert.ok(Math.abs(money - cw.total) < 1e-9);
      assert.ok(
        Math.abs(cw.exposure - exposure.reduce((a, b) => a + b, 0)) < 1e-9,
      );
      assert.ok(Math.abs(cw.value! - cw.total / p.length) < 1e-12);
      // never more than the whole exposure
      assert.ok(cw.total <= cw.exposure + 1e-9);
    }),
    FC,
  );
});

Deno.test("costWeightedCalibrationError() requires an exposure per decision", () => {
  assert.throws(
    () => costWeightedCalibrationError([0.5], [1], {} as never),
    /exposure must be an array of numbers/,
  );
  assert.throws(
    () => costWeightedCalibrationError([0.5], [1], { exposure: [1, 2] }),
    /exposure must have one value per decision \(1\), got 2/,
  );
  assert.throws(
    () => costWeightedCalibrationError([0.5], [1], { exposure: [-1] }),
    /exposure\[0\] must be a finite number >= 0, got -1/,
  );
});

Deno.test("costWeightedCalibrationError() measures the expected loss misstated: two files with equal bin exposure and gap differ", () => {
  // both files: two decisions stated 90% sure, one right, in one bin, exposures 50 and 0.2;
  // the old Σ_b E_b × gap_b gave both (50.2 × 0.4) / 2 = 10.04
  const p = [0.9, 0.9];
  const exposure = [50, 0.2];
  // A: the expensive decision was wrong. Stated expected loss 0.1 × 50 + 0.1 × 0.2 = 5.02,
  // realised 50: misstated by 44.98, |50 × 0.9 + 0.2 × (0.9 − 1)| = 44.98
  const a = costWeightedCalibrationError(p, [0, 1], { exposure });
  // B: the cheap one was wrong. Realised 0.2: misstated by 4.82
  const b = costWeightedCalibrationError(p, [1, 0], { exposure });
  assert.ok(Math.abs(a.total - 44.98) < 1e-9, String(a.total));
  assert.ok(Math.abs(b.total - 4.82) < 1e-9, String(b.total));
  assert.ok(Math.abs(a.value! - 22.49) < 1e-9);
  assert.ok(Math.abs(b.value! - 2.41) < 1e-9);
  // the bins' exposure and gap are the same in both
  const bin = (r: typeof a) => r.bins.find((x) => x.n > 0)!;
  assert.equal(bin(a).exposure, bin(b).exposure);
  assert.ok(Math.abs(bin(a).gap! - bin(b).gap!) < 1e-12);
});

Deno.test("costWeightedCalibrationError() with one bin is |stated − realised expected loss| / n (property)", () => {
  fc.assert(
    fc.property(rows, (r) => {
      const p = r.map((x) => x[0]);
      const y = r.map((x) => (x[1] ? 1 : 0));
      const exposure = r.map((x) => x[2]);
      const stated = p.reduce<number>(
        (s, v, i) => s + exposure[i] * (1 - v),
        0,
      );
      const realised = y.reduce<number>(
        (s, v, i) => s + exposure[i] * (1 - v),
        0,
      );
      const cw = costWeightedCalibrationError(p, y, { exposure, bins: 1 });
      assert.ok(
        Math.abs(cw.total - Math.abs(stated - realised)) <=
          1e-9 * Math.max(1, stated),
      );
    }),
    FC,
  );
});
