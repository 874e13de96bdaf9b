// Write the inspect_ai logs that lossbook's tests and README commands read:
// tests/fixtures/inspect/ and data/examples/harness/. Every file is written
// by this script, field by field after inspect_ai's own definitions
// (EvalLog, EvalSpec, EvalSample, EvalSampleSummary, Score, ModelUsage in
// src/inspect_ai/log/_log.py; the .eval layout of _recorders/eval.py and
// the chunked-sample layout of _recorders/chunked/format.py); no inspect
// output is copied. The zip archives are written entry by entry here:
// deflate by fflate, zstd (method 93) by Debian's `zstd` command (v1.5.4,
// level 3), so the zstd fixtures need /usr/bin/zstd to be regenerated, not
// to be read. Same inputs, byte-identical files.
// Usage: deno run --allow-write --allow-run scripts/make_inspect_fixtures.ts

import { deflateSync } from "fflate";
import { crc32Of } from "../lib/import/_zip_read.ts";
import { type RawZipEntry, zipArchive } from "./_zip_write.ts";

const root = new URL("..", import.meta.url).pathname;
const written: string[] = [];

async function writeBytes(rel: string, bytes: Uint8Array): Promise<void> {
  const path = `${root}${rel}`;
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeFile(path, bytes);
  written.push(rel);
}

// JSON as Python's json module writes non-finite floats: bare NaN
const NAN = "\u0000NaN\u0000";
function pyJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    (_k, v) => typeof v === "number" && Number.isNaN(v) ? NAN : v,
    indent,
  ).replaceAll(JSON.stringify(NAN), "NaN");
}

// ---------------------------------------------------------------------------
// The run: a yes/no reconciliation question per sample, two epochs.

interface Item {
  id: number | string;
  input: string;
  target: string;
  severity: string;
  cls: string;
}

const ITEMS: Item[] = [
  {
    id: 1,
    input:
      "Statement: 1,250.00 EUR to ACME GmbH. Ledger: 1,205.00 EUR to ACME GmbH. Do they match? Answer Yes or No.",
    target: "No",
    severity: "HIGH",
    cls: "AMOUNT_MISMATCH",
  },
  {
    id: 2,
    input:
      "Statement: 980.10 USD value 2026-03-02. Ledger: 980.10 USD value 2026-03-02. Do they match? Answer Yes or No.",
    target: "Yes",
    severity: "LOW",
    cls: "MATCH",
  },
  {
    id: 3,
    input:
      "Statement: 400.00 GBP to J. Smith. Ledger: 400.00 GBP to J. Smyth Ltd. Do they match? Answer Yes or No.",
    target: "No",
    severity: "HIGH",
    cls: "BENEFICIARY_MISMATCH",
  },
  {
    id: 4,
    input:
      "Statement: 75.00 EUR value 2026-03-04. Ledger: 75.00 EUR value 2026-03-05. Do they match? Answer Yes or No.",
    target: "No",
    severity: "MEDIUM",
    cls: "VALUE_DATE_MISMATCH",
  },
  {
    id: "dup-5",
    input:
      "Statement: 12.00 EUR twice, same reference. Ledger: 12.00 EUR once. Do they match? Answer Yes or No.",
    target: "No",
    severity: "LOW",
    cls: "DUPLICATE",
  },
];

/** One epoch of one sample: what the model said and how the scorer judged it. */
interface Attempt {
  completion: string | null;
  value: "C" | "I" | "N" | null;
  answer?: string;
  error?: string;
  limit?: { type: string; limit: number };
  tokens: {
    input: number;
    output: number;
    cacheRead?: number;
    cacheWrite?: number;
  };
  cost: number | null;
  time: number;
  logprob?: number;
}

interface Run {
  name: string;
  model: string;
  runId: string;
  evalId: string;
  taskId: string;
  created: string;
  attempts: Record<string, [Attempt, Attempt]>;
}

const QWEN: Run = {
  name: "qwen",
  model: "ollama/qwen2.5:0.5b",
  runId: "Qw3nRunX7mP2aLk9dE4sTb",
  evalId: "Qw3nEvalR8nV1cJ5hU6yWq",
  taskId: "ReconYesNoTask0000000a",
  created: "2026-11-30T10:00:00+00:00",
  attempts: {
    // a C whose answer differs from the target text ("No." for "No")
    "1": [
      {
        completion: "No.",
        value: "C",
        answer: "No.",
        tokens: { input: 61, output: 2, cacheRead: 20 },
        cost: null,
        time: 0.812,
        logprob: -0.105,
      },
      {
        completion: "No",
        value: "C",
        answer: "No",
        tokens: { input: 61, output: 1 },
        cost: null,
        time: 0.64,
        logprob: -0.223,
      },
    ],
    // an I whose answer text equals the target: the verdict still decides
    "2": [
      {
        completion: "Yes",
        value: "I",
        answer: "Yes",
        tokens: { input: 58, output: 1 },
        cost: null,
        time: 0.701,
        logprob: -0.051,
      },
      {
        completion: "Yes",
        value: "C",
        answer: "Yes",
        tokens: { input: 58, output: 1 },
        cost: null,
        time: 0.655,
        logprob: -0.051,
      },
    ],
    "3": [
      {
        completion: "Yes",
        value: "I",
        answer: "Yes",
        tokens: { input: 63, output: 1 },
        cost: null,
        time: 0.733,
        logprob: -0.693,
      },
      {
        completion: "I cannot tell.",
        value: "N",
        tokens: { input: 63, output: 4 },
        cost: null,
        time: 0.902,
      },
    ],
    // epoch 2 errored before scoring: a harness failure, not a wrong answer
    "4": [
      {
        completion: "No",
        value: "C",
        answer: "No",
        tokens: { input: 60, output: 1 },
        cost: null,
        time: 0.689,
        logprob: -0.357,
      },
      {
        completion: null,
        value: null,
        error: "RuntimeError: connection reset by peer",
        tokens: { input: 0, output: 0 },
        cost: null,
        time: 30.004,
      },
    ],
    // epoch 2 hit the time limit and was scored I: a timeout, priced as wrong
    "dup-5": [
      {
        completion: "Yes",
        value: "I",
        answer: "Yes",
        tokens: { input: 59, output: 1, cacheWrite: 12 },
        cost: null,
        time: 0.7,
        logprob: -0.916,
      },
      {
        completion: "",
        value: "I",
        limit: { type: "time", limit: 30 },
        tokens: { input: 59, output: 0 },
        cost: null,
        time: 30.001,
      },
    ],
  },
};

const SONNET: Run = {
  name: "sonnet",
  model: "anthropic/claude-sonnet-4-0",
  runId: "S0nnetRunB2kQ9wZ1xY3vC",
  evalId: "S0nnetEvalH5tG7fD2sA8z",
  taskId: "ReconYesNoTask0000000a",
  created: "2026-11-30T11:00:00+00:00",
  attempts: {
    "1": [
      {
        completion: "No",
        value: "C",
        answer: "No",
        tokens: { input: 70, output: 1 },
        cost: 0.000225,
        time: 1.21,
      },
      {
        completion: "No",
        value: "C",
        answer: "No",
        tokens: { input: 70, output: 1, cacheRead: 64 },
        cost: 0.000041,
        time: 0.98,
      },
    ],
    "2": [
      {
        completion: "Yes",
        value: "C",
        answer: "Yes",
        tokens: { input: 67, output: 1 },
        cost: 0.000216,
        time: 1.05,
      },
      {
        completion: "Yes",
        value: "C",
        answer: "Yes",
        tokens: { input: 67, output: 1 },
        cost: 0.000216,
        time: 1.11,
      },
    ],
    "3": [
      {
        completion: "No",
        value: "C",
        answer: "No",
        tokens: { input: 72, output: 1 },
        cost: 0.000231,
        time: 1.3,
      },
      {
        completion: "Yes",
        value: "I",
        answer: "Yes",
        tokens: { input: 72, output: 1 },
        cost: 0.000231,
        time: 1.24,
      },
    ],
    "4": [
      {
        completion: "No",
        value: "C",
        answer: "No",
        tokens: { input: 69, output: 1 },
        cost: 0.000222,
        time: 1.02,
      },
      {
        completion: "No",
        value: "C",
        answer: "No",
        tokens: { input: 69, output: 1 },
        cost: 0.000222,
        time: 0.99,
      },
    ],
    "dup-5": [
      {
        completion: "No",
        value: "C",
        answer: "No",
        tokens: { input: 68, output: 1 },
        cost: 0.000219,
        time: 1.07,
      },
      {
        completion: "Yes",
        value: "I",
        answer: "Yes",
        tokens: { input: 68, output: 1 },
        cost: 0.000219,
        time: 1.15,
      },
    ],
  },
};

const GRADER = "openai/gpt-4o-mini";

function usage(a: Attempt) {
  const u: Record<string, number> = {
    input_tokens: a.tokens.input,
    output_tokens: a.tokens.output,
    total_tokens: a.tokens.input + a.tokens.output + (a.tokens.cacheRead ?? 0) +
      (a.tokens.cacheWrite ?? 0),
  };
  if (a.tokens.cacheWrite !== undefined) {
    u.input_tokens_cache_write = a.tokens.cacheWrite;
  }
  if (a.tokens.cacheRead !== undefined) {
    u.input_tokens_cache_read = a.tokens.cacheRead;
  }
  if (a.cost !== null) u.total_cost = a.cost;
  return u;
}

function uuid(run: Run, item: Item, epoch: number): string {
  return `${run.name}-${String(item.id)}-${epoch}`.padEnd(22, "0").slice(0, 22);
}

function sample(run: Run, item: Item, epoch: number) {
  const a = run.attempts[String(item.id)][epoch - 1];
  const s: Record<string, unknown> = {
    id: item.id,
    epoch,
    input: item.input,
    target: item.target,
    messages: [
      {
        id: `m-${uuid(run, item, epoch)}-u`,
        content: item.input,
        source: "input",
        role: "user",
      },
      ...(a.completion === null ? [] : [{
        id: `m-${uuid(run, item, epoch)}-a`,
        content: a.completion,
        source: "generate",
        role: "assistant",
        model: run.model.split("/")[1],
      }]),
    ],
    output: {
      model: run.model.split("/")[1],
      choices: a.completion === null ? [] : [{
        message: {
          content: a.completion,
          source: "generate",
          role: "assistant",
          model: run.model.split("/")[1],
        },
        stop_reason: a.limit !== undefined ? "unknown" : "stop",
        ...(a.logprob === undefined ? {} : {
          logprobs: {
            content: [{
              token: a.completion,
              logprob: a.logprob,
              bytes: [...new TextEncoder().encode(a.completion)],
            }],
          },
        }),
      }],
      usage: usage(a),
      time: a.time,
    },
    ...(a.value === null ? {} : {
      scores: {
        match: {
          value: a.value,
          ...(a.answer === undefined ? {} : { answer: a.answer }),
          explanation: a.completion ?? "",
          history: [],
        },
      },
    }),
    metadata: { severity: item.severity, class: item.cls },
    store: {},
    events: [],
    // the grader's usage sits beside the candidate's: it is not the candidate's
    model_usage: {
      [run.model]: usage(a),
      ...(a.value === null ? {} : {
        [GRADER]: {
          input_tokens: 140,
          output_tokens: 3,
          total_tokens: 143,
          total_cost: 0.000023,
        },
      }),
    },
    total_time: a.time,
    working_time: Math.round(a.time * 900) / 1000,
    uuid: uuid(run, item, epoch),
    ...(a.error === undefined ? {} : {
      error: {
        message: a.error,
        traceback: `Traceback (most recent call last):\n  ...\n${a.error}\n`,
        traceback_ansi: `${a.error}\n`,
      },
    }),
    attachments: {},
    ...(a.limit === undefined ? {} : { limit: a.limit }),
  };
  return s;
}

function summary(run: Run, item: Item, epoch: number) {
  const s = sample(run, item, epoch);
  const a = run.attempts[String(item.id)][epoch - 1];
  return {
    id: s.id,
    epoch: s.epoch,
    input: s.input,
    target: s.target,
    metadata: s.metadata,
    ...(s.scores === undefined ? {} : { scores: s.scores }),
    model_usage: s.model_usage,
    total_time: s.total_time,
    working_time: s.working_time,
    uuid: s.uuid,
    ...(a.error === undefined ? {} : { error: a.error }),
    ...(a.limit === undefined ? {} : { limit: a.limit.type }),
    retries: 0,
    completed: true,
    message_count: (s.messages as unknown[]).length,
  };
}

function samples(run: Run) {
  return ITEMS.flatMap((item) => [1, 2].map((e) => sample(run, item, e)));
}

function evalSpec(run: Run) {
  return {
    eval_id: run.evalId,
    run_id: run.runId,
    created: run.created,
    task: "recon_yes_no",
    task_id: run.taskId,
    task_version: 0,
    task_file: "recon_yes_no.py",
    task_registry_name: "recon_yes_no",
    task_attribs: {},
    task_args: {},
    task_args_passed: {},
    dataset: {
      name: "recon_yes_no",
      location: "recon_yes_no.jsonl",
      samples: ITEMS.length,
      sample_ids: ITEMS.map((i) => i.id),
      shuffled: false,
    },
    model: run.model,
    model_generate_config: {},
    model_args: {},
    config: { epochs: 2, epochs_reducer: ["mean"], fail_on_error: false },
    packages: { inspect_ai: "0.3.210" },
    scorers: [{
      name: "match",
      options: {},
      metrics: [{ name: "inspect_ai/accuracy", options: {} }, {
        name: "inspect_ai/stderr",
        options: {},
      }],
    }],
  };
}

function plan() {
  return {
    name: "plan",
    steps: [{ solver: "generate", params: {} }],
    config: {},
  };
}

function header(run: Run) {
  const scored = samples(run).filter((s) => s.scores !== undefined);
  const correct =
    scored.filter((s) =>
      (s.scores as { match: { value: string } }).match.value === "C"
    ).length;
  return {
    version: 2,
    status: "success",
    eval: evalSpec(run),
    plan: plan(),
    results: {
      total_samples: ITEMS.length * 2,
      completed_samples: ITEMS.length * 2,
      scores: [{
        name: "match",
        scorer: "match",
        reducer: "mean",
        scored_samples: scored.length,
        unscored_samples: ITEMS.length * 2 - scored.length,
        params: {},
        // inspect writes a stderr it cannot compute as a bare NaN
        metrics: {
          accuracy: {
            name: "accuracy",
            value: correct / scored.length,
            params: {},
          },
          stderr: { name: "stderr", value: NaN, params: {} },
        },
      }],
    },
    stats: {
      started_at: run.created,
      completed_at: run.created.replace("T10:00:00", "T10:01:40").replace(
        "T11:00:00",
        "T11:01:40",
      ),
      model_usage: {
        [run.model]: {
          input_tokens: 600,
          output_tokens: 12,
          total_tokens: 612,
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------
// Zip, entry by entry: local header, data, then the central directory.

type Method = 0 | 8 | 93;

async function zstdAsync(bytes: Uint8Array): Promise<Uint8Array> {
  const child = new Deno.Command("zstd", {
    args: ["-3", "-q", "-c", "--no-check"],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(bytes);
  await writer.close();
  const { code, stdout } = await child.output();
  if (code !== 0) throw new Error(`zstd exited ${code}`);
  return stdout;
}

async function zip(
  files: ReadonlyArray<readonly [string, string]>,
  method: Method,
): Promise<Uint8Array> {
  const enc = new TextEncoder();
  const entries: RawZipEntry[] = [];
  for (const [name, text] of files) {
    const data = enc.encode(text);
    const packed = method === 0
      ? data
      : method === 8
      ? deflateSync(data, { level: 6 })
      : await zstdAsync(data);
    entries.push({
      name,
      method,
      packed,
      crc: crc32Of(data),
      size: data.length,
    });
  }
  return zipArchive(entries);
}

function sampleName(s: Record<string, unknown>): string {
  return `${String(s.id)}_epoch_${s.epoch}`;
}

/** A finished log: header, summaries, one entry per sample. */
function evalEntries(run: Run): Array<[string, string]> {
  return [
    [
      "_journal/start.json",
      pyJson({ version: 2, eval: evalSpec(run), plan: plan() }),
    ],
    ...samples(run).map((s) =>
      [`samples/${sampleName(s)}.json`, pyJson(s)] as [string, string]
    ),
    [
      "summaries.json",
      pyJson(ITEMS.flatMap((item) => [1, 2].map((e) => summary(run, item, e)))),
    ],
    ["header.json", pyJson(header(run))],
  ];
}

/** The same log with every sample in the chunked folder form. */
function chunkedEntries(run: Run): Array<[string, string]> {
  const out: Array<[string, string]> = [
    [
      "_journal/start.json",
      pyJson({ version: 2, eval: evalSpec(run), plan: plan() }),
    ],
  ];
  for (const s of samples(run)) {
    const p = `samples/${sampleName(s)}`;
    const { messages, events, attachments: _a, metadata, ...rest } = s;
    const shell = {
      ...rest,
      message_refs: [[0, (messages as unknown[]).length]],
    };
    out.push([`${p}/sample.json`, pyJson(shell)]);
    out.push([`${p}/metadata.json`, pyJson(metadata)]);
    out.push([
      `${p}/skeleton.json`,
      pyJson({ spans: [], events: (events as unknown[]).length }),
    ]);
    out.push([`${p}/messages/0.json`, pyJson(messages)]);
    out.push([`${p}/events/0.json`, pyJson(events)]);
    out.push([`${p}/events/stats.json`, pyJson({ chunks: [] })]);
    out.push([`${p}/events/uuids.json`, pyJson([])]);
  }
  out.push([
    "summaries.json",
    pyJson(ITEMS.flatMap((item) => [1, 2].map((e) => summary(run, item, e)))),
  ]);
  out.push(["header.json", pyJson(header(run))]);
  return out;
}

/** The log as it stands mid-run: journal only, no summaries.json or header.json. */
function inProgressEntries(run: Run): Array<[string, string]> {
  const out: Array<[string, string]> = [
    [
      "_journal/start.json",
      pyJson({ version: 2, eval: evalSpec(run), plan: plan() }),
    ],
  ];
  // samples flushed in two batches, each followed by its journaled summaries
  const all = samples(run);
  const sums = ITEMS.flatMap((item) =>
    [1, 2].map((e) => summary(run, item, e))
  );
  for (const [batch, range] of [[1, [0, 6]], [2, [6, 10]]] as const) {
    for (const s of all.slice(range[0], range[1])) {
      out.push([`samples/${sampleName(s)}.json`, pyJson(s)]);
    }
    out.push([
      `_journal/summaries/${batch}.json`,
      pyJson(sums.slice(range[0], range[1])),
    ]);
  }
  return out;
}

function jsonLog(run: Run): string {
  return pyJson({ ...header(run), samples: samples(run) }, 2) + "\n";
}

const FIX = "tests/fixtures/inspect";
await writeBytes(`${FIX}/qwen_deflate.eval`, await zip(evalEntries(QWEN), 8));
await writeBytes(`${FIX}/qwen_zstd.eval`, await zip(evalEntries(QWEN), 93));
await writeBytes(
  `${FIX}/qwen_chunked.eval`,
  await zip(chunkedEntries(QWEN), 93),
);
await writeBytes(
  `${FIX}/qwen_in_progress.eval`,
  await zip(inProgressEntries(QWEN), 93),
);
await writeBytes(`${FIX}/qwen.json`, new TextEncoder().encode(jsonLog(QWEN)));
await writeBytes(
  `${FIX}/sonnet.json`,
  new TextEncoder().encode(jsonLog(SONNET)),
);
await writeBytes(
  "data/examples/harness/inspect_qwen.eval",
  await zip(evalEntries(QWEN), 93),
);
await writeBytes(
  "data/examples/harness/inspect_sonnet.json",
  new TextEncoder().encode(jsonLog(SONNET)),
);
await writeBytes(
  "data/examples/harness/inspect_severity.csv",
  new TextEncoder().encode(
    "key,severity\n" + ITEMS.map((i) => `${i.id},${i.severity}`).join("\n") +
      "\n",
  ),
);
console.log(written.join("\n"));
