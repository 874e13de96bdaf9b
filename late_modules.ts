/**
 * Every module that lossbook loads late, imported here so that the
 * package's module graph holds them.
 *
 * The CLI loads a command's module, a file format's reader and an engine
 * only when a run needs them, through a specifier Deno cannot read ahead
 * (`importLater` in `lib/_late_import.ts`, a worker's script URL): the
 * target of a literal `import()` would load, with its whole graph, before
 * the program starts. Such a module is in no entry point's graph, so the
 * tools that follow the graph (`deno info`, the checks of `deno publish`, an
 * installer caching the package) would not see it, nor what it imports.
 * Importing them here puts them in the graph of the `./sql` entry. Being
 * imported by `sql.ts` (the `./sql` entry, which is about the engines
 * anyway), this module is on neither the CLI's start-up path nor the root
 * entry's: importing `.` or running `lossbook score` loads none of them.
 *
 * `tests/package_files_test.ts` finds every late-loaded module in the
 * source and fails when one is missing here.
 *
 * @module
 */

// the CLI's commands, each loaded by itself (cli.ts), and all of them for
// `--help` (the registry)
import "./commands/_registry.ts";
import "./commands/_reproduce_command.ts";
import "./commands/board.ts";
import "./commands/breakeven.ts";
import "./commands/calibrate.ts";
import "./commands/card.ts";
import "./commands/compare.ts";
import "./commands/contamination.ts";
import "./commands/drift.ts";
import "./commands/engine.ts";
import "./commands/escalate.ts";
import "./commands/export_sql.ts";
import "./commands/export_tasks.ts";
import "./commands/generate.ts";
import "./commands/import.ts";
import "./commands/ledger.ts";
import "./commands/plan.ts";
import "./commands/profiles.ts";
import "./commands/replay.ts";
import "./commands/score.ts";
import "./commands/severity_template.ts";
import "./commands/simulate.ts";
import "./commands/sweep.ts";
import "./commands/verify.ts";

// readers of the input formats and their statistics (commands/_input.ts,
// commands/score.ts, lib/read/load_any.ts, lib/import/*)
import "./lib/decision/decision_stats.ts";
import "./lib/import/_zip_read.ts";
import "./lib/import/inspect_eval.ts";
import "./lib/import/lossbench.ts";
import "./lib/import/reconforge.ts";
import "./lib/ledger/lossbench_chain.ts";
import "./lib/read/_csv_records.ts";
import "./lib/read/_jsonl_decision.ts";
import "./lib/read/_stats_builder.ts";
import "./lib/read/arrow.ts";
import "./lib/read/cost_files.ts";
import "./lib/read/csv.ts";
import "./lib/read/jsonl_stats.ts";
import "./lib/read/load_any.ts";
import "./lib/read/load_decisions.ts";
import "./lib/read/parquet.ts";

// what only the card's outputs need: the Every Eval Ever schema and its
// validator, and the YAML of the model-index block (commands/card.ts)
import "./lib/report/every_eval_ever.ts";
import "./lib/report/model_index.ts";

// the worker script of the parallel JSONL reader (lib/read/_jsonl_read_ahead.ts)
import "./lib/read/_jsonl_segment_worker.ts";
// the worker script of the parallel lm-eval samples reader
// (lib/import/_lm_eval_parallel.ts)
import "./lib/import/_lm_eval_worker.ts";

// the page of a board, written only with --out (commands/board.ts)
import "./api/_board_page.ts";

// the engines (commands/_input.ts)
import "./lib/sql/chdb_install.ts";
import "./lib/sql/chdb_stats.ts";
import "./lib/sql/duckdb_jsonl.ts";
import "./lib/sql/duckdb_stats.ts";
import "./lib/sql/postgres_stats.ts";
