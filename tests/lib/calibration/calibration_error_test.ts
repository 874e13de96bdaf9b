import assert from "node:assert/strict";
import fc from "fast-check";
import {
  debiasedCalibrationError,
  expectedCalibrationError,
  maxCalibrationError,
  reliabilityDiagram,
} from "../../../lib/calibration/mod.ts";
import { CALIBRATED, OVERCONFIDENT, sample } from "./_sim.ts";

const FC = { seed: 20_261_131, numRuns: 200, verbose: 1 } as const;

const rows = fc.array(
  fc.tuple(
    fc.integer({ min: 0, max: 1000 }).map((k) => k / 1000),
    fc.boolean(),
  ),
  { minLength: 1, maxLength: 300 },
);

Deno.test("expectedCalibrationError() is the count-weighted mean gap and never exceeds the MCE", () => {
  fc.assert(
    fc.property(rows, fc.integer({ min: 1, max: 20 }), (r, bins) => {
      const p = r.map((x) => x[0]);
      const y = r.map((x) => (x[1] ? 1 : 0));
      const d = reliabilityDiagram(p, y, { bins });
      let weighted = 0;
      for (const b of d.bins) {
        if (b.n > 0) weighted += (b.n / d.n) * Math.abs(b.gap!);
      }
      const ece = expectedCalibrationError(p, y, { bins }).value!;
      assert.ok(Math.abs(ece - weighted) < 1e-12);
      assert.ok(ece <= maxCalibrationError(p, y, { bins }).value! + 1e-12);
      assert.ok(ece >= 0 && ece <= 1);
    }),
    FC,
  );
});

Deno.test("expectedCalibrationError() is 0 when each bin's accuracy equals its stated probability", () => {
  // ten decisions at 0.3 with three right, ten at 0.8 with eight right
  const p = [...new Array(10).fill(0.3), ...new Array(10).fill(0.8)];
  const y = p.map((v, i) => (v === 0.3 ? (i < 3 ? 1 : 0) : i - 10 < 8 ? 1 : 0));
  assert.ok(Math.abs(expectedCalibrationError(p, y).value!) < 1e-12);
  assert.ok(
    Math.abs(
      expectedCalibrationError(p, y, { strategy: "equal-mass" }).value!,
    ) < 1e-12,
  );
});

Deno.test("expectedCalibrationError() records its strategy, edges and non-empty bins", () => {
  const e = expectedCalibrationError([0.05, 0.95], [0, 1], { bins: 4 });
  assert.deepEqual(
    [e.strategy, e.binsRequested, e.edges, e.nonEmptyBins, e.n],
    ["equal-width", 4, [0, 0.25, 0.5, 0.75, 1], 2, 2],
  );
});

Deno.test("debiasedCalibrationError() on a calibrated model: the L1 estimate keeps a share 2 − √2 of the plug-in bias, the L2 estimate less than half (200 seeded runs)", () => {
  let plugIn = 0;
  let l1 = 0;
  let l2 = 0;
  const runs = 200;
  for (let s = 0; s < runs; s++) {
    const { p, y } = sample(500, 1000 + s, CALIBRATED);
    const d = debiasedCalibrationError(p, y);
    plugIn += d.plugIn!;
    l1 += d.value!;
    l2 += d.rms!;
  }
  plugIn /= runs;
  l1 /= runs;
  l2 /= runs;
  // the true binned calibration error is 0; plug-in ECE at n = 500 is about 0.03
  assert.ok(plugIn > 0.02, `plug-in ${plugIn}`);
  // at a true gap of 0 the observed gap d is N(0, σ²) and E|N(d, σ²)| averages
  // E|N(0, 2σ²)|, so E[2|d| − E|N(d, σ²)|] = (2 − √2)·E|d|: about 59% remains
  const share = l1 / plugIn;
  assert.ok(
    Math.abs(share - (2 - Math.SQRT2)) < 0.06,
    `L1 keeps ${share} of the bias`,
  );
  assert.ok(l2 < plugIn / 2, `debiased L2 ${l2}`);
});

Deno.test("debiasedCalibrationError() keeps a real miscalibration", () => {
  const { p, y } = sample(20_000, 7, OVERCONFIDENT);
  const d = debiasedCalibrationError(p, y);
  assert.ok(d.value! > 0.05 && Math.abs(d.value! - d.plugIn!) < 0.01);
  assert.ok(d.rms! > 0.05);
});

Deno.test("expectedCalibrationError() names the value it refuses", () => {
  assert.throws(
    () => expectedCalibrationError([0.5, 1.2], [1, 0]),
    /p\[1\] must be a probability in \[0, 1\], got 1.2/,
  );
  assert.throws(
    () => expectedCalibrationError([0.5], [2]),
    /y\[0\] must be 0 or 1, got 2/,
  );
  assert.throws(() => expectedCalibrationError([0.5], []), TypeError);
  assert.equal(expectedCalibrationError([], []).value, null);
  assert.equal(maxCalibrationError([], []).value, null);
});
