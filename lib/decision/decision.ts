/**
 * The Decision record: one model answer on one task, as exported by a run.
 *
 * @module
 */

import { z } from "zod";
import type { CostEvidence } from "../evidence/cost_evidence.ts";

/** The class a clean item (no exception) carries. */
export const CLEAN_CLASS = "MATCH";

export type { Action } from "../metrics/sufficient_stats.ts";
import { InputRangeError } from "../input_error.ts";
import {
  DECISION_FIELDS,
  type DecisionField,
  type FieldRule,
  keyPath,
  type NullRule,
} from "./schema.ts";
export { DECISION_KEYS, REQUIRED_KEYS } from "./schema.ts";
import {
  isPCorrectSource,
  PCORRECT_SOURCE_ERROR,
  type PCorrectSource,
} from "./pcorrect_source.ts";

/**
 * One line of a run export (docs/formats.md), typed from the Decision schema
 * (lib/decision/schema.ts, where each field is described): a required field
 * is a property, an optional one an optional property, a nullable one takes
 * null, and the cost's members make `cost`, the evidence union.
 *
 * The severity comes from the task, never from the model. `pCorrect` is the
 * model's stated probability that its answer is correct; P(error) is derived
 * from it in one place ({@linkcode pError}).
 */
export type Decision =
  & { readonly [F in RequiredDecisionField as F["key"]]: FieldValue<F> }
  & { readonly [F in OptionalDecisionField as F["key"]]?: FieldValue<F> }
  & { readonly cost: CostEvidence };

/** The Decision schema's fields, as types. */
export type DecisionSchemaField = typeof DECISION_FIELDS[number];
/** Top-level fields (the cost's members make `cost`, typed by its evidence union). */
export type TopDecisionField = Exclude<
  DecisionSchemaField,
  { readonly key: `${string}.${string}` }
>;
/** The required top-level fields. */
export type RequiredDecisionField = Extract<
  TopDecisionField,
  { readonly required: true }
>;
/** The optional top-level fields. */
export type OptionalDecisionField = Extract<
  TopDecisionField,
  { readonly required: false }
>;
/** The type of a rule's values. */
export type RuleValue<R> = R extends { readonly kind: "id" | "text" } ? string
  : R extends { readonly kind: "count" | "amount" | "probability" } ? number
  : R extends { readonly kind: "boolean" } ? boolean
  : R extends { readonly kind: "enum"; readonly values: readonly (infer V)[] }
    ? V
  : R extends { readonly kind: "pcorrect-source" } ? PCorrectSource
  : never;
/** A field's type: its rule's values, and null where null is a value. */
export type FieldValue<F extends DecisionSchemaField> = F["nulls"] extends
  { readonly reads: "value" } ? RuleValue<F["rule"]> | null
  : RuleValue<F["rule"]>;

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
  const local = (f: DecisionField) => keyPath(f.key).member!;
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
    const { head, member } = keyPath(f.key);
    if (member === null) {
      shape[f.key] = zodOfField(f);
      continue;
    }
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
