/**
 * Sufficient statistics of a JSONL run export computed by DuckDB, with
 * lossbook's validation: the rows never reach JavaScript, and a file that
 * the line loader would refuse is sent to the line loader, so the error
 * still names file, line and field.
 *
 * DuckDB's typed JSON reader keeps one of two repeated keys, ignores
 * unknown ones and converts types (`"0.9"` into a DOUBLE column), so this
 * reads the raw objects (`read_json_objects`) and checks, per line, what
 * the line loader checks: the key list has no repeats (`json_keys` longer
 * than its distinct set) and no key outside the Decision schema, at the top
 * and inside `cost`; each field has the JSON type the schema takes
 * (`json_type`); required fields are present. A line failing this gets a
 * NULL `runId`, which the portable row checks of `decisionStatsSql` count
 * as invalid, and so do out-of-range values; invalid UTF-8 and malformed
 * JSON stop DuckDB's reader. In each case, and when a decision key repeats,
 * the file is read again line by line (`jsonlStatsFile`), which throws the
 * loaders' error (or, should DuckDB have refused what the line loader
 * accepts, returns its statistics).
 *
 * @module
 */

import type { Severity } from "../costs/severity.ts";
import { sortStats, type StatsRow } from "../metrics/sufficient_stats.ts";
import type { Action } from "./decision.ts";
import {
  duckdbFileLiteral,
  type DuckDBOptions,
  regularFile,
  withDuckDB,
} from "./duckdb_session.ts";
import { decisionStatsSql, duplicateDecisionsSql } from "./duckdb_stats_sql.ts";
import { jsonlStatsFile } from "./jsonl_stats.ts";
import { DECISION_COLUMNS } from "./load_decisions.ts";

type JsonType = "VARCHAR" | "NUMBER" | "BOOLEAN" | "NULL" | "OBJECT";

// The JSON types each top-level field may have, and whether it must be
// there (the Decision schema): ids and enums are strings, counts and
// amounts numbers, `cost` an object.
const FIELDS: ReadonlyArray<[string, readonly JsonType[], boolean]> = [
  ["runId", ["VARCHAR"], true],
  ["modelId", ["VARCHAR"], true],
  ["taskId", ["VARCHAR"], true],
  ["trial", ["NUMBER"], true],
  ["severity", ["VARCHAR"], true],
  ["trueClass", ["VARCHAR"], true],
  ["predClass", ["VARCHAR"], true],
  ["parseOk", ["BOOLEAN"], true],
  ["pCorrect", ["NUMBER", "NULL"], true],
  ["action", ["VARCHAR"], true],
  ["cost", ["OBJECT"], true],
  ["outcome", ["VARCHAR"], true],
  ["tokensIn", ["NUMBER"], false],
  ["tokensOut", ["NUMBER"], false],
  ["latencyMs", ["NUMBER"], false],
  ["pCorrectSource", ["VARCHAR", "NULL"], false],
  ["answer", ["VARCHAR"], false],
  ["target", ["VARCHAR"], false],
];
const COST_FIELDS: ReadonlyArray<[string, readonly JsonType[], boolean]> = [
  ["completeness", ["VARCHAR"], true],
  ["usd", ["NUMBER", "NULL"], true],
];

function typeList(types: readonly JsonType[]): string {
  return types.flatMap((t) =>
    t === "NUMBER" ? ["'BIGINT'", "'UBIGINT'", "'DOUBLE'"] : [`'${t}'`]
  ).join(", ");
}

function shapeChecks(
  fields: ReadonlyArray<[string, readonly JsonType[], boolean]>,
  keys: string,
  types: string,
): string[] {
  const names = fields.map(([f]) => `'${f}'`).join(", ");
  return [
    `len(${keys}) = len(list_distinct(${keys}))`,
    `len(list_filter(${keys}, k -> NOT list_contains([${names}], k))) = 0`,
    ...fields.map(([, allowed, required], i) =>
      required
        ? `coalesce(${types}[${i + 1}] IN (${typeList(allowed)}), false)`
        : `(${types}[${i + 1}] IS NULL OR ${types}[${i + 1}] IN (${
          typeList(allowed)
        }))`
    ),
  ];
}

/**
 * The DuckDB relation that reads a JSONL run export as the flat Decision
 * columns of `DECISION_COLUMNS`, with `runId` NULL on every line whose keys
 * or JSON types the Decision schema refuses (see the module notes).
 *
 * @param path The `.jsonl` file (glob characters are escaped).
 * @returns A parenthesised subquery usable as a relation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duckdbJsonlRelation } from "./duckdb_jsonl.ts";
 *
 * const rel = duckdbJsonlRelation("run[1].jsonl");
 * assert.match(rel, /read_json_objects\('run\[\[\]1\]\.jsonl', format = 'newline_delimited'/);
 * assert.match(rel, /len\(k\) = len\(list_distinct\(k\)\)/);
 * ```
 */
export function duckdbJsonlRelation(path: string): string {
  const paths = FIELDS.map(([f]) => `'$.${f}'`).join(", ");
  const costPaths = COST_FIELDS.map(([f]) => `'$.cost.${f}'`).join(", ");
  const ok = [
    ...shapeChecks(FIELDS, "k", "t"),
    ...shapeChecks(COST_FIELDS, "ck", "ct"),
  ].join("\n      AND ");
  const at = (f: string) => FIELDS.findIndex(([n]) => n === f) + 1;
  const column = (c: string): string => {
    if (c === "costCompleteness") return "ce[1] ->> '$'";
    if (c === "costUsd") return "CAST(ce[2] AS DOUBLE)";
    const i = at(c);
    if (c === "parseOk") return `CAST(e[${i}] AS BOOLEAN)`;
    const [, types] = FIELDS[i - 1];
    return types.includes("NUMBER")
      ? `CAST(e[${i}] AS DOUBLE)`
      : `e[${i}] ->> '$'`;
  };
  const select = DECISION_COLUMNS.map((c) =>
    c === "runId"
      ? `CASE WHEN ok THEN ${column(c)} END AS runId`
      : `${column(c)} AS ${c}`
  ).join(",\n    ");
  return `(SELECT
    ${select}
  FROM (
    SELECT e, ce, ${ok} AS ok
    FROM (
      SELECT
        json_keys(json) AS k,
        json_type(json, [${paths}]) AS t,
        json_extract(json, [${paths}]) AS e,
        json_keys(json, '$.cost') AS ck,
        json_type(json, [${costPaths}]) AS ct,
        json_extract(json, [${costPaths}]) AS ce
      FROM read_json_objects(${
    duckdbFileLiteral(path)
  }, format = 'newline_delimited', ignore_errors = false)
    ) parsed
  ) checked) AS decisions`;
}

function toNumber(v: unknown): number {
  return Number(v);
}

/** Options for {@linkcode duckdbJsonlStats}. */
export interface DuckDBJsonlOptions extends DuckDBOptions {
  /** Called when the file goes to the line loader, with the reason. */
  onFallback?: (reason: string) => void;
}

/**
 * Build sufficient statistics from a JSONL run export with DuckDB.
 *
 * Equal to `jsonlStatsFile(path)` (counts exactly, `pErrorSum` up to the
 * order of floating-point addition) for every file it accepts, and throws
 * the same error for every file it refuses, because a file failing any
 * check is read again by the line loader (see the module notes).
 *
 * @param path The `.jsonl` file.
 * @param options DuckDB resources; a callback told when the line loader takes over.
 * @returns Statistics rows in canonical order.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {Deno.errors.IsADirectory} For a directory.
 * @throws {SyntaxError | RangeError | TypeError} As the line loader, naming file, line and field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duckdbJsonlStats } from "./duckdb_jsonl.ts";
 * import { jsonlStatsFile } from "./jsonl_stats.ts";
 *
 * const path = new URL("../../data/examples/model_ab.jsonl", import.meta.url).pathname;
 * const sql = await duckdbJsonlStats(path, { threads: 1 });
 * assert.deepEqual(sql.map((r) => r.n), (await jsonlStatsFile(path)).stats.map((r) => r.n));
 * ```
 */
export async function duckdbJsonlStats(
  path: string,
  options: DuckDBJsonlOptions = {},
): Promise<StatsRow[]> {
  await regularFile(path, `Cannot load run export ${path}`);
  const relation = duckdbJsonlRelation(path);
  const outcome = await withDuckDB(async (connection) => {
    let rows: unknown[][];
    try {
      rows = (await connection.runAndReadAll(decisionStatsSql(relation)))
        .getRows() as unknown[][];
    } catch (error) {
      return `DuckDB refused the file: ${(error as Error).message}`;
    }
    const invalid = rows.reduce((s, r) => s + toNumber(r[9]), 0);
    if (invalid > 0) return `${invalid} lines fail a check`;
    const [repeated] = (await connection.runAndReadAll(
      duplicateDecisionsSql(relation),
    )).getRows();
    if (toNumber(repeated[0]) > 0) return "a decision key repeats";
    return rows;
  }, options);
  if (typeof outcome === "string") {
    options.onFallback?.(outcome);
    return (await jsonlStatsFile(path)).stats;
  }
  return sortStats(outcome.map((r) => ({
    modelId: String(r[0]),
    severity: String(r[1]) as Severity,
    trueClass: String(r[2]),
    predClass: String(r[3]),
    action: String(r[4]) as Action,
    n: toNumber(r[5]),
    pErrorSum: toNumber(r[6]),
    pMissing: toNumber(r[7]),
    parseFailures: toNumber(r[8]),
    taskShare: toNumber(r[10]),
  })));
}
