import assert from "node:assert/strict";
import { roundNumbers } from "../_helpers.ts";
import {
  HONEST_COSTS_FIXTURE,
  honestCosts,
  type HonestCostsAttempt,
} from "../../analyses/honest_costs.ts";
import { ANALYSES } from "../../analyses/mod.ts";
import { readEnvelope } from "../../lib/evidence/mod.ts";

Deno.test("honestCosts() shows every evidence rule on the fixture, each as a holding claim", () => {
  const result = honestCosts();
  const failing = result.claims.filter((c) => !c.holds).map((c) => c.id);
  assert.deepEqual(failing, []);
  const ids = new Set(result.claims.map((c) => c.id));
  assert.equal(ids.size, result.claims.length, "claim ids are unique");
  // yylo-benchmark: one claim per rule at least
  for (
    const id of [
      "honest_costs.cascade.cancellation_first",
      "honest_costs.cascade.timeout_before_harness",
      "honest_costs.cascade.missing_envelope",
      "honest_costs.cascade.identity_mismatch",
      "honest_costs.cascade.runner_error",
      "honest_costs.cascade.candidate_failed",
      "honest_costs.cascade.failed_keeps_class",
      "honest_costs.cascade.clean_exit_unresolved",
      "honest_costs.cascade.grade_pass",
      "honest_costs.cascade.grade_fail",
      "honest_costs.cost.no_envelope",
      "honest_costs.cost.wrong_identity",
      "honest_costs.cost.degraded",
      "honest_costs.cost.local_step",
      "honest_costs.control.cost_missing.completeness",
      "honest_costs.control.cost_missing.usd",
      "honest_costs.control.cost_zero.completeness",
      "honest_costs.control.cost_zero.usd",
      "honest_costs.control.cost_positive.completeness",
      "honest_costs.control.cost_positive.usd_above_zero",
      "honest_costs.alpha.complete_usd",
      "honest_costs.alpha.per_success.label",
      "honest_costs.bravo.per_success.usd",
      "honest_costs.charlie.partial_floor_usd",
      "honest_costs.charlie.unavailable_count",
      "honest_costs.charlie.per_success.label",
      "honest_costs.delta.per_success.label",
      "honest_costs.echo.success_rate",
      "honest_costs.echo.interval",
      "honest_costs.cell.harness_invalid",
      "honest_costs.unknowns_change_no_dollar",
    ]
  ) assert.ok(ids.has(id), id);
});

Deno.test("honestCosts() labels cost per success complete, incomplete and not_computable per system", () => {
  const books = honestCosts().tables.cost_books.objects() as {
    group: string;
    costPerSuccessLabel: string;
    costPerSuccessUsd: number | null;
    successRate: number | null;
    successRateLo: number | null;
    successRateHi: number | null;
  }[];
  const by = Object.fromEntries(books.map((b) => [b.group, b]));
  assert.deepEqual(
    books.map((b) => [b.group, b.costPerSuccessLabel]),
    [
      ["alpha", "complete"],
      ["bravo", "complete"],
      ["charlie", "incomplete"],
      ["delta", "not_computable"],
      ["echo", "not_computable"],
      ["controls", "incomplete"],
    ],
  );
  // by hand: alpha (0.012 + 0.020 + 0.008) / 2 successes
  assert.ok(Math.abs(by.alpha.costPerSuccessUsd! - 0.02) < 1e-12);
  assert.ok(Object.is(by.bravo.costPerSuccessUsd, 0));
  for (const g of ["charlie", "delta", "echo", "controls"]) {
    assert.equal(by[g].costPerSuccessUsd, null, g);
  }
  assert.deepEqual(
    [by.echo.successRate, by.echo.successRateLo, by.echo.successRateHi],
    [null, null, null],
  );
  assert.equal(by.delta.successRate, 0);
});

Deno.test("honestCosts() keeps checking the shipped fixture when shown a researcher's own attempts", () => {
  const requested = { provider: "mine", model: "m", version: "1" };
  const mine: HonestCostsAttempt = {
    system: "mine",
    task: "t1",
    note: "my attempt",
    signals: {
      requested,
      envelope: readEnvelope(
        JSON.stringify({
          identity: requested,
          cost: { completeness: "complete", usd: 0.5 },
        }),
      ),
      exit: "clean",
      grade: "pass",
    },
  };
  const result = honestCosts({
    attempts: [...HONEST_COSTS_FIXTURE, mine],
    rateExcludes: [],
  });
  assert.ok(result.claims.every((c) => c.holds));
  const books = result.tables.cost_books.objects() as {
    group: string;
    costPerSuccessUsd: number | null;
    rateDenominator: number;
  }[];
  assert.equal(books.at(-1)!.group, "mine");
  assert.equal(books.at(-1)!.costPerSuccessUsd, 0.5);
  // with nothing excluded, echo's two harness failures count: 0 of 2
  assert.equal(books.find((b) => b.group === "echo")!.rateDenominator, 2);
  assert.equal(result.parameters.fixture, "custom");
});

Deno.test("honestCosts() would hand a fake zero a cost per success it has not earned", () => {
  // Why cost:missing must stay unavailable: read as a complete 0, the
  // controls group would print a per-success figure for money never observed.
  const label = (attempts: readonly HonestCostsAttempt[]) =>
    (honestCosts({ attempts }).tables.cost_books.objects() as {
      group: string;
      costPerSuccessLabel: string;
    }[]).find((b) => b.group === "controls")!.costPerSuccessLabel;
  const faked = HONEST_COSTS_FIXTURE.map((a): HonestCostsAttempt =>
    a.task === "cost:missing" && a.signals.kind !== "local"
      ? {
        ...a,
        signals: {
          ...a.signals,
          envelope: {
            identity: a.signals.requested,
            cost: { completeness: "complete", usd: 0 },
          },
        },
      }
      : a
  );
  assert.equal(label(HONEST_COSTS_FIXTURE), "incomplete");
  assert.equal(label(faked), "complete");
});

Deno.test("honestCosts() is registered for reproduce", async () => {
  const entry = ANALYSES.find((a) => a.id === "honest_costs");
  assert.ok(entry);
  const result = await entry.run();
  assert.equal(result.id, "honest_costs");
  assert.equal(result.title, entry.title);
});

Deno.test("honestCosts() tables and chart specs match the snapshot", async (t) => {
  const result = honestCosts();
  const round = (v: unknown): unknown => roundNumbers(v, 10);
  await t.assertSnapshot(round({
    tables: Object.fromEntries(
      Object.entries(result.tables).map(([k, v]) => [k, v.objects()]),
    ),
    charts: result.charts,
    parameters: result.parameters,
  }));
});
