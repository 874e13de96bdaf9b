/**
 * Runs: the Decision record, run-export loaders and the sufficient
 * statistics built from them.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionStats, loadDecisionsJsonl } from "./mod.ts";
 *
 * const table = await loadDecisionsJsonl(
 *   new URL("../../data/examples/model_ab.jsonl", import.meta.url).pathname,
 * );
 * const stats = decisionStats(table);
 * assert.equal(stats.reduce((s, r) => s + r.n, 0), table.numRows());
 * ```
 *
 * @module
 */

export * from "./decision.ts";
export * from "./load_decisions.ts";
export * from "./decision_stats.ts";
export * from "./import_reconforge.ts";
export * from "./import_lossbench.ts";
export * from "./import_lm_eval.ts";
export * from "./import_helm.ts";
export * from "./import_promptfoo.ts";
export * from "./import_inspect.ts";
export * from "./import_inspect_eval.ts";
export * from "./import_harness.ts";
export * from "./mapping.ts";
export * from "./paired_stats.ts";
export * from "./paired_tasks.ts";
export * from "./jsonl_stats.ts";
export * from "./jsonl_text_stats.ts";
export * from "./simulate.ts";
export * from "./arrow.ts";
export * from "./csv.ts";
export * from "./parquet.ts";
export * from "./load_any.ts";
export * from "./duckdb_session.ts";
export * from "./duckdb_stats_sql.ts";
export * from "./duckdb_stats.ts";
export * from "./duckdb_jsonl.ts";
export * from "./decision_sql_rows.ts";
export * from "./decision_sql_export.ts";
export * from "./postgres_stats.ts";
