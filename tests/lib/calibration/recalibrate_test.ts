import assert from "node:assert/strict";
import fc from "fast-check";
import {
  applyCalibrator,
  CALIBRATION_METHODS,
  fitCalibrator,
  fitHistogramBinning,
  fitIsotonic,
  fitPlatt,
  fitTemperature,
  outcomeColumns,
  randomSplit,
  recalibrate,
  reliabilityDiagram,
} from "../../../lib/calibration/mod.ts";
import { getProfile } from "../../../lib/costs/mod.ts";
import { seededPrng } from "../../../lib/math/sampling.ts";
import { SIMULATED_MODELS, simulateRun } from "../../../lib/tasks/simulate.ts";
import { OVERCONFIDENT, sample } from "./_sim.ts";

const FC = { seed: 20_261_134, numRuns: 200, verbose: 1 } as const;

const rows = fc.array(
  fc.tuple(fc.integer({ min: 0, max: 100 }).map((k) => k / 100), fc.boolean()),
  { minLength: 1, maxLength: 150 },
);

Deno.test("fitIsotonic() is monotone, preserves the mean outcome and never does worse than the identity on its own data", () => {
  fc.assert(
    fc.property(rows, (r) => {
      const p = r.map((x) => x[0]);
      const y = r.map((x) => (x[1] ? 1 : 0));
      const iso = fitIsotonic(p, y);
      for (let i = 1; i < iso.x.length; i++) {
        assert.ok(iso.x[i] >= iso.x[i - 1] && iso.y[i] >= iso.y[i - 1] - 1e-15);
      }
      const q = applyCalibrator(iso, p);
      const mean = (a: ArrayLike<number>) =>
        Array.from(a).reduce((s, v) => s + v, 0) / a.length;
      assert.ok(Math.abs(mean(q) - mean(y)) < 1e-9);
      const sse = (f: ArrayLike<number>) =>
        Array.from(f).reduce((s, v, i) => s + (v - y[i]) ** 2, 0);
      // the least-squares monotone fit beats any monotone map, the identity included
      assert.ok(sse(q) <= sse(p) + 1e-9);
    }),
    FC,
  );
});

Deno.test("fitIsotonic() equals the brute-force least-squares monotone step fit on small inputs", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 0, max: 50 }), {
        minLength: 1,
        maxLength: 7,
      }),
      fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
      (xs, ys) => {
        const p = xs.map((k) => k / 50).sort((a, b) => a - b);
        const y = p.map((_, i) => (ys[i] ? 1 : 0));
        const fitted = Array.from(applyCalibrator(fitIsotonic(p, y), p));
        // brute force: every partition into consecutive blocks with non-decreasing means
        let best = Infinity;
        const n = p.length;
        for (let mask = 0; mask < 1 << (n - 1); mask++) {
          const blocks: number[][] = [[0]];
          for (let i = 1; i < n; i++) {
            if (mask & (1 << (i - 1))) blocks.push([i]);
            else blocks[blocks.length - 1].push(i);
          }
          const means = blocks.map((b) =>
            b.reduce((s, i) => s + y[i], 0) / b.length
          );
          if (means.some((m, j) => j > 0 && m < means[j - 1])) continue;
          let sse = 0;
          blocks.forEach((b, j) =>
            b.forEach((i) => (sse += (y[i] - means[j]) ** 2))
          );
          best = Math.min(best, sse);
        }
        const sse = fitted.reduce((s, v, i) => s + (v - y[i]) ** 2, 0);
        assert.ok(Math.abs(sse - best) < 1e-9, `${sse} vs ${best}`);
      },
    ),
    FC,
  );
});

Deno.test("fitPlatt() recovers the slope and intercept of a logistic truth", () => {
  const rng = seededPrng(3);
  const n = 40_000;
  const p = new Float64Array(n);
  const y = new Uint8Array(n);
  // truth: P(y = 1) = σ(0.5·logit(p) − 0.4)
  for (let i = 0; i < n; i++) {
    const v = 0.02 + 0.96 * rng.next();
    p[i] = v;
    const z = 0.5 * Math.log(v / (1 - v)) - 0.4;
    y[i] = rng.next() < 1 / (1 + Math.exp(-z)) ? 1 : 0;
  }
  const platt = fitPlatt(p, y);
  assert.ok(Math.abs(platt.a - 0.5) < 0.05, `a ${platt.a}`);
  assert.ok(Math.abs(platt.b + 0.4) < 0.05, `b ${platt.b}`);
});

Deno.test("fitTemperature() recovers a temperature and never reorders decisions", () => {
  const rng = seededPrng(4);
  const n = 40_000;
  const p = new Float64Array(n);
  const y = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = 0.5 + 0.49 * rng.next();
    p[i] = v;
    const z = Math.log(v / (1 - v)) / 2.5; // true temperature 2.5
    y[i] = rng.next() < 1 / (1 + Math.exp(-z)) ? 1 : 0;
  }
  const t = fitTemperature(p, y);
  assert.ok(Math.abs(t.temperature - 2.5) < 0.15, `T ${t.temperature}`);
  const q = applyCalibrator(t, [0.6, 0.7, 0.99]);
  assert.ok(q[0] < q[1] && q[1] < q[2]);
});

Deno.test("fitHistogramBinning() maps each bin to its observed accuracy", () => {
  fc.assert(
    fc.property(rows, fc.integer({ min: 1, max: 10 }), (r, bins) => {
      const p = r.map((x) => x[0]);
      const y = r.map((x) => (x[1] ? 1 : 0));
      const h = fitHistogramBinning(p, y, { bins });
      const d = reliabilityDiagram(p, y, { bins });
      assert.deepEqual(h.values, d.bins.map((b) => b.accuracy));
      // on its own data each decision gets its bin's accuracy
      const q = applyCalibrator(h, p);
      p.forEach((v, i) =>
        assert.equal(
          q[i],
          h.values[
            d.bins.findIndex((b, j) =>
              (j === 0 ? v >= b.lo : v > b.lo) && v <= b.hi
            )
          ],
        )
      );
    }),
    FC,
  );
});

Deno.test("recalibrate() fitted on one split lowers the held-out ECE of the simulator's over-confident model, every method", () => {
  const tasks = Array.from({ length: 8000 }, (_, i) => ({
    id: `t${i}`,
    gold: {
      exceptionType: i % 3 === 0 ? null : "AMOUNT_MISMATCH",
      severity: "HIGH" as const,
    },
  }));
  const run = simulateRun(tasks, {
    ...SIMULATED_MODELS.frontier_even,
    errorRate: { HIGH: 0.15, clean: 0.15 },
  }, { seed: 9 });
  const cols = outcomeColumns(run);
  const split = randomSplit(cols.p.length, { seed: 10 });
  const pick = (idx: Int32Array) => ({
    p: Float64Array.from(idx, (i) => cols.p[i]),
    y: Uint8Array.from(idx, (i) => cols.y[i]),
  });
  const r = recalibrate(pick(split.fit), pick(split.evaluate), {
    strategy: "equal-mass",
  });
  const none = r.rows[0];
  assert.equal(none.method, "none");
  assert.deepEqual(r.rows.slice(1).map((x) => x.method), [
    ...CALIBRATION_METHODS,
  ]);
  for (const row of r.rows.slice(1)) {
    assert.ok(
      row.ece! < none.ece! / 2,
      `${row.method}: ${row.ece} vs ${none.ece}`,
    );
    assert.ok(row.brier! < none.brier!, `${row.method} Brier`);
  }
  assert.equal(r.nFit + r.nEvaluate, cols.p.length);
});

Deno.test("recalibrate() on a calibrated model changes little", () => {
  const fit = sample(5000, 21);
  const evaluate = sample(5000, 22);
  const r = recalibrate(fit, evaluate, { methods: ["platt", "temperature"] });
  for (const row of r.rows.slice(1)) {
    assert.ok(Math.abs(row.brier! - r.rows[0].brier!) < 0.002, row.method);
  }
  const over = recalibrate(
    sample(5000, 23, OVERCONFIDENT),
    sample(5000, 24, OVERCONFIDENT),
    { methods: ["temperature"] },
  );
  const t = over.calibrators.temperature!;
  assert.ok(t.kind === "temperature" && t.temperature > 1);
});

Deno.test("fitCalibrator() and applyCalibrator() name what they refuse", () => {
  assert.throws(
    () => fitCalibrator([0.5], [1], { method: "beta" as never }),
    /method must be one of platt, isotonic, temperature, histogram, got "beta"/,
  );
  assert.throws(() => fitPlatt([], []), /no decisions to fit on/);
  assert.throws(
    () => applyCalibrator({ kind: "platt", a: 1, b: 0 }, [2]),
    /p\[0\] must be a probability in \[0, 1\], got 2/,
  );
  assert.throws(
    () => randomSplit(10, { fraction: 1 }),
    /fraction must be in \(0, 1\), got 1/,
  );
});

Deno.test("outcomeColumns() reads Arquero-style columns, keeps positions and counts missing probabilities", () => {
  const cols = outcomeColumns({
    pCorrect: [0.9, null, 0.4],
    trueClass: ["MATCH", "MATCH", "DUPLICATE"],
    predClass: ["MATCH", "DUPLICATE", "MATCH"],
    severity: ["LOW", "LOW", "CRITICAL"],
  }, { profile: getProfile("principal_risk") });
  assert.deepEqual([...cols.index], [0, 2]);
  assert.deepEqual([...cols.y], [1, 0]);
  assert.deepEqual([...cols.exposure!], [1, 100000]);
  assert.equal(cols.missing, 1);
  assert.throws(
    () =>
      outcomeColumns([{
        pCorrect: 0.5,
        trueClass: "X",
        predClass: "X",
        severity: "SEVERE" as never,
      }]),
    /severity of decision 0 must be LOW, MEDIUM, HIGH or CRITICAL, got "SEVERE"/,
  );
});
