// The chdb peer of `lossbook score --engine chdb --json`: chdb's own bare
// query on the same file, a typed read (`file(path, format, structure)`) and
// a `GROUP BY` over the fields score reads (the cells' counts and sums,
// without lossbook's row checks, JSONL shape check or duplicate-key scan).
// `deno run -A bench/_chdb_query.ts FILE` opens the installed chdb, runs
// `SELECT 1` so that the session is up, then the query, and prints
// {"seconds": the query's own time, "n": the decisions counted}. Timed from
// outside, the same process is the whole chdb process (chdb-process-*).
import { BARE_GROUP } from "./_duckdb_query.ts";
import { clickhouseString, withChdb } from "../lib/sql/chdb_stats.ts";

/** chdb's format name for a file, by its extension. */
const FORMATS: Readonly<Record<string, string>> = {
  jsonl: "JSONEachRow",
  parquet: "Parquet",
  csv: "CSVWithNames",
};

/**
 * The bare query over a file of decisions, in ClickHouse SQL.
 *
 * @param file A `.jsonl`, `.parquet` or `.csv` file.
 * @returns The query; its sixth column is each cell's count.
 */
export function bareChdbQuery(file: string): string {
  const format = FORMATS[file.slice(file.lastIndexOf(".") + 1)];
  if (format === undefined) throw new TypeError(`not a decision file: ${file}`);
  const structure =
    "modelId String, severity String, trueClass String, predClass String, action String, pCorrect Nullable(Float64), parseOk Bool";
  return `${BARE_GROUP} FROM file(${clickhouseString(file)}, '${format}', ${
    clickhouseString(structure)
  }) GROUP BY modelId, severity, trueClass, predClass, action`;
}

/**
 * Run the bare query on `file` in a fresh chdb session, timing the query
 * alone.
 *
 * @param file A file of decisions.
 * @returns The query's seconds and the decisions it counted.
 */
export function timeBareChdbQuery(
  file: string,
): Promise<{ seconds: number; n: number }> {
  return withChdb((s) => {
    s.query("SELECT 1");
    const t = performance.now();
    const rows = s.query(bareChdbQuery(file));
    return {
      seconds: (performance.now() - t) / 1000,
      n: rows.reduce((sum, r) => sum + Number(r[5]), 0),
    };
  });
}

if (import.meta.main) {
  console.log(JSON.stringify(await timeBareChdbQuery(Deno.args[0])));
}
