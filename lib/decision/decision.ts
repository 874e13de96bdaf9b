/**
 * The Decision record: one model answer on one task, as exported by a run.
 *
 * @module
 */

import { z } from "zod";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import {
  type CostEvidence,
  FAILURE_CLASSES,
  type FailureClass,
} from "../evidence/cost_evidence.ts";

/** The class a clean item (no exception) carries. */
export const CLEAN_CLASS = "MATCH";

export type { Action } from "../metrics/sufficient_stats.ts";
import type { Action } from "../metrics/sufficient_stats.ts";
import { InputRangeError } from "../input_error.ts";
import {
  isPCorrectSource,
  PCORRECT_SOURCE_ERROR,
  type PCorrectSource,
} from "./pcorrect_source.ts";

/**
 * One line of a run export (docs/formats.md).
 *
 * The severity comes from the task, never from the model. `pCorrect` is the
 * model's stated probability that its answer is correct; P(error) is derived
 * from it in one place ({@linkcode pError}).
 */
export interface Decision {
  /** Id of the run that produced the decision. */
  readonly runId: string;
  /** Id of the model that answered. */
  readonly modelId: string;
  /** Id of the task. */
  readonly taskId: string;
  /** Trial number, for repeated attempts at one task (0 or more). */
  readonly trial: number;
  /** Consequence severity of a wrong automatic decision on this task. */
  readonly severity: Severity;
  /** Gold class, `"MATCH"` for a clean item. */
  readonly trueClass: string;
  /** Class the decision was taken as (after any parse fallback). */
  readonly predClass: string;
  /** Whether the model's raw output parsed; `false` means `predClass` is a fallback. */
  readonly parseOk: boolean;
  /** Stated P(answer is correct), or `null` when the model gave none. */
  readonly pCorrect: number | null;
  /** `auto` or `escalate`. */
  readonly action: Action;
  /** Observed cost of producing the decision. */
  readonly cost: CostEvidence;
  /** Terminal outcome of the attempt. */
  readonly outcome: FailureClass;
  /** Input tokens, when known. */
  readonly tokensIn?: number;
  /** Output tokens, when known. */
  readonly tokensOut?: number;
  /** Wall-clock latency in milliseconds, when known. */
  readonly latencyMs?: number;
  /**
   * Where `pCorrect` came from (`stated`, `logprob-option`, `logprob-token`,
   * `agreement@k`, `score-metadata:KEY`), or `null` when there is no
   * probability; absent in exports that predate provenance.
   */
  readonly pCorrectSource?: PCorrectSource | null;
  /** The answer text a harness recorded; kept for review, never used for correctness. */
  readonly answer?: string;
  /** The target text a harness recorded; kept for review, never used for correctness. */
  readonly target?: string;
}

const id = z.string({ error: "must be a string" }).min(1, {
  error: "must not be empty",
});
const count = z.number({ error: "must be a number" }).int({
  error: "must be an integer",
})
  .min(0, { error: "must be >= 0" });
const usd = z.number({ error: "must be a number" }).refine(Number.isFinite, {
  error: "must be finite",
}).refine((v) => v >= 0, { error: "must be >= 0" });

/** zod schema of cost evidence: the state decides whether `usd` may be a number. */
export const costEvidenceSchema = z.discriminatedUnion("completeness", [
  z.object({ completeness: z.literal("complete"), usd }).strict(),
  z.object({ completeness: z.literal("partial"), usd }).strict(),
  z.object({
    completeness: z.literal("unavailable"),
    usd: z.null({ error: "must be null when completeness is unavailable" }),
  }).strict(),
  z.object({
    completeness: z.literal("not_applicable"),
    usd: z.null({ error: "must be null when completeness is not_applicable" }),
  }).strict(),
], {
  error:
    `completeness must be one of complete, partial, unavailable, not_applicable`,
});

/** zod schema of one Decision line; unknown fields are rejected, not dropped. */
export const decisionSchema = z.object({
  runId: id,
  modelId: id,
  taskId: id,
  trial: count,
  severity: z.enum(SEVERITIES, {
    error: `must be one of ${SEVERITIES.join(", ")}`,
  }),
  trueClass: id,
  predClass: id,
  parseOk: z.boolean({ error: "must be true or false" }),
  pCorrect: z.number({ error: "must be a number in [0, 1] or null" })
    .min(0, { error: "must be in [0, 1]" }).max(1, {
      error: "must be in [0, 1]",
    })
    .nullable(),
  action: z.enum(["auto", "escalate"], {
    error: 'must be "auto" or "escalate"',
  }),
  cost: costEvidenceSchema,
  outcome: z.enum(FAILURE_CLASSES, {
    error: `must be one of ${FAILURE_CLASSES.join(", ")}`,
  }),
  tokensIn: count.optional(),
  tokensOut: count.optional(),
  latencyMs: z.number({ error: "must be a number" }).min(0, {
    error: "must be >= 0",
  })
    .optional(),
  pCorrectSource: z.string({ error: PCORRECT_SOURCE_ERROR }).refine(
    isPCorrectSource,
    { error: PCORRECT_SOURCE_ERROR },
  ).nullable().optional(),
  answer: z.string({ error: "must be a string" }).optional(),
  target: z.string({ error: "must be a string" }).optional(),
}).strict();

/**
 * The probability that a decision is wrong: `1 - pCorrect`.
 *
 * This is the one place where P(error) is derived from the stated
 * P(correct), so that the two meanings cannot be mixed up downstream.
 *
 * @param pCorrect Stated P(answer is correct), or `null`.
 * @returns `1 - pCorrect`, or `null` when `pCorrect` is `null`.
 * @throws {RangeError} When `pCorrect` is outside [0, 1] or not a number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pError } from "./decision.ts";
 *
 * assert.ok(Math.abs(pError(0.9)! - 0.1) < 1e-12);
 * assert.equal(pError(null), null);
 * ```
 */
export function pError(pCorrect: number | null): number | null {
  if (pCorrect === null) return null;
  if (!(pCorrect >= 0 && pCorrect <= 1)) {
    throw new InputRangeError(
      `Cannot derive P(error): pCorrect must be in [0, 1], got ${pCorrect}`,
    );
  }
  return 1 - pCorrect;
}

/**
 * Whether a decision's class equals the gold class.
 *
 * @param d A decision, or any object with `trueClass` and `predClass`.
 * @returns `true` when `predClass === trueClass`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isCorrect } from "./decision.ts";
 *
 * assert.equal(isCorrect({ trueClass: "DUPLICATE", predClass: "MATCH" }), false);
 * ```
 */
export function isCorrect(
  d: Pick<Decision, "trueClass" | "predClass">,
): boolean {
  return d.predClass === d.trueClass;
}

/** The Decision's keys: the 12 required ones, then the optional ones. */
export const DECISION_KEYS = [
  "runId",
  "modelId",
  "taskId",
  "trial",
  "severity",
  "trueClass",
  "predClass",
  "parseOk",
  "pCorrect",
  "action",
  "cost",
  "outcome",
  "tokensIn",
  "tokensOut",
  "latencyMs",
  "pCorrectSource",
  "answer",
  "target",
] as const;
/** How many of {@linkcode DECISION_KEYS} a decision must have. */
export const REQUIRED_KEYS = 12;
