/**
 * The flat Decision layout's column names and the kind of value each holds:
 * what every table reader checks a file or a table against. A module of its
 * own so that a reader that needs only the names (the PostgreSQL engine)
 * loads no table library.
 *
 * @module
 */

/**
 * The columns of the flat Decision layout, in order: the Decision fields,
 * with cost flattened as `costCompleteness` and `costUsd`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DECISION_COLUMNS } from "./decision_columns.ts";
 *
 * assert.equal(DECISION_COLUMNS[0], "runId");
 * ```
 */
export const DECISION_COLUMNS = [
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
  "costCompleteness",
  "costUsd",
  "outcome",
  "tokensIn",
  "tokensOut",
  "latencyMs",
  "pCorrectSource",
  "answer",
  "target",
] as const;

/**
 * Columns of {@linkcode DECISION_COLUMNS} that a file may leave out (exports
 * written before they existed); a missing one reads as all `null`.
 */
export const OPTIONAL_DECISION_COLUMNS = [
  "tokensIn",
  "tokensOut",
  "latencyMs",
  "pCorrectSource",
  "answer",
  "target",
] as const;

/** The name of one column of the flat Decision layout. */
export type DecisionColumn = typeof DECISION_COLUMNS[number];

const STRING_COLUMNS: ReadonlySet<string> = new Set([
  "runId",
  "modelId",
  "taskId",
  "severity",
  "trueClass",
  "predClass",
  "action",
  "costCompleteness",
  "outcome",
  "pCorrectSource",
  "answer",
  "target",
]);

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
 * import { decisionColumnKind } from "./decision_columns.ts";
 *
 * assert.equal(decisionColumnKind("pCorrect"), "number");
 * assert.equal(decisionColumnKind("parseOk"), "boolean");
 * ```
 */
export function decisionColumnKind(
  column: DecisionColumn,
): "text" | "number" | "boolean" {
  return STRING_COLUMNS.has(column)
    ? "text"
    : column === "parseOk"
    ? "boolean"
    : "number";
}
