import assert from "node:assert/strict";
import { roundNumbers } from "../_helpers.ts";
import { calibration, severitySuite } from "../../analyses/calibration.ts";
import { defineProfile } from "../../lib/costs/profile.ts";

// Numbers to ten significant digits; chart data reduced to its length (the
// tables pin the values).
function snapshotOf(result: ReturnType<typeof calibration>) {
  const round = (v: unknown): unknown => roundNumbers(v, 10);
  const charts = JSON.parse(
    JSON.stringify(
      result.charts,
      (k, v) =>
        k === "values" && Array.isArray(v) && v.length > 3
          ? `${v.length} rows`
          : v,
    ),
  );
  return round({
    tables: Object.fromEntries(
      Object.entries(result.tables).map(([k, v]) => [k, v.objects()]),
    ),
    charts,
    parameters: result.parameters,
  });
}

Deno.test("calibration() holds every claim and names each model's", () => {
  const result = calibration();
  assert.deepEqual(result.claims.filter((c) => !c.holds).map((c) => c.id), []);
  const ids = result.claims.map((c) => c.id);
  for (
    const id of [
      "calibration.calibrated.within_noise_floor",
      "calibration.over_confident.above_noise_floor",
      "calibration.over_confident.recalibrated.isotonic",
      "calibration.over_confident.bayes_recalibrated_cheaper",
      "calibration.constant.equal_mass_one_bin",
      "calibration.calibrated.conformal_leakage",
      "calibration.over_confident.selective_risk",
    ]
  ) assert.ok(ids.includes(id), id);
  const summary = result.tables.calibration_summary.objects() as Record<
    string,
    number | string
  >[];
  assert.deepEqual(summary.map((r) => r.model), [
    "calibrated",
    "over_confident",
    "under_confident",
    "constant",
  ]);
  // every binned result records its edges: ten bins per model in the bins table
  assert.equal(result.tables.reliability_bins.numRows(), 40);
});

Deno.test("calibration() cost-weighted error scales with the profile: doubling every K doubles it", () => {
  const base = defineProfile({
    id: "base",
    K: { LOW: 1, MEDIUM: 2, HIGH: 5, CRITICAL: 20 },
    reviewCost: 1,
  });
  const twice = defineProfile({
    id: "twice",
    K: { LOW: 2, MEDIUM: 4, HIGH: 10, CRITICAL: 40 },
    reviewCost: 2,
  });
  const opts = { decisions: 3000, resamples: 100, conformalTrials: 20 };
  const a = calibration({ ...opts, profile: base }).tables.calibration_summary
    .objects() as { costWeightedEce: number }[];
  const b = calibration({ ...opts, profile: twice }).tables.calibration_summary
    .objects() as { costWeightedEce: number }[];
  a.forEach((r, i) =>
    assert.ok(Math.abs(b[i].costWeightedEce - 2 * r.costWeightedEce) < 1e-5)
  );
});

Deno.test("severitySuite() has the 3:3:3:1 severity mix and two exceptions in three", () => {
  const suite = severitySuite(3000);
  const count = (s: string) =>
    suite.filter((t) => t.gold.severity === s).length;
  assert.deepEqual([
    count("LOW"),
    count("MEDIUM"),
    count("HIGH"),
    count("CRITICAL"),
  ], [900, 900, 900, 300]);
  assert.equal(suite.filter((t) => t.gold.exceptionType === null).length, 1000);
});

Deno.test("calibration() tables and chart specs match the snapshot", async (t) => {
  await t.assertSnapshot(snapshotOf(calibration()));
});
