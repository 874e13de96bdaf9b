// Private: what the lm-eval, HELM and promptfoo importers share once a log
// item is parsed: the verdict a harness gave, turned into one Decision, and
// how numbers written by Python loggers are read.
import type { Severity } from "../costs/severity.ts";
import type { CostEvidence, FailureClass } from "../evidence/cost_evidence.ts";
import type { Decision } from "../decision/decision.ts";
import {
  VERDICT_CORRECT,
  VERDICT_INCORRECT,
  VERDICT_NO_ANSWER,
} from "../metrics/sufficient_stats.ts";
import type { PickedPCorrect } from "./mapping.ts";
import type { PCorrectSource } from "../decision/pcorrect_source.ts";
import { InputRangeError, InputTypeError } from "../input_error.ts";
import type { HarnessImportOptions, HarnessImportResult } from "./harness.ts";

/** The predicted classes of a harness decision, by verdict (the reserved verdict classes). */
const VERDICT_PRED = {
  correct: VERDICT_CORRECT,
  incorrect: VERDICT_INCORRECT,
  no_answer: VERDICT_NO_ANSWER,
} as const;

/** How a harness judged one answer. */
export type Verdict = keyof typeof VERDICT_PRED;

/** A Decision as the harness importers write it: with provenance and texts. */
export type HarnessDecision = Decision & {
  readonly pCorrectSource: PCorrectSource | null;
  readonly answer?: string;
  readonly target?: string;
  readonly cluster?: string;
};

/** One parsed harness item, before it becomes a Decision. */
export interface HarnessItem {
  readonly runId: string;
  readonly modelId: string;
  readonly taskId: string;
  readonly trial: number;
  readonly severity: Severity;
  readonly verdict: Verdict;
  readonly pCorrect: PickedPCorrect;
  readonly cost: CostEvidence;
  /** Default: `resolved` when correct, else `model_failure`. */
  readonly outcome?: FailureClass;
  readonly answer?: string;
  readonly target?: string;
  readonly tokensIn?: number;
  readonly tokensOut?: number;
  readonly latencyMs?: number;
  readonly cluster?: string;
}

/** The Decision of one parsed harness item; absent optional fields stay absent. */
export function harnessDecision(item: HarnessItem): HarnessDecision {
  return {
    runId: item.runId,
    modelId: item.modelId,
    taskId: item.taskId,
    trial: item.trial,
    severity: item.severity,
    trueClass: VERDICT_CORRECT,
    predClass: VERDICT_PRED[item.verdict],
    parseOk: item.verdict !== "no_answer",
    pCorrect: item.pCorrect.value,
    pCorrectSource: item.pCorrect.source,
    action: "auto",
    cost: item.cost,
    outcome: item.outcome ??
      (item.verdict === "correct" ? "resolved" : "model_failure"),
    ...(item.answer !== undefined ? { answer: item.answer } : {}),
    ...(item.target !== undefined ? { target: item.target } : {}),
    ...(item.tokensIn !== undefined ? { tokensIn: item.tokensIn } : {}),
    ...(item.tokensOut !== undefined ? { tokensOut: item.tokensOut } : {}),
    ...(item.latencyMs !== undefined ? { latencyMs: item.latencyMs } : {}),
    ...(item.cluster !== undefined ? { cluster: item.cluster } : {}),
  };
}

/**
 * A number a Python logger wrote, as a JSON number or as `str(float)`:
 * `"-1.25"`, `"-inf"`, `"1e-05"`. NaN and anything else are refused.
 */
export function pythonNumber(value: unknown, where: string): number {
  if (typeof value === "number" && !Number.isNaN(value)) return value;
  if (typeof value === "string") {
    // no surrounding spaces: Python's str(float) writes none
    const t = value;
    if (t === "inf" || t === "+inf") return Infinity;
    if (t === "-inf") return -Infinity;
    if (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t);
  }
  throw new InputTypeError(
    `${where} must be a number (or a number written as a string), got ${
      show(value)
    }`,
  );
}

/** A 0/1 correctness value: 1, 0, true or false; anything else is refused. */
export function binaryValue(value: unknown, where: string): boolean {
  if (value === true || value === 1) return true;
  if (value === false || value === 0) return false;
  throw new InputRangeError(
    `${where} must be 0 or 1 (or true/false) to say whether the answer is correct, got ${
      show(value)
    }`,
  );
}

/** A value shown in an error message, cut to 60 characters. */
export function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Whether a value is a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The softmax of scores at one index; -Infinity scores weigh 0. */
export function softmaxAt(scores: readonly number[], at: number): number {
  const max = Math.max(...scores);
  let total = 0;
  for (const s of scores) total += Math.exp(s - max);
  return Math.exp(scores[at] - max) / total;
}

/** The first index of the largest score (numpy's argmax). */
export function argmax(scores: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < scores.length; i++) {
    if (scores[i] > scores[best]) best = i;
  }
  return best;
}

/**
 * A result whose decisions were all made before it was returned, with its
 * decisions passed to `onDecision` where one is given (then the result's
 * `decisions` is empty): for an importer that makes them all at once.
 *
 * @param result The import's result.
 * @param options The import's options.
 * @returns The result, its decisions handed over where they go.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Decision } from "../decision/decision.ts";
 * import { handOver } from "./_harness_record.ts";
 *
 * const result = { decisions: [{ taskId: "a" } as Decision], notes: {}, messages: [],
 *   completeness: { status: null, samplesExpected: null, samplesRead: 1, missing: [] } };
 * const got: Decision[] = [];
 * assert.equal(handOver(result, { onDecision: (d) => got.push(d) }).decisions.length, 0);
 * assert.equal(got.length, 1);
 * assert.equal(handOver(result, {}), result);
 * ```
 */
export function handOver(
  result: HarnessImportResult,
  options: Pick<HarnessImportOptions, "onDecision">,
): HarnessImportResult {
  const sink = options.onDecision;
  if (sink === undefined) return result;
  for (const d of result.decisions) sink(d);
  return { ...result, decisions: [] };
}
