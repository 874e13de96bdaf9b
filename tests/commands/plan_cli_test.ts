import assert from "node:assert/strict";
import { decision, runCli, tempFile } from "../_helpers.ts";

const RUN = "data/examples/model_ab.jsonl";

Deno.test("plan --json has the documented keys and reports the power at --n-tasks", async () => {
  const r = await runCli([
    "plan",
    RUN,
    "--a",
    "A",
    "--b",
    "B",
    "--profile",
    "reconciliation",
    "--n-tasks",
    "300",
    "--max-tasks",
    "4000",
    "--seed",
    "2",
    "--json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  for (
    const k of [
      "a",
      "b",
      "profile",
      "alpha",
      "power",
      "tasksNeeded",
      "powerAt",
      "simulations",
      "powerSimulations",
      "seed",
      "method",
    ]
  ) assert.ok(k in doc, k);
  for (const p of [...doc.powerAt, ...doc.accuracy.powerAt]) {
    assert.deepEqual(Object.keys(p), ["tasks", "power", "assurance"]);
  }
  assert.deepEqual([doc.a, doc.b, doc.alpha, doc.power, doc.seed], [
    "A",
    "B",
    0.05,
    0.8,
    2,
  ]);
  assert.ok(doc.powerAt.some((p: { tasks: number }) => p.tasks === 300));
  // at the pilot's estimates the loss gap of model_ab needs about 2,900 tasks
  // under reconciliation; the pilot's 800 tasks leave it unsure, so the
  // assurance there is far lower
  const needed = doc.powerAt.find((p: { tasks: number }) =>
    p.tasks === doc.tasksNeeded
  );
  assert.ok(doc.tasksNeeded > 2000 && doc.tasksNeeded < 4000, doc.tasksNeeded);
  assert.ok(
    needed.power >= 0.8 && needed.assurance < 0.7,
    JSON.stringify(needed),
  );
  assert.ok(
    doc.accuracy.tasksNeeded !== null && doc.accuracy.tasksNeeded < 400,
  );
  assert.match(doc.method, /sign-flip/);
});

Deno.test("plan prints the tasks needed, or says no size up to --max-tasks reaches the power", async () => {
  const r = await runCli([
    "plan",
    RUN,
    "--a",
    "A",
    "--b",
    "B",
    "--profile",
    "reconciliation",
    "--max-tasks",
    "1000",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /in loss with power 0\.8: no size up to 1,000 tasks reaches power 0\.8; at 1,000 tasks it is 0\.\d{4} \(assurance 0\.\d{4}\)/,
  );
  assert.match(
    r.stdout,
    /in accuracy with power 0\.8: \d[\d,]* tasks \(simulated power 0\.8\d* at the pilot's estimates, assurance 0\.\d{4} over its uncertainty/,
  );
  assert.match(r.stdout, /tasks +power \(loss\) +assurance \(loss\)/);
});

Deno.test("plan exits 2 with one line on a missing profile, a bad power and an unknown model", async () => {
  for (
    const args of [
      ["plan", RUN, "--a", "A", "--b", "B"],
      [
        "plan",
        RUN,
        "--a",
        "A",
        "--b",
        "B",
        "--profile",
        "flat",
        "--power",
        "1.2",
      ],
      ["plan", RUN, "--a", "A", "--b", "nobody", "--profile", "flat"],
    ]
  ) {
    const r = await runCli(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /^lossbook plan: /);
  }
});

Deno.test("plan refuses a pilot with several trials per task instead of counting trials as tasks", async () => {
  const rows = ["A", "B"].flatMap((modelId) =>
    [0, 1].map((trial) => JSON.stringify(decision({ modelId, trial })))
  );
  const file = await tempFile("trials.jsonl", rows.join("\n") + "\n");
  const r = await runCli([
    "plan",
    file,
    "--a",
    "A",
    "--b",
    "B",
    "--profile",
    "flat",
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /^lossbook plan: .*one trial per task, but the run has trial 1/,
  );
  assert.equal(r.stderr.trim().split("\n").length, 1);
});
