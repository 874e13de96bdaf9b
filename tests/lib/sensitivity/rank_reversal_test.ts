import assert from "node:assert/strict";
import fc from "fast-check";
import { defineProfile } from "../../../lib/costs/profile.ts";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { rankReversalDistance } from "../../../lib/sensitivity/rank_reversal.ts";
import { sweepProfiles } from "../../../lib/sensitivity/sweep.ts";

const FC = { seed: 20_261_110, numRuns: 200 } as const;

const modelsArb = fc.array(
  fc.record({
    K: fc.tuple(...[0, 1, 2, 3].map(() => fc.integer({ min: 0, max: 40 }))),
    review: fc.integer({ min: 0, max: 10 }),
    n: fc.integer({ min: 1, max: 20 }),
  }),
  { minLength: 2, maxLength: 5 },
).map((ms) =>
  ms.map((m, i) => ({
    modelId: `m${i}`,
    n: m.n + m.K.reduce((a, b) => a + b, 0) + m.review,
    correct: m.n,
    K: { LOW: m.K[0], MEDIUM: m.K[1], HIGH: m.K[2], CRITICAL: m.K[3] },
    review: m.review,
    fixed: 0,
  }))
);
const profileArb = fc.tuple(
  ...[0, 1, 2, 3].map(() =>
    fc.integer({ min: 1, max: 10_000 }).map((k) => k / 10)
  ),
  fc.integer({ min: 0, max: 100 }),
).map(([l, m, h, c, r]) =>
  defineProfile({
    id: "p",
    K: { LOW: l, MEDIUM: m, HIGH: h, CRITICAL: c },
    reviewCost: r,
  })
);

/** Every vertex of the box [K/f, K·f]^4, as profiles. */
function vertices(p: ReturnType<typeof defineProfile>, f: number) {
  const out = [];
  for (let mask = 0; mask < 16; mask++) {
    const K = Object.fromEntries(
      SEVERITIES.map((s, i) => [s, mask & (1 << i) ? p.K[s] * f : p.K[s] / f]),
    ) as Record<(typeof SEVERITIES)[number], number>;
    out.push(defineProfile({ id: `v${mask}`, K, reviewCost: p.reviewCost }));
  }
  return out;
}

Deno.test("rankReversalDistance() is the smallest box factor whose vertices change the top model", () => {
  let finite = 0;
  fc.assert(
    fc.property(modelsArb, profileArb, (models, profile) => {
      const rr = rankReversalDistance(models, profile);
      if (rr.winners.length > 1) {
        assert.equal(rr.factor, 1);
        return;
      }
      const top = rr.winners[0];
      // Somewhere in a box, the top model keeps its place iff it is the sole winner at every vertex:
      // loss differences are linear in K, so each is extreme at a vertex.
      const keeps = (f: number) =>
        sweepProfiles(models, vertices(profile, f)).points.every((p) =>
          p.winners.length === 1 && p.winners[0] === top
        );
      if (!Number.isFinite(rr.factor)) {
        assert.ok(keeps(1e6));
        return;
      }
      finite++;
      assert.ok(rr.factor >= 1);
      assert.ok(
        keeps(1 + (rr.factor - 1) * (1 - 1e-6)) || rr.factor - 1 < 1e-9,
      );
      assert.ok(!keeps(rr.factor * (1 + 1e-6)));
      // At the reported K the challenger ties (or beats) the winner.
      const at = sweepProfiles(models, [
        defineProfile({
          id: "at",
          K: rr.reversalK!,
          reviewCost: profile.reviewCost,
        }),
      ]).points[0];
      const loss = (id: string) =>
        at.losses[models.findIndex((m) => m.modelId === id)];
      assert.ok(loss(rr.challenger!) <= loss(top) * (1 + 1e-9));
    }),
    FC,
  );
  assert.ok(finite > 50, `only ${finite} finite distances`);
});

Deno.test("rankReversalDistance() is infinite when no change of K can help the challenger, and 1 at a tie", () => {
  const zero = { LOW: 0, MEDIUM: 0, HIGH: 0, CRITICAL: 0 };
  const profile = defineProfile({
    id: "p",
    K: { LOW: 1, MEDIUM: 1, HIGH: 1, CRITICAL: 1 },
    reviewCost: 1,
  });
  // The challenger only pays reviews, which K does not move.
  const models = [
    {
      modelId: "a",
      n: 10,
      correct: 9,
      K: { ...zero, HIGH: 1 },
      review: 0,
      fixed: 0,
    },
    { modelId: "b", n: 10, correct: 5, K: zero, review: 5, fixed: 0 },
  ];
  const rr = rankReversalDistance(models, profile);
  assert.deepEqual([rr.winners, rr.challenger], [["a"], "b"]);
  // a's loss 1·K(HIGH) must reach 5: K(HIGH) up by a factor of 5.
  assert.ok(Math.abs(rr.factor - 5) < 1e-12);
  const never = rankReversalDistance([models[0], {
    ...models[0],
    modelId: "c",
    K: { ...zero, HIGH: 2 },
  }], profile);
  assert.equal(never.factor, Infinity);
  assert.equal(never.reversalK, null);
  const tie = rankReversalDistance(
    [models[0], { ...models[0], modelId: "d" }],
    profile,
  );
  assert.deepEqual([tie.factor, tie.challenger], [1, "d"]);
});
