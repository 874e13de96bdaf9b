import assert from "node:assert/strict";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { seededPrng } from "../../../lib/math/sampling.ts";
import {
  canCost,
  type StatsRow,
} from "../../../lib/metrics/sufficient_stats.ts";
import { writeDecisionsCsv } from "../../../lib/read/csv.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import { duckdbDecisionStats } from "../../../lib/sql/duckdb_stats.ts";
import { jsonlStats } from "../../../lib/read/jsonl_text_stats.ts";
import { decisionTable } from "../../../lib/read/load_decisions.ts";
import { writeDecisionsParquet } from "../../../lib/read/parquet.ts";
import { decision, tempDir } from "../../_helpers.ts";

const CLASSES = ["MATCH", "AMOUNT_MISMATCH", "DUPLICATE"];

/** A seeded run: tasks with 1-4 trials per model, some split across two runs. */
function multiTrialRun(seed: number, tasks: number): Decision[] {
  const rng = seededPrng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng.next() * xs.length)];
  const out: Decision[] = [];
  for (let t = 0; t < tasks; t++) {
    const severity = pick(SEVERITIES);
    const trueClass = pick(CLASSES);
    for (const modelId of ["a", "b"]) {
      const trials = 1 + Math.floor(rng.next() * 4);
      for (let k = 0; k < trials; k++) {
        out.push(decision({
          runId: k === 3 ? "r2" : "r1",
          modelId,
          taskId: `t${t}`,
          trial: k === 3 ? 0 : k,
          severity,
          trueClass,
          predClass: rng.next() < 0.7 ? trueClass : pick(CLASSES),
          action: rng.next() < 0.1 ? "escalate" : "auto",
        }));
      }
    }
  }
  return out;
}

function shares(stats: readonly StatsRow[]): string[] {
  return stats.map((r) =>
    `${r.modelId}|${r.severity}|${r.trueClass}|${r.predClass}|${r.action}|${r.n}|${
      r.taskShare!.toFixed(9)
    }|${r.taskTrialsSum}|${r.unitCostPairs}`
  );
}

Deno.test("taskShare, taskTrialsSum and unitCostPairs agree across the Arquero, JSONL and DuckDB paths on a run with several trials per task", async () => {
  const ds = multiTrialRun(20261204, 60);
  const want = decisionStats(decisionTable(ds));
  // the shares of a model add up to its task count
  for (const m of ["a", "b"]) {
    const total = want.filter((r) => r.modelId === m).reduce(
      (s, r) => s + r.taskShare!,
      0,
    );
    assert.ok(Math.abs(total - 60) < 1e-9, `${m}: ${total}`);
  }
  assert.ok(want.some((r) => r.taskShare! < r.n));
  // Σ taskTrialsSum of a model is Σ over its tasks of trials²
  for (const m of ["a", "b"]) {
    const trials = new Map<string, number>();
    for (const d of ds.filter((d) => d.modelId === m)) {
      trials.set(d.taskId, (trials.get(d.taskId) ?? 0) + 1);
    }
    assert.equal(
      want.filter((r) => r.modelId === m).reduce(
        (s, r) => s + r.taskTrialsSum!,
        0,
      ),
      [...trials.values()].reduce((s, t) => s + t * t, 0),
    );
  }
  const jsonl = jsonlStats(ds.map((d) => JSON.stringify(d)).join("\n"));
  assert.deepEqual(shares(jsonl.stats), shares(want));
  const dir = await tempDir("lossbook-test-");
  const table = decisionTable(ds);
  await writeDecisionsParquet(`${dir}/run.parquet`, table, { threads: 1 });
  await writeDecisionsCsv(`${dir}/run.csv`, table);
  for (const file of ["run.parquet", "run.csv"]) {
    const got = await duckdbDecisionStats(`${dir}/${file}`, { threads: 1 });
    assert.deepEqual(shares(got), shares(want), file);
  }
});

Deno.test("taskShare and taskTrialsSum equal n, and unitCostPairs n where the cell can cost and 0 elsewhere, on every path when each task has one decision per model", async () => {
  const ds = multiTrialRun(7, 40).filter((d) =>
    d.trial === 0 && d.runId === "r1"
  );
  const stats = decisionStats(decisionTable(ds));
  for (const r of stats) {
    assert.deepEqual([r.taskShare, r.taskTrialsSum, r.unitCostPairs], [
      r.n,
      r.n,
      canCost(r) ? r.n : 0,
    ]);
  }
  for (
    const r of jsonlStats(ds.map((d) => JSON.stringify(d)).join("\n")).stats
  ) {
    assert.deepEqual([r.taskShare, r.taskTrialsSum, r.unitCostPairs], [
      r.n,
      r.n,
      canCost(r) ? r.n : 0,
    ]);
  }
  const dir = await tempDir("lossbook-test-");
  await writeDecisionsParquet(`${dir}/run.parquet`, decisionTable(ds), {
    threads: 1,
  });
  for (const r of await duckdbDecisionStats(`${dir}/run.parquet`)) {
    assert.deepEqual([r.taskShare, r.taskTrialsSum, r.unitCostPairs], [
      r.n,
      r.n,
      canCost(r) ? r.n : 0,
    ]);
  }
});
