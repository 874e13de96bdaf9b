/**
 * The decision SQL for someone who wants to run it in their own warehouse:
 * the table layout, the aggregate, the row checks and the duplicate-key
 * query, for one of the engines the SQL is tested on (DuckDB, PostgreSQL,
 * SQLite, and ClickHouse through chdb, its embedded engine). The queries
 * are the same text on the first three; only the `CREATE TABLE` type names
 * differ. On ClickHouse the table layout declares the optional columns
 * `Nullable(...)` (its columns hold no NULL otherwise) and orders a
 * MergeTree by the decision key, and the aggregate sums Int128 (an Int64
 * sum wraps around there without an error); the checks and the other
 * queries are the same text.
 *
 * @module
 */

import {
  firstInvalidDecisionsSql,
  repeatedDecisionKeysSql,
} from "./decision_sql_rows.ts";
import {
  clusterSplitTasksSql,
  DECISION_CHECKS,
  decisionStatsSql,
  duplicateDecisionsSql,
} from "./duckdb_stats_sql.ts";
import { decisionColumnsSql } from "../decision/schema_sql.ts";
import type { DecisionUnit } from "../decision/cluster.ts";

/** The engines the decision SQL is run on in lossbook's tests. */
export const SQL_DIALECTS = [
  "duckdb",
  "postgres",
  "sqlite",
  "clickhouse",
] as const;

/** One of {@linkcode SQL_DIALECTS}. */
export type SqlDialect = typeof SQL_DIALECTS[number];

/** Options for {@linkcode decisionsTableSql}. */
export interface DecisionsTableOptions {
  /**
   * Add one `CHECK (NOT (<check>))` per entry of `DECISION_CHECKS`, in its
   * order. A CHECK refuses a row only when its expression is FALSE, so one
   * whose check is NULL passes, as the row checks count a NULL check as
   * valid (`CASE WHEN <check> THEN 1 ELSE 0 END`): the table then admits
   * exactly the rows the row checks admit. Default: `false`.
   */
  readonly checks?: boolean;
  /** Add `PRIMARY KEY (runId, modelId, taskId, trial)`. Default: `false`. */
  readonly primaryKey?: boolean;
}

/**
 * `CREATE TABLE` for a decisions table with unquoted column names, in a
 * dialect's type names; optionally with the row checks as CHECK
 * constraints and the decision key as primary key (identifiers unquoted
 * there too; DuckDB, PostgreSQL and SQLite accept the same constraint
 * text). On ClickHouse the table is a MergeTree ordered by the decision
 * key, and takes neither option: its primary key does not refuse a
 * repeated key (the `repeatedKeys` query finds them).
 *
 * @param dialect The engine.
 * @param table The table name. Default: `decisions`.
 * @param options The constraints to add. Default: none.
 * @returns The statement, without a trailing semicolon.
 * @throws {RangeError} For a constraint on ClickHouse.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionsTableSql } from "./decision_sql_export.ts";
 *
 * assert.match(decisionsTableSql("postgres"), /^CREATE TABLE decisions \(\n  runId text NOT NULL,/);
 * assert.match(decisionsTableSql("sqlite"), /parseOk INTEGER NOT NULL/);
 * const strict = decisionsTableSql("duckdb", "d", { checks: true, primaryKey: true });
 * assert.match(strict, /,\n  CHECK \(NOT \(runId IS NULL OR runId = ''\)\),/);
 * assert.match(strict, /,\n  PRIMARY KEY \(runId, modelId, taskId, trial\)\n\)$/);
 * assert.match(decisionsTableSql("clickhouse"), /\n\)\nENGINE = MergeTree\nORDER BY \(runId, modelId, taskId, trial\)$/);
 * ```
 */
export function decisionsTableSql(
  dialect: SqlDialect,
  table = "decisions",
  options: DecisionsTableOptions = {},
): string {
  const lines = decisionColumnsSql(dialect).map((c) => `  ${c}`);
  if (dialect === "clickhouse") {
    if (options.checks === true || options.primaryKey === true) {
      throw new RangeError(
        "Cannot constrain a ClickHouse decisions table: its primary key does not refuse a repeated key; run the row-check and repeated-key queries instead",
      );
    }
    return `CREATE TABLE ${table} (\n${
      lines.join(",\n")
    }\n)\nENGINE = MergeTree\nORDER BY (runId, modelId, taskId, trial)`;
  }
  if (options.checks === true) {
    for (const c of DECISION_CHECKS) lines.push(`  CHECK (NOT (${c.sql}))`);
  }
  if (options.primaryKey === true) {
    lines.push("  PRIMARY KEY (runId, modelId, taskId, trial)");
  }
  return `CREATE TABLE ${table} (\n${lines.join(",\n")}\n)`;
}

/** The queries of {@linkcode decisionSqlExport}. */
export interface DecisionSqlExport {
  /** The engine they were made for. */
  readonly dialect: SqlDialect;
  /** The relation they read. */
  readonly table: string;
  /** The table layout the queries expect. */
  readonly createTable: string;
  /** Sufficient statistics with a count of bad rows (`decisionStatsSql`). */
  readonly aggregate: string;
  /** The first rows failing a check, with one flag per check. */
  readonly rowChecks: string;
  /** How many decision keys repeat (`duplicateDecisionsSql`). */
  readonly duplicateKeys: string;
  /** The first repeated keys, with their row counts. */
  readonly repeatedKeys: string;
  /** `"cluster"` when the aggregate counts clusters; absent when it counts tasks. */
  readonly unit?: "cluster";
  /**
   * With the cluster as the unit: how many tasks name two clusters
   * (`clusterSplitTasksSql`; 0 for a table the statistics may be read
   * from). Absent when the unit is the task.
   */
  readonly clusterSplitTasks?: string;
}

/**
 * Every decision query for one engine and table.
 *
 * @param dialect The engine.
 * @param table The table or view. Default: `decisions`.
 * @param unit The unit the aggregate counts: `taskId` (its window by task)
 * or `cluster` (by cluster, with the query that finds tasks in two
 * clusters). Default: `taskId`.
 * @returns The queries.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionSqlExport } from "./decision_sql_export.ts";
 *
 * const pg = decisionSqlExport("postgres", "runs.decisions");
 * const lite = decisionSqlExport("sqlite", "runs.decisions");
 * assert.equal(pg.aggregate, lite.aggregate);
 * assert.match(pg.aggregate, /FROM runs\.decisions/);
 * const byCluster = decisionSqlExport("postgres", "d", "cluster");
 * assert.match(byCluster.aggregate, /PARTITION BY modelId, cluster\)/);
 * assert.match(byCluster.clusterSplitTasks!, /COUNT\(DISTINCT cluster\) > 1/);
 * ```
 */
export function decisionSqlExport(
  dialect: SqlDialect,
  table = "decisions",
  unit: DecisionUnit = "taskId",
): DecisionSqlExport {
  return {
    dialect,
    table,
    createTable: decisionsTableSql(dialect, table),
    aggregate: decisionStatsSql(table, dialect, unit),
    rowChecks: firstInvalidDecisionsSql(table, 100),
    duplicateKeys: duplicateDecisionsSql(table),
    repeatedKeys: repeatedDecisionKeysSql(table, 100),
    ...(unit === "cluster"
      ? { unit, clusterSplitTasks: clusterSplitTasksSql(table) }
      : {}),
  };
}
