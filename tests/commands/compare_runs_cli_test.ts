// `compare` of two runs (two inputs of one model each, no --a/--b) and
// `--items`, the shared tasks the two sides decide differently.
import assert from "node:assert/strict";
import { compare } from "../../api/compare.ts";
import { runCli, tempDir } from "../_helpers.ts";

const root = new URL("../../", import.meta.url).pathname;
const QWEN = `${root}tests/fixtures/inspect/qwen.json`;
const SONNET = `${root}tests/fixtures/inspect/sonnet.json`;
const A = "ollama/qwen2.5:0.5b";
const B = "anthropic/claude-sonnet-4-0";
const AB = `${root}data/examples/model_ab.jsonl`;
// the two inspect logs, one model each, at one severity
const LOGS = [QWEN, SONNET, "--format", "inspect", "--severity", "HIGH"];

async function json(args: string[]) {
  const r = await runCli([...args, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// model_ab.jsonl as two runs of one model: A's decisions, and B's renamed A
async function twoRunsOfOneModel(): Promise<[string, string]> {
  const dir = await tempDir();
  const lines = (await Deno.readTextFile(AB)).trim().split("\n");
  const side = (id: string) =>
    lines.filter((l) => JSON.parse(l).modelId === id).map((l) =>
      JSON.stringify({ ...JSON.parse(l), modelId: "A", runId: `run-${id}` })
    ).join("\n") + "\n";
  await Deno.writeTextFile(`${dir}/before.jsonl`, side("A"));
  await Deno.writeTextFile(`${dir}/after.jsonl`, side("B"));
  return [`${dir}/before.jsonl`, `${dir}/after.jsonl`];
}

function sumOf(items: { costDifference: Record<string, number> }[], p: string) {
  return items.reduce((s, i) => s + i.costDifference[p], 0);
}

Deno.test("compare of two inputs of one model each pairs the first as A and the second as B, as --a/--b would, and names them in aFile and bFile", async () => {
  const flags = ["--format", "inspect", "--severity", "HIGH"];
  const named = await json([
    "compare",
    QWEN,
    SONNET,
    ...flags,
    "--a",
    A,
    "--b",
    B,
  ]);
  const sides = await json(["compare", QWEN, SONNET, ...flags]);
  assert.equal(sides.a, A);
  assert.equal(sides.b, B);
  assert.equal(sides.aFile, QWEN);
  assert.equal(sides.bFile, SONNET);
  assert.equal(named.aFile, null);
  assert.equal(named.bFile, null);
  assert.deepEqual(
    { ...sides, aFile: null, bFile: null },
    named,
  );
  // the other order swaps the sides
  const swapped = await json(["compare", SONNET, QWEN, ...flags]);
  assert.equal(swapped.a, B);
  assert.equal(
    swapped.differences.loss.reconciliation.estimate,
    -named.differences.loss.reconciliation.estimate,
  );
});

Deno.test("compare of two runs of the same model id pairs them by task and gives the differences of the two models they came from", async () => {
  const [before, after] = await twoRunsOfOneModel();
  const runs = await json(["compare", before, after]);
  const models = await json(["compare", AB, "--a", "A", "--b", "B"]);
  assert.equal(runs.a, "A");
  assert.equal(runs.b, "A");
  assert.deepEqual([runs.aFile, runs.bFile], [before, after]);
  assert.equal(runs.pairs, 800);
  assert.equal(runs.tasks, 800);
  assert.deepEqual(runs.differences, models.differences);
  // the library gives the command's document
  assert.deepEqual(
    JSON.parse(JSON.stringify(await compare([before, after], {}))),
    runs,
  );
});

Deno.test("compare --items lists exactly the shared tasks decided differently, sorted by the largest cost difference, summing to each loss difference", async () => {
  const [before, after] = await twoRunsOfOneModel();
  const doc = await json(["compare", before, after, "--items"]);
  // the tasks whose predicted class or action differ, read off the file
  const byTask = new Map<string, string[]>();
  for (const line of (await Deno.readTextFile(AB)).trim().split("\n")) {
    const d = JSON.parse(line);
    const k = `${d.predClass}/${d.action}/${d.parseOk}`;
    byTask.set(d.taskId, [...(byTask.get(d.taskId) ?? []), k]);
  }
  const differ = [...byTask].filter(([, [x, y]]) => x !== y).map(([t]) => t)
    .sort();
  assert.ok(differ.length > 0);
  assert.deepEqual(
    doc.items.map((i: { taskId: string }) => i.taskId).sort(),
    differ,
  );
  const profiles = Object.keys(doc.differences.loss);
  for (const p of profiles) {
    const estimate = doc.differences.loss[p].estimate;
    assert.ok(
      Math.abs(sumOf(doc.items, p) - estimate) <=
        1e-9 * Math.max(1, Math.abs(estimate)),
      `${p}: ${sumOf(doc.items, p)} against ${estimate}`,
    );
  }
  const largest = (i: { costDifference: Record<string, number> }) =>
    Math.max(...profiles.map((p) => Math.abs(i.costDifference[p])));
  for (let k = 1; k < doc.items.length; k++) {
    const [x, y] = [doc.items[k - 1], doc.items[k]];
    assert.ok(
      largest(x) > largest(y) ||
        (largest(x) === largest(y) && x.taskId < y.taskId),
      `${x.taskId} before ${y.taskId}`,
    );
  }
  const first = doc.items[0];
  assert.deepEqual(Object.keys(first), [
    "taskId",
    "severity",
    "trueClass",
    "a",
    "b",
    "costDifference",
  ]);
  assert.deepEqual(Object.keys(first.a[0]), [
    "predClass",
    "action",
    "parseOk",
    "outcome",
    "n",
  ]);
  // without --items, no items key
  assert.equal("items" in (await json(["compare", before, after])), false);
});

Deno.test("compare --items with several trials per task counts each side's trials per kind, and its cost differences still sum to the loss differences", async () => {
  const doc = await json(["compare", ...LOGS, "--items"]);
  assert.ok(doc.items.length > 0);
  assert.ok(
    doc.items.some((i: { a: { n: number }[] }) =>
      i.a.reduce((s, t) => s + t.n, 0) > 1
    ),
    "some task has several epochs",
  );
  for (const p of Object.keys(doc.differences.loss)) {
    const estimate = doc.differences.loss[p].estimate;
    assert.ok(
      Math.abs(sumOf(doc.items, p) - estimate) <=
        1e-9 * Math.max(1, Math.abs(estimate)),
      p,
    );
  }
  const human = await runCli([
    "compare",
    ...LOGS,
    "--items",
    "--profile",
    "reconciliation",
  ]);
  assert.equal(human.code, 0, human.stderr);
  assert.match(
    human.stdout,
    new RegExp(`items: ${doc.items.length} shared tasks? decided differently`),
  );
  assert.match(human.stdout, /cost A - B, reconciliation/);
});

Deno.test("compare refuses every other shape without --a/--b, naming the models it found", async () => {
  const [before, after] = await twoRunsOfOneModel();
  const one = await runCli(["compare", AB]);
  assert.equal(one.code, 2);
  assert.match(one.stderr, /--a MODEL --b MODEL/);
  assert.match(one.stderr, /model_ab\.jsonl: models A, B/);
  const mixed = await runCli(["compare", AB, before]);
  assert.equal(mixed.code, 2);
  assert.match(
    mixed.stderr,
    /model_ab\.jsonl: models A, B; .*before\.jsonl: model A/,
  );
  const three = await runCli(["compare", AB, before, after]);
  assert.equal(three.code, 2);
  assert.match(three.stderr, /found .*after\.jsonl: models A, B\)/);
  const half = await runCli(["compare", AB, "--a", "A"]);
  assert.equal(half.code, 2);
  assert.match(half.stderr, /name the two models with --a MODEL --b MODEL/);
});
