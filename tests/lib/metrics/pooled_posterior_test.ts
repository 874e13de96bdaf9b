import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/shipped.ts";
import {
  comparisonShrinkage,
  MAX_COMPARISON_SHRINKAGE,
  pooledLossDraws,
  pooledLossPosterior,
  pooledProbabilityBest,
} from "../../../lib/metrics/pooled_posterior.ts";
import { probabilityBest } from "../../../lib/metrics/rank_probability.ts";
import type { StatsRow } from "../../../lib/metrics/sufficient_stats.ts";

const row = {
  action: "auto",
  pErrorSum: 0,
  pMissing: 0,
  parseFailures: 0,
} as const;

// two exception classes and clean items at two severities; model b also
// escalates, model a never does
const STATS: StatsRow[] = [
  {
    ...row,
    modelId: "a",
    severity: "LOW",
    trueClass: "X",
    predClass: "X",
    n: 90,
  },
  {
    ...row,
    modelId: "a",
    severity: "LOW",
    trueClass: "X",
    predClass: "MATCH",
    n: 6,
  },
  {
    ...row,
    modelId: "a",
    severity: "LOW",
    trueClass: "X",
    predClass: "Y",
    n: 4,
  },
  {
    ...row,
    modelId: "a",
    severity: "LOW",
    trueClass: "MATCH",
    predClass: "MATCH",
    n: 50,
  },
  {
    ...row,
    modelId: "a",
    severity: "CRITICAL",
    trueClass: "Y",
    predClass: "Y",
    n: 30,
  },
  {
    ...row,
    modelId: "b",
    severity: "LOW",
    trueClass: "X",
    predClass: "X",
    n: 80,
  },
  {
    ...row,
    modelId: "b",
    severity: "LOW",
    trueClass: "X",
    predClass: "MATCH",
    n: 12,
  },
  {
    ...row,
    modelId: "b",
    severity: "LOW",
    trueClass: "X",
    predClass: "X",
    n: 8,
    action: "escalate",
  },
  {
    ...row,
    modelId: "b",
    severity: "LOW",
    trueClass: "MATCH",
    predClass: "Y",
    n: 5,
  },
  {
    ...row,
    modelId: "b",
    severity: "LOW",
    trueClass: "MATCH",
    predClass: "MATCH",
    n: 45,
  },
  {
    ...row,
    modelId: "b",
    severity: "CRITICAL",
    trueClass: "Y",
    predClass: "Y",
    n: 29,
  },
  {
    ...row,
    modelId: "b",
    severity: "CRITICAL",
    trueClass: "Y",
    predClass: "MATCH",
    n: 1,
  },
];

Deno.test("pooledLossPosterior(): every model's group shares sum to 1 in every draw, cost groups follow the matrix", () => {
  const post = pooledLossPosterior(STATS, { draws: 50, seed: 3 });
  assert.deepEqual(post.models, ["a", "b"]);
  for (const m of post.models) {
    for (const cell of post.cells[m]) {
      const G = cell.rules.length;
      for (let d = 0; d < post.draws; d++) {
        let total = 0;
        for (let g = 0; g < G; g++) {
          const s = cell.shares[d * G + g];
          assert.ok(s >= 0 && s <= 1);
          total += s;
        }
        assert.ok(Math.abs(total - 1) < 1e-12, `${m} ${cell.trueClass}`);
      }
    }
  }
  // the exception cell of LOW: correct (zero), missed (K), and everything
  // that costs a review (a wrong type; b's escalations) as one group
  const x = post.cells.b.find((c) => c.trueClass === "X")!;
  assert.deepEqual(x.rules.map((r) => r.of), ["zero", "K", "review"]);
  // Jeffreys shapes: effective count + 1/2 per kind of the group (b's
  // review group holds auto/wrongType and three escalation kinds)
  assert.deepEqual(x.jeffreys, [80.5, 12.5, 8 + 0.5 * 4]);
  const tau = post.tau.posterior.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(tau - 1) < 1e-12);
});

Deno.test("pooledLossPosterior(): the same seed gives the same draws, another seed others", () => {
  const a = pooledLossPosterior(STATS, { draws: 30, seed: 9 });
  const b = pooledLossPosterior(STATS, { draws: 30, seed: 9 });
  const c = pooledLossPosterior(STATS, { draws: 30, seed: 10 });
  assert.deepEqual(a.cells.a[0].shares, b.cells.a[0].shares);
  assert.notDeepEqual(a.cells.a[0].shares, c.cells.a[0].shares);
  assert.throws(
    () => pooledLossPosterior(STATS, { draws: 0 }),
    /draws must be an integer >= 1/,
  );
});

Deno.test("pooledLossPosterior(): trials of a task count as one task, as in lossPosterior", () => {
  // five trials per task that always agree: the same evidence as one trial
  const five = STATS.map((r) => ({ ...r, n: 5 * r.n, taskShare: r.n }));
  const a = pooledLossPosterior(STATS, { draws: 40, seed: 4 });
  const b = pooledLossPosterior(five, { draws: 40, seed: 4 });
  assert.deepEqual(b.cells.a[0].shares, a.cells.a[0].shares);
  assert.equal(b.cells.a[0].n, 5 * a.cells.a[0].n);
});

Deno.test("pooledProbabilityBest(): well-observed differences are stated; the same counts, or costly cells with one error, leave the comparison to the pooling", () => {
  const same = [
    ...STATS.filter((r) => r.modelId === "a"),
    ...STATS.filter((r) => r.modelId === "a").map((r) => ({
      ...r,
      modelId: "c",
    })),
  ];
  // the counts cannot tell them apart: the pooling carries the comparison,
  // and the draws tie
  const samePost = pooledLossPosterior(same, { draws: 2000, seed: 5 });
  const tie = probabilityBest(pooledLossDraws(samePost, getProfile("flat")));
  assert.ok(Math.abs(tie.a - 0.5) < 0.05);
  assert.ok(
    comparisonShrinkage(samePost, getProfile("flat")) >
      MAX_COMPARISON_SHRINKAGE,
  );

  const flat = getProfile("flat");
  const big: StatsRow[] = ["a", "b", "c"].flatMap((m, i) => [
    {
      ...row,
      modelId: m,
      severity: "LOW",
      trueClass: "X",
      predClass: "X",
      n: 2000 - 40 * i,
    },
    {
      ...row,
      modelId: m,
      severity: "LOW",
      trueClass: "X",
      predClass: "MATCH",
      n: 40 + 40 * i,
    },
  ]);
  const out = pooledProbabilityBest(big, [flat], { draws: 1000, seed: 6 });
  assert.ok(out.flat.shrinkage < 0.2);
  assert.ok(out.flat.pBest!.a > 0.99);

  const pr = getProfile("principal_risk");
  const sparse: StatsRow[] = ["a", "b", "c"].flatMap((m, i) => [
    {
      ...row,
      modelId: m,
      severity: "CRITICAL",
      trueClass: "X",
      predClass: "X",
      n: 30 - i,
    },
    ...(i > 0
      ? [{
        ...row,
        modelId: m,
        severity: "CRITICAL" as const,
        trueClass: "X",
        predClass: "MATCH",
        n: i,
      }]
      : []),
  ]);
  const post = pooledLossPosterior(sparse, { draws: 1000, seed: 7 });
  const shrinkage = comparisonShrinkage(post, pr);
  assert.ok(shrinkage > MAX_COMPARISON_SHRINKAGE);
  const res = pooledProbabilityBest(sparse, [pr], { draws: 1000, seed: 7 });
  assert.equal(res.principal_risk.pBest, null);
  assert.equal(res.principal_risk.shrinkage, shrinkage);
  // every statement of the pooled draws favours the model with no miss,
  // but less than the counts alone would
  const p = probabilityBest(pooledLossDraws(post, pr));
  assert.ok(p.a > p.b && p.b > p.c);
});

Deno.test("comparisonShrinkage(): 0 with one model; with every answer right, the false alarm each clean cell could still make is weighed", () => {
  const one = pooledLossPosterior(STATS.filter((r) => r.modelId === "a"), {
    draws: 20,
  });
  assert.equal(comparisonShrinkage(one, getProfile("flat")), 0);
  // clean items answered clean by every model: no error was observed, yet a
  // false alarm is a possible kind of each cell (zero observed is not zero
  // risk), so the comparison has a cost to weigh and the prior a share of it
  const post = pooledLossPosterior(
    STATS.filter((r) =>
      r.severity === "LOW" && r.trueClass === "MATCH" && r.predClass === "MATCH"
    ),
    { draws: 20 },
  );
  const shrinkage = comparisonShrinkage(post, getProfile("flat"));
  assert.ok(shrinkage > 0 && shrinkage <= 1, String(shrinkage));
});
