/**
 * The malformed-input corpus of the fault suite, written by this script
 * (never copied from elsewhere): each case is a file or a command line that
 * lossbook must refuse with the stated exit code, or accept. Cases are built
 * from one valid decision, the shipped profiles and task suites, and a
 * LossBench export chained here with LossBench's hash rule.
 *
 * `deno run -A tests/faults/_corpus.ts DIR` writes the files to DIR and
 * prints the cases as JSON.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { main } from "../../cli.ts";
import { ledgerText } from "../../lib/ledger/chain.ts";
import { decisionsToArrow } from "../../lib/read/arrow.ts";
import { decisionTable } from "../../lib/read/load_decisions.ts";
import { writeDecisionsParquet } from "../../lib/read/parquet.ts";
import type { Decision } from "../../lib/decision/decision.ts";
import { decision } from "../_helpers.ts";
import {
  columnFromArray,
  tableFromColumns,
  tableToIPC,
  timestamp,
} from "@uwdata/flechette";
import { DECISION_COLUMNS } from "../../lib/read/load_decisions.ts";
import { writeLogCorpus } from "./_log_corpus.ts";

/** One case: a command line, the exit code it must give, and extra checks. */
export interface FaultCase {
  /** What the case is. */
  readonly name: string;
  /** Arguments of `lossbook`. */
  readonly args: readonly string[];
  /** The exit code lossbook must give: 0 accepted, 1 or 2 refused. */
  readonly expect: 0 | 1 | 2;
  /** A regular expression stderr (or stdout, for exit 0 and 1) must match. */
  readonly match?: RegExp;
  /** Output must not contain this raw text (a forged line, an escape). */
  readonly never?: string;
}

/** What running a case gave. */
export interface FaultResult {
  readonly name: string;
  readonly expect: number;
  readonly code: number;
  readonly ok: boolean;
  readonly why: string | null;
}

const enc = new TextEncoder();

const line = (patch: Partial<Decision> = {}) => JSON.stringify(decision(patch));
const two = `${line()}\n${line({ taskId: "t2", predClass: "MATCH" })}\n`;

function bytesWith(text: string, at: string, bytes: number[]): Uint8Array {
  const b = enc.encode(text);
  const i = b.indexOf(enc.encode(at)[0], text.indexOf(at));
  const p = enc.encode(text.slice(0, text.indexOf(at))).length;
  void i;
  return new Uint8Array([...b.subarray(0, p), ...bytes, ...b.subarray(p)]);
}

function sortedJson(v: unknown): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${
    Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`)
      .join(",")
  }}`;
}

/** A LossBench export of `events`, chained with LossBench's rule; `eventText` overrides an event's text. */
function lossbench(
  events: Record<string, unknown>[],
  eventText: (i: number, text: string) => string = (_i, t) => t,
): string {
  let prev = "GENESIS";
  return events.map((e, i) => {
    const text = eventText(i, sortedJson(e));
    const hash = createHash("sha256").update(`${text}|${prev}`).digest("hex");
    const l =
      `{"chain_hash":"${hash}","event":${text},"prev_hash":"${prev}","seq":${
        i + 1
      }}`;
    prev = hash;
    return l;
  }).join("\n") + "\n";
}

function lbEvent(i: number, patch: Record<string, unknown> = {}) {
  return {
    calibrated_probability: 0.9,
    decision: "ALLOW",
    event_id: `e${i}`,
    model_id: "m",
    observed_outcome: {
      error: i % 2 === 0,
      exception_type: "AMOUNT_MISMATCH",
      severity: "HIGH",
      verdict: "EXCEPTION",
    },
    task_id: `t${i}`,
    timestamp: "2026-03-01T09:00:00Z",
    token_usage: { completion_tokens: 5, prompt_tokens: 100 },
    ...patch,
  };
}

/**
 * Write the corpus into `dir` and return its cases.
 *
 * @param dir An empty folder.
 * @returns The cases, in a fixed order.
 */
export async function writeCorpus(dir: string): Promise<FaultCase[]> {
  const cases: FaultCase[] = [];
  const file = async (name: string, content: string | Uint8Array) => {
    const path = `${dir}/${name}`;
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
    return path;
  };
  const score = async (
    name: string,
    fileName: string,
    content: string | Uint8Array,
    expect: 0 | 1 | 2,
    extra: Partial<FaultCase> & { flags?: string[] } = {},
  ) => {
    const p = await file(fileName, content);
    cases.push({
      name,
      args: ["score", p, "--profile", "flat", ...(extra.flags ?? [])],
      expect,
      ...(extra.match ? { match: extra.match } : {}),
      ...(extra.never ? { never: extra.never } : {}),
    });
  };

  // run exports, JSONL
  await score(
    "JSONL repeated key severity (CRITICAL then LOW)",
    "dup_key.jsonl",
    line().replace(
      '"severity":"HIGH"',
      '"severity":"CRITICAL","severity":"LOW"',
    ),
    2,
    { match: /line 1: key "severity" appears twice/ },
  );
  await score(
    "JSONL repeated nested key cost.usd, with a space before the colon",
    "dup_nested.jsonl",
    line().replace('"usd":0.001', '"usd":0.001,"usd" :0'),
    2,
    { match: /cost: key "usd" appears twice/ },
  );
  await score(
    "JSONL invalid UTF-8 in a model id",
    "bad_utf8.jsonl",
    bytesWith(two, '"m"', [0xff]),
    2,
    { match: /line 1: not valid UTF-8 at byte/ },
  );
  await score(
    "JSONL overlong UTF-8 encoding",
    "overlong.jsonl",
    bytesWith(two, '"m"', [0xc0, 0xaf]),
    2,
    { match: /not valid UTF-8/ },
  );
  await score(
    "JSONL UTF-8-encoded surrogate",
    "surrogate.jsonl",
    bytesWith(two, '"m"', [0xed, 0xa0, 0x80]),
    2,
    { match: /not valid UTF-8/ },
  );
  await score(
    "JSONL cut in the middle of a multi-byte character",
    "cut_char.jsonl",
    new Uint8Array([...enc.encode(two), 0xe2, 0x82]),
    2,
    { match: /not valid UTF-8/ },
  );
  await score("JSONL with a byte-order mark", "bom.jsonl", "\uFEFF" + two, 0);
  await score("empty JSONL", "empty.jsonl", "", 2, {
    match: /no decisions in/,
  });
  await score("JSONL of blank lines", "blank.jsonl", "\n \n\t\n", 2, {
    match: /no decisions in/,
  });
  await score(
    "JSONL unknown key",
    "unknown.jsonl",
    line().replace('"trial":0', '"trial":0,"tiral":1'),
    2,
    { match: /tiral/ },
  );
  await score(
    "JSONL 1 MB unknown key: the message stays short",
    "huge_key.jsonl",
    line().replace('"trial":0', `"trial":0,"${"k".repeat(1 << 20)}":1`),
    2,
    { match: /^lossbook score: .{0,2000}\n$/ },
  );
  await score(
    "JSONL pCorrect 1.3",
    "p13.jsonl",
    line({ pCorrect: 1.3 }),
    2,
    { match: /pCorrect/ },
  );
  await score("JSONL trial -1", "trial.jsonl", line({ trial: -1 }), 2);
  await score(
    "JSONL severity outside the ladder",
    "sev.jsonl",
    line().replace('"HIGH"', '"SEVERE"'),
    2,
  );
  await score(
    "JSONL repeated decision",
    "twice.jsonl",
    `${line()}\n${line()}\n`,
    2,
    {
      match: /duplicate decision/,
    },
  );
  await score("JSONL line that is an array", "array.jsonl", "[1,2]\n", 2);
  await score("JSONL line that is not JSON", "notjson.jsonl", '{"runId":\n', 2);
  await score(
    "JSONL bare NaN",
    "nan.jsonl",
    line().replace('"pCorrect":0.9', '"pCorrect":NaN'),
    2,
  );
  await score(
    "model id with an ANSI escape and a newline cannot forge a result line",
    "ansi.jsonl",
    `${line({ modelId: "m\u001b[31m\nA: 1 decisions (forged)" })}\n`,
    0,
    { never: "\u001b" },
  );
  await score(
    "model id with a bidirectional override",
    "bidi.jsonl",
    `${line({ modelId: "m\u202edesrever" })}\n`,
    0,
    { never: "\u202e" },
  );

  // CSV, Arrow, Parquet
  const header =
    "runId,modelId,taskId,trial,severity,trueClass,predClass,parseOk,pCorrect,action,costCompleteness,costUsd,outcome,tokensIn,tokensOut,latencyMs\n";
  const row = (t: string) =>
    `r1,m,${t},0,HIGH,AMOUNT_MISMATCH,AMOUNT_MISMATCH,true,0.9,auto,complete,0.001,resolved,,,\n`;
  await score("CSV with only a header", "header.csv", header, 2, {
    match: /no decisions in/,
  });
  const csv = enc.encode(header + row("t1") + row("t2"));
  const badCsv = csv.slice();
  badCsv[csv.indexOf(10, csv.indexOf(10) + 1) + 4] = 0xff; // a byte of line 3
  await score("CSV bad byte on line 3", "bad.csv", badCsv, 2, {
    match: /line 3: not valid UTF-8 at byte/,
  });
  await score(
    "CSV with a byte-order mark",
    "bom.csv",
    "\uFEFF" + header + row("t1"),
    0,
  );
  await score(
    "Arrow with no rows",
    "empty.arrow",
    decisionsToArrow(decisionTable([])),
    2,
    { match: /no decisions in/ },
  );
  const cols: Record<string, ReturnType<typeof columnFromArray>> = {};
  const base = decisionTable([decision()]);
  for (const c of DECISION_COLUMNS) {
    cols[c] = c === "trial"
      ? columnFromArray([Date.UTC(2026, 0, 1)], timestamp())
      : columnFromArray(Array.from(base.array(c) as ArrayLike<unknown>));
  }
  await score(
    "Arrow timestamp column as trial",
    "timestamp.arrow",
    tableToIPC(tableFromColumns(cols), { format: "file" })!,
    2,
    { match: /column trial is an Arrow timestamp column/ },
  );
  await score(
    "Arrow string that decoded to U+FFFD (invalid UTF-8)",
    "fffd.arrow",
    decisionsToArrow(decisionTable([decision({ modelId: "m\uFFFD" })])),
    2,
    { match: /modelId is not valid UTF-8/ },
  );
  const parquet = `${dir}/empty.parquet`;
  await writeDecisionsParquet(parquet, decisionTable([]));
  cases.push({
    name: "Parquet with no rows",
    args: ["score", parquet, "--profile", "flat"],
    expect: 2,
    match: /no decisions in/,
  });

  // ReconForge
  const rf = (tasks: unknown[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({ run: "rf", n: tasks.length, per_task: tasks, ...extra });
  const rfTask = {
    task_id: "a",
    expected: {
      verdict: "EXCEPTION",
      exception_type: "AMOUNT_MISMATCH",
      severity: "HIGH",
    },
    predicted: {
      verdict: "EXCEPTION",
      exception_type: "AMOUNT_MISMATCH",
      severity: "HIGH",
      confidence: 0.9,
    },
  };
  const rfFlags = ["--format", "reconforge"];
  const { predicted, ...noPred } = rfTask;
  await score(
    "ReconForge misspelt key prediction",
    "rf_misspelt.json",
    rf([{ ...noPred, prediction: predicted }]),
    2,
    { flags: rfFlags, match: /unknown field "prediction"/ },
  );
  await score(
    "ReconForge misspelt key with --lenient: listed and skipped",
    "rf_lenient.json",
    rf([{ ...noPred, prediction: predicted }]),
    0,
    { flags: [...rfFlags, "--lenient"] },
  );
  const lenientRf = await file(
    "rf_lenient_calibrate.json",
    rf([
      { ...rfTask, reviewer_note: "x" },
      { ...rfTask, task_id: "b", reviewer_note: "y" },
    ]),
  );
  cases.push({
    name: "calibrate --lenient lists an unknown ReconForge key on stderr",
    args: ["calibrate", lenientRf, "--format", "reconforge", "--lenient"],
    expect: 0,
    match:
      /warning: .*skipped unknown key per_task\[\]\."reviewer_note" \(2 times\)/,
  });
  await score(
    "ReconForge repeated key",
    "rf_dup.json",
    rf([rfTask]).replace('"run":"rf"', '"run":"rf","run":"other"'),
    2,
    { flags: rfFlags, match: /duplicate key \$\.run/ },
  );
  await score(
    "ReconForge invalid UTF-8",
    "rf_utf8.json",
    bytesWith(rf([rfTask]), '"a"', [0xfe]),
    2,
    { flags: rfFlags, match: /invalid UTF-8/ },
  );
  await score(
    "ReconForge with a byte-order mark",
    "rf_bom.json",
    "\uFEFF" + rf([rfTask]),
    0,
    { flags: rfFlags },
  );
  await score(
    "ReconForge n disagrees with per_task",
    "rf_n.json",
    rf([rfTask]).replace('"n":1', '"n":2'),
    2,
    { flags: rfFlags },
  );
  await score("ReconForge with no tasks", "rf_empty.json", rf([]), 2, {
    flags: rfFlags,
    match: /no decisions in/,
  });

  // LossBench
  const lbFlags = ["--format", "lossbench", "--probability", "correct"];
  const events = [0, 1, 2, 3].map((i) => lbEvent(i));
  await score("LossBench export, chained", "lb.jsonl", lossbench(events), 0, {
    flags: lbFlags,
  });
  const broken = lossbench(events).split("\n");
  broken.splice(1, 1);
  await score(
    "LossBench broken chain",
    "lb_broken.jsonl",
    broken.join("\n"),
    1,
    {
      flags: lbFlags,
      match: /chain does not verify is not scored/,
    },
  );
  await score(
    "LossBench misspelt event key",
    "lb_misspelt.jsonl",
    lossbench([lbEvent(0, { calibrated_probabilty: 0.9 }), ...events.slice(1)]),
    2,
    { flags: lbFlags, match: /unknown key "calibrated_probabilty"/ },
  );
  await score(
    "LossBench repeated key inside a chained event",
    "lb_dup.jsonl",
    lossbench(
      events,
      (i, t) =>
        i === 0
          ? t.replace(
            '"decision":"ALLOW"',
            '"decision":"ESCALATE","decision":"ALLOW"',
          )
          : t,
    ),
    2,
    { flags: lbFlags, match: /key "decision" appears twice/ },
  );
  for (const bad of [-100, 1.5]) {
    const p = await file(
      `lb_tokens_${bad}.jsonl`,
      lossbench([
        lbEvent(0, { token_usage: { prompt_tokens: bad } }),
        ...events.slice(1),
      ]),
    );
    cases.push({
      name: `ledger append --format lossbench refuses token count ${bad}`,
      args: [
        "ledger",
        "append",
        `${dir}/lb_tokens_ledger.jsonl`,
        p,
        "--format",
        "lossbench",
        "--probability",
        "correct",
        "--served",
        "m",
      ],
      expect: 2,
      match: /token_usage\.prompt_tokens must be a whole number >= 0/,
    });
  }

  // cost profiles
  const flat = await Deno.readTextFile(
    new URL("../../data/profiles/flat.json", import.meta.url),
  );
  const profile = async (
    name: string,
    fileName: string,
    content: string | Uint8Array,
    expect: 0 | 2,
    match?: RegExp,
  ) => {
    const p = await file(fileName, content);
    const run = await file(`run_for_${fileName}.jsonl`, two);
    cases.push({
      name,
      args: ["score", run, "--profile", p],
      expect,
      ...(match ? { match } : {}),
    });
  };
  await profile(
    'JSON profile "HIGH": -5 then "HIGH": 10',
    "dup.json",
    flat.replace('"HIGH": {', '"HIGH": { "value": -5 }, "HIGH": {'),
    2,
    /key "HIGH" appears twice/,
  );
  await profile(
    "YAML profile with a repeated key",
    "dup.yaml",
    "id: p\nid: q\nversion: 1\n",
    2,
  );
  await profile(
    "JSON profile invalid UTF-8",
    "utf8.json",
    bytesWith(flat, '"flat"', [0xff]),
    2,
    /not valid UTF-8/,
  );
  await profile(
    "YAML profile invalid UTF-8",
    "utf8.yaml",
    new Uint8Array([...enc.encode("id: p"), 0xff, 10]),
    2,
    /not valid UTF-8/,
  );
  await profile("JSON profile with a BOM", "bom.json", "\uFEFF" + flat, 0);
  const lenientProfile = await file(
    "lenient.json",
    flat.replace('"id": "flat"', '"id": "flat", "colour": "blue"'),
  );
  cases.push({
    name: "JSON profile unknown key with --lenient: listed and skipped",
    args: [
      "score",
      await file("run_lenient.jsonl", two),
      "--profile",
      lenientProfile,
      "--lenient",
    ],
    expect: 0,
    match: /warning: .*skipped unknown key colour/,
  });
  await profile(
    "JSON profile unknown key",
    "unknown.json",
    flat.replace('"id": "flat"', '"id": "flat", "kk": 1'),
    2,
  );

  // task suites
  const tasks = (await Deno.readTextFile(
    new URL("../../data/tasks/reconciliation_777_300.jsonl", import.meta.url),
  )).trim().split("\n").slice(0, 4);
  const suite = async (
    name: string,
    fileName: string,
    content: string | Uint8Array,
    expect: 0 | 1 | 2,
    match?: RegExp,
  ) => {
    const p = await file(fileName, content);
    cases.push({
      name,
      args: ["verify", p],
      expect,
      ...(match ? { match } : {}),
    });
  };
  await suite("empty task suite", "suite_empty.jsonl", "", 2, /no tasks in/);
  const twin = JSON.parse(tasks[0]);
  twin.id = `${twin.id}-again`;
  await suite(
    "suite with a repeated task under another id",
    "suite_twin.jsonl",
    [...tasks, JSON.stringify(twin)].join("\n") + "\n",
    1,
    /the same task as task 1/,
  );
  await suite(
    "suite with a repeated task id",
    "suite_id.jsonl",
    [...tasks, tasks[0]].join("\n") + "\n",
    1,
    /repeats task 1/,
  );
  await suite(
    "task line with a repeated key",
    "suite_dup.jsonl",
    tasks[0].replace('{"', '{"domain":"x","') + "\n",
    2,
    /appears twice/,
  );
  await suite(
    "task suite invalid UTF-8",
    "suite_utf8.jsonl",
    bytesWith(tasks.join("\n") + "\n", '"id"', [0xff]),
    2,
    /not valid UTF-8/,
  );

  const emptyEval = await file("eval_empty.jsonl", "");
  cases.push({
    name: "contamination with one empty file among two",
    args: [
      "contamination",
      await file("train.jsonl", tasks.join("\n") + "\n"),
      emptyEval,
    ],
    expect: 2,
    match: /no tasks in .*eval_empty\.jsonl/,
  });

  // flags and outputs
  const runFile = await file("run.jsonl", two);
  cases.push({
    name: "--resamples above 1,000,000",
    args: ["score", runFile, "--resamples", "2000000"],
    expect: 2,
    match: /--resamples must be an integer >= 1 and <= 1,000,000/,
  });
  const suiteFile = await file("suite.jsonl", tasks.join("\n") + "\n");
  cases.push({
    name: "simulate --tasks X --out X --force",
    args: [
      "simulate",
      "--tasks",
      suiteFile,
      "--model",
      "frontier_even",
      "--out",
      suiteFile,
      "--force",
    ],
    expect: 2,
    match: /never overwrites an input/,
  });
  cases.push({
    name: "reproduce --out an existing file",
    args: ["reproduce", "--out", runFile, "--only", "divergence"],
    expect: 2,
    match:
      /^lossbook reproduce: Cannot write .*: it is a file, not a folder.*\n$/,
  });
  cases.push({
    name: "ledger append into its own source",
    args: ["ledger", "append", runFile, runFile],
    expect: 2,
    match: /never overwrites an input/,
  });

  // lossbook ledgers: what must be detected
  const opened = (id: string) => ({
    kind: "review_opened" as const,
    at: "2026-03-01T09:00:00Z",
    decisionId: id,
    slaHours: 24,
    dueAt: "2026-03-02T09:00:00Z",
  });
  const { text, head } = ledgerText(["d1", "d2", "d3", "d4"].map(opened));
  const ledger = async (
    name: string,
    fileName: string,
    content: string,
    expect: 0 | 1,
    withHead = true,
    match?: RegExp,
  ) => {
    const p = await file(fileName, content);
    if (withHead) {
      await Deno.writeTextFile(
        `${p}.head`,
        `{"hash":"${head.hash}","seq":${head.seq}}\n`,
      );
    }
    cases.push({
      name,
      args: ["ledger", "verify", p],
      expect,
      ...(match ? { match } : {}),
    });
  };
  const ls = text.trim().split("\n");
  await ledger("ledger, sound", "l_ok.jsonl", text, 0);
  await ledger(
    "ledger, one byte edited",
    "l_edit.jsonl",
    text.replace('"d2"', '"d9"'),
    1,
    true,
    /\(edited\)/,
  );
  await ledger(
    "ledger, a line deleted",
    "l_del.jsonl",
    [ls[0], ls[2], ls[3]].join("\n") + "\n",
    1,
  );
  await ledger(
    "ledger, two lines swapped",
    "l_swap.jsonl",
    [ls[0], ls[2], ls[1], ls[3]].join("\n") + "\n",
    1,
  );
  await ledger(
    "ledger, a line duplicated",
    "l_dup.jsonl",
    [ls[0], ls[1], ls[1], ls[2], ls[3]].join("\n") + "\n",
    1,
  );
  await ledger(
    "ledger, truncated at a line boundary",
    "l_trunc.jsonl",
    [ls[0], ls[1]].join("\n") + "\n",
    1,
    true,
    /truncated/,
  );
  await ledger(
    "ledger, a torn line past its head: valid, with a notice naming it",
    "l_torn.jsonl",
    text + ls[0].slice(0, 30),
    0,
    true,
    /the 30 bytes after record 4 were never acknowledged by its head file/,
  );
  await ledger(
    "ledger, a tear inside the records its head acknowledges",
    "l_torn_inside.jsonl",
    [ls[0], ls[1], ls[2]].join("\n") + "\n" + ls[3].slice(0, 30),
    1,
    true,
    /truncated/,
  );
  await ledger(
    "ledger without its head file: valid, unanchored, with a warning",
    "l_nohead.jsonl",
    [ls[0], ls[1]].join("\n") + "\n",
    0,
    false,
    /no head file/,
  );
  await ledger(
    "empty ledger: valid, says it is empty",
    "l_empty.jsonl",
    "",
    0,
    false,
    /empty \(0 records\)/,
  );
  cases.push(...await writeLogCorpus(file, dir));
  return cases;
}

/**
 * Run one case in this process and check its exit code and output.
 *
 * @param c The case.
 * @returns What it gave.
 */
export async function runCase(c: FaultCase): Promise<FaultResult> {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => out.push(a.join(" ") + "\n");
  console.error = (...a: unknown[]) => err.push(a.join(" ") + "\n");
  let code: number;
  try {
    code = await main(c.args);
  } catch (e) {
    code = -1;
    err.push(String(e));
  } finally {
    console.log = log;
    console.error = error;
  }
  const stdout = out.join("");
  const stderr = err.join("");
  let why: string | null = null;
  if (code !== c.expect) {
    why = `exit ${code}, expected ${c.expect}: ${stderr.slice(0, 300)}`;
  } else if (c.match && !c.match.test(stderr) && !c.match.test(stdout)) {
    why = `output does not match ${c.match}: ${stderr.slice(0, 300)}`;
  } else if (c.never && (stdout + stderr).includes(c.never)) {
    why = `output holds ${JSON.stringify(c.never)}`;
  } else if (
    code === 2 &&
    stderr.split("\n").filter((l) => l.startsWith("lossbook ")).length !== 1
  ) {
    // one error line; notes printed before it (the probability's
    // provenance, a skipped key) are not errors
    why = `exit 2 without exactly one error line: ${stderr.slice(0, 300)}`;
  } else if (
    c.expect === 0 && c.name.includes("forge") &&
    stdout.split("\n").some((l) => l.startsWith("A: 1 decisions (forged)"))
  ) {
    why = "a forged result line";
  }
  return { name: c.name, expect: c.expect, code, ok: why === null, why };
}

if (import.meta.main) {
  const dir = Deno.args[0] ??
    await Deno.makeTempDir({ prefix: "lossbook-corpus-" });
  await Deno.mkdir(dir, { recursive: true });
  const cases = await writeCorpus(dir);
  console.log(JSON.stringify(
    cases.map((c) => ({ ...c, match: c.match?.source })),
    null,
    2,
  ));
}
