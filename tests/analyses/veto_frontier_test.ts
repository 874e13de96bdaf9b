import assert from "node:assert/strict";
import { roundNumbers } from "../_helpers.ts";
import { vetoFrontier } from "../../analyses/veto_frontier.ts";

function snapshotOf(result: ReturnType<typeof vetoFrontier>) {
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
  const { cost_curve: _curve, ...tables } = result.tables;
  return round({
    tables: Object.fromEntries(
      Object.entries(tables).map(([k, v]) => [k, v.objects()]),
    ),
    costCurveRows: result.tables.cost_curve.numRows(),
    charts,
    parameters: result.parameters,
  });
}

Deno.test("vetoFrontier() reproduces veto-frontier's figures as claims, and every claim holds", () => {
  const result = vetoFrontier();
  assert.deepEqual(result.claims.filter((c) => !c.holds).map((c) => c.id), []);
  const get = (id: string) => result.claims.find((c) => c.id === id)!;
  // the-veto-frontier: maximum margin 0.0318 and adjacent top-2 margin 0.00053 at k = 60, N = 2,000
  assert.ok(
    Math.abs((get("veto.rrf.max_margin").actual as number) - 0.0318) < 5e-5,
  );
  assert.ok(
    Math.abs((get("veto.rrf.adjacent_top2").actual as number) - 0.00053) < 5e-6,
  );
  // p* = p_j + C_e/C_r = 0.1 + 0.02/1
  assert.ok(
    Math.abs((get("veto.p_star.example").actual as number) - 0.12) < 1e-12,
  );
  assert.equal(get("veto.regret.every_trial").actual, 21);
  assert.equal(get("veto.certified.no_flips").actual, 0);
});

Deno.test("vetoFrontier() flags the never-pays regime and moves p* with C_r", () => {
  const result = vetoFrontier({ regretTrials: 2, regretQueries: 500 });
  const rows = result.tables.break_even.objects() as {
    scenario: string;
    pStar: number;
    regime: string;
  }[];
  const by = Object.fromEntries(rows.map((r) => [r.scenario, r]));
  assert.equal(by["local judge on a read-only skill"].regime, "never-pays");
  assert.ok(
    by["read-only skill (C_r = 0.05)"].pStar >
      by["destructive skill (C_r = 5)"].pStar,
  );
  assert.equal(by["free judge (C_e = 0)"].pStar, 0.1);
});

Deno.test("vetoFrontier() tables and chart specs match the snapshot", async (t) => {
  await t.assertSnapshot(snapshotOf(vetoFrontier()));
});
