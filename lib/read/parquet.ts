/**
 * Parquet run exports, read and written through DuckDB (`read_parquet`,
 * `COPY ... TO ... (FORMAT parquet)`), in the flat layout of
 * {@linkcode DECISION_COLUMNS}.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  checkDecisionColumns,
  type DecisionColumn,
  decisionsFromColumns,
} from "./arrow.ts";
import {
  duckdbFileLiteral,
  type DuckDBOptions,
  duckdbPath,
  regularFile,
  sqlString,
  withDuckDB,
} from "./duckdb_session.ts";
import { InputSyntaxError, InputTypeError } from "../input_error.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
  OPTIONAL_DECISION_COLUMNS,
} from "./load_decisions.ts";

const NUMERIC_TYPE =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\))$/;

import { decisionColumnKind } from "../decision/schema.ts";
import { DECISION_FIELDS, fieldOfColumn } from "../decision/schema.ts";
import {
  sqlColumnType,
  sqlNullType,
  sqlTypeClass,
} from "../decision/schema_sql.ts";

export { decisionColumnKind };

/**
 * Check the column names and DuckDB types of a file against the flat
 * Decision layout, before any row is read.
 *
 * A text column stored as a number (or the reverse) is refused here rather
 * than cast, so that nothing is coerced.
 *
 * @param columns Name and DuckDB type of each column, as `DESCRIBE` gives them.
 * @param where Error prefix, e.g. `Cannot load run export a.parquet`.
 * @throws {TypeError} When a column is missing, unknown, repeated or of the wrong type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkDecisionColumnTypes, decisionColumnKind } from "./parquet.ts";
 * import { DECISION_COLUMNS } from "./load_decisions.ts";
 *
 * const typeOf = { text: "VARCHAR", number: "DOUBLE", boolean: "BOOLEAN" };
 * const cols = DECISION_COLUMNS.map((name) => ({ name, type: typeOf[decisionColumnKind(name)] }));
 * checkDecisionColumnTypes(cols, "a.parquet");
 * assert.throws(
 *   () => checkDecisionColumnTypes(cols.map((c) => c.name === "pCorrect" ? { ...c, type: "VARCHAR" } : c), "a.parquet"),
 *   /a\.parquet: column pCorrect must have a numeric type, got VARCHAR/,
 * );
 * ```
 */
export function checkDecisionColumnTypes(
  columns: readonly { name: string; type: string }[],
  where: string,
): void {
  checkDecisionColumns(columns.map((c) => c.name), where);
  for (const { name, type } of columns) {
    const kind = decisionColumnKind(name as DecisionColumn);
    const ok = kind === "text"
      ? type === "VARCHAR"
      : kind === "boolean"
      ? type === "BOOLEAN"
      : NUMERIC_TYPE.test(type);
    if (!ok) {
      const want = kind === "text"
        ? "type VARCHAR (text)"
        : kind === "boolean"
        ? "type BOOLEAN"
        : "a numeric type";
      throw new InputTypeError(
        `${where}: column ${name} must have ${want}, got ${type}`,
      );
    }
  }
}

/**
 * The names and DuckDB types of the columns of a relation.
 *
 * @param connection A DuckDB connection.
 * @param relation A relation, e.g. `read_parquet('a.parquet')`.
 * @returns One `{ name, type }` per column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeRelation } from "./parquet.ts";
 * import { withDuckDB } from "./duckdb_session.ts";
 *
 * const cols = await withDuckDB((c) => describeRelation(c, "(SELECT 1::DOUBLE AS p)"));
 * assert.deepEqual(cols, [{ name: "p", type: "DOUBLE" }]);
 * ```
 */
export async function describeRelation(
  connection: DuckDBConnection,
  relation: string,
): Promise<{ name: string; type: string }[]> {
  const reader = await connection.runAndReadAll(
    `DESCRIBE SELECT * FROM ${relation}`,
  );
  return reader.getRowObjectsJS().map((r) => ({
    name: String(r.column_name),
    type: String(r.column_type),
  }));
}

/**
 * Open a Parquet run export for SQL: check its columns and types, and
 * return the DuckDB relation that reads it.
 *
 * @param connection A DuckDB connection.
 * @param path Path of the `.parquet` file.
 * @returns `read_parquet('<path>')`.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError} When DuckDB cannot read it as Parquet.
 * @throws {TypeError} As {@linkcode checkDecisionColumnTypes}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openDecisionsParquet } from "./parquet.ts";
 * import { withDuckDB } from "./duckdb_session.ts";
 *
 * await assert.rejects(
 *   () => withDuckDB((c) => openDecisionsParquet(c, "/nonexistent.parquet")),
 *   Deno.errors.NotFound,
 * );
 * ```
 */
export async function openDecisionsParquet(
  connection: DuckDBConnection,
  path: string,
): Promise<string> {
  await Deno.stat(path); // NotFound names the path
  const relation = `read_parquet(${duckdbFileLiteral(path)})`;
  const where = `Cannot load run export ${path}`;
  let columns: { name: string; type: string }[];
  try {
    columns = await describeRelation(connection, relation);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new InputSyntaxError(
      `${where}: not a readable Parquet file: ${detail}`,
      {
        cause: error,
      },
    );
  }
  checkDecisionColumnTypes(columns, where);
  return parquetSource(path, columns.map((c) => c.name));
}

/**
 * A DuckDB relation over a Parquet run export in which every column of
 * {@linkcode DECISION_COLUMNS} exists: optional columns the file lacks (an
 * export written before they existed) read as text `NULL`.
 *
 * @param path The Parquet file.
 * @param present The file's column names.
 * @param rowNumbers Also expose DuckDB's `file_row_number`. Default: `false`.
 * @returns SQL for a relation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parquetSource } from "./parquet.ts";
 *
 * assert.match(parquetSource("/data/a.parquet", ["runId"]), /CAST\(NULL AS VARCHAR\) AS "answer"/);
 * assert.match(parquetSource("/data/a.parquet", ["runId"]), /CAST\(NULL AS DOUBLE\) AS "tokensIn"/);
 * assert.equal(parquetSource("/data/a.parquet", ["tokensIn", "tokensOut", "latencyMs", "pCorrectSource", "answer", "target", "cluster"]), "read_parquet('/data/a.parquet')");
 * ```
 */
export function parquetSource(
  path: string,
  present: readonly string[],
  rowNumbers = false,
): string {
  const base = `read_parquet(${duckdbFileLiteral(path)}${
    rowNumbers ? ", file_row_number = true" : ""
  })`;
  const have = new Set(present);
  const extra = OPTIONAL_DECISION_COLUMNS.filter((c) => !have.has(c));
  if (extra.length === 0) return base;
  return `(SELECT *, ${
    extra.map((c) =>
      `CAST(NULL AS ${sqlNullType(fieldOfColumn(c), "duckdb")}) AS "${c}"`
    ).join(", ")
  } FROM ${base}) AS decisions_source`;
}

/**
 * Read a Parquet run export into an Arquero decision table.
 *
 * DuckDB reads the file (in file order); each row is then checked like a
 * JSONL line (`flatDecision`), errors naming the path, `row N` (1-based)
 * and the field, and a repeated (runId, modelId, taskId, trial) is an
 * error. The result has the same columns and values as
 * {@linkcode loadDecisionsJsonl} gives for the same decisions. The whole
 * file is held in memory; for larger files use `duckdbDecisionStats`.
 *
 * @param path Path of the `.parquet` file.
 * @param options DuckDB resources.
 * @returns The decision table.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError} When the file is not Parquet.
 * @throws {TypeError | RangeError} On a wrong column set or type, or a bad value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDecisionsParquet, writeDecisionsParquet } from "./parquet.ts";
 * import { loadDecisionsJsonl } from "./load_decisions.ts";
 *
 * const t = await loadDecisionsJsonl(
 *   new URL("../../data/examples/model_ab.jsonl", import.meta.url).pathname,
 * );
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/ab.parquet`;
 * await writeDecisionsParquet(path, t);
 * assert.deepEqual((await loadDecisionsParquet(path)).objects(), t.objects());
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadDecisionsParquet(
  path: string,
  options: DuckDBOptions = {},
): Promise<ColumnTable> {
  // a missing file is NotFound, a directory refused, even without --allow-ffi
  await regularFile(path, `Cannot load run export ${path}`);
  const cols = await withDuckDB(async (connection) => {
    const relation = await openDecisionsParquet(connection, path);
    const types = new Map(
      (await describeRelation(connection, relation)).map((
        c,
      ) => [c.name, c.type]),
    );
    // DECIMAL is the one allowed type that does not arrive as a JS number,
    // bigint, string or boolean; DuckDB converts it to the nearest double.
    const select = DECISION_COLUMNS.map((c) =>
      types.get(c)!.startsWith("DECIMAL")
        ? `CAST("${c}" AS DOUBLE) AS "${c}"`
        : `"${c}"`
    );
    const reader = await connection.runAndReadAll(
      `SELECT ${select.join(", ")} FROM ${relation}`,
    );
    return reader.getColumnsObject();
  }, options);
  // an empty result has no chunks, and then no columns at all
  const columns = {} as Record<DecisionColumn, unknown[]>;
  for (const c of DECISION_COLUMNS) columns[c] = cols[c] ?? [];
  return decisionTable(
    decisionsFromColumns(
      columns,
      columns.runId.length,
      `Cannot load run export ${path}`,
    ),
  );
}

/**
 * Write a decision table to a Parquet file (zstd-compressed).
 *
 * Column types follow the Decision schema (`sqlColumnType`): text columns
 * are VARCHAR, counts (`trial`, tokens) BIGINT, probabilities and amounts
 * (dollars, latency) DOUBLE, `parseOk` BOOLEAN; `null` stays null.
 *
 * @param path Destination path.
 * @param table A decision table with the columns of {@linkcode DECISION_COLUMNS}.
 * @param options DuckDB resources.
 * @throws {TypeError} When the table lacks a column or has an extra one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDecisionsParquet, writeDecisionsParquet } from "./parquet.ts";
 * import { decisionTable } from "./load_decisions.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/empty.parquet`;
 * await writeDecisionsParquet(path, decisionTable([]));
 * assert.equal((await loadDecisionsParquet(path)).numRows(), 0);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeDecisionsParquet(
  path: string,
  table: ColumnTable,
  options: DuckDBOptions = {},
): Promise<void> {
  checkDecisionColumns(table.columnNames(), "Cannot write Parquet run export");
  const cols = DECISION_COLUMNS.map((c) => table.array(c));
  const classes = DECISION_FIELDS.map((f) => sqlTypeClass(f.rule));
  const layout = DECISION_FIELDS.map((f) =>
    `"${f.column}" ${sqlColumnType(f, "duckdb")}`
  );
  const n = table.numRows();
  await withDuckDB(async (connection) => {
    await connection.run(`CREATE TABLE decisions (${layout.join(", ")})`);
    const appender = await connection.createAppender("decisions");
    try {
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < DECISION_COLUMNS.length; k++) {
          const v = cols[k][i];
          if (v === null || v === undefined) {
            appender.appendNull();
            continue;
          }
          switch (classes[k]) {
            case "text":
              appender.appendVarchar(v as string);
              break;
            case "integer":
              appender.appendBigInt(BigInt(v as number));
              break;
            case "real":
              appender.appendDouble(v as number);
              break;
            default:
              appender.appendBoolean(v as boolean);
          }
        }
        appender.endRow();
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
    await connection.run(
      `COPY decisions TO ${
        sqlString(duckdbPath(path))
      } (FORMAT parquet, COMPRESSION zstd)`,
    );
  }, options);
}
