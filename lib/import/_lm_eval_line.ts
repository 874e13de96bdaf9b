// Private: one line of an lm-evaluation-harness samples file, read, checked
// and scored on its own (lm_eval.ts, and the workers of
// _lm_eval_worker.ts, which read a large file's segments in parallel). What
// depends on other lines (a repeated doc_id, the filter chosen) and the
// resolvers of severity and cluster stay with the reader in lm_eval.ts.

import type { LmEvalOutputType } from "./lm_eval.ts";
import { parseJsonStrict } from "../_json.ts";
import {
  argmax,
  binaryValue,
  isObject,
  pythonNumber,
  show,
  softmaxAt,
} from "./_harness_record.ts";
import { InputRangeError, InputTypeError } from "../input_error.ts";
import {
  type ByteRange,
  decodeLine,
  jsonlByteLines,
} from "../read/_jsonl_lines.ts";

/** The metrics under which a multiple-choice `pCorrect` is defined, and how option scores are normalised. */
const MC_SCORING: Readonly<Record<string, "none" | "chars" | "bytes">> = {
  acc: "none",
  acc_norm: "chars",
  acc_bytes: "bytes",
};

export interface Line {
  readonly no: number;
  readonly sample: Record<string, unknown>;
  readonly docId: number;
  readonly filter: string;
}

/** Code points, as Python's `len` counts them. */
function chars(s: string): number {
  return [...s].length;
}

// log-likelihoods above 0 up to this are floating-point round-off of 0
export const ROUNDOFF = 1e-6;

function optionPairs(
  resps: unknown[],
  at: string,
): { ll: number[]; greedy: boolean[]; roundedOff: number } | null {
  if (
    resps.length === 0 ||
    !resps.every((r) => Array.isArray(r) && r.length === 2)
  ) return null;
  const ll: number[] = [];
  const greedy: boolean[] = [];
  let roundedOff = 0;
  resps.forEach((r, k) => {
    const [l, g] = r as unknown[];
    ll.push(pythonNumber(l, `${at}: filtered_resps[${k}][0]`));
    if (g === "True" || g === true) greedy.push(true);
    else if (g === "False" || g === false) greedy.push(false);
    else {
      throw new InputTypeError(
        `${at}: filtered_resps[${k}][1] must be "True" or "False" (is_greedy), got ${
          show(g)
        }`,
      );
    }
    if (Number.isNaN(ll[k]) || ll[k] > ROUNDOFF) {
      throw new InputRangeError(
        `${at}: filtered_resps[${k}][0] must be a log-likelihood (<= 0 or -inf), got ${
          show(l)
        }`,
      );
    }
    if (ll[k] > 0) {
      ll[k] = 0;
      roundedOff++;
    }
  });
  return { ll, greedy, roundedOff };
}

function continuations(sample: Record<string, unknown>, at: string): string[] {
  const args = sample.arguments;
  if (!isObject(args)) {
    throw new InputTypeError(
      `${at}: arguments must be an object {gen_args_0: {arg_0, arg_1}, ...}, got ${
        show(args)
      }`,
    );
  }
  const out: string[] = [];
  for (let i = 0; Object.hasOwn(args, `gen_args_${i}`); i++) {
    const a = args[`gen_args_${i}`];
    const cont = isObject(a) ? a.arg_1 : undefined;
    if (typeof cont !== "string") {
      throw new InputTypeError(
        `${at}: arguments.gen_args_${i}.arg_1 (the option's continuation) must be a string, got ${
          show(cont)
        }`,
      );
    }
    out.push(cont);
  }
  return out;
}

/** Line `no` of a samples file, read and checked; null for a blank line. */
export function sampleLine(
  raw: string,
  no: number,
  where: string,
): Line | null {
  if (raw.trim() === "") return null;
  const at = `${where}: line ${no}`;
  const sample = parseJsonStrict(raw, { file: at, nonFinite: true });
  if (!isObject(sample)) {
    throw new InputTypeError(`${at}: expected a JSON object`);
  }
  const docId = sample.doc_id;
  if (typeof docId !== "number" || !Number.isInteger(docId) || docId < 0) {
    throw new InputTypeError(
      `${at}: doc_id must be an integer >= 0, got ${show(docId)}`,
    );
  }
  const filter = sample.filter;
  if (typeof filter !== "string") {
    throw new InputTypeError(
      `${at} (doc_id ${docId}): filter must be a string, got ${show(filter)}`,
    );
  }
  return { no, sample, docId, filter };
}

/**
 * The lines of a samples file, or of `range` of it, each decoded strictly
 * and read by {@linkcode sampleLine}, to `onLine` in file order, numbered
 * after `linesBefore`; blank lines are counted, not given. Line by line,
 * so that the first line that fails in file order throws, invalid UTF-8
 * among them. Returns the number of the range's last line.
 */
export async function readSampleLines(
  path: string,
  where: string,
  range: ByteRange,
  linesBefore: number,
  onLine: (line: Line) => void,
): Promise<number> {
  let last = linesBefore;
  await jsonlByteLines(
    path,
    { chunkSize: 1 << 20 },
    (bytes, start, end, local, offset) => {
      last = linesBefore + local;
      const text = decodeLine(bytes.subarray(start, end), where, last, offset);
      const line = sampleLine(text, last, where);
      if (line !== null) onLine(line);
    },
    undefined,
    range,
  );
  return last;
}

/** The error prefix of a line's decision: file, line, doc_id and filter. */
export function lineWhere(where: string, line: Line): string {
  return `${where}: line ${line.no} (doc_id ${line.docId}, filter ${
    JSON.stringify(line.filter)
  })`;
}

/** What scoring a line needs from its run and the reader's options. */
export interface LineContext {
  /** `--metric`, or undefined for each line's first metric. */
  readonly metric: string | undefined;
  /** The task's output type from the results file, or null to tell from the line. */
  readonly outputType: LmEvalOutputType | null;
  /** The task's target delimiter (results file), stripped from continuations. */
  readonly targetDelimiter: string;
}

/** A line's verdict, its probability and what kind of line it was. */
export interface ScoredLine {
  /** The metric read for correctness. */
  readonly metric: string;
  /** Whether the metric says correct. */
  readonly correct: boolean;
  /** The logged target, as text. */
  readonly target: string | undefined;
  /** The chosen option's text, or the generated text. */
  readonly answer: string | undefined;
  /** P(correct) from the option log-likelihoods, or null. */
  readonly pValue: number | null;
  /** The note this line counts under (multipleChoice, generation, …). */
  readonly kind: string;
  /** Positive log-likelihoods read as 0 (round-off). */
  readonly roundedOff: number;
}

/**
 * Score one line under `context`; `at` is its error prefix (file, line,
 * doc_id and filter).
 */
export function scoreLine(
  { sample }: Line,
  context: LineContext,
  at: string,
): ScoredLine {
  const names = sample.metrics;
  if (
    !Array.isArray(names) || !names.every((n) => typeof n === "string")
  ) {
    throw new InputTypeError(
      `${at}: metrics must be a list of metric names, got ${show(names)}`,
    );
  }
  const metric = context.metric ?? names[0];
  if (metric === undefined) {
    throw new InputTypeError(`${at}: metrics is empty; give --metric NAME`);
  }
  if (!Object.hasOwn(sample, metric)) {
    throw new InputTypeError(
      `${at}: ${metric} is missing (the sample has metrics ${
        names.join(", ") || "none"
      })`,
    );
  }
  const correct = binaryValue(sample[metric], `${at}: ${metric}`);
  const resps = sample.filtered_resps;
  if (!Array.isArray(resps)) {
    throw new InputTypeError(
      `${at}: filtered_resps must be a list, got ${show(resps)}`,
    );
  }
  const target = sample.target === undefined
    ? undefined
    : typeof sample.target === "string"
    ? sample.target
    : JSON.stringify(sample.target);
  const pairs = optionPairs(resps, at);
  let shape: LmEvalOutputType;
  if (context.outputType !== null) shape = context.outputType;
  else if (pairs !== null) {
    shape = pairs.ll.length > 1 ? "multiple_choice" : "loglikelihood";
  } else if (resps.length === 1 && typeof resps[0] === "string") {
    shape = "generate_until";
  } else {
    throw new InputTypeError(
      `${at}: filtered_resps has neither option log-likelihoods nor one generated text, got ${
        show(resps)
      }`,
    );
  }
  let answer: string | undefined;
  let kind: string;
  let pValue: number | null = null;
  if (shape === "multiple_choice") {
    if (pairs === null) {
      throw new InputTypeError(
        `${at}: filtered_resps must hold one [log-likelihood, is_greedy] pair per option, got ${
          show(resps)
        }`,
      );
    }
    let conts = continuations(sample, at);
    let ll = pairs.ll;
    if (
      names.includes("acc_mutual_info") && ll.length % 2 === 0 &&
      conts.length === ll.length
    ) {
      // lm-eval appends the unconditional log-likelihoods after the options.
      ll = ll.slice(0, ll.length / 2);
      conts = conts.slice(0, conts.length / 2);
    }
    if (conts.length !== ll.length) {
      throw new InputRangeError(
        `${at}: arguments has ${conts.length} options but filtered_resps ${ll.length}`,
      );
    }
    const delim = context.targetDelimiter;
    const choices = conts.map((c) =>
      delim !== "" && c.startsWith(delim) ? c.slice(delim.length) : c
    );
    const multipleInput = new Set(conts).size === 1 && conts.length > 1;
    const norm = MC_SCORING[metric];
    let scores: number[] | null = null;
    if (norm === "none") scores = ll;
    else if (norm !== undefined && !multipleInput) {
      const len = choices.map((c) =>
        norm === "chars" ? chars(c) : new TextEncoder().encode(c).length
      );
      if (len.some((n) => n === 0)) {
        throw new InputRangeError(
          `${at}: an option's continuation is empty, so ${metric} cannot divide by its length`,
        );
      }
      scores = ll.map((l, k) => l / len[k]);
    }
    if (scores === null) {
      kind = "multipleChoiceWithoutPCorrect";
    } else {
      const pred = argmax(scores);
      if (!multipleInput) {
        answer = choices[pred];
        // The logged target is str(doc_to_target): an option index or an
        // option's text. Digits that are also an option's text could be
        // either, so they are not checked.
        const asIndex = target !== undefined && /^\d+$/.test(target) &&
          Number(target) < choices.length;
        const asText = target === undefined ? -1 : choices.indexOf(target);
        if (
          target !== undefined && /^\d+$/.test(target) && !asIndex &&
          asText < 0
        ) {
          throw new InputRangeError(
            `${at}: target ${target} is outside the ${choices.length} options (indices 0 to ${
              choices.length - 1
            })`,
          );
        }
        const gold = asIndex && asText >= 0
          ? -1
          : asIndex
          ? Number(target)
          : asText;
        if (gold >= 0 && (pred === gold) !== correct) {
          throw new InputRangeError(
            `${at}: ${metric} is ${
              correct ? 1 : 0
            } but the highest-scoring option is ${pred} and the target is option ${gold}; the log contradicts itself`,
          );
        }
      }
      // Every option at -inf leaves no distribution to read.
      pValue = Number.isFinite(Math.max(...scores))
        ? softmaxAt(scores, pred)
        : null;
      kind = "multipleChoice";
    }
  } else if (shape === "generate_until") {
    const out = resps[0];
    if (resps.length !== 1 || typeof out !== "string") {
      throw new InputTypeError(
        `${at}: filtered_resps of a generation task must be one text, got ${
          show(resps)
        }`,
      );
    }
    answer = out;
    kind = "generation";
  } else {
    kind = shape;
  }
  return {
    metric,
    correct,
    target,
    answer,
    pValue,
    kind,
    roundedOff: pairs?.roundedOff ?? 0,
  };
}

/**
 * The paths a record is rebuilt from: `paths` less those inside another's
 * value (which that value holds).
 */
export function outerPaths(
  paths: readonly (readonly string[])[],
): (readonly string[])[] {
  const within = (p: readonly string[], q: readonly string[]) =>
    q.length < p.length && q.every((k, i) => p[i] === k);
  return paths.filter((p) => !paths.some((q) => within(p, q)));
}

/**
 * The part of a sample that the resolvers read, rebuilt from the values at
 * its outer paths ({@linkcode outerPaths}; `undefined` for a path the
 * sample lacks), each at its path in plain objects: `valueAtPath` reads the
 * same from it as from the sample, at every path the resolvers read. No
 * path may hold `__proto__`, which an assignment does not make a key.
 */
export function recordOf(
  paths: readonly (readonly string[])[],
  values: readonly unknown[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  paths.forEach((path, j) => {
    const value = values[j];
    if (value === undefined) return;
    let node = out;
    path.forEach((key, i) => {
      const next = i === path.length - 1
        ? value
        : Object.hasOwn(node, key)
        ? node[key]
        : {};
      node[key] = next;
      node = next as Record<string, unknown>;
    });
  });
  return out;
}
