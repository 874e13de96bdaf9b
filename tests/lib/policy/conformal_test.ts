// Conformal thresholds hold their finite-sample guarantees on held-out
// simulated data, whatever the model's miscalibration.
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  conformalEscalationThreshold,
  selectiveRiskThreshold,
} from "../../../lib/policy/mod.ts";
import { beta, type Prng, seededPrng } from "../../../lib/math/sampling.ts";

const FC = { seed: 20_261_203, numRuns: 8, verbose: 1 } as const;

/** n decisions: true P(correct) t ~ Beta(a, b), error ~ Bernoulli(1 − t), stated P(correct) = 1 − (1 − t)^s. */
function draw(rng: Prng, n: number, a: number, b: number, s: number) {
  const pError = new Float64Array(n);
  const error = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = beta(rng, a, b);
    error[i] = rng.next() < t ? 0 : 1;
    pError[i] = Math.round(Math.pow(1 - t, s) * 1e6) / 1e6;
  }
  return { pError, error };
}

Deno.test("conformalEscalationThreshold() keeps the held-out rate of automatic errors at most alpha in expectation (seeded trials)", () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0.01, max: 0.08, noNaN: true }),
      fc.integer({ min: 200, max: 1000 }),
      fc.constantFrom(1, 2, 4), // 1 calibrated, above 1 over-confident
      fc.integer({ min: 0, max: 1_000_000 }),
      (alpha, nCal, strength, seed) => {
        const rng = seededPrng(seed);
        const trials = 150;
        const leak: number[] = [];
        for (let t = 0; t < trials; t++) {
          const cal = draw(rng, nCal, 6, 1.2, strength);
          const test = draw(rng, 4000, 6, 1.2, strength);
          const th = conformalEscalationThreshold(cal.pError, cal.error, {
            alpha,
          });
          let bad = 0;
          for (let i = 0; i < test.error.length; i++) {
            if (test.error[i] === 1 && test.pError[i] < th.threshold) bad++;
          }
          leak.push(bad / test.error.length);
        }
        const mean = leak.reduce((a, b) => a + b, 0) / trials;
        const sd = Math.sqrt(
          leak.reduce((s, v) => s + (v - mean) ** 2, 0) / (trials - 1),
        );
        const se = sd / Math.sqrt(trials);
        // E[leak] <= alpha (Angelopoulos et al. 2022); and not vacuous: >= alpha − 2/(n+1)
        assert.ok(
          mean <= alpha + 3 * se + 1e-4,
          `mean ${mean} > alpha ${alpha} (se ${se})`,
        );
        assert.ok(
          mean >= alpha - 2 / (nCal + 1) - 3 * se - 1e-3,
          `mean ${mean} far below alpha ${alpha}`,
        );
      },
    ),
    FC,
  );
});

Deno.test("selectiveRiskThreshold() exceeds alpha on held-out data in at most delta of seeded trials", () => {
  const certifiedAll: number[] = [];
  fc.assert(
    fc.property(
      fc.constantFrom(0.03, 0.05, 0.08),
      fc.constantFrom(0.1, 0.2),
      fc.constantFrom(1, 3),
      fc.integer({ min: 0, max: 1_000_000 }),
      (alpha, delta, strength, seed) => {
        const rng = seededPrng(seed);
        // the true selective risk of a threshold, from one large sample
        const truth = draw(rng, 200_000, 6, 1.2, strength);
        const order = Array.from(truth.pError.keys()).sort((a, b) =>
          truth.pError[a] - truth.pError[b]
        );
        const sorted = Float64Array.from(order, (i) => truth.pError[i]);
        const cumErrors = new Float64Array(order.length + 1);
        order.forEach((
          i,
          k,
        ) => (cumErrors[k + 1] = cumErrors[k] + truth.error[i]));
        const riskAt = (t: number | null) => {
          if (t === null) return 0;
          let lo = 0, hi = sorted.length;
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (sorted[mid] <= t) lo = mid + 1;
            else hi = mid;
          }
          return lo === 0 ? 0 : cumErrors[lo] / lo;
        };
        const trials = 100;
        let violations = 0;
        let certified = 0;
        for (let t = 0; t < trials; t++) {
          const cal = draw(rng, 1500, 6, 1.2, strength);
          const th = selectiveRiskThreshold(cal.pError, cal.error, {
            alpha,
            delta,
          });
          if (th.threshold !== null) certified++;
          if (riskAt(th.threshold) > alpha) violations++;
        }
        assert.ok(
          violations / trials <= delta + 0.09,
          `${violations} of ${trials} violate alpha ${alpha}`,
        );
        certifiedAll.push(certified / trials);
      },
    ),
    { ...FC, numRuns: 6 },
  );
  // and it is not vacuous: most trials certify a threshold somewhere
  assert.ok(
    Math.max(...certifiedAll) > 0.5,
    `certified shares ${certifiedAll}`,
  );
});

Deno.test("conformalEscalationThreshold() with exposure bounds the expected automatic loss in money", () => {
  const rng = seededPrng(5);
  const K = [0.2, 1, 10, 50];
  const alpha = 0.5; // money per decision
  let total = 0;
  const trials = 150;
  for (let t = 0; t < trials; t++) {
    const mk = (n: number) => {
      const d = draw(rng, n, 6, 1.2, 2);
      const exposure = Float64Array.from(
        { length: n },
        () => K[Math.floor(rng.next() * 4)],
      );
      return { ...d, exposure };
    };
    const cal = mk(800);
    const test = mk(4000);
    const th = conformalEscalationThreshold(cal.pError, cal.error, {
      alpha,
      exposure: cal.exposure,
      bound: 50,
    });
    let loss = 0;
    for (let i = 0; i < 4000; i++) {
      if (test.error[i] === 1 && test.pError[i] < th.threshold) {
        loss += test.exposure[i];
      }
    }
    total += loss / 4000;
  }
  assert.ok(
    total / trials <= alpha * 1.05,
    `mean automatic loss ${total / trials}`,
  );
});

Deno.test("conformalEscalationThreshold() escalates everything when n is too small for alpha, and names bad input", () => {
  // (0 + 1) / (n + 1) <= alpha needs n >= 1/alpha − 1 = 99 at alpha = 0.01
  const small = conformalEscalationThreshold([0.1, 0.2], [0, 1], {
    alpha: 0.01,
  });
  assert.equal(small.threshold, 0);
  assert.equal(small.autoServed, 0);
  assert.throws(
    () => conformalEscalationThreshold([0.1], [1], { alpha: 0 }),
    /alpha must be a finite number > 0, got 0/,
  );
  assert.throws(
    () =>
      conformalEscalationThreshold([0.1], [1], {
        alpha: 0.1,
        exposure: [10],
        bound: 5,
      }),
    /bound must be a finite number > 0 and at least every exposure \(10\), got 5/,
  );
  assert.throws(
    () => selectiveRiskThreshold([0.1], [1], { alpha: 1 }),
    /alpha must be in \(0, 1\), got 1/,
  );
});
