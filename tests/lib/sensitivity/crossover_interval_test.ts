import assert from "node:assert/strict";
import { costFamily } from "../../../lib/sensitivity/cost_family.ts";
import { crossoverRatio } from "../../../lib/sensitivity/crossover.ts";
import {
  coefficientDraws,
  crossoverInterval,
} from "../../../lib/sensitivity/crossover_interval.ts";
import { lossCoefficients } from "../../../lib/sensitivity/loss_coefficients.ts";
import type { StatsRow } from "../../../lib/metrics/sufficient_stats.ts";

function model(
  modelId: string,
  low: number,
  high: number,
  n = 5000,
): StatsRow[] {
  const c = {
    modelId,
    action: "auto",
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
  } as const;
  return [
    {
      ...c,
      severity: "LOW",
      trueClass: "DUPLICATE",
      predClass: "MATCH",
      n: low,
    },
    {
      ...c,
      severity: "LOW",
      trueClass: "DUPLICATE",
      predClass: "DUPLICATE",
      n: n - low,
    },
    {
      ...c,
      severity: "HIGH",
      trueClass: "AMOUNT_MISMATCH",
      predClass: "MATCH",
      n: high,
    },
    {
      ...c,
      severity: "HIGH",
      trueClass: "AMOUNT_MISMATCH",
      predClass: "AMOUNT_MISMATCH",
      n: n - high,
    },
  ];
}

Deno.test("crossoverInterval() contains the point ratio on a clear crossing, where almost every draw crosses", () => {
  const stats = [...model("A", 100, 90), ...model("B", 3000, 20)];
  const family = costFamily();
  const [ca, cb] = lossCoefficients(stats);
  const point = crossoverRatio(ca, cb, family)!;
  const x = crossoverInterval(
    coefficientDraws(stats, "A", { seed: 4 }),
    coefficientDraws(stats, "B", { seed: 4 }),
    family,
  );
  assert.ok(
    x.lo! < point.ratio && point.ratio < x.hi!,
    `${x.lo} ${point.ratio} ${x.hi}`,
  );
  assert.ok(x.noCrossShare < 0.01, `${x.noCrossShare}`);
});

Deno.test("crossoverInterval() reports the share of draws that do not cross on a tie-ish pair", () => {
  // A trades one LOW error for one HIGH error against B: the slopes differ by one
  // HIGH miss in 5,000, so many posterior draws reverse them and cross at r <= 0
  const stats = [...model("A", 10, 4), ...model("B", 12, 3)];
  const family = costFamily();
  const [ca, cb] = lossCoefficients(stats);
  assert.notEqual(crossoverRatio(ca, cb, family), null);
  const x = crossoverInterval(
    coefficientDraws(stats, "A", { seed: 2 }),
    coefficientDraws(stats, "B", { seed: 2 }),
    family,
  );
  assert.ok(x.noCrossShare > 0.2 && x.noCrossShare < 0.9, `${x.noCrossShare}`);
  assert.ok(x.lo !== null && x.hi! > x.lo);
});

Deno.test("coefficientDraws() gives an unobserved costly outcome posterior mass", () => {
  const d = coefficientDraws(model("A", 10, 0), "A", { draws: 500, seed: 1 });
  assert.ok(d.K.HIGH.every((v) => v > 0));
  assert.throws(() => coefficientDraws(model("A", 1, 1), "nobody"), RangeError);
});
