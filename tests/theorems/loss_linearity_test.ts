// Theorem 4, loss linearity (`third-number`, K-sensitivity): realised loss is linear in the
// cost profile, so a model reduces to one coefficient vector and two models'
// losses along a cost family are lines that cross at an exact ratio, not at
// a grid point. The example: A misses 100 LOW and 40 HIGH, B 3,000
// LOW and 30 HIGH; with K(LOW) = 0.2 and K(HIGH) = 10 r they lose 20 + 400 r
// and 600 + 300 r and cross at r = 5.8 (LossBench's grid reported 10.0).
import assert from "node:assert/strict";
import fc from "fast-check";
import { getProfile } from "../../lib/costs/load.ts";
import { type CostProfile, defineProfile } from "../../lib/costs/profile.ts";
import {
  CONSEQUENCE_MATRIX,
  type CostRule,
  defineCostMatrix,
  realisedLoss,
  STRICT_MATRIX,
} from "../../lib/metrics/loss.ts";
import { forModel } from "../../lib/metrics/sufficient_stats.ts";
import {
  costFamily,
  familyProfile,
  logGrid,
} from "../../lib/sensitivity/cost_family.ts";
import { crossoverRatio, familyLine } from "../../lib/sensitivity/crossover.ts";
import { sweepFamily } from "../../lib/sensitivity/family_sweep.ts";
import {
  coefficientLoss,
  lossCoefficients,
} from "../../lib/sensitivity/loss_coefficients.ts";
import { costArb, FC, modelsArb, statsOf } from "./_arbitraries.ts";

const close = (a: number, b: number) =>
  Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

const profileArb = fc.tuple(costArb, costArb, costArb, costArb, costArb).map((
  [l, m, h, c, review],
) =>
  defineProfile({
    id: "p",
    K: { LOW: l, MEDIUM: m, HIGH: h, CRITICAL: c },
    reviewCost: review,
  })
);

const ruleArb: fc.Arbitrary<CostRule> = fc.oneof(
  fc.constant({ of: "zero" } as const),
  fc.constantFrom(1, 0.5, 2, 3.7).map((times) => ({ of: "K", times } as const)),
  fc.constantFrom(1, 0.1, 4).map((times) => ({ of: "review", times } as const)),
  fc.constantFrom(0, 2.5, 7).map((value) => ({ of: "fixed", value } as const)),
);
const matrixArb = fc.oneof(
  fc.constantFrom(STRICT_MATRIX, CONSEQUENCE_MATRIX),
  fc.record({
    auto: fc.record({
      correct: ruleArb,
      missed: ruleArb,
      wrongType: ruleArb,
      falseAlarm: ruleArb,
    }),
    escalate: fc.record({
      correct: ruleArb,
      missed: ruleArb,
      wrongType: ruleArb,
      falseAlarm: ruleArb,
    }),
  }).map((m) =>
    defineCostMatrix({ id: "random", description: "random", ...m })
  ),
);

function mix(
  p: CostProfile,
  q: CostProfile,
  a: number,
  b: number,
): CostProfile {
  return defineProfile({
    id: "mix",
    K: {
      LOW: a * p.K.LOW + b * q.K.LOW,
      MEDIUM: a * p.K.MEDIUM + b * q.K.MEDIUM,
      HIGH: a * p.K.HIGH + b * q.K.HIGH,
      CRITICAL: a * p.K.CRITICAL + b * q.K.CRITICAL,
    },
    reviewCost: a * p.reviewCost + b * q.reviewCost,
  });
}

Deno.test("realisedLoss() is linear in the profile, and coefficientLoss() reproduces it under any cost matrix", () => {
  fc.assert(
    fc.property(
      modelsArb({ escalation: true }),
      matrixArb,
      profileArb,
      profileArb,
      fc.integer({ min: 0, max: 1000 }).map((x) => x / 100),
      fc.integer({ min: 0, max: 1000 }).map((x) => x / 100),
      (models, matrix, p, q, a, b) => {
        const stats = statsOf(models);
        const coefficients = lossCoefficients(stats, { matrix });
        const zero = defineProfile({
          id: "zero",
          K: { LOW: 0, MEDIUM: 0, HIGH: 0, CRITICAL: 0 },
          reviewCost: 0,
        });
        for (const c of coefficients) {
          const rows = forModel(stats, c.modelId);
          const L = (x: CostProfile) => realisedLoss(rows, x, { matrix })!;
          // Affine in the profile: fixed costs are the loss at the zero profile.
          const f = L(zero);
          assert.ok(
            close(L(mix(p, q, a, b)) - f, a * (L(p) - f) + b * (L(q) - f)),
          );
          // The coefficient vector gives the same loss as a scan of the cells.
          for (const x of [p, q, mix(p, q, a, b)]) {
            assert.ok(close(coefficientLoss(c, x, { per: "run" })!, L(x)));
            assert.ok(close(coefficientLoss(c, x)! * c.n, L(x)));
          }
        }
      },
    ),
    FC,
  );
});

Deno.test("familyLine() is the loss along a family, and crossoverRatio() is where realisedLoss() of two models meet", () => {
  fc.assert(
    fc.property(
      modelsArb({ minModels: 2, maxModels: 2, escalation: true }),
      profileArb,
      fc.subarray(["LOW", "MEDIUM", "HIGH", "CRITICAL"] as const, {
        minLength: 1,
      }),
      fc.array(fc.double({ min: -3, max: 5, noNaN: true }), {
        minLength: 1,
        maxLength: 5,
      }),
      (models, base, scaled, logs) => {
        const stats = statsOf(models);
        const family = costFamily(base, { scaled });
        const [ca, cb] = lossCoefficients(stats);
        const L = (id: string, r: number) =>
          realisedLoss(forModel(stats, id), familyProfile(family, r))!;
        for (const c of [ca, cb]) {
          const line = familyLine(c, family, { per: "run" });
          for (const r of logs.map((e) => 10 ** e)) {
            assert.ok(close(line.intercept + line.slope * r, L(c.modelId, r)));
          }
        }
        const x = crossoverRatio(ca, cb, family, { per: "run" });
        if (x === null) return;
        // The lines meet at the ratio ...
        const [la, lb] = [L(x.a, x.ratio), L(x.b, x.ratio)];
        assert.ok(
          Math.abs(la - lb) <= 1e-9 * Math.max(1, la, lb),
          `${la} vs ${lb}`,
        );
        // ... a is cheaper below it and b above it (the lines are not parallel).
        assert.ok(L(x.a, x.ratio / 2) < L(x.b, x.ratio / 2));
        assert.ok(L(x.b, x.ratio * 2) < L(x.a, x.ratio * 2));
      },
    ),
    FC,
  );
});

// The example, in the units of a run (per run totals).
const model = (modelId: string, low: number, high: number) => ({
  modelId,
  n: 10_000,
  correct: 10_000 - low - high,
  K: { LOW: low, MEDIUM: 0, HIGH: high, CRITICAL: 0 },
  review: 0,
  fixed: 0,
});
const A = model("A", 100, 40);
const B = model("B", 3000, 30);

Deno.test("crossoverRatio() reproduces the 5.8 crossover exactly, where LossBench's grid said 10.0", () => {
  // K(LOW) = 0.2, K(HIGH) = 10 r: the reconciliation profile with HIGH scaled.
  const family = costFamily(getProfile("reconciliation"), { scaled: ["HIGH"] });
  assert.deepEqual(familyLine(A, family, { per: "run" }), {
    modelId: "A",
    intercept: 20,
    slope: 400,
  });
  assert.deepEqual(familyLine(B, family, { per: "run" }), {
    modelId: "B",
    intercept: 600,
    slope: 300,
  });
  const x = crossoverRatio(A, B, family);
  // exact crossover: 20 + 400 r = 600 + 300 r at r = 5.8
  assert.equal(x?.ratio, 5.8);
  assert.equal(x?.exact, "29/5");
  assert.deepEqual([x?.a, x?.b], ["A", "B"]);
  // LossBench's decade grid: the first grid point where B wins is 10.
  const decades = sweepFamily([A, B], family, {
    from: 1,
    to: 100_000,
    points: 6,
  });
  assert.deepEqual(decades.ratios, [1, 10, 100, 1000, 10_000, 100_000]);
  assert.equal(
    decades.ratios[decades.points.findIndex((p) => p.winners[0] === "B")],
    10,
  );
  // The exact answer does not depend on the grid.
  for (const points of [2, 6, 61, 500]) {
    const s = sweepFamily([A, B], family, { points });
    assert.equal(s.crossovers[0].ratio, 5.8);
    assert.equal(s.winnerChanges[0].ratio, 5.8);
    assert.equal(s.flips, 1);
  }
  // With K(CRITICAL) scaled too (the default family) nothing changes: neither errs on CRITICAL.
  assert.equal(crossoverRatio(A, B, costFamily())?.ratio, 5.8);
  // The default grid (twelve points a decade) has no point at 5.8 either.
  assert.ok(!logGrid().includes(5.8));
});
