import assert from "node:assert/strict";
import {
  eceNoiseFloor,
  expectedCalibrationError,
} from "../../../lib/calibration/mod.ts";
import { seededPrng } from "../../../lib/math/sampling.ts";
import { CALIBRATED, OVERCONFIDENT, sample } from "./_sim.ts";

Deno.test("eceNoiseFloor() upper quantile is exceeded by about 5% of calibrated runs (300 seeded runs)", () => {
  const { p } = sample(2000, 1, CALIBRATED);
  const floor = eceNoiseFloor(p, { replicates: 400, seed: 2 });
  // fresh outcomes for the same confidences, drawn as a calibrated model's would be
  let above = 0;
  const runs = 300;
  for (let s = 0; s < runs; s++) {
    const rng = seededPrng(100 + s);
    const y = Uint8Array.from(p, (v) => (rng.next() < v ? 1 : 0));
    if (expectedCalibrationError(p, y).value! > floor.quantile!) above++;
  }
  // binomial(300, 0.05): mean 15, sd 3.8
  assert.ok(
    above >= 3 && above <= 30,
    `${above} of ${runs} runs above the floor`,
  );
});

Deno.test("eceNoiseFloor() shrinks like 1/√n and a miscalibrated model clears it", () => {
  const small = eceNoiseFloor(sample(500, 3).p, { seed: 4 });
  const large = eceNoiseFloor(sample(8000, 3).p, { seed: 4 });
  const ratio = small.mean! / large.mean!;
  assert.ok(ratio > 3 && ratio < 5, `ratio ${ratio}, expected about √16 = 4`);
  const { p, y } = sample(8000, 5, OVERCONFIDENT);
  assert.ok(
    expectedCalibrationError(p, y).value! >
      3 * eceNoiseFloor(p, { seed: 6 }).quantile!,
  );
});

Deno.test("eceNoiseFloor() is deterministic, records its bins and is null without decisions", () => {
  const { p } = sample(300, 7);
  assert.deepEqual(
    eceNoiseFloor(p, { seed: 1 }),
    eceNoiseFloor(p, { seed: 1 }),
  );
  const f = eceNoiseFloor(p, { seed: 1, bins: 5, strategy: "equal-mass" });
  assert.equal(f.edges.length, 6);
  assert.equal(f.strategy, "equal-mass");
  assert.equal(eceNoiseFloor([]).mean, null);
  assert.throws(
    () => eceNoiseFloor([1.5]),
    /p\[0\] must be a probability in \[0, 1\], got 1.5/,
  );
});
