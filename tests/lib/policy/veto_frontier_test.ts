// The Veto Frontier's results as theorems: break-even, the cost curve's
// shape, the regret bound and the sign test.
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  breakEven,
  policyRegret,
  signTest,
  vetoCostCurve,
} from "../../../lib/policy/mod.ts";
import { seededPrng } from "../../../lib/math/sampling.ts";
import { sample } from "../calibration/_sim.ts";

const FC = { seed: 20_261_204, numRuns: 300, verbose: 1 } as const;

const costs = fc.record({
  pj: fc.double({ min: 0, max: 1, noNaN: true }),
  ce: fc.double({ min: 0, max: 2, noNaN: true }),
  cr: fc.double({ min: 0.01, max: 100, noNaN: true }),
});

Deno.test("breakEven() p* is where escalating and serving cost the same, and p* >= 1 means escalation never pays", () => {
  fc.assert(
    fc.property(
      costs,
      fc.double({ min: 0, max: 1, noNaN: true }),
      ({ pj, ce, cr }, p) => {
        const b = breakEven({ pj, ce, cr });
        const auto = p * cr;
        const escalate = ce + pj * cr;
        if (p > b.pStar + 1e-12) assert.ok(escalate < auto + 1e-9);
        if (p < b.pStar - 1e-12) assert.ok(auto < escalate + 1e-9);
        if (b.regime === "never-pays") assert.ok(escalate >= cr * (1 - 1e-12));
      },
    ),
    FC,
  );
  // a free judge: p* = p_j
  assert.equal(breakEven({ pj: 0.1, ce: 0, cr: 1 }).pStar, 0.1);
  assert.throws(
    () => breakEven({ pj: 0.1, ce: 0.02, cr: 0 }),
    /cr must be a finite number > 0, got 0/,
  );
  assert.throws(
    () => breakEven({ pj: 1.5, ce: 0.02, cr: 1 }),
    /pj must be in \[0, 1\], got 1.5/,
  );
});

Deno.test("vetoCostCurve() sits below always-auto exactly where r(c) > p*, by k·C_r·(r(c) − p*)/n", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.boolean()), {
        minLength: 1,
        maxLength: 120,
      }),
      costs,
      (rows, c) => {
        const margin = rows.map((r) => r[0] / 1000);
        const error = rows.map((r) => (r[1] ? 1 : 0));
        const curve = vetoCostCurve(margin, error, c);
        const n = rows.length;
        const scale = c.cr + c.ce + 1;
        curve.threshold.forEach((_, j) => {
          const k = curve.escalated[j];
          const r = curve.escalatedErrorRate[j];
          const diff = curve.cost[j] - curve.alwaysAuto;
          if (k === 0) assert.ok(Math.abs(diff) < 1e-12);
          else {
            assert.ok(
              Math.abs(diff - (k * c.cr * (curve.pStar - r!)) / n) <
                1e-9 * scale,
            );
          }
        });
        // the operating point is the minimum; the last point escalates everything
        assert.ok(
          Math.abs(curve.operatingPoint.cost - Math.min(...curve.cost)) < 1e-12,
        );
        assert.ok(
          Math.abs(curve.cost[curve.cost.length - 1] - curve.alwaysEscalate) <
            1e-9 * scale,
        );
      },
    ),
    FC,
  );
});

Deno.test("policyRegret() excess cost never exceeds C_r · E|q − p| (any p, q and costs)", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.double({ min: 0, max: 1, noNaN: true }),
        ),
        { minLength: 1, maxLength: 200 },
      ),
      costs,
      (pairs, c) => {
        const r = policyRegret(
          pairs.map((x) => x[0]),
          pairs.map((x) => x[1]),
          c,
        );
        assert.ok(r.excess >= 0);
        assert.ok(r.holds, `excess ${r.excess} > bound ${r.bound}`);
      },
    ),
    FC,
  );
});

Deno.test("policyRegret() realised excess stays under the bound in every seeded trial of a miscalibrated router", () => {
  for (let trial = 0; trial < 50; trial++) {
    const strength = 1 + (trial % 5); // from calibrated to strongly over-confident
    const { truth } = sample(2000, 500 + trial, (t) => t, [6, 1.5]);
    const p = Float64Array.from(truth, (t) => 1 - t);
    const q = Float64Array.from(p, (v) => Math.pow(v, strength));
    const c = {
      pj: 0.05 + 0.01 * (trial % 7),
      ce: 0.02 * (1 + (trial % 3)),
      cr: 1 + trial,
    };
    const r = policyRegret(q, p, c);
    assert.ok(r.holds, `trial ${trial}: ${r.excess} > ${r.bound}`);
    if (strength === 1) assert.equal(r.excess, 0);
  }
});

Deno.test("policyRegret() bound is tight: a query just below p* estimated just above it costs C_r·|q − p|", () => {
  const c = { pj: 0.1, ce: 0.02, cr: 10 };
  const pStar = 0.1 + 0.02 / 10;
  const r = policyRegret([pStar + 1e-9], [pStar - 0.05], c);
  assert.ok(Math.abs(r.excess / r.bound - 1) < 1e-6);
});

Deno.test("signTest() verdicts follow the interval against p*", () => {
  const rng = seededPrng(3);
  const margin = Array.from({ length: 63 }, () => rng.next() / 100);
  const errorHigh = margin.map((m) => (m < 0.003 ? 1 : 0));
  const beats = signTest(margin, errorHigh, { threshold: 0.003, pStar: 0.12 });
  assert.equal(beats.verdict, "beats always-auto");
  assert.equal(beats.rate, 1);
  const none = signTest(margin, margin.map(() => 0), {
    threshold: 0.01,
    pStar: 0.12,
  });
  assert.equal(none.verdict, "loses to always-auto");
  const unclear = signTest([0.001, 0.002], [1, 0], {
    threshold: 0.01,
    pStar: 0.12,
    method: "wilson",
  });
  assert.equal(unclear.verdict, "inconclusive");
  assert.equal(signTest([0.5], [1], { threshold: 0.1, pStar: 0.1 }).rate, null);
});
