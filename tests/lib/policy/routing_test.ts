// Loss-optimal routing, the error-cost term of routing economics and judge agreement.
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  cohensKappa,
  errorCostCrossover,
  judgeErrorFromKappa,
  kappaFromJudgeError,
  lossOptimalRoute,
  SWITCHYARD_RUN,
  totalCostWithErrors,
} from "../../../lib/policy/mod.ts";
import { seededPrng } from "../../../lib/math/sampling.ts";

const FC = { seed: 20_261_206, numRuns: 300, verbose: 1 } as const;

Deno.test("lossOptimalRoute() never costs more in expectation than any single model", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.constantFrom(0.2, 1, 10, 50),
        ),
        { minLength: 1, maxLength: 100 },
      ),
      (rows) => {
        const r = lossOptimalRoute([
          { id: "a", pError: rows.map((x) => x[0]), price: 0 },
          { id: "b", pError: rows.map((x) => x[1]), price: 0.05 },
          {
            id: "c",
            pError: rows.map((x) => x[2]),
            price: rows.map((_, i) => (i % 2) * 0.1),
          },
        ], { exposure: rows.map((x) => x[3]) });
        for (const cost of Object.values(r.singleModelCost)) {
          assert.ok(r.expectedCost <= cost + 1e-9);
        }
        assert.ok(Math.abs(r.expectedCost - (r.expectedLoss + r.price)) < 1e-9);
        assert.ok(
          Math.abs(Object.values(r.share).reduce((a, b) => a + b, 0) - 1) <
            1e-12,
        );
      },
    ),
    FC,
  );
  assert.throws(
    () => lossOptimalRoute([], { exposure: [] }),
    /at least one candidate model is needed/,
  );
  assert.throws(
    () =>
      lossOptimalRoute([{ id: "a", pError: [2], price: 0 }], { exposure: [1] }),
    /P\(error\) of "a" for decision 0 must be in \[0, 1\], got 2/,
  );
});

Deno.test("errorCostCrossover() is where the two total-cost lines meet (Switchyard: K ≈ $0.97)", () => {
  fc.assert(
    fc.property(
      fc.record({
        spend: fc.double({ min: 0, max: 100, noNaN: true }),
        accuracy: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      fc.record({
        spend: fc.double({ min: 0, max: 100, noNaN: true }),
        accuracy: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      (a, b) => {
        const k = errorCostCrossover(a, b, { tasks: 145 });
        if (k === null) return assert.equal(a.accuracy, b.accuracy);
        if (k < 0 || !Number.isFinite(k)) return;
        const ca = totalCostWithErrors(a, { tasks: 145, K: k });
        const cb = totalCostWithErrors(b, { tasks: 145, K: k });
        assert.ok(Math.abs(ca - cb) < 1e-6 * Math.max(1, ca));
      },
    ),
    FC,
  );
  // the-third-number: routed is cheaper only while 0.06 × 145 × K < 11.45 − 3.00, K < about $0.97
  const k = errorCostCrossover(
    SWITCHYARD_RUN.frontierOnly,
    SWITCHYARD_RUN.routed,
    { tasks: SWITCHYARD_RUN.tasks },
  )!;
  assert.ok(Math.abs(k - 0.97) < 0.005);
  const routed = (K: number) =>
    totalCostWithErrors(SWITCHYARD_RUN.routed, { tasks: 145, K });
  const frontier = (K: number) =>
    totalCostWithErrors(SWITCHYARD_RUN.frontierOnly, { tasks: 145, K });
  assert.ok(routed(0.9) < frontier(0.9) && routed(1.1) > frontier(1.1));
});

Deno.test("cohensKappa() asymptotic interval covers the true kappa in about 95% of seeded samples", () => {
  const pj = 0.15;
  const truth = kappaFromJudgeError(pj, { prevalence: 0.3 });
  const rng = seededPrng(8);
  let covered = 0;
  const trials = 400;
  for (let t = 0; t < trials; t++) {
    const gold = Array.from({ length: 250 }, () => (rng.next() < 0.3 ? 1 : 0));
    const judge = gold.map((g) => (rng.next() < pj ? 1 - g : g));
    const k = cohensKappa(judge, gold);
    if (k.lo! <= truth && truth <= k.hi!) covered++;
  }
  // binomial(400, 0.95): sd 4.4
  assert.ok(covered >= 365 && covered <= 392, `${covered} of ${trials}`);
});

Deno.test("judgeErrorFromKappa() inverts kappaFromJudgeError() at every prevalence", () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0.01, max: 0.99, noNaN: true }),
      (pj, prevalence) => {
        const k = kappaFromJudgeError(pj, { prevalence });
        assert.ok(Math.abs(judgeErrorFromKappa(k, { prevalence }) - pj) < 1e-9);
      },
    ),
    FC,
  );
  // third-number's judges at balanced prevalence: p_j = (1 − κ)/2
  assert.ok(Math.abs(judgeErrorFromKappa(0.3672) - 0.3164) < 1e-12);
  assert.ok(Math.abs(judgeErrorFromKappa(0.9037) - 0.04815) < 1e-12);
  // kappa alone does not fix p_j: at prevalence 0.1 the same 0.3672 means a rarer error
  assert.ok(judgeErrorFromKappa(0.3672, { prevalence: 0.1 }) < 0.2);
  assert.throws(
    () => judgeErrorFromKappa(-1.5),
    /kappa must be in \[-1, 1\] at prevalence 0.5, got -1.5/,
  );
});

Deno.test("cohensKappa() is null without items and 1 for perfect agreement", () => {
  assert.equal(cohensKappa([], []).kappa, null);
  const k = cohensKappa(["a", "b", "a"], ["a", "b", "a"]);
  assert.equal(k.kappa, 1);
  assert.throws(
    () => cohensKappa(["a"], []),
    /must rate the same items, got 1 and 0 labels/,
  );
});
