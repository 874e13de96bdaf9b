import assert from "node:assert/strict";
import { roundNumbers } from "../_helpers.ts";
import {
  ESCALATION_COUNTEREXAMPLE,
  flatCostTheorem,
} from "../../analyses/flat_cost_theorem.ts";
import { defineProfile } from "../../lib/costs/profile.ts";
import { fitGlobalThreshold } from "../../lib/sensitivity/escalation_rate.ts";

const round = (v: unknown): unknown => roundNumbers(v, 8);

Deno.test("flatCostTheorem() holds every claim: the theorem, divergence, the interval [r*, ∞) and escalation monotonicity", () => {
  const result = flatCostTheorem();
  assert.deepEqual(result.claims.filter((c) => !c.holds).map((c) => c.id), []);
  const ids = result.claims.map((c) => c.id);
  for (
    const id of [
      "flat_cost.tau.flat",
      "flat_cost.tau.flat_7.3",
      "divergence.witness.principal_risk",
      "divergence.interval",
      "divergence.crossover",
      "escalation.counterexample.after",
      "escalation.not_monotone.frontier_even.global_threshold_on_expected_loss",
    ]
  ) assert.ok(ids.includes(id), id);
  // Under the flat profile every model's loss rank is its accuracy rank.
  const flat = (result.tables.rankings.objects() as {
    profile: string;
    accuracyRank: number;
    lossRank: number;
  }[]).filter((r) => r.profile === "flat");
  assert.ok(flat.every((r) => r.accuracyRank === r.lossRank));
});

Deno.test("flatCostTheorem() shows a reader's own profiles: a flat one ranks by accuracy, a steep one gets a disagreeing pair", () => {
  const mine = defineProfile({
    id: "my_desk",
    K: { LOW: 0.5, MEDIUM: 2, HIGH: 40, CRITICAL: 400 },
    reviewCost: 1,
  });
  const myFlat = defineProfile({
    id: "my_flat",
    K: { LOW: 3, MEDIUM: 3, HIGH: 3, CRITICAL: 3 },
    reviewCost: 3,
  });
  const result = flatCostTheorem({ profiles: [mine, myFlat] });
  assert.ok(result.claims.every((c) => c.holds));
  const witness = (result.tables.witnesses.objects() as {
    profile: string;
    disagrees: boolean;
  }[]).find((r) => r.profile === "my_desk");
  assert.equal(witness?.disagrees, true);
  const rows = (result.tables.rankings.objects() as {
    profile: string;
    kendallTau: number;
  }[]).filter((r) => r.profile === "my_flat");
  assert.ok(rows.length === 4 && rows.every((r) => r.kendallTau === 1));
});

Deno.test("flatCostTheorem() pinned claims fail on another simulation seed", () => {
  const failing = flatCostTheorem({ seed: 2 }).claims.filter((c) => !c.holds)
    .map((c) => c.id);
  assert.ok(failing.includes("divergence.crossover"), failing.join(", "));
  // The theorem claims do not depend on the seed.
  assert.ok(!failing.some((id) => id.startsWith("flat_cost.")));
});

Deno.test("ESCALATION_COUNTEREXAMPLE escalates less under the global expected-loss threshold after K(HIGH) rises", () => {
  const at = (high: number) =>
    defineProfile({
      id: "p",
      K: { LOW: 1, MEDIUM: 1, HIGH: high, CRITICAL: high },
      reviewCost: 1,
    });
  const score = "expectedLoss" as const;
  assert.ok(
    fitGlobalThreshold(ESCALATION_COUNTEREXAMPLE, at(10), { score }).rate! <
      fitGlobalThreshold(ESCALATION_COUNTEREXAMPLE, at(5), { score }).rate!,
  );
});

Deno.test("flatCostTheorem() tables and chart specs match the snapshot", async (t) => {
  const result = flatCostTheorem();
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
