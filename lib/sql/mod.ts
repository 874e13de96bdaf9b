/**
 * The decision SQL and the engines that run it: DuckDB over files, and
 * PostgreSQL where decision logs live. One builder writes the aggregate,
 * row-check and repeated-key queries for every dialect.
 *
 * @module
 */

export * from "./duckdb_stats_sql.ts";
export * from "./duckdb_stats.ts";
export * from "./duckdb_jsonl.ts";
export * from "./decision_sql_rows.ts";
export * from "./decision_sql_export.ts";
export * from "./postgres_stats.ts";
