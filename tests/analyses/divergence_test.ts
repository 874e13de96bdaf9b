import assert from "node:assert/strict";
import { roundNumbers } from "../_helpers.ts";
import {
  divergence,
  MODEL_AB_SCENARIO,
  scenarioDecisions,
} from "../../analyses/divergence.ts";
import {
  defineProfile,
  getProfile,
  SHIPPED_PROFILES,
} from "../../lib/costs/mod.ts";

Deno.test("divergence() reproduces every figure of the Model A vs B table", () => {
  const result = divergence();
  const failing = result.claims.filter((c) => !c.holds).map((c) => c.id);
  assert.deepEqual(failing, []);
  const ids = result.claims.map((c) => c.id);
  // the-third-number, divergence table: each published figure is a claim
  for (
    const id of [
      "divergence.accuracy.exceptions.A",
      "divergence.accuracy.exceptions.B",
      "divergence.accuracy.all.A",
      "divergence.accuracy.all.B",
      "divergence.loss.reconciliation.A",
      "divergence.loss.reconciliation.B",
      "divergence.loss.principal_risk.A",
      "divergence.loss.principal_risk.B",
      "divergence.reduction.reconciliation",
      "divergence.reduction.principal_risk",
      "divergence.flat_ranking.flat",
    ]
  ) assert.ok(ids.includes(id), id);
  const get = (id: string) => result.claims.find((c) => c.id === id)!;
  // the-third-number: Model A loss under reconciliation = 104.4, B = 64.0
  assert.ok(
    Math.abs(
      (get("divergence.loss.reconciliation.A").actual as number) - 104.4,
    ) < 1e-9,
  );
  assert.ok(
    Math.abs((get("divergence.loss.reconciliation.B").actual as number) - 64) <
      1e-9,
  );
  // the-third-number: 10,042 and 2,420 under principal_risk
  assert.equal(get("divergence.loss.principal_risk.A").actual, 10042);
  assert.equal(get("divergence.loss.principal_risk.B").actual, 2420);
});

Deno.test("divergence() claims fail when the scenario's counts change", () => {
  const scenario = {
    ...MODEL_AB_SCENARIO,
    models: {
      ...MODEL_AB_SCENARIO.models,
      B: { label: "B", errors: { HIGH: 3, MEDIUM: 40, LOW: 20 } },
    },
  };
  const failing = divergence({ scenario }).claims.filter((c) => !c.holds).map((
    c,
  ) => c.id);
  assert.ok(failing.includes("divergence.loss.reconciliation.B"));
  assert.ok(failing.includes("divergence.accuracy.exceptions.B"));
  assert.ok(!failing.includes("divergence.loss.reconciliation.A"));
});

Deno.test("divergence() shows a researcher's own profile and keeps checking the published ones", () => {
  const mine = defineProfile({
    id: "my_desk",
    K: { LOW: 0.5, MEDIUM: 2, HIGH: 40, CRITICAL: 400 },
    reviewCost: 1,
  });
  const result = divergence({ profiles: [getProfile("flat"), mine] });
  const losses = result.tables.loss_by_profile.objects() as {
    profile: string;
    model: string;
    loss: number;
  }[];
  // by hand: A = 10 x 40 + 4 x 2 + 2 x 0.5 = 409; B = 2 x 40 + 40 x 2 + 20 x 0.5 = 170
  assert.deepEqual(
    losses.filter((r) => r.profile === "my_desk").map((r) => r.loss),
    [409, 170],
  );
  assert.ok(result.claims.every((c) => c.holds));
  assert.deepEqual(result.parameters.profiles, ["flat@1.0.0", "my_desk@user"]);
});

Deno.test("divergence() tables and chart specs match the snapshot", async (t) => {
  const result = divergence();
  const round = (v: unknown): unknown => roundNumbers(v, 10);
  await t.assertSnapshot(round({
    tables: Object.fromEntries(
      Object.entries(result.tables).map(([k, v]) => [k, v.objects()]),
    ),
    charts: result.charts,
    parameters: result.parameters,
  }));
});

Deno.test("scenarioDecisions() spreads exceptions over the nine classes and refuses impossible counts", () => {
  const ds = scenarioDecisions();
  assert.equal(ds.length, 20_000);
  const high = ds.filter((d) => d.modelId === "A" && d.severity === "HIGH");
  assert.deepEqual(
    [...new Set(high.map((d) => d.trueClass))].sort(),
    [
      "AMOUNT_MISMATCH",
      "BENEFICIARY_MISMATCH",
      "COUNTERPARTY_MISMATCH",
      "FX_CONVERSION_ERROR",
    ],
  );
  assert.equal(
    new Set(ds.filter((d) => d.modelId === "A").map((d) => d.taskId)).size,
    10_000,
  );
  assert.throws(
    () =>
      scenarioDecisions({
        ...MODEL_AB_SCENARIO,
        models: { X: { label: "X", errors: { HIGH: 501, MEDIUM: 0, LOW: 0 } } },
      }),
    /model X has 501 HIGH errors but only 500 HIGH exceptions/,
  );
  assert.equal(SHIPPED_PROFILES.length, 4);
});
