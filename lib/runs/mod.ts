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

export * from "../decision/decision.ts";
export * from "../read/load_decisions.ts";
export * from "../decision/decision_stats.ts";
export * from "../import/reconforge.ts";
export * from "../import/lossbench.ts";
export * from "../import/lm_eval.ts";
export * from "../import/helm.ts";
export * from "../import/promptfoo.ts";
export * from "../import/inspect.ts";
export * from "../import/inspect_eval.ts";
export * from "../import/harness.ts";
export * from "../import/mapping.ts";
export * from "../decision/paired_stats.ts";
export * from "../decision/paired_tasks.ts";
export * from "../read/jsonl_stats.ts";
export * from "../read/jsonl_text_stats.ts";
export * from "../tasks/simulate.ts";
export * from "../read/arrow.ts";
export * from "../read/csv.ts";
export * from "../read/parquet.ts";
export * from "../read/load_any.ts";
export * from "../read/duckdb_session.ts";
export * from "../sql/duckdb_stats_sql.ts";
export * from "../sql/duckdb_stats.ts";
export * from "../sql/duckdb_jsonl.ts";
export * from "../sql/decision_sql_rows.ts";
export * from "../sql/decision_sql_export.ts";
export * from "../sql/postgres_stats.ts";
