/**
 * Sufficient statistics of a JSONL run export computed by DuckDB, with
 * lossbook's validation: the rows never reach JavaScript, and a file that
 * the line loader would refuse is sent to the line loader, so the error
 * still names file, line and field.
 *
 * One parallel scan of the raw objects (`read_json_objects`, which stops on
 * malformed JSON and invalid UTF-8) builds a compact table: per line the
 * hash of its key list (`json_keys`, repeats kept), the fields extracted by
 * one `json_transform` with every field typed `JSON` (nothing converted),
 * each field's JSON type checked by its first character, `cost`'s key list,
 * a trailing-comma test (DuckDB's parser accepts `{"a":1,}`; the line
 * loader does not; the test is conservative: a `,}` inside a string also
 * sends the file to the line loader), the row checks of `DECISION_CHECKS`,
 * and hashes of the decision key and of (modelId, taskId). Small queries on
 * that table then check each distinct key list against the Decision schema
 * (no repeats, no unknown key, required keys present; a list other than the
 * first line's is kept only on the lines that have it), count nulls where a
 * field may be missing but not null, aggregate the statistics with a
 * `GROUP BY` (no window over the rows), and count distinct key hashes:
 * when every decision hash and every (modelId, taskId) hash is distinct,
 * no decision repeats and every task has one trial, so `taskShare` = `n`.
 * Otherwise the exact checks run (`duplicateDecisionsSql`, and trials per
 * task by a `GROUP BY` joined back), so a hash collision costs time, never
 * correctness. When a line names a cluster, the cluster rules are checked
 * (every line names one, `clusterSplitTasksSql` finds no task in two), and
 * with the cluster as the unit the lines per cluster are counted the same
 * way. When any check fails, the file is read again line by line
 * (`jsonlStatsFile`), which throws the loaders' error (or, should DuckDB
 * have refused what the line loader accepts, returns its statistics).
 *
 * @module
 */

import type { StatsRow } from "../metrics/sufficient_stats.ts";
import {
  duckdbFileLiteral,
  type DuckDBOptions,
  regularFile,
  sqlString,
  withDuckDB,
} from "../read/duckdb_session.ts";
import {
  CAN_COST_SQL,
  clusterSplitTasksSql,
  duplicateDecisionsSql,
  invalidDecisionSql,
  pErrorUnitsSql,
  statsRowsOfSql,
} from "./duckdb_stats_sql.ts";
import { jsonlStatsFile } from "../read/jsonl_stats.ts";
import {
  type DecisionUnit,
  resolveUnit,
  type UnitOptions,
} from "../decision/cluster.ts";
import {
  DECISION_FIELDS,
  type DecisionField,
  keyPath,
  kindOfRule,
} from "../decision/schema.ts";

/** A JSON type as the scan tests it (by the first character of its text). */
export type JsonType = "VARCHAR" | "NUMBER" | "BOOLEAN" | "NULL" | "OBJECT";

/** A JSON key of a Decision, the JSON types its value may have, and whether it must be there. */
export type JsonField = readonly [
  key: string,
  types: readonly JsonType[],
  required: boolean,
];

/**
 * The Decision fields as the JSONL scan reads them: the top-level keys,
 * and the keys of the one nested object (a dotted field key such as
 * `cost.usd`), each with its flat column.
 */
export interface DecisionJsonFields {
  /** The top-level keys, the nested object's as `OBJECT`, in schema order. */
  readonly fields: readonly JsonField[];
  /** The flat column of each top-level key that is not the object. */
  readonly columns: readonly string[];
  /** The nested object's key. */
  readonly object: string;
  /** The nested object's keys, in schema order. */
  readonly objectFields: readonly JsonField[];
  /** The flat column of each of `objectFields`. */
  readonly objectColumns: readonly string[];
}

// The JSON types of a field's value: its rule's kind of value, and null
// where the null is a value of the field or stands for an unknown one (a
// field whose null reads "absent" is left out of a JSON record, never null)
function jsonTypes(f: DecisionField): JsonType[] {
  const kind = kindOfRule(f.rule);
  const type = kind === "text"
    ? "VARCHAR"
    : kind === "number"
    ? "NUMBER"
    : "BOOLEAN";
  return f.nulls.reads === "value" || f.nulls.reads === "when"
    ? [type, "NULL"]
    : [type];
}

/**
 * The JSON keys of a Decision and the JSON types of their values, derived
 * from the Decision fields by rule kind (ids, texts, enums and sources are
 * strings, counts, amounts and probabilities numbers, booleans booleans)
 * and null rule (a null that reads as a value or as unknown is JSON
 * `null`; an absent one is a missing key); a dotted key's head is an
 * `OBJECT`, required when any of its keys is.
 *
 * @param fields The Decision fields. Default: the schema's.
 * @returns The keys, their types and columns.
 * @throws {TypeError} When the fields have no nested object or more than
 * one (the scan reads exactly one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionJsonFields } from "./duckdb_jsonl.ts";
 *
 * const j = decisionJsonFields();
 * assert.deepEqual(j.fields.find(([k]) => k === "pCorrect"), ["pCorrect", ["NUMBER", "NULL"], true]);
 * assert.deepEqual(j.fields.find(([k]) => k === "tokensIn"), ["tokensIn", ["NUMBER"], false]);
 * assert.equal(j.object, "cost");
 * assert.deepEqual(j.objectColumns, ["costCompleteness", "costUsd"]);
 * ```
 */
export function decisionJsonFields(
  fields: readonly DecisionField[] = DECISION_FIELDS,
): DecisionJsonFields {
  const top: JsonField[] = [];
  const columns: string[] = [];
  const objects = new Map<string, DecisionField[]>();
  for (const f of fields) {
    const { head, member } = keyPath(f.key);
    if (member === null) {
      top.push([f.key, jsonTypes(f), f.required]);
      columns.push(f.column);
      continue;
    }
    const inner = objects.get(head);
    if (inner === undefined) {
      objects.set(head, [f]);
      top.push([head, ["OBJECT"], f.required]);
    } else {
      inner.push(f);
      if (f.required) {
        const i = top.findIndex(([k]) => k === head);
        top[i] = [head, ["OBJECT"], true];
      }
    }
  }
  if (objects.size !== 1) {
    throw new TypeError(
      `the JSONL scan reads one nested object, the fields have ${objects.size}`,
    );
  }
  const [[object, inner]] = objects;
  const name = (f: DecisionField) => f.key.slice(object.length + 1);
  return {
    fields: top,
    columns,
    object,
    objectFields: inner.map((f) => [name(f), jsonTypes(f), f.required]),
    objectColumns: inner.map((f) => f.column),
  };
}

const JSON_FIELDS = decisionJsonFields();
const FIELDS = JSON_FIELDS.fields;
// the nested object: the cost
const COST = JSON_FIELDS.object;
const COST_FIELDS = JSON_FIELDS.objectFields;

/** Optional fields that may not be null: a JSON null there is an error. */
const NOT_NULL_OPTIONAL = FIELDS.filter(([, types, required]) =>
  !required && !types.includes("NULL")
).map(([f]) => f);

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

// A SQL test that JSON text `v` (as json_transform writes it, or NULL for a
// JSON null or a missing key) has one of the types; NULL passes, the key
// lists decide about nulls.
function typeTest(
  v: string,
  types: readonly JsonType[],
  required: boolean,
): string {
  const one = types.filter((t) => t !== "NULL").map((t) => {
    if (t === "VARCHAR") return `starts_with(${v}, '"')`;
    if (t === "BOOLEAN") return `${v} IN ('true', 'false')`;
    if (t === "OBJECT") return `starts_with(${v}, '{')`;
    return `TRY_CAST(${v}::VARCHAR AS DOUBLE) IS NOT NULL`;
  });
  // a required field that may not be null: SQL NULL (JSON null or no key) fails
  return required && !types.includes("NULL")
    ? `coalesce(${one.join(" OR ")}, false)`
    : `(${v} IS NULL OR ${one.join(" OR ")})`;
}

// The SQL value of JSON text `v` of the schema's type.
function valueOf(v: string, types: readonly JsonType[]): string {
  if (types.includes("NUMBER")) return `TRY_CAST(${v}::VARCHAR AS DOUBLE)`;
  if (types.includes("BOOLEAN")) {
    return `CASE ${v}::VARCHAR WHEN 'true' THEN true WHEN 'false' THEN false END`;
  }
  // a string without escapes is its text between the quotes
  return `CASE WHEN contains(${v}::VARCHAR, '\\') THEN ${v} ->> '$' ELSE (${v}::VARCHAR)[2:-2] END`;
}

// The nested object as JSON.stringify writes it (json_transform writes it
// back the same way) is split as text rather than parsed, when it has the
// one shape the splitting reads: two keys, a vocabulary of lower-case words
// (the 4th '"'-separated part of the text) and then a number or null (what
// follows its key, less the closing brace), as the cost has them
// (completeness, usd). For any other shape `regex` is null: no text is
// split, every object is parsed.
function canonicalObject(
  object: string,
  fields: readonly DecisionField[],
): { regex: string | null; struct: string | null } {
  const inner = fields.filter((f) => f.key.startsWith(`${object}.`));
  const [words, number] = inner;
  const name = (f: DecisionField) => f.key.slice(object.length + 1);
  if (
    inner.length !== 2 || words.rule.kind !== "enum" ||
    !words.rule.values.every((v) => /^[a-z_]+$/.test(v)) ||
    words.nulls.reads !== "never" || kindOfRule(number.rule) !== "number" ||
    number.nulls.reads === "absent"
  ) return { regex: null, struct: null };
  const value = "-?[0-9][0-9.eE+-]*";
  return {
    regex: `\\{"${name(words)}":"[a-z_]+","${name(number)}":${
      number.nulls.reads === "never" ? value : `(null|${value})`
    }\\}`,
    struct: `{'${name(words)}': '"' || split_part(s.${object}, '"', 4) || '"',
        '${name(number)}': NULLIF(rtrim(split_part(s.${object}, '"${
      name(number)
    }":', 2), '}'), 'null')}`,
  };
}

const CANONICAL_COST = canonicalObject(COST, DECISION_FIELDS);

function structure(
  fields: ReadonlyArray<readonly [string, unknown, boolean]>,
): string {
  return `'{${fields.map(([f]) => `"${f}":"JSON"`).join(",")}}'`;
}

/**
 * The DuckDB statement that scans a JSONL run export once into the table
 * `lines` that {@linkcode duckdbJsonlStats} checks and aggregates: the flat
 * Decision columns as SQL values, `bad` (TRUE for a line failing a type
 * test, a row check of `DECISION_CHECKS` or the trailing-comma test),
 * `kh` (hash of the key list), `costKh` (hash of `cost`'s key list), the
 * fields that may be missing but not null as JSON text (to count their
 * nulls), `kOther` (the key list, kept only where it differs from
 * `firstKeys`), `costOther` likewise for a `cost` not in the canonical
 * shape, and the hashes `dh` of the
 * decision key and `th` of (modelId, taskId).
 *
 * @param path The `.jsonl` file (glob characters are escaped).
 * @param firstKeys The first line's key list.
 * @param perUnit Count each line's unit (`taskId` or `cluster`) for
 * `taskTrials` and its costly lines for `unitCostly`, or not (null, the
 * default: every unit has one line).
 * @returns The `CREATE TEMP TABLE lines AS ...` statement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duckdbJsonlScanSql } from "./duckdb_jsonl.ts";
 *
 * const sql = duckdbJsonlScanSql("/data/run[1].jsonl", ["runId"]);
 * assert.match(sql, /read_json_objects\('\/data\/run\[\[\]1\]\.jsonl', format = 'newline_delimited'\)/);
 * assert.match(sql, /json_keys\(json\)/);
 * ```
 */
export function duckdbJsonlScanSql(
  path: string,
  firstKeys: readonly string[],
  perUnit: DecisionUnit | null = null,
): string {
  const keysLiteral = `[${firstKeys.map(sqlString).join(", ")}]::VARCHAR[]`;
  const typeOk = [
    ...FIELDS.map(([f, types, required]) =>
      typeTest(`s.${f}`, types, required)
    ),
    ...COST_FIELDS.map(([f, types, required]) =>
      typeTest(`c.${f}`, types, required)
    ),
  ].join("\n      AND ");
  const columns = [
    ...FIELDS.filter(([f]) => f !== COST).map(([f, types], i) =>
      `${valueOf(`s.${f}`, types)} AS ${JSON_FIELDS.columns[i]}`
    ),
    ...COST_FIELDS.map(([f, types], i) =>
      `${valueOf(`c.${f}`, types)} AS ${JSON_FIELDS.objectColumns[i]}`
    ),
  ];
  const parseCost = `json_transform(s.${COST}, ${
    structure(COST_FIELDS)
  })::STRUCT(${COST_FIELDS.map(([f]) => `${f} VARCHAR`).join(", ")})`;
  return `WITH raw AS (
  SELECT json_keys(json) AS k,
    regexp_matches(json, ',[ \\t\\r\\n]*[\\]}]') AS trailingComma,
    json_transform(json, ${structure(FIELDS)}) AS s
  FROM read_json_objects(${
    duckdbFileLiteral(path)
  }, format = 'newline_delimited')
), shaped AS (
  SELECT *, ${
    CANONICAL_COST.regex === null
      ? "false"
      : `regexp_full_match(s.${COST}, '${CANONICAL_COST.regex}')`
  } AS costFast
  FROM raw
), parsed AS (
  -- a cost as writers write it is split as text, any other one parsed
  SELECT k, trailingComma, s,
    CASE WHEN costFast
      THEN ${CANONICAL_COST.struct ?? parseCost}
      ELSE ${parseCost} END AS c,
    CASE WHEN costFast THEN 0 ELSE hash(json_keys(s.${COST})) END AS costKh,
    CASE WHEN costFast THEN NULL ELSE json_keys(s.${COST}) END AS costOther
  FROM shaped
), typed AS (
  SELECT hash(k) AS kh, k, costKh, costOther, trailingComma,
    CASE WHEN k IS DISTINCT FROM ${keysLiteral} THEN k END AS kOther,
    ${typeOk} AS typeOk,
    ${NOT_NULL_OPTIONAL.map((f) => `s.${f} AS ${f}Json`).join(", ")},
    ${columns.join(",\n    ")}
  FROM parsed
), checked AS (
  SELECT *, hash(runId, modelId, taskId, trial) AS dh,
    hash(modelId, taskId) AS th,
    trailingComma OR NOT coalesce(typeOk, false) OR coalesce(
      ${rowChecksSql()}, true) AS bad
  FROM typed
)
${
    perUnit !== null
      ? perUnitTrials(perUnit)
      : "SELECT"
  } modelId, severity, trueClass, predClass, action,
  COUNT(*) AS n,
  ${pErrorUnitsSql()} AS pErrorUnits,
  COUNT(*) - COUNT(pCorrect) AS pMissing,
  SUM(CASE WHEN parseOk THEN 0 ELSE 1 END) AS parseFailures,
  SUM(CASE WHEN bad THEN 1 ELSE 0 END) AS invalidRows,
  ${perUnit !== null ? "taskTrials" : "1"} AS taskTrials,
  ${perUnit !== null ? "unitCostly" : "0"} AS unitCostly,
  kh, costKh,
  MIN(kOther), MAX(kOther), COUNT(kOther),
  MIN(costOther), MAX(costOther), COUNT(costOther),
  ${NOT_NULL_OPTIONAL.map((f) => `COUNT(${f}Json)`).join(", ")},
  COUNT(DISTINCT dh) AS decisionHashes, COUNT(DISTINCT th) AS taskHashes,
  GROUPING(kh) AS total
FROM ${perUnit !== null ? "withTrials" : "checked"}
GROUP BY GROUPING SETS ((kh, costKh, modelId, severity, trueClass, predClass, action${
    perUnit !== null ? ", taskTrials, unitCostly" : ""
  }), ())`;
}

// lines per (modelId, unit) by a GROUP BY joined back: the second query,
// run only when some unit has more than one line
function perUnitTrials(unit: DecisionUnit): string {
  return `, trials AS (
  SELECT modelId AS m, ${unit} AS t, COUNT(*) AS taskTrials,
    SUM(CASE WHEN ${CAN_COST_SQL} THEN 1 ELSE 0 END) AS unitCostly
  FROM checked GROUP BY modelId, ${unit}
), withTrials AS (
  SELECT checked.*, taskTrials, unitCostly FROM checked
  JOIN trials ON checked.modelId = trials.m AND checked.${unit} = trials.t
)
SELECT`;
}

// The row checks, with `x NOT IN ('a', ...)` written as a list lookup:
// DuckDB plans a long IN list as a join, which materializes the scan.
function rowChecksSql(): string {
  return invalidDecisionSql().replace(
    /(\w+) NOT IN \(([^)]*)\)/g,
    (_, column, values) => `NOT list_contains([${values}], ${column})`,
  );
}

function toNumber(v: unknown): number {
  return Number(v);
}

/** Options for {@linkcode duckdbJsonlStats}. */
export interface DuckDBJsonlOptions extends DuckDBOptions, UnitOptions {
  /** Called when the file goes to the line loader, with the reason. */
  onFallback?: (reason: string) => void;
}

/**
 * Build sufficient statistics from a JSONL run export with DuckDB.
 *
 * Equal to `jsonlStatsFile(path)`, to the last bit (the sums are exact and
 * rounded once, see `statsRowsOfSql`), for every file it accepts, and throws
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
 * import { jsonlStatsFile } from "../read/jsonl_stats.ts";
import {
  type DecisionUnit,
  resolveUnit,
  type UnitOptions,
} from "../decision/cluster.ts";
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
  const where = `Cannot load run export ${path}`;
  await regularFile(path, where);
  let unit: DecisionUnit = "taskId";
  const outcome = await withDuckDB(async (connection) => {
    const all = async (sql: string) =>
      (await connection.runAndReadAll(sql)).getRowsJS() as unknown[][];
    let rows: unknown[][];
    try {
      const first = await all(
        `SELECT json_keys(json) FROM read_json_objects(${
          duckdbFileLiteral(path)
        }, format = 'newline_delimited') LIMIT 1`,
      );
      if (first.length === 0) return "no lines";
      const firstKeys = first[0][0] as string[] | null;
      if (firstKeys === null) return "a line is not an object";
      const firstProblem = keyListProblem(firstKeys);
      if (firstProblem !== null) return `line 1: ${firstProblem}`;
      const scan = (perUnit: DecisionUnit | null) =>
        all(duckdbJsonlScanSql(path, firstKeys, perUnit));
      let result = await scan(null);
      const total = result.find((r) => Number(r[r.length - 1]) === 1)!;
      const [n, decisions, tasks] = [5, total.length - 3, total.length - 2]
        .map((i) => Number(total[i]));
      const groups = result.filter((r) => Number(r[r.length - 1]) === 0);
      let clustered = 0; // lines that name a cluster
      // each group has one key-list hash and one cost key-list hash; the key
      // lists themselves (other than the first line's and the canonical cost)
      // come as their least and greatest, so two lists sharing a hash show
      for (const r of groups) {
        const lines = Number(r[5]);
        const [kMin, kMax, kRows, cMin, cMax, cRows] = r.slice(14, 20);
        const notNull = r.slice(20, 20 + NOT_NULL_OPTIONAL.length).map(Number);
        const same = (a: unknown, b: unknown) =>
          JSON.stringify(a) === JSON.stringify(b);
        if (
          (Number(kRows) !== 0 && Number(kRows) !== lines) ||
          !same(kMin, kMax) ||
          (Number(cRows) !== 0 && Number(cRows) !== lines) || !same(cMin, cMax)
        ) return "two key lists share a hash";
        const keys = (Number(kRows) === 0 ? firstKeys : kMin) as
          | string[]
          | null;
        const problem = keys === null
          ? "a line is not an object"
          : keyListProblem(keys);
        if (problem !== null) return `${lines} lines: ${problem}`;
        if (keys!.includes("cluster")) clustered += lines;
        for (const [i, f] of NOT_NULL_OPTIONAL.entries()) {
          if (keys!.includes(f) && notNull[i] !== lines) {
            return `${f} is null on a line`;
          }
        }
        // no list: the canonical cost, or none, which the type test refuses
        if (Number(cRows) > 0) {
          const costProblem = cMin === null
            ? `${COST} is not an object`
            : keyListProblem(cMin as string[], COST_FIELDS);
          if (costProblem !== null) {
            return `${lines} lines: ${COST}: ${costProblem}`;
          }
        }
      }
      const invalid = groups.reduce((s, r) => s + toNumber(r[9]), 0);
      if (invalid > 0) return `${invalid} lines fail a check`;
      if (decisions !== n) {
        // distinct hashes prove distinct keys; equal hashes are checked exactly
        const [repeated] = await all(
          `${
            duckdbJsonlScanSql(path, firstKeys).replace(
              /\nSELECT modelId, severity[^]*$/,
              "",
            )
          }\n${duplicateDecisionsSql("checked")}`,
        );
        if (toNumber(repeated[0]) > 0) return "a decision key repeats";
      }
      // the cluster rules, once every line passed its checks
      if (clustered > 0) {
        if (clustered < n) return "some lines name a cluster, others none";
        const [[split]] = await all(
          `${
            duckdbJsonlScanSql(path, firstKeys).replace(
              /\nSELECT modelId, severity[^]*$/,
              "",
            )
          }\n${clusterSplitTasksSql("checked")}`,
        );
        if (toNumber(split) > 0) return "a task names two clusters";
      }
      unit = resolveUnit(options.unit, clustered > 0, where);
      if (tasks !== n || unit === "cluster") result = await scan(unit);
      // the groups are per key list too: statsRowsOfSql adds up the rows
      // of each statistics cell, exactly
      rows = result.filter((r) => Number(r[r.length - 1]) === 0)
        .map((r) => r.slice(0, 12));
    } catch (error) {
      return `DuckDB refused the file: ${(error as Error).message}`;
    }
    const invalid = rows.reduce((s, r) => s + toNumber(r[9]), 0);
    if (invalid > 0) return `${invalid} lines fail a check`;
    return rows;
  }, options);
  if (typeof outcome === "string") {
    options.onFallback?.(outcome);
    const read = await jsonlStatsFile(path, { unit: options.unit });
    options.onUnit?.(read.unit);
    return read.stats;
  }
  options.onUnit?.(unit);
  return statsRowsOfSql(outcome, toNumber);
}
