import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/mod.ts";
import {
  accuracy,
  realisedLoss,
  recallBySeverity,
  summarise,
} from "../../../lib/metrics/mod.ts";
import { decisionStats } from "../../../lib/decision/mod.ts";
import {
  decisionsToJsonl,
  type SimTask,
  SIMULATED_MODELS,
  simulateRun,
} from "../../../lib/tasks/mod.ts";
import { decisionTable, parseDecisionsJsonl } from "../../../lib/read/mod.ts";
import { readTasksJsonl } from "../../../lib/tasks/load_tasks.ts";

// A synthetic suite: 40% clean, the rest spread over three severities and two classes each.
const SUITE: SimTask[] = Array.from({ length: 20_000 }, (_, i) => {
  const r = i % 10;
  if (r < 4) {
    return { id: `t${i}`, gold: { exceptionType: null, severity: "LOW" } };
  }
  const severity = r < 6 ? "HIGH" : r < 8 ? "MEDIUM" : "LOW";
  return {
    id: `t${i}`,
    gold: { exceptionType: `${severity}_${i % 2}`, severity },
  };
});

Deno.test("simulateRun() is byte-identical per seed and differs across seeds and models", () => {
  const m = SIMULATED_MODELS.frontier_even;
  const a = decisionsToJsonl(simulateRun(SUITE.slice(0, 2000), m, { seed: 3 }));
  assert.equal(
    a,
    decisionsToJsonl(simulateRun(SUITE.slice(0, 2000), m, { seed: 3 })),
  );
  assert.notEqual(
    a,
    decisionsToJsonl(simulateRun(SUITE.slice(0, 2000), m, { seed: 4 })),
  );
  // the export reads back through the validating loader unchanged
  assert.deepEqual(
    parseDecisionsJsonl(a),
    simulateRun(SUITE.slice(0, 2000), m, { seed: 3 }),
  );
});

Deno.test("simulateRun() error rates per severity are within sampling tolerance of the model (seed 1)", () => {
  for (
    const m of [
      SIMULATED_MODELS.frontier_even,
      SIMULATED_MODELS.small_severity_shaped,
    ]
  ) {
    const stats = decisionStats(
      decisionTable(simulateRun(SUITE, m, { seed: 1 })),
    );
    const recall = recallBySeverity(stats);
    for (const s of ["LOW", "MEDIUM", "HIGH"] as const) {
      const r = m.errorRate[s]!;
      const n = recall[s].denominator;
      // 1 - recall estimates the error rate; allow 4 binomial standard errors
      const tol = 4 * Math.sqrt(Math.max(r * (1 - r), 1e-4) / n);
      assert.ok(
        Math.abs(1 - recall[s].value! - r) < tol,
        `${m.id} ${s}: ${1 - recall[s].value!} vs ${r}`,
      );
    }
  }
});

Deno.test("simulated models reproduce the divergence: the severity-shaped one is less accurate and loses less", () => {
  const even = decisionStats(
    decisionTable(
      simulateRun(SUITE, SIMULATED_MODELS.frontier_even, { seed: 2 }),
    ),
  );
  const shaped = decisionStats(
    decisionTable(
      simulateRun(SUITE, SIMULATED_MODELS.small_severity_shaped, { seed: 2 }),
    ),
  );
  assert.ok(accuracy(even).value! > accuracy(shaped).value!);
  const p = getProfile("principal_risk");
  assert.ok(realisedLoss(shaped, p)! < realisedLoss(even, p)!);
});

Deno.test("the confidence models state calibrated, over-confident and constant probabilities", () => {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const run = (id: string) =>
    simulateRun(SUITE, SIMULATED_MODELS[id], { seed: 9 });
  for (
    const [id, relation] of [["small_severity_shaped", "calibrated"], [
      "frontier_even",
      "over",
    ]] as const
  ) {
    const ds = run(id).filter((d) => d.trueClass !== "MATCH");
    const stated = mean(ds.map((d) => d.pCorrect!));
    const acc = ds.filter((d) => d.predClass === d.trueClass).length /
      ds.length;
    if (relation === "calibrated") {
      assert.ok(Math.abs(stated - acc) < 0.01, `${stated} vs ${acc}`);
    } else assert.ok(stated > acc + 0.005, `${stated} vs ${acc}`);
  }
  assert.ok(run("constant_confidence").every((d) => d.pCorrect === 0.9));
});

Deno.test("always_escalate costs one review per decision and the oracle never errs", () => {
  const esc = decisionStats(
    decisionTable(simulateRun(SUITE, SIMULATED_MODELS.always_escalate)),
  );
  assert.equal(summarise(esc).escalated, SUITE.length);
  assert.equal(
    realisedLoss(esc, getProfile("review_heavy")),
    25 * SUITE.length,
  );
  const oracle = decisionStats(
    decisionTable(simulateRun(SUITE, SIMULATED_MODELS.oracle)),
  );
  assert.equal(accuracy(oracle).value, 1);
  assert.equal(realisedLoss(oracle, getProfile("principal_risk")), 0);
});

Deno.test("simulateRun() runs on a shipped task suite and refuses bad model parameters", async () => {
  const tasks = await readTasksJsonl("data/tasks/settlement_777_300.jsonl");
  const run = simulateRun(tasks, SIMULATED_MODELS.small_severity_shaped, {
    seed: 1,
  });
  assert.equal(run.length, tasks.length);
  assert.ok(run.some((d) => d.severity === "CRITICAL"));
  assert.throws(
    () =>
      simulateRun(SUITE, {
        ...SIMULATED_MODELS.oracle,
        errorRate: { HIGH: 1.5 },
      }),
    /errorRate\.HIGH must be in \[0, 1\], got 1\.5/,
  );
  assert.throws(
    () =>
      simulateRun(SUITE, {
        ...SIMULATED_MODELS.oracle,
        confidence: { kind: "overconfident", strength: 0.5 },
      }),
    /overconfident strength must be >= 1/,
  );
});
