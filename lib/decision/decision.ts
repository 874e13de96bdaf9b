/**
 * The Decision record: one model answer on one task, as exported by a run.
 *
 * @module
 */

import { z } from "zod";
import type { Severity } from "../costs/severity.ts";
import type { CostEvidence, FailureClass } from "../evidence/cost_evidence.ts";

/** The class a clean item (no exception) carries. */
export const CLEAN_CLASS = "MATCH";

export type { Action } from "../metrics/sufficient_stats.ts";
import type { Action } from "../metrics/sufficient_stats.ts";
import { InputRangeError } from "../input_error.ts";
import {
  DECISION_FIELDS,
  type DecisionField,
  type FieldRule,
  type NullRule,
} from "./schema.ts";
export { DECISION_KEYS, REQUIRED_KEYS } from "./schema.ts";
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

/** The zod message of an enum: two values quoted, more listed. */
function enumMessage(values: readonly string[]): string {
  return values.length === 2
    ? `must be ${JSON.stringify(values[0])} or ${JSON.stringify(values[1])}`
    : `must be one of ${values.join(", ")}`;
}

/** The zod type of a field's non-null values, from its rule. */
function zodOfRule(rule: FieldRule): z.ZodType {
  switch (rule.kind) {
    case "id":
      return z.string({ error: "must be a string" }).min(1, {
        error: "must not be empty",
      });
    case "text":
      return z.string({ error: "must be a string" });
    case "count":
      return z.number({ error: "must be a number" }).int({
        error: "must be an integer",
      }).min(0, { error: "must be >= 0" });
    case "amount":
      return z.number({ error: "must be a number" }).refine(Number.isFinite, {
        error: "must be finite",
      }).refine((v) => v >= 0, { error: "must be >= 0" });
    case "probability":
      return z.number({ error: "must be a number in [0, 1] or null" })
        .min(0, { error: "must be in [0, 1]" }).max(1, {
          error: "must be in [0, 1]",
        });
    case "boolean":
      return z.boolean({ error: "must be true or false" });
    case "enum":
      return z.enum(rule.values as [string, ...string[]], {
        error: enumMessage(rule.values),
      });
    case "pcorrect-source":
      return z.string({ error: PCORRECT_SOURCE_ERROR }).refine(
        isPCorrectSource,
        { error: PCORRECT_SOURCE_ERROR },
      );
  }
}

/** The zod type of a top-level field: its rule, then its nulls and presence. */
function zodOfField(f: DecisionField): z.ZodType {
  const t = zodOfRule(f.rule);
  const nullable = f.nulls.reads === "value" ? t.nullable() : t;
  return f.required ? nullable : nullable.optional();
}

/**
 * The zod type of a nested key (`cost`): a union on the member that a
 * `when` null rule names, each branch strict; a member may be null exactly
 * when that rule says so.
 */
function zodOfGroup(members: readonly DecisionField[]): z.ZodType {
  const dependent = members.find((m) => m.nulls.reads === "when")!;
  const on = dependent.nulls as Extract<NullRule, { reads: "when" }>;
  const tag = members.find((m) => m.column === on.column)!;
  const local = (f: DecisionField) => f.key.slice(f.key.indexOf(".") + 1);
  const values = (tag.rule as { values: readonly string[] }).values;
  const branches = values.map((v) =>
    z.object({
      [local(tag)]: z.literal(v),
      [local(dependent)]: on.values.includes(v)
        ? z.null({ error: `must be null when ${local(tag)} is ${v}` })
        : zodOfRule(dependent.rule),
    }).strict()
  );
  return z.discriminatedUnion(
    local(tag),
    branches as unknown as [
      z.ZodObject<z.ZodRawShape>,
      ...z.ZodObject<z.ZodRawShape>[],
    ],
    { error: `${local(tag)} ${enumMessage(values)}` },
  );
}

function decisionShape(): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  const groups = new Map<string, DecisionField[]>();
  for (const f of DECISION_FIELDS) {
    const dot = f.key.indexOf(".");
    if (dot < 0) {
      shape[f.key] = zodOfField(f);
      continue;
    }
    const head = f.key.slice(0, dot);
    if (!groups.has(head)) {
      groups.set(head, []);
      shape[head] = z.never(); // holds the key's place in the order
    }
    groups.get(head)!.push(f);
  }
  for (const [head, members] of groups) shape[head] = zodOfGroup(members);
  return shape;
}

const SHAPE = decisionShape();

/** zod schema of cost evidence: the state decides whether `usd` may be a number. */
export const costEvidenceSchema: z.ZodType = SHAPE.cost;

/**
 * zod schema of one Decision line, derived from the Decision schema
 * (lib/decision/schema.ts); unknown fields are rejected, not dropped.
 */
export const decisionSchema = z.object(SHAPE).strict();

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
