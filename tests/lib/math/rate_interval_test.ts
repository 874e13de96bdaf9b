import assert from "node:assert/strict";
import {
  BOUNDARY_COUNT,
  rate,
  rateInterval,
  wilsonInterval,
} from "../../../lib/math/rate.ts";
import { clopperPearsonInterval } from "../../../lib/math/clopper_pearson.ts";

/** Exact coverage of an interval rule at true rate p over n trials. */
function coverage(
  n: number,
  p: number,
  f: (k: number, n: number) => { lo: number; hi: number },
): number {
  let c = 0;
  let logC = 0; // log binomial coefficient, updated as k grows
  for (let k = 0; k <= n; k++) {
    if (k > 0) logC += Math.log((n - k + 1) / k);
    const ci = f(k, n);
    if (ci.lo <= p && p <= ci.hi) {
      c += Math.exp(logC + k * Math.log(p) + (n - k) * Math.log1p(-p));
    }
  }
  return c;
}

Deno.test("rateInterval() is Wilson away from the boundary and Clopper-Pearson within BOUNDARY_COUNT of it", () => {
  assert.deepEqual(rateInterval(50, 100), wilsonInterval(50, 100));
  for (const k of [0, 1, BOUNDARY_COUNT, 100 - BOUNDARY_COUNT, 100]) {
    assert.deepEqual(
      rateInterval(k, 100),
      clopperPearsonInterval(k, 100),
      `${k}`,
    );
  }
  assert.equal(rateInterval(BOUNDARY_COUNT + 1, 100)!.method, "wilson");
  assert.equal(rate(97, 100).interval!.method, "clopper-pearson");
});

Deno.test("rateInterval() covers at least 0.90 exactly where Wilson dips to about 0.83: true rates near 1", () => {
  let wilsonWorst = 1;
  let worst = 1;
  for (const n of [5, 12, 30, 80, 200]) {
    for (let g = 0; g <= 60; g++) {
      const p = 1 - Math.min(0.5, (10 * Math.pow(0.001, g / 60)) / n);
      wilsonWorst = Math.min(
        wilsonWorst,
        coverage(n, p, (k, m) => wilsonInterval(k, m)!),
      );
      worst = Math.min(worst, coverage(n, p, (k, m) => rateInterval(k, m)!));
    }
  }
  assert.ok(wilsonWorst < 0.85, `${wilsonWorst}`);
  assert.ok(worst >= 0.9, `${worst}`);
});
