/**
 * Importer for promptfoo results files (`promptfoo eval --output
 * results.json`), results version 3.
 *
 * @module
 */

import type {
  DetectInput,
  HarnessImporter,
  HarnessImportResult,
  SetAside,
} from "./harness.ts";
import {
  type ClusterResolver,
  countPCorrectSources,
  describePCorrectSources,
  pickPCorrect,
  type SeverityResolver,
} from "./mapping.ts";
import { parseJsonStrict } from "../_json.ts";
import {
  handOver,
  type HarnessDecision,
  harnessDecision,
  isObject,
  show,
  type Verdict,
} from "./_harness_record.ts";
import type { CostEvidence } from "../evidence/cost_evidence.ts";
import { InputRangeError, InputTypeError } from "../input_error.ts";
import { tupleKey } from "../_tuple_key.ts";

/** promptfoo's `failureReason` for a result that errored (no graded answer). */
const FAILURE_ERROR = 2;

/** Options for {@linkcode parsePromptfooResults}. */
export interface PromptfooOptions {
  /** Resolves each decision's severity (from the shared mapping module). */
  severityOf: SeverityResolver;
  /** Resolves each decision's cluster (`--cluster PATH`). Default: none, the decisions name no cluster. */
  clusterOf?: ClusterResolver;
  /**
   * `--correct TYPE[,TYPE]`: the assertion types that mean "correct"
   * (required: `success` also fails on cost and latency assertions).
   */
  correct: readonly string[];
  /** File path shown in errors. Default: `"<inline>"`. */
  path?: string;
  /** `--pcorrect-from`: `logprob-token` or `none`. Default: `logprob-token` where logprobs exist. */
  pcorrectFrom?: string;
}

interface Component {
  readonly type: string;
  readonly pass: boolean;
  readonly value: unknown;
}

/** Every graded assertion of a result, assert-sets opened, in order. */
function components(
  grading: Record<string, unknown>,
  at: string,
  out: Component[] = [],
  field = "gradingResult",
): Component[] {
  const list = grading.componentResults;
  if (list === undefined || list === null) return out;
  if (!Array.isArray(list)) {
    throw new InputTypeError(
      `${at}: ${field}.componentResults must be a list, got ${show(list)}`,
    );
  }
  list.forEach((c, k) => {
    const f = `${field}.componentResults[${k}]`;
    if (!isObject(c)) throw new InputTypeError(`${at}: ${f} must be an object`);
    const assertion = isObject(c.assertion) ? c.assertion : null;
    if (assertion !== null && typeof assertion.type === "string") {
      if (typeof c.pass !== "boolean") {
        throw new InputTypeError(
          `${at}: ${f}.pass must be true or false, got ${show(c.pass)}`,
        );
      }
      out.push({ type: assertion.type, pass: c.pass, value: assertion.value });
    }
    if (Array.isArray(c.componentResults)) components(c, at, out, f);
  });
  return out;
}

function nonNegative(
  value: unknown,
  at: string,
  field: string,
  int: boolean,
): number {
  if (
    typeof value !== "number" || !Number.isFinite(value) || value < 0 ||
    (int && !Number.isInteger(value))
  ) {
    throw new InputRangeError(
      `${at}: ${field} must be ${int ? "an integer" : "a number"} >= 0, got ${
        show(value)
      }`,
    );
  }
  return value;
}

/**
 * Parse a promptfoo results file (version 3) into decisions, one per result
 * (test × prompt × provider).
 *
 * Correctness comes from the assertions whose type `correct` names: a result
 * is correct when every one of them passed, whatever its cost or latency
 * assertions said (`success` mixes the three). A result with none of them is
 * refused. A result that errored (`failureReason` 2) with no grading has no
 * verdict: it is set aside as a `harness_failure` (counted and named, never a
 * decision and never a wrong answer). The task id is
 * `testIdx`, and `<testIdx>/<k>` when the file holds several prompts, `k`
 * being the prompt's place among the file's distinct prompts (promptfoo's
 * `promptIdx` counts provider × prompt pairs, so two providers of one prompt
 * still pair on one task id). The model is `provider.id`, the run `evalId`;
 * cost is the result's `cost` in USD (`complete`; `unavailable` when
 * absent), tokens `response.tokenUsage`
 * (`prompt`, `completion`), latency `latencyMs`. `pCorrect` is the
 * probability of the output, the exponential of the sum of
 * `response.logProbs` (source `logprob-token`), or `null` without logprobs
 * (all zeros count as none).
 *
 * @param text The file's text.
 * @param options Severity resolver, the correct assertion types, path.
 * @returns Decisions, counts, and messages saying what was read.
 * @throws {SyntaxError} For text that is not JSON.
 * @throws {TypeError} For another results version, or a field of the wrong shape.
 * @throws {RangeError} For an empty `correct`, a result without those assertions, or a repeated result.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePromptfooResults } from "./promptfoo.ts";
 *
 * const result = {
 *   promptIdx: 0, testIdx: 0, promptId: "p", provider: { id: "openai:gpt-4o-mini" },
 *   response: { output: "DUPLICATE", tokenUsage: { prompt: 40, completion: 3 } },
 *   failureReason: 1, success: false, score: 0.5, latencyMs: 2100, cost: 0.00003,
 *   gradingResult: { pass: false, score: 0.5, reason: "", componentResults: [
 *     { pass: true, score: 1, reason: "", assertion: { type: "equals", value: "DUPLICATE" } },
 *     { pass: false, score: 0, reason: "", assertion: { type: "latency", threshold: 1500 } },
 *   ] },
 * };
 * const text = JSON.stringify({ evalId: "e1", results: { version: 3, results: [result], prompts: [] } });
 * const { decisions } = parsePromptfooResults(text, { correct: ["equals"], severityOf: () => "HIGH" });
 * // success is false (too slow), but the answer is right
 * assert.equal(decisions[0].predClass, "verdict:correct");
 * assert.deepEqual(decisions[0].cost, { completeness: "complete", usd: 0.00003 });
 * ```
 */
export function parsePromptfooResults(
  text: string,
  options: PromptfooOptions,
): HarnessImportResult {
  const path = options.path ?? "<inline>";
  const where = `Cannot load promptfoo results ${path}`;
  const correctTypes = new Set(options.correct);
  if (correctTypes.size === 0) {
    throw new InputRangeError(
      `${where}: --correct TYPE[,TYPE] is required: promptfoo's success also fails on cost and latency assertions, so name the assertion types that mean correct (for example equals)`,
    );
  }
  const doc = parseJsonStrict(text, { file: path, nonFinite: true });
  if (!isObject(doc)) {
    throw new InputTypeError(`${where}: expected a JSON object`);
  }
  const evalId = doc.evalId;
  if (typeof evalId !== "string" || evalId === "") {
    throw new InputTypeError(
      `${where}: evalId must be a non-empty string, got ${show(evalId)}`,
    );
  }
  const summary = doc.results;
  if (!isObject(summary)) {
    throw new InputTypeError(
      `${where}: results must be an object (the eval summary), got ${
        show(summary)
      }`,
    );
  }
  if (summary.version !== 3) {
    throw new InputTypeError(
      `${where}: results.version must be 3 (promptfoo's results format read here), got ${
        show(summary.version)
      }`,
    );
  }
  const results = summary.results;
  if (!Array.isArray(results)) {
    throw new InputTypeError(
      `${where}: results.results must be a list, got ${show(results)}`,
    );
  }

  // A prompt's identity: promptId, else its raw text.
  const promptKey = (r: Record<string, unknown>): string | null =>
    typeof r.promptId === "string"
      ? r.promptId
      : isObject(r.prompt) && typeof r.prompt.raw === "string"
      ? `raw:${r.prompt.raw}`
      : null;
  const promptOrder = new Map<string, number>();
  const listed = Array.isArray(summary.prompts) ? summary.prompts : [];
  for (const p of listed) {
    if (isObject(p) && typeof p.id === "string" && !promptOrder.has(p.id)) {
      promptOrder.set(p.id, promptOrder.size);
    }
  }
  results.forEach((r) => {
    const k = isObject(r) ? promptKey(r) : null;
    if (k !== null && !promptOrder.has(k)) promptOrder.set(k, promptOrder.size);
  });
  const seenPrompts = new Set(
    results.map((r) => (isObject(r) ? promptKey(r) : null)),
  );
  const severalPrompts = seenPrompts.size > 1;

  const decisions: HarnessDecision[] = [];
  const notes: Record<string, number> = {};
  const seen = new Map<string, number>();
  const setAside: SetAside[] = [];
  results.forEach((r, i) => {
    const pre = `${where}: results.results[${i}]`;
    if (!isObject(r)) throw new InputTypeError(`${pre}: expected an object`);
    const testIdx = r.testIdx;
    if (
      typeof testIdx !== "number" || !Number.isInteger(testIdx) || testIdx < 0
    ) {
      throw new InputTypeError(
        `${pre}: testIdx must be an integer >= 0, got ${show(testIdx)}`,
      );
    }
    const at = `${pre} (testIdx ${testIdx})`;
    const provider = isObject(r.provider) ? r.provider.id : undefined;
    if (typeof provider !== "string" || provider === "") {
      throw new InputTypeError(
        `${at}: provider.id must be a non-empty string, got ${show(provider)}`,
      );
    }
    const pk = promptKey(r);
    if (severalPrompts && pk === null) {
      throw new InputTypeError(
        `${at}: the file has several prompts but this result names none (promptId or prompt.raw)`,
      );
    }
    const taskId = severalPrompts
      ? `${testIdx}/${promptOrder.get(pk!)}`
      : String(testIdx);
    const key = tupleKey([provider, taskId]);
    const first = seen.get(key);
    if (first !== undefined) {
      throw new InputRangeError(
        `${at}: repeats results.results[${first}] (same provider, prompt and testIdx)`,
      );
    }
    seen.set(key, i);

    const response = isObject(r.response) ? r.response : null;
    const grading = isObject(r.gradingResult) ? r.gradingResult : null;
    let verdict: Verdict;
    let target: string | undefined;
    if (grading === null && r.failureReason === FAILURE_ERROR) {
      // An errored call has no verdict: not a decision, not a wrong answer.
      const error = typeof r.error === "string" ? r.error : "error";
      setAside.push({
        taskId,
        trial: 0,
        outcome: "harness_failure",
        reason: `${provider}: ${
          error.length > 120 ? `${error.slice(0, 117)}...` : error
        }`,
      });
      return;
    } else {
      if (grading === null) {
        throw new InputTypeError(
          `${at}: gradingResult is missing, and failureReason ${
            show(r.failureReason)
          } is not an error`,
        );
      }
      const all = components(grading, at);
      const named = all.filter((c) => correctTypes.has(c.type));
      if (named.length === 0) {
        throw new InputRangeError(
          `${at}: gradingResult.componentResults has no assertion of type ${
            [...correctTypes].join(" or ")
          } (--correct); it has ${
            [...new Set(all.map((c) => c.type))].join(", ") || "none"
          }`,
        );
      }
      verdict = named.every((c) => c.pass) ? "correct" : "incorrect";
      const value = named[0].value;
      if (typeof value === "string") target = value;
    }

    const usage = response !== null && isObject(response.tokenUsage)
      ? response.tokenUsage
      : null;
    const tokensIn = usage?.prompt === undefined
      ? undefined
      : nonNegative(usage.prompt, at, "response.tokenUsage.prompt", true);
    const tokensOut = usage?.completion === undefined ? undefined : nonNegative(
      usage.completion,
      at,
      "response.tokenUsage.completion",
      true,
    );
    let cost: CostEvidence;
    if (r.cost === undefined || r.cost === null) {
      cost = { completeness: "unavailable", usd: null };
    } else {
      cost = {
        completeness: "complete",
        usd: nonNegative(r.cost, at, "cost", false),
      };
    }
    const latencyMs = r.latencyMs === undefined
      ? undefined
      : nonNegative(r.latencyMs, at, "latencyMs", false);

    let value: number | null = null;
    const lp = response?.logProbs;
    if (lp !== undefined && lp !== null) {
      if (
        !Array.isArray(lp) || !lp.every((x) => typeof x === "number" && x <= 0)
      ) {
        throw new InputTypeError(
          `${at}: response.logProbs must be a list of log-probabilities (numbers <= 0), got ${
            show(lp)
          }`,
        );
      }
      if (lp.length > 0 && lp.some((x) => x < 0)) {
        value = Math.exp(lp.reduce((s, x) => s + x, 0));
      }
    }
    let answer: string | undefined;
    const output = response?.output;
    if (typeof output === "string") answer = output;
    else if (output !== undefined && output !== null) {
      answer = JSON.stringify(output);
    }

    decisions.push(harnessDecision({
      runId: evalId,
      modelId: provider,
      taskId,
      trial: 0,
      severity: options.severityOf({ taskId, record: r }, at),
      cluster: options.clusterOf?.({ taskId, record: r }, at),
      verdict,
      pCorrect: pickPCorrect(
        [{ source: "logprob-token", value }],
        options.pcorrectFrom,
      ),
      cost,
      answer,
      target,
      tokensIn,
      tokensOut,
      latencyMs,
    }));
  });
  if (setAside.length > 0) notes.setAside = setAside.length;
  const shown = setAside.slice(0, 5).map((a) =>
    `test ${a.taskId} ${a.outcome} (${a.reason})`
  );
  return {
    decisions,
    notes,
    setAside,
    completeness: {
      status: null,
      samplesExpected: null,
      samplesRead: decisions.length + setAside.length,
      missing: [],
    },
    messages: [
      `promptfoo ${evalId}: correct when every ${
        [...correctTypes].join(", ")
      } assertion passed${
        severalPrompts
          ? `; ${seenPrompts.size} prompts, task id testIdx/prompt`
          : ""
      }`,
      ...(setAside.length > 0
        ? [
          `set aside ${setAside.length} errored call${
            setAside.length > 1 ? "s" : ""
          } (not decisions, not wrong answers): ${shown.join("; ")}${
            setAside.length > 5 ? "; ..." : ""
          }`,
        ]
        : []),
      describePCorrectSources(countPCorrectSources(decisions)),
    ],
  };
}

/**
 * Read a promptfoo results file.
 *
 * @param path The `results.json` written by `promptfoo eval --output`.
 * @param options As {@linkcode parsePromptfooResults}, without `path`.
 * @returns As {@linkcode parsePromptfooResults}.
 * @throws As {@linkcode parsePromptfooResults}, and `Deno.errors.NotFound`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadPromptfooResults } from "./promptfoo.ts";
 *
 * const { decisions } = await loadPromptfooResults(
 *   "data/examples/harness/promptfoo_results.json",
 *   { correct: ["equals"], severityOf: () => "MEDIUM" },
 * );
 * assert.ok(decisions.every((d) => d.modelId === "openai:gpt-4o-mini"));
 * ```
 */
export async function loadPromptfooResults(
  path: string,
  options: Omit<PromptfooOptions, "path">,
): Promise<HarnessImportResult> {
  return parsePromptfooResults(await Deno.readTextFile(path), {
    ...options,
    path,
  });
}

/**
 * Whether an input looks unmistakably like a promptfoo results file: a JSON
 * object whose first key is `evalId`, with a `results` summary that has a
 * `version`.
 *
 * @param input What detection sees of the input.
 * @returns `true` for a promptfoo results file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectPromptfoo } from "./promptfoo.ts";
 *
 * const head = new TextEncoder().encode('{\n  "evalId": "e1",\n  "results": {\n    "version": 3,');
 * assert.equal(detectPromptfoo({ path: "r.json", isDirectory: false, head }), true);
 * ```
 */
export function detectPromptfoo(input: DetectInput): boolean {
  if (input.isDirectory) return false;
  const text = new TextDecoder().decode(input.head);
  return /^\s*\{\s*"evalId"\s*:/.test(text) &&
    /"results"\s*:\s*\{\s*"version"\s*:/.test(text);
}

/** The promptfoo importer, for the harness registry. */
export const promptfooImporter: HarnessImporter = {
  format: "promptfoo",
  flags: ["correct"],
  metadataPaths: ["testCase.metadata", "vars", "metadata"],
  detect: detectPromptfoo,
  import: (path, options) => {
    if (options.correct === undefined) {
      return Promise.reject(
        new InputTypeError(
          `Cannot load promptfoo results ${path}: --correct TYPE[,TYPE] is required: promptfoo's success also fails on cost and latency assertions, so name the assertion types that mean correct (for example equals)`,
        ),
      );
    }
    return loadPromptfooResults(path, {
      severityOf: options.severityOf,
      clusterOf: options.clusterOf,
      pcorrectFrom: options.pcorrectFrom,
      correct: options.correct,
    }).then((result) => handOver(result, options));
  },
};
