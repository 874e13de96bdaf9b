import assert from "node:assert/strict";
import {
  binEdges,
  binIndex,
  eceInterval,
  expectedCalibrationError,
} from "../../../lib/calibration/mod.ts";
import { quantileSorted } from "../../../lib/metrics/bootstrap.ts";
import { seededPrng } from "../../../lib/math/sampling.ts";
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
    const fast = eceInterval(p, y, {
      method: "bootstrap",
      resamples: 2000,
      seed: 11,
    });
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

Deno.test("eceInterval() bootstrap is byte-identical for one seed and records it", () => {
  const { p, y } = sample(1000, 3, OVERCONFIDENT);
  const boot = { method: "bootstrap" } as const;
  const a = eceInterval(p, y, {
    ...boot,
    resamples: 300,
    seed: 5,
    strategy: "equal-mass",
  });
  assert.deepEqual(
    eceInterval(p, y, {
      ...boot,
      resamples: 300,
      seed: 5,
      strategy: "equal-mass",
    }),
    a,
  );
  assert.equal(a.seed, 5);
  assert.equal(a.strategy, "equal-mass");
  assert.notEqual(
    eceInterval(p, y, { ...boot, resamples: 300, seed: 6 }).lo,
    eceInterval(p, y, { ...boot, resamples: 300, seed: 5 }).lo,
  );
});

// A model that states coarse confidences, each 0.05 above its true rate: in
// every bin |mean true rate - mean stated| = 0.05 whatever the edges, so the
// true ECE is 0.05. At n = 60 the binned ECE is far above it.
function overconfident(n: number, seed: number): { p: number[]; y: number[] } {
  const levels = [0.6, 0.7, 0.8, 0.9, 0.95, 0.99];
  const rng = seededPrng(seed);
  const p = Array.from({ length: n }, (_, i) => levels[i % levels.length]);
  const y = p.map((v) => (rng.next() < v - 0.05 ? 1 : 0));
  return { p, y };
}

Deno.test("eceInterval() default covers the true ECE at n = 60 in at least 93% of seeded suites; the bootstrap does not", () => {
  let hits = 0;
  let bootHits = 0;
  const runs = 200;
  for (let r = 0; r < runs; r++) {
    const { p, y } = overconfident(60, 100 + r);
    const ci = eceInterval(p, y);
    if (ci.lo! <= 0.05 && 0.05 <= ci.hi!) hits++;
    const b = eceInterval(p, y, {
      method: "bootstrap",
      resamples: 200,
      seed: r,
    });
    if (b.lo! <= 0.05 && 0.05 <= b.hi!) bootHits++;
  }
  assert.ok(hits / runs >= 0.93, `default covered ${hits / runs}`);
  // the former default, kept behind method: "bootstrap": biased upward with the estimate
  assert.ok(bootHits / runs < 0.6, `bootstrap covered ${bootHits / runs}`);
});

Deno.test("eceInterval() default contains the binned estimate, is deterministic and names its estimand", () => {
  const { p, y } = sample(1000, 3, OVERCONFIDENT);
  const ci = eceInterval(p, y);
  assert.ok(ci.lo! <= ci.estimate! && ci.estimate! <= ci.hi!);
  assert.deepEqual(eceInterval(p, y), ci);
  assert.equal(ci.resamples, 0);
  assert.match(ci.method, /clopper-pearson/);
  assert.match(ci.estimand, /true rates/);
  assert.throws(
    // @ts-expect-error: an unknown method
    () => eceInterval(p, y, { method: "wald" }),
    /method must be auto or bootstrap, got "wald"/,
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
