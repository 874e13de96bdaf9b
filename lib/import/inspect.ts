/**
 * Importer for inspect_ai logs (`inspect-ai`): `.eval` zip archives (deflate
 * or zstd entries; samples as one file or as a chunked folder; finished, or
 * still being written with only `_journal/`; read by `import_inspect_eval.ts`,
 * loaded only for such a log, which needs read access to lossbook's own
 * files) and `.json` logs.
 *
 * One decision per (sample id, epoch). The scorer's verdict decides
 * correctness, under every cost matrix: gold class `verdict:correct`,
 * predicted `verdict:correct`, `verdict:incorrect` or `verdict:no_answer`.
 * The answer text and the target are kept but never compared. Severity
 * comes from the shared mapping (`--severity`, `--severity-map`,
 * `--severity-field`), never from the log. A sample the harness did not
 * score (an error, a limit or a cancellation with no score, inspect's NaN
 * "unscored" value) is not a wrong answer: it is set aside with its outcome
 * class, counted and named, and is not a decision. See `docs/formats.md`.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseInspectJsonLog } from "./inspect.ts";
 *
 * const log = {
 *   version: 2, status: "success",
 *   eval: { run_id: "r1", model: "ollama/qwen2.5:0.5b", task: "t", created: "2026-01-01T00:00:00Z" },
 *   samples: [{ id: 1, epoch: 1, target: "No", scores: { match: { value: "C", answer: "No." } } }],
 * };
 * const { decisions } = parseInspectJsonLog(JSON.stringify(log), {
 *   severityOf: () => "HIGH",
 * });
 * assert.equal(decisions[0].predClass, "verdict:correct");
 * assert.equal(decisions[0].answer, "No.");
 * ```
 *
 * @module
 */

import type { Severity } from "../costs/severity.ts";
import type { CostEvidence, FailureClass } from "../evidence/cost_evidence.ts";
import {
  VERDICT_CORRECT,
  VERDICT_INCORRECT,
  VERDICT_NO_ANSWER,
} from "../metrics/sufficient_stats.ts";
import type { Decision } from "../decision/decision.ts";
import type {
  DetectInput,
  HarnessImporter,
  HarnessImportOptions,
  HarnessImportResult,
  LogCompleteness,
  SetAside,
} from "./harness.ts";
import { decodeUtf8Strict, parseJsonStrict } from "../_json.ts";
import { type PCorrectCandidate, pickPCorrect } from "./mapping.ts";
import type { PCorrectSource } from "../decision/pcorrect_source.ts";
import { importLater } from "../_late_import.ts";
import { isObject } from "./_harness_record.ts";
import { InputRangeError, InputTypeError } from "../input_error.ts";
import { stringMapKey } from "../_tuple_key.ts";

/** The inspect_ai log limit types (`EvalSampleLimitType`). */
export const INSPECT_LIMIT_TYPES = [
  "context",
  "time",
  "working",
  "message",
  "token",
  "turn",
  "cost",
  "operator",
  "custom",
] as const;

/** Options for the inspect parsers: the shared harness options. */
export type InspectOptions = Pick<
  HarnessImportOptions,
  | "onDecision"
  | "severityOf"
  | "clusterOf"
  | "pcorrectFrom"
  | "scorer"
  | "partial"
  | "maxEntryBytes"
  | "maxEntryRatio"
>;

type Json = Record<string, unknown>;

function show(v: unknown): string {
  if (v === undefined) return "nothing";
  if (typeof v === "number" && !Number.isFinite(v)) return String(v);
  const t = JSON.stringify(v) ?? String(v);
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}

type Verdict = "correct" | "incorrect" | "no_answer" | "partial" | "unscored";

// inspect's value_to_float reads these strings too (case-insensitive)
const TRUE_WORDS = new Set(["yes", "true"]);
const FALSE_WORDS = new Set(["no", "false"]);

// `at`, for a message, is a string or made only when one is needed
type At = string | (() => string);

function atText(at: At): string {
  return typeof at === "string" ? at : at();
}

function verdictOf(value: unknown, at: At): Verdict {
  if (value === "C") return "correct";
  if (value === "I") return "incorrect";
  if (value === "N") return "no_answer";
  if (value === "P") return "partial";
  if (typeof value === "boolean") return value ? "correct" : "incorrect";
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "unscored";
    if (value === 1) return "correct";
    if (value === 0) return "incorrect";
    if (value > 0 && value < 1) return "partial";
    throw new InputRangeError(
      `${
        atText(at)
      } must be C, I, P, N, 0, 1, a fraction in (0, 1) or a boolean, got ${
        show(value)
      }`,
    );
  }
  if (typeof value === "string") {
    const w = value.toLowerCase();
    if (TRUE_WORDS.has(w)) return "correct";
    if (FALSE_WORDS.has(w)) return "incorrect";
  }
  throw new InputTypeError(
    `${
      atText(at)
    } must be C, I, P, N, 0, 1, a fraction in (0, 1) or a boolean, got ${
      show(value)
    }${
      isObject(value) || Array.isArray(value)
        ? " (a scorer with several values is not a verdict)"
        : ""
    }`,
  );
}

/** The header fields the importer needs. */
interface Header {
  readonly runId: string;
  readonly model: string;
  readonly status: string | null;
  /** `results.total_samples`, where the log has results. */
  readonly totalSamples: number | null;
  /** `eval.dataset.sample_ids`, where the header lists them. */
  readonly sampleIds: readonly (string | number)[] | null;
  /** `eval.config.epochs` (1 where absent). */
  readonly epochs: number;
}

function readHeader(value: unknown, where: string): Header {
  if (!isObject(value)) {
    throw new InputTypeError(`${where}: expected a JSON object`);
  }
  const ev = value.eval;
  if (!isObject(ev)) {
    throw new InputTypeError(
      `${where}: eval must be an object, got ${show(ev)}`,
    );
  }
  for (const k of ["run_id", "model"] as const) {
    if (typeof ev[k] !== "string" || ev[k] === "") {
      throw new InputTypeError(
        `${where}: eval.${k} must be a non-empty string, got ${show(ev[k])}`,
      );
    }
  }
  const status = value.status;
  if (status !== undefined && typeof status !== "string") {
    throw new InputTypeError(
      `${where}: status must be a string, got ${show(status)}`,
    );
  }
  const version = value.version;
  if (
    version !== undefined &&
    !(typeof version === "number" && Number.isSafeInteger(version) &&
      version >= 1)
  ) {
    throw new InputRangeError(
      `${where}: version must be a whole number >= 1, got ${show(version)}`,
    );
  }
  const results = value.results;
  let totalSamples: number | null = null;
  if (isObject(results) && results.total_samples !== undefined) {
    totalSamples = count(
      results.total_samples,
      `${where}: results.total_samples`,
    );
  }
  const dataset = ev.dataset;
  const ids = isObject(dataset) ? dataset.sample_ids : undefined;
  const sampleIds = Array.isArray(ids) &&
      ids.every((i) => typeof i === "string" || typeof i === "number")
    ? ids as (string | number)[]
    : null;
  const config = ev.config;
  const epochsRaw = isObject(config) ? config.epochs : undefined;
  const epochs = epochsRaw === undefined || epochsRaw === null
    ? 1
    : count(epochsRaw, `${where}: eval.config.epochs`);
  return {
    runId: ev.run_id as string,
    model: ev.model as string,
    status: status ?? null,
    totalSamples,
    sampleIds,
    epochs,
  };
}

// how whole the log is: expected samples from results.total_samples, else
// the sample ids times the epochs (never the dataset's size, which a run
// with a sample limit does not reach)
function completenessOf(
  head: Header,
  ids: ReadonlyMap<
    string | number,
    { readonly epoch: number } | { readonly epoch: number }[]
  >,
  read: number,
): LogCompleteness {
  const expected = head.totalSamples ??
    (head.sampleIds === null ? null : head.sampleIds.length * head.epochs);
  const missing: string[] = [];
  if (head.sampleIds !== null && expected !== null && read < expected) {
    for (const id of head.sampleIds) {
      const same = ids.get(stringMapKey(String(id)));
      for (let e = 1; e <= head.epochs && missing.length < 5; e++) {
        const held = same !== undefined &&
          (Array.isArray(same)
            ? same.some((x) => x.epoch === e)
            : same.epoch === e);
        if (!held) missing.push(`${id}/${e}`);
      }
    }
  }
  return {
    status: head.status,
    samplesExpected: expected,
    samplesRead: read,
    missing,
  };
}

function count(v: unknown, at: At): number {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  throw new InputRangeError(
    `${atText(at)} must be a whole number >= 0, got ${show(v)}`,
  );
}

function optionalCount(v: unknown, at: At): number {
  return v === undefined || v === null ? 0 : count(v, at);
}

function text(v: unknown): string | undefined {
  if (typeof v === "string") return v === "" ? undefined : v;
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) {
    return v.length === 1 ? v[0] : JSON.stringify(v);
  }
  return undefined;
}

function completion(output: unknown): string | undefined {
  if (!isObject(output)) return undefined;
  if (typeof output.completion === "string" && output.completion !== "") {
    return output.completion;
  }
  const choice = Array.isArray(output.choices) ? output.choices[0] : undefined;
  const content = isObject(choice) && isObject(choice.message)
    ? choice.message.content
    : undefined;
  if (typeof content === "string") return content === "" ? undefined : content;
  if (Array.isArray(content)) {
    const parts = content.filter((c) => isObject(c) && c.type === "text")
      .map((c) => (c as Json).text).filter((t) => typeof t === "string");
    return parts.length > 0 ? parts.join("") : undefined;
  }
  return undefined;
}

// P(the generated tokens) from the first choice's token log-probabilities
function tokenProbability(output: unknown, at: string): number | null {
  if (!isObject(output) || !Array.isArray(output.choices)) return null;
  const choice = output.choices[0];
  if (!isObject(choice) || !isObject(choice.logprobs)) return null;
  const content = choice.logprobs.content;
  if (!Array.isArray(content) || content.length === 0) return null;
  let sum = 0;
  content.forEach((t, i) => {
    const lp = isObject(t) ? t.logprob : undefined;
    if (typeof lp !== "number" || Number.isNaN(lp) || lp > 0) {
      throw new InputRangeError(
        `${at}: output.choices[0].logprobs.content[${i}].logprob must be a number <= 0, got ${
          show(lp)
        }`,
      );
    }
    sum += lp;
  });
  return Math.exp(sum);
}

/** One sample, as read from any of the log forms. */
interface RawSample {
  readonly value: Json;
  /** Where it came from, for messages (`samples/3_epoch_1.json`, `samples[2]`). */
  readonly source: string;
}

// Each sample is read once, as it arrives, into a record of what its
// decision needs, so that the sample (its messages, input and output text)
// is not held. Its checks run then too, with the scorer it would have: the
// one --scorer names, else the one scorer of the samples so far (a sample
// with scores names it; a sample without any reads the same under every
// scorer). Where the log turns out to have none, or several, the scorer
// check that refuses it comes first, as always. The first sample that fails
// a check keeps its error until every sample is read, the header checked
// and the scorer chosen, as when every sample was read before any check.
interface Scored {
  readonly id: string | number;
  readonly epoch: number;
  /** Where it came from, for messages. */
  readonly source: string;
  readonly error: unknown;
  readonly limit: unknown;
  readonly usage: unknown;
  readonly totalTime: unknown;
  readonly target: unknown;
  readonly score: Json | null;
  readonly verdict: Verdict | null;
  readonly answer: string | undefined;
  readonly severity: Severity | Error | null;
  /** The cluster (`--cluster PATH`), an error to raise if the sample is scored, or undefined without the flag. */
  readonly cluster: string | Error | undefined;
  readonly tokenProbability: number | null | Error;
  /**
   * The answers of the scored samples of its id, in log order, when the id
   * has several samples (for agreement); null when it has this one only.
   */
  group: Array<string | undefined> | null;
}

// `where: sample ID epoch N`, the start of a sample's messages
function sampleAt(where: string, id: string | number, epoch: number): string {
  return `${where}: sample ${show(id)} epoch ${epoch}`;
}

function rethrown<T>(v: T | Error | null): T {
  if (v instanceof Error) throw v;
  return v as T;
}

// what stands in a list for a sample already turned into a decision
const RELEASED = null as unknown as Scored;

function sampleKey(s: Json, where: string, source: string) {
  const id = s.id;
  if (
    !((typeof id === "string" && id !== "") ||
      (typeof id === "number" && Number.isSafeInteger(id)))
  ) {
    throw new InputTypeError(
      `${where}: ${source}: id must be an integer or a non-empty string, got ${
        show(id)
      }`,
    );
  }
  const epoch = s.epoch;
  if (
    !(typeof epoch === "number" && Number.isSafeInteger(epoch) && epoch >= 1)
  ) {
    throw new InputRangeError(
      `${where}: sample ${show(id)}: epoch must be a whole number >= 1, got ${
        show(epoch)
      }`,
    );
  }
  return { id, epoch };
}

// The samples of each id (one, or several epochs), by String(id) (as its
// stringMapKey).
type Ids = Map<string | number, Scored | Scored[]>;

// One sample's record, its checks run with `scorer`; its id and epoch are
// entered in `ids`.
function scoreSample(
  raw: RawSample,
  where: string,
  scorer: string | null,
  options: InspectOptions,
  ids: Ids,
): Scored {
  const s = raw.value;
  const { id, epoch } = sampleKey(s, where, raw.source);
  const at = () => sampleAt(where, id, epoch);
  const k = String(id);
  const key = stringMapKey(k);
  const same = ids.get(key);
  const first = same === undefined
    ? undefined
    : Array.isArray(same)
    ? same.find((x) => x.epoch === epoch)
    : same.epoch === epoch
    ? same
    : undefined;
  if (first !== undefined) {
    throw new InputRangeError(
      `${at()}: appears twice (${first.source} and ${raw.source})${
        typeof id === "number"
          ? "; an integer id and a string id with the same text collide"
          : ""
      }`,
    );
  }
  if (
    s.error !== undefined && s.error !== null && !isObject(s.error) &&
    typeof s.error !== "string"
  ) {
    throw new InputTypeError(
      `${at()}: error must be an object (inspect's EvalError), a message or null, got ${
        show(s.error)
      }`,
    );
  }
  const scores = s.scores;
  if (scores !== undefined && scores !== null && !isObject(scores)) {
    throw new InputTypeError(
      `${at()}: scores must be an object, got ${show(scores)}`,
    );
  }
  let score: Json | null = null;
  if (isObject(scores) && scorer !== null && scorer in scores) {
    const sc = scores[scorer];
    if (!isObject(sc)) {
      throw new InputTypeError(
        `${at()}: scores.${scorer} must be an object, got ${show(sc)}`,
      );
    }
    score = sc;
  } else if (isObject(scores) && Object.keys(scores).length > 0) {
    throw new InputRangeError(
      `${at()}: scores has no ${scorer} (it has ${
        Object.keys(scores).join(", ")
      })`,
    );
  }
  let verdict: Verdict | null = null;
  if (score !== null) {
    verdict = verdictOf(score.value, () => `${at()}: scores.${scorer}.value`);
    if (verdict === "partial") {
      if (options.partial === undefined) {
        throw new InputRangeError(
          `${at()}: scores.${scorer}.value is partial credit (${
            show(score.value)
          }); say how to count it with --partial correct|incorrect`,
        );
      }
      verdict = options.partial;
    }
  }
  if (
    verdict === null && (s.error === undefined || s.error === null) &&
    (s.limit === undefined || s.limit === null)
  ) {
    throw new InputRangeError(
      `${at()}: scores is ${
        scores === undefined || scores === null ? "missing" : "empty"
      } and the sample has no error or limit; score the log first (inspect score)`,
    );
  }
  // the output's text stands for the answer of a score without one
  const answer = (score !== null ? text(score.answer) : undefined) ??
    completion(s.output);
  const atText = at();
  let severity: Severity | Error | null;
  try {
    severity = options.severityOf({ taskId: k, record: s }, atText);
  } catch (error) {
    severity = error as Error;
  }
  let cluster: string | Error | undefined;
  try {
    cluster = options.clusterOf?.({ taskId: k, record: s }, atText);
  } catch (error) {
    cluster = error as Error;
  }
  let tokenP: number | null | Error;
  try {
    tokenP = tokenProbability(s.output, atText);
  } catch (error) {
    tokenP = error as Error;
  }
  // the strict JSON reader's strings are copies, not slices of the entry's
  // text: what is kept of the sample does not keep the whole sample alive
  const x: Scored = {
    id,
    epoch,
    source: raw.source,
    error: s.error,
    limit: s.limit,
    usage: s.model_usage,
    totalTime: s.total_time,
    target: s.target,
    score,
    verdict,
    answer,
    severity,
    cluster,
    tokenProbability: tokenP,
    group: null,
  };
  if (same === undefined) ids.set(key, x);
  else if (Array.isArray(same)) same.push(x);
  else ids.set(key, [same, x]);
  return x;
}

function chooseScorer(
  names: ReadonlySet<string>,
  options: InspectOptions,
  where: string,
): string | null {
  if (options.scorer !== undefined) {
    if (!names.has(options.scorer)) {
      throw new InputRangeError(
        `${where}: --scorer ${options.scorer}: no sample has that scorer; the log's scorers are ${
          names.size === 0 ? "none" : [...names].join(", ")
        }`,
      );
    }
    return options.scorer;
  }
  if (names.size > 1) {
    throw new InputTypeError(
      `${where}: the log has several scorers (${
        [...names].join(", ")
      }); say which decides correctness with --scorer NAME`,
    );
  }
  return names.size === 1 ? [...names][0] : null;
}

function outcomeOf(
  verdict: Verdict | null,
  sample: { readonly error: unknown; readonly limit: unknown },
  at: At,
): FailureClass {
  const limit = sample.limit;
  let limitType: string | null = null;
  if (limit !== undefined && limit !== null) {
    const t = isObject(limit) ? limit.type : undefined;
    if (!(INSPECT_LIMIT_TYPES as readonly unknown[]).includes(t)) {
      throw new InputRangeError(
        `${atText(at)}: limit.type must be one of ${
          INSPECT_LIMIT_TYPES.join(", ")
        }, got ${show(t)}`,
      );
    }
    limitType = t as string;
  }
  const errored = sample.error !== undefined && sample.error !== null;
  if (verdict === "correct") return "resolved";
  if (verdict === "incorrect" || verdict === "no_answer") {
    if (limitType === "time" || limitType === "working") return "timeout";
    if (limitType === "operator") return "cancelled";
    return "model_failure";
  }
  // no usable verdict: the table in docs/formats.md
  if (verdict === "unscored" && !errored && limitType === null) {
    return "grader_failure";
  }
  if (limitType === "operator") return "cancelled";
  if (errored) return "harness_failure";
  if (limitType === "time" || limitType === "working") return "timeout";
  return "harness_failure";
}

function costOf(usage: Json | null, at: At): CostEvidence {
  const c = usage?.total_cost;
  if (c === undefined || c === null) {
    return { completeness: "unavailable", usd: null };
  }
  if (typeof c !== "number" || !Number.isFinite(c) || c < 0) {
    throw new InputRangeError(
      `${
        atText(at)
      }: model_usage total_cost must be a finite number >= 0 or null, got ${
        show(c)
      }`,
    );
  }
  return { completeness: "complete", usd: c };
}

/**
 * Turn inspect_ai samples into decisions: the shared core of the `.eval` and
 * `.json` readers.
 *
 * @param header `eval` and `status` of the log (an object with `eval.run_id` and `eval.model`).
 * @param samples The samples, each with the entry or index it came from;
 *   read once, in order, so a generator may make each as it is needed.
 * @param file The log's path, for messages.
 * @param options Severity, scorer, partial-credit rule and pCorrect source.
 * @returns Decisions, set-aside samples, counts and messages.
 * @throws {TypeError | RangeError} Naming the file, the sample (id and epoch) and the field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inspectDecisions } from "./inspect.ts";
 *
 * const header = { status: "success", eval: { run_id: "r", model: "m" } };
 * const samples = [1, 2].map((epoch) => ({ source: `samples[${epoch - 1}]`,
 *   value: { id: "q1", epoch, target: "No", scores: { s: { value: epoch === 1 ? "C" : "I", answer: epoch === 1 ? "No" : "Yes" } } } }));
 * const r = inspectDecisions(header, samples, "a.json", { severityOf: () => "LOW" });
 * assert.deepEqual(r.decisions.map((d) => [d.trial, d.predClass, d.pCorrect, d.pCorrectSource]),
 *   [[0, "verdict:correct", 0.5, "agreement@2"], [1, "verdict:incorrect", 0.5, "agreement@2"]]);
 * ```
 */
export function inspectDecisions(
  header: unknown,
  samples: Iterable<RawSample>,
  file: string,
  options: InspectOptions,
): HarnessImportResult {
  const where = `Cannot import inspect log ${file}`;
  // each sample is read as it arrives (an archive's entries one at a time)
  const scorers = new Set<string>();
  let named: string | null = null;
  const ids: Ids = new Map();
  const scored: Scored[] = [];
  let failed = false;
  let failure: unknown;
  for (const raw of samples) {
    const scores = raw.value.scores;
    if (isObject(scores)) {
      for (const name in scores) {
        scorers.add(name);
        named ??= name;
      }
    }
    if (failed) continue;
    try {
      scored.push(
        scoreSample(raw, where, options.scorer ?? named, options, ids),
      );
    } catch (error) {
      failed = true;
      failure = error;
    }
  }
  const head = readHeader(header, where);
  const scorer = chooseScorer(scorers, options, where);
  if (failed) throw failure;
  const multiple = scored.length > ids.size;
  const completeness = completenessOf(head, ids, scored.length);
  // agreement over the scored epochs of each sample id: the share of them
  // whose answer text equals this one's (all must have an answer)
  // (the answers alone, so that each sample can be let go once it is a decision)
  if (multiple) {
    for (const same of ids.values()) {
      if (!Array.isArray(same)) continue;
      const group = same.filter((x) =>
        x.verdict !== null && x.verdict !== "unscored"
      ).map((x) => x.answer);
      for (const x of same) x.group = group;
    }
  }
  ids.clear();
  const sink = options.onDecision;
  const decisions: Decision[] = [];
  const setAside: SetAside[] = [];
  const notes: Record<string, number> = {
    samples: scored.length,
    noAnswer: 0,
    partialCounted: 0,
    scoredWithError: 0,
    setAside: 0,
  };
  for (let i = 0; i < scored.length; i++) {
    const x = scored[i];
    scored[i] = RELEASED;
    const taskId = String(x.id);
    const trial = x.epoch - 1;
    const at = () => sampleAt(where, x.id, x.epoch);
    const outcome = outcomeOf(x.verdict, x, at);
    if (x.verdict === null || x.verdict === "unscored") {
      notes.setAside++;
      setAside.push({
        taskId,
        trial,
        outcome,
        reason: x.verdict === "unscored"
          ? `scores.${scorer}.value is NaN (inspect's unscored value)`
          : x.error !== undefined && x.error !== null
          ? "error and no score"
          : `limit ${(x.limit as Json).type} and no score`,
      });
      continue;
    }
    if (x.error !== undefined && x.error !== null) notes.scoredWithError++;
    if (
      x.score !== null && (x.score.value === "P" ||
        (typeof x.score.value === "number" && x.score.value > 0 &&
          x.score.value < 1))
    ) notes.partialCounted++;
    const severity = rethrown<Severity>(x.severity);
    const cluster = rethrown<string | undefined>(x.cluster);
    const group = x.group;
    const candidates: PCorrectCandidate[] = [];
    if (group !== null && group.length >= 2) {
      const answered = group.every((g) => g !== undefined);
      candidates.push({
        source: `agreement@${group.length}` as PCorrectSource,
        value: answered && x.answer !== undefined
          ? group.filter((g) => g === x.answer).length / group.length
          : null,
      });
    }
    candidates.push({
      source: "logprob-token",
      value: rethrown<number | null>(x.tokenProbability),
    });
    const from = options.pcorrectFrom;
    if (from !== undefined && from.startsWith("score-metadata:")) {
      const key = from.slice("score-metadata:".length);
      const meta = x.score?.metadata;
      const v = isObject(meta) ? meta[key] : undefined;
      if (v !== undefined && v !== null && typeof v !== "number") {
        throw new InputTypeError(
          `${at()}: scores.${scorer}.metadata.${key} must be a number in [0, 1], got ${
            show(v)
          }`,
        );
      }
      candidates.push({
        source: from as PCorrectSource,
        value: (v as number | null | undefined) ?? null,
      });
    }
    let picked;
    try {
      picked = pickPCorrect(candidates, from);
    } catch (error) {
      throw new InputRangeError(`${at()}: ${(error as Error).message}`);
    }
    const usageAll = x.usage;
    if (usageAll !== undefined && usageAll !== null && !isObject(usageAll)) {
      throw new InputTypeError(
        `${at()}: model_usage must be an object, got ${show(usageAll)}`,
      );
    }
    const usage = isObject(usageAll) && isObject(usageAll[head.model])
      ? usageAll[head.model] as Json
      : null;
    const u = () => `${at()}: model_usage[${JSON.stringify(head.model)}]`;
    const d: Record<string, unknown> = {
      runId: head.runId,
      modelId: head.model,
      taskId,
      trial,
      severity,
      trueClass: VERDICT_CORRECT,
      predClass: x.verdict === "correct"
        ? VERDICT_CORRECT
        : x.verdict === "incorrect"
        ? VERDICT_INCORRECT
        : VERDICT_NO_ANSWER,
      parseOk: x.verdict !== "no_answer",
      pCorrect: picked.value,
      pCorrectSource: picked.source,
      action: "auto",
      cost: costOf(usage, u),
      outcome,
    };
    if (x.verdict === "no_answer") notes.noAnswer++;
    if (usage !== null) {
      d.tokensIn = count(usage.input_tokens ?? 0, () => `${u()}.input_tokens`) +
        optionalCount(
          usage.input_tokens_cache_read,
          () => `${u()}.input_tokens_cache_read`,
        ) +
        optionalCount(
          usage.input_tokens_cache_write,
          () => `${u()}.input_tokens_cache_write`,
        );
      d.tokensOut = count(
        usage.output_tokens ?? 0,
        () => `${u()}.output_tokens`,
      );
    }
    const t = x.totalTime;
    if (t !== undefined && t !== null) {
      if (typeof t !== "number" || !Number.isFinite(t) || t < 0) {
        throw new InputRangeError(
          `${at()}: total_time must be a finite number of seconds >= 0, got ${
            show(t)
          }`,
        );
      }
      d.latencyMs = t * 1000;
    }
    if (x.answer !== undefined) d.answer = x.answer;
    const target = text(x.target);
    if (target !== undefined) d.target = target;
    if (cluster !== undefined) d.cluster = cluster;
    if (sink === undefined) decisions.push(d as unknown as Decision);
    else sink(d as unknown as Decision);
  }
  const messages: string[] = [];
  if (scorer !== null) messages.push(`scorer: ${scorer}`);
  if (setAside.length > 0) {
    const shown = setAside.slice(0, 5).map((a) =>
      `${a.taskId}/${a.trial + 1} ${a.outcome} (${a.reason})`
    );
    messages.push(
      `set aside ${setAside.length} unscored sample${
        setAside.length > 1 ? "s" : ""
      } (not decisions, not wrong answers): ${shown.join("; ")}${
        setAside.length > 5 ? "; ..." : ""
      }`,
    );
  }
  return { decisions, notes, messages, setAside, completeness };
}

/**
 * Parse an inspect_ai `.json` log (`EvalLog` with its `samples`).
 *
 * @param text The log's text (bare `NaN` allowed, repeated keys refused).
 * @param options As {@linkcode inspectDecisions}, and `file` for messages.
 * @returns As {@linkcode inspectDecisions}.
 * @throws {SyntaxError} For unparseable JSON; as {@linkcode inspectDecisions}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseInspectJsonLog } from "./inspect.ts";
 *
 * const text = '{"version": 2, "status": "success", "eval": {"run_id": "r", "model": "m"}, ' +
 *   '"samples": [{"id": 7, "epoch": 1, "target": "A", "scores": {"s": {"value": NaN}}}]}';
 * const r = parseInspectJsonLog(text, { severityOf: () => "LOW" });
 * assert.equal(r.decisions.length, 0);
 * assert.equal(r.setAside![0].outcome, "grader_failure");
 * ```
 */
export function parseInspectJsonLog(
  text: string,
  options: InspectOptions & { file?: string },
): HarnessImportResult {
  const file = options.file ?? "<inline>";
  const log = parseJsonStrict(text, { file, nonFinite: true });
  if (!isObject(log)) {
    throw new InputTypeError(
      `Cannot import inspect log ${file}: expected a JSON object`,
    );
  }
  const samples = log.samples ?? [];
  if (!Array.isArray(samples)) {
    throw new InputTypeError(
      `Cannot import inspect log ${file}: samples must be an array, got ${
        show(samples)
      }`,
    );
  }
  return inspectDecisions(
    log,
    samples.map((value, i) => {
      if (!isObject(value)) {
        throw new InputTypeError(
          `Cannot import inspect log ${file}: samples[${i}] must be an object`,
        );
      }
      return { value, source: `samples[${i}]` };
    }),
    file,
    options,
  );
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function isInspectJsonHead(head: Uint8Array): boolean {
  const t = new TextDecoder().decode(head.subarray(0, 4096)).replace(
    /^\uFEFF/,
    "",
  );
  return /^\s*\{\s*"version"\s*:\s*\d+\s*,\s*"status"\s*:\s*"/.test(t);
}

/**
 * Whether an input is an inspect_ai log: a `.eval` zip archive, or a JSON
 * document that opens as inspect writes its logs (`{"version": N,
 * "status": ...`).
 *
 * @param input From `detectInput`.
 * @returns `true` for an inspect log.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isInspectLog } from "./inspect.ts";
 *
 * const head = new TextEncoder().encode('{\n  "version": 2,\n  "status": "success",\n  "eval": {');
 * assert.equal(isInspectLog({ path: "a.json", isDirectory: false, head }), true);
 * assert.equal(isInspectLog({ path: "b.json", isDirectory: false, head: new TextEncoder().encode('{"run": "x"}') }), false);
 * ```
 */
export function isInspectLog(input: DetectInput): boolean {
  if (input.isDirectory) return false;
  if (/\.eval$/i.test(input.path)) {
    return ZIP_MAGIC.every((b, i) => input.head[i] === b);
  }
  return isInspectJsonHead(input.head);
}

/**
 * Read an inspect_ai log file, `.eval` or `.json` (by content: a zip
 * archive or JSON).
 *
 * @param path The log.
 * @param options As {@linkcode inspectDecisions}.
 * @returns As {@linkcode inspectDecisions}.
 * @throws As `loadInspectEvalLog` (inspect_eval.ts) and {@linkcode parseInspectJsonLog}; `Deno.errors.NotFound`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadInspectLog } from "./inspect.ts";
 *
 * const r = await loadInspectLog("data/examples/harness/inspect_qwen.eval", { severityOf: () => "HIGH" });
 * assert.ok(r.decisions.length > 0);
 * ```
 */
export async function loadInspectLog(
  path: string,
  options: InspectOptions,
): Promise<HarnessImportResult> {
  const head = new Uint8Array(ZIP_MAGIC.length);
  {
    using f = await Deno.open(path, { read: true });
    for (let n = 0; n < head.length;) {
      const got = await f.read(head.subarray(n));
      if (got === null) break;
      n += got;
    }
  }
  if (ZIP_MAGIC.every((b, i) => head[i] === b)) {
    // the zip reader and its decompressors load only for a .eval log, which
    // is read an entry at a time, not whole
    const { loadInspectEvalLog } = await importLater<
      typeof import("./inspect_eval.ts")
    >(new URL("./inspect_eval.ts", import.meta.url));
    return loadInspectEvalLog(path, options);
  }
  const bytes = await Deno.readFile(path);
  return parseInspectJsonLog(decodeUtf8Strict(bytes, path), {
    ...options,
    file: path,
  });
}

/** The inspect_ai entry of the harness importer table. */
export const inspectImporter: HarnessImporter = {
  format: "inspect",
  flags: ["scorer", "partial", "maxEntryBytes", "maxEntryRatio"],
  metadataPaths: ["metadata"],
  detect: isInspectLog,
  import: loadInspectLog,
};
