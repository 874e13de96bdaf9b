/**
 * Sufficient statistics straight from a Parquet or CSV run export with
 * DuckDB, for files larger than memory: the rows never reach JavaScript.
 *
 * The aggregation and the row checks are the portable SQL of
 * `duckdb_stats_sql.ts`; this file adds the DuckDB-specific part (how the
 * file becomes a relation) and turns a failed check into the same error the
 * in-memory loaders give, naming file, row (Parquet) or line (CSV) and field.
 *
 * @module
 */

import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import type { StatsRow } from "../metrics/sufficient_stats.ts";
import {
  checkDecisionColumns,
  decisionKey,
  duplicateDecisionError,
  flatDecision,
  type FlatDecisionRow,
} from "../read/arrow.ts";
import {
  checkDecisionsCsv,
  checkDecisionsCsvRecords,
  CSV_NUMBER_PATTERN,
  readCsvHeader,
} from "../read/csv.ts";
import {
  duckdbFileLiteral,
  type DuckDBOptions,
  regularFile,
  sqlString,
  withDuckDB,
} from "../read/duckdb_session.ts";
import {
  clusterSplitTasksSql,
  DECISION_CHECKS,
  decisionCellsSql,
  decisionStatsSql,
  duplicateDecisionsSql,
  firstClusterBreakSql,
  invalidDecisionSql,
  namedClusters,
  singleTrialCells,
  statsRowsOfSql,
} from "./duckdb_stats_sql.ts";
import {
  clusterRuleError,
  resolveUnit,
  type UnitOptions,
} from "../decision/cluster.ts";
import { DECISION_COLUMNS } from "../read/load_decisions.ts";
import { type DecisionColumn, fieldOfColumn } from "../decision/schema.ts";
import { sqlNullType } from "../decision/schema_sql.ts";
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
} from "../input_error.ts";
import {
  decisionColumnKind,
  describeRelation,
  openDecisionsParquet,
  parquetSource,
} from "../read/parquet.ts";

async function parquetColumnNames(
  connection: DuckDBConnection,
  path: string,
): Promise<string[]> {
  return (await describeRelation(
    connection,
    `read_parquet(${duckdbFileLiteral(path)})`,
  ))
    .map((c) => c.name);
}

/** A progress sample taken while DuckDB scans the file. */
export interface DuckDBProgress {
  /** DuckDB's estimate of the share of the query done, in [0, 1], or `null` when it has none. */
  readonly fraction: number | null;
  /** Rows DuckDB reports as processed so far. */
  readonly rowsProcessed: number;
  /** Bytes held by DuckDB's buffer manager now (`duckdb_memory()`). */
  readonly memoryBytes: number;
  /** Bytes DuckDB has spilled to its temporary directory now. */
  readonly spilledBytes: number;
}

/** Options for {@linkcode duckdbDecisionStats}. */
export interface DuckDBStatsOptions extends DuckDBOptions, UnitOptions {
  /** File format. Default: from the extension (`.parquet` or `.csv`). */
  format?: "parquet" | "csv";
  /**
   * Refuse a file in which a (runId, modelId, taskId, trial) repeats, as the
   * loaders do. This is a second scan whose hash table grows with the number
   * of decisions (spilling to disk above `memoryLimit`). Default: `true`.
   */
  checkDuplicates?: boolean;
  /** Called with a progress sample every `progressIntervalMs` while a scan runs. Default: none. */
  onProgress?: (progress: DuckDBProgress) => void;
  /** Milliseconds between progress samples. Default: 1000. */
  progressIntervalMs?: number;
}

const NUMBER_RE = sqlString(`^${CSV_NUMBER_PATTERN}$`);

/**
 * The DuckDB relation that reads a CSV run export as typed flat columns.
 *
 * Every cell is read as text, then converted by column so that nothing is
 * guessed: numbers must match `CSV_NUMBER_PATTERN` (anything else becomes
 * NaN, which the row checks refuse), `parseOk` must be `true` or `false`
 * (anything else becomes NULL, which the row checks refuse), and an empty
 * cell is NULL. This is the DuckDB-specific half; the aggregate query is
 * portable.
 *
 * @param path Path of the `.csv` file.
 * @param header Its column names, in file order (checked by the caller).
 * @returns A parenthesised subquery usable as a relation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duckdbCsvRelation } from "./duckdb_stats.ts";
 * import { DECISION_COLUMNS } from "../read/load_decisions.ts";
import { fieldOfColumn } from "../decision/schema.ts";
import { sqlNullType } from "../decision/schema_sql.ts";
 *
 * const rel = duckdbCsvRelation("/data/a.csv", [...DECISION_COLUMNS]);
 * assert.match(rel, /read_csv\('\/data\/a\.csv', header = true, auto_detect = false/);
 * ```
 */
export function duckdbCsvRelation(
  path: string,
  header: readonly string[],
): string {
  return csvRelation(path, header, []);
}

// The relation of duckdbCsvRelation with `extra` select items first.
function csvRelation(
  path: string,
  header: readonly string[],
  extra: readonly string[],
): string {
  const columns = header.map((c) => `'${c}': 'VARCHAR'`).join(", ");
  const have = new Set(header);
  const select = DECISION_COLUMNS.map((c) => {
    const kind = decisionColumnKind(c);
    if (!have.has(c)) {
      return `CAST(NULL AS ${sqlNullType(fieldOfColumn(c), "duckdb")}) AS ${c}`;
    }
    if (kind === "number") {
      return `CASE WHEN "${c}" IS NULL THEN NULL WHEN regexp_matches("${c}", ${NUMBER_RE}) ` +
        `THEN CAST("${c}" AS DOUBLE) ELSE CAST('NaN' AS DOUBLE) END AS ${c}`;
    }
    if (kind === "boolean") {
      return `CASE "${c}" WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE END AS ${c}`;
    }
    return `"${c}" AS ${c}`;
  }).join(",\n    ");
  return `(SELECT\n    ${[...extra, select].join(",\n    ")}\n  FROM read_csv(${
    duckdbFileLiteral(path)
  }, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', ` +
    `strict_mode = true, nullstr = '', columns = {${columns}})) AS decisions`;
}

function toNumber(v: unknown): number {
  return typeof v === "bigint" ? Number(v) : Number(v);
}

async function sampleProgress(
  connection: DuckDBConnection,
  monitor: DuckDBConnection,
): Promise<DuckDBProgress> {
  const p = connection.progress;
  const mem = await monitor.runAndReadAll(
    "SELECT SUM(memory_usage_bytes), SUM(temporary_storage_bytes) FROM duckdb_memory()",
  );
  const [used, spilled] = mem.getRows()[0];
  return {
    fraction: p.percentage >= 0 ? p.percentage / 100 : null,
    rowsProcessed: Number(p.rows_processed),
    memoryBytes: toNumber(used ?? 0),
    spilledBytes: toNumber(spilled ?? 0),
  };
}

async function runWatched(
  connection: DuckDBConnection,
  instance: DuckDBInstance,
  sql: string,
  options: DuckDBStatsOptions,
): Promise<unknown[][]> {
  const onProgress = options.onProgress;
  if (onProgress === undefined) {
    return (await connection.runAndReadAll(sql)).getRows() as unknown[][];
  }
  const monitor = await instance.connect();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    sampleProgress(connection, monitor).then(onProgress, () => {}).finally(
      () => busy = false,
    );
  }, options.progressIntervalMs ?? 1000);
  try {
    return (await connection.runAndReadAll(sql)).getRows() as unknown[][];
  } finally {
    clearInterval(timer);
    while (busy) await new Promise((r) => setTimeout(r, 5));
    monitor.closeSync();
  }
}

function formatOf(path: string, format: "parquet" | "csv" | undefined) {
  if (format !== undefined) return format;
  const lower = path.toLowerCase();
  if (lower.endsWith(".parquet")) return "parquet";
  if (lower.endsWith(".csv")) return "csv";
  throw new InputTypeError(
    `Cannot load run export ${path}: unknown extension; use .parquet or .csv, or pass format`,
  );
}

async function firstBadParquetRow(
  connection: DuckDBConnection,
  path: string,
): Promise<never> {
  const where = `Cannot load run export ${path}`;
  const flags = DECISION_CHECKS.map((c, i) =>
    `CASE WHEN ${c.sql} THEN 1 ELSE 0 END AS _check${i}`
  ).join(", ");
  const reader = await connection.runAndReadAll(
    `SELECT ${
      DECISION_COLUMNS.map((c) => `"${c}"`).join(", ")
    }, ${flags}, file_row_number
FROM ${parquetSource(path, await parquetColumnNames(connection, path), true)}
WHERE ${invalidDecisionSql()}
ORDER BY file_row_number
LIMIT 1`,
  );
  const found = reader.getRowObjectsJS()[0];
  if (found === undefined) {
    throw new Error(`${where}: a row check failed but no row was found`);
  }
  const at = `${where}: row ${Number(found.file_row_number) + 1}`;
  const row = {} as FlatDecisionRow;
  for (const c of DECISION_COLUMNS) row[c] = found[c] ?? null;
  flatDecision(row, at); // throws the loaders' message
  const check = DECISION_CHECKS.find((_, i) => found[`_check${i}`] === 1)!;
  throw new InputRangeError(
    `${at}: ${check.field} must be ${check.rule}, got ${
      String(row[check.field])
    }`,
  );
}

async function firstRepeatedParquetRow(
  connection: DuckDBConnection,
  path: string,
): Promise<never> {
  const key = "runId, modelId, taskId, trial";
  const reader = await connection.runAndReadAll(
    `SELECT runId, modelId, taskId, trial, rowNumber, firstRow FROM (
  SELECT ${key}, file_row_number + 1 AS rowNumber,
    MIN(file_row_number + 1) OVER (PARTITION BY ${key}) AS firstRow,
    ROW_NUMBER() OVER (PARTITION BY ${key} ORDER BY file_row_number) AS copy
  FROM read_parquet(${duckdbFileLiteral(path)}, file_row_number = true)
) numbered
WHERE copy = 2
ORDER BY rowNumber
LIMIT 1`,
  );
  const r = reader.getRowObjectsJS()[0];
  throw duplicateDecisionError(
    {
      runId: String(r.runId),
      modelId: String(r.modelId),
      taskId: String(r.taskId),
      trial: Number(r.trial),
    },
    `Cannot load run export ${path}: row ${Number(r.rowNumber)}`,
    `row ${Number(r.firstRow)}`,
  );
}

/**
 * Memory limit of the queries that locate a refused CSV file's bad or
 * repeated row, when the caller gave none: they run in one thread (their
 * row numbers are counted in file order); the first keeps one row, the
 * second the keys' hashes and the rows of a repeated hash.
 */
const LOCATE_MEMORY = "256MB";

// The CSV relation with each row's number (csvRecord: 1 is the first record
// after the header, as csvRecordStarts counts them) and its cells as text
// (csvCell0, ... in header order). `row_number() OVER ()` streams: it runs
// in one thread over the file in order, so the numbers are the file's.
function numberedCsvRelation(path: string, header: readonly string[]): string {
  return csvRelation(path, header, [
    "row_number() OVER () AS csvRecord",
    ...header.map((c, k) => `"${c}" AS csvCell${k}`),
  ]);
}

async function locateInOneThread(
  connection: DuckDBConnection,
  options: DuckDBStatsOptions,
): Promise<void> {
  await connection.run("SET threads = 1");
  if (options.memoryLimit === undefined) {
    await connection.run(`SET memory_limit = ${sqlString(LOCATE_MEMORY)}`);
  }
}

function csvCells(row: readonly unknown[], from: number, count: number) {
  return row.slice(from, from + count).map((v) =>
    v === null || v === undefined ? null : String(v)
  );
}

// Throws the CSV reader's error for the first row failing the SQL row
// checks, found by its number; returns when the reader does not refuse the
// row found there (the caller then streams the file through the reader).
async function firstBadCsvRow(
  connection: DuckDBConnection,
  instance: DuckDBInstance,
  path: string,
  header: readonly string[],
  options: DuckDBStatsOptions,
): Promise<void> {
  await locateInOneThread(connection, options);
  const cells = header.map((_, k) => `csvCell${k}`).join(", ");
  const [found] = await runWatched(
    connection,
    instance,
    `SELECT csvRecord, ${cells}
FROM ${numberedCsvRelation(path, header)}
WHERE ${invalidDecisionSql()}
ORDER BY csvRecord
LIMIT 1`,
    options,
  );
  if (found === undefined) return;
  await checkDecisionsCsvRecords(path, header, [{
    index: Number(found[0]),
    cells: csvCells(found, 1, header.length),
  }]);
}

// Throws the CSV reader's error for the first row repeating an earlier
// row's (runId, modelId, taskId, trial), found with that row by their
// numbers. Returns "none" when no key repeats (the keys' hashes collided),
// and "unconfirmed" when the reader does not refuse the rows found (the
// caller then streams the file through the reader). The keys are grouped
// by their hash, 8 bytes a row (trial + 0.0: -0 and 0 are one key to the
// reader), and only the rows of a repeated hash are compared by key.
async function firstRepeatedCsvRow(
  connection: DuckDBConnection,
  instance: DuckDBInstance,
  path: string,
  header: readonly string[],
  options: DuckDBStatsOptions,
): Promise<"none" | "unconfirmed"> {
  await locateInOneThread(connection, options);
  const hash = "hash(runId, modelId, taskId, trial + 0.0E0)";
  const key = "runId, modelId, taskId, trial + 0.0E0";
  const cells = header.map((_, k) => `csvCell${k}`).join(", ");
  const [found] = await runWatched(
    connection,
    instance,
    `WITH repeated AS (
  SELECT ${hash} AS keyHash FROM ${duckdbCsvRelation(path, header)}
  GROUP BY keyHash HAVING COUNT(*) > 1
)
SELECT csvRecord, firstRecord, ${cells} FROM (
  SELECT *,
    MIN(csvRecord) OVER (PARTITION BY ${key}) AS firstRecord,
    ROW_NUMBER() OVER (PARTITION BY ${key} ORDER BY csvRecord) AS copy
  FROM ${numberedCsvRelation(path, header)}
  WHERE ${hash} IN (SELECT keyHash FROM repeated)
) copies
WHERE copy = 2
ORDER BY csvRecord
LIMIT 1`,
    options,
  );
  if (found === undefined) {
    // two keys share a hash: the statistics go on, in the caller's threads
    await connection.run(
      options.threads === undefined
        ? "RESET threads"
        : `SET threads = ${options.threads}`,
    );
    return "none";
  }
  await checkDecisionsCsvRecords(path, header, [
    { index: Number(found[1]) },
    { index: Number(found[0]), cells: csvCells(found, 2, header.length) },
  ]);
  return "unconfirmed";
}

// The columns of DECISION_COLUMNS that `relation` holds as integers.
async function integerColumnsOf(
  connection: DuckDBConnection,
  relation: string,
): Promise<DecisionColumn[]> {
  const integer = /^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?)$/;
  const names = new Set<string>(DECISION_COLUMNS);
  return (await describeRelation(connection, relation))
    .filter((c) => names.has(c.name) && integer.test(c.type))
    .map((c) => c.name as DecisionColumn);
}

// Whether every row's key (runId, modelId, taskId, trial) has a hash of its
// own: then no key repeats, since equal keys hash alike (trial + 0.0 makes
// -0 and 0, one key to the loaders, one value). A hash table of 64-bit
// integers costs less than one of the keys' text; when two rows share a
// hash, which a repeated key or a collision makes, the exact scan of
// duplicateDecisionsSql decides.
async function distinctKeyHashes(
  connection: DuckDBConnection,
  instance: DuckDBInstance,
  relation: string,
  options: DuckDBStatsOptions,
): Promise<boolean> {
  const [[shared]] = await runWatched(
    connection,
    instance,
    `SELECT COUNT(*) - COUNT(DISTINCT hash(runId, modelId, taskId, trial + 0.0E0)) FROM ${relation}`,
    options,
  );
  return toNumber(shared) === 0;
}

async function repeatedCsvKeys(
  connection: DuckDBConnection,
  relation: string,
): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(
    `SELECT runId, modelId, taskId, trial FROM ${relation}
GROUP BY runId, modelId, taskId, trial HAVING COUNT(*) > 1
ORDER BY runId, modelId, taskId, trial LIMIT 1000`,
  );
  return new Set(
    reader.getRowsJS().map(([runId, modelId, taskId, trial]) =>
      decisionKey({
        runId: String(runId),
        modelId: String(modelId),
        taskId: String(taskId),
        trial: Number(trial),
      })
    ),
  );
}

/**
 * Build sufficient statistics from a Parquet or CSV run export with DuckDB,
 * without loading the rows into JavaScript.
 *
 * The result equals `decisionStats(await loadDecisions(path))`, to the
 * last bit (the sums are exact and rounded once, see `statsRowsOfSql`), for
 * every file both accept, at any number of DuckDB threads. One scan runs `decisionCellsSql` (no window; when some
 * model has several runIds or trial values, {@linkcode decisionStatsSql}
 * runs after it for `taskShare`), which also
 * counts rows failing the checks of `DECISION_CHECKS`; when any fails, the
 * first bad row is located and reported with the in-memory loaders' message
 * (Parquet: by `file_row_number`; CSV: by its number in a query that counts
 * the rows in file order, in one thread, then its line, found by a scan of
 * the bytes up to it for where records start, and only that record read by
 * the CSV reader; should the reader not refuse that record, the file is
 * streamed through the reader up to its first error). Column names and
 * types are checked before the scan. With `checkDuplicates` (the default) a
 * second scan refuses repeated (runId, modelId, taskId, trial); a repeat is
 * located the same way (Parquet: by `file_row_number`; CSV: the first row
 * whose key an earlier row has, and that row, by their numbers). Then the
 * cluster rules (`ClusterCheck`): when some row names a cluster, a query
 * counts the tasks in two clusters, and a row that breaks a rule is
 * located the same way. The unit (`options.unit`, else the cluster when
 * the rows name one) groups the window of {@linkcode decisionStatsSql}. Memory
 * stays under `memoryLimit` (default 4GB; the queries locating a CSV file's
 * bad or repeated row run in one thread, under 256MB unless `memoryLimit`
 * is given); the statistics themselves are a few rows per model and class
 * pair.
 *
 * @param path Path of the `.parquet` or `.csv` file.
 * @param options Format, duplicate check, DuckDB resources, progress.
 * @returns Statistics rows in canonical order (`sortStats`).
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError} When the file cannot be read as its format.
 * @throws {TypeError} On a wrong column set or type, or an unknown extension.
 * @throws {RangeError} On a bad value or a repeated decision, naming row or line and field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duckdbDecisionStats } from "./duckdb_stats.ts";
 * import { decisionStats } from "../decision/decision_stats.ts";
 * import { loadDecisionsJsonl } from "../read/load_decisions.ts";
 * import { writeDecisionsParquet } from "../read/parquet.ts";
 *
 * const t = await loadDecisionsJsonl(
 *   new URL("../../data/examples/model_ab.jsonl", import.meta.url).pathname,
 * );
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/ab.parquet`;
 * await writeDecisionsParquet(path, t);
 * const sql = await duckdbDecisionStats(path, { memoryLimit: "1GB" });
 * assert.deepEqual(sql.map((r) => r.n), decisionStats(t).map((r) => r.n));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function duckdbDecisionStats(
  path: string,
  options: DuckDBStatsOptions = {},
): Promise<StatsRow[]> {
  const format = formatOf(path, options.format);
  const where = `Cannot load run export ${path}`;
  await regularFile(path, where);
  const header = format === "csv" ? await readCsvHeader(path) : [];
  if (format === "csv") {
    checkDecisionColumns(header, `${where}: line 1: header`);
  }
  return await withDuckDB(async (connection, instance) => {
    if (options.onProgress !== undefined) {
      await connection.run("SET enable_progress_bar = true");
      await connection.run("SET enable_progress_bar_print = false");
    }
    const relation = format === "parquet"
      ? await openDecisionsParquet(connection, path)
      : duckdbCsvRelation(path, header);
    // a column of an integer type cannot hold a fraction: its whole-number
    // test, row by row, is left out (the CSV relation reads numbers as DOUBLE)
    const integerColumns = format === "parquet"
      ? await integerColumnsOf(connection, relation)
      : [];
    let rows: unknown[][];
    try {
      // one scan, no window: taskShare = n unless some task has several rows
      rows = await runWatched(
        connection,
        instance,
        decisionCellsSql(relation, { integerColumns }),
        options,
      );
    } catch (error) {
      if (format === "csv") await checkDecisionsCsv(path); // names the line
      const detail = error instanceof Error ? error.message : String(error);
      throw new InputSyntaxError(`${where}: ${detail}`, { cause: error });
    }
    const invalid = rows.reduce((s, r) => s + toNumber(r[9]), 0);
    if (invalid > 0) {
      if (format === "parquet") await firstBadParquetRow(connection, path);
      await firstBadCsvRow(connection, instance, path, header, options);
      await checkDecisionsCsv(path); // when the row found is not the reader's
      throw new InputRangeError(
        `${where}: ${invalid} rows fail the SQL row checks that the CSV reader accepts`,
      );
    }
    if (
      options.checkDuplicates !== false &&
      !(await distinctKeyHashes(connection, instance, relation, options)) &&
      // CSV: the first repeated row is located by its number, if any
      (format === "parquet" ||
        await firstRepeatedCsvRow(
            connection,
            instance,
            path,
            header,
            options,
          ) !== "none")
    ) {
      const [repeated] = await runWatched(
        connection,
        instance,
        duplicateDecisionsSql(relation),
        options,
      );
      if (toNumber(repeated[0]) > 0) {
        if (format === "parquet") {
          await firstRepeatedParquetRow(connection, path);
        }
        // when the rows found are not the reader's
        const keys = await repeatedCsvKeys(connection, relation);
        await checkDecisionsCsv(path, { duplicateKeys: keys });
        throw new InputRangeError(
          `${where}: ${
            toNumber(repeated[1])
          } decisions repeat a (runId, modelId, taskId, trial)`,
        );
      }
    }
    // the cluster rules, once every row passed its checks
    const clusters = namedClusters(rows);
    if (clusters.named > 0) {
      const [[split]] = await runWatched(
        connection,
        instance,
        clusterSplitTasksSql(relation),
        options,
      );
      if (clusters.named < clusters.rows || toNumber(split) > 0) {
        if (format === "parquet") {
          await firstClusterBreakParquet(connection, path);
        }
        await firstClusterBreakCsv(connection, instance, path, header, options);
        await checkDecisionsCsv(path); // when the rows found are not the reader's
        throw new InputRangeError(
          `${where}: a row breaks a cluster rule that the CSV reader accepts`,
        );
      }
    }
    const unit = resolveUnit(options.unit, clusters.named > 0, where);
    options.onUnit?.(unit);
    // taskShare = n holds only where no decision repeats and the unit is
    // the task
    if (
      unit === "cluster" ||
      !(options.checkDuplicates !== false && singleTrialCells(rows))
    ) {
      rows = await runWatched(
        connection,
        instance,
        decisionStatsSql(relation, "duckdb", unit),
        options,
      );
    }
    return statsRowsOfSql(rows, toNumber);
  }, options);
}

// Throws the loaders' error for the first row of a Parquet file that breaks
// a cluster rule, found by its file_row_number.
async function firstClusterBreakParquet(
  connection: DuckDBConnection,
  path: string,
): Promise<never> {
  const reader = await connection.runAndReadAll(
    firstClusterBreakSql(
      parquetSource(path, await parquetColumnNames(connection, path), true),
      "file_row_number + 1",
    ),
  );
  const r = reader.getRowObjectsJS()[0];
  const where = `Cannot load run export ${path}`;
  if (r === undefined) {
    throw new Error(`${where}: a cluster rule failed but no row was found`);
  }
  throw clusterRuleError(
    {
      at: `${where}: row ${Number(r.rowNumber)}`,
      taskId: String(r.taskId),
      cluster: r.cluster === null ? null : String(r.cluster),
    },
    {
      at: `row ${Number(r.earlierRow)}`,
      cluster: r.earlierCluster === null ? null : String(r.earlierCluster),
    },
  );
}

// Throws the CSV reader's error for the first record that breaks a cluster
// rule, read with the record it disagrees with, both found by their numbers;
// returns when the reader does not refuse them (the caller then streams the
// file through the reader).
async function firstClusterBreakCsv(
  connection: DuckDBConnection,
  instance: DuckDBInstance,
  path: string,
  header: readonly string[],
  options: DuckDBStatsOptions,
): Promise<void> {
  await locateInOneThread(connection, options);
  const [found] = await runWatched(
    connection,
    instance,
    firstClusterBreakSql(numberedCsvRelation(path, header), "csvRecord"),
    options,
  );
  if (found === undefined) return;
  await checkDecisionsCsvRecords(path, header, [
    { index: Number(found[6]) },
    { index: Number(found[0]) },
  ]);
}
