/**
 * Reading and writing run exports: JSONL, CSV, Arrow IPC and Parquet, each
 * refusing the same bad values naming file, line and field, and the
 * sufficient statistics streamed from a file without loading it.
 *
 * @module
 */

export * from "./load_decisions.ts";
export * from "./jsonl_stats.ts";
export * from "./jsonl_text_stats.ts";
export * from "./read_ahead.ts";
export * from "./arrow.ts";
export * from "./csv.ts";
export * from "./parquet.ts";
export * from "./load_any.ts";
export * from "./duckdb_session.ts";
export * from "./cost_files.ts";
export * from "./chart_fonts.ts";
