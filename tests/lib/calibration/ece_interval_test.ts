import assert from "node:assert/strict";
import {
  binEdges,
  binIndex,
  eceInterval,
  expectedCalibrationError,
} from "../../../lib/calibration/mod.ts";
import { quantileSorted } from "../../../lib/metrics/bootstrap.ts";
import { seededPrng } from "../../../lib/metrics/sampling.ts";
import { OVERCONFIDENT, sample } from "./_sim.ts";

// The textbook bootstrap: draw n row indices with replacement, recompute ECE
// with the same edges. O(n) per resample.
function naiveInterval(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  resamples: number,
  seed: number,
): [number, number] {
  const edges = binEdges(p, { bins: 10 });
  const rng = seededPrng(seed);
  const n = p.length;
  const draws: number[] = [];
  const sp = new Float64Array(10);
  const sy = new Float64Array(10);
  const bin = Int32Array.from({ length: n }, (_, i) => binIndex(edges, p[i]));
  for (let r = 0; r < resamples; r++) {
    sp.fill(0);
    sy.fill(0);
    for (let t = 0; t < n; t++) {
      const i = Math.floor(rng.next() * n);
      sp[bin[i]] += p[i];
      sy[bin[i]] += y[i];
    }
    let s = 0;
    for (let b = 0; b < 10; b++) s += Math.abs(sy[b] - sp[b]);
    draws.push(s / n);
  }
  draws.sort((a, b) => a - b);
  return [quantileSorted(draws, 0.025)!, quantileSorted(draws, 0.975)!];
}

Deno.test("eceInterval() agrees with a row-resampling bootstrap within Monte Carlo error", () => {
  for (const [n, seed] of [[400, 1], [3000, 2]] as const) {
    const { p, y } = sample(n, seed, OVERCONFIDENT);
    const fast = eceInterval(p, y, { resamples: 2000, seed: 11 });
    const [lo, hi] = naiveInterval(p, y, 2000, 12);
    const width = hi - lo;
    assert.ok(
      Math.abs(fast.lo! - lo) < 0.1 * width,
      `n=${n} lo ${fast.lo} vs ${lo}`,
    );
    assert.ok(
      Math.abs(fast.hi! - hi) < 0.1 * width,
      `n=${n} hi ${fast.hi} vs ${hi}`,
    );
    assert.equal(fast.estimate, expectedCalibrationError(p, y).value);
  }
});

Deno.test("eceInterval() is byte-identical for one seed and records it", () => {
  const { p, y } = sample(1000, 3, OVERCONFIDENT);
  const a = eceInterval(p, y, {
    resamples: 300,
    seed: 5,
    strategy: "equal-mass",
  });
  assert.deepEqual(
    eceInterval(p, y, { resamples: 300, seed: 5, strategy: "equal-mass" }),
    a,
  );
  assert.equal(a.seed, 5);
  assert.equal(a.strategy, "equal-mass");
  assert.notEqual(
    eceInterval(p, y, { resamples: 300, seed: 6 }).lo,
    eceInterval(p, y, { resamples: 300, seed: 5 }).lo,
  );
});

Deno.test("eceInterval() is null on an empty run and refuses bad options", () => {
  const e = eceInterval([], []);
  assert.deepEqual([e.estimate, e.lo, e.hi], [null, null, null]);
  assert.throws(
    () => eceInterval([0.5], [1], { resamples: 0 }),
    /resamples must be an integer >= 1, got 0/,
  );
  assert.throws(
    () => eceInterval([0.5], [1], { level: 1 }),
    /level must be in \(0, 1\), got 1/,
  );
});
