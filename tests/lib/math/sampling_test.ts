import assert from "node:assert/strict";
import { normalQuantile } from "../../../lib/math/normal_quantile.ts";
import {
  binomial,
  multinomial,
  seededPrng,
} from "../../../lib/math/sampling.ts";

function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log((n - k + i) / i);
  return s;
}

// Pearson chi-square of `draws` Binomial(n, p) samples against the exact pmf,
// pooling tail cells with expected count below 5.
function chiSquare(
  n: number,
  p: number,
  draws: number,
  seed: number,
): { stat: number; df: number } {
  const rng = seededPrng(seed);
  const counts = new Array(n + 1).fill(0);
  for (let i = 0; i < draws; i++) counts[binomial(rng, n, p)]++;
  const expected = counts.map((_, k) =>
    draws *
    Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log(1 - p))
  );
  let stat = 0, df = -1, eAcc = 0, oAcc = 0;
  for (let k = 0; k <= n; k++) {
    eAcc += expected[k];
    oAcc += counts[k];
    if (eAcc >= 5 || k === n) {
      stat += (oAcc - eAcc) ** 2 / eAcc;
      df++;
      eAcc = 0;
      oAcc = 0;
    }
  }
  return { stat, df };
}

Deno.test("binomial() matches the exact pmf by chi-square in the inversion and the BTRS regimes (seeds 1-4)", () => {
  // Chi-square critical value at p = 0.001 by the Wilson-Hilferty approximation
  // (within ~0.1 of qchisq(0.999, df) for df >= 8); the draws are seeded, so the test cannot flake.
  const critical = (df: number) =>
    df *
    (1 - 2 / (9 * df) + normalQuantile(0.999) * Math.sqrt(2 / (9 * df))) ** 3;
  for (
    const [n, p, seed] of [[20, 0.2, 1], [30, 0.4, 2], [60, 0.5, 3], [
      40,
      0.85,
      4,
    ]] as const
  ) {
    const { stat, df } = chiSquare(n, p, 100_000, seed);
    assert.ok(df >= 8, `df ${df}`);
    assert.ok(
      stat < critical(df),
      `n=${n} p=${p}: chi-square ${stat.toFixed(1)} on ${df} df`,
    );
  }
});

Deno.test("binomial() has the right mean and variance for huge n", () => {
  const rng = seededPrng(5);
  const n = 1e9, p = 0.37, draws = 20_000;
  let s = 0, s2 = 0;
  for (let i = 0; i < draws; i++) {
    const k = binomial(rng, n, p);
    s += k;
    s2 += k * k;
  }
  const mean = s / draws;
  const variance = s2 / draws - mean * mean;
  const sd = Math.sqrt(n * p * (1 - p));
  assert.ok(Math.abs(mean - n * p) < 5 * sd / Math.sqrt(draws));
  assert.ok(Math.abs(variance / (n * p * (1 - p)) - 1) < 0.05);
});

Deno.test("binomial() handles the edges and rejects bad arguments", () => {
  const rng = seededPrng(6);
  assert.equal(binomial(rng, 0, 0.5), 0);
  assert.equal(binomial(rng, 7, 1), 7);
  assert.equal(binomial(rng, 7, 0), 0);
  assert.throws(() => binomial(rng, -1, 0.5), RangeError);
  assert.throws(() => binomial(rng, 1.5, 0.5), RangeError);
  assert.throws(() => binomial(rng, 3, 1.2), RangeError);
  assert.throws(() => seededPrng(0.5), RangeError);
});

Deno.test("seededPrng() gives the same sequence for the same seed and another for another seed", () => {
  const draw = (seed: number) => {
    const r = seededPrng(seed);
    return Array.from({ length: 5 }, () => binomial(r, 1000, 0.3));
  };
  assert.deepEqual(draw(11), draw(11));
  assert.notDeepEqual(draw(11), draw(12));
});

Deno.test("multinomial() sums to n, leaves zero-weight categories empty, and matches expected shares", () => {
  const rng = seededPrng(8);
  const totals = [0, 0, 0, 0];
  for (let i = 0; i < 2000; i++) {
    const c = multinomial(rng, 1000, [5, 0, 3, 2]);
    assert.equal(c.reduce((a, b) => a + b, 0), 1000);
    assert.equal(c[1], 0);
    c.forEach((v, j) => (totals[j] += v));
  }
  const shares = totals.map((t) => t / 2_000_000);
  assert.ok(
    Math.abs(shares[0] - 0.5) < 0.002 && Math.abs(shares[2] - 0.3) < 0.002,
  );
  assert.throws(() => multinomial(rng, 3, [0, 0]), /every weight is 0/);
  assert.throws(
    () => multinomial(rng, 3, [1, -1]),
    /weight 1 must be finite and >= 0/,
  );
  assert.deepEqual(multinomial(rng, 0, [0, 0]), [0, 0]);
});
