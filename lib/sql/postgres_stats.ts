/**
 * Sufficient statistics of a decisions table inside PostgreSQL: the rows
 * never leave the server. The aggregate, the row checks and the duplicate
 * check are the portable SQL of `duckdb_stats_sql.ts`, the same text DuckDB
 * runs; this file adds how a table becomes a relation, the column check, and
 * errors that name the table and a row's key values.
 *
 * The table has the flat Decision columns of `DECISION_COLUMNS` (cost as
 * `costCompleteness`, `costUsd`), text columns as a text type, numeric ones
 * as any integer, real, double precision or numeric type, `parseOk` as
 * boolean; the columns of `OPTIONAL_DECISION_COLUMNS` may be left out.
 * Identifiers are unquoted: PostgreSQL folds them to lower case, so a table
 * created with unquoted names (`CREATE TABLE decisions (runId text, …)`)
 * matches. A table whose columns were created with quoted mixed-case names
 * (`"runId"`) is reached through a view with unquoted names.
 *
 * The client is `npm:postgres` (pure JavaScript, runs on Deno). A DSN is a
 * URL (`postgresql://user:pass@host:5432/db`, `postgresql:///db?host=/run/dir`)
 * or libpq keywords (`host=/run/dir dbname=db user=me`); a host that starts
 * with `/` is a unix-socket directory.
 *
 * @module
 */

import type { StatsRow } from "../metrics/sufficient_stats.ts";
import type { FlatDecisionRow } from "../read/arrow.ts";
import { importLater } from "../_late_import.ts";
import {
  firstInvalidDecisionsSql,
  repeatedDecisionKeysSql,
} from "./decision_sql_rows.ts";
import {
  type CellSqlOptions,
  clusterSplitTasksSql,
  DECISION_CHECKS,
  decisionCellsByKeySql,
  decisionCellsSql,
  decisionCellsWithoutChecksSql,
  decisionStatsSql,
  duplicateDecisionsSql,
  firstClusterBreakSql,
  namedClusters,
  singleTrialCells,
  statsRowsOfSql,
} from "./duckdb_stats_sql.ts";
import { decisionsTableSql } from "./decision_sql_export.ts";
import {
  DECISION_COLUMNS,
  type DecisionColumn,
  decisionColumnKind,
  OPTIONAL_DECISION_COLUMNS,
} from "../decision/schema.ts";
import { fieldOfColumn } from "../decision/schema.ts";
import { sqlNullType } from "../decision/schema_sql.ts";
import {
  clusterRuleError,
  resolveUnit,
  type UnitOptions,
} from "../decision/cluster.ts";
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
} from "../input_error.ts";

/** How to reach a PostgreSQL server, as parsed from a DSN. */
export interface PostgresConnection {
  /** Host name, or a unix-socket directory (starts with `/`). */
  readonly host: string;
  /** Port (also names the socket file `.s.PGSQL.<port>`). */
  readonly port: number;
  /** Database name. */
  readonly database: string;
  /** User name. */
  readonly username: string;
  /** Password, or `null` for none. */
  readonly password: string | null;
  /** Seconds to wait for the connection (`connect_timeout`; 0 for no limit), or `null` when the DSN does not say. */
  readonly connectTimeout: number | null;
}

const KEYWORDS = new Set([
  "host",
  "port",
  "dbname",
  "user",
  "password",
  "connect_timeout",
]);

function keywordPairs(dsn: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  const s = dsn.trim();
  while (i < s.length) {
    const m = /^\s*([A-Za-z_]+)\s*=\s*/.exec(s.slice(i));
    if (m === null) {
      throw new InputSyntaxError(
        `Cannot read DSN: expected key=value at ${JSON.stringify(s.slice(i))}`,
      );
    }
    i += m[0].length;
    let value = "";
    if (s[i] === "'") {
      i++;
      while (i < s.length && s[i] !== "'") {
        if (s[i] === "\\" && i + 1 < s.length) i++;
        value += s[i++];
      }
      if (s[i] !== "'") {
        throw new InputSyntaxError(
          "Cannot read DSN: unterminated quoted value",
        );
      }
      i++;
    } else {
      while (i < s.length && !/\s/.test(s[i])) {
        if (s[i] === "\\" && i + 1 < s.length) i++;
        value += s[i++];
      }
    }
    out.set(m[1], value);
  }
  return out;
}

function urlPairs(dsn: string): Map<string, string> {
  const out = new Map<string, string>();
  const rest = dsn.replace(/^postgres(ql)?:\/\//, "");
  const q = rest.indexOf("?");
  const main = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 ? "" : rest.slice(q + 1);
  const slash = main.indexOf("/");
  const authority = slash < 0 ? main : main.slice(0, slash);
  const path = slash < 0 ? "" : main.slice(slash + 1);
  const at = authority.lastIndexOf("@");
  const userinfo = at < 0 ? "" : authority.slice(0, at);
  const hostport = at < 0 ? authority : authority.slice(at + 1);
  const dec = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      throw new InputSyntaxError(
        `Cannot read DSN: bad percent-encoding in ${s}`,
      );
    }
  };
  if (userinfo !== "") {
    const colon = userinfo.indexOf(":");
    out.set("user", dec(colon < 0 ? userinfo : userinfo.slice(0, colon)));
    if (colon >= 0) out.set("password", dec(userinfo.slice(colon + 1)));
  }
  if (hostport !== "") {
    const m = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostport);
    if (m === null) {
      throw new InputSyntaxError(`Cannot read DSN: bad host ${hostport}`);
    }
    if (m[1] !== "") out.set("host", dec(m[1].replace(/^\[|\]$/g, "")));
    if (m[2]) out.set("port", m[2]);
  }
  if (path !== "") out.set("dbname", dec(path));
  for (const part of query.split("&").filter((p) => p !== "")) {
    const eq = part.indexOf("=");
    const key = dec(eq < 0 ? part : part.slice(0, eq));
    out.set(key, dec(eq < 0 ? "" : part.slice(eq + 1)));
  }
  return out;
}

/**
 * Parse a PostgreSQL DSN, as a URL or as libpq `key=value` words.
 *
 * Known keys: `host`, `port`, `dbname`, `user`, `password`,
 * `connect_timeout` (seconds, a whole number; 0 waits without limit);
 * anything else is refused rather than ignored. Unset values follow libpq's
 * environment (`PGHOST`, `PGPORT`, `PGDATABASE`, `PGUSER`, `PGPASSWORD`,
 * `PGCONNECT_TIMEOUT`), then its defaults (`localhost`, 5432, the user
 * name, `postgres`).
 *
 * @param dsn The DSN.
 * @param env Environment to read defaults from. Default: none.
 * @returns Where to connect.
 * @throws {SyntaxError} When the DSN cannot be read or has an unknown key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePostgresDsn } from "./postgres_stats.ts";
 *
 * const a = parsePostgresDsn("postgresql://me@/runs?host=/tmp/pg");
 * assert.deepEqual([a.host, a.port, a.database, a.username], ["/tmp/pg", 5432, "runs", "me"]);
 * const b = parsePostgresDsn("host=/tmp/pg port=5433 dbname=runs user=me");
 * assert.deepEqual([b.host, b.port, b.database], ["/tmp/pg", 5433, "runs"]);
 * assert.throws(() => parsePostgresDsn("host=x sslmod=on"), /unknown key sslmod/);
 * assert.equal(parsePostgresDsn("postgresql://db.example/runs?connect_timeout=5").connectTimeout, 5);
 * ```
 */
export function parsePostgresDsn(
  dsn: string,
  env: Readonly<Record<string, string | undefined>> = {},
): PostgresConnection {
  const pairs = /^postgres(ql)?:\/\//.test(dsn)
    ? urlPairs(dsn)
    : keywordPairs(dsn);
  for (const key of pairs.keys()) {
    if (!KEYWORDS.has(key)) {
      throw new InputSyntaxError(
        `Cannot read DSN: unknown key ${key} (known: ${
          [...KEYWORDS].join(", ")
        })`,
      );
    }
  }
  const portText = pairs.get("port") ?? env.PGPORT ?? "5432";
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new InputSyntaxError(
      `Cannot read DSN: port must be an integer in [1, 65535], got ${portText}`,
    );
  }
  const timeoutText = pairs.get("connect_timeout") ?? env.PGCONNECT_TIMEOUT;
  const connectTimeout = timeoutText === undefined ? null : Number(timeoutText);
  if (
    connectTimeout !== null &&
    (!/^\d+$/.test(timeoutText!) || !Number.isSafeInteger(connectTimeout))
  ) {
    throw new InputSyntaxError(
      `Cannot read DSN: connect_timeout must be a whole number of seconds, got ${
        JSON.stringify(timeoutText)
      }`,
    );
  }
  const username = pairs.get("user") ?? env.PGUSER ?? env.USER ?? "postgres";
  return {
    host: pairs.get("host") || env.PGHOST || "localhost",
    port,
    database: pairs.get("dbname") ?? env.PGDATABASE ?? username,
    username,
    password: pairs.get("password") ?? env.PGPASSWORD ?? null,
    connectTimeout,
  };
}

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/**
 * Check a table name for use as an unquoted identifier: a name or
 * `schema.name`, letters, digits and `_`, not starting with a digit.
 *
 * @param name The name given.
 * @returns The name.
 * @throws {SyntaxError} For anything else (quotes, spaces, SQL).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkTableName } from "./postgres_stats.ts";
 *
 * assert.equal(checkTableName("runs.decisions"), "runs.decisions");
 * assert.throws(() => checkTableName("x; drop table y"), SyntaxError);
 * ```
 */
export function checkTableName(name: string): string {
  if (!TABLE_NAME.test(name)) {
    throw new InputSyntaxError(
      `table name must be an unquoted identifier (name or schema.name: letters, digits, _), got ${
        JSON.stringify(name)
      }`,
    );
  }
  return name;
}

// PostgreSQL type OIDs, by the kind of Decision column they may hold.
const TEXT_TYPES = new Map([[25, "text"], [1043, "varchar"], [
  1042,
  "char",
], [19, "name"]]);
const NUMBER_TYPES = new Map([
  [20, "bigint"],
  [21, "smallint"],
  [23, "integer"],
  [700, "real"],
  [701, "double precision"],
  [1700, "numeric"],
]);
const BOOLEAN_TYPES = new Map([[16, "boolean"]]);
const KINDS = {
  text: { types: TEXT_TYPES, words: "a text type (text, varchar)" },
  number: {
    types: NUMBER_TYPES,
    words: "a numeric type (integer, bigint, real, double precision, numeric)",
  },
  boolean: { types: BOOLEAN_TYPES, words: "boolean" },
} as const;

function typeName(oid: number): string {
  return TEXT_TYPES.get(oid) ?? NUMBER_TYPES.get(oid) ??
    BOOLEAN_TYPES.get(oid) ?? `type oid ${oid}`;
}

/**
 * Check the columns of a PostgreSQL relation against the flat Decision
 * layout, and give the relation the statistics query scans: the table
 * itself when every column is there, else a subquery that adds each missing
 * optional column as NULL.
 *
 * @param table The table or view name (unquoted).
 * @param columns Name and type OID of each column, as the server reports them.
 * @returns The relation text.
 * @throws {TypeError} On a missing, unknown, repeated or mistyped column, or a quoted mixed-case name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { postgresRelation } from "./postgres_stats.ts";
 * import { DECISION_COLUMNS } from "../read/load_decisions.ts";
 * import { decisionColumnKind } from "../read/parquet.ts";
 *
 * const oid = { text: 25, number: 701, boolean: 16 };
 * const all = DECISION_COLUMNS.map((c) => ({ name: c.toLowerCase(), type: oid[decisionColumnKind(c)] }));
 * assert.equal(postgresRelation("decisions", all), "decisions");
 * assert.match(postgresRelation("decisions", all.filter((c) => c.name !== "target")), /CAST\(NULL AS text\) AS target/);
 * assert.throws(() => postgresRelation("d", all.map((c) => c.name === "runid" ? { ...c, name: "runId" } : c)), /quoted mixed-case name "runId"/);
 * ```
 */
export function postgresRelation(
  table: string,
  columns: ReadonlyArray<{ readonly name: string; readonly type: number }>,
): string {
  const where = `Cannot load table ${table}`;
  const byLower = new Map(DECISION_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const seen = new Map<DecisionColumn, number>();
  for (const { name, type } of columns) {
    const column = byLower.get(name);
    if (column === undefined) {
      if (byLower.has(name.toLowerCase())) {
        throw new InputTypeError(
          `${where}: column has the quoted mixed-case name ${
            JSON.stringify(name)
          }, which unquoted SQL cannot reach; create a view with unquoted names (CREATE VIEW v AS SELECT "${name}" AS ${
            byLower.get(name.toLowerCase())
          }, …)`,
        );
      }
      throw new InputTypeError(
        `${where}: unknown column ${JSON.stringify(name)} (expected ${
          DECISION_COLUMNS.join(", ")
        })`,
      );
    }
    if (seen.has(column)) {
      throw new InputTypeError(`${where}: column ${column} repeats`);
    }
    const kind = KINDS[decisionColumnKind(column)];
    if (!kind.types.has(type)) {
      throw new InputTypeError(
        `${where}: column ${column} must have ${kind.words}, got ${
          typeName(type)
        }`,
      );
    }
    seen.set(column, type);
  }
  const optional = new Set<string>(OPTIONAL_DECISION_COLUMNS);
  const missing = DECISION_COLUMNS.filter((c) => !seen.has(c));
  const required = missing.filter((c) => !optional.has(c));
  if (required.length > 0) {
    throw new InputTypeError(
      `${where}: missing column${required.length > 1 ? "s" : ""} ${
        required.join(", ")
      }`,
    );
  }
  if (missing.length === 0) return table;
  const select = DECISION_COLUMNS.map((c) =>
    seen.has(c)
      ? c
      : `CAST(NULL AS ${sqlNullType(fieldOfColumn(c), "postgres")}) AS ${c}`
  ).join(", ");
  return `(SELECT ${select} FROM ${table}) AS decisions`;
}

/** Options for {@linkcode postgresDecisionStats}. */
export interface PostgresStatsOptions extends UnitOptions {
  /**
   * Refuse a table in which a (runId, modelId, taskId, trial) repeats, as
   * the loaders do (a second scan). Default: `true`.
   */
  checkDuplicates?: boolean;
  /** Environment for DSN defaults (`PGHOST`, …). Default: none. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Seconds to wait for the server to accept the connection and answer the
   * first query, 0 for no limit; past it, `Deno.errors.TimedOut`. Default:
   * the DSN's `connect_timeout`, else 10.
   */
  connectTimeout?: number;
  /**
   * Seconds the queries may take in all, once connected, 0 for no limit;
   * past it, `Deno.errors.TimedOut`. Default: 0.
   */
  queryTimeout?: number;
  /**
   * Told whether the table's constraints guarantee the row checks (then the
   * scan leaves them out; see {@linkcode postgresChecksGuaranteed}), before
   * the scan. Default: none.
   */
  onChecks?: (guarantee: ChecksGuarantee) => void;
  /**
   * Told which scan aggregates the table, before it runs: `"checked"`
   * (`decisionCellsSql`), `"lean"` (`decisionCellsWithoutChecksSql`: the
   * constraints guarantee the checks) or `"by-key"` (`decisionCellsByKeySql`:
   * they do, and an index gave the runIds of each model). The scan waits
   * for a returned promise, inside the transaction. Default: none.
   */
  onScan?: (scan: "checked" | "lean" | "by-key") => void | Promise<void>;
}

// At most this many (runId, modelId) pairs are read from an index; a table
// with more is aggregated by the lean scan, which groups by runId itself.
const RUN_MODEL_PAIRS = 1000;

type Sql = import("postgres").Sql;
type TransactionSql = import("postgres").TransactionSql;

async function connect(
  connection: PostgresConnection,
  connectTimeout: number,
): Promise<Sql> {
  const { default: postgres } = await import("postgres");
  return postgres({
    host: connection.host,
    port: connection.port,
    database: connection.database,
    username: connection.username,
    ...(connection.password === null ? {} : { password: connection.password }),
    max: 1,
    // the queries here return no arrays (catalog lists come as JSON text),
    // so the client need not read the server's array types first (one
    // more query and its parsing on every run)
    fetch_types: false,
    // the client's own timer too (0 is none); the deadline of
    // withinDeadline also covers a server that answers garbage
    connect_timeout: connectTimeout,
    onnotice: () => {},
    // JIT's inlining and optimization passes (above their cost thresholds)
    // spend more compiling a large decisionCellsSql than they save; compiled
    // expressions without them still pay for themselves against JIT off, so
    // JIT stays on and only those passes are switched off
    connection: { jit_inline_above_cost: "-1", jit_optimize_above_cost: "-1" },
  });
}

// A timeout option: seconds, 0 for none.
function deadlineSeconds(name: string, seconds: number): number {
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new RangeError(
      `${name} must be a number of seconds >= 0 (0 for no limit), got ${seconds}`,
    );
  }
  return seconds;
}

/**
 * The work's result, or `Deno.errors.TimedOut` with `message` once `seconds`
 * have passed (0: no limit), when the connection is closed at once: a
 * server that accepts a connection and answers nothing, or garbage, would
 * otherwise hold the client for ever.
 */
async function withinDeadline<T>(
  work: Promise<T>,
  seconds: number,
  sql: Sql,
  message: string,
): Promise<T> {
  if (seconds === 0) return await work;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // the work fails too once the connection is closed; that is expected
      work.catch(() => {});
      void sql.end({ timeout: 0 });
      reject(new Deno.errors.TimedOut(message));
    }, seconds * 1000);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function num(v: unknown): number {
  return v === null || v === undefined ? NaN : Number(v);
}

function keyText(r: Record<string, unknown>): string {
  return `row with runId ${JSON.stringify(r.runid ?? null)}, modelId ${
    JSON.stringify(r.modelid ?? null)
  }, taskId ${JSON.stringify(r.taskid ?? null)}, trial ${
    r.trial === null || r.trial === undefined ? "null" : String(r.trial)
  }`;
}

/**
 * A row PostgreSQL returned (lower-case column names) as the file loaders'
 * flat row, numbers as numbers: what `flatDecision` checks, so that an error
 * in a table reads as the same error in a file.
 *
 * @param found A result row of the decisions columns.
 * @returns The flat row, a missing or null column as null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pgFlatRow } from "./postgres_stats.ts";
 *
 * const row = pgFlatRow({ runid: "r", trial: "3", pcorrect: null });
 * assert.equal(row.runId, "r");
 * assert.equal(row.trial, 3);
 * assert.equal(row.pCorrect, null);
 * ```
 */
export function pgFlatRow(found: Record<string, unknown>): FlatDecisionRow {
  const row = {} as Record<string, unknown>;
  for (const c of DECISION_COLUMNS) {
    const v = found[c.toLowerCase()];
    row[c] = v === null || v === undefined
      ? null
      : decisionColumnKind(c) === "number"
      ? Number(v)
      : v;
  }
  return row as FlatDecisionRow;
}

/**
 * Build sufficient statistics from a decisions table in PostgreSQL, without
 * reading its rows into JavaScript.
 *
 * The result equals `decisionStats` of the same rows loaded from a file, to
 * the last bit (the sums are exact and rounded once, see `statsRowsOfSql`).
 * The columns are checked first (names and types, see
 * {@linkcode postgresRelation}); one scan with one `GROUP BY` and no window
 * runs `decisionCellsSql`, which also counts rows failing `DECISION_CHECKS`;
 * when any fails, the first bad row in key order is fetched and reported
 * with the loaders' message, its key values in place of a line number. On a
 * table whose validated CHECK constraints are the row checks (see
 * {@linkcode postgresChecksGuaranteed}; `decisionsTableSql` with `checks`
 * makes one) no row can fail them, and the scan is
 * `decisionCellsWithoutChecksSql` instead (`onChecks` tells which). With
 * `checkDuplicates` (the default) repeated (runId, modelId, taskId, trial)
 * are refused: by the table's unique index on key columns when it has one
 * (a primary key; no scan), else by a second scan that counts distinct
 * 64-bit hashes of the key (the exact `duplicateDecisionsSql` runs only
 * when they are fewer than the rows). The session compiles expressions
 * with JIT but without its inlining and optimization passes, and takes
 * text least and greatest in byte order (`postgresCellOptions`). When some
 * model has several runIds or trial values, `taskShare` needs the trials per task and
 * `decisionStatsSql` (its window) runs; with one run and one trial per
 * model, `taskShare` = `n`. When some row names a cluster, the cluster
 * rules are checked (`ClusterCheck`, rows taken in key order; a row that
 * breaks one is named by its key), and with the cluster as the unit
 * (`options.unit`, else the cluster when the rows name one) the window is
 * by cluster.
 *
 * @param dsn Where the server is (see {@linkcode parsePostgresDsn}).
 * @param table The table or view (unquoted name or `schema.name`).
 * @param options Duplicate check, DSN environment, a listener for the checks decision.
 * @returns Statistics rows in canonical order (`sortStats`).
 * @throws {SyntaxError} On a bad DSN or table name.
 * @throws {TypeError} On a missing table, or a wrong column set or type.
 * @throws {RangeError} On a bad value or a repeated decision, naming the row's key and the field.
 * @throws {Error} When the server cannot be reached.
 *
 * @example
 * ```ts ignore
 * // needs a running server; see scripts/pg_throwaway.sh
 * import { postgresDecisionStats } from "./postgres_stats.ts";
 *
 * const stats = await postgresDecisionStats("postgresql:///runs?host=/tmp/pg", "decisions");
 * console.log(stats.length);
 * ```
 */
export async function postgresDecisionStats(
  dsn: string,
  table: string,
  options: PostgresStatsOptions = {},
): Promise<StatsRow[]> {
  checkTableName(table);
  const connection = parsePostgresDsn(dsn, options.env ?? {});
  const where = `Cannot load table ${table}`;
  if (Deno.permissions.querySync({ name: "net" }).state !== "granted") {
    throw new Error(
      `Cannot reach PostgreSQL at host ${connection.host} port ${connection.port}: run with --allow-net (a unix socket too is net access to Deno)`,
    );
  }
  const connectTimeout = deadlineSeconds(
    "connectTimeout",
    options.connectTimeout ?? connection.connectTimeout ?? 10,
  );
  const queryTimeout = deadlineSeconds(
    "queryTimeout",
    options.queryTimeout ?? 0,
  );
  const server =
    `PostgreSQL at host ${connection.host} port ${connection.port}`;
  const sql = await connect(connection, connectTimeout);
  try {
    let columns: ReadonlyArray<{ name: string; type: number }>;
    try {
      // connecting ends with the first answer: the deadline covers both
      const probe = await withinDeadline(
        sql.unsafe(`SELECT * FROM ${table} LIMIT 0`),
        connectTimeout,
        sql,
        `Cannot connect to ${server}: no answer within ${connectTimeout} s (--connect-timeout, or connect_timeout in the DSN)`,
      );
      columns = probe.columns.map((c) => ({ name: c.name, type: c.type }));
    } catch (error) {
      if (error instanceof Deno.errors.TimedOut) throw error;
      throw rethrow(error, where, connection);
    }
    const scan = async (): Promise<StatsRow[]> => {
      const relation = postgresRelation(table, columns);
      const facts = await tableFacts(sql, table);
      // one scan, no window: taskShare = n unless some task has several rows;
      // when the table's validated CHECK constraints are the row checks, no
      // row can fail them and the scan leaves them out. The decision and the
      // scan share a transaction that holds ACCESS SHARE on the table from
      // before the catalog is read: no constraint can be dropped (that takes
      // ACCESS EXCLUSIVE) between the two
      const checked = decisionCellsSql(
        relation,
        postgresCellOptions(columns, facts.notNull),
      );
      let rows: unknown[][];
      if (relation === table) {
        // one snapshot for every query of the transaction (PostgreSQL takes
        // it at the first query after the LOCK): the by-key path reads the
        // runIds and the cells in two queries, which a row committed between
        // them must not set apart
        rows = await sql.begin(
          "ISOLATION LEVEL REPEATABLE READ",
          async (tx) => {
            await tx.unsafe(`LOCK TABLE ${table} IN ACCESS SHARE MODE`);
            const guarantee = await checksGuarantee(tx, table);
            options.onChecks?.(guarantee);
            if (!guarantee.guaranteed) {
              await options.onScan?.("checked");
              return await tx.unsafe(checked).values();
            }
            // the runIds of each model from an index on (runId, modelId), which
            // the lock keeps from being dropped: then the scan need not group
            // by runId, which costs the server more on a large table
            const pairs = await runModelPairs(tx, table);
            if (pairs !== null) {
              await options.onScan?.("by-key");
              return withRunBounds(
                await tx.unsafe(decisionCellsByKeySql(relation)).values(),
                pairs,
              );
            }
            await options.onScan?.("lean");
            return await tx.unsafe(
              decisionCellsWithoutChecksSql(relation, { dialect: "postgres" }),
            ).values();
          },
        ) as unknown[][];
      } else {
        options.onChecks?.({
          guaranteed: false,
          reason: "optional columns are missing",
        });
        await options.onScan?.("checked");
        rows = await sql.unsafe(checked).values();
      }
      const invalid = rows.reduce((s, r) => s + num(r[9]), 0);
      if (invalid > 0) {
        const [found] = await sql.unsafe(firstInvalidDecisionsSql(relation, 1));
        const at = `${where}: ${keyText(found)}`;
        // the loaders' message (the row reader, with its schema, loads only
        // for a table with a row to refuse)
        const { flatDecision } = await importLater<
          typeof import("../read/arrow.ts")
        >(
          new URL("../read/arrow.ts", import.meta.url),
        );
        flatDecision(pgFlatRow(found), at); // throws
        const check = DECISION_CHECKS.find((_, i) =>
          num(found[`check${i}`]) === 1
        )!;
        throw new InputRangeError(
          `${at}: ${check.field} must be ${check.rule}, got ${
            String(found[check.field.toLowerCase()])
          }`,
        );
      }
      // a unique index on the decision key (or part of it) rules repeats out
      // without a scan; otherwise a count of distinct 64-bit hashes of the key
      // screens for repeats (equal keys hash alike, so as many distinct hashes
      // as rows means no repeated key), and the exact GROUP BY of
      // duplicateDecisionsSql runs only when the counts differ
      const uniqueKey = facts.uniqueKey;
      if (
        options.checkDuplicates !== false && !uniqueKey &&
        await repeatedKeyHashes(sql, relation, rows)
      ) {
        const [repeated] = await sql.unsafe(duplicateDecisionsSql(relation))
          .values();
        if (num(repeated[0]) > 0) {
          const [r] = await sql.unsafe(repeatedDecisionKeysSql(relation, 1));
          throw new InputRangeError(
            `${where}: duplicate decision for runId ${
              JSON.stringify(r.runid)
            }, modelId ${JSON.stringify(r.modelid)}, taskId ${
              JSON.stringify(r.taskid)
            }, trial ${num(r.trial)} (${num(r.copies)} rows; ${
              num(repeated[0])
            } keys repeat)`,
          );
        }
      }
      // the cluster rules, once every row passed its checks
      const clusters = namedClusters(rows);
      if (clusters.named > 0) {
        const [[split]] = await sql.unsafe(clusterSplitTasksSql(relation))
          .values();
        if (clusters.named < clusters.rows || num(split) > 0) {
          const [r] = await sql.unsafe(
            firstClusterBreakSql(
              relation,
              `ROW_NUMBER() OVER (ORDER BY runId COLLATE "C", modelId COLLATE "C", taskId COLLATE "C", trial)`,
            ),
          );
          const text = (v: unknown) => v === null ? null : String(v);
          throw clusterRuleError(
            {
              at: `${where}: ${keyText(r)}`,
              taskId: String(r.taskid),
              cluster: text(r.cluster),
            },
            {
              at: keyText({
                runid: r.earlierrunid,
                modelid: r.earliermodelid,
                taskid: r.earliertaskid,
                trial: r.earliertrial,
              }),
              cluster: text(r.earliercluster),
            },
          );
        }
      }
      const unit = resolveUnit(options.unit, clusters.named > 0, where);
      options.onUnit?.(unit);
      // taskShare = n holds only where no decision repeats and the unit is
      // the task
      const noRepeats = uniqueKey || options.checkDuplicates !== false;
      if (unit === "cluster" || !(noRepeats && singleTrialCells(rows))) {
        rows = await sql.unsafe(decisionStatsSql(relation, "postgres", unit))
          .values();
      }
      return statsRowsOfSql(rows, num);
    };
    return await withinDeadline(
      scan(),
      queryTimeout,
      sql,
      `Cannot load table ${table}: ${server} did not finish the queries within ${queryTimeout} s (--query-timeout)`,
    );
  } finally {
    // every query has returned: send Terminate and close now, rather than
    // wait for the server to close the socket, which takes longer
    await sql.end({ timeout: 0 });
  }
}

/**
 * The (runId, modelId) pairs of a table, read from a btree index whose
 * first two key columns are runId and modelId (in either order) by a loose
 * index scan: one index probe per pair. Null when the table has no such
 * index (valid, not partial, no expressions, ascending, default operator
 * classes and the columns' collations, so that the probes use it) or more
 * than {@linkcode RUN_MODEL_PAIRS} pairs.
 */
async function runModelPairs(
  tx: TransactionSql,
  table: string,
): Promise<Array<[string, string]> | null> {
  const [index] = await tx.unsafe(
    `SELECT a0.attname::text AS first, a1.attname::text AS second
FROM pg_index i
JOIN pg_class ic ON ic.oid = i.indexrelid
JOIN pg_am am ON am.oid = ic.relam
JOIN pg_attribute a0 ON a0.attrelid = i.indrelid AND a0.attnum = i.indkey[0]
JOIN pg_attribute a1 ON a1.attrelid = i.indrelid AND a1.attnum = i.indkey[1]
JOIN pg_opclass o0 ON o0.oid = i.indclass[0]
JOIN pg_opclass o1 ON o1.oid = i.indclass[1]
WHERE i.indrelid = to_regclass($1) AND am.amname = 'btree' AND i.indisvalid
  AND i.indpred IS NULL AND i.indexprs IS NULL AND i.indnkeyatts >= 2
  AND i.indoption[0] = 0 AND i.indoption[1] = 0
  AND o0.opcdefault AND o1.opcdefault
  AND i.indcollation[0] = a0.attcollation
  AND i.indcollation[1] = a1.attcollation
  AND ARRAY[a0.attname::text, a1.attname::text]
    IN (ARRAY['runid', 'modelid'], ARRAY['modelid', 'runid'])
LIMIT 1`,
    [table],
  );
  if (index === undefined) return null;
  const [a, b] = [index.first as string, index.second as string];
  const found = await tx.unsafe(
    `WITH RECURSIVE pairs AS (
  (SELECT ${a}, ${b} FROM ${table} ORDER BY ${a}, ${b} LIMIT 1)
  UNION ALL
  SELECT next.${a}, next.${b} FROM pairs CROSS JOIN LATERAL (
    SELECT ${a}, ${b} FROM ${table}
    WHERE (${a}, ${b}) > (pairs.${a}, pairs.${b})
    ORDER BY ${a}, ${b} LIMIT 1
  ) next
)
SELECT runId, modelId FROM pairs LIMIT ${RUN_MODEL_PAIRS + 1}`,
  ).values();
  if (found.length > RUN_MODEL_PAIRS) return null;
  return found.map((r) => [String(r[0]), String(r[1])]);
}

/**
 * Rows of `decisionCellsByKeySql` in the column order of
 * `decisionCellsWithoutChecksSql`, for `singleTrialCells`: each cell's
 * least and greatest runId are its model's (from `pairs`), its least trial
 * 0 (the constraints keep trials >= 0, and a greatest trial of 0 then means
 * every trial is 0; otherwise the two differ and the trials are counted).
 */
function withRunBounds(
  cells: readonly unknown[][],
  pairs: ReadonlyArray<readonly [string, string]>,
): unknown[][] {
  const runs = new Map<string, string[]>();
  for (const [run, model] of pairs) {
    const list = runs.get(model);
    if (list === undefined) runs.set(model, [run]);
    else list.push(run);
  }
  return cells.map((r) => {
    const list = runs.get(String(r[0]))?.toSorted();
    if (list === undefined) {
      throw new Error(`model ${String(r[0])} has cells but no runId`);
    }
    return [...r.slice(0, 11), list[0], list.at(-1), "0", r[11], r[12]];
  });
}

// What the catalog says about the table, in one round trip: its NOT NULL
// columns (lower case; none for a view), and whether it has a unique index
// (a primary key, a UNIQUE constraint) on columns that are all decision-key
// columns: then no (runId, modelId, taskId, trial) repeats. NULLs in those
// columns are refused by the row checks first. Partial and expression
// indexes do not count.
async function tableFacts(
  sql: Sql,
  table: string,
): Promise<{ notNull: Set<string>; uniqueKey: boolean }> {
  const [found] = await sql.unsafe(
    `SELECT COALESCE((
  SELECT json_agg(attname::text) FROM pg_attribute
  WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped
    AND attnotnull
), '[]')::text AS notnull, EXISTS (
  SELECT 1 FROM pg_index i
  JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
  WHERE i.indrelid = to_regclass($1) AND i.indisunique
    AND i.indpred IS NULL AND i.indexprs IS NULL
  GROUP BY i.indexrelid
  HAVING bool_and(a.attname IN ('runid', 'modelid', 'taskid', 'trial'))
) AS uniquekey`,
    [table],
  );
  return {
    notNull: new Set(JSON.parse(found.notnull) as string[]),
    uniqueKey: found.uniquekey === true,
  };
}

/**
 * Whether a table's own constraints guarantee the row checks, as decided by
 * {@linkcode postgresChecksGuaranteed}.
 */
export interface ChecksGuarantee {
  /** `true` when no row of the table can fail `DECISION_CHECKS`. */
  readonly guaranteed: boolean;
  /** Why, in words (the first difference found, when not). */
  readonly reason: string;
}

// The catalog facts the guarantee compares, of one relation (by regclass
// text): its kind, whether other tables inherit from it (their rows show in
// a scan of it), its columns (type as format_type prints it, collation, NOT
// NULL) and its CHECK constraints (definition as pg_get_constraintdef
// prints it, validated, enforced: conenforced exists from PostgreSQL 18 on
// and is read through to_jsonb so the query runs on every version).
const RELATION_FACTS_SQL = `SELECT c.relkind::text AS kind,
  EXISTS (SELECT 1 FROM pg_inherits WHERE inhparent = c.oid) AS inherited,
  COALESCE((
    SELECT json_agg(json_build_object('name', attname::text,
      'type', format_type(atttypid, atttypmod), 'collation', attcollation::int,
      'notNull', attnotnull) ORDER BY attnum)
    FROM pg_attribute
    WHERE attrelid = c.oid AND attnum > 0 AND NOT attisdropped
  ), '[]')::text AS columns,
  COALESCE((
    SELECT json_agg(json_build_object('definition', pg_get_constraintdef(con.oid),
      'trusted', con.convalidated
        AND (to_jsonb(con) ->> 'conenforced') IS DISTINCT FROM 'false'))
    FROM pg_constraint con
    WHERE con.conrelid = c.oid AND con.contype = 'c'
  ), '[]')::text AS checks
FROM pg_class c WHERE c.oid = to_regclass($1)`;

interface RelationFacts {
  kind: string;
  inherited: boolean;
  columns: {
    name: string;
    type: string;
    collation: number;
    notNull: boolean;
  }[];
  checks: { definition: string; trusted: boolean }[];
}

async function relationFacts(
  sql: Pick<Sql, "unsafe">,
  regclass: string,
): Promise<RelationFacts | null> {
  const [found] = await sql.unsafe(RELATION_FACTS_SQL, [regclass]);
  if (found === undefined) return null;
  return {
    kind: found.kind,
    inherited: found.inherited === true,
    columns: JSON.parse(found.columns),
    checks: JSON.parse(found.checks),
  };
}

// The temporary table whose constraints the user's table is compared with:
// decisionsTableSql's checked layout, dropped at the end of the transaction
// (it is made in a savepoint, which a failure rolls back alone).
function probeTableSql(name: string): string {
  return decisionsTableSql("postgres", `pg_temp.${name}`, { checks: true })
    .replace(/^CREATE TABLE /, "CREATE TEMP TABLE ") + " ON COMMIT DROP";
}

// The decision of postgresChecksGuaranteed, in an open session.
async function checksGuarantee(
  sql: TransactionSql,
  table: string,
): Promise<ChecksGuarantee> {
  const no = (reason: string) => ({ guaranteed: false, reason });
  const own = await relationFacts(sql, table);
  if (own === null) return no("no such table");
  if (own.kind !== "r") {
    return no(
      `not an ordinary table (relkind ${own.kind}): a view never qualifies`,
    );
  }
  if (own.inherited) {
    return no("other tables inherit from it, and their rows show in a scan");
  }
  const name = `lossbook_probe_${crypto.randomUUID().replaceAll("-", "")}`;
  let probe: RelationFacts | null;
  try {
    probe = await sql.savepoint(async (tx) => {
      await tx.unsafe(probeTableSql(name));
      return await relationFacts(tx, `pg_temp.${name}`);
    }) as RelationFacts | null;
  } catch (error) {
    return no(
      `the probe table could not be created (${
        (error as Error).message ?? String(error)
      })`,
    );
  }
  if (probe === null) return no("the probe table was not found");
  const columns = new Map(own.columns.map((c) => [c.name, c]));
  for (const want of probe.columns) {
    const got = columns.get(want.name);
    if (got === undefined) return no(`no column ${want.name}`);
    if (got.type !== want.type) {
      return no(`column ${want.name} is ${got.type}, not ${want.type}`);
    }
    if (got.collation !== want.collation) {
      return no(`column ${want.name} has another collation`);
    }
    if (want.notNull && !got.notNull) {
      return no(`column ${want.name} is not NOT NULL`);
    }
  }
  const trusted = new Set(
    own.checks.filter((c) => c.trusted).map((c) => c.definition),
  );
  // pg_get_constraintdef ends a not-validated one with " NOT VALID"
  const untrusted = new Set(
    own.checks.filter((c) => !c.trusted).map((c) =>
      c.definition.replace(/ NOT VALID$/, "")
    ),
  );
  for (const { definition } of probe.checks) {
    if (!trusted.has(definition)) {
      return no(
        `${
          untrusted.has(definition) ? "not validated" : "no constraint"
        }: ${definition}`,
      );
    }
  }
  return {
    guaranteed: true,
    reason:
      `all ${probe.checks.length} row checks are validated CHECK constraints on columns of the layout's types`,
  };
}

/**
 * Whether a PostgreSQL table's constraints guarantee the row checks, so
 * that {@linkcode postgresDecisionStats} may leave them to the database.
 *
 * Decided against the server itself, whatever its version: a temporary
 * table is created from `decisionsTableSql("postgres", …, { checks: true })`
 * in a transaction that drops it, and the catalog of the two is compared.
 * Guaranteed when the table is an ordinary table (a view, a foreign or a
 * partitioned table never is) that no table inherits from, every column of
 * the probe exists with the same type (`format_type`, which decides what a
 * check means), the same collation and NOT NULL where the probe has it, and
 * every CHECK definition of the probe (`pg_get_constraintdef`, compared as
 * text) is among the table's CHECK constraints, validated (a `NOT VALID`
 * constraint does not vouch for rows already there) and enforced. When the
 * probe cannot be created (no TEMP privilege, a read-only transaction) the
 * answer is no.
 *
 * @param dsn Where the server is (see {@linkcode parsePostgresDsn}).
 * @param table The table or view (unquoted name or `schema.name`).
 * @param options DSN environment (`env`).
 * @returns The decision and its reason.
 * @throws {SyntaxError} On a bad DSN or table name.
 * @throws {Error} When the server cannot be reached.
 *
 * @example
 * ```ts ignore
 * // needs a running server; see scripts/pg_throwaway.sh
 * import { postgresChecksGuaranteed } from "./postgres_stats.ts";
 *
 * const { guaranteed, reason } = await postgresChecksGuaranteed("postgresql:///runs?host=/tmp/pg", "decisions");
 * console.log(guaranteed, reason);
 * ```
 */
export async function postgresChecksGuaranteed(
  dsn: string,
  table: string,
  options: Pick<PostgresStatsOptions, "env"> = {},
): Promise<ChecksGuarantee> {
  checkTableName(table);
  const connection = parsePostgresDsn(dsn, options.env ?? {});
  const sql = await connect(connection, connection.connectTimeout ?? 10);
  try {
    return await sql.begin((tx) =>
      checksGuarantee(tx, table)
    ) as ChecksGuarantee;
  } finally {
    // every query has returned: send Terminate and close now, rather than
    // wait for the server to close the socket, which takes longer
    await sql.end({ timeout: 0 });
  }
}

// PostgreSQL's integer types: a column of one of them holds no fraction.
const INTEGER_TYPES = new Set([20, 21, 23]);

/**
 * What the column types of a PostgreSQL relation let `decisionCellsSql`
 * leave out: the whole-number test of integer columns (`bigint`, `integer`,
 * `smallint`; a `real`, `double precision` or `numeric` column keeps it)
 * and the null count of NOT NULL columns; with byte-order text for the
 * least and greatest id.
 *
 * @param columns Name (lower case, as PostgreSQL folds it) and type OID of each column.
 * @param notNull The lower-case names of the columns declared NOT NULL.
 * @returns Options for `decisionCellsSql`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { postgresCellOptions } from "./postgres_stats.ts";
 *
 * const o = postgresCellOptions(
 *   [{ name: "trial", type: 20 }, { name: "tokensin", type: 701 }, { name: "runid", type: 25 }],
 *   new Set(["runid"]),
 * );
 * assert.deepEqual(o, { dialect: "postgres", integerColumns: ["trial"], notNullColumns: ["runId"] });
 * ```
 */
export function postgresCellOptions(
  columns: ReadonlyArray<{ readonly name: string; readonly type: number }>,
  notNull: ReadonlySet<string>,
): CellSqlOptions {
  const byLower = new Map(DECISION_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const integerColumns: DecisionColumn[] = [];
  const notNullColumns: DecisionColumn[] = [];
  for (const { name, type } of columns) {
    const column = byLower.get(name);
    if (column === undefined) continue;
    if (INTEGER_TYPES.has(type)) integerColumns.push(column);
    if (notNull.has(name)) notNullColumns.push(column);
  }
  return { dialect: "postgres", integerColumns, notNullColumns };
}

// Rows minus distinct 64-bit hashes of (runId, modelId, taskId, trial): 0
// proves that no key repeats (equal keys hash alike); more means a repeat or
// a hash collision, which the exact query tells apart. COUNT(DISTINCT) sorts
// one bigint per row, which costs the server less CPU than the GROUP BY of
// duplicateDecisionsSql or a GROUP BY over the same hash (both spill their
// hash tables). Run after the row checks
// passed: trial is then a whole number in [0, 2^53), so the cast to bigint
// keeps equal trials equal.
function repeatedKeyHashesSql(relation: string): string {
  return `SELECT COUNT(*) - COUNT(DISTINCT hashtextextended(taskId,
  hashtextextended(modelId, hashtextextended(runId, CAST(trial AS bigint)))))
FROM ${relation}`;
}

// The sort of repeatedKeyHashesSql stays in memory when work_mem holds about
// 40 bytes per row (spilling in the default 4 MB makes it much slower):
// the session's work_mem is raised to that,
// at most 1 GB (beyond, the sort spills to disk and stays exact).
async function repeatedKeyHashes(
  sql: Sql,
  relation: string,
  cells: readonly (readonly unknown[])[],
): Promise<boolean> {
  const n = cells.reduce((s, r) => s + num(r[5]), 0);
  const mb = Math.min(1024, Math.max(4, Math.ceil(n * 40 / 2 ** 20)));
  await sql.unsafe(`SET work_mem = '${mb}MB'`);
  const [[surplus]] = await sql.unsafe(repeatedKeyHashesSql(relation))
    .values();
  return num(surplus) > 0;
}

function rethrow(
  error: unknown,
  where: string,
  c: PostgresConnection,
): Error {
  const e = error as { code?: string; message?: string };
  if (e.code === "42P01") {
    return new InputTypeError(`${where}: no such table or view`, {
      cause: error,
    });
  }
  if (e.code === "42501") {
    return new InputTypeError(`${where}: permission denied`, { cause: error });
  }
  return new Error(
    `Cannot reach PostgreSQL at host ${c.host} port ${c.port} database ${c.database} as ${c.username}: ${
      e.message ?? String(error)
    }`,
    { cause: error },
  );
}
