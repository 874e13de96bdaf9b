// Coverage of score's accuracy and recall intervals when a task's trials
// share its difficulty (scripts/accuracy_interval_coverage.ts prints the
// study with 2,000 runs per design; these are its first 400 runs).
import assert from "node:assert/strict";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { rate } from "../../../lib/math/rate.ts";
import { seededPrng } from "../../../lib/math/sampling.ts";
import { accuracy, recallBySeverity } from "../../../lib/metrics/accuracy.ts";
import { caughtRecallBySeverity } from "../../../lib/metrics/reconforge.ts";
import {
  binomialCoverage,
  designTruth,
  EPOCH_DESIGN,
  type EpochDesign,
  simulateEpochStats,
  spreadOf,
} from "./_accuracy_suites.ts";

const RUNS = 400;
const SEED = 20261206;

function study(d: EpochDesign) {
  const truth = designTruth(d);
  const rng = seededPrng(SEED);
  const estimates: number[] = [];
  let covered = 0;
  let width = 0;
  const recallCovered = Object.fromEntries(SEVERITIES.map((s) => [s, 0]));
  for (let r = 0; r < RUNS; r++) {
    const stats = simulateEpochStats(rng, d);
    const acc = accuracy(stats);
    estimates.push(acc.value!);
    width += acc.interval!.hi - acc.interval!.lo;
    if (
      acc.interval!.lo <= truth.accuracy && truth.accuracy <= acc.interval!.hi
    ) covered++;
    const recall = recallBySeverity(stats);
    for (const s of SEVERITIES) {
      const ci = recall[s].interval!;
      if (ci.lo <= truth.recall[s] && truth.recall[s] <= ci.hi) {
        recallCovered[s]++;
      }
    }
  }
  return {
    coverage: covered / RUNS,
    width: width / RUNS,
    spread: spreadOf(estimates).width,
    recall: Object.fromEntries(
      SEVERITIES.map((s) => [s, recallCovered[s] / RUNS]),
    ),
  };
}

Deno.test("accuracy() covers at least 0.93 on 50 tasks x 5 trials whose trials share the task's difficulty, no wider than twice the spread of the estimate", () => {
  const got = study(EPOCH_DESIGN);
  // counting the 250 trials as independent covered about 0.87
  assert.ok(got.coverage >= 0.93, `coverage ${got.coverage}`);
  assert.ok(
    got.width <= 2 * got.spread,
    `width ${got.width}, spread ${got.spread}`,
  );
  for (const s of SEVERITIES) {
    assert.ok(got.recall[s] >= 0.93, `recall ${s}: ${got.recall[s]}`);
  }
});

Deno.test("accuracy() covers at least 0.93 when tasks have 1 to 9 trials", () => {
  const got = study({
    ...EPOCH_DESIGN,
    trials: (rng) => 1 + Math.floor(rng.next() * 9),
  });
  assert.ok(got.coverage >= 0.93, `coverage ${got.coverage}`);
  for (const s of SEVERITIES) {
    assert.ok(got.recall[s] >= 0.93, `recall ${s}: ${got.recall[s]}`);
  }
});

Deno.test("with one trial per task accuracy() is the plain rate and covers at least 0.93 (exact, n = 30, 200, 2000; accuracy 0.6, 0.9, 0.99)", () => {
  for (const n of [30, 200, 2000]) {
    for (const p of [0.6, 0.9, 0.99]) {
      const c = binomialCoverage(n, p);
      assert.ok(c >= 0.93, `n = ${n}, p = ${p}: ${c}`);
    }
  }
  const stats = simulateEpochStats(seededPrng(3), {
    ...EPOCH_DESIGN,
    trials: 1,
  });
  const acc = accuracy(stats);
  assert.deepEqual(acc, rate(acc.numerator, acc.denominator));
});

Deno.test("accuracy(), recallBySeverity() and caughtRecallBySeverity() name the clustered interval and count tasks", () => {
  const cell = {
    modelId: "m",
    severity: "HIGH",
    trueClass: "AMOUNT_MISMATCH",
    action: "auto",
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
  } as const;
  // 40 tasks of 5 trials: 36 always right, 4 always wrong
  const stats = [
    {
      ...cell,
      predClass: "AMOUNT_MISMATCH",
      n: 180,
      taskShare: 36,
      taskTrialsSum: 900,
    },
    { ...cell, predClass: "MATCH", n: 20, taskShare: 4, taskTrialsSum: 100 },
  ];
  const acc = accuracy(stats);
  assert.equal(acc.value, 0.9);
  assert.equal(acc.denominator, 200);
  assert.equal(acc.interval!.method, "wilson-clustered");
  assert.equal(acc.interval!.effectiveN, 40);
  // the interval of 36 of 40 tasks
  const tasks = rate(36, 40).interval!;
  assert.ok(Math.abs(acc.interval!.lo - tasks.lo) < 1e-12);
  assert.ok(Math.abs(acc.interval!.hi - tasks.hi) < 1e-12);
  assert.deepEqual(recallBySeverity(stats).HIGH.interval, acc.interval);
  assert.deepEqual(caughtRecallBySeverity(stats).HIGH.interval, acc.interval);
  // statistics without taskTrialsSum: n² / taskShare per cell, the same here
  const old = stats.map(({ taskTrialsSum: _, ...r }) => r);
  assert.deepEqual(accuracy(old), acc);
  // next to the boundary, Clopper–Pearson on the effective counts
  const few = accuracy([
    { ...stats[0], n: 195, taskShare: 39, taskTrialsSum: 975 },
    { ...stats[1], n: 5, taskShare: 1, taskTrialsSum: 25 },
  ]);
  assert.equal(few.interval!.method, "clopper-pearson-clustered");
  const exact = rate(39, 40).interval!;
  assert.ok(Math.abs(few.interval!.lo - exact.lo) < 1e-9);
  assert.ok(Math.abs(few.interval!.hi - exact.hi) < 1e-9);
});
