import assert from "node:assert/strict";
import fc from "fast-check";
import { getProfile } from "../../../lib/costs/load.ts";
import {
  costFamily,
  familyProfile,
  logGrid,
} from "../../../lib/sensitivity/cost_family.ts";
import {
  crossovers,
  winnerChanges,
} from "../../../lib/sensitivity/crossover.ts";
import { sweepProfiles } from "../../../lib/sensitivity/sweep.ts";

const FC = { seed: 20_261_109, numRuns: 150 } as const;

const coefArb = fc.array(
  fc.tuple(...[0, 1, 2, 3].map(() => fc.integer({ min: 0, max: 30 }))),
  { minLength: 1, maxLength: 6 },
).map((ks) =>
  ks.map(([l, m, h, c], i) => ({
    modelId: `m${i}`,
    n: 100,
    correct: 100 - l - m - h - c,
    K: { LOW: l, MEDIUM: m, HIGH: h, CRITICAL: c },
    review: 0,
    fixed: 0,
  }))
);

Deno.test("winnerChanges() finds every change of winner a dense grid sees, at the exact ratios", () => {
  const family = costFamily(getProfile("reconciliation"));
  fc.assert(
    fc.property(coefArb, (models) => {
      const changes = winnerChanges(models, family, { from: 0.01, to: 1000 });
      // Between consecutive changes the winner set is constant, and it is the
      // set the exact function says; check on a dense grid away from the changes.
      const grid = logGrid({ from: 0.01, to: 1000, points: 400 });
      const sweep = sweepProfiles(
        models,
        grid.map((r) => familyProfile(family, r)),
      );
      sweep.points.forEach((p, i) => {
        const r = grid[i];
        if (changes.some((c) => Math.abs(c.ratio - r) < 1e-9 * r)) return;
        const before = changes.filter((c) => c.ratio < r);
        // Before the first change the winners are those at the start (unless
        // the start itself is a tie, which the exact function resolves to the
        // winners just after it).
        if (before.length === 0 && sweep.points[0].winners.length > 1) return;
        const expected = before.length === 0
          ? sweep.points[0].winners
          : before[before.length - 1].to;
        assert.deepEqual(p.winners, expected, `r = ${r}`);
      });
      // Consecutive changes are at increasing ratios and chain winner sets.
      for (let i = 1; i < changes.length; i++) {
        assert.ok(changes[i].ratio > changes[i - 1].ratio);
        assert.deepEqual(changes[i].from, changes[i - 1].to);
      }
    }),
    FC,
  );
});

Deno.test("crossovers() lists every pair that changes order along the family, each once", () => {
  const family = costFamily(getProfile("flat"));
  fc.assert(
    fc.property(coefArb, (models) => {
      const xs = crossovers(models, family);
      for (const x of xs) {
        const [a, b] = [x.a, x.b].map((id) =>
          models.find((m) => m.modelId === id)!
        );
        const loss = (m: typeof a, r: number) => {
          const p = familyProfile(family, r);
          return m.K.LOW * p.K.LOW + m.K.MEDIUM * p.K.MEDIUM +
            m.K.HIGH * p.K.HIGH + m.K.CRITICAL * p.K.CRITICAL;
        };
        assert.ok(loss(a, x.ratio * 0.9) < loss(b, x.ratio * 0.9));
        assert.ok(loss(b, x.ratio * 1.1) < loss(a, x.ratio * 1.1));
      }
      const pairs = xs.map((x) => [x.a, x.b].sort().join("|"));
      assert.equal(new Set(pairs).size, pairs.length);
      for (let i = 1; i < xs.length; i++) {
        assert.ok(xs[i].ratio >= xs[i - 1].ratio);
      }
    }),
    FC,
  );
});

Deno.test("winnerChanges() refuses an empty model list and a reversed range", () => {
  const family = costFamily();
  assert.throws(() => winnerChanges([], family), /there are no models/);
  assert.throws(
    () =>
      winnerChanges(
        [{
          modelId: "a",
          n: 1,
          correct: 1,
          K: { LOW: 0, MEDIUM: 0, HIGH: 0, CRITICAL: 0 },
          review: 0,
          fixed: 0,
        }],
        family,
        { from: 10, to: 1 },
      ),
    /0 <= from <= to, got from 10, to 1/,
  );
});
