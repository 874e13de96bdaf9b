import assert from "node:assert/strict";
import { roundNumbers } from "../_helpers.ts";
import { kSensitivity } from "../../analyses/k_sensitivity.ts";
import { defineProfile } from "../../lib/costs/profile.ts";

const round = (v: unknown): unknown => roundNumbers(v, 8);

Deno.test("kSensitivity() holds every claim and reproduces the 5.8 crossover", () => {
  const result = kSensitivity();
  assert.deepEqual(result.claims.filter((c) => !c.holds).map((c) => c.id), []);
  const c58 = result.claims.find((c) => c.id === "k_sensitivity.crossover_5_8");
  // exact crossover: 20 + 400 r = 600 + 300 r at r = 5.8; LossBench's grid said 10
  assert.equal(c58?.actual, 5.8);
  assert.equal(
    result.claims.find((c) => c.id === "k_sensitivity.crossover_5_8.grid")
      ?.actual,
    10,
  );
  const share = result.tables.winner_share.objects() as {
    contestants: string;
    matrix: string;
    pairs: number;
    disagreeing: number;
  }[];
  assert.deepEqual(
    share.map((r) => [r.contestants, r.matrix, r.disagreeing, r.pairs]),
    [
      ["automated models", "consequence", 10, 30],
      ["automated models", "strict", 8, 30],
      ["automated models and always_escalate", "consequence", 18, 30],
      ["automated models and always_escalate", "strict", 18, 30],
      ["the whole zoo, oracle included", "consequence", 0, 30],
      ["the whole zoo, oracle included", "strict", 0, 30],
    ],
  );
});

Deno.test("kSensitivity() gives a reader's own profile its winner, tau and rank-reversal distance", () => {
  const mine = defineProfile({
    id: "my_desk",
    K: { LOW: 2, MEDIUM: 8, HIGH: 400, CRITICAL: 9000 },
    reviewCost: 15,
  });
  const result = kSensitivity({ profiles: [mine], draws: 100 });
  assert.ok(result.claims.every((c) => c.holds));
  const row = (result.tables.profiles.objects() as {
    profile: string;
    lossWinner: string;
    reversalFactor: number;
  }[]).find((r) => r.profile === "my_desk");
  assert.ok(row !== undefined);
  assert.ok(row.reversalFactor >= 1);
});

Deno.test("kSensitivity() pinned claims fail on another simulation seed, the theorem claims do not", () => {
  const failing = kSensitivity({ seed: 3, draws: 100 }).claims.filter((c) =>
    !c.holds
  ).map((c) => c.id);
  assert.ok(failing.includes("k_sensitivity.winner_changes"), failing.join());
  for (
    const id of [
      "k_sensitivity.flat_point.tau",
      "k_sensitivity.crossover_5_8",
      "k_sensitivity.crossovers_are_intersections",
      "k_sensitivity.winner_share.oracle",
    ]
  ) assert.ok(!failing.includes(id), id);
});

Deno.test("kSensitivity() tables and chart specs match the snapshot", async (t) => {
  const result = kSensitivity();
  await t.assertSnapshot(round({
    tables: Object.fromEntries(
      Object.entries(result.tables).map(([k, v]) => [k, v.objects()]),
    ),
    // The charts' inline data repeats the tables; keep the specs and row counts.
    charts: Object.fromEntries(
      Object.entries(result.charts).map(([k, spec]) => [k, {
        ...spec,
        data: { rows: (spec.data as { values: unknown[] }).values.length },
      }]),
    ),
    parameters: result.parameters,
  }));
});
