import assert from "node:assert/strict";
import fc from "fast-check";
import {
  clopperPearsonInterval,
  clopperPearsonUpper,
} from "../../../lib/math/mod.ts";

const FC = { seed: 20_261_202, numRuns: 60, verbose: 1 } as const;

function binomPmf(n: number, p: number): number[] {
  const out: number[] = [];
  let logC = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logC += Math.log((n - k + 1) / k);
    out.push(Math.exp(logC + k * Math.log(p) + (n - k) * Math.log1p(-p)));
  }
  return out;
}

Deno.test("clopperPearsonInterval() matches scipy's beta quantiles", () => {
  // scipy.stats.beta.ppf(0.025, k, n-k+1), beta.ppf(0.975, k+1, n-k)
  const ref: [number, number, number, number][] = [
    [3, 10, 0.06673951117773447, 0.6524528500599973],
    [10, 10, 0.6915028921812392, 1],
    [500, 1000, 0.46854917297179216, 0.5314508270282079],
    [1, 100000, 2.531780477933314e-07, 5.571516034774275e-05],
  ];
  for (const [k, n, lo, hi] of ref) {
    const ci = clopperPearsonInterval(k, n)!;
    assert.ok(
      Math.abs(ci.lo - lo) <= 1e-9 * lo,
      `${k}/${n} lo`,
    );
    assert.ok(Math.abs(ci.hi - hi) <= 1e-9 * hi, `${k}/${n} hi`);
  }
});

Deno.test("clopperPearsonInterval() covers the true proportion with probability at least the level, for every p (exact)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 60 }),
      fc.double({ min: 0.001, max: 0.999, noNaN: true }),
      (n, p) => {
        const pmf = binomPmf(n, p);
        let coverage = 0;
        for (let k = 0; k <= n; k++) {
          const ci = clopperPearsonInterval(k, n)!;
          if (ci.lo <= p && p <= ci.hi) coverage += pmf[k];
        }
        assert.ok(
          coverage >= 0.95 - 1e-9,
          `n=${n} p=${p} coverage ${coverage}`,
        );
      },
    ),
    FC,
  );
});

Deno.test("clopperPearsonUpper() is an exact one-sided bound: P(k ≤ observed | p = bound) = 1 − level", () => {
  for (const [k, n] of [[0, 50], [3, 40], [17, 63]]) {
    const u = clopperPearsonUpper(k, n, { level: 0.9 })!;
    const pmf = binomPmf(n, u);
    const cdf = pmf.slice(0, k + 1).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(cdf - 0.1) < 1e-9, `${k}/${n}: ${cdf}`);
  }
  assert.equal(clopperPearsonUpper(5, 5), 1);
  assert.equal(clopperPearsonUpper(0, 0), null);
  assert.throws(
    () => clopperPearsonInterval(4, 3),
    /successes must be an integer in \[0, 3\], got 4/,
  );
});
