/**
 * Decision statistics computed where the rows are, and the SQL behind them.
 *
 * The engines reduce a run to the same sufficient statistics as the root
 * entry's `decisionStats`, with the same checks and the same error messages,
 * without the rows reaching JavaScript: DuckDB over JSONL, Parquet or CSV
 * files larger than memory ({@linkcode duckdbJsonlStats},
 * {@linkcode duckdbDecisionStats}), and PostgreSQL over a decisions table
 * ({@linkcode postgresDecisionStats}). {@linkcode decisionSqlExport} gives
 * the SQL itself (table layout, aggregate, row checks, repeated keys) for a
 * warehouse of one's own, as `lossbook export-sql` prints it; the queries
 * are the same text on DuckDB, PostgreSQL and SQLite, and
 * {@linkcode statsRowsOfSql} turns the aggregate's rows into statistics,
 * with its exact sums rounded once. The statistics feed the metrics of the
 * `./stats` entry.
 *
 * Importing this entry loads the DuckDB and PostgreSQL clients (DuckDB's
 * native library only when a query runs, with `--allow-ffi`), and with them
 * every module that the command line loads only when a run needs it
 * (`late_modules.ts`): this entry is the package's home for them, so that
 * they are part of its module graph, while the root entry and the command
 * line's start-up stay free of them.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionSqlExport, duckdbJsonlStats } from "./sql.ts";
 *
 * const stats = await duckdbJsonlStats("data/examples/model_ab.jsonl");
 * const decisions = (model: string) =>
 *   stats.filter((row) => row.modelId === model).reduce((n, row) => n + row.n, 0);
 * assert.deepEqual([decisions("A"), decisions("B")], [800, 800]);
 *
 * const sql = decisionSqlExport("postgres", "runs.decisions");
 * assert.match(sql.createTable, /^CREATE TABLE runs\.decisions \(/);
 * assert.match(sql.aggregate, /FROM runs\.decisions/);
 * ```
 *
 * @module
 */

import "./late_modules.ts";

// the engines
export {
  postgresChecksGuaranteed,
  postgresDecisionStats,
} from "./lib/sql/mod.ts";

// the SQL, for a warehouse of one's own
export {
  decisionSqlExport,
  decisionsTableSql,
  SQL_DIALECTS,
  statsRowsOfSql,
} from "./lib/sql/mod.ts";

// constants the types below are defined from
export { SEVERITIES } from "./lib/costs/mod.ts";
export { duckdbDecisionStats, duckdbJsonlStats } from "./lib/sql/mod.ts";

// the types of what the functions above take and return
export type { Severity } from "./lib/costs/mod.ts";
export type { Action, StatsRow } from "./lib/metrics/mod.ts";
export type { DuckDBOptions } from "./lib/read/mod.ts";
export type { DecisionUnit, UnitOptions } from "./lib/decision/cluster.ts";
export type {
  ChecksGuarantee,
  DecisionSqlExport,
  DecisionsTableOptions,
  DuckDBJsonlOptions,
  DuckDBProgress,
  DuckDBStatsOptions,
  PostgresStatsOptions,
  SqlDialect,
} from "./lib/sql/mod.ts";
