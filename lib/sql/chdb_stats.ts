/**
 * Sufficient statistics of a JSONL, Parquet or CSV run export computed by
 * chdb, ClickHouse's embedded engine, loaded through Deno's FFI from the
 * `libchdb.so` that `lossbook engine install chdb` puts in the cache
 * folder (lib/sql/chdb_install.ts). The rows never reach JavaScript.
 *
 * The aggregate and the row checks are the ClickHouse dialect of the
 * decision SQL (`decisionStatsSql(relation, "clickhouse")`, the same row
 * checks as every engine) over a relation that holds every Decision column
 * as a `Nullable` type, so that a missing value is a NULL the checks see
 * (a ClickHouse column that is not nullable would hold '' or 0 instead).
 * JSONL lines are read as text (`JSONAsString`) and each field extracted
 * with `JSONExtract`; one more query checks each line's shape as the line
 * loader does (no unknown or repeated key, the required keys present, each
 * value of its JSON type). Then the cluster rules (every row names a
 * cluster or none, no task names two), and with the cluster as the unit
 * the window of the aggregate is by cluster. When any check fails, a key
 * repeats, a cluster rule is broken, or chdb refuses the file, the file is read by the in-process loader, which
 * throws its error naming file, row or line, and field (or, should chdb
 * have refused what the loader accepts, gives its statistics).
 *
 * @module
 */

import type { StatsRow } from "../metrics/sufficient_stats.ts";
import {
  DECISION_FIELDS,
  type DecisionField,
  keyPath,
  kindOfRule,
} from "../decision/schema.ts";
import { sqlNullType } from "../decision/schema_sql.ts";
import {
  clusterSplitTasksSql,
  decisionStatsSql,
  duplicateDecisionsSql,
  statsRowsOfSql,
} from "./duckdb_stats_sql.ts";
import {
  type DecisionUnit,
  resolveUnit,
  type UnitOptions,
} from "../decision/cluster.ts";
import { CHDB_INSTALL_COMMAND, installedChdb } from "./chdb_install.ts";
import { decisionFormatOf } from "../read/load_any.ts";
import { CSV_NUMBER_PATTERN } from "../read/csv.ts";
import { importLater } from "../_late_import.ts";

const SYMBOLS = {
  chdb_connect: { parameters: ["i32", "pointer"], result: "pointer" },
  chdb_close_conn: { parameters: ["pointer"], result: "void" },
  chdb_query_n: {
    parameters: ["pointer", "buffer", "usize", "buffer", "usize"],
    result: "pointer",
  },
  chdb_result_buffer: { parameters: ["pointer"], result: "pointer" },
  chdb_result_length: { parameters: ["pointer"], result: "usize" },
  chdb_result_error: { parameters: ["pointer"], result: "pointer" },
  chdb_destroy_query_result: { parameters: ["pointer"], result: "void" },
} as const;

/** A chdb session: queries in, JSONCompact rows out. */
export interface ChdbSession {
  /**
   * Run one query; its rows, each an array in the query's column order
   * (64-bit integers as strings).
   */
  query(sql: string): unknown[][];
}

/** The error chdb gave for a query, with the query's purpose. */
export class ChdbError extends Error {
  /** The name of the error class. */
  override name = "ChdbError";
}

let library: Deno.DynamicLibrary<typeof SYMBOLS> | null = null;

/** `RTLD_NOW | RTLD_NODELETE` of glibc's dlfcn.h. */
const NOW_NODELETE = 0x2 | 0x1000;

// Keeps libchdb.so mapped until the process ends. Deno unloads a library
// opened with Deno.dlopen when the isolate that opened it ends (a test
// file, a worker), while ClickHouse's thread pools still run its code: the
// process then dies of a segmentation fault. A second reference opened by
// the C library's dlopen with RTLD_NODELETE is never released.
function pinLibrary(path: string): void {
  const libc = Deno.dlopen("libc.so.6", {
    dlopen: { parameters: ["buffer", "i32"], result: "pointer" },
  });
  try {
    const handle = libc.symbols.dlopen(
      new TextEncoder().encode(path + "\0"),
      NOW_NODELETE,
    );
    if (handle === null) throw new ChdbError(`Cannot load ${path}`);
  } finally {
    libc.close();
  }
}

/**
 * Open the installed chdb and run `fn` with a session of its own (its
 * catalogue in a temporary folder), closed and removed afterwards.
 *
 * @param fn What to do with the session.
 * @param path The `libchdb.so` to load. Default: the installed one.
 * @returns What `fn` returns.
 * @throws {Deno.errors.NotFound} When chdb is not installed, naming the
 * command that installs it.
 *
 * @example
 * ```ts ignore
 * import { withChdb } from "./chdb_stats.ts";
 *
 * console.log(await withChdb((s) => s.query("SELECT 1 + 1")));
 * ```
 */
export async function withChdb<T>(
  fn: (session: ChdbSession) => T | Promise<T>,
  path: string | null = installedChdb(),
): Promise<T> {
  if (path === null) {
    throw new Deno.errors.NotFound(
      `chdb is not installed: run \`${CHDB_INSTALL_COMMAND}\` (it downloads ClickHouse's embedded engine, about 180 MB, into the cache folder)`,
    );
  }
  if (library === null) {
    pinLibrary(path);
    library = Deno.dlopen(path, SYMBOLS);
  }
  const s = library.symbols;
  const enc = new TextEncoder();
  // a folder of its own for chdb's catalogue, removed afterwards
  const folder = await Deno.makeTempDir({ prefix: "lossbook-chdb-" });
  // 64-bit and wider integers as JSON strings: a sum of 2^-53 units passes
  // 2^53, past which a JSON number would lose its last digits
  const args = [
    "clickhouse",
    `--path=${folder}`,
    "--output_format_json_quote_64bit_integers=1",
  ].map((a) => enc.encode(a + "\0"));
  const argv = new BigUint64Array(args.length + 1);
  args.forEach((a, i) => {
    argv[i] = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(a)));
  });
  const handle = s.chdb_connect(args.length, Deno.UnsafePointer.of(argv));
  if (handle === null) {
    await Deno.remove(folder, { recursive: true });
    throw new ChdbError("Cannot start chdb");
  }
  const conn = new Deno.UnsafePointerView(handle).getPointer(0);
  const format = enc.encode("JSONCompact");
  const session: ChdbSession = {
    query(sql) {
      const text = enc.encode(sql);
      const r = s.chdb_query_n(
        conn,
        text,
        BigInt(text.length),
        format,
        BigInt(format.length),
      );
      if (r === null) throw new ChdbError("chdb returned no result");
      try {
        const e = s.chdb_result_error(r);
        if (e !== null) {
          throw new ChdbError(Deno.UnsafePointerView.getCString(e));
        }
        const n = Number(s.chdb_result_length(r));
        const b = s.chdb_result_buffer(r);
        if (n === 0 || b === null) return [];
        const json = new TextDecoder().decode(
          new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(b, n)),
        );
        return (JSON.parse(json) as { data: unknown[][] }).data;
      } finally {
        s.chdb_destroy_query_result(r);
      }
    },
  };
  try {
    return await fn(session);
  } finally {
    s.chdb_close_conn(handle);
    await Deno.remove(folder, { recursive: true });
  }
}

/**
 * A ClickHouse string literal: the text in single quotes, with `\` and `'`
 * escaped.
 *
 * @param text Any text.
 * @returns The literal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clickhouseString } from "./chdb_stats.ts";
 *
 * assert.equal(clickhouseString("it's"), "'it\\'s'");
 * ```
 */
export function clickhouseString(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

// `file()` reads `*`, `?`, `{` and `}` in a path as a glob
function fileLiteral(path: string): string {
  if (/[*?{}]/.test(path)) {
    throw new TypeError(
      `Cannot read ${path} with chdb: its path holds *, ?, { or }, which chdb reads as a pattern`,
    );
  }
  return clickhouseString(path);
}

// The JSONType names a field's value may have in a JSONL line.
function jsonTypes(field: DecisionField): string[] {
  const kind = kindOfRule(field.rule);
  const types = kind === "number"
    ? (field.rule.kind === "count"
      ? ["Int64", "UInt64", "Double"]
      : ["Int64", "UInt64", "Double"])
    : kind === "boolean"
    ? ["Bool"]
    : ["String"];
  return field.nulls.reads === "never" ? types : [...types, "Null"];
}

function jsonPath(field: DecisionField): string {
  const { head, member } = keyPath(field.key);
  return member === null
    ? clickhouseString(head)
    : `${clickhouseString(head)}, ${clickhouseString(member)}`;
}

function list(values: readonly string[]): string {
  return `[${values.map(clickhouseString).join(", ")}]`;
}

/**
 * The relation of a JSONL file in chdb: one row per line, each Decision
 * column extracted with `JSONExtract` as its `Nullable` type.
 */
function jsonlRelation(path: string): string {
  const cols = DECISION_FIELDS.map((f) =>
    `JSONExtract(json, ${jsonPath(f)}, ${
      clickhouseString(sqlNullType(f, "clickhouse"))
    }) AS ${f.column}`
  );
  return `(SELECT ${cols.join(",\n  ")}\nFROM file(${
    fileLiteral(path)
  }, 'JSONAsString'))`;
}

/**
 * The number of JSONL lines whose shape the line loader refuses: a key it
 * does not know or given twice, a required key missing, a value of the
 * wrong JSON type (or of the right one that `JSONExtract` would not read).
 */
function jsonlShapeSql(path: string): string {
  const heads = [...new Set(DECISION_FIELDS.map((f) => keyPath(f.key).head))];
  const members = new Map<string, string[]>();
  for (const f of DECISION_FIELDS) {
    const { head, member } = keyPath(f.key);
    if (member !== null) {
      members.set(head, [...members.get(head) ?? [], member]);
    }
  }
  const bad: string[] = [
    `NOT isValidJSON(json)`,
    `JSONType(json) <> 'Object'`,
    `NOT arrayAll(k -> has(${list(heads)}, k), JSONExtractKeys(json))`,
    `length(JSONExtractKeys(json)) <> length(arrayDistinct(JSONExtractKeys(json)))`,
  ];
  for (const [head, ms] of members) {
    const h = clickhouseString(head);
    bad.push(
      `(JSONHas(json, ${h}) AND (JSONType(json, ${h}) <> 'Object' OR NOT arrayAll(k -> has(${
        list(ms)
      }, k), JSONExtractKeys(json, ${h})) OR length(JSONExtractKeys(json, ${h})) <> length(arrayDistinct(JSONExtractKeys(json, ${h})))))`,
    );
  }
  for (const f of DECISION_FIELDS) {
    const p = jsonPath(f);
    const typed = `toString(JSONType(json, ${p})) IN (${
      jsonTypes(f).map(clickhouseString).join(", ")
    })`;
    bad.push(
      !f.required
        ? `(JSONHas(json, ${p}) AND NOT ${typed})`
        : `NOT (JSONHas(json, ${p}) AND ${typed})`,
    );
  }
  return `SELECT count() FROM file(${fileLiteral(path)}, 'JSONAsString')
WHERE ${bad.join("\n  OR ")}`;
}

function structure(): string {
  return DECISION_FIELDS.map((f) =>
    `${f.column} ${sqlNullType(f, "clickhouse")}`
  ).join(", ");
}

// ClickHouse's CSV reader takes more than lossbook's CSV rules allow (`yes`
// for a boolean, spaces around a number, which it trims, a leading `+`), so
// every cell is first read as text and held to those rules: a number matches
// CSV_NUMBER_PATTERN (RE2 syntax), a boolean is `true` or `false`, an empty
// cell is null. A file with any other cell is left to the in-process reader,
// which names file, line and field.
const CSV_TEXT_SETTINGS =
  "SETTINGS input_format_csv_trim_whitespaces = 0, input_format_csv_empty_as_default = 1";

function csvTextCheckSql(path: string, header: readonly string[]): string {
  const known = new Map<string, DecisionField>(
    DECISION_FIELDS.map((f) => [f.column, f]),
  );
  const bad = header.flatMap((c) => {
    const kind = kindOfRule(known.get(c)!.rule);
    if (kind === "number") {
      return [
        `(${c} IS NOT NULL AND NOT match(${c}, ${
          clickhouseString(`^${CSV_NUMBER_PATTERN}$`)
        }))`,
      ];
    }
    if (kind === "boolean") {
      return [`(${c} IS NOT NULL AND ${c} NOT IN ('true', 'false'))`];
    }
    return [];
  });
  const structure = header.map((c) => `${c} Nullable(String)`).join(", ");
  return `SELECT count() FROM file(${fileLiteral(path)}, 'CSVWithNames', ${
    clickhouseString(structure)
  })
WHERE ${bad.length === 0 ? "false" : bad.join("\n  OR ")}
${CSV_TEXT_SETTINGS}`;
}

/** The formats chdb reads, by the extension `decisionFormatOf` reads. */
const FORMATS: Readonly<Record<string, string>> = {
  parquet: "Parquet",
  csv: "CSVWithNames",
};

/** Options of {@linkcode chdbDecisionStats}. */
export interface ChdbStatsOptions extends UnitOptions {
  /** The `libchdb.so` to load. Default: the installed one. */
  readonly library?: string | null;
  /**
   * Called with the reason when the file is handed to the in-process
   * reader (a check failed, a key repeats, chdb refused the file).
   * Default: none.
   */
  readonly onFallback?: (reason: string) => void;
}

// Reads the file in process, which throws the loaders' error for a file
// chdb flagged; the statistics when it does not.
async function inProcess(
  path: string,
  format: string,
  options: UnitOptions,
): Promise<StatsRow[]> {
  if (format === "jsonl") {
    type Jsonl = typeof import("../read/jsonl_stats.ts");
    const m = await importLater<Jsonl>(
      new URL("../read/jsonl_stats.ts", import.meta.url),
    );
    const read = await m.jsonlStatsFile(path, { unit: options.unit });
    options.onUnit?.(read.unit);
    return read.stats;
  }
  type Any = typeof import("../read/load_any.ts");
  type Stats = typeof import("../decision/decision_stats.ts");
  const { loadDecisions } = await importLater<Any>(
    new URL("../read/load_any.ts", import.meta.url),
  );
  const { decisionStats } = await importLater<Stats>(
    new URL("../decision/decision_stats.ts", import.meta.url),
  );
  return decisionStats(await loadDecisions(path), options);
}

/**
 * Sufficient statistics of a JSONL, Parquet or CSV run export computed by
 * chdb, equal to the in-process statistics to the last bit (the sums are
 * exact and rounded once, see `statsRowsOfSql`).
 *
 * @param path The file (`.jsonl`, `.parquet` or `.csv`).
 * @param options The library to load.
 * @returns The statistics rows.
 * @throws {Deno.errors.NotFound} When chdb is not installed.
 * @throws {TypeError} For another format.
 * @throws The in-process loader's error for a file it refuses.
 *
 * @example
 * ```ts ignore
 * import { chdbDecisionStats } from "./chdb_stats.ts";
 *
 * console.log(await chdbDecisionStats("data/examples/model_ab.jsonl"));
 * ```
 */
export async function chdbDecisionStats(
  path: string,
  options: ChdbStatsOptions = {},
): Promise<StatsRow[]> {
  const format = decisionFormatOf(path);
  if (format !== "jsonl" && !(format in FORMATS)) {
    throw new TypeError(
      `chdb reads .jsonl, .parquet and .csv files, got ${path}`,
    );
  }
  const absolute = path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  let unit: DecisionUnit = "taskId";
  const found = await withChdb((s) => {
    try {
      const relation = format === "jsonl"
        ? jsonlRelation(absolute)
        : `file(${fileLiteral(absolute)}, '${FORMATS[format]}', ${
          clickhouseString(structure())
        })`;
      if (format === "jsonl") {
        const [[shapeBad]] = s.query(`${jsonlShapeSql(absolute)}`);
        if (Number(shapeBad) > 0) {
          return "a line's keys or JSON types";
        }
      } else {
        const names = s.query(
          `DESCRIBE TABLE file(${fileLiteral(absolute)}, '${FORMATS[format]}')`,
        ).map((r) => String(r[0]));
        const known = new Set<string>(DECISION_FIELDS.map((f) => f.column));
        const required = DECISION_FIELDS.filter((f) => f.required);
        if (
          names.some((n) => !known.has(n)) ||
          new Set(names).size !== names.length ||
          required.some((f) => !names.includes(f.column))
        ) {
          return "the columns are not those of a decision";
        }
        if (format === "csv") {
          const [[badText]] = s.query(csvTextCheckSql(absolute, names));
          if (Number(badText) > 0) {
            return "a cell's text is not what lossbook's CSV rules allow";
          }
        }
      }
      let rows = s.query(
        decisionStatsSql(relation, "clickhouse"),
      );
      if (rows.some((r) => Number(r[9]) !== 0)) return "a row fails a check";
      const [[repeated]] = s.query(
        duplicateDecisionsSql(relation),
      );
      if (Number(repeated) !== 0) return "a decision key repeats";
      // the cluster rules, once every row passed its checks
      const [[named, all]] = s.query(
        `SELECT COUNT(cluster), COUNT(*) FROM ${relation}`,
      );
      if (Number(named) > 0) {
        if (Number(named) !== Number(all)) {
          return "some rows name a cluster, others none";
        }
        const [[split]] = s.query(clusterSplitTasksSql(relation));
        if (Number(split) !== 0) return "a task names two clusters";
      }
      unit = resolveUnit(
        options.unit,
        Number(named) > 0,
        `Cannot load run export ${path}`,
      );
      if (unit === "cluster") {
        rows = s.query(decisionStatsSql(relation, "clickhouse", unit));
      }
      return statsRowsOfSql(rows, Number);
    } catch (error) {
      if (error instanceof ChdbError) {
        return `chdb refused the file: ${error.message.split("\n")[0]}`;
      }
      throw error;
    }
  }, options.library === undefined ? installedChdb() : options.library);
  if (typeof found !== "string") {
    options.onUnit?.(unit);
    return found;
  }
  options.onFallback?.(found);
  return await inProcess(path, format, options);
}
