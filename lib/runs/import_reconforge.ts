/**
 * Importer for ReconForge per-task evaluation files: one JSON document per
 * run, `{ run, n, metrics, per_task: [...] }`.
 *
 * @module
 */

import { z } from "zod";
import { describeIssue } from "../_zod_issue.ts";
import { SEVERITIES } from "../costs/severity.ts";
import { CLEAN_CLASS, type Decision } from "./decision.ts";
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
} from "../input_error.ts";
import { readUtf8File, stripBom } from "./_utf8.ts";
import { refuseDuplicateKeys } from "../_json_keys.ts";
import { KnownKeys, type UnknownKeyOptions } from "./_known_keys.ts";

/** The predicted class of an exception verdict that names no exception type. */
export const UNTYPED_EXCEPTION = "EXCEPTION_UNTYPED";

const verdict = z.enum(["MATCH", "EXCEPTION"], {
  error: 'must be "MATCH" or "EXCEPTION"',
});
const severity = z.enum(SEVERITIES, {
  error: `must be one of ${SEVERITIES.join(", ")}`,
});
const probability = z.number({ error: "must be a number in [0, 1]" })
  .min(0, { error: "must be in [0, 1]" }).max(1, {
    error: "must be in [0, 1]",
  });

const expectedSchema = z.object({
  verdict,
  exception_type: z.string().min(1).nullable(),
  severity,
}).passthrough();

const predictedSchema = z.object({
  verdict,
  exception_type: z.string().min(1).nullable().optional(),
  severity: severity.nullable().optional(),
  confidence: probability.nullable().optional(),
}).passthrough();

const taskSchema = z.object({
  task_id: z.union([z.string().min(1), z.number().int()]),
  difficulty: z.unknown().optional(),
  expected: expectedSchema,
  predicted: predictedSchema.nullable().optional(),
  self_consistency_confidence: probability.nullable().optional(),
  samples: z.array(z.unknown()).optional(),
  raw_empty: z.boolean().optional(),
}).passthrough();

const documentSchema = z.object({
  run: z.string().min(1),
  n: z.number().int().min(0),
  metrics: z.record(z.string(), z.unknown()).optional(),
  per_task: z.array(z.unknown()),
}).passthrough();

// the keys ReconForge writes; anything else is refused unless lenient
const DOCUMENT_KEYS = new Set(["run", "n", "metrics", "per_task"]);
const TASK_KEYS = new Set([
  "task_id",
  "difficulty",
  "expected",
  "predicted",
  "self_consistency_confidence",
  "samples",
  "raw_empty",
]);
const EXPECTED_KEYS = new Set(["verdict", "exception_type", "severity"]);
const PREDICTED_KEYS = new Set([
  "verdict",
  "exception_type",
  "severity",
  "confidence",
]);

/** Options for {@linkcode parseReconforge}. */
export interface ReconforgeOptions extends UnknownKeyOptions {
  /** File path shown in errors. Default: `"<inline>"`. */
  path?: string;
  /** Model id of the decisions. Default: the document's `run`. */
  modelId?: string;
  /**
   * Which stated probability becomes pCorrect: the prediction's
   * `confidence` (`"stated"`), or `self_consistency_confidence`. Both are
   * read as P(answer is correct). Default: `"stated"`.
   */
  confidence?: "stated" | "self_consistency";
}

/** What an import produced, and what it had to set aside (never silently). */
export interface ImportResult {
  /** The decisions. */
  readonly decisions: Decision[];
  /** Counts of notable conversions, by reason (for example parse misses). */
  readonly notes: Readonly<Record<string, number>>;
}

/**
 * Parse a ReconForge per-task evaluation document into decisions.
 *
 * Each `per_task` element becomes one automatic decision. The gold class is
 * the expected exception type, or `MATCH`. A missing or `null` prediction is
 * a parse miss: it is scored as verdict MATCH with `parseOk: false`. An
 * exception verdict without a type becomes the class
 * {@linkcode UNTYPED_EXCEPTION}. The run's cost was not recorded, so cost
 * evidence is `unavailable`; right answers end `resolved`, wrong ones and
 * parse misses `model_failure`. `n` must equal the number of tasks.
 *
 * @param text The document's text.
 * @param options Path, model id, and which confidence to read.
 * @returns Decisions, and counts of parse misses and untyped exception verdicts.
 * @throws {SyntaxError} When the text is not JSON.
 * @throws {TypeError | RangeError} When a field is missing or invalid; the
 * message names the file, `per_task[i]` with its task id, and the field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseReconforge } from "./import_reconforge.ts";
 *
 * const doc = {
 *   run: "reconforge-1.7b", n: 2, metrics: {},
 *   per_task: [
 *     { task_id: "t1", difficulty: 0.3,
 *       expected: { verdict: "EXCEPTION", exception_type: "DUPLICATE", severity: "LOW" },
 *       predicted: { verdict: "EXCEPTION", exception_type: "DUPLICATE", severity: "LOW", confidence: 0.9 } },
 *     { task_id: "t2", difficulty: 0.8,
 *       expected: { verdict: "EXCEPTION", exception_type: "AMOUNT_MISMATCH", severity: "HIGH" },
 *       predicted: null },
 *   ],
 * };
 * const { decisions, notes } = parseReconforge(JSON.stringify(doc));
 * assert.equal(decisions[1].predClass, "MATCH");
 * assert.equal(decisions[1].parseOk, false);
 * assert.equal(notes.parseMisses, 1);
 * ```
 */
export function parseReconforge(
  text: string,
  options: ReconforgeOptions = {},
): ImportResult {
  const path = options.path ?? "<inline>";
  const where = `Cannot load ReconForge file ${path}`;
  let raw: unknown;
  try {
    raw = JSON.parse(stripBom(text));
  } catch (error) {
    throw new InputSyntaxError(
      `${where}: invalid JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
  refuseDuplicateKeys(stripBom(text), raw, () => where);
  const doc = documentSchema.safeParse(raw);
  if (!doc.success) {
    const issue = doc.error.issues[0];
    throw new InputTypeError(`${where}: ${describeIssue(issue, raw)}`, {
      cause: doc.error,
    });
  }
  const keys = new KnownKeys(where, options);
  keys.check(raw, DOCUMENT_KEYS, where, "");
  const { run, n, per_task: tasks } = doc.data;
  if (n !== tasks.length) {
    throw new InputRangeError(
      `${where}: n is ${n} but per_task has ${tasks.length} elements; refusing to score a partial run`,
    );
  }
  const modelId = options.modelId ?? run;
  const which = options.confidence ?? "stated";
  const decisions: Decision[] = [];
  let parseMisses = 0;
  let untyped = 0;
  const seen = new Map<string, number>();
  tasks.forEach((element, i) => {
    const id = (element as { task_id?: unknown } | null)?.task_id;
    const at = `${where}: per_task[${i}]${
      typeof id === "string" || typeof id === "number"
        ? ` (task_id ${JSON.stringify(id)})`
        : ""
    }`;
    keys.check(element, TASK_KEYS, at, "", "per_task[]");
    const e = element as Record<string, unknown> | null;
    keys.check(
      e?.expected,
      EXPECTED_KEYS,
      at,
      "expected",
      "per_task[].expected",
    );
    keys.check(
      e?.predicted,
      PREDICTED_KEYS,
      at,
      "predicted",
      "per_task[].predicted",
    );
    const parsed = taskSchema.safeParse(element);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const message = `${at}: ${describeIssue(issue, element)}`;
      throw issue.code === "invalid_type" || issue.code === "invalid_union"
        ? new InputTypeError(message, { cause: parsed.error })
        : new InputRangeError(message, { cause: parsed.error });
    }
    const t = parsed.data;
    const taskId = String(t.task_id);
    const first = seen.get(taskId);
    if (first !== undefined) {
      throw new InputRangeError(`${at}: task_id repeats per_task[${first}]`);
    }
    seen.set(taskId, i);
    const exp = t.expected;
    if (exp.verdict === "EXCEPTION" && exp.exception_type === null) {
      throw new InputRangeError(
        `${at}: expected.exception_type must name the exception when verdict is EXCEPTION`,
      );
    }
    if (exp.verdict === "MATCH" && exp.exception_type !== null) {
      throw new InputRangeError(
        `${at}: expected.exception_type must be null when verdict is MATCH, got ${
          JSON.stringify(exp.exception_type)
        }`,
      );
    }
    const trueClass = exp.verdict === "MATCH"
      ? CLEAN_CLASS
      : exp.exception_type!;
    const pred = t.predicted ?? null;
    let predClass: string;
    let pCorrect: number | null;
    if (pred === null) {
      parseMisses++;
      predClass = CLEAN_CLASS;
      pCorrect = null;
    } else {
      if (pred.verdict === "MATCH") predClass = CLEAN_CLASS;
      else if (pred.exception_type == null) {
        untyped++;
        predClass = UNTYPED_EXCEPTION;
      } else predClass = pred.exception_type;
      pCorrect = which === "stated"
        ? pred.confidence ?? null
        : t.self_consistency_confidence ?? null;
    }
    decisions.push({
      runId: run,
      modelId,
      taskId,
      trial: 0,
      severity: exp.severity,
      trueClass,
      predClass,
      parseOk: pred !== null,
      pCorrect,
      action: "auto",
      cost: { completeness: "unavailable", usd: null },
      outcome: pred !== null && predClass === trueClass
        ? "resolved"
        : "model_failure",
    });
  });
  keys.finish();
  return {
    decisions,
    notes: { parseMisses, untypedExceptionVerdicts: untyped },
  };
}

/**
 * Read a ReconForge per-task evaluation file.
 *
 * @param path Path of the `.json` file.
 * @param options Model id and confidence choice.
 * @returns As {@linkcode parseReconforge}.
 * @throws As {@linkcode parseReconforge}, and `Deno.errors.NotFound`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadReconforge } from "./import_reconforge.ts";
 *
 * const { decisions } = await loadReconforge("data/examples/reconforge_run.json");
 * assert.ok(decisions.length > 0);
 * ```
 */
export async function loadReconforge(
  path: string,
  options: Omit<ReconforgeOptions, "path"> = {},
): Promise<ImportResult> {
  return parseReconforge(
    await readUtf8File(path, `Cannot load ReconForge file ${path}`),
    { ...options, path },
  );
}
