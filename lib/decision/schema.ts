/**
 * The Decision schema: every field of a Decision said once, with its name,
 * its flat column, its rule, whether it may be absent and how a null reads.
 * Everything else that knows a field is derived from this table: the zod
 * schema, the fast check, the flat column layout and its kinds, the CSV,
 * Arrow and Parquet column rules, the SQL row checks and constraints, and
 * the JSONL scanner's slots. Adding an optional field means adding one
 * entry here (and its docs and tests).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   DECISION_FIELDS,
 *   decisionColumnKind,
 *   fieldOfColumn,
 * } from "./schema.ts";
 *
 * assert.equal(DECISION_FIELDS[0].key, "runId");
 * assert.equal(fieldOfColumn("costUsd").key, "cost.usd");
 * assert.equal(decisionColumnKind("pCorrect"), "number");
 * ```
 *
 * @module
 */

import { SEVERITIES } from "../costs/severity.ts";
import {
  COST_COMPLETENESS,
  COST_WITHOUT_AMOUNT,
  FAILURE_CLASSES,
} from "../evidence/cost_evidence.ts";
import { isPCorrectSource, PCORRECT_SOURCE_ERROR } from "./pcorrect_source.ts";

/**
 * What a field's value may be (its null aside, which {@linkcode DecisionField}
 * says):
 * - `id`: a non-empty string;
 * - `text`: any string;
 * - `count`: a whole number >= 0, a safe integer;
 * - `amount`: a finite number >= 0;
 * - `probability`: a number in [0, 1];
 * - `boolean`: true or false;
 * - `enum`: one of `values`;
 * - `pcorrect-source`: a probability's provenance (lib/decision/pcorrect_source.ts).
 */
export type FieldRule =
  | { readonly kind: "id" }
  | { readonly kind: "text" }
  | { readonly kind: "count" }
  | { readonly kind: "amount" }
  | { readonly kind: "probability" }
  | { readonly kind: "boolean" }
  | { readonly kind: "enum"; readonly values: readonly string[] }
  | { readonly kind: "pcorrect-source" };

/** The kind of a rule: `id`, `text`, `count`, and so on. */
export type FieldKind = FieldRule["kind"];

/**
 * How a field's null reads:
 * - `never`: null is refused;
 * - `value`: null is a value of the field (`pCorrect` null: no probability);
 * - `absent`: null means the field was not given (an optional field in a
 *   flat layout, where a cell cannot be absent);
 * - `when`: null exactly when the column `column` holds one of `values`,
 *   and a value otherwise (the cost's amount).
 */
export type NullRule =
  | { readonly reads: "never" }
  | { readonly reads: "value" }
  | { readonly reads: "absent" }
  | {
    readonly reads: "when";
    readonly column: string;
    readonly values: readonly string[];
  };

/** One field of a Decision. */
export interface DecisionField {
  /** Its JSON key; a nested one is dotted (`cost.usd`). */
  readonly key: string;
  /** Its column in the flat layout (CSV, Arrow, Parquet, SQL). */
  readonly column: string;
  /** What a value may be. */
  readonly rule: FieldRule;
  /** `true` when a record must have the key (or a flat file the column). */
  readonly required: boolean;
  /** How a null reads. */
  readonly nulls: NullRule;
  /** What the field means, in one sentence (docs/formats.md says more). */
  readonly doc: string;
  /**
   * A storage hint, not a rule: `true` when the column holds a few values
   * that repeat from row to row (model and class ids, the closed sets), so
   * that columnar files (Arrow) store it dictionary-encoded. Default: plain.
   */
  readonly repeats?: boolean;
}

const ID = { kind: "id" } as const;
const COUNT = { kind: "count" } as const;
const TEXT = { kind: "text" } as const;
const NEVER = { reads: "never" } as const;
const ABSENT = { reads: "absent" } as const;

/**
 * Every field of a Decision, in the order of the flat layout: the twelve
 * required keys (with the cost's two), then the optional ones.
 */
export const DECISION_FIELDS = [
  {
    key: "runId",
    column: "runId",
    rule: ID,
    required: true,
    nulls: NEVER,
    doc: "Id of the run that produced the decision.",
  },
  {
    key: "modelId",
    column: "modelId",
    rule: ID,
    required: true,
    nulls: NEVER,
    doc: "Id of the model that answered.",
    repeats: true,
  },
  {
    key: "taskId",
    column: "taskId",
    rule: ID,
    required: true,
    nulls: NEVER,
    doc: "Id of the task.",
  },
  {
    key: "trial",
    column: "trial",
    rule: COUNT,
    required: true,
    nulls: NEVER,
    doc: "Trial number, for repeated attempts at one task (0 or more).",
  },
  {
    key: "severity",
    column: "severity",
    rule: { kind: "enum", values: SEVERITIES },
    required: true,
    nulls: NEVER,
    doc: "Consequence severity of a wrong automatic decision on this task.",
    repeats: true,
  },
  {
    key: "trueClass",
    column: "trueClass",
    rule: ID,
    required: true,
    nulls: NEVER,
    doc: 'Gold class, "MATCH" for a clean item.',
    repeats: true,
  },
  {
    key: "predClass",
    column: "predClass",
    rule: ID,
    required: true,
    nulls: NEVER,
    doc: "Class the decision was taken as (after any parse fallback).",
    repeats: true,
  },
  {
    key: "parseOk",
    column: "parseOk",
    rule: { kind: "boolean" },
    required: true,
    nulls: NEVER,
    doc: "Whether the model's raw output parsed.",
  },
  {
    key: "pCorrect",
    column: "pCorrect",
    rule: { kind: "probability" },
    required: true,
    nulls: { reads: "value" },
    doc: "Stated P(answer is correct), or null when the model gave none.",
  },
  {
    key: "action",
    column: "action",
    rule: { kind: "enum", values: ["auto", "escalate"] },
    required: true,
    nulls: NEVER,
    doc: "auto or escalate.",
    repeats: true,
  },
  {
    key: "cost.completeness",
    column: "costCompleteness",
    rule: { kind: "enum", values: COST_COMPLETENESS },
    required: true,
    nulls: NEVER,
    doc: "Whether the cost of producing the decision is known.",
    repeats: true,
  },
  {
    key: "cost.usd",
    column: "costUsd",
    rule: { kind: "amount" },
    required: true,
    nulls: {
      reads: "when",
      column: "costCompleteness",
      values: COST_WITHOUT_AMOUNT,
    },
    doc: "The cost in USD: a floor when partial, null when not known.",
  },
  {
    key: "outcome",
    column: "outcome",
    rule: { kind: "enum", values: FAILURE_CLASSES },
    required: true,
    nulls: NEVER,
    doc: "Terminal outcome of the attempt.",
    repeats: true,
  },
  {
    key: "tokensIn",
    column: "tokensIn",
    rule: COUNT,
    required: false,
    nulls: ABSENT,
    doc: "Input tokens, when known.",
  },
  {
    key: "tokensOut",
    column: "tokensOut",
    rule: COUNT,
    required: false,
    nulls: ABSENT,
    doc: "Output tokens, when known.",
  },
  {
    key: "latencyMs",
    column: "latencyMs",
    rule: { kind: "amount" },
    required: false,
    nulls: ABSENT,
    doc: "Wall-clock latency in milliseconds, when known.",
  },
  {
    key: "pCorrectSource",
    column: "pCorrectSource",
    rule: { kind: "pcorrect-source" },
    required: false,
    nulls: { reads: "value" },
    doc: "Where pCorrect came from, or null when there is no probability.",
    repeats: true,
  },
  {
    key: "answer",
    column: "answer",
    rule: TEXT,
    required: false,
    nulls: ABSENT,
    doc: "The answer text a harness recorded; never used for correctness.",
  },
  {
    key: "target",
    column: "target",
    rule: TEXT,
    required: false,
    nulls: ABSENT,
    doc: "The target text a harness recorded; never used for correctness.",
  },
  {
    key: "cluster",
    column: "cluster",
    rule: ID,
    required: false,
    nulls: ABSENT,
    doc:
      "The cluster the task belongs to (its source document or scenario), when given: the unit of intervals and tests.",
  },
] as const satisfies readonly DecisionField[];

/** The name of one column of the flat Decision layout. */
export type DecisionColumn = typeof DECISION_FIELDS[number]["column"];

/** A column that a file may leave out (see {@linkcode OPTIONAL_DECISION_COLUMNS}). */
export type OptionalDecisionColumn = Extract<
  typeof DECISION_FIELDS[number],
  { readonly required: false }
>["column"];

/** Where a field sits in a record: its top-level key, and its member in a nested one. */
export interface KeyPath {
  /** The top-level key (`cost` for `cost.usd`). */
  readonly head: string;
  /** The member inside it (`usd`), or `null` for a top-level field. */
  readonly member: string | null;
}

/**
 * A field's dotted key split once, for every derivation that places it in a
 * record.
 *
 * @param key A field's key, e.g. `cost.usd`.
 * @returns Its head and member.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyPath } from "./schema.ts";
 *
 * assert.deepEqual(keyPath("cost.usd"), { head: "cost", member: "usd" });
 * assert.deepEqual(keyPath("runId"), { head: "runId", member: null });
 * ```
 */
export function keyPath(key: string): KeyPath {
  const dot = key.indexOf(".");
  return dot < 0
    ? { head: key, member: null }
    : { head: key.slice(0, dot), member: key.slice(dot + 1) };
}

/**
 * What the derivations assume of the table, checked when this module loads so
 * that a field of a new shape fails at once instead of being read wrongly:
 * required fields come first; every nested key's members include exactly one
 * whose null depends on another member of the same key, an enum; no
 * top-level field's null depends on another; an optional field's null reads
 * as absent or as a value (a flat file that leaves its column out gives
 * nulls); keys and columns are unique.
 *
 * @param fields A field table.
 * @throws {Error} Naming the assumption the table breaks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkDecisionFields, DECISION_FIELDS } from "./schema.ts";
 *
 * checkDecisionFields(DECISION_FIELDS);
 * assert.throws(
 *   () => checkDecisionFields([...DECISION_FIELDS].reverse()),
 *   /a required field follows an optional one/,
 * );
 * ```
 */
export function checkDecisionFields(fields: readonly DecisionField[]): void {
  const fail = (why: string) => {
    throw new Error(`The Decision schema is inconsistent: ${why}`);
  };
  const firstOptional = fields.findIndex((f) => !f.required);
  if (
    firstOptional >= 0 && fields.slice(firstOptional).some((f) => f.required)
  ) {
    fail("a required field follows an optional one");
  }
  for (const attr of ["key", "column"] as const) {
    const seen = new Set(fields.map((f) => f[attr]));
    if (seen.size !== fields.length) fail(`a ${attr} repeats`);
  }
  const groups = new Map<string, DecisionField[]>();
  for (const f of fields) {
    const { head, member } = keyPath(f.key);
    if (member !== null) {
      (groups.get(head) ?? groups.set(head, []).get(head)!).push(f);
    } else if (f.nulls.reads === "when") {
      fail(`${f.key}: only a nested member's null may depend on another`);
    }
    if (
      !f.required && f.nulls.reads !== "absent" && f.nulls.reads !== "value"
    ) fail(`${f.key}: an optional field's null must read as absent or a value`);
  }
  for (const [head, members] of groups) {
    const dependent = members.filter((m) => m.nulls.reads === "when");
    if (dependent.length !== 1) {
      fail(`${head}: needs exactly one member whose null depends on another`);
    }
    const on = dependent[0].nulls as { column: string };
    const tag = members.find((m) => m.column === on.column);
    if (tag === undefined || tag.rule.kind !== "enum") {
      fail(`${head}: the member a null depends on must be an enum of ${head}`);
    }
    if (members.some((m) => !m.required)) {
      fail(`${head}: nested members must be required`);
    }
  }
}

checkDecisionFields(DECISION_FIELDS);

const BY_COLUMN: ReadonlyMap<string, DecisionField> = new Map(
  DECISION_FIELDS.map((f): [string, DecisionField] => [f.column, f]),
);

/**
 * The field behind a flat column.
 *
 * @param column A column of {@linkcode DECISION_COLUMNS}.
 * @returns Its field.
 * @throws {RangeError} For a name that is not a column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fieldOfColumn } from "./schema.ts";
 *
 * assert.equal(fieldOfColumn("costCompleteness").key, "cost.completeness");
 * ```
 */
export function fieldOfColumn(column: DecisionColumn | string): DecisionField {
  const f = BY_COLUMN.get(column);
  if (f === undefined) {
    throw new RangeError(`Unknown Decision column ${JSON.stringify(column)}`);
  }
  return f;
}

/**
 * The columns of the flat Decision layout, in order: the Decision fields,
 * with cost flattened as `costCompleteness` and `costUsd`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DECISION_COLUMNS } from "./schema.ts";
 *
 * assert.equal(DECISION_COLUMNS[0], "runId");
 * assert.equal(DECISION_COLUMNS.length, 20);
 * ```
 */
export const DECISION_COLUMNS: readonly DecisionColumn[] = DECISION_FIELDS
  .map((f) => f.column);

/**
 * Columns of {@linkcode DECISION_COLUMNS} that a file may leave out (exports
 * written before they existed); a missing one reads as all `null`.
 */
export const OPTIONAL_DECISION_COLUMNS: readonly DecisionColumn[] =
  DECISION_FIELDS.filter((f) => !f.required).map((f) => f.column);

/**
 * The top-level JSON keys of a Decision: the required ones (with `cost`
 * once), then the optional ones.
 */
export const DECISION_KEYS: readonly string[] = [
  ...new Set(DECISION_FIELDS.map((f) => keyPath(f.key).head)),
];

/** How many of {@linkcode DECISION_KEYS} a decision must have. */
export const REQUIRED_KEYS: number = new Set(
  DECISION_FIELDS.filter((f) => f.required).map((f) => keyPath(f.key).head),
).size;

/** The kind of value a flat column holds. */
export type ColumnKind = "text" | "number" | "boolean";

/**
 * The kind of value a rule's column holds: text, a number (counts are
 * checked row by row for whole values), or a boolean.
 *
 * @param rule A field's rule.
 * @returns `"text"`, `"number"` or `"boolean"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kindOfRule } from "./schema.ts";
 *
 * assert.equal(kindOfRule({ kind: "count" }), "number");
 * ```
 */
export function kindOfRule(rule: FieldRule): ColumnKind {
  switch (rule.kind) {
    case "count":
    case "amount":
    case "probability":
      return "number";
    case "boolean":
      return "boolean";
    default:
      return "text";
  }
}

/**
 * The kind of value a flat column holds: text, a number (integer fields are
 * checked row by row for whole values), or `parseOk`'s boolean.
 *
 * @param column A column of {@linkcode DECISION_COLUMNS}.
 * @returns `"text"`, `"number"` or `"boolean"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionColumnKind } from "./schema.ts";
 *
 * assert.equal(decisionColumnKind("pCorrect"), "number");
 * assert.equal(decisionColumnKind("parseOk"), "boolean");
 * ```
 */
export function decisionColumnKind(column: string): ColumnKind {
  return kindOfRule(fieldOfColumn(column).rule);
}

/**
 * Whether a non-null value satisfies a rule. The one statement of each
 * rule in JavaScript; the zod schema and the fast checks call it.
 *
 * @param rule A field's rule.
 * @param value The value (null is decided by the field's {@linkcode NullRule}).
 * @returns `true` when the value is allowed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { satisfies } from "./schema.ts";
 *
 * assert.equal(satisfies({ kind: "count" }, 3), true);
 * assert.equal(satisfies({ kind: "count" }, 3.5), false);
 * assert.equal(satisfies({ kind: "probability" }, 1.2), false);
 * ```
 */
export function satisfies(rule: FieldRule, value: unknown): boolean {
  switch (rule.kind) {
    case "id":
      return typeof value === "string" && value.length > 0;
    case "text":
      return typeof value === "string";
    case "count":
      return typeof value === "number" && Number.isSafeInteger(value) &&
        value >= 0;
    case "amount":
      return typeof value === "number" && Number.isFinite(value) &&
        value >= 0;
    case "probability":
      return typeof value === "number" && value >= 0 && value <= 1;
    case "boolean":
      return typeof value === "boolean";
    case "enum":
      return typeof value === "string" && rule.values.includes(value);
    case "pcorrect-source":
      return isPCorrectSource(value);
  }
}

/**
 * A rule in words, as error messages and the SQL row checks state it.
 *
 * @param field A field.
 * @returns E.g. `"a whole number >= 0 or null"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fieldOfColumn, ruleInWords } from "./schema.ts";
 *
 * assert.equal(ruleInWords(fieldOfColumn("tokensIn")), "a whole number >= 0 or null");
 * ```
 */
export function ruleInWords(field: DecisionField): string {
  const r = field.rule;
  const base = r.kind === "id"
    ? "a non-empty string"
    : r.kind === "text"
    ? "text"
    : r.kind === "count"
    ? "a whole number >= 0"
    : r.kind === "amount"
    ? "a finite number >= 0"
    : r.kind === "probability"
    ? "a number in [0, 1]"
    : r.kind === "boolean"
    ? "true or false"
    : r.kind === "enum"
    ? `one of ${r.values.join(", ")}`
    : PCORRECT_SOURCE_ERROR.replace(/^must be /, "").replace(/, or null$/, "");
  const n = field.nulls;
  return n.reads === "never"
    ? base
    : n.reads === "when"
    ? `${base} when ${n.column} is not ${
      n.values.join(" or ")
    }, null when it is`
    : `${base} or null`;
}

/**
 * Whether a flat row (a value or null for each column; a missing optional
 * column reads as null) is a valid Decision. Exactly the rows the zod schema
 * accepts once unflattened.
 *
 * @param row The row, by column.
 * @returns `true` for a valid row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isValidFlatRow } from "./schema.ts";
 *
 * const row = {
 *   runId: "r", modelId: "m", taskId: "t", trial: 0, severity: "HIGH",
 *   trueClass: "MATCH", predClass: "MATCH", parseOk: true, pCorrect: null,
 *   action: "auto", costCompleteness: "unavailable", costUsd: null,
 *   outcome: "resolved",
 * };
 * assert.equal(isValidFlatRow(row), true);
 * assert.equal(isValidFlatRow({ ...row, costUsd: 1 }), false);
 * ```
 */
export function isValidFlatRow(
  row: Readonly<Record<string, unknown>>,
): boolean {
  return IS_VALID_FLAT_ROW(row);
}

/**
 * A flat row as a Decision-shaped record: nested keys rebuilt (`cost`), and
 * a null optional field left out. The row is not checked.
 *
 * @param row The row, by column.
 * @returns The record.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unflattenRow } from "./schema.ts";
 *
 * const d = unflattenRow({ costCompleteness: "complete", costUsd: 1, latencyMs: null });
 * assert.deepEqual(d.cost, { completeness: "complete", usd: 1 });
 * assert.equal("latencyMs" in d, false);
 * ```
 */
export function unflattenRow(
  row: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return UNFLATTEN_ROW(row);
}

/**
 * Each field's key split once (`cost.usd`: head `cost`, member `usd`), as
 * unflattenRow and flattenRecord read it for every row.
 */
interface Path extends KeyPath {
  readonly column: string;
  readonly required: boolean;
}

const PATHS: readonly Path[] = DECISION_FIELDS.map((f) => ({
  column: f.column,
  required: f.required,
  ...keyPath(f.key),
}));

/**
 * A Decision-shaped record as a flat row: a value or null for every column.
 *
 * @param record A Decision (or any object with its keys).
 * @returns The row, by column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flattenRecord } from "./schema.ts";
 *
 * const row = flattenRecord({ cost: { completeness: "complete", usd: 2 } });
 * assert.equal(row.costUsd, 2);
 * assert.equal(row.tokensIn, null);
 * ```
 */
export function flattenRecord(
  record: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of PATHS) {
    const v = p.member === null
      ? record[p.head]
      : (record[p.head] as Record<string, unknown> | undefined)?.[p.member];
    out[p.column] = v === undefined ? null : v;
  }
  return out;
}

/**
 * Decision-shaped records as one array per flat column: what
 * {@linkcode flattenRecord} gives for each record, column by column.
 *
 * @param records Decisions (or any objects with their keys).
 * @returns For each column of {@linkcode DECISION_COLUMNS}, its values in record order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recordColumns } from "./schema.ts";
 *
 * const cols = recordColumns([{ cost: { completeness: "complete", usd: 2 } }]);
 * assert.deepEqual(cols.costUsd, [2]);
 * assert.deepEqual(cols.tokensIn, [null]);
 * ```
 */
export function recordColumns(
  records: readonly Readonly<Record<string, unknown>>[],
): Record<DecisionColumn, unknown[]> {
  return RECORD_COLUMNS(records) as Record<DecisionColumn, unknown[]>;
}

// isValidFlatRow, unflattenRow and recordColumns are written out from the
// field table once, when this module loads, as one would write them by
// hand: every key and column a property name in the source. The columnar
// readers call them for every row of a file, and a loop over the fields
// would look each one up by a name known only at run time. Names enter the
// source through JSON.stringify; rules enter as values, never as source.

const J = JSON.stringify;

/** A function built from source text and the values it closes over. */
function compile<F>(body: string, values: Record<string, unknown>): F {
  return new Function(...Object.keys(values), body)(
    ...Object.values(values),
  ) as F;
}

/**
 * isValidFlatRow: per field, a null (or a missing optional column) is
 * allowed when the null rule reads `value` or `absent`, and for `when`
 * exactly when the named column holds one of its values; any other value
 * must satisfy the rule, and must be null where `when` holds.
 */
const IS_VALID_FLAT_ROW = compile<
  (row: Readonly<Record<string, unknown>>) => boolean
>(
  `return (row) => {
  let v;
${
    DECISION_FIELDS.map((f: DecisionField, k) => {
      const n = f.nulls;
      const ok = `satisfies(rules[${k}], v)`;
      const test = n.reads === "never"
        ? `v === null || !${ok}`
        : n.reads === "when"
        ? `whens[${k}].includes(row[${
          J(n.column)
        }]) ? v !== null : v === null || !${ok}`
        : `v !== null && !${ok}`;
      return `  v = row[${J(f.column)}] ?? null;\n  if (${test}) return false;`;
    }).join("\n")
  }
  return true;
};`,
  {
    satisfies,
    rules: DECISION_FIELDS.map((f) => f.rule),
    whens: DECISION_FIELDS.map((f: DecisionField) =>
      f.nulls.reads === "when" ? f.nulls.values : null
    ),
  },
);

/**
 * unflattenRow: the fields in order, a nested key's object made at its
 * first member; a null optional field left out. The leading required
 * fields make one object literal.
 */
const UNFLATTEN_ROW = compile<
  (row: Readonly<Record<string, unknown>>) => Record<string, unknown>
>(
  (() => {
    const cell = (p: Path) => `row[${J(p.column)}]`;
    let k = 0;
    const literal: string[] = [];
    const groups = new Map<string, string[]>();
    for (; k < PATHS.length && PATHS[k].required; k++) {
      const p = PATHS[k];
      if (p.member === null) literal.push(`${J(p.head)}: ${cell(p)}`);
      else {
        if (!groups.has(p.head)) {
          groups.set(p.head, []);
          literal.push(`${J(p.head)}: @${p.head}@`);
        }
        groups.get(p.head)!.push(`${J(p.member)}: ${cell(p)}`);
      }
    }
    let head = `{ ${literal.join(", ")} }`;
    for (const [h, members] of groups) {
      head = head.replace(`@${h}@`, () => `{ ${members.join(", ")} }`);
    }
    const rest = PATHS.slice(k).map((p) => {
      const to = p.member === null
        ? `out[${J(p.head)}]`
        : `(out[${J(p.head)}] ??= {})[${J(p.member)}]`;
      return p.required
        ? `  ${to} = ${cell(p)};`
        : `  v = ${cell(p)};\n  if (v != null) ${to} = v;`;
    });
    return `return (row) => {
  const out = ${head};
  let v;
${rest.join("\n")}
  return out;
};`;
  })(),
  {},
);

/** recordColumns: flattenRecord, one array per column. */
const RECORD_COLUMNS = compile<
  (records: readonly Readonly<Record<string, unknown>>[]) => Record<
    string,
    unknown[]
  >
>(
  `return (records) => {
  const n = records.length;
${PATHS.map((_, k) => `  const c${k} = new Array(n);`).join("\n")}
  for (let i = 0; i < n; i++) {
    const d = records[i];
    let v;
${
    PATHS.map((p, k) => {
      const get = p.member === null
        ? `d[${J(p.head)}]`
        : `d[${J(p.head)}]?.[${J(p.member)}]`;
      return `    v = ${get};\n    c${k}[i] = v === undefined ? null : v;`;
    }).join("\n")
  }
  }
  return { ${PATHS.map((p, k) => `${J(p.column)}: c${k}`).join(", ")} };
};`,
  {},
);
