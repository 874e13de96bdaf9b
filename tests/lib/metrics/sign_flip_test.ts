import assert from "node:assert/strict";
import fc from "fast-check";
import { getProfile } from "../../../lib/costs/mod.ts";
import {
  pairedBootstrap,
  pairedLossTest,
  pairedTaskStats,
  probabilityBest,
  realisedLoss,
  signFlipTest,
  taskLossDifferences,
} from "../../../lib/metrics/mod.ts";
import { seededPrng } from "../../../lib/math/mod.ts";
import {
  COMPARE_RATES,
  HEAVY_RATES,
  simulatePair,
  suiteCells,
} from "./_loss_suites.ts";

// The test `compare` uses by default. Switching this to "bootstrap" makes the
// size test below fail (the paired bootstrap p-value rejects about 9-10% of
// exchangeable pairs under principal_risk).
const COMPARE_TEST = "sign-flip" as "sign-flip" | "bootstrap";

function bruteForce(d: readonly number[]): number {
  const obs = Math.abs(d.reduce((a, b) => a + b, 0));
  let hits = 0;
  for (let mask = 0; mask < 2 ** d.length; mask++) {
    const s = d.reduce((a, v, j) => a + ((mask >> j) & 1 ? -v : v), 0);
    if (Math.abs(s) >= obs - 1e-9) hits++;
  }
  return hits / 2 ** d.length;
}

Deno.test("signFlipTest() exact p-value equals brute-force enumeration, with multiplicities expanded", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          fc.integer({ min: -5, max: 5 }),
          fc.integer({ min: 0, max: 3 }),
        ),
        {
          minLength: 1,
          maxLength: 5,
        },
      ),
      (pairs) => {
        const flat = pairs.flatMap(([d, m]) => Array(m).fill(d));
        const t = signFlipTest(pairs.map(([d]) => d), {
          weights: pairs.map(([, m]) => m),
        });
        const nz = flat.filter((v) => v !== 0);
        assert.equal(t.mode, "exact");
        assert.ok(
          Math.abs(t.pValue - (nz.length === 0 ? 1 : bruteForce(nz))) < 1e-12,
        );
      },
    ),
    { seed: 15, numRuns: 200 },
  );
});

Deno.test("signFlipTest() Monte Carlo p-value agrees with the exact one and is seeded", () => {
  const d = [3, -1, 4, 1, -5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4];
  const exact = signFlipTest(d, { exactMax: 20 });
  const mc = signFlipTest(d, { exactMax: 0, resamples: 20_000, seed: 4 });
  assert.equal(mc.mode, "monte carlo");
  assert.ok(
    Math.abs(mc.pValue - exact.pValue) < 0.01,
    `${mc.pValue} vs ${exact.pValue}`,
  );
  assert.deepEqual(
    mc,
    signFlipTest(d, { exactMax: 0, resamples: 20_000, seed: 4 }),
  );
});

Deno.test("signFlipTest() refuses non-finite differences and fractional multiplicities", () => {
  assert.throws(() => signFlipTest([NaN]), /difference 0 must be finite/);
  assert.throws(
    () => signFlipTest([1], { weights: [0.5] }),
    /weight 0 must be a whole number/,
  );
});

Deno.test("compare's loss test rejects <= 7% at 5% on 300 exchangeable pairs of 100 heavy-tailed tasks", () => {
  const cells = suiteCells(100);
  const rng = seededPrng(20261203);
  const profile = getProfile("principal_risk");
  let rejected = 0;
  const pairs = 300;
  for (let r = 0; r < pairs; r++) {
    const { groups, rows } = simulatePair(rng, cells, COMPARE_RATES);
    const p = COMPARE_TEST === "sign-flip"
      ? pairedLossTest(groups, profile, { resamples: 400, seed: r }).pValue
      : pairedBootstrap(rows, (s) => realisedLoss(s, profile), {
        resamples: 400,
        seed: r,
      }).pValue!;
    if (p <= 0.05) rejected++;
  }
  assert.ok(rejected / pairs <= 0.07, `rejected ${rejected / pairs}`);
});

Deno.test("taskLossDifferences() sums to the difference of realised losses with one trial per task", () => {
  const rng = seededPrng(7);
  const { groups } = simulatePair(rng, suiteCells(400), HEAVY_RATES);
  const p = getProfile("principal_risk");
  const { differences, weights } = taskLossDifferences(groups, p);
  const sum = differences.reduce((a, d, i) => a + d * weights[i], 0);
  const [a, b] = pairedTaskStats(groups);
  assert.ok(Math.abs(sum - (realisedLoss(a, p)! - realisedLoss(b, p)!)) < 1e-6);
});

Deno.test("probabilityBest() shares sum to 1 and favour the model whose draws are lower", () => {
  const a = Array.from({ length: 1000 }, (_, i) => i % 10);
  const b = a.map((v) => v + 3);
  const c = a.map((v) => 9 - v);
  const p = probabilityBest({ a, b, c });
  assert.ok(Math.abs(p.a + p.b + p.c - 1) < 1e-12);
  assert.ok(p.a > p.b);
  assert.throws(
    () => probabilityBest({ a, b: [1] }),
    /has 1 draws, expected 1000/,
  );
});
