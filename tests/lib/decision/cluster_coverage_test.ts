// Coverage restored by the cluster unit: seeded suites of 600 items drawn
// from 60 source documents of 10 items each, items of mixed severities and
// gold classes (the cells of the reference study, shuffled into the
// sources once). A source is "bad" with probability 0.2; the items of a bad
// source err at five times their severity's rate (0.10/0.05/0.02/0.01), the
// items of a good one never, so that each item errs at its severity's rate
// and the items of a source fail together. The truth is the expected loss
// (accuracy) of the suite's fixed cells at those rates. The decisions go
// through the reader's statistics with the task as the unit, then with the
// cluster (the source) as the unit.
import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/mod.ts";
import { seededPrng } from "../../../lib/math/sampling.ts";
import { accuracy } from "../../../lib/metrics/accuracy.ts";
import { lossInterval } from "../../../lib/metrics/loss_interval.ts";
import { statsOfDecisionList } from "../../../lib/read/_stats_builder.ts";
import {
  HEAVY_RATES,
  sourceSuite,
  suiteCells,
  trueLoss,
} from "../metrics/_loss_suites.ts";

const ITEMS = 600;
const PER_SOURCE = 10;
const BAD = 0.2;
const SUITES = 300;

const cells = suiteCells(ITEMS);
const suite = sourceSuite(cells, PER_SOURCE, BAD);

Deno.test("when a source's items fail together, the task-unit loss and accuracy intervals under-cover and the cluster-unit ones cover >= 0.93 (300 seeded suites)", () => {
  const profile = getProfile("flat");
  const truth = trueLoss(cells, HEAVY_RATES, profile);
  const errors = cells.reduce((s, c) => s + c.n * HEAVY_RATES[c.severity], 0);
  const accuracyTruth = 1 - errors / ITEMS;
  const covered = {
    taskId: { loss: 0, accuracy: 0 },
    cluster: { loss: 0, accuracy: 0 },
  };
  const rng = seededPrng(20261205);
  for (let r = 0; r < SUITES; r++) {
    const decisions = suite(rng, ["m"]);
    for (const unit of ["taskId", "cluster"] as const) {
      const { stats } = statsOfDecisionList(decisions, "suite", unit);
      const loss = lossInterval(stats, profile, { method: "cp-gamma" });
      const acc = accuracy(stats).interval!;
      if (loss.lo! <= truth && truth <= loss.hi!) covered[unit].loss++;
      if (acc.lo <= accuracyTruth && accuracyTruth <= acc.hi) {
        covered[unit].accuracy++;
      }
    }
  }
  const share = (n: number) => n / SUITES;
  // measured (seed 20261205): task 0.760 loss, 0.747 accuracy; cluster 1.000, 1.000
  assert.ok(
    share(covered.taskId.loss) < 0.85,
    `task-unit loss coverage ${share(covered.taskId.loss)}`,
  );
  assert.ok(
    share(covered.taskId.accuracy) < 0.85,
    `task-unit accuracy coverage ${share(covered.taskId.accuracy)}`,
  );
  assert.ok(
    share(covered.cluster.loss) >= 0.93,
    `cluster-unit loss coverage ${share(covered.cluster.loss)}`,
  );
  assert.ok(
    share(covered.cluster.accuracy) >= 0.93,
    `cluster-unit accuracy coverage ${share(covered.cluster.accuracy)}`,
  );
});

Deno.test("with one item per source, the cluster unit gives the task unit's statistics exactly", () => {
  const rng = seededPrng(5);
  const decisions = suite(rng, ["m"]).map((d) => ({
    ...d,
    cluster: d.taskId,
  }));
  assert.deepEqual(
    statsOfDecisionList(decisions, "suite", "cluster").stats,
    statsOfDecisionList(decisions, "suite", "taskId").stats,
  );
});
