// board(): the ranking document, held to compare's p-values and score's
// losses on the same decisions, and its refusals.
import assert from "node:assert/strict";
import { board, compare, score, UsageError } from "../../mod.ts";
import { decision } from "../_helpers.ts";
import type { Decision } from "../../lib/decision/decision.ts";

const RUN = "data/examples/model_ab.jsonl";

Deno.test("board: each pair's p-value is compare's on the same decisions, and each loss is score's", async () => {
  const doc = await board([RUN], { resamples: 2000, seed: 3 });
  const cmp = await compare([RUN], {
    a: "A",
    b: "B",
    resamples: 2000,
    seed: 3,
  });
  const sc = await score([RUN], {});
  assert.equal(doc.tasks, 800);
  assert.equal(doc.unsharedTasks, 0);
  for (const p of doc.profiles) {
    const [pair] = p.pairs;
    assert.deepEqual([pair.a, pair.b], ["A", "B"]);
    assert.equal(pair.pValue, cmp.differences.loss[p.id].pValue, p.id);
    // one trial per task: the sum of the per-task differences is the loss difference
    assert.ok(
      Math.abs(pair.difference - cmp.differences.loss[p.id].estimate!) < 1e-9,
    );
    for (const m of p.ranking) {
      const s = sc.models.find((x) => x.modelId === m.modelId)!;
      assert.ok(
        Math.abs(m.loss - s.loss[p.id]!) < 1e-9,
        `${p.id} ${m.modelId}`,
      );
    }
    // two models, one pair: Holm changes nothing
    assert.equal(pair.adjustedPValue, pair.pValue);
  }
  const byId = Object.fromEntries(doc.profiles.map((p) => [p.id, p]));
  // A is more accurate and wins under flat; B loses less under principal_risk
  assert.deepEqual(byId.flat.ranking.map((m) => m.modelId), ["A", "B"]);
  assert.equal(byId.flat.pairs[0].better, "A");
  assert.deepEqual(byId.principal_risk.ranking.map((m) => m.modelId), [
    "B",
    "A",
  ]);
  assert.equal(byId.principal_risk.pairs[0].better, "B");
  assert.deepEqual(byId.principal_risk.ranking.map((m) => m.groups), [
    ["a"],
    ["b"],
  ]);
  assert.deepEqual(byId.principal_risk.ranking[0].rankInterval, [1, 1]);
});

Deno.test("board: the same seed gives the same document; the sweep and cost evidence are those of the shared tasks", async () => {
  const a = await board([RUN], { profiles: ["principal_risk"], seed: 9 });
  const b = await board([RUN], { profiles: ["principal_risk"], seed: 9 });
  assert.equal(JSON.stringify(a), JSON.stringify(b));
  assert.deepEqual(a.sweep.lines.map((l) => l.modelId), ["A", "B"]);
  assert.equal(a.sweep.base, "reconciliation@1.0.0");
  assert.deepEqual(a.sweep.scaled, ["HIGH", "CRITICAL"]);
  assert.deepEqual(
    a.costEvidence.map((r) => [r.group, r.attempts]),
    [["A", 800], ["B", 800]],
  );
  // model_ab states no pCorrect: nothing to calibrate
  assert.deepEqual(a.calibration.models, []);
  assert.deepEqual(a.calibration.without, ["A", "B"]);
});

// three models on tasks t0..t29; model c skips the last ten
function threeModels(): Decision[] {
  const out: Decision[] = [];
  for (let t = 0; t < 30; t++) {
    for (const [m, wrongEvery] of [["a", 0], ["b", 3], ["c", 2]] as const) {
      if (m === "c" && t >= 20) continue;
      const wrong = wrongEvery > 0 && t % wrongEvery === 0;
      out.push(decision({
        modelId: m,
        taskId: `t${t}`,
        severity: t % 2 ? "HIGH" : "LOW",
        predClass: wrong ? "MATCH" : "AMOUNT_MISMATCH",
        pCorrect: wrong ? 0.6 : 0.9,
      }));
    }
  }
  return out;
}

Deno.test("board: models are compared on the tasks they all answered; the rest is counted and left out", async () => {
  const doc = await board([threeModels()], { profiles: ["flat"] });
  assert.equal(doc.tasks, 20);
  assert.equal(doc.unsharedTasks, 10);
  assert.deepEqual(
    doc.models.map((m) => [m.modelId, m.tasks, m.decisions]),
    [["a", 30, 20], ["b", 30, 20], ["c", 20, 20]],
  );
  assert.match(
    doc.notes.join(" "),
    /10 tasks answered by some models and not others are left out/,
  );
  const [flat] = doc.profiles;
  // on t0..t19: a never errs, b errs on 7 tasks, c on 10
  assert.deepEqual(flat.ranking.map((m) => [m.modelId, m.loss]), [
    ["a", 0],
    ["b", 7],
    ["c", 10],
  ]);
  assert.equal(flat.pairs.length, 3);
  assert.equal(doc.calibration.models.length, 3);
  assert.equal(doc.calibration.models[0].n, 20);
  for (const p of flat.pairs) {
    assert.ok(p.adjustedPValue >= p.pValue);
    assert.equal(p.significant, p.adjustedPValue <= doc.alpha);
  }
});

Deno.test("board refuses fewer than two models, and models that share no task", async () => {
  const one = [decision({ modelId: "solo", taskId: "t1" })];
  await assert.rejects(
    () => board([one], {}),
    (e: Error) =>
      e instanceof UsageError &&
      /a board ranks two or more models; <memory:0> holds one, solo/.test(
        e.message,
      ),
  );
  const apart = [
    decision({ modelId: "a", taskId: "t1" }),
    decision({ modelId: "b", taskId: "t2" }),
    decision({ modelId: "b", taskId: "t3" }),
  ];
  await assert.rejects(
    () => board([apart], {}),
    (e: Error) =>
      e instanceof UsageError &&
      e.message.includes(
        "the 2 models of <memory:0> share no task, so there is nothing to rank them on (tasks answered: a 1, b 2)",
      ),
  );
  await assert.rejects(
    () => board([RUN], { alpha: 1 }),
    /--alpha must be a number in \(0, 1\), got "1"/,
  );
});

Deno.test("board says when the Monte Carlo floor is above Holm's first threshold", async () => {
  const doc = await board([threeModels()], {
    profiles: ["flat"],
    resamples: 20,
  });
  assert.match(
    doc.notes.join(" "),
    /With 20 sign assignments a Monte Carlo p-value is at least 0\.047619047619047616, above Holm's first threshold alpha \/ 3/,
  );
});
