import assert from "node:assert/strict";
import { runCli, tempFile } from "../_helpers.ts";

Deno.test("every command refuses an empty input with exit 2: no decisions in FILE", async () => {
  const blank = await tempFile("blank.jsonl", "\n\n  \n");
  const header = await tempFile(
    "header.csv",
    "runId,modelId,taskId,trial,severity,trueClass,predClass,parseOk,pCorrect,action,costCompleteness,costUsd,outcome,tokensIn,tokensOut,latencyMs\n",
  );
  for (
    const args of [
      ["score", blank],
      ["score", header],
      ["calibrate", blank],
      ["escalate", blank],
      ["sweep", blank],
      ["compare", blank, "--a", "A", "--b", "B"],
      ["ledger", "append", `${blank}.ledger.jsonl`, blank],
    ]
  ) {
    const r = await runCli(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /^lossbook [a-z]+: no decisions in \S+(blank\.jsonl|header\.csv)\n$/,
      args.join(" "),
    );
  }
});

Deno.test("verify refuses an empty suite (exit 2) and fails a suite with a repeated task (exit 1)", async () => {
  const empty = await tempFile("empty.jsonl", "");
  const e = await runCli(["verify", empty]);
  assert.equal(e.code, 2, e.stderr);
  assert.match(e.stderr, /no tasks in/);
  const lines = (await Deno.readTextFile(
    "data/tasks/reconciliation_777_300.jsonl",
  )).trim().split("\n");
  // the same task twice under another id
  const twin = JSON.parse(lines[0]);
  twin.id = `${twin.id}-again`;
  const suite = await tempFile(
    "twice.jsonl",
    [...lines.slice(0, 5), JSON.stringify(twin)].join("\n") + "\n",
  );
  const r = await runCli(["verify", suite]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /DISAGREE .*-again: the same task as task 1/);
});

Deno.test("a JSONL run with a repeated key or invalid UTF-8 exits 2 naming the line; a BOM is accepted", async () => {
  const line = (await Deno.readTextFile("data/examples/model_ab.jsonl")).split(
    "\n",
  )[0];
  const twice = await tempFile(
    "twice.jsonl",
    line.replace(
      '"severity":"HIGH"',
      '"severity":"CRITICAL","severity":"LOW"',
    ) +
      "\n",
  );
  const r = await runCli(["score", twice]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /twice\.jsonl: line 1: key "severity" appears twice/);
  const bom = await tempFile("bom.jsonl", "\uFEFF" + line + "\n");
  const b = await runCli(["score", bom, "--json"]);
  assert.equal(b.code, 0, b.stderr);
});
