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

import type { StatsRow } from "../metrics/sufficient_stats.ts";
import {
  duckdbFileLiteral,
  type DuckDBOptions,
  regularFile,
  withDuckDB,
} from "./duckdb_session.ts";
import {
  decisionStatsSql,
  duplicateDecisionsSql,
  statsRowsOfSql,
} from "./duckdb_stats_sql.ts";
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

/** Optional fields that may not be null: a JSON null there is an error. */
const NOT_NULL_OPTIONAL = FIELDS.filter(([, types, required]) =>
  !required && !types.includes("NULL")
).map(([f]) => f);

/**
 * The DuckDB query over the raw objects: each distinct top-level key list
 * (`json_keys`, repeats kept) with its number of lines. A run export has one
 * or a few; {@linkcode keyListProblem} checks each.
 *
 * @param path The `.jsonl` file.
 * @returns The query; rows of (`keys`, `lines`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duckdbJsonlKeysSql } from "./duckdb_jsonl.ts";
 *
 * assert.match(duckdbJsonlKeysSql("a.jsonl"), /json_keys\(json\) AS k\n  FROM read_json_objects\('a\.jsonl'/);
 * ```
 */
export function duckdbJsonlKeysSql(path: string): string {
  return `SELECT k AS keys, COUNT(*) AS lines FROM (
  SELECT json_keys(json) AS k
  FROM read_json_objects(${
    duckdbFileLiteral(path)
  }, format = 'newline_delimited')
) keyed
GROUP BY k`;
}

/**
 * What is wrong with a key list, as the Decision schema sees it, or `null`.
 *
 * @param keys The keys of one object, in order, repeats kept.
 * @param fields The fields the object may have, with whether each is required.
 * @returns A reason, or `null` for a good list.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyListProblem } from "./duckdb_jsonl.ts";
 *
 * const cost: Array<[string, unknown, boolean]> = [["completeness", null, true], ["usd", null, true]];
 * assert.equal(keyListProblem(["completeness", "usd"], cost), null);
 * assert.equal(keyListProblem(["usd", "usd"], cost), "a key repeats");
 * assert.equal(keyListProblem(["completeness", "eur"], cost), "unknown key eur");
 * assert.equal(keyListProblem(["completeness"], cost), "missing key usd");
 * ```
 */
export function keyListProblem(
  keys: readonly string[],
  fields: ReadonlyArray<readonly [string, unknown, boolean]> = FIELDS,
): string | null {
  if (new Set(keys).size !== keys.length) return "a key repeats";
  const known = new Set(fields.map(([f]) => f));
  const unknown = keys.find((k) => !known.has(k));
  if (unknown !== undefined) return `unknown key ${unknown}`;
  const missing = fields.find(([f, , required]) =>
    required && !keys.includes(f)
  );
  if (missing !== undefined) return `missing key ${missing[0]}`;
  return null;
}

/**
 * The DuckDB relation that reads a JSONL run export as the flat Decision
 * columns of `DECISION_COLUMNS`: DuckDB's JSON reader with every field
 * typed `JSON` (nothing converted), then each field's JSON type checked
 * against the schema and `cost`'s keys checked; `runId` is NULL on a line
 * that fails, which the row checks of `decisionStatsSql` count as invalid.
 * (Repeated, unknown and missing keys, at the top and in `cost`, and null
 * in an optional field are found by key lists: {@linkcode duckdbJsonlKeysSql}.)
 *
 * @param path The `.jsonl` file (glob characters are escaped).
 * @param raw A table already holding the JSON-typed columns, to read instead of the file.
 * @param extra More select-list items over the JSON-typed columns.
 * @returns A parenthesised subquery usable as a relation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duckdbJsonlRelation } from "./duckdb_jsonl.ts";
 *
 * const rel = duckdbJsonlRelation("run[1].jsonl");
 * assert.match(rel, /read_json\('run\[\[\]1\]\.jsonl', format = 'newline_delimited'/);
 * assert.match(rel, /json_type\(pCorrect\) IN \('BIGINT', 'UBIGINT', 'DOUBLE', 'NULL'\)/);
 * ```
 */
export function duckdbJsonlRelation(
  path: string,
  raw?: string,
  extra: readonly string[] = [],
): string {
  const columns = FIELDS.map(([f]) => `${f}: 'JSON'`).join(", ");
  const typeOk = FIELDS.map(([f, types, required]) => {
    const allowed = `json_type(${f}) IN (${typeList(types)})`;
    // a JSON null reads as SQL NULL: allowed where the schema takes null,
    // or where the key may be missing (a null there is found by the keys query)
    return required && !types.includes("NULL")
      ? `coalesce(${allowed}, false)`
      : `(${f} IS NULL OR ${allowed})`;
  });
  const costOk = [
    "coalesce(json_type(cost, '$.completeness') = 'VARCHAR', false)",
    `coalesce(json_type(cost, '$.usd') IN (${
      typeList(["NUMBER", "NULL"])
    }), false)`,
  ];
  const ok = [...typeOk, ...costOk].join("\n      AND ");
  const value = (c: string): string => {
    if (c === "costCompleteness") return "cost ->> '$.completeness'";
    if (c === "costUsd") return "CAST(cost -> '$.usd' AS DOUBLE)";
    if (c === "parseOk") return "CAST(parseOk AS BOOLEAN)";
    const [, types] = FIELDS.find(([f]) => f === c)!;
    return types.includes("NUMBER") ? `CAST(${c} AS DOUBLE)` : `${c} ->> '$'`;
  };
  const select = [
    ...DECISION_COLUMNS.map((c) =>
      c === "runId"
        ? `CASE WHEN ${ok}\n    THEN ${value(c)} END AS runId`
        : `${value(c)} AS ${c}`
    ),
    ...extra,
  ].join(",\n    ");
  const source = raw ??
    `read_json(${
      duckdbFileLiteral(path)
    }, format = 'newline_delimited', columns = {${columns}})`;
  return `(SELECT
    ${select}
  FROM ${source}) AS decisions`;
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
  const outcome = await withDuckDB(async (connection) => {
    const all = async (sql: string) =>
      (await connection.runAndReadAll(sql)).getRowsJS() as unknown[][];
    const present = new Map<string, number>(
      NOT_NULL_OPTIONAL.map((f) => [f, 0]),
    );
    let rows: unknown[][];
    try {
      for (const [keys, lines] of await all(duckdbJsonlKeysSql(path))) {
        const problem = keys === null
          ? "a line is not an object"
          : keyListProblem(keys as string[]);
        if (problem !== null) return `${lines} lines: ${problem}`;
        for (const f of NOT_NULL_OPTIONAL) {
          if ((keys as string[]).includes(f)) {
            present.set(f, present.get(f)! + Number(lines));
          }
        }
      }
      // one typed pass into a table, then every query on it
      const typed = duckdbJsonlRelation(path, undefined, [
        "json_keys(cost) AS costKeys",
      ]);
      await connection.run(
        `CREATE TEMP TABLE decisions AS SELECT * FROM ${typed}`,
      );
      for (
        const [keys, lines] of await all(
          "SELECT costKeys, COUNT(*) FROM decisions GROUP BY ALL",
        )
      ) {
        const problem = keys === null
          ? "cost is not an object"
          : keyListProblem(keys as string[], COST_FIELDS);
        if (problem !== null) return `${lines} lines: cost: ${problem}`;
      }
      const [notNull] = await all(
        `SELECT ${
          NOT_NULL_OPTIONAL.map((f) => `COUNT(${f})`).join(", ")
        } FROM decisions`,
      );
      if (
        NOT_NULL_OPTIONAL.some((f, i) => Number(notNull[i]) !== present.get(f))
      ) {
        return "a field that may be missing but not null is null";
      }
      rows = await all(decisionStatsSql("decisions"));
    } catch (error) {
      return `DuckDB refused the file: ${(error as Error).message}`;
    }
    const invalid = rows.reduce((s, r) => s + toNumber(r[9]), 0);
    if (invalid > 0) return `${invalid} lines fail a check`;
    const [repeated] = await all(duplicateDecisionsSql("decisions"));
    if (toNumber(repeated[0]) > 0) return "a decision key repeats";
    return rows;
  }, options);
  if (typeof outcome === "string") {
    options.onFallback?.(outcome);
    return (await jsonlStatsFile(path)).stats;
  }
  return statsRowsOfSql(outcome, toNumber);
}
