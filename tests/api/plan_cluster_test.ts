// plan with a pilot whose clusters hold several tasks: its `power` is the
// power of compare's cluster test (a cluster's tasks flipped together) when
// the truth is the pilot's own clusters. Checked here against that test
// itself: fresh suites are drawn from the pilot's clusters, whole and with
// replacement, and compare's sign-flip test (pairedLossTest with the
// clusters as units, as compare runs it) is run on each.
import assert from "node:assert/strict";
import { MIN_CLUSTERS, plan } from "../../api/plan.ts";
import { getProfile } from "../../lib/costs/load.ts";
import type { Severity } from "../../lib/costs/severity.ts";
import { pairedTasks } from "../../lib/decision/paired_tasks.ts";
import { pairedLossTest } from "../../lib/metrics/paired_loss_test.ts";
import { seededPrng } from "../../lib/math/sampling.ts";
import { decisionTable } from "../../lib/read/load_decisions.ts";
import type { Decision } from "../../lib/decision/decision.ts";
import { decision } from "../_helpers.ts";

const SEVERITIES: readonly [Severity, string][] = [
  ["LOW", "DUPLICATE"],
  ["MEDIUM", "VALUE_DATE_MISMATCH"],
  ["HIGH", "AMOUNT_MISMATCH"],
  ["CRITICAL", "FRAUD_HOLD"],
];
/** Tasks per source document of the pilot. */
const PER_CLUSTER = 8;
/** compare's default --resamples. */
const COMPARE_RESAMPLES = 1000;
/** Suites per size of the reference power: its standard error is at most 0.5 / sqrt(400) = 0.025. */
const REPLICATIONS = 400;

/**
 * A seeded pilot of `clusters` source documents of PER_CLUSTER tasks of
 * mixed severities. Each model finds a document hard with its own
 * probability (A 0.35, B 0.15); on a hard document it misses each task with
 * probability 0.6, on an easy one never, so a document's tasks fail
 * together.
 */
function pilot(clusters: number, seed: number): Decision[] {
  const rng = seededPrng(seed);
  const out: Decision[] = [];
  for (let c = 0; c < clusters; c++) {
    const hardA = rng.next() < 0.35;
    const hardB = rng.next() < 0.15;
    for (let t = 0; t < PER_CLUSTER; t++) {
      const [severity, trueClass] = SEVERITIES[(c + t) % SEVERITIES.length];
      const taskId = `d${c}-t${t}`;
      for (const [modelId, hard] of [["A", hardA], ["B", hardB]] as const) {
        const miss = hard && rng.next() < 0.6;
        out.push(decision({
          modelId,
          taskId,
          severity,
          trueClass,
          predClass: miss ? "MATCH" : trueClass,
          cluster: `doc-${c}`,
        }));
      }
    }
  }
  return out;
}

/**
 * The share of `replications` suites of `k` clusters, drawn whole and with
 * replacement from the pilot's clusters, in which compare's loss test with
 * the cluster as the unit rejects at 0.05.
 */
function realPower(
  decisions: readonly Decision[],
  k: number,
  seed: number,
): number {
  const rng = seededPrng(seed);
  const { groups, units } = pairedTasks(decisionTable(decisions), "A", "B", {
    unit: "cluster",
  });
  const profile = getProfile("reconciliation");
  let rejections = 0;
  for (let r = 0; r < REPLICATIONS; r++) {
    const drawn = Array.from(
      { length: k },
      () => units![Math.floor(rng.next() * units!.length)],
    );
    const t = pairedLossTest(groups, profile, {
      units: drawn,
      resamples: COMPARE_RESAMPLES,
      prng: rng,
    });
    if (t.pValue <= 0.05) rejections++;
  }
  return rejections / REPLICATIONS;
}

Deno.test("plan() with clusters of several tasks states the power of compare's cluster test on suites of the pilot's clusters", async () => {
  const decisions = pilot(60, 7);
  const doc = await plan([decisions], {
    a: "A",
    b: "B",
    profile: "reconciliation",
    seed: 1,
    nTasks: 160,
  });
  assert.equal(doc.unit, "cluster");
  assert.equal(doc.pilotTasks, 480);
  assert.equal(doc.pilotClusters, 60);
  assert.ok(doc.clustersNeeded !== null && doc.clustersNeeded !== undefined);
  // tasks are clusters times the pilot's 8 tasks per cluster
  assert.equal(doc.tasksNeeded, doc.clustersNeeded * PER_CLUSTER);
  for (const p of [...doc.powerAt, ...doc.accuracy.powerAt]) {
    assert.equal(p.tasks, p.clusters! * PER_CLUSTER);
    assert.ok(p.assurance >= 0 && p.assurance <= 1, `${p.assurance}`);
  }
  // --n-tasks 160 stands for 20 clusters
  assert.ok(doc.powerAt.some((p) => p.clusters === 20));
  const lines: string[] = [];
  for (const [k, seed] of [[20, 3], [doc.clustersNeeded, 4]] as const) {
    const stated = doc.powerAt.find((p) => p.clusters === k)!.power;
    const real = realPower(decisions, k, seed);
    lines.push(
      `${k} clusters: plan's power ${stated.toFixed(3)}, real ${
        real.toFixed(3)
      }`,
    );
    // plan's figure (1,000 suites: SE <= 0.016) against the reference (SE
    // <= 0.025): 0.05 is 1.7 standard errors of their difference
    assert.ok(
      Math.abs(stated - real) <= 0.05,
      `at ${k} clusters plan states ${stated}, the real power is ${real}`,
    );
  }
  console.log(lines.join("\n"));
  // counting tasks as independent overstates the power: it asks for fewer
  const byTask = await plan([decisions], {
    a: "A",
    b: "B",
    profile: "reconciliation",
    seed: 1,
    cluster: "taskId",
  });
  assert.equal(byTask.unit, undefined);
  assert.equal(byTask.clustersNeeded, undefined);
  console.log(
    `tasks needed: ${doc.tasksNeeded} in ${doc.clustersNeeded} clusters; ${byTask.tasksNeeded} counting tasks`,
  );
  assert.ok(byTask.tasksNeeded! < doc.tasksNeeded!);
});

Deno.test("plan() refuses a pilot of fewer than MIN_CLUSTERS clusters of several tasks", async () => {
  const small = pilot(MIN_CLUSTERS - 1, 7);
  await assert.rejects(
    () => plan([small], { a: "A", b: "B", profile: "reconciliation" }),
    new RegExp(
      `plan draws suites from the pilot's clusters, but models "A" and "B" share ${
        MIN_CLUSTERS - 1
      } clusters, fewer than ${MIN_CLUSTERS}`,
    ),
  );
  // with the task as the unit it plans for independent tasks
  const byTask = await plan([small], {
    a: "A",
    b: "B",
    profile: "reconciliation",
    maxTasks: 64,
    cluster: "taskId",
  });
  assert.equal(byTask.pilotTasks, (MIN_CLUSTERS - 1) * PER_CLUSTER);
});
