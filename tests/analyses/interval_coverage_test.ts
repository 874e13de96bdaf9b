import assert from "node:assert/strict";
import {
  COVERAGE_MODEL_A,
  coverageCellCounts,
  coverageTrueLoss,
  intervalCoverage,
  simulateCoverageSuite,
} from "../../analyses/interval_coverage.ts";
import { getProfile } from "../../lib/costs/load.ts";
import { realisedLoss } from "../../lib/metrics/loss.ts";
import { seededPrng } from "../../lib/math/sampling.ts";

const small = {
  sizes: [60, 400],
  replicates: 40,
  rowReplicates: 4,
  draws: 200,
};
const result = intervalCoverage(small);
const rows = result.tables.coverage.objects() as {
  statistic: string;
  n: number;
  profile: string | null;
  method: string;
  role: string;
  coverage: number;
  truthAbove: number;
}[];

Deno.test("intervalCoverage() holds its loss and loss-difference claims on a small seeded run", () => {
  const byId = new Map(result.claims.map((c) => [c.id, c]));
  for (
    const id of [
      "interval_coverage.loss.pooled",
      "interval_coverage.loss_difference.pooled",
      "interval_coverage.bootstrap.undercovers",
      "interval_coverage.clt.undercovers",
      "interval_coverage.rate.worst_case",
    ]
  ) {
    assert.ok(byId.get(id)?.holds, `${id}: ${JSON.stringify(byId.get(id))}`);
  }
});

Deno.test("intervalCoverage() holds the claims of the fixed intervals (replay, R_w, accuracy difference) and their former bootstraps' negative results on a small seeded run", () => {
  const byId = new Map(result.claims.map((c) => [c.id, c]));
  for (
    const id of [
      "interval_coverage.replay.pooled",
      "interval_coverage.replay.bootstrap_undercovers",
      "interval_coverage.rw.every",
      "interval_coverage.rw.bootstrap_undercovers",
      "interval_coverage.accuracy_difference.every",
      "interval_coverage.ece.every",
    ]
  ) {
    assert.ok(byId.get(id)?.holds, `${id}: ${JSON.stringify(byId.get(id))}`);
  }
});

Deno.test("intervalCoverage() shows the bootstrap missing high where zero CRITICAL errors are the rule", () => {
  const boot = rows.find((r) =>
    r.statistic === "loss" && r.n === 60 && r.profile === "principal_risk" &&
    r.method.startsWith("percentile bootstrap")
  )!;
  assert.ok(boot.coverage < 0.5, `${boot.coverage}`);
  // every miss is on the high side: the truth is above the interval
  assert.ok(Math.abs(boot.truthAbove - (1 - boot.coverage)) < 1e-9);
  const lossbook = rows.find((r) =>
    r.statistic === "loss" && r.n === 60 && r.profile === "principal_risk" &&
    r.role === "lossbook"
  )!;
  assert.ok(lossbook.coverage >= 0.9, `${lossbook.coverage}`);
});

Deno.test("intervalCoverage() finds Wilson's exact worst case below 0.90 and the printed rate interval above it", () => {
  const worst = result.tables.rate_worst_case.objects() as {
    wilsonWorstCoverage: number;
    lossbookWorstCoverage: number;
  }[];
  assert.ok(worst.every((w) => w.wilsonWorstCoverage < 0.9));
  assert.ok(worst.every((w) => w.lossbookWorstCoverage >= 0.9));
});

Deno.test("intervalCoverage() has a row for every printed interval, size and profile", () => {
  const stats = new Set(rows.map((r) => r.statistic));
  for (
    const s of [
      "accuracy",
      "recall CRITICAL",
      "R_w",
      "loss",
      "loss difference",
      "replay difference",
      "ECE",
    ]
  ) assert.ok(stats.has(s), s);
  const lossRows = rows.filter((r) => r.statistic === "loss");
  // 2 sizes x 4 profiles x (default, the other per-cell method, bootstrap, CLT)
  assert.equal(lossRows.length, 2 * 4 * 4);
  assert.equal(result.tables.size.numRows(), 2 * 4 * 3);
});

Deno.test("intervalCoverage() is byte-identical for the same seed", () => {
  const again = intervalCoverage({ ...small, sizes: [60] });
  const once = intervalCoverage({ ...small, sizes: [60] });
  assert.equal(again.tables.coverage.toCSV(), once.tables.coverage.toCSV());
});

Deno.test("coverageTrueLoss() is the mean realised loss of many simulated suites", () => {
  const counts = coverageCellCounts(400);
  const p = getProfile("reconciliation");
  const rng = seededPrng(5);
  let sum = 0;
  const reps = 2000;
  for (let i = 0; i < reps; i++) {
    sum += realisedLoss(
      simulateCoverageSuite(rng, COVERAGE_MODEL_A, counts),
      p,
    )!;
  }
  const truth = coverageTrueLoss(COVERAGE_MODEL_A, counts, p);
  // the standard error of the mean of 2,000 suites is about 0.1
  assert.ok(Math.abs(sum / reps - truth) < 0.5, `${sum / reps} vs ${truth}`);
});
