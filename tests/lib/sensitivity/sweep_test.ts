import assert from "node:assert/strict";
import fc from "fast-check";
import { getProfile, SHIPPED_PROFILES } from "../../../lib/costs/load.ts";
import { defineProfile } from "../../../lib/costs/profile.ts";
import type { LossCoefficients } from "../../../lib/sensitivity/loss_coefficients.ts";
import { sweepProfiles } from "../../../lib/sensitivity/sweep.ts";

const FC = { seed: 20_261_108, numRuns: 200 } as const;

const model = (
  modelId: string,
  n: number,
  correct: number,
  K: [number, number, number, number],
  review = 0,
): LossCoefficients => ({
  modelId,
  n,
  correct,
  K: { LOW: K[0], MEDIUM: K[1], HIGH: K[2], CRITICAL: K[3] },
  review,
  fixed: 0,
});

Deno.test("sweepProfiles() splits a tie's win between the tied models and counts a tie as two flips", () => {
  const models = [
    model("a", 10, 9, [1, 0, 0, 0]),
    model("b", 10, 9, [0, 0, 1, 0]),
  ];
  const at = (high: number) =>
    defineProfile({
      id: `h${high}`,
      K: { LOW: 1, MEDIUM: 1, HIGH: high, CRITICAL: 1 },
      reviewCost: 1,
    });
  const sweep = sweepProfiles(models, [at(0.5), at(1), at(2)]);
  assert.deepEqual(sweep.points.map((p) => p.winners), [["b"], ["a", "b"], [
    "a",
  ]]);
  assert.deepEqual(sweep.winShare, { a: 0.5, b: 0.5 });
  assert.equal(sweep.flips, 2);
  // Both tie on accuracy, so neither choice by accuracy is a disagreement.
  assert.equal(sweep.disagreementShare, 0);
  assert.equal(sweepProfiles(models, [at(1)], { ordered: false }).flips, null);
});

Deno.test("sweepProfiles() regret is the accuracy winner's loss minus the lowest loss", () => {
  // Model A vs B of the Third Number: B wins under reconciliation by 104.4 - 64 per 800.
  const models = [
    model("A", 800, 784, [2, 4, 10, 0]),
    model("B", 800, 738, [20, 40, 2, 0]),
  ];
  const sweep = sweepProfiles(models, SHIPPED_PROFILES, { per: "run" });
  assert.deepEqual(sweep.accuracyWinners, ["A"]);
  assert.ok(Math.abs(sweep.points[1].regret - 40.4) < 1e-9);
  assert.equal(sweep.points[0].regret, 0);
  assert.equal(sweep.disagreementShare, 0.75);
  assert.equal(sweep.maxRegret, sweep.points[3].regret);
  // Per decision divides every loss by 800.
  const perDecision = sweepProfiles(models, SHIPPED_PROFILES);
  assert.ok(Math.abs(perDecision.points[1].regret - 40.4 / 800) < 1e-12);
});

Deno.test("sweepProfiles() win shares add up to 1 and every winner has the lowest loss", () => {
  const coefArb = fc.array(
    fc.record({
      n: fc.integer({ min: 1, max: 50 }),
      K: fc.tuple(...[0, 1, 2, 3].map(() => fc.integer({ min: 0, max: 10 }))),
      review: fc.integer({ min: 0, max: 5 }),
    }),
    { minLength: 1, maxLength: 6 },
  );
  fc.assert(
    fc.property(
      coefArb,
      fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 4, maxLength: 4 }),
      (cs, k) => {
        const models = cs.map((c, i) =>
          model(
            `m${i}`,
            c.n + c.K.reduce((a, b) => a + b, 0),
            c.n,
            c.K as [number, number, number, number],
            c.review,
          )
        );
        const profiles = SHIPPED_PROFILES.concat(
          defineProfile({
            id: "r",
            K: { LOW: k[0], MEDIUM: k[1], HIGH: k[2], CRITICAL: k[3] },
            reviewCost: 1,
          }),
        );
        const sweep = sweepProfiles(models, profiles);
        const total = Object.values(sweep.winShare).reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(total - 1) < 1e-12);
        for (const p of sweep.points) {
          const min = Math.min(...p.losses);
          for (const w of p.winners) {
            assert.equal(
              p.losses[sweep.models.indexOf(w)],
              min,
            );
          }
          assert.ok(p.regret >= 0);
        }
      },
    ),
    FC,
  );
});

Deno.test("sweepProfiles() refuses no models, no profiles, duplicate models and models without decisions", () => {
  const a = model("a", 10, 9, [1, 0, 0, 0]);
  const flat = [getProfile("flat")];
  assert.throws(() => sweepProfiles([], flat), /there are no models/);
  assert.throws(() => sweepProfiles([a], []), /list of profiles is empty/);
  assert.throws(() => sweepProfiles([a, a], flat), /model "a" appears twice/);
  assert.throws(
    () => sweepProfiles([{ ...a, n: 0 }], flat),
    /model "a" has no decisions \(n = 0\)/,
  );
  assert.throws(
    () => sweepProfiles([a], flat, { per: "month" as "run" }),
    /per must be "decision" or "run", got "month"/,
  );
});
