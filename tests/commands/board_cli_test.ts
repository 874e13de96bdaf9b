// lossbook board: the page and board.json it writes into --out, the same
// bytes for the same seed, and its refusals.
import assert from "node:assert/strict";
import { runCli, tempDir, tempFile } from "../_helpers.ts";
import { decision } from "../_helpers.ts";
import { decisionsToJsonl } from "../../lib/tasks/simulate.ts";
import type { Decision } from "../../lib/decision/decision.ts";

const RUN = "data/examples/model_ab.jsonl";
const FAST = ["--resamples", "500"];

Deno.test("board --out writes index.html and board.json; board.json is the --json document, byte for byte", async () => {
  const dir = `${await tempDir()}/board`;
  const r = await runCli(["board", RUN, "--out", dir, ...FAST]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /2 models compared on the 800 tasks they all answered/,
  );
  assert.match(
    r.stdout,
    new RegExp(`wrote ${dir}/index.html and ${dir}/board.json`),
  );
  const json = await runCli(["board", RUN, "--json", ...FAST]);
  assert.equal(json.code, 0, json.stderr);
  assert.equal(await Deno.readTextFile(`${dir}/board.json`), json.stdout);
  const html = await Deno.readTextFile(`${dir}/index.html`);
  assert.match(html, /^<!doctype html>/);
  assert.match(html, /id="shared-tasks" data-models="2" data-tasks="800"/);
  // self-contained: no script, no stylesheet or image to fetch, no address
  // but the SVG namespaces
  assert.doesNotMatch(html, /<script|<link|<img|<iframe/i);
  assert.deepEqual(
    [...new Set(html.match(/https?:\/\/[^"' )]+/g))].sort(),
    ["http://www.w3.org/1999/xlink", "http://www.w3.org/2000/svg"],
  );
  assert.equal((html.match(/<figure class="lb-figure"/g) ?? []).length, 1);
  for (
    const p of ["flat", "reconciliation", "review_heavy", "principal_risk"]
  ) {
    assert.match(html, new RegExp(`data-profile="${p}"`));
  }
});

Deno.test("board writes the same bytes for the same seed", async () => {
  const [a, b] = [await tempDir(), await tempDir()];
  for (const dir of [a, b]) {
    const r = await runCli([
      "board",
      RUN,
      "--out",
      dir,
      "--seed",
      "5",
      "--profile",
      "principal_risk",
      ...FAST,
    ]);
    assert.equal(r.code, 0, r.stderr);
  }
  for (const f of ["index.html", "board.json"]) {
    assert.equal(
      await Deno.readTextFile(`${a}/${f}`),
      await Deno.readTextFile(`${b}/${f}`),
      f,
    );
  }
});

Deno.test("board --out refuses a file where the folder goes, and an existing page without --force", async () => {
  const file = await tempFile("taken", "mine");
  const r = await runCli(["board", RUN, "--out", file, ...FAST]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, /it is a file, not a folder; give --out a folder/);
  assert.equal(await Deno.readTextFile(file), "mine");

  const dir = await tempDir();
  await Deno.writeTextFile(`${dir}/index.html`, "mine");
  const again = await runCli(["board", RUN, "--out", dir, ...FAST]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /index\.html: the file exists; pass --force/);
  assert.equal(await Deno.readTextFile(`${dir}/index.html`), "mine");
  await assert.rejects(
    () => Deno.stat(`${dir}/board.json`),
    Deno.errors.NotFound,
  );
  const forced = await runCli(["board", RUN, "--out", dir, "--force", ...FAST]);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(
    await Deno.readTextFile(`${dir}/index.html`),
    /^<!doctype html>/,
  );
});

Deno.test("board --out never overwrites an input, even with --force", async () => {
  const dir = await tempDir();
  const input = `${dir}/board.json`;
  await Deno.copyFile(RUN, input);
  const before = await Deno.readTextFile(input);
  const r = await runCli([
    "board",
    input,
    "--format",
    "decisions",
    "--out",
    dir,
    "--force",
    ...FAST,
  ]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /board\.json is the same file as the input input .*board\.json; lossbook never overwrites an input/,
  );
  assert.equal(await Deno.readTextFile(input), before);
  await assert.rejects(
    () => Deno.stat(`${dir}/index.html`),
    Deno.errors.NotFound,
  );
});

async function jsonl(decisions: Decision[]): Promise<string> {
  return await tempFile("run.jsonl", decisionsToJsonl(decisions));
}

Deno.test("board refuses one model, and models that share no task, with exit 2 and one line; no folder is made", async () => {
  const out = `${await tempDir()}/never`;
  const one = await jsonl([decision({ modelId: "solo", taskId: "t1" })]);
  const r = await runCli(["board", one, "--out", out]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(
    r.stderr,
    /^lossbook board: a board ranks two or more models; .*run\.jsonl holds one, solo\n$/,
  );
  const apart = await jsonl([
    decision({ modelId: "a", taskId: "t1" }),
    decision({ modelId: "b", taskId: "t2" }),
  ]);
  const s = await runCli(["board", apart, "--out", out]);
  assert.equal(s.code, 2);
  assert.equal(s.stderr.trim().split("\n").length, 1, s.stderr);
  assert.match(
    s.stderr,
    /the 2 models of .*run\.jsonl share no task, so there is nothing to rank them on \(tasks answered: a 1, b 1\)/,
  );
  await assert.rejects(() => Deno.stat(out), Deno.errors.NotFound);
});

Deno.test("board reads two harness logs of one task as two models", async () => {
  const r = await runCli([
    "board",
    "data/examples/harness/inspect_qwen.eval",
    "data/examples/harness/inspect_sonnet.json",
    "--format",
    "inspect",
    "--severity",
    "HIGH",
    "--json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.models.length, 2);
  assert.equal(doc.tasks, 5);
  assert.equal(doc.profiles.length, 4);
});
