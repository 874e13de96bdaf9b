import assert from "node:assert/strict";
import { roundNumbers } from "../_helpers.ts";
import {
  counterfactualReplay,
  replayMonth,
} from "../../analyses/counterfactual_replay.ts";
import { ledgerText } from "../../lib/ledger/chain.ts";
import { ledgerColumns } from "../../lib/ledger/columns.ts";
import { replay } from "../../lib/ledger/replay.ts";
import type { AnalysisResult } from "../../lib/claims/analysis_result.ts";

const result = counterfactualReplay();

Deno.test("counterfactualReplay() holds every claim: verification, six tamperings, replay, curve and refit", () => {
  assert.deepEqual(result.claims.filter((c) => !c.holds).map((c) => c.id), []);
  const ids = result.claims.map((c) => c.id);
  for (
    const kind of [
      "edited",
      "deleted",
      "reordered",
      "duplicated",
      "truncated",
      "torn",
    ]
  ) {
    assert.ok(ids.includes(`counterfactual_replay.tamper.${kind}`), kind);
  }
  for (
    const id of [
      "ledger.verifies",
      "replay.recorded_policy.changes_nothing",
      "replay.deterministic",
      "replay.unevaluable.counted",
      "replay.unrecorded_model",
      "replay.profile_change.chow_lowers_loss",
      "curve.matches_replay.0.05",
      "refit.chained",
    ]
  ) assert.ok(ids.includes(`counterfactual_replay.${id}`), id);
});

Deno.test("counterfactualReplay() tamper table names the record that was tampered with", () => {
  for (
    const row of result.tables.tamper.objects() as Record<string, unknown>[]
  ) {
    assert.equal(row.firstBadSeq, row.expectedSeq, String(row.tampering));
    assert.equal(row.valid, false);
    const k = row.expectedSeq as number;
    // a truncation names the last record the file still holds
    assert.match(
      String(row.reason),
      new RegExp(`(record|line) ${k}\\b|after record ${k - 1}$`),
    );
  }
});

Deno.test("counterfactualReplay() replays three thresholds, a profile change and a routing change, and counts the unevaluable", () => {
  const rows = result.tables.replay.objects() as Record<
    string,
    number | string
  >[];
  assert.deepEqual(rows.map((r) => r.scenario), [
    "recorded (0.1)",
    "threshold 0.05",
    "threshold 0.2",
    "threshold 0.5",
    "Chow, principal_risk",
    "HIGH+ to frontier_even",
    rows[6].scenario,
  ]);
  assert.match(String(rows[6].scenario), /^refit rev-[0-9a-f]{12}$/);
  // lower thresholds mean more reviews
  assert.ok(rows[1].reviewsAfter > rows[0].reviewsAfter);
  assert.ok(rows[3].reviewsAfter <= rows[2].reviewsAfter);
  // raising the threshold past never-reviewed escalations makes them unevaluable
  assert.ok((rows[3].unevaluable as number) > 0);
  assert.equal(rows[0].unevaluable, 0);
  // the frontier model costs money the desk model does not
  assert.ok(
    (rows[5].modelUsdAfter as number) > (rows[5].modelUsdBefore as number),
  );
});

Deno.test("counterfactualReplay() is byte-identical across runs", () => {
  const again = counterfactualReplay();
  const dump = (r: AnalysisResult) =>
    JSON.stringify({
      tables: Object.fromEntries(
        Object.entries(r.tables).map(([k, t]) => [k, t.objects()]),
      ),
      charts: r.charts,
      claims: r.claims,
    });
  assert.equal(dump(again), dump(result));
});

Deno.test("replayMonth() serves the desk model and records the frontier model's answers alongside", () => {
  const month = replayMonth({ days: 2, casesPerDay: 50 });
  const cols = ledgerColumns(ledgerText(month.records).entries);
  assert.deepEqual(cols.models, ["desk_model", "frontier_even"]);
  assert.equal(cols.answers, 200);
  assert.equal(replay(cols, { route: "frontier_even" }).changed.rerouted, 100);
});

Deno.test("counterfactualReplay() tables and chart specs match the snapshot", async (t) => {
  const round = (v: unknown): unknown => roundNumbers(v, 10);
  const withoutData = (spec: Record<string, unknown>) => {
    const values = (spec.data as { values: unknown[] }).values;
    return { ...spec, data: { values: `${values.length} rows` } };
  };
  await t.assertSnapshot(round({
    tables: Object.fromEntries(
      Object.entries(result.tables).map(([k, v]) => [
        k,
        k === "cost_curve"
          ? v.objects().filter((_, i) => i % 100 === 0)
          : v.objects(),
      ]),
    ),
    charts: Object.fromEntries(
      Object.entries(result.charts).map(([k, s]) => [k, withoutData(s)]),
    ),
    parameters: result.parameters,
  }));
});
