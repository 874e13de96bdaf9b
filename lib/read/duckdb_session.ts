/**
 * A short-lived DuckDB session for lossbook's Parquet reader and SQL
 * statistics: one in-memory database with a memory limit and a private
 * spill directory, always closed afterwards.
 *
 * DuckDB comes from `npm:@duckdb/node-api`, a Node-API addon whose native
 * library is an optional npm dependency (`@duckdb/node-bindings-linux-x64`
 * and siblings); no install script runs, so Deno needs only
 * `"nodeModulesDir": "auto"` in deno.json and `--allow-ffi` (plus read,
 * write, env and sys) at run time. The addon is loaded on the first call of
 * {@linkcode withDuckDB}, not when this module is imported, so importing it
 * needs no extra permission.
 *
 * @module
 */

import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { InputTypeError } from "../input_error.ts";

let api: Promise<typeof import("@duckdb/node-api")> | undefined;

// The addon is loaded on first use, not on import, so that modules which
// merely import this one (lib/read/mod.ts, the CLI, notebooks) run without
// --allow-ffi; only DuckDB work needs it.
async function duckdbApi(): Promise<typeof import("@duckdb/node-api")> {
  try {
    return await (api ??= import("@duckdb/node-api"));
  } catch (error) {
    api = undefined;
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Cannot start DuckDB (run with --allow-ffi --allow-sys --allow-read --allow-write --allow-env): ${detail}`,
      { cause: error },
    );
  }
}

/** Resource options for a DuckDB session. */
export interface DuckDBOptions {
  /**
   * DuckDB's memory limit (`SET memory_limit`), for example `"4GB"`. Above
   * it DuckDB spills to `tempDirectory` instead of growing. Default: `"4GB"`.
   */
  memoryLimit?: string;
  /** Worker threads (`SET threads`). Default: one per core. */
  threads?: number;
  /**
   * Directory for spilled data. Default: a fresh temporary directory that is
   * removed when the session ends (DuckDB's own default, `.tmp` in the
   * current directory, would write into the project).
   */
  tempDirectory?: string;
}

/**
 * Quote a text as a SQL string literal (`'it''s'`).
 *
 * @param text Any text, for example a file path.
 * @returns The literal, with single quotes doubled.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sqlString } from "./duckdb_session.ts";
 *
 * assert.equal(sqlString("/tmp/it's.parquet"), "'/tmp/it''s.parquet'");
 * ```
 */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The path DuckDB must be given to open the file `path` names. DuckDB reads
 * a leading `~` as the home folder and a leading `s3://`, `http://` or
 * `hf://` as a remote file system, while the operating system (and every
 * other lossbook reader) reads `~/run.csv` and `s3://run.csv` as relative
 * paths: a relative path is given as `./path`, which means the same file to
 * both (and, unlike joining the working folder, brings no characters of the
 * folder's name into a glob pattern).
 *
 * @param path A file path, absolute or relative.
 * @returns `path` itself when absolute, else `./path`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duckdbPath } from "./duckdb_session.ts";
 *
 * assert.equal(duckdbPath("~/run.csv"), "./~/run.csv");
 * assert.equal(duckdbPath("s3://run.csv"), "./s3://run.csv");
 * assert.equal(duckdbPath("/tmp/run.csv"), "/tmp/run.csv");
 * ```
 */
export function duckdbPath(path: string): string {
  return path.startsWith("/") ? path : `./${path}`;
}

/**
 * Quote a file path for DuckDB's file readers (`read_parquet`, `read_csv`,
 * `read_json_objects`) so that it names that one file: a relative path is
 * given as `./path` ({@linkcode duckdbPath}), and as the readers expand glob
 * patterns, `*`, `?` and `[` are escaped as one-character classes (`[*]`,
 * `[?]`, `[[]`). A file named `run[1].parquet` is then that file, not
 * `run1.parquet`, and `~/run.parquet` is the file in the folder named `~`.
 * DuckDB's glob cannot match a backslash, so a path holding both a
 * backslash and one of `*`, `?`, `[` is refused.
 *
 * @param path A file path, absolute or relative.
 * @returns A SQL string literal.
 * @throws {TypeError} For a path with a backslash and a glob character.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duckdbFileLiteral } from "./duckdb_session.ts";
 *
 * assert.equal(duckdbFileLiteral("/tmp/run[1]*.parquet"), "'/tmp/run[[]1][*].parquet'");
 * assert.equal(duckdbFileLiteral("/tmp/it's.csv"), "'/tmp/it''s.csv'");
 * assert.equal(duckdbFileLiteral("~/run?.csv"), "'./~/run[?].csv'");
 * assert.equal(duckdbFileLiteral("a\\b.csv"), "'./a\\b.csv'");
 * assert.throws(() => duckdbFileLiteral("a\\b[1].csv"), /backslash/);
 * ```
 */
export function duckdbFileLiteral(path: string): string {
  if (path.includes("\\") && /[[*?]/.test(path)) {
    throw new InputTypeError(
      `Cannot open ${path} through DuckDB: its file pattern matching cannot match a path that holds both a backslash and one of [ * ?; rename the file or its folders`,
    );
  }
  return sqlString(duckdbPath(path).replace(/[[*?]/g, (c) => `[${c}]`));
}

// Re-exported: the DuckDB readers, the run loaders and the ledger's
// streaming readers share one check that a path names a file.
export { regularFile } from "./_regular_file.ts";

/**
 * Run `fn` with a connection to a fresh in-memory DuckDB database, then
 * close the connection and the database, whether `fn` succeeds or throws.
 *
 * The database never persists: files are read with `read_parquet` /
 * `read_csv` and results come back to JavaScript. Extension auto-install is
 * switched off, so a query never reaches the network.
 *
 * @param fn Work to do with the connection (and the database, to open more
 * connections, for example to watch progress).
 * @param options Memory limit, threads and spill directory.
 * @returns What `fn` returns.
 * @throws {Error} What `fn` throws, DuckDB's error for a bad option, or
 * "Cannot start DuckDB" when the addon cannot load (no `--allow-ffi`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withDuckDB } from "./duckdb_session.ts";
 *
 * const limit = await withDuckDB(async (c) =>
 *   (await c.runAndReadAll("SELECT current_setting('memory_limit')")).getRows()[0][0],
 *   { memoryLimit: "1GB", threads: 1 });
 * assert.equal(limit, "953.6 MiB");
 * ```
 */
export async function withDuckDB<T>(
  fn: (connection: DuckDBConnection, instance: DuckDBInstance) => Promise<T>,
  options: DuckDBOptions = {},
): Promise<T> {
  const ownTemp = options.tempDirectory === undefined;
  const temp = options.tempDirectory ??
    await Deno.makeTempDir({ prefix: "lossbook-duckdb-" });
  const config: Record<string, string> = {
    memory_limit: options.memoryLimit ?? "4GB",
    temp_directory: temp,
    autoinstall_known_extensions: "false",
  };
  if (options.threads !== undefined) {
    if (!(Number.isInteger(options.threads) && options.threads >= 1)) {
      throw new RangeError(
        `Cannot start DuckDB: threads must be a positive integer, got ${options.threads}`,
      );
    }
    config.threads = String(options.threads);
  }
  try {
    const { DuckDBInstance } = await duckdbApi();
    const instance = await DuckDBInstance.create(":memory:", config);
    try {
      const connection = await instance.connect();
      try {
        return await fn(connection, instance);
      } finally {
        connection.closeSync();
      }
    } finally {
      instance.closeSync();
    }
  } finally {
    if (ownTemp) await Deno.remove(temp, { recursive: true }).catch(() => {});
  }
}
