import assert from "node:assert/strict";
import { roundNumbers } from "../_helpers.ts";
import { routing, ROUTING_USD_PROFILE } from "../../analyses/routing.ts";

function snapshotOf(result: ReturnType<typeof routing>) {
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

Deno.test("routing() reproduces Switchyard's figures and the $0.97 break-even K", () => {
  const result = routing();
  assert.deepEqual(result.claims.filter((c) => !c.holds).map((c) => c.id), []);
  const get = (id: string) =>
    result.claims.find((c) => c.id === id)!.actual as number;
  // the-third-number: $11.45 frontier-only, $3.00 routed (-74%), accuracy 86.0 -> 80.0
  assert.equal(get("routing.switchyard.frontier_spend"), 11.45);
  assert.ok(Math.abs(get("routing.switchyard.savings") - 0.74) < 0.005);
  // (11.45 − 3.00) / (0.06 × 145) = 0.9713
  assert.ok(
    Math.abs(get("routing.switchyard.break_even_k") - 8.45 / 8.7) < 1e-9,
  );
  assert.ok(Math.abs(get("routing.kappa.local_pj") - 0.3164) < 1e-12);
});

Deno.test("routing() prices every decision in the profile's currency, and ROUTING_USD_PROFILE is sourced from the registry", () => {
  assert.equal(ROUTING_USD_PROFILE.currency, "USD");
  assert.deepEqual(ROUTING_USD_PROFILE.K, {
    LOW: 2.56,
    MEDIUM: 12.43,
    HIGH: 40,
    CRITICAL: 500,
  });
  assert.equal(ROUTING_USD_PROFILE.reviewCost, 6.5);
  const rows = routing({ decisions: 4000 }).tables.routing.objects() as {
    policy: string;
    total: number;
  }[];
  const total = (p: string) => rows.find((r) => r.policy.startsWith(p))!.total;
  assert.ok(total("loss-optimal on recalibrated") < total("frontier only"));
  assert.ok(total("loss-optimal on recalibrated") < total("small only"));
});

Deno.test("routing() tables and chart specs match the snapshot", async (t) => {
  await t.assertSnapshot(snapshotOf(routing()));
});
