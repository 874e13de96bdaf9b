// Private, shared by the library functions (api/) and the commands: read a run in any supported format, with progress on
// stderr for large inputs.
import type { ColumnTable } from "arquero";
import type { StatsRow } from "../lib/metrics/sufficient_stats.ts";
import type { Decision } from "../lib/decision/decision.ts";
import {
  countPCorrectSources,
  describePCorrectSources,
} from "../lib/import/mapping.ts";
import { decisionFormatOf } from "../lib/read/load_any.ts";
import { regularFile } from "../lib/read/_regular_file.ts";
import { CheckFailed, UsageError } from "./_command.ts";
import { noteUserStrings } from "./_terminal.ts";
import { InputRangeError } from "../lib/input_error.ts";
import { formatCount } from "../lib/format/numbers.ts";
import { importLater } from "../lib/_late_import.ts";
import { isColumnTable } from "../lib/_column_table.ts";
import { HARNESS_FORMATS } from "../lib/import/harness.ts";
import type { IncompleteInput, SetAside } from "../lib/import/harness.ts";
import {
  importHarness,
  isHarness,
  type MappingFlags,
  refuseMappingFlags,
} from "./_harness_input.ts";
import { detectFormat } from "../lib/import/detect.ts";
import { withStreams } from "./_stream_input.ts";
import {
  ClusterCheck,
  type DecisionUnit,
  parseUnit,
} from "../lib/decision/cluster.ts";

// The readers of the other formats and engines load when a run needs them
// (importLater), so that reading a JSONL export loads neither Arquero nor
// DuckDB, PostgreSQL, Arrow or the LossBench and ReconForge importers.
const later = <T>(path: string): Promise<T> =>
  importLater<T>(new URL(path, import.meta.url));
// The statistics of a table, and the unit they count: the one asked for,
// else the cluster when the table's decisions name one.
const decisionStatsOf = async (
  table: ColumnTable,
  asked: DecisionUnit | undefined,
): Promise<{ stats: StatsRow[]; unit: DecisionUnit }> => {
  let unit: DecisionUnit = "taskId";
  const stats =
    (await later<typeof import("../lib/decision/decision_stats.ts")>(
      "../lib/decision/decision_stats.ts",
    )).decisionStats(table, { unit: asked, onUnit: (u) => unit = u });
  return { stats, unit };
};
const loadDecisionsModule = () =>
  later<typeof import("../lib/read/load_decisions.ts")>(
    "../lib/read/load_decisions.ts",
  );

/** Input formats the CLI reads. */
export const FORMATS = [
  "decisions",
  "reconforge",
  "lossbench",
  ...HARNESS_FORMATS,
] as const;

/** An input format. */
export type Format = typeof FORMATS[number];

/**
 * One input, as one command-line argument is: a file path in any format
 * the CLI reads, an array of decisions, or an Arquero decision table (the
 * columns of `decisionTable`). An input held in memory is named
 * `<memory:N>`, N its position among the inputs, counting from 0.
 */
export type RunSource = string | readonly Decision[] | ColumnTable;

/**
 * The name of an input: its path, or `<memory:N>` for one held in memory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sourceName } from "./_input.ts";
 *
 * assert.equal(sourceName("a.jsonl", 0), "a.jsonl");
 * assert.equal(sourceName([], 2), "<memory:2>");
 * ```
 */
export function sourceName(source: RunSource, position: number): string {
  return typeof source === "string" ? source : `<memory:${position}>`;
}

/**
 * Refuse a command given no input, except where `--engine postgres` reads a
 * table instead of files (pass its flags then).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requireInputs } from "./_input.ts";
 *
 * assert.throws(() => requireInputs([]), /expected one or more run files, got none/);
 * requireInputs([], { engine: "postgres" });
 * ```
 */
export function requireInputs(
  inputs: readonly RunSource[],
  flags: { readonly engine?: string } = {},
): void {
  if (inputs.length === 0 && flags.engine !== "postgres") {
    throw new UsageError("expected one or more run files, got none");
  }
}

/** What the input flags say (with the harness mapping flags). */
export interface InputFlags extends MappingFlags {
  format?: string;
  probability?: string;
  /**
   * `memory`, `duckdb` (Parquet, CSV and JSONL larger than memory), `chdb`
   * (the same files through ClickHouse's embedded engine, once installed) or
   * `postgres`; by default `duckdb` for Parquet and CSV of 1 MiB or more read
   * for statistics only (see `defaultEngine`), else `memory`.
   */
  engine?: string;
  /** `--pcorrect-from SOURCE`: which probability a log's decisions take. */
  "pcorrect-from"?: string;
  /** `--dsn URL`: the PostgreSQL server of `--engine postgres`. */
  dsn?: string;
  /** `--table NAME`: the decisions table of `--engine postgres`. */
  table?: string;
  /** `--connect-timeout S`: seconds to wait for `--engine postgres` to connect. */
  "connect-timeout"?: string;
  /** `--query-timeout S`: seconds `--engine postgres` may spend on its queries. */
  "query-timeout"?: string;
  /** Skip (and list on stderr) keys a closed-schema importer does not know. */
  lenient?: boolean;
  /**
   * `--cluster taskId|cluster|PATH`: the unit of intervals and tests
   * (`taskId`, or `cluster`, which the decisions name); for harness logs a
   * metadata path that fills each decision's cluster. Default: the cluster
   * when the decisions name one, else the task.
   */
  cluster?: string;
}

/** How the CLI's importers treat unknown keys: refuse, or list them on stderr and skip them. */
function unknownKeys(flags: InputFlags) {
  return {
    lenient: flags.lenient ?? false,
    onUnknownKeys: (line: string) => console.error(`warning: ${line}`),
  };
}

/** A run read for scoring. */
export interface RunInput {
  readonly format: Format;
  readonly stats: StatsRow[];
  readonly decisions: number;
  readonly notes: Readonly<Record<string, number>>;
  /** The decision table, when it was built (needed for pairing). */
  readonly table: ColumnTable | null;
  /** The input files, in the order given. */
  readonly files: readonly string[];
  /** Decisions by pCorrect source (`"null"` for none), for imported logs. */
  readonly pCorrectSources?: Readonly<Record<string, number>>;
  /** Harness log items that are not decisions (no verdict), with their files. */
  readonly setAside?: ReadonlyArray<SetAside & { readonly file: string }>;
  /** Harness logs read although incomplete (`--allow-incomplete`). */
  readonly inputs?: readonly IncompleteInput[];
  /** The database table read instead of files (`--engine postgres`). */
  readonly sqlTable?: string;
  /** The unit the statistics count: the task, or the cluster the decisions name. */
  readonly unit: DecisionUnit;
}

/** The JSON keys that name a run's input: a database table, one file, or several. */
export type InputKeys = { table: string } | { file: string } | {
  files: string[];
};

/**
 * The JSON keys that name a run's input: `table` for a database table,
 * else those of {@linkcode fileKeys}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputKeys, readRun } from "./_input.ts";
 *
 * assert.deepEqual(inputKeys(await readRun("data/examples/model_ab.jsonl", {})), { file: "data/examples/model_ab.jsonl" });
 * ```
 */
export function inputKeys(run: RunInput): InputKeys {
  return run.sqlTable !== undefined
    ? { table: run.sqlTable }
    : fileKeys(run.files);
}

/**
 * The input, for human output: `table NAME`, or the files as in
 * {@linkcode fileLabel}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputLabel, readRun } from "./_input.ts";
 *
 * assert.equal(inputLabel(await readRun("data/examples/model_ab.jsonl", {})), "data/examples/model_ab.jsonl");
 * ```
 */
export function inputLabel(run: RunInput): string {
  return run.sqlTable !== undefined
    ? `table ${run.sqlTable}`
    : fileLabel(run.files);
}

/**
 * Read a run for statistics from files or, with `--engine postgres`, from
 * a decisions table in PostgreSQL (`--dsn`, `--table`): for commands that
 * need aggregates only (score, sweep).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRunFrom } from "./_input.ts";
 *
 * await assert.rejects(() => readRunFrom(["a.jsonl"], { engine: "postgres", dsn: "host=/tmp", table: "t" }), /reads --table, not files/);
 * await assert.rejects(() => readRunFrom([], { engine: "postgres", table: "t" }), /needs --dsn/);
 * ```
 */
export async function readRunFrom(
  sources: readonly RunSource[],
  flags: InputFlags,
): Promise<RunInput> {
  if (flags.engine !== "postgres") return await readRun(sources, flags);
  if (sources.length > 0) {
    throw new UsageError(
      `--engine postgres reads --table, not files (got ${
        sources.map(sourceName).join(", ")
      })`,
    );
  }
  if (flags.dsn === undefined) {
    throw new UsageError("--engine postgres needs --dsn URL");
  }
  if (flags.table === undefined) {
    throw new UsageError("--engine postgres needs --table NAME");
  }
  if (flags.format !== undefined && flags.format !== "decisions") {
    throw new UsageError(
      `--engine postgres reads a decisions table, not --format ${flags.format}`,
    );
  }
  refuseMappingFlags(flags, "decisions");
  if (flags.probability !== undefined) {
    throw new UsageError(`--probability applies to --format lossbench only`);
  }
  const { postgresDecisionStats } = await later<
    typeof import("../lib/sql/postgres_stats.ts")
  >("../lib/sql/postgres_stats.ts");
  let stats: StatsRow[];
  let unit: DecisionUnit = "taskId";
  const asked = askedUnit(flags);
  try {
    stats = await postgresDecisionStats(flags.dsn, flags.table, {
      env: Deno.env.toObject(),
      ...secondsFlag("connect-timeout", "connectTimeout", flags),
      ...secondsFlag("query-timeout", "queryTimeout", flags),
      unit: asked,
      onUnit: (u) => unit = u,
    });
  } catch (error) {
    if (
      error instanceof TypeError || error instanceof RangeError ||
      error instanceof SyntaxError || error instanceof Deno.errors.TimedOut
    ) throw error;
    throw new UsageError((error as Error).message, { cause: error });
  }
  return {
    format: "decisions",
    stats,
    decisions: stats.reduce((a, r) => a + r.n, 0),
    notes: {},
    table: null,
    files: [],
    sqlTable: flags.table,
    unit,
  };
}

/**
 * The unit `--cluster` asks of a run of decisions: `taskId`, `cluster`, or
 * nothing (the decisions' own). A metadata path is for harness logs only.
 */
function askedUnit(flags: InputFlags): DecisionUnit | undefined {
  try {
    return parseUnit(flags.cluster);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * The unit `--cluster` asks of inputs of a format: for harness logs
 * `taskId`, or nothing (a metadata path fills the clusters, which are then
 * the unit); for other formats as {@linkcode parseUnit} reads it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unitAsked } from "./_input.ts";
 *
 * assert.equal(unitAsked({ cluster: "metadata.source" }, "inspect"), undefined);
 * assert.equal(unitAsked({ cluster: "taskId" }, "decisions"), "taskId");
 * assert.throws(() => unitAsked({ cluster: "metadata.source" }, "decisions"), /--cluster on decisions must be taskId or cluster/);
 * ```
 */
export function unitAsked(
  flags: InputFlags,
  format: Format,
): DecisionUnit | undefined {
  if (isHarness(format)) {
    return flags.cluster === "taskId" ? "taskId" : undefined;
  }
  return askedUnit(flags);
}

/**
 * Refuse decisions of different inputs that break a cluster rule together
 * (some name a cluster and others none, or a task in two clusters), naming
 * both inputs and decisions: the check of {@linkcode readRun} across the
 * runs of several inputs, each already checked alone.
 *
 * @param parts Each input's name and decision table.
 * @throws {RangeError} For the first decision that breaks a rule.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkClustersAcross } from "./_input.ts";
 * import { decisionTable } from "../lib/read/load_decisions.ts";
 *
 * const d = { runId: "r", modelId: "m", taskId: "t", trial: 0, severity: "LOW", trueClass: "MATCH",
 *   predClass: "MATCH", parseOk: true, pCorrect: null, action: "auto", outcome: "resolved",
 *   cost: { completeness: "unavailable", usd: null } } as const;
 * assert.throws(
 *   () => checkClustersAcross([
 *     { name: "a.jsonl", table: decisionTable([{ ...d, cluster: "x" }]) },
 *     { name: "b.jsonl", table: decisionTable([{ ...d, modelId: "n" }]) },
 *   ]),
 *   /Cannot combine runs: b\.jsonl's decision for .*: cluster is missing, but a\.jsonl's decision .* names one/,
 * );
 * ```
 */
export function checkClustersAcross(
  parts: ReadonlyArray<{ readonly name: string; readonly table: ColumnTable }>,
): void {
  const clusters = new ClusterCheck("Cannot combine runs", "decision");
  for (const { name, table } of parts) {
    const cols = ["runId", "modelId", "taskId", "trial", "cluster"].map((c) =>
      table.columnNames().includes(c) ? table.array(c) : null
    ) as Array<ArrayLike<unknown> | null>;
    const [run, model, task, trial, cluster] = cols;
    for (let i = 0; i < table.numRows(); i++) {
      clusters.add(
        String(task![i]),
        (cluster?.[i] ?? null) as string | null,
        `${name}'s decision for runId ${JSON.stringify(run![i])}, modelId ${
          JSON.stringify(model![i])
        }, taskId ${JSON.stringify(task![i])}, trial ${trial![i]}`,
      );
    }
  }
  clusters.finish();
}

// A deadline flag of --engine postgres, as the option of the same meaning:
// seconds, 0 for no limit; absent, nothing (the default is the library's).
function secondsFlag<K extends string>(
  flag: "connect-timeout" | "query-timeout",
  option: K,
  flags: InputFlags,
): { [key in K]?: number } {
  const value = flags[flag];
  if (value === undefined) return {};
  const seconds = Number(value);
  if (String(value).trim() === "" || !Number.isFinite(seconds) || seconds < 0) {
    throw new UsageError(
      `--${flag} must be a number of seconds >= 0 (0 for no limit), got ${
        JSON.stringify(value)
      }`,
    );
  }
  return { [option]: seconds } as { [key in K]?: number };
}

/**
 * The JSON keys that name a run's input: `file` for one, `files` (a list)
 * for several.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileKeys } from "./_input.ts";
 *
 * assert.deepEqual(fileKeys(["a.json"]), { file: "a.json" });
 * assert.deepEqual(fileKeys(["a.json", "b.json"]), { files: ["a.json", "b.json"] });
 * ```
 */
export function fileKeys(
  files: readonly string[],
): { file: string } | { files: string[] } {
  return files.length === 1 ? { file: files[0] } : { files: [...files] };
}

/**
 * The inputs, for human output: the path, or the paths joined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileLabel } from "./_input.ts";
 *
 * assert.equal(fileLabel(["a.eval", "b.json"]), "a.eval + b.json");
 * ```
 */
export function fileLabel(files: readonly string[]): string {
  return files.join(" + ");
}

/** The keys imported logs add to a command's JSON document. */
export interface ImportKeys {
  /** Imported logs: decisions by where their pCorrect came from. */
  pCorrectSources?: Readonly<Record<string, number>>;
  /** Imported logs: items that are not decisions, with their files. */
  setAside?: ReadonlyArray<SetAside & { readonly file: string }>;
  /** Harness logs read although incomplete (`allowIncomplete`): file, status, samples expected and read. */
  inputs?: readonly IncompleteInput[];
}

/**
 * What imported logs add to a command's JSON: where each probability came
 * from, the items set aside, and (under `inputs`) the logs read although
 * incomplete; nothing for other formats.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importKeys, readRun } from "./_input.ts";
 *
 * assert.deepEqual(importKeys(await readRun("data/examples/model_ab.jsonl", {})), {});
 * ```
 */
export function importKeys(run: RunInput): ImportKeys {
  const out: ImportKeys = {};
  if (run.pCorrectSources !== undefined) {
    out.pCorrectSources = run.pCorrectSources;
  }
  if (run.setAside !== undefined) out.setAside = run.setAside;
  if (run.inputs !== undefined && run.inputs.length > 0) {
    out.inputs = run.inputs;
  }
  return out;
}

/** The key a command's JSON document gains when the unit is the cluster. */
export interface UnitKeys {
  /**
   * `"cluster"` when every interval and test counts the clusters the
   * decisions name (docs/method.md, "The unit"); absent when it counts
   * tasks, as before the field existed.
   */
  unit?: "cluster";
}

/**
 * What the unit adds to a command's JSON: `unit: "cluster"` when the
 * intervals and tests count clusters, nothing when they count tasks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unitKeys } from "./_input.ts";
 *
 * assert.deepEqual(unitKeys({ unit: "taskId" }), {});
 * assert.deepEqual(unitKeys({ unit: "cluster" }), { unit: "cluster" });
 * ```
 */
export function unitKeys(run: Pick<RunInput, "unit">): UnitKeys {
  return run.unit === "cluster" ? { unit: "cluster" } : {};
}

/**
 * The unit, for a human report's header: `; unit: cluster` when the
 * intervals and tests count clusters, nothing when they count tasks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unitLabel } from "./_input.ts";
 *
 * assert.equal(unitLabel({ unit: "taskId" }), "");
 * assert.equal(unitLabel({ unit: "cluster" }), "; unit: cluster");
 * ```
 */
export function unitLabel(run: Pick<RunInput, "unit">): string {
  return run.unit === "cluster" ? "; unit: cluster" : "";
}

/**
 * The warning of a figure that counts decisions as independent whatever
 * the unit (calibrate's ECE interval): one line when the unit is the
 * cluster, none when it is the task.
 *
 * @param run The run read.
 * @param what The figure, as the sentence begins (`the ECE interval`).
 * @returns The warning lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionCountWarnings } from "./_input.ts";
 *
 * assert.deepEqual(decisionCountWarnings({ unit: "taskId" }, "the ECE interval"), []);
 * assert.match(decisionCountWarnings({ unit: "cluster" }, "the ECE interval")[0], /^the ECE interval counts decisions/);
 * ```
 */
export function decisionCountWarnings(
  run: Pick<RunInput, "unit">,
  what: string,
): string[] {
  return run.unit === "cluster"
    ? [
      `${what} counts decisions, not the clusters they name: where a cluster's items fail together it is narrower than it should be (docs/method.md, "The unit")`,
    ]
    : [];
}

const LARGE = 50 * 1024 * 1024;

/**
 * The one format that every input is read as: the flag, or detected from
 * each file's content (see `detectFormat`); files of different formats are
 * refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveFormats } from "./_input.ts";
 *
 * assert.equal(await resolveFormats(["data/examples/harness/inspect_qwen.eval", "data/examples/harness/inspect_sonnet.json"], undefined), "inspect");
 * await assert.rejects(() => resolveFormats(["data/examples/harness/inspect_sonnet.json", "data/examples/reconforge_run.json"], undefined), /share one format/);
 * ```
 */
export async function resolveFormats(
  paths: readonly string[],
  flag: string | undefined,
): Promise<Format> {
  if (flag !== undefined || paths.length === 0) {
    return resolveFormat(paths[0] ?? "", flag);
  }
  const formats = await Promise.all(paths.map((p) => detectFormat(p)));
  const distinct = [...new Set(formats)];
  if (distinct.length > 1) {
    throw new UsageError(
      `all input files must share one format, got ${
        paths.map((p, i) => `${p} (${formats[i]})`).join(", ")
      }`,
    );
  }
  return distinct[0] as Format;
}

/** The format to read `path` as: the flag, or by extension. */
export function resolveFormat(path: string, flag: string | undefined): Format {
  if (flag !== undefined) {
    if (!(FORMATS as readonly string[]).includes(flag)) {
      throw new UsageError(
        `--format must be one of ${FORMATS.join(", ")}, got ${
          JSON.stringify(flag)
        }`,
      );
    }
    return flag as Format;
  }
  if (/\.json$/i.test(path)) return "reconforge";
  return "decisions";
}

// A progress line for a large file, rewritten in place: on a terminal only
// (in a log or a pipe it would be noise)
function showsProgress(size: number): boolean {
  return size >= LARGE && Deno.stderr.isTerminal();
}

function progress(
  path: string,
  size: number,
): ((lines: number, chars: number) => void) | undefined {
  if (!showsProgress(size)) return undefined;
  const encoder = new TextEncoder();
  return (lines, chars) => {
    const pct = Math.min(100, (100 * chars) / size).toFixed(0);
    Deno.stderr.writeSync(
      encoder.encode(
        `\rreading ${path}: ${formatCount(lines)} lines (${pct}%)`,
      ),
    );
  };
}

function done(path: string, size: number): void {
  if (showsProgress(size)) {
    console.error(`\rreading ${path}: done${" ".repeat(30)}`);
  }
}

/**
 * Read a run for scoring. With `needTable`, decisions are also laid out as a
 * table (for pairing); otherwise JSONL goes through the one-pass statistics.
 */
export async function readRun(
  input: string | readonly RunSource[],
  flags: InputFlags,
  needTable = false,
): Promise<RunInput> {
  const run = await readRunUnnoted(input, flags, needTable);
  // an empty input is refused by every command, never scored as 0 decisions
  if (run.decisions === 0) {
    throw new InputRangeError(`no decisions in ${run.files.join(", ")}`);
  }
  noteUserStrings(
    run.stats.flatMap((r) => [r.modelId, r.trueClass, r.predClass]),
  );
  if (run.table !== null) {
    for (const column of ["runId", "taskId"]) {
      noteUserStrings(Array.from(run.table.array(column) as ArrayLike<string>));
    }
  }
  return run;
}

async function readRunUnnoted(
  input: string | readonly RunSource[],
  flags: InputFlags,
  needTable: boolean,
): Promise<RunInput> {
  const sources = typeof input === "string" ? [input] : input;
  if (flags.engine === "postgres") {
    throw new UsageError(
      "--engine postgres computes statistics for score and sweep only (with --dsn and --table)",
    );
  }
  if (flags.dsn !== undefined || flags.table !== undefined) {
    throw new UsageError("--dsn and --table go with --engine postgres");
  }
  for (const flag of ["connect-timeout", "query-timeout"] as const) {
    if (flags[flag] !== undefined) {
      throw new UsageError(`--${flag} goes with --engine postgres`);
    }
  }
  if (sources.length === 0) throw new UsageError("expected a run file");
  if (sources.some((s) => typeof s !== "string")) {
    return await readWithMemory(sources, flags);
  }
  const given = sources as readonly string[];
  return await withStreams(given, async (paths, rename) => {
    const run = await readPaths(paths, flags, needTable, rename);
    const setAside = run.setAside?.map((a) => ({ ...a, file: rename(a.file) }));
    return {
      ...run,
      files: given,
      ...(setAside === undefined ? {} : { setAside }),
    };
  });
}

// Files (no stream, no table in memory) of one format, read for scoring.
async function readPaths(
  paths: readonly string[],
  flags: InputFlags,
  needTable: boolean,
  rename: (text: string) => string,
): Promise<RunInput> {
  const format = await resolveFormats(paths, flags.format);
  // every non-harness format is one file a path (importHarness checks the
  // logs, of which a HELM run is a folder)
  if (!isHarness(format)) {
    for (const p of paths) {
      await regularFile(
        p,
        format === "lossbench"
          ? `Cannot load LossBench ledger ${p}`
          : `Cannot load run export ${p}`,
      );
    }
  }
  if (isHarness(format)) {
    if (flags.probability !== undefined) {
      throw new UsageError(`--probability applies to --format lossbench only`);
    }
    if ((flags.engine ?? "memory") !== "memory") {
      throw new UsageError(
        `--engine ${flags.engine} reads run exports (.parquet, .csv, .jsonl), not --format ${format}`,
      );
    }
    // without a table, the statistics are reduced from the decisions as
    // they are made, as the JSONL reader reduces its lines, and no decision
    // is held once counted
    const asked = unitAsked(flags, format);
    const counted = needTable ? null : new (await later<
      typeof import("../lib/read/_stats_builder.ts")
    >("../lib/read/_stats_builder.ts")).DecisionStats(paths.join(", "), asked);
    const h = await importHarness(paths, format, flags, {
      quiet: true,
      ...(counted === null ? {} : { onDecision: (d) => counted.add(d) }),
    });
    for (const m of h.messages) console.error(rename(m));
    const table = needTable
      ? (await loadDecisionsModule()).decisionTable(h.decisions)
      : null;
    const { stats, unit } = table !== null
      ? await decisionStatsOf(table, asked)
      : counted!.finish();
    return {
      format,
      stats,
      unit,
      decisions: h.count,
      notes: h.notes,
      table,
      files: paths,
      pCorrectSources: h.pCorrectSources,
      setAside: h.setAside,
      inputs: h.inputs,
    };
  }
  refuseMappingFlags(flags, format);
  askedUnit(flags);
  if (paths.length > 1) return await readSeveral(paths, format, flags);
  const one = await readOne(paths[0], format, flags, needTable);
  return { ...one, files: paths };
}

// The statistics of one run export through chdb (--engine chdb), refused
// with the command that installs it when it is not installed.
async function chdbStats(
  path: string,
  unit: DecisionUnit | undefined,
  onUnit: (unit: DecisionUnit) => void,
): Promise<StatsRow[]> {
  const install = await later<typeof import("../lib/sql/chdb_install.ts")>(
    "../lib/sql/chdb_install.ts",
  );
  const library = install.installedChdb();
  if (library === null) {
    throw new UsageError(
      `--engine chdb needs ClickHouse's embedded engine, which is not installed: run \`${install.CHDB_INSTALL_COMMAND}\` (deno task lossbook engine install chdb) to download it into ${
        install.chdbLibraryPath().replace(/\/[^/]*\/[^/]*$/, "")
      }`,
    );
  }
  const { chdbDecisionStats } = await later<
    typeof import("../lib/sql/chdb_stats.ts")
  >("../lib/sql/chdb_stats.ts");
  return await chdbDecisionStats(path, { library, unit, onUnit });
}

// Several files of one non-harness format: each is read as a table, the
// decisions are concatenated, and a key repeated across files is refused.
async function readSeveral(
  paths: readonly string[],
  format: Format,
  flags: InputFlags,
): Promise<RunInput> {
  if ((flags.engine ?? "memory") !== "memory") {
    throw new UsageError(
      `--engine ${flags.engine} reads one file; several files are read in memory`,
    );
  }
  const parts: Omit<RunInput, "files">[] = [];
  for (const p of paths) parts.push(await readOne(p, format, flags, true));
  return await combine(parts, paths, format, askedUnit(flags));
}

// Runs read as tables, one per input, joined into one: a decision key
// repeated across inputs is refused, naming both, and so is a decision that
// breaks a cluster rule against another input's.
async function combine(
  parts: readonly Omit<RunInput, "files">[],
  paths: readonly string[],
  format: Format,
  asked: DecisionUnit | undefined,
): Promise<RunInput> {
  const { decisionKey } = await later<typeof import("../lib/read/arrow.ts")>(
    "../lib/read/arrow.ts",
  );
  const first = new Map<string, string>();
  parts.forEach((part, i) => {
    for (
      const row of part.table!.objects() as Array<
        Parameters<typeof decisionKey>[0]
      >
    ) {
      const key = decisionKey(row);
      const seen = first.get(key);
      if (seen !== undefined) {
        throw new InputRangeError(
          `Cannot combine ${paths[i]}: its decision for runId ${
            JSON.stringify(row.runId)
          }, modelId ${JSON.stringify(row.modelId)}, taskId ${
            JSON.stringify(row.taskId)
          }, trial ${row.trial} repeats one in ${seen}`,
        );
      }
      first.set(key, paths[i]);
    }
  });
  checkClustersAcross(
    parts.map((part, i) => ({ name: paths[i], table: part.table! })),
  );
  const table = parts.slice(1).reduce(
    (t, part) => t.concat(part.table!),
    parts[0].table!,
  );
  const notes = sumCounts(parts.map((p) => p.notes));
  const sources = parts.every((p) => p.pCorrectSources !== undefined)
    ? sumCounts(parts.map((p) => p.pCorrectSources!))
    : undefined;
  return {
    format,
    ...await decisionStatsOf(table, asked),
    decisions: table.numRows(),
    notes,
    table,
    files: paths,
    ...(sources === undefined ? {} : { pCorrectSources: sources }),
  };
}

// Inputs of which at least one is held in memory: each is laid out as a
// decision table (a path is read as a run export), and they are combined as
// several files are. In memory there are only decisions: no harness log, no
// importer, no engine.
async function readWithMemory(
  sources: readonly RunSource[],
  flags: InputFlags,
): Promise<RunInput> {
  const names = sources.map(sourceName);
  const inMemory = names.filter((n, i) => n !== sources[i]).join(", ");
  if (flags.format !== undefined && flags.format !== "decisions") {
    throw new UsageError(
      `--format ${flags.format} reads files; ${inMemory} hold decisions`,
    );
  }
  if ((flags.engine ?? "memory") !== "memory") {
    throw new UsageError(
      `--engine ${flags.engine} reads files; ${inMemory} are read in memory`,
    );
  }
  if (flags.probability !== undefined) {
    throw new UsageError(`--probability applies to --format lossbench only`);
  }
  if (flags["pcorrect-from"] !== undefined) {
    throw new UsageError(
      `--pcorrect-from applies to imported logs (--format reconforge and the harness formats), not to decisions`,
    );
  }
  refuseMappingFlags(flags, "decisions");
  const asked = askedUnit(flags);
  const { decisionTable } = await loadDecisionsModule();
  const { decisionFromValue } = await later<
    typeof import("../lib/read/_jsonl_decision.ts")
  >("../lib/read/_jsonl_decision.ts");
  const { checkDecisionColumns, decisionsFromColumns } = await later<
    typeof import("../lib/read/arrow.ts")
  >("../lib/read/arrow.ts");
  const parts: Omit<RunInput, "files">[] = [];
  for (const [i, source] of sources.entries()) {
    const name = names[i];
    if (typeof source === "string") {
      const format = await resolveFormats([source], undefined);
      if (format !== "decisions") {
        throw new UsageError(
          `all inputs must share one format, got ${source} (${format}) beside decisions held in memory (${inMemory})`,
        );
      }
      parts.push(await readOne(source, "decisions", flags, true));
      continue;
    }
    let decisions: Decision[];
    if (Array.isArray(source)) {
      decisions = source.map((d, k) =>
        decisionFromValue(d, `${name}: decision ${k + 1}`)
      );
    } else if (isColumnTable(source)) {
      const columns = source.columnNames();
      checkDecisionColumns(columns, name);
      decisions = decisionsFromColumns(
        Object.fromEntries(columns.map((c) => [c, source.array(c)])) as never,
        source.numRows(),
        name,
      );
    } else {
      throw new UsageError(
        `${name}: an input is a path, an array of decisions or an Arquero table, got ${
          source === null ? "null" : typeof source
        }`,
      );
    }
    if (decisions.length === 0) {
      throw new InputRangeError(`no decisions in ${name}`);
    }
    const table = decisionTable(decisions);
    parts.push({
      format: "decisions",
      ...await decisionStatsOf(table, asked),
      decisions: decisions.length,
      notes: {},
      table,
    });
  }
  return await combine(parts, names, "decisions", asked);
}

/**
 * Counts by key, added up over several inputs (notes, pCorrect sources), in
 * the order the keys first appear.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sumCounts } from "./_input.ts";
 *
 * assert.deepEqual(sumCounts([{ a: 1 }, { b: 2, a: 3 }]), { a: 4, b: 2 });
 * ```
 */
export function sumCounts(
  counts: ReadonlyArray<Readonly<Record<string, number>>>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of counts) {
    for (const [k, v] of Object.entries(c)) out[k] = (out[k] ?? 0) + v;
  }
  return out;
}

// One file; an empty one is refused, also when it is one of several.
// From this size on, score and sweep aggregate a Parquet or CSV file with
// DuckDB SQL unless --engine says otherwise: in memory every row becomes an
// object, while DuckDB aggregates without holding the rows; below it,
// starting DuckDB costs more than reading the rows. Both give the same bytes.
const DUCKDB_BYTES = 1024 * 1024;

/**
 * DuckDB's resources on the path `score` and `sweep` take by default for a
 * Parquet or CSV file: a memory limit under which its buffers stay (it
 * spills to a temporary folder, made for the run, above it), for a file
 * accepted and for one refused, whose bad row is found by a query.
 */
export const DEFAULT_DUCKDB = { memoryLimit: "256MB" } as const;

/**
 * DuckDB's resources under `--engine duckdb`: a memory limit that keeps a
 * large file, JSONL above all (DuckDB holds the raw objects the checks
 * read), from growing the process past about 1 GB; it spills to a
 * temporary folder made for the run.
 */
export const ENGINE_DUCKDB = { memoryLimit: "512MB" } as const;

/**
 * The engine that computes a file's statistics when `--engine` is not
 * given: `duckdb` for a Parquet or CSV file of 1 MiB or more read for
 * statistics only, else `memory`.
 *
 * @param fileFormat The file's format (from its extension).
 * @param bytes Its size.
 * @param needTable Whether the command needs the rows (pairing, bins).
 * @returns `duckdb` or `memory`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultEngine } from "./_input.ts";
 *
 * assert.equal(defaultEngine("parquet", 2 ** 20, false), "duckdb");
 * assert.equal(defaultEngine("csv", 2 ** 20 - 1, false), "memory");
 * assert.equal(defaultEngine("parquet", 2 ** 30, true), "memory");
 * assert.equal(defaultEngine("arrow", 2 ** 30, false), "memory");
 * assert.equal(defaultEngine("jsonl", 2 ** 30, false), "memory");
 * ```
 */
export function defaultEngine(
  fileFormat: string,
  bytes: number,
  needTable: boolean,
): "duckdb" | "memory" {
  return !needTable && bytes >= DUCKDB_BYTES &&
      (fileFormat === "parquet" || fileFormat === "csv")
    ? "duckdb"
    : "memory";
}

async function readOne(
  path: string,
  format: Format,
  flags: InputFlags,
  needTable: boolean,
): Promise<Omit<RunInput, "files">> {
  const one = await readOneUnchecked(path, format, flags, needTable);
  if (one.decisions === 0) throw new InputRangeError(`no decisions in ${path}`);
  return one;
}

async function readOneUnchecked(
  path: string,
  format: Format,
  flags: InputFlags,
  needTable: boolean,
): Promise<Omit<RunInput, "files">> {
  if (format !== "lossbench" && flags.probability !== undefined) {
    throw new UsageError(`--probability applies to --format lossbench only`);
  }
  const asked = askedUnit(flags);
  if (
    (format === "decisions" || format === "lossbench") &&
    flags["pcorrect-from"] !== undefined
  ) {
    throw new UsageError(
      `--pcorrect-from applies to imported logs (--format reconforge and the harness formats), not to --format ${format}`,
    );
  }
  if (format === "lossbench") {
    if (flags.probability !== "correct" && flags.probability !== "error") {
      throw new UsageError(
        `LossBench ledgers store P(correct) in calibrated_probability while LossBench's policy code reads it as P(error); say which with --probability correct|error (got ${
          flags.probability === undefined
            ? "nothing"
            : JSON.stringify(flags.probability)
        })`,
      );
    }
    // a LossBench export whose hash chain does not verify is not scored
    const { verifyLossbenchLedgerFile } = await later<
      typeof import("../lib/ledger/lossbench_chain.ts")
    >("../lib/ledger/lossbench_chain.ts");
    const chain = await verifyLossbenchLedgerFile(path);
    if (!chain.valid) {
      throw new CheckFailed(
        `${chain.reason}; a LossBench export whose chain does not verify is not scored`,
      );
    }
    const { loadLossbenchLedger } = await later<
      typeof import("../lib/import/lossbench.ts")
    >("../lib/import/lossbench.ts");
    const { decisions, notes } = await loadLossbenchLedger(path, {
      ...unknownKeys(flags),
      probability: flags.probability,
    });
    const { decisionTable } = await loadDecisionsModule();
    const table = decisionTable(decisions);
    return {
      format,
      ...await decisionStatsOf(table, asked),
      decisions: decisions.length,
      notes,
      table,
    };
  }
  if (format === "reconforge") {
    const from = flags["pcorrect-from"];
    const { loadReconforge } = await later<
      typeof import("../lib/import/reconforge.ts")
    >("../lib/import/reconforge.ts");
    const { decisions, notes } = await loadReconforge(
      path,
      {
        ...unknownKeys(flags),
        ...(from === undefined ? {} : { pCorrectFrom: from }),
      },
    );
    console.error(
      `${path}: ${describePCorrectSources(countPCorrectSources(decisions))}`,
    );
    const { decisionTable } = await loadDecisionsModule();
    const table = decisionTable(decisions);
    return {
      format,
      ...await decisionStatsOf(table, asked),
      decisions: decisions.length,
      notes,
      table,
      pCorrectSources: countPCorrectSources(decisions),
    };
  }
  const fileFormat = decisionFormatOf(path);
  // JSONL goes through DuckDB only when asked (--engine duckdb): with the
  // line loader's checks DuckDB reads the raw objects, which is slower than
  // the streaming in-process reader, so the in-process path stays its
  // default; a large Parquet or CSV file goes through DuckDB by default
  const engine = flags.engine;
  if (
    engine !== undefined && engine !== "memory" && engine !== "duckdb" &&
    engine !== "chdb"
  ) {
    throw new UsageError(
      `--engine must be memory, duckdb, chdb or postgres, got ${
        JSON.stringify(engine)
      }`,
    );
  }
  const size = (await regularFile(path, `Cannot load run export ${path}`))
    ?.size ?? 0;
  const routed = engine === undefined &&
    defaultEngine(fileFormat, size, needTable) === "duckdb";
  if (engine === "duckdb" || engine === "chdb" || routed) {
    if (needTable) {
      throw new UsageError(
        `--engine ${engine} computes statistics only; pairing needs --engine memory`,
      );
    }
    if (
      fileFormat !== "parquet" && fileFormat !== "csv" && fileFormat !== "jsonl"
    ) {
      throw new UsageError(
        `--engine ${engine} reads .parquet, .csv and .jsonl files, got ${path}`,
      );
    }
    let unit: DecisionUnit = "taskId";
    const onUnit = (u: DecisionUnit) => unit = u;
    const stats = engine === "chdb"
      ? await chdbStats(path, asked, onUnit)
      : fileFormat === "jsonl"
      ? await (await later<typeof import("../lib/sql/duckdb_jsonl.ts")>(
        "../lib/sql/duckdb_jsonl.ts",
      )).duckdbJsonlStats(path, { ...ENGINE_DUCKDB, unit: asked, onUnit })
      : await (await later<typeof import("../lib/sql/duckdb_stats.ts")>(
        "../lib/sql/duckdb_stats.ts",
      ))
        .duckdbDecisionStats(path, {
          ...(routed ? DEFAULT_DUCKDB : ENGINE_DUCKDB),
          unit: asked,
          onUnit,
        });
    return {
      format,
      stats,
      unit,
      decisions: stats.reduce((a, r) => a + r.n, 0),
      notes: {},
      table: null,
    };
  }
  if (fileFormat === "arrow" && !needTable) {
    // statistics straight from the columns: no Decision kept, no table
    const { arrowDecisionStats } = await later<
      typeof import("../lib/read/arrow.ts")
    >("../lib/read/arrow.ts");
    const { stats, decisions, unit } = arrowDecisionStats(
      await Deno.readFile(path),
      { path, unit: asked },
    );
    return { format, stats, unit, decisions, notes: {}, table: null };
  }
  if (fileFormat !== "jsonl") {
    const { loadDecisions } = await later<
      typeof import("../lib/read/load_any.ts")
    >("../lib/read/load_any.ts");
    const table = await loadDecisions(path);
    return {
      format,
      ...await decisionStatsOf(table, asked),
      decisions: table.numRows(),
      notes: {},
      table,
    };
  }
  const onProgress = progress(path, size);
  if (needTable) {
    const { decisionTable, readDecisionsJsonl } = await loadDecisionsModule();
    const decisions = await readDecisionsJsonl(path, {
      ...(onProgress ? { onProgress } : {}),
    });
    done(path, size);
    const table = decisionTable(decisions);
    return {
      format,
      ...await decisionStatsOf(table, asked),
      decisions: decisions.length,
      notes: {},
      table,
    };
  }
  const { jsonlStatsFile } = await later<
    typeof import("../lib/read/jsonl_stats.ts")
  >("../lib/read/jsonl_stats.ts");
  const { stats, decisions, unit } = await jsonlStatsFile(path, {
    ...(onProgress ? { onProgress } : {}),
    unit: asked,
  });
  done(path, size);
  return { format, stats, unit, decisions, notes: {}, table: null };
}
