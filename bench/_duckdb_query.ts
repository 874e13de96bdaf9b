// The DuckDB peer of `lossbook score --json` on a JSONL, Parquet or CSV
// file: DuckDB's bare typed `read_json` (or `read_parquet`, or `read_csv`
// with its own type detection) and a `GROUP BY` over the fields score reads
// (the cell counts and sums score's statistics hold, without its row checks
// or its duplicate-key scan). `deno run -A bench/_duckdb_query.ts FILE` opens
// DuckDB, runs `SELECT 1` so that the session is up, then the query, and
// prints {"seconds": the query's own time, "n": the decisions counted}.
// Timed from outside, the same process is the whole DuckDB process
// (duckdb-process); its printed seconds are the query alone (duckdb-query).
import { duckdbFileLiteral, withDuckDB } from "../lib/read/duckdb_session.ts";

/** The aggregate both DuckDB peers and psql run: score's cells, bare. */
export const BARE_GROUP =
  `SELECT modelId, severity, trueClass, predClass, action,
  COUNT(*) AS n, SUM(1.0E0 - pCorrect) AS pErrorSum,
  COUNT(*) - COUNT(pCorrect) AS pMissing,
  SUM(CASE WHEN parseOk THEN 0 ELSE 1 END) AS parseFailures`;

/**
 * The bare query over a JSONL file of decisions.
 *
 * @param file The file.
 * @returns DuckDB SQL; its sixth column is each cell's count.
 */
export function bareJsonlQuery(file: string): string {
  return `${BARE_GROUP} FROM read_json(${
    duckdbFileLiteral(file)
  }, format = 'newline_delimited', columns = {modelId: 'VARCHAR', severity: 'VARCHAR', trueClass: 'VARCHAR', predClass: 'VARCHAR', action: 'VARCHAR', pCorrect: 'DOUBLE', parseOk: 'BOOLEAN'}) GROUP BY ALL`;
}

/**
 * The bare query over a file of decisions, by its extension: `.parquet`
 * through `read_parquet`, `.csv` through `read_csv` (DuckDB detects the
 * types), anything else as JSONL ({@linkcode bareJsonlQuery}).
 *
 * @param file The file.
 * @returns DuckDB SQL; its sixth column is each cell's count.
 */
export function bareQuery(file: string): string {
  if (/\.parquet$/i.test(file)) {
    return `${BARE_GROUP} FROM read_parquet(${
      duckdbFileLiteral(file)
    }) GROUP BY ALL`;
  }
  if (/\.csv$/i.test(file)) {
    return `${BARE_GROUP} FROM read_csv(${
      duckdbFileLiteral(file)
    }, header = true) GROUP BY ALL`;
  }
  return bareJsonlQuery(file);
}

/**
 * Run the bare query on `file` in a fresh DuckDB session, timing the query
 * alone.
 *
 * @param file A JSONL, Parquet or CSV file of decisions.
 * @returns The query's seconds and the decisions it counted.
 */
export function timeBareJsonlQuery(
  file: string,
): Promise<{ seconds: number; n: number }> {
  return withDuckDB(async (c) => {
    await c.run("SELECT 1");
    const t = performance.now();
    const rows = (await c.runAndReadAll(bareQuery(file))).getRows();
    return {
      seconds: (performance.now() - t) / 1000,
      n: rows.reduce((s, r) => s + Number(r[5]), 0),
    };
  });
}

if (import.meta.main) {
  console.log(JSON.stringify(await timeBareJsonlQuery(Deno.args[0])));
}
