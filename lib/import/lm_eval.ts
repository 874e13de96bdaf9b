/**
 * Importer for lm-evaluation-harness `--log_samples` files
 * (`samples_<task>_<date>.jsonl`), with the model read from the matching
 * `results_<date>.json` beside them.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import type {
  DetectInput,
  HarnessImporter,
  HarnessImportOptions,
  HarnessImportResult,
} from "./harness.ts";
import {
  type ClusterResolver,
  describePCorrectSources,
  pickPCorrect,
  type SeverityResolver,
  tallyPCorrectSource,
} from "./mapping.ts";
import { parseJsonBytesStrict } from "../_json.ts";
import {
  type Line,
  type LineContext,
  lineWhere,
  outerPaths,
  readSampleLines,
  ROUNDOFF,
  sampleLine,
  type ScoredLine,
  scoreLine,
} from "./_lm_eval_line.ts";
import {
  type ParallelOptions,
  readSamplesInParallel,
} from "./_lm_eval_parallel.ts";
import { regularFile } from "../read/_regular_file.ts";
import { harnessDecision, isObject, show } from "./_harness_record.ts";
import { InputRangeError, InputTypeError } from "../input_error.ts";

/** lm-eval's output types, as its task configs name them. */
export const LM_EVAL_OUTPUT_TYPES = [
  "multiple_choice",
  "loglikelihood",
  "loglikelihood_rolling",
  "generate_until",
] as const;

/** An lm-eval output type. */
export type LmEvalOutputType = typeof LM_EVAL_OUTPUT_TYPES[number];

/** Options for {@linkcode parseLmEvalSamples}. */
export interface LmEvalOptions {
  /** Resolves each decision's severity (from the shared mapping module). */
  severityOf: SeverityResolver;
  /** Resolves each decision's cluster (`--cluster PATH`). Default: none, the decisions name no cluster. */
  clusterOf?: ClusterResolver;
  /** Path of the samples file, shown in errors and read for task and date. Default: `"<inline>"`. */
  path?: string;
  /** Task name. Default: from a file name `samples_<task>_<date>.jsonl`. */
  task?: string;
  /** The parsed `results_<date>.json`, or `null`/absent when there is none. */
  results?: unknown;
  /** Path of the results file, for errors. */
  resultsPath?: string;
  /** `--model-id`: the model, when the results file is absent (or to override it). */
  modelId?: string;
  /** `--filter`: which filter's lines to read; needed when the file has several. */
  filter?: string;
  /** `--metric`: the per-sample metric that says correct (0/1). Default: each file's first metric. */
  metric?: string;
  /** `--pcorrect-from`: `logprob-option` or `none`. Default: `logprob-option` where defined. */
  pcorrectFrom?: string;
  /** Where each decision goes as it is made, instead of the result's `decisions` (see `HarnessImportOptions`). */
  onDecision?: HarnessImportOptions["onDecision"];
}

const SAMPLES_NAME =
  /^samples_(.+)_(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.jsonl$/;

/**
 * The task name and date id in an lm-eval samples file name,
 * `samples_<task>_<date>.jsonl`, or `null` when the name has another form.
 *
 * @param path A path or file name.
 * @returns `{ task, date }`, the date as lm-eval writes it (`2024-06-12T17-35-02.123456`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lmEvalSamplesName } from "./lm_eval.ts";
 *
 * assert.deepEqual(
 *   lmEvalSamplesName("out/m/samples_arc_easy_2024-06-12T17-35-02.123456.jsonl"),
 *   { task: "arc_easy", date: "2024-06-12T17-35-02.123456" },
 * );
 * assert.equal(lmEvalSamplesName("run.jsonl"), null);
 * ```
 */
export function lmEvalSamplesName(
  path: string,
): { task: string; date: string } | null {
  const m = SAMPLES_NAME.exec(basename(path));
  return m === null ? null : { task: m[1], date: m[2] };
}

/** lm-eval's `sanitize_model_name`: runs of `"<>:/|\?*[]` become `__`. */
function sanitizeModelName(name: string): string {
  return name.replace(/["<>:/|\\?*[\]]+/g, "__");
}

interface RunInfo {
  /** Documents the results file says the task ran (`n-samples`' `effective`), where it says. */
  readonly samples: number | null;
  readonly runId: string;
  readonly modelId: string;
  readonly outputType: LmEvalOutputType | null;
  readonly targetDelimiter: string;
}

function runInfo(
  options: LmEvalOptions,
  task: string,
  fileDate: string | null,
  where: string,
): RunInfo {
  const results = options.results ?? null;
  const rwhere = `Cannot load lm-eval results ${
    options.resultsPath ?? "<inline>"
  }`;
  if (results === null) {
    if (options.modelId === undefined) {
      throw new InputTypeError(
        `${where}: the model is not on sample lines and no results_<date>.json is beside the file; give --model-id NAME`,
      );
    }
    const date = fileDate ?? "undated";
    return {
      samples: null,
      runId: `${date}_${sanitizeModelName(options.modelId)}`,
      modelId: options.modelId,
      outputType: null,
      targetDelimiter: " ",
    };
  }
  if (!isObject(results)) {
    throw new InputTypeError(`${rwhere}: expected a JSON object`);
  }
  const name = results.model_name;
  if (options.modelId === undefined) {
    if (typeof name !== "string" || name === "") {
      throw new InputTypeError(
        `${rwhere}: model_name must be a non-empty string, got ${
          show(name)
        } (or give --model-id NAME)`,
      );
    }
  }
  const modelId = options.modelId ?? (name as string);
  const date = results.date;
  if (typeof date !== "number" && typeof date !== "string") {
    throw new InputTypeError(
      `${rwhere}: date must be a number or string, got ${show(date)}`,
    );
  }
  const sanitized = typeof results.model_name_sanitized === "string" &&
      results.model_name_sanitized !== ""
    ? results.model_name_sanitized
    : sanitizeModelName(modelId);
  let outputType: LmEvalOutputType | null = null;
  let targetDelimiter = " ";
  const config = isObject(results.configs) ? results.configs[task] : undefined;
  if (isObject(config)) {
    const t = config.output_type;
    if (t !== undefined) {
      if (!(LM_EVAL_OUTPUT_TYPES as readonly unknown[]).includes(t)) {
        throw new InputRangeError(
          `${rwhere}: configs.${task}.output_type must be one of ${
            LM_EVAL_OUTPUT_TYPES.join(", ")
          }, got ${show(t)}`,
        );
      }
      outputType = t as LmEvalOutputType;
    }
    if (typeof config.target_delimiter === "string") {
      targetDelimiter = config.target_delimiter;
    }
  }
  const tasks = [
    ...new Set([
      ...(isObject(results.configs) ? Object.keys(results.configs) : []),
      ...(isObject(results.results) ? Object.keys(results.results) : []),
    ]),
  ];
  if (tasks.length > 0 && !tasks.includes(task)) {
    throw new InputRangeError(
      `${rwhere}: it is the results of ${
        tasks.map((t) => JSON.stringify(t)).join(", ")
      }, not of task ${JSON.stringify(task)} (the samples file ${
        options.path ?? "<inline>"
      })`,
    );
  }
  const counted = isObject(results["n-samples"])
    ? results["n-samples"][task]
    : undefined;
  const effective = isObject(counted) ? counted.effective : undefined;
  let samples: number | null = null;
  if (effective !== undefined) {
    if (
      typeof effective !== "number" || !Number.isSafeInteger(effective) ||
      effective < 0
    ) {
      throw new InputRangeError(
        `${rwhere}: n-samples.${task}.effective must be a whole number >= 0, got ${
          show(effective)
        }`,
      );
    }
    samples = effective;
  }
  return {
    samples,
    runId: `${date}_${sanitized}`,
    modelId,
    outputType,
    targetDelimiter,
  };
}

/**
 * Parse an lm-evaluation-harness `--log_samples` file into decisions, one
 * per document under one filter.
 *
 * Correctness is the sample's metric value (`--metric`, else the first name
 * in the sample's `metrics`), which must be 0 or 1. The model is the results
 * file's `model_name` (sample lines do not carry it) or `--model-id`; the run
 * id is the results `date` and `model_name_sanitized` joined by `_`; the task
 * id is `<task>/<doc_id>`, trial 0. A document appears once per filter, so a
 * file with several filters needs `--filter NAME`.
 *
 * Multiple choice: the prediction is the argmax option and `pCorrect` is the
 * softmax of the option log-likelihoods (strings in the file, as lm-eval's
 * `sanitize_list` writes every leaf) at that option, divided by each option's
 * length in characters when the metric is `acc_norm` (in UTF-8 bytes for
 * `acc_bytes`), as lm-eval's own `process_results` scores them; source
 * `logprob-option`. The argmax is checked against the metric where the
 * target names an option. Under any other metric, and for generation and
 * single log-likelihood tasks, `pCorrect` is `null`. No cost, tokens or
 * latency are logged: cost is `unavailable`.
 *
 * @param text The samples file's text (JSON lines).
 * @param options Severity resolver, results document, and the choices above.
 * @returns Decisions, and counts by task shape.
 * @throws {TypeError} When the model is unknown, the file has several filters and none is chosen, or a field has the wrong shape.
 * @throws {RangeError} For a metric that is not 0/1, a repeated document, or an argmax that contradicts the metric.
 * @throws {SyntaxError} For a line that is not JSON.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLmEvalSamples } from "./lm_eval.ts";
 *
 * const line = {
 *   doc_id: 0, doc: {}, target: "1", filter: "none", metrics: ["acc"], acc: 1.0,
 *   arguments: { gen_args_0: { arg_0: "Q:", arg_1: " no" }, gen_args_1: { arg_0: "Q:", arg_1: " yes" } },
 *   resps: [[["-2.0", "False"]], [["-0.5", "True"]]],
 *   filtered_resps: [["-2.0", "False"], ["-0.5", "True"]],
 * };
 * const { decisions } = parseLmEvalSamples(JSON.stringify(line), {
 *   task: "boolq", modelId: "m", severityOf: () => "HIGH",
 * });
 * assert.equal(decisions[0].taskId, "boolq/0");
 * assert.equal(decisions[0].predClass, "verdict:correct");
 * // softmax of (-2.0, -0.5) at the second option
 * assert.ok(Math.abs(decisions[0].pCorrect! - 1 / (1 + Math.exp(-1.5))) < 1e-12);
 * ```
 */
export function parseLmEvalSamples(
  text: string,
  options: LmEvalOptions,
): HarnessImportResult {
  const file = samplesFile(options);
  const reader = samplesReader(options, file);
  text.split("\n").forEach((raw, i) => {
    const line = sampleLine(raw, i + 1, file.where);
    if (line !== null) reader.add(line);
  });
  return reader.finish();
}

/** Where a samples file's errors point, its task and its run. */
interface SamplesFile {
  readonly where: string;
  readonly task: string;
  readonly run: ReturnType<typeof runInfo>;
}

function samplesFile(options: LmEvalOptions): SamplesFile {
  const path = options.path ?? "<inline>";
  const where = `Cannot load lm-eval samples ${path}`;
  const named = lmEvalSamplesName(path);
  const task = options.task ?? named?.task;
  if (task === undefined) {
    throw new InputTypeError(
      `${where}: the task name comes from a file name samples_<task>_<date>.jsonl; this file is named ${
        JSON.stringify(basename(path))
      }`,
    );
  }
  return {
    where,
    task,
    run: runInfo(options, task, named?.date ?? null, where),
  };
}

/** What each line is scored under: the run's and the options'. */
function lineContext(options: LmEvalOptions, run: RunInfo): LineContext {
  return {
    metric: options.metric,
    outputType: run.outputType,
    targetDelimiter: run.targetDelimiter,
  };
}

/** The reader of a samples file's lines, in file order. */
interface SamplesReader {
  /**
   * Take the next line; `scored` is its {@linkcode scoreLine}, when a
   * worker has scored it already (with the sample reduced to what the
   * resolvers read).
   */
  add(line: Line, scored?: ScoredLine): void;
  /** The result, once every line is in, or the first error. */
  finish(): HarnessImportResult;
}

/**
 * The decisions of a samples file's lines, under the chosen filter, made as
 * each line is read, so that no line is held after it has been turned into
 * a decision. The filter is checked once every line is read; a line's error
 * found before then waits, so that the errors come in the order they would
 * if every line were read first.
 */
function samplesReader(
  options: LmEvalOptions,
  { where, task, run }: SamplesFile,
): SamplesReader {
  const filters = new Set<string>();
  let firstDoc: number | null = null;
  let chosen: string | undefined = options.filter;
  let waiting: unknown = null;
  let failed = false;
  const decisions: ReturnType<typeof harnessDecision>[] = [];
  const sink = options.onDecision;
  // decisions made, and where their probabilities came from
  let made = 0;
  const sources: Record<string, number> = {};
  const notes: Record<string, number> = {};
  const count = (k: string) => notes[k] = (notes[k] ?? 0) + 1;
  const seen = new Map<number, number>();
  const metricsUsed = new Set<string>();
  const context = lineContext(options, run);
  // a line is decided under the chosen filter only, which is its own
  const decide = (line: Line, scored?: ScoredLine): void => {
    const { no, sample, docId } = line;
    const at = lineWhere(where, line);
    const first = seen.get(docId);
    if (first !== undefined) {
      throw new InputRangeError(`${at}: doc_id repeats line ${first}`);
    }
    seen.set(docId, no);
    const s = scored ?? scoreLine(line, context, at);
    metricsUsed.add(s.metric);
    if (s.roundedOff > 0) {
      notes.positiveLogLikelihoodRoundoff =
        (notes.positiveLogLikelihoodRoundoff ?? 0) + s.roundedOff;
    }
    count(s.kind);
    const taskId = `${task}/${docId}`;
    const picked = pickPCorrect(
      [{ source: "logprob-option", value: s.pValue }],
      options.pcorrectFrom,
    );
    // the strict JSON reader's strings are copies, not slices of the
    // line's text: the decision does not keep the line alive
    const d = harnessDecision({
      runId: run.runId,
      modelId: run.modelId,
      taskId,
      trial: 0,
      severity: options.severityOf({ taskId, record: sample }, at),
      cluster: options.clusterOf?.({ taskId, record: sample }, at),
      verdict: s.correct ? "correct" : "incorrect",
      pCorrect: picked,
      cost: { completeness: "unavailable", usd: null },
      answer: s.answer,
      target: s.target,
    });
    made++;
    tallyPCorrectSource(sources, d);
    if (sink === undefined) decisions.push(d);
    else sink(d);
  };
  const add = (line: Line, scored?: ScoredLine): void => {
    filters.add(line.filter);
    firstDoc ??= line.docId;
    chosen ??= line.filter;
    if (failed || line.filter !== chosen) return;
    try {
      decide(line, scored);
    } catch (error) {
      waiting = error;
      failed = true;
    }
  };
  const finish = (): HarnessImportResult => {
    const names = [...filters];
    if (options.filter !== undefined && !filters.has(options.filter)) {
      throw new InputRangeError(
        `${where}: --filter ${
          JSON.stringify(options.filter)
        } names no line's filter; the file has ${
          names.map((f) => JSON.stringify(f)).join(", ") || "no lines"
        }`,
      );
    }
    if (options.filter === undefined && names.length > 1) {
      throw new InputTypeError(
        `${where}: doc_id ${firstDoc} appears once per filter (${
          names.map((f) => JSON.stringify(f)).join(", ")
        }); choose one with --filter NAME`,
      );
    }
    if (failed) throw waiting;
    return result();
  };
  const result = (): HarnessImportResult => {
    const filter = chosen;
    const roundoff = notes.positiveLogLikelihoodRoundoff;
    return {
      decisions,
      notes,
      messages: [
        `lm-eval ${task}: correctness from metric ${
          [...metricsUsed].join(", ") || "(no lines)"
        }, filter ${JSON.stringify(filter ?? null)}; model ${run.modelId}`,
        describePCorrectSources(sources),
        ...(roundoff === undefined ? [] : [
          `read ${roundoff} positive log-likelihood${
            roundoff === 1 ? "" : "s"
          } in (0, ${ROUNDOFF}] as 0 (floating-point round-off)`,
        ]),
      ],
      completeness: {
        status: null,
        samplesExpected: run.samples,
        samplesRead: made,
        missing: [],
      },
    };
  };
  return { add, finish };
}

/**
 * Read an lm-evaluation-harness samples file, with the model taken from the
 * `results_<date>.json` of the same date in the same folder (or from
 * `--model-id` when there is none). The file is streamed (no limit on its
 * size but the samples themselves) and invalid UTF-8 is refused naming the
 * line.
 *
 * @param path The `samples_<task>_<date>.jsonl` file.
 * @param options As {@linkcode parseLmEvalSamples}, without `results`.
 * @returns As {@linkcode parseLmEvalSamples}.
 * @throws As {@linkcode parseLmEvalSamples}, and `Deno.errors.NotFound`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLmEvalSamples } from "./lm_eval.ts";
 *
 * const { decisions } = await loadLmEvalSamples(
 *   "data/examples/harness/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl",
 *   { severityOf: () => "MEDIUM" },
 * );
 * assert.ok(decisions.every((d) => d.modelId === "EleutherAI/pythia-160m"));
 * ```
 */
export async function loadLmEvalSamples(
  path: string,
  options: Omit<LmEvalOptions, "path" | "results" | "resultsPath">,
): Promise<HarnessImportResult> {
  return await readLmEvalSamples(path, options);
}

/**
 * {@linkcode loadLmEvalSamples}, with the workers' segment size and count
 * given (tests cut a small file into many segments, or read it in one
 * thread). Not part of the package's API.
 *
 * @param path As {@linkcode loadLmEvalSamples}.
 * @param options As {@linkcode loadLmEvalSamples}.
 * @param parallel Segment size and workers.
 * @returns As {@linkcode loadLmEvalSamples}.
 */
export async function readLmEvalSamples(
  path: string,
  options: Omit<LmEvalOptions, "path" | "results" | "resultsPath">,
  parallel?: ParallelOptions,
): Promise<HarnessImportResult> {
  const where = `Cannot load lm-eval samples ${path}`;
  const info = await regularFile(path, where);
  const named = lmEvalSamplesName(path);
  let results: unknown = null;
  let resultsPath: string | undefined;
  if (named !== null) {
    const dir = dirname(path);
    const exact = join(dir, `results_${named.date}.json`);
    let candidates: string[] = [];
    try {
      await Deno.stat(exact);
      candidates = [exact];
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      // lm-eval writes <stem>_<date>.json when --output_path names a .json file.
      for await (const e of Deno.readDir(dir)) {
        if (e.isFile && e.name.endsWith(`_${named.date}.json`)) {
          candidates.push(join(dir, e.name));
        }
      }
      candidates.sort();
    }
    if (candidates.length > 1) {
      throw new InputTypeError(
        `Cannot load lm-eval samples ${path}: several results files match its date (${
          candidates.map((c) => basename(c)).join(", ")
        })`,
      );
    }
    if (candidates.length === 1) {
      resultsPath = candidates[0];
      results = parseJsonBytesStrict(
        await Deno.readFile(resultsPath),
        resultsPath,
        { nonFinite: true },
      );
    }
  }
  const all = { ...options, path, results, resultsPath };
  const file = samplesFile(all);
  const reader = samplesReader(all, file);
  const paths = recordPaths(options);
  // the standard input (no size) is read in this thread
  const rest = paths === null || info === null
    ? { start: 0, linesBefore: 0 }
    : await readSamplesInParallel(
      {
        path,
        where,
        context: lineContext(all, file.run),
        paths: outerPaths(paths),
      },
      info.size,
      reader.add,
      parallel,
    );
  if (rest !== null) {
    // in this thread: the whole file, or the rest of it from a segment the
    // workers could not read cleanly
    await readSampleLines(
      path,
      where,
      { start: rest.start },
      rest.linesBefore,
      reader.add,
    );
  }
  return reader.finish();
}

// The record paths the resolvers read, or null when one does not say (a
// function of the caller's own is given the whole sample, in this thread).
function recordPaths(
  options: Pick<LmEvalOptions, "severityOf" | "clusterOf">,
): (readonly string[])[] | null {
  const of = [options.severityOf, options.clusterOf].flatMap((r) =>
    r === undefined ? [[]] : [r.recordPaths ?? null]
  );
  if (of.some((p) => p === null)) return null;
  const paths = of.flatMap((p) => p!);
  // a record rebuilt in plain objects cannot hold an own __proto__ key
  return paths.some((p) => p.includes("__proto__")) ? null : paths;
}

const LM_EVAL_KEYS = ['"doc_id"', '"filtered_resps"', '"filter"', '"metrics"'];

/**
 * Whether an input looks unmistakably like an lm-eval samples file: its
 * first line is a JSON object with `doc_id`, `filtered_resps`, `filter` and
 * `metrics` keys.
 *
 * @param input What detection sees of the input.
 * @returns `true` for an lm-eval samples file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectLmEval } from "./lm_eval.ts";
 *
 * const line = '{"doc_id": 0, "filtered_resps": ["4"], "filter": "none", "metrics": ["exact_match"]}\n';
 * const head = new TextEncoder().encode(line);
 * assert.equal(detectLmEval({ path: "s.jsonl", isDirectory: false, head }), true);
 * assert.equal(detectLmEval({ path: "s.jsonl", isDirectory: false, head: new Uint8Array() }), false);
 * ```
 */
export function detectLmEval(input: DetectInput): boolean {
  if (input.isDirectory) return false;
  const text = new TextDecoder().decode(input.head);
  const first = text.split("\n")[0].trimStart();
  return first.startsWith("{") && LM_EVAL_KEYS.every((k) => first.includes(k));
}

/** The lm-evaluation-harness importer, for the harness registry. */
export const lmEvalImporter: HarnessImporter = {
  format: "lm-eval",
  flags: ["modelId", "filter", "metric"],
  metadataPaths: ["doc"],
  keysUnique: true,
  detect: detectLmEval,
  import: (path, options) =>
    loadLmEvalSamples(path, {
      severityOf: options.severityOf,
      clusterOf: options.clusterOf,
      pcorrectFrom: options.pcorrectFrom,
      modelId: options.modelId,
      filter: options.filter,
      metric: options.metric,
      onDecision: options.onDecision,
    }),
};
