// score, compare, calibrate, escalate, sweep and plan return what their
// commands print with --json, byte for byte: on every pinned command line
// (every harness format, every input format) and on the run export's other
// file formats; and they read inputs held in memory.
import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import * as aq from "arquero";
import {
  calibrate,
  compare,
  type Decision,
  escalate,
  loadDecisionsJsonl,
  plan,
  readDecisionsJsonl,
  score,
  sweep,
  writeDecisions,
} from "../../mod.ts";
import { SCORE_OPTIONS } from "../../api/score.ts";
import { COMPARE_OPTIONS } from "../../api/compare.ts";
import { CALIBRATE_OPTIONS } from "../../api/calibrate.ts";
import { ESCALATE_OPTIONS } from "../../api/escalate.ts";
import { SWEEP_OPTIONS } from "../../api/sweep.ts";
import { PLAN_OPTIONS } from "../../api/plan.ts";
import { optionName } from "../../api/_options.ts";
import { type OptionTable, parseSpec } from "../../commands/_help.ts";
import { GOLDEN_CASES } from "../golden/_cases.ts";
import { runCli, tempDir } from "../_helpers.ts";
import { flattenRecord } from "../../lib/decision/schema.ts";

type Fn = (inputs: readonly unknown[], options: object) => Promise<unknown>;

const LIBRARY: Readonly<Record<string, { fn: Fn; table: OptionTable }>> = {
  score: { fn: score as Fn, table: SCORE_OPTIONS },
  compare: { fn: compare as Fn, table: COMPARE_OPTIONS },
  calibrate: { fn: calibrate as Fn, table: CALIBRATE_OPTIONS },
  escalate: { fn: escalate as Fn, table: ESCALATE_OPTIONS },
  sweep: { fn: sweep as Fn, table: SWEEP_OPTIONS },
  plan: { fn: plan as Fn, table: PLAN_OPTIONS },
};

/** A command line as a library call: its inputs, and its flags as options. */
function asCall(args: readonly string[]) {
  const [command, ...rest] = args;
  const { fn, table } = LIBRARY[command];
  const { values, positionals } = parseArgs({
    args: rest,
    options: parseSpec(table),
    allowPositionals: true,
    strict: true,
  });
  const options: Record<string, unknown> = {};
  for (const [flag, value] of Object.entries(values)) {
    if (flag === "json") continue;
    options[optionName(flag, table[flag])] = value;
  }
  return { fn, inputs: positionals, options };
}

async function library(args: readonly string[]): Promise<string> {
  const { fn, inputs, options } = asCall(args);
  return JSON.stringify(await fn(inputs, options), null, 2) + "\n";
}

async function cli(args: readonly string[]): Promise<string> {
  const out = await runCli(args);
  assert.equal(out.code, 0, `${args.join(" ")}: ${out.stderr}`);
  return out.stdout;
}

const CASES = GOLDEN_CASES.filter((c) => c.args[0] in LIBRARY);

Deno.test("the pinned command lines cover all six functions", () => {
  assert.deepEqual(
    [...new Set(CASES.map((c) => c.args[0]))].sort(),
    Object.keys(LIBRARY).sort(),
  );
});

for (const c of CASES) {
  Deno.test(`${c.args[0]}(...) returns what ${c.name} prints, byte for byte`, async () => {
    const tmp = await tempDir();
    const at = (a: readonly string[]) =>
      a.map((x) => x.replaceAll("$TMP", tmp));
    for (const s of c.setup ?? []) await cli(at(s));
    const args = at(c.args);
    assert.equal(await library(args), await cli(args));
  });
}

Deno.test("score(...) equals the CLI on CSV, Parquet and Arrow exports, and through DuckDB", async () => {
  const dir = await tempDir();
  const table = await loadDecisionsJsonl("data/examples/model_ab.jsonl");
  for (const ext of ["csv", "parquet", "arrow"]) {
    const path = `${dir}/ab.${ext}`;
    await writeDecisions(path, table);
    const args = ["score", path, "--profile", "principal_risk", "--json"];
    assert.equal(await library(args), await cli(args), ext);
  }
  const duck = ["score", `${dir}/ab.parquet`, "--engine", "duckdb", "--json"];
  assert.equal(await library(duck), await cli(duck));
});

Deno.test("inputs held in memory: decisions and Arquero tables score as their file does, named <memory:N>", async () => {
  const path = "data/examples/model_ab.jsonl";
  const decisions: Decision[] = await readDecisionsJsonl(path);
  const table = await loadDecisionsJsonl(path);
  const fromFile = await score([path], { profiles: ["reconciliation"] });
  const fromArray = await score([decisions], { profiles: ["reconciliation"] });
  const fromTable = await score([table], { profiles: ["reconciliation"] });
  const { file: _f, ...rest } = fromFile as { file: string };
  assert.deepEqual(fromArray, { file: "<memory:0>", ...rest });
  assert.deepEqual(fromTable, { file: "<memory:0>", ...rest });
  // split in two, the halves are one run again, named in order
  const a = decisions.filter((d) => d.modelId === "A");
  const b = decisions.filter((d) => d.modelId === "B");
  const split = await compare([a, aq.from(b.map(flattenRecord))], {
    a: "A",
    b: "B",
  });
  const whole = await compare([path], { a: "A", b: "B" });
  const { file: _w, ...same } = whole as { file: string };
  assert.deepEqual(split, { files: ["<memory:0>", "<memory:1>"], ...same });
});

Deno.test("a path and an in-memory input mix, and a repeated decision across them is refused naming both", async () => {
  const path = "data/examples/model_ab.jsonl";
  const decisions = await readDecisionsJsonl(path);
  await assert.rejects(
    () => score([path, decisions.slice(0, 3)]),
    /Cannot combine <memory:1>: its decision for runId .* repeats one in data\/examples\/model_ab\.jsonl/,
  );
  const other = decisions.slice(0, 2).map((d) => ({ ...d, runId: "other" }));
  const doc = await score([path, other], { profiles: ["flat"] });
  assert.deepEqual((doc as { files: string[] }).files, [
    path,
    "<memory:1>",
  ]);
  assert.equal(doc.decisions, decisions.length + 2);
});

Deno.test("a bad decision in memory is refused naming the input, the decision and the field", async () => {
  const decisions = await readDecisionsJsonl("data/examples/model_ab.jsonl");
  const bad = decisions.slice(0, 3).map((d, i) =>
    i === 2 ? { ...d, pCorrect: 1.5 } : d
  );
  await assert.rejects(
    () => score([decisions.slice(3, 5), bad]),
    /<memory:1>: decision 3: pCorrect/,
  );
  await assert.rejects(() => score([[]]), /no decisions in <memory:0>/);
  const noColumn = aq.from(decisions.slice(0, 2).map(flattenRecord)).select(
    aq.not("severity"),
  );
  await assert.rejects(
    () => score([noColumn]),
    /<memory:0>: missing column severity/,
  );
  await assert.rejects(
    () => score([decisions], { format: "inspect" }),
    /--format inspect reads files; <memory:0> hold decisions/,
  );
  await assert.rejects(
    () => score([42 as never]),
    /<memory:0>: an input is a path, an array of decisions or an Arquero table, got number/,
  );
});
