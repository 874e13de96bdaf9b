// The paired comparisons with the cluster as the unit: with one task per
// cluster they are the task's, to the last bit; a cluster's tasks add up
// and flip together; the evidence counts clusters while the estimate stays
// the task's; and on exchangeable models whose errors come in clusters the
// cluster test holds its level where the task test does not.
import assert from "node:assert/strict";
import fc from "fast-check";
import { getProfile } from "../../../lib/costs/mod.ts";
import { pairedTasks } from "../../../lib/decision/paired_tasks.ts";
import { seededPrng } from "../../../lib/math/sampling.ts";
import {
  pairedLossTest,
  type PairedTaskGroup,
  pairedTaskStats,
  taskLossDifferences,
} from "../../../lib/metrics/paired_loss_test.ts";
import {
  newcombePairedInterval,
  pairedAccuracyTable,
} from "../../../lib/metrics/paired_proportion.ts";
import {
  clusteredPairedTable,
  pairedUnitStats,
  unitDifferences,
} from "../../../lib/metrics/paired_units.ts";
import { decisionTable } from "../../../lib/read/load_decisions.ts";
import { decision } from "../../_helpers.ts";
import {
  HEAVY_RATES,
  simulatePair,
  sourceSuite,
  suiteCells,
} from "./_loss_suites.ts";

const SEED = 20261206;

// units of groups: each task of each group in a unit of its own
function singletons(groups: readonly PairedTaskGroup[]): number[][] {
  return groups.flatMap((g, i) => Array.from({ length: g.tasks }, () => [i]));
}

Deno.test("with one task per unit, the unit test, differences and statistics are the task's to the last bit", () => {
  const rng = seededPrng(SEED);
  const { groups } = simulatePair(rng, suiteCells(200), HEAVY_RATES);
  const units = singletons(groups);
  for (const id of ["flat", "principal_risk"]) {
    const p = getProfile(id);
    const tasks = taskLossDifferences(groups, p);
    const perUnit = unitDifferences(tasks.differences, units);
    assert.deepEqual(perUnit, tasks);
    assert.deepEqual(
      pairedLossTest(groups, p, { seed: 4, resamples: 300, units }),
      pairedLossTest(groups, p, { seed: 4, resamples: 300 }),
    );
  }
  const [a] = pairedUnitStats(groups, units);
  const [ta] = pairedTaskStats(groups);
  assert.deepEqual(
    a.map((r) => [r.n, r.taskShare]),
    ta.map((r) => [r.taskShare, r.taskShare]),
  );
  const { table } = pairedAccuracyTable(groups);
  assert.deepEqual(clusteredPairedTable(table, units), {
    ...table,
    effectiveN: units.length,
  });
});

Deno.test("unitDifferences() keeps the sum of the differences, and the unit statistics count one unit per unit whatever its tasks (property, seed 20261206)", () => {
  const group = (i: number): PairedTaskGroup => ({
    severity: "HIGH",
    trueClass: "X",
    tasks: 1 + (i % 3),
    a: [{
      predClass: i % 2 === 0 ? "X" : "MATCH",
      action: "auto",
      n: 1 + (i % 2),
    }],
    b: [{ predClass: "X", action: "auto", n: 1 }],
  });
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: -5, max: 5, noNaN: true }), {
        minLength: 1,
        maxLength: 6,
      }),
      fc.array(fc.array(fc.nat(5), { minLength: 1, maxLength: 4 }), {
        minLength: 1,
        maxLength: 8,
      }),
      (d, raw) => {
        const units = raw.map((u) => u.map((g) => g % d.length));
        const { differences, weights } = unitDifferences(d, units);
        let want = 0;
        for (const u of units) for (const g of u) want += d[g];
        let got = 0;
        differences.forEach((x, i) => got += x * weights[i]);
        assert.ok(Math.abs(got - want) < 1e-9);
        assert.equal(weights.reduce((s, w) => s + w, 0), units.length);
        // every unit's decisions add up to one unit of evidence, and the
        // rows weigh each group's tasks, on each side
        const groups = d.map((_, i) => group(i));
        for (const side of pairedUnitStats(groups, units)) {
          const evidence = side.reduce((s, r) => s + r.taskShare!, 0);
          assert.ok(Math.abs(evidence - units.length) < 1e-9);
          const weight = side.reduce((s, r) => s + r.n, 0);
          const tasks = groups.reduce((s, g) => s + g.tasks, 0);
          assert.ok(Math.abs(weight - tasks) < 1e-9);
        }
      },
    ),
    { seed: SEED, numRuns: 200 },
  );
});

Deno.test("pairedUnitStats() weighs tasks (a task's trials averaged) and counts each unit's decisions as one unit", () => {
  // a cluster of two tasks (one of each group, the first with two trials on
  // side a), and the other task of the second group alone
  const g1: PairedTaskGroup = {
    severity: "LOW",
    trueClass: "X",
    tasks: 1,
    a: [{ predClass: "X", action: "auto", n: 2 }],
    b: [{ predClass: "X", action: "auto", n: 1 }],
  };
  const g2: PairedTaskGroup = {
    ...g1,
    tasks: 2,
    a: [{ predClass: "MATCH", action: "auto", n: 1 }],
  };
  const [a, b] = pairedUnitStats([g1, g2], [[0, 1], [1]]);
  // side a: the cluster holds 3 decisions (2 of task 1, 1 of task 2), the
  // lone task 1 decision
  assert.deepEqual(a.map((r) => [r.n, r.taskShare]), [[1, 2 / 3], [
    2,
    1 / 3 + 1,
  ]]);
  assert.deepEqual(b.map((r) => [r.n, r.taskShare]), [[1, 1 / 2], [
    2,
    1 / 2 + 1,
  ]]);
});

Deno.test("clusteredPairedTable() keeps the shares and reads the table at Kish's effective number of clusters", () => {
  const table = { both: 40, onlyA: 10, onlyB: 4, neither: 6 };
  // 60 tasks in 6 clusters of 10: n_eff = 60² / (6 · 100) = 6
  const units = Array.from({ length: 6 }, () => Array(10).fill(0));
  const t = clusteredPairedTable(table, units);
  assert.equal(t.effectiveN, 6);
  assert.ok(Math.abs(t.both + t.onlyA + t.onlyB + t.neither - 6) < 1e-12);
  const wide = newcombePairedInterval(t);
  const narrow = newcombePairedInterval(table);
  assert.ok(Math.abs(wide.estimate! - narrow.estimate!) < 1e-12);
  assert.ok(wide.lo! < narrow.lo! && narrow.hi! < wide.hi!);
});

Deno.test("pairedTasks() with the cluster as the unit lists each cluster's tasks by group, and refuses a task in two clusters", () => {
  const d = (modelId: string, taskId: string, cluster: string, pred = "X") =>
    decision({ modelId, taskId, cluster, trueClass: "X", predClass: pred });
  const table = decisionTable([
    d("a", "t1", "c1"),
    d("a", "t2", "c1", "MATCH"),
    d("a", "t3", "c2"),
    d("b", "t1", "c1"),
    d("b", "t2", "c1"),
    d("b", "t3", "c2"),
  ]);
  const p = pairedTasks(table, "a", "b", { unit: "cluster" });
  const flat = (u: number[]) => u.map((g) => p.groups[g].a[0].predClass);
  assert.deepEqual(p.units!.map(flat), [["X", "MATCH"], ["X"]]);
  assert.equal(pairedTasks(table, "a", "b").units, undefined);
  assert.throws(
    () =>
      pairedTasks(
        decisionTable([d("a", "t1", "c1"), d("b", "t1", "c2")]),
        "a",
        "b",
        { unit: "cluster" },
      ),
    /Cannot pair models on task "t1": its decisions disagree, HIGH\/X in cluster "c1" and HIGH\/X in cluster "c2" \(b\)/,
  );
});

Deno.test("on exchangeable models whose errors come by source, compare's sign-flip test by cluster holds its level where the test by task does not (300 seeded suites)", () => {
  // 600 items of the reference study's cells in 60 sources of 10; each
  // model's source is bad with probability 0.2, its items then err at five
  // times their rate; the two models draw independently (exchangeable)
  const suite = sourceSuite(suiteCells(600), 10, 0.2);
  const p = getProfile("flat");
  const rng = seededPrng(3);
  let byTask = 0, byCluster = 0;
  const suites = 300;
  for (let r = 0; r < suites; r++) {
    const ds = suite(rng, ["A", "B"]);
    const paired = pairedTasks(decisionTable(ds), "A", "B", {
      unit: "cluster",
    });
    const o = { seed: r, resamples: 200 };
    if (pairedLossTest(paired.groups, p, o).pValue <= 0.05) byTask++;
    if (
      pairedLossTest(paired.groups, p, { ...o, units: paired.units }).pValue <=
        0.05
    ) byCluster++;
  }
  // measured (seed 3): by task 0.270 of suites rejected at 5%, by cluster 0.033
  assert.ok(byTask / suites > 0.15, `by task ${byTask / suites}`);
  assert.ok(byCluster / suites <= 0.07, `by cluster ${byCluster / suites}`);
});
