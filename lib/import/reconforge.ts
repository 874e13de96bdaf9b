/**
 * Importer for ReconForge per-task evaluation files, as ReconForge publishes
 * them (`docs/validation/bench-*.json`): one JSON document per run,
 * `{ run, n, metrics?, scoring?, per_task: [...] }`, written by its
 * benchmark evaluation (a fine-tune, with self-consistency samples) or by
 * its frontier head-to-head (one answer per task, with `raw_empty`).
 *
 * The schema is closed: every key the two writers produce is known, and any
 * other key (a misspelling such as `prediction` for `predicted`) is refused,
 * naming the file, the record and the field. Where the file carries its own
 * summary figures, they are recomputed from `per_task` by ReconForge's
 * scoring rules and a disagreement is refused.
 *
 * @module
 */

import { z } from "zod";
import { describeIssue } from "../_zod_issue.ts";
import { CLEAN_CLASS, type Decision } from "../decision/decision.ts";
import { decodeUtf8Strict, parseJsonStrict } from "../_json.ts";
import {
  parsePCorrectFrom,
  type PCorrectCandidate,
  pickPCorrect,
} from "./mapping.ts";
import type { PCorrectSource } from "../decision/pcorrect_source.ts";
import {
  reconforgeScores,
  rfCorrect,
  type RfScores,
  type RfTask,
  type RfVerdict,
} from "./_reconforge_scoring.ts";
import { KnownKeys } from "./_known_keys.ts";
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
} from "../input_error.ts";

/** The predicted class of an exception verdict that names no exception type. */
export const UNTYPED_EXCEPTION = "EXCEPTION_UNTYPED";

/**
 * The predicted class of an `ESCALATE` verdict: never a gold class, and not
 * the clean class, so a HIGH exception counts as caught and a MEDIUM or LOW
 * one as not caught, as ReconForge scores it.
 */
export const ESCALATED_CLASS = "ESCALATE";

/** ReconForge's nine exception types. */
export const RECONFORGE_EXCEPTION_TYPES = [
  "AMOUNT_MISMATCH",
  "FX_CONVERSION_ERROR",
  "BENEFICIARY_MISMATCH",
  "COUNTERPARTY_MISMATCH",
  "VALUE_DATE_MISMATCH",
  "MISSING_MESSAGE",
  "DUPLICATE",
  "FIELD_CORRUPTION",
  "PARTIAL_MATCH",
] as const;

const LEVELS = ["LOW", "MEDIUM", "HIGH"] as const;
const RESOLUTIONS = [
  "auto-adjust",
  "escalate",
  "reject",
  "rebook",
  "flag-review",
] as const;

const severity = z.enum(LEVELS, {
  error: `must be one of ${LEVELS.join(", ")} (ReconForge's levels)`,
});
const exceptionType = z.enum(RECONFORGE_EXCEPTION_TYPES, {
  error: `must be null or one of ReconForge's types ${
    RECONFORGE_EXCEPTION_TYPES.join(", ")
  }`,
}).nullable();
const probability = z.number({ error: "must be a number in [0, 1]" })
  .min(0, { error: "must be in [0, 1]" }).max(1, {
    error: "must be in [0, 1]",
  });
const count = z.number({ error: "must be a count" }).int({
  error: "must be an integer",
}).min(0, { error: "must be >= 0" });
const figure = z.number({ error: "must be a number" });
const bySeverity = z.object({
  HIGH: figure.nullable(),
  MEDIUM: figure.nullable(),
  LOW: figure.nullable(),
}).strict();

const verdictSchema = z.object({
  verdict: z.enum(["MATCH", "EXCEPTION", "ESCALATE"], {
    error: 'must be "MATCH", "EXCEPTION" or "ESCALATE"',
  }),
  exception_type: exceptionType,
  severity,
  confidence: probability.nullable().optional(),
  reason: z.string({ error: "must be a string" }).optional(),
  resolution: z.enum(RESOLUTIONS, {
    error: `must be one of ${RESOLUTIONS.join(", ")}`,
  }).optional(),
}).strict();

const taskSchema = z.object({
  task_id: z.union([z.string().min(1), z.number().int()], {
    error: "must be a non-empty string or an integer",
  }),
  difficulty: z.number({ error: "must be a number" }).optional(),
  expected: z.object({
    verdict: z.enum(["MATCH", "EXCEPTION"], {
      error: 'must be "MATCH" or "EXCEPTION" (a gold verdict)',
    }),
    exception_type: exceptionType,
    severity,
    explanation: z.string({ error: "must be a string" }).optional(),
    resolution: z.enum(RESOLUTIONS, {
      error: `must be one of ${RESOLUTIONS.join(", ")}`,
    }).optional(),
  }).strict(),
  predicted: verdictSchema.nullable().optional(),
  self_consistency_confidence: probability.nullable().optional(),
  samples: z.array(verdictSchema.nullable()).optional(),
  raw_empty: z.boolean({ error: "must be true or false" }).optional(),
}).strict();

const metricsSchema = z.object({
  accuracy: figure,
  correct: count,
  n: count,
  parse_rate: figure,
  parsed: count,
  severity_weighted_recall: figure,
  per_type_recall: bySeverity,
  escalation_precision: figure,
  n_escalations: count,
  n_parse_misses: count,
  n_empty_responses: count,
  ece_self_consistency: figure,
  parse_fail_samples: count,
  // Read, not recomputed: timing, token counts, and the two cost and flag
  // summaries of later ReconForge versions.
  mean_tokens_per_verdict_sample: figure,
  wall_seconds: figure,
  precision_recall_f1: z.record(z.string(), z.number()),
  severity_weighted_cost: z.record(z.string(), z.number()),
}).partial().strict();

const scoringSchema = z.object({
  n_tasks: count,
  n_parse_misses: count,
  verdict_accuracy: figure,
  n_exception_tasks: count,
  exception_type_accuracy: figure,
  severity_weighted_recall: figure,
  severity_recall_by_severity: bySeverity,
  confusion_matrix: z.record(z.string(), z.record(z.string(), count)),
  escalation_precision: figure,
  n_escalations: count,
}).partial().strict();

const documentSchema = z.object({
  run: z.string().min(1),
  benchmark: z.string().optional(),
  model: z.string().optional(),
  created_at: z.string().optional(),
  base_model: z.string().optional(),
  adapter_path: z.string().optional(),
  self_consistency: z.object({
    samples: count.min(1, { error: "must be >= 1" }),
    temp: figure,
  }).strict().optional(),
  n: count,
  metrics: metricsSchema.optional(),
  scoring: scoringSchema.optional(),
  per_task: z.array(z.unknown()),
}).strict();

const TASK_KEYS = Object.keys(taskSchema.shape);
const DOC_KEYS = Object.keys(documentSchema.shape);

/** Options for {@linkcode parseReconforge}. */
export interface ReconforgeOptions {
  /** File path shown in errors. Default: `"<inline>"`. */
  path?: string;
  /** Model id of the decisions. Default: the document's `model`, else `base_model` + `adapter_path`, else `run`. */
  modelId?: string;
  /**
   * Which probability becomes pCorrect, in the vocabulary of
   * `--pcorrect-from`: `agreement` (or `agreement@K`) for the file's
   * `self_consistency_confidence`, or failing that the agreement of
   * `samples[]`; `stated` for `predicted.confidence`; `none`. Named, it
   * must be present on every parsed record. Default: the first present of
   * `self_consistency_confidence`, agreement over `samples[]`,
   * `predicted.confidence`.
   */
  pCorrectFrom?: string;
  /**
   * Skip keys ReconForge does not define instead of refusing them; each is
   * reported once, with its count, through `onUnknownKeys`. Default: `false`.
   */
  lenient?: boolean;
  /** Receives the report of skipped keys in lenient mode, one line each. */
  onUnknownKeys?: (line: string) => void;
}

/** A ReconForge decision: a Decision with the provenance of its probability. */
export type ReconforgeDecision = Decision & {
  readonly pCorrectSource: PCorrectSource | null;
};

/** What an import produced, and what it had to set aside (never silently). */
export interface ImportResult {
  /** The decisions. */
  readonly decisions: Decision[];
  /** Counts of notable conversions, by reason (for example parse misses). */
  readonly notes: Readonly<Record<string, number>>;
}

/** What a ReconForge import produced. */
export interface ReconforgeImportResult extends ImportResult {
  /** The decisions, each with its `pCorrectSource`. */
  readonly decisions: ReconforgeDecision[];
  /** ReconForge's own figures, recomputed from per_task by its scoring rules. */
  readonly scores: RfScores;
  /** The summary fields that were checked against them, as `metrics.accuracy` and so on. */
  readonly verified: readonly string[];
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = row[j];
      row[j] = Math.min(
        row[j] + 1,
        row[j - 1] + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = next;
    }
  }
  return row[b.length];
}

function zodError(
  issue: z.core.$ZodIssue,
  message: string,
  cause: unknown,
): Error {
  return issue.code === "invalid_type" || issue.code === "invalid_union" ||
      issue.code === "unrecognized_keys"
    ? new InputTypeError(message, { cause })
    : new InputRangeError(message, { cause });
}

const VERDICT_KEYS = Object.keys(verdictSchema.shape);
const NESTED_KEYS: Readonly<Record<string, readonly string[]>> = {
  predicted: VERDICT_KEYS,
  samples: VERDICT_KEYS,
  expected: Object.keys(taskSchema.shape.expected.shape),
  metrics: Object.keys(metricsSchema.shape),
  scoring: Object.keys(scoringSchema.shape),
  self_consistency: ["samples", "temp"],
  per_type_recall: ["HIGH", "MEDIUM", "LOW"],
  severity_recall_by_severity: ["HIGH", "MEDIUM", "LOW"],
};

function describe(
  issue: z.core.$ZodIssue,
  input: unknown,
  known: readonly string[],
): string {
  const text = describeIssue(issue, input);
  if (issue.code !== "unrecognized_keys") return text;
  const last = issue.path.findLast((k) => typeof k === "string");
  const keys = last === undefined ? known : NESTED_KEYS[String(last)] ?? [];
  const hints = issue.keys.map((k) => {
    const limit = Math.max(2, Math.floor(k.length / 3));
    const scored = keys.map((c) => ({ c, d: editDistance(k, c) }));
    const best = Math.min(...scored.map((x) => x.d));
    const near = scored.filter((x) => x.d === best && x.d <= limit);
    return near.length === 1
      ? ` (did you mean ${JSON.stringify(near[0].c)}?)`
      : "";
  }).join("");
  return `${text}${hints}`;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const TOLERANCE = 5e-5 + 1e-9;

function sameVerdict(a: RfVerdict, b: RfVerdict): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (
      (a as unknown as Record<string, unknown>)[k] !==
        (b as unknown as Record<string, unknown>)[k]
    ) return false;
  }
  return true;
}

function classOf(v: RfVerdict | null): string | null {
  if (v === null) return null;
  if (v.verdict === "MATCH") return CLEAN_CLASS;
  if (v.verdict === "ESCALATE") return ESCALATED_CLASS;
  return v.exception_type ?? UNTYPED_EXCEPTION;
}

/** Check the file's summary figures against its records; return the fields checked. */
function verifySummary(
  where: string,
  doc: z.infer<typeof documentSchema>,
  s: RfScores,
): string[] {
  const checked: string[] = [];
  const refuse = (field: string, file: unknown, ours: unknown, how: string) => {
    throw new InputRangeError(
      `${where}: ${field} is ${JSON.stringify(file)} but per_task gives ${
        JSON.stringify(ours)
      } (${how}); the file's summary disagrees with its own records`,
    );
  };
  const num = (
    field: string,
    file: number | null | undefined,
    ours: number | null,
    how: string,
  ) => {
    if (file === undefined) return;
    checked.push(field);
    if (file === null || ours === null) {
      if (file !== ours) {
        refuse(field, file, ours === null ? null : round4(ours), how);
      }
      return;
    }
    if (!(Math.abs(file - ours) <= TOLERANCE)) {
      refuse(field, file, round4(ours), how);
    }
  };
  const int = (
    field: string,
    file: number | undefined,
    ours: number | null,
    how: string,
  ) => {
    if (file === undefined) return;
    checked.push(field);
    if (file !== ours) refuse(field, file, ours, how);
  };
  const sev = (
    field: string,
    file: z.infer<typeof bySeverity> | undefined,
  ) => {
    if (file === undefined) return;
    for (const level of ["HIGH", "MEDIUM", "LOW"] as const) {
      num(
        `${field}.${level}`,
        file[level],
        s.recallBySeverity[level],
        `${level} exceptions caught, ReconForge's rule`,
      );
    }
  };
  const acc = `${s.correct} of ${s.n} correct`;
  const rw = "severity-weighted recall, ReconForge's caught rule";
  const m = doc.metrics;
  if (m !== undefined) {
    num("metrics.accuracy", m.accuracy, s.accuracy, acc);
    int("metrics.correct", m.correct, s.correct, "tasks correct");
    int("metrics.n", m.n, s.n, "tasks");
    num("metrics.parse_rate", m.parse_rate, s.parseRate, `${s.parsed} parsed`);
    int("metrics.parsed", m.parsed, s.parsed, "tasks with a prediction");
    num(
      "metrics.severity_weighted_recall",
      m.severity_weighted_recall,
      s.severityWeightedRecall,
      rw,
    );
    sev("metrics.per_type_recall", m.per_type_recall);
    num(
      "metrics.escalation_precision",
      m.escalation_precision,
      s.escalationPrecision,
      "escalations on exception tasks",
    );
    int(
      "metrics.n_escalations",
      m.n_escalations,
      s.escalations,
      "ESCALATE verdicts on exception tasks",
    );
    int(
      "metrics.n_parse_misses",
      m.n_parse_misses,
      s.parseMisses,
      "tasks without a prediction",
    );
    int(
      "metrics.n_empty_responses",
      m.n_empty_responses,
      s.emptyResponses,
      "raw_empty tasks",
    );
    if (m.ece_self_consistency !== undefined && s.eceSelfConsistency === null) {
      throw new InputTypeError(
        `${where}: metrics.ece_self_consistency is given but some per_task record has no self_consistency_confidence`,
      );
    }
    num(
      "metrics.ece_self_consistency",
      m.ece_self_consistency,
      s.eceSelfConsistency,
      "10 equal-width bins",
    );
    if (m.parse_fail_samples !== undefined && s.parseFailSamples === null) {
      throw new InputTypeError(
        `${where}: metrics.parse_fail_samples is given but some per_task record has no samples`,
      );
    }
    int(
      "metrics.parse_fail_samples",
      m.parse_fail_samples,
      s.parseFailSamples,
      "null samples",
    );
  }
  const c = doc.scoring;
  if (c !== undefined) {
    int("scoring.n_tasks", c.n_tasks, s.n, "tasks");
    int(
      "scoring.n_parse_misses",
      c.n_parse_misses,
      s.parseMisses,
      "tasks without a prediction",
    );
    num(
      "scoring.verdict_accuracy",
      c.verdict_accuracy,
      s.verdictAccuracy,
      "verdict alone, a parse miss read as MATCH",
    );
    int(
      "scoring.n_exception_tasks",
      c.n_exception_tasks,
      s.exceptionTasks,
      "expected EXCEPTION",
    );
    num(
      "scoring.exception_type_accuracy",
      c.exception_type_accuracy,
      s.exceptionTypeAccuracy,
      "MEDIUM and LOW exact types over exception tasks",
    );
    num(
      "scoring.severity_weighted_recall",
      c.severity_weighted_recall,
      s.severityWeightedRecall,
      rw,
    );
    sev("scoring.severity_recall_by_severity", c.severity_recall_by_severity);
    if (c.confusion_matrix !== undefined) {
      checked.push("scoring.confusion_matrix");
      const rows = new Set([
        ...Object.keys(c.confusion_matrix),
        ...Object.keys(s.confusion),
      ]);
      for (const row of [...rows].sort()) {
        const cols = new Set([
          ...Object.keys(c.confusion_matrix[row] ?? {}),
          ...Object.keys(s.confusion[row] ?? {}),
        ]);
        for (const col of [...cols].sort()) {
          const file = c.confusion_matrix[row]?.[col] ?? 0;
          const ours = s.confusion[row]?.[col] ?? 0;
          if (file !== ours) {
            refuse(
              `scoring.confusion_matrix[${JSON.stringify(row)}][${
                JSON.stringify(col)
              }]`,
              file,
              ours,
              "expected class by predicted class",
            );
          }
        }
      }
    }
    num(
      "scoring.escalation_precision",
      c.escalation_precision,
      s.escalationPrecision,
      "escalations on exception tasks",
    );
    int(
      "scoring.n_escalations",
      c.n_escalations,
      s.escalations,
      "ESCALATE verdicts on exception tasks",
    );
  }
  return checked;
}

function defaultModelId(doc: z.infer<typeof documentSchema>): string {
  if (doc.model !== undefined && doc.model !== "") return doc.model;
  if (doc.base_model !== undefined && doc.base_model !== "") {
    return doc.adapter_path
      ? `${doc.base_model}+${doc.adapter_path}`
      : doc.base_model;
  }
  return doc.run;
}

/**
 * Parse a ReconForge per-task evaluation document into decisions.
 *
 * Each `per_task` record becomes one decision. The gold class is the
 * expected exception type, or `MATCH`. A `MATCH` or `EXCEPTION` verdict is
 * an automatic decision of that class (an exception verdict without a type
 * becomes {@linkcode UNTYPED_EXCEPTION}); an `ESCALATE` verdict is an
 * escalated decision of class {@linkcode ESCALATED_CLASS}, wrong for
 * accuracy, caught for a HIGH exception and missed for a MEDIUM or LOW one,
 * as ReconForge scores it. A missing or `null` prediction is a parse miss:
 * verdict MATCH with `parseOk: false` and no probability (`raw_empty: true`
 * ends `harness_failure`, other misses `model_failure`). Right answers end
 * `resolved`; the run's cost was not recorded (`unavailable`).
 *
 * pCorrect comes, by default, from `self_consistency_confidence`
 * (`agreement@K`, K the parsed samples it was computed over), else the share
 * of `samples[]` giving the predicted class (`agreement@k`, k the number of
 * samples, an unparsed sample disagreeing), else `predicted.confidence`
 * (`stated`). Consistency is checked, not assumed: a self-consistency value
 * must equal the share of parsed samples identical to the prediction (as
 * ReconForge computes it), `samples[]` must hold `self_consistency.samples`
 * entries, and every summary figure the file carries (`metrics`,
 * `scoring`) must equal its recomputation from `per_task`.
 *
 * @param text The document's text.
 * @param options Path, model id, and which probability to read.
 * @returns Decisions with `pCorrectSource`, notes, ReconForge's own figures and the summary fields verified.
 * @throws {SyntaxError} When the text is not JSON, or repeats a key.
 * @throws {TypeError | RangeError} When a field is unknown, missing,
 * invalid or inconsistent, or the summary disagrees with the records; the
 * message names the file, `per_task[i]` with its task id, and the field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseReconforge } from "./reconforge.ts";
 *
 * const doc = {
 *   run: "full", model: "frontier", n: 2,
 *   per_task: [
 *     { task_id: "t1",
 *       expected: { verdict: "EXCEPTION", exception_type: "DUPLICATE", severity: "LOW" },
 *       predicted: { verdict: "ESCALATE", exception_type: null, severity: "MEDIUM", confidence: 0.5 },
 *       raw_empty: false },
 *     { task_id: "t2",
 *       expected: { verdict: "EXCEPTION", exception_type: "AMOUNT_MISMATCH", severity: "HIGH" },
 *       predicted: null, raw_empty: false },
 *   ],
 * };
 * const { decisions, notes } = parseReconforge(JSON.stringify(doc));
 * assert.equal(decisions[0].action, "escalate");
 * assert.equal(decisions[0].pCorrectSource, "stated");
 * assert.deepEqual([decisions[1].predClass, decisions[1].parseOk], ["MATCH", false]);
 * assert.equal(notes.escalations, 1);
 * assert.throws(
 *   () => parseReconforge(JSON.stringify({ ...doc, per_task: [{ ...doc.per_task[0], prediction: null }, doc.per_task[1]] })),
 *   /per_task\[0\] \(task_id "t1"\): unknown field "prediction" \(did you mean "predicted"\?\)/,
 * );
 * ```
 */
export function parseReconforge(
  text: string,
  options: ReconforgeOptions = {},
): ReconforgeImportResult {
  const path = options.path ?? "<inline>";
  const where = `Cannot load ReconForge file ${path}`;
  let raw: unknown;
  try {
    raw = parseJsonStrict(text, { file: path, nonFinite: true });
  } catch (error) {
    throw new InputSyntaxError(
      `${where}: invalid JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const from = options.pCorrectFrom === undefined
    ? undefined
    : parsePCorrectFrom(options.pCorrectFrom);
  if (
    from !== undefined && from !== "stated" && from !== "none" &&
    from !== "agreement" && !from.startsWith("agreement@")
  ) {
    throw new InputTypeError(
      `${where}: --pcorrect-from ${from} is not a ReconForge source; use agreement (self_consistency_confidence or samples[]), stated (predicted.confidence) or none`,
    );
  }
  const keys = new KnownKeys(where, options);
  raw = keys.strip(raw, documentSchema, "");
  const docParsed = documentSchema.safeParse(raw);
  if (!docParsed.success) {
    const issue = docParsed.error.issues[0];
    throw zodError(
      issue,
      `${where}: ${describe(issue, raw, DOC_KEYS)}`,
      docParsed.error,
    );
  }
  const doc = docParsed.data;
  const { run, n, per_task: elements } = doc;
  if (n !== elements.length) {
    throw new InputRangeError(
      `${where}: n is ${n} but per_task has ${elements.length} elements; refusing to score a partial run`,
    );
  }
  const k = doc.self_consistency?.samples;
  const modelId = options.modelId ?? defaultModelId(doc);
  const tasks: RfTask[] = [];
  const decisions: ReconforgeDecision[] = [];
  let parseMisses = 0, rawEmpty = 0, untyped = 0, escalations = 0;
  let missesOnClean = 0;
  const seen = new Map<string, number>();
  elements.forEach((given, i) => {
    const element = keys.strip(given, taskSchema, "per_task[]");
    const id = (element as { task_id?: unknown } | null)?.task_id;
    const at = `${where}: per_task[${i}]${
      typeof id === "string" || typeof id === "number"
        ? ` (task_id ${JSON.stringify(id)})`
        : ""
    }`;
    const parsed = taskSchema.safeParse(element);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw zodError(
        issue,
        `${at}: ${describe(issue, element, TASK_KEYS)}`,
        parsed.error,
      );
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
    const checkVerdict = (v: RfVerdict | null, field: string) => {
      if (
        v !== null && v.verdict !== "EXCEPTION" && v.exception_type !== null
      ) {
        throw new InputRangeError(
          `${at}: ${field}.exception_type must be null when verdict is ${v.verdict}, got ${
            JSON.stringify(v.exception_type)
          }`,
        );
      }
    };
    const pred = t.predicted ?? null;
    checkVerdict(pred, "predicted");
    t.samples?.forEach((s, j) => checkVerdict(s, `samples[${j}]`));
    if (t.raw_empty === true && pred !== null) {
      throw new InputRangeError(
        `${at}: raw_empty is true but predicted holds a verdict; an empty response cannot have parsed`,
      );
    }
    const samples = t.samples;
    if (samples !== undefined && k !== undefined && samples.length !== k) {
      throw new InputRangeError(
        `${at}: samples has ${samples.length} entries but self_consistency.samples is ${k}`,
      );
    }
    const valid: RfVerdict[] | undefined = samples?.filter((s) => s !== null);
    if (samples !== undefined && pred === null && valid!.length > 0) {
      throw new InputRangeError(
        `${at}: predicted is null but ${
          valid!.length
        } of samples parsed; the prediction is their majority`,
      );
    }
    if (samples !== undefined && pred !== null && valid!.length === 0) {
      throw new InputRangeError(
        `${at}: predicted holds a verdict but no entry of samples parsed`,
      );
    }
    const sc = t.self_consistency_confidence ?? null;
    if (sc !== null && pred !== null && valid !== undefined) {
      const agree = valid.filter((s) => sameVerdict(s, pred)).length;
      if (!(Math.abs(sc - agree / valid.length) <= TOLERANCE)) {
        throw new InputRangeError(
          `${at}: self_consistency_confidence is ${sc} but ${agree} of ${valid.length} parsed samples equal predicted (${
            round4(agree / valid.length)
          })`,
        );
      }
    }
    const task: RfTask = {
      task_id: t.task_id,
      expected: {
        verdict: exp.verdict,
        exception_type: exp.exception_type,
        severity: exp.severity,
      },
      predicted: pred,
      ...(t.self_consistency_confidence !== undefined
        ? { self_consistency_confidence: t.self_consistency_confidence }
        : {}),
      ...(samples !== undefined ? { samples } : {}),
      ...(t.raw_empty !== undefined ? { raw_empty: t.raw_empty } : {}),
    };
    tasks.push(task);
    const trueClass = exp.verdict === "MATCH"
      ? CLEAN_CLASS
      : exp.exception_type!;
    let predClass: string;
    let picked: { value: number | null; source: PCorrectSource | null } = {
      value: null,
      source: null,
    };
    if (pred === null) {
      parseMisses++;
      if (t.raw_empty === true) rawEmpty++;
      if (trueClass === CLEAN_CLASS) missesOnClean++;
      predClass = CLEAN_CLASS;
    } else {
      predClass = classOf(pred)!;
      if (predClass === UNTYPED_EXCEPTION) untyped++;
      if (predClass === ESCALATED_CLASS) escalations++;
      const candidates: PCorrectCandidate[] = [];
      if (sc !== null) {
        const over = valid?.length ?? k;
        if (over === undefined) {
          throw new InputTypeError(
            `${at}: self_consistency_confidence needs samples or the document's self_consistency.samples to say how many samples it agrees over`,
          );
        }
        candidates.push({ source: `agreement@${over}`, value: sc });
      }
      if (samples !== undefined && samples.length > 0) {
        const agree = samples.filter((s) => classOf(s) === predClass).length;
        candidates.push({
          source: `agreement@${samples.length}`,
          value: agree / samples.length,
        });
      }
      candidates.push({ source: "stated", value: pred.confidence ?? null });
      picked = pickPCorrect(candidates, from);
      if (from !== undefined && from !== "none" && picked.source === null) {
        throw new InputTypeError(
          `${at}: --pcorrect-from ${from} asks for ${
            from === "stated"
              ? "predicted.confidence"
              : "self_consistency_confidence or samples"
          }, which this record does not have`,
        );
      }
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
      pCorrect: picked.value,
      pCorrectSource: picked.source,
      action: predClass === ESCALATED_CLASS ? "escalate" : "auto",
      cost: { completeness: "unavailable", usd: null },
      outcome: rfCorrect(task)
        ? "resolved"
        : t.raw_empty === true
        ? "harness_failure"
        : "model_failure",
    });
  });
  keys.finish();
  const scores = reconforgeScores(tasks);
  const verified = verifySummary(where, doc, scores);
  return {
    decisions,
    notes: {
      parseMisses,
      rawEmpty,
      parseMissesOnCleanTasks: missesOnClean,
      escalations,
      untypedExceptionVerdicts: untyped,
    },
    scores,
    verified,
  };
}

/**
 * Read a ReconForge per-task evaluation file.
 *
 * @param path Path of the `.json` file.
 * @param options Model id and probability source.
 * @returns As {@linkcode parseReconforge}.
 * @throws As {@linkcode parseReconforge}; {@linkcode SyntaxError} for invalid UTF-8; `Deno.errors.NotFound`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadReconforge } from "./reconforge.ts";
 *
 * const { decisions, verified } = await loadReconforge("data/examples/reconforge_run.json");
 * assert.ok(decisions.length > 0);
 * assert.ok(verified.includes("metrics.accuracy"));
 * ```
 */
export async function loadReconforge(
  path: string,
  options: Omit<ReconforgeOptions, "path"> = {},
): Promise<ReconforgeImportResult> {
  const text = decodeUtf8Strict(await Deno.readFile(path), path);
  return parseReconforge(text, { ...options, path });
}
