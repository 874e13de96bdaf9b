/**
 * The portable queries that find the rows behind a failed check: the first
 * rows failing a row check, and the first repeated decision keys, both in
 * key order. Companions of `decisionStatsSql` and `duplicateDecisionsSql`
 * (same identifiers, same checks), run unchanged on DuckDB, PostgreSQL and
 * SQLite; `LIMIT` is the one word outside ANSI SQL (Spark and Trino have it
 * too).
 *
 * @module
 */

import { DECISION_CHECKS, invalidDecisionSql } from "./duckdb_stats_sql.ts";
import { DECISION_COLUMNS } from "../decision/schema.ts";

const KEY = "runId, modelId, taskId, trial";

function limitOf(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`limit must be a whole number >= 1, got ${limit}`);
  }
  return limit;
}

/**
 * The query for the first rows failing {@linkcode DECISION_CHECKS}, in key
 * order (runId, modelId, taskId, trial), with every Decision column and one
 * flag per check: `check0`, `check1`, … (1 when the row fails check i, in
 * the order of `DECISION_CHECKS`, else 0).
 *
 * @param relation The relation to scan. Default: `decisions`.
 * @param limit Rows to return at most. Default: 100.
 * @returns The query text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstInvalidDecisionsSql } from "./decision_sql_rows.ts";
 *
 * const sql = firstInvalidDecisionsSql("decisions", 5);
 * assert.match(sql, /AS check0,/);
 * assert.match(sql, /ORDER BY runId, modelId, taskId, trial\nLIMIT 5$/);
 * ```
 */
export function firstInvalidDecisionsSql(
  relation = "decisions",
  limit = 100,
): string {
  const flags = DECISION_CHECKS.map((c, i) =>
    `CASE WHEN ${c.sql} THEN 1 ELSE 0 END AS check${i}`
  ).join(",\n  ");
  return `SELECT ${DECISION_COLUMNS.join(", ")},
  ${flags}
FROM ${relation}
WHERE ${invalidDecisionSql()}
ORDER BY ${KEY}
LIMIT ${limitOf(limit)}`;
}

/**
 * The query for the first decision keys that occur more than once, in key
 * order, with the number of rows (`copies`) of each.
 *
 * @param relation The relation to scan. Default: `decisions`.
 * @param limit Keys to return at most. Default: 100.
 * @returns The query text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { repeatedDecisionKeysSql } from "./decision_sql_rows.ts";
 *
 * assert.match(repeatedDecisionKeysSql("t", 1), /HAVING COUNT\(\*\) > 1\nORDER BY runId, modelId, taskId, trial\nLIMIT 1$/);
 * ```
 */
export function repeatedDecisionKeysSql(
  relation = "decisions",
  limit = 100,
): string {
  return `SELECT ${KEY}, COUNT(*) AS copies
FROM ${relation}
GROUP BY ${KEY}
HAVING COUNT(*) > 1
ORDER BY ${KEY}
LIMIT ${limitOf(limit)}`;
}
