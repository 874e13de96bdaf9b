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
      "seed",
      "method",
    ]
  ) assert.ok(k in doc, k);
  assert.deepEqual([doc.a, doc.b, doc.alpha, doc.power, doc.seed], [
    "A",
    "B",
    0.05,
    0.8,
    2,
  ]);
  assert.ok(doc.powerAt.some((p: { tasks: number }) => p.tasks === 300));
  // the loss gap of model_ab needs about 13,000 tasks under reconciliation: not within 4,000
  assert.equal(doc.tasksNeeded, null);
  assert.equal(doc.powerAt[doc.powerAt.length - 1].tasks, 4000);
  assert.ok(
    doc.accuracy.tasksNeeded !== null && doc.accuracy.tasksNeeded < 4000,
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
    "4000",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /in loss with power 0\.8: no size up to 4,000 tasks reaches power 0\.8/,
  );
  assert.match(
    r.stdout,
    /in accuracy with power 0\.8: \d[\d,]* tasks \(simulated power 0\.8\d*/,
  );
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
