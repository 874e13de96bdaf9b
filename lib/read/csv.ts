/**
 * CSV run exports: one Decision per record, with the flat columns of
 * {@linkcode DECISION_COLUMNS} as the header.
 *
 * Records are read by csv-parse, lossbook's one CSV reader, rather than
 * Arquero's `fromCSV`, because Arquero's reader pads short records with
 * nulls, drops extra fields and does not report line numbers, and lossbook
 * must refuse such rows and name the line. It follows RFC 4180: fields are
 * separated by commas, a field may be quoted with `"` (a quote inside is
 * doubled), quoted fields may span lines, records end with LF, CRLF or CR,
 * blank lines are skipped. A file is streamed, never read into one string.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import { csvLine } from "./_csv_line.ts";
import type { Decision } from "../decision/decision.ts";
import {
  checkDecisionColumns,
  type DecisionColumn,
  decisionKey,
  duplicateDecisionError,
  flatDecision,
  type FlatDecisionRow,
} from "./arrow.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
  type ParseDecisionsOptions,
} from "./load_decisions.ts";
import {
  type DecisionField,
  fieldOfColumn,
  kindOfRule,
} from "../decision/schema.ts";
import {
  type CsvRecord,
  csvRecordStarts,
  readCsvFile,
  readCsvRecordAt,
  readCsvText,
} from "./_csv_records.ts";
import { InputSyntaxError } from "../input_error.ts";
import { ClusterCheck } from "../decision/cluster.ts";

/**
 * The number syntax accepted in numeric CSV cells: an optional minus sign,
 * digits with an optional decimal point, an optional exponent. No `+`, no
 * spaces, no `NaN` or `Infinity`, no thousands separators. The same pattern
 * (in RE2 syntax) is used by the DuckDB CSV reader in `duckdb_stats.ts`.
 */
export const CSV_NUMBER_PATTERN =
  "-?(?:[0-9]+(?:[.][0-9]*)?|[.][0-9]+)(?:[eE][+-]?[0-9]+)?";

const NUMBER = new RegExp(`^${CSV_NUMBER_PATTERN}$`);

/**
 * How a cell of a field's column reads, from the field's rule: an empty
 * cell of a number or boolean column is null, a number must match
 * {@linkcode CSV_NUMBER_PATTERN} and a boolean be `true` or `false`; text
 * that is none of these stays text, for the row check to refuse. An empty
 * cell of a text column is null where the field may be null (CSV cannot
 * tell an empty string from a missing value once unquoted), and the empty
 * string elsewhere.
 */
function cellReader(field: DecisionField): (text: string) => unknown {
  switch (kindOfRule(field.rule)) {
    case "number":
      return (t) => t === "" ? null : NUMBER.test(t) ? Number(t) : t;
    case "boolean":
      return (t) =>
        t === "true" ? true : t === "false" ? false : t === "" ? null : t;
    case "text":
      return field.nulls.reads === "never"
        ? (t) => t
        : (t) => t === "" ? null : t;
  }
}

/** Options for checking CSV decisions as they stream past. */
interface VisitOptions {
  /** Refuse repeated keys (holds every key in memory). Default: true. */
  duplicates?: boolean;
  /** Only track these keys for duplicates (for files too big for a full set). */
  keys?: ReadonlySet<string>;
}

/**
 * The state of reading one CSV file: header check, then one decision per
 * record. Shared by the in-memory loader and the streaming check.
 */
class CsvDecisions {
  #where: string;
  #order: DecisionColumn[] | null = null;
  #cells: ((text: string) => unknown)[] = [];
  #seen = new Map<string, number>();
  #clusters: ClusterCheck;
  #options: VisitOptions;
  #visit: (d: Decision) => void;
  #row = {} as FlatDecisionRow;

  constructor(
    where: string,
    options: VisitOptions,
    visit: (d: Decision) => void,
  ) {
    this.#where = where;
    this.#clusters = new ClusterCheck(where, "line");
    this.#options = options;
    this.#visit = visit;
  }

  finish(): void {
    if (this.#order === null) {
      throw new InputSyntaxError(
        `${this.#where}: line 1: missing header row (expected ${
          DECISION_COLUMNS.join(",")
        })`,
      );
    }
    this.#clusters.finish();
  }

  record = (r: CsvRecord): void => {
    if (this.#order === null) {
      checkDecisionColumns(r.fields, `${this.#where}: line ${r.line}: header`);
      this.#order = r.fields as DecisionColumn[];
      this.#cells = this.#order.map((c) => cellReader(fieldOfColumn(c)));
      return;
    }
    const at = `${this.#where}: line ${r.line}`;
    const order = this.#order;
    if (r.fields.length !== order.length) {
      throw new InputSyntaxError(
        `${at}: expected ${order.length} fields, got ${r.fields.length}`,
      );
    }
    const row = this.#row;
    const cells = this.#cells;
    for (let k = 0; k < order.length; k++) {
      row[order[k]] = cells[k](r.fields[k]);
    }
    const d = flatDecision(row, at);
    if (this.#options.duplicates !== false) {
      const key = decisionKey(d);
      if (this.#options.keys === undefined || this.#options.keys.has(key)) {
        const first = this.#seen.get(key);
        if (first !== undefined) {
          throw duplicateDecisionError(d, at, `line ${first}`);
        }
        this.#seen.set(key, r.line);
      }
    }
    this.#clusters.add(d.taskId, d.cluster, r.line);
    this.#visit(d);
  };
}

/**
 * Parse a CSV run export into Decision records.
 *
 * The header must name exactly the columns of {@linkcode DECISION_COLUMNS}
 * (any order). Each record must have one field per column. Cells are read
 * by column, never guessed: an empty numeric or boolean cell is `null`
 * (so an empty `pCorrect` means "not stated"), a numeric cell must match
 * {@linkcode CSV_NUMBER_PATTERN}, `parseOk` must be `true` or `false`, and
 * text that is none of these is an error, not a zero. Then each record is
 * checked like a JSONL line (`flatDecision`), and a repeated (runId,
 * modelId, taskId, trial) is an error, as is a record that breaks a cluster
 * rule (`ClusterCheck`). Cost is O(n) in the text.
 *
 * @param text The file's text.
 * @param options Where the text came from.
 * @returns The decisions, in file order.
 * @throws {SyntaxError} On malformed CSV, a missing header or a record with the wrong number of fields.
 * @throws {TypeError} When the header is wrong or a cell has the wrong type (`pCorrect` of `abc`).
 * @throws {RangeError} When a value is out of range or a decision is repeated.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDecisionsCsv } from "./csv.ts";
 *
 * const header = "runId,modelId,taskId,trial,severity,trueClass,predClass,parseOk," +
 *   "pCorrect,action,costCompleteness,costUsd,outcome,tokensIn,tokensOut,latencyMs";
 * const ok = "r,m,t1,0,HIGH,AMOUNT_MISMATCH,MATCH,true,,auto,unavailable,,resolved,,,";
 * assert.equal(parseDecisionsCsv(`${header}\n${ok}\n`)[0].pCorrect, null);
 * assert.throws(
 *   () => parseDecisionsCsv(`${header}\n${ok.replace("true,,", "true,abc,")}\n`, { path: "a.csv" }),
 *   { name: "TypeError", message: 'Cannot load run export a.csv: line 2: pCorrect must be number, got "abc"' },
 * );
 * ```
 */
export function parseDecisionsCsv(
  text: string,
  options: ParseDecisionsOptions = {},
): Decision[] {
  const out: Decision[] = [];
  const where = `Cannot load run export ${options.path ?? "<inline>"}`;
  const state = new CsvDecisions(where, {}, (d) => void out.push(d));
  readCsvText(text, where, state.record);
  state.finish();
  return out;
}

async function streamCsv(
  path: string,
  options: VisitOptions,
  visit: (d: Decision) => void,
): Promise<void> {
  const where = `Cannot load run export ${path}`;
  const state = new CsvDecisions(where, options, visit);
  await readCsvFile(path, where, state.record);
  state.finish();
}

/**
 * Read a CSV run export into an Arquero decision table.
 *
 * The file is streamed in 1 MiB chunks (as strict UTF-8: invalid bytes are
 * refused naming their line and byte); the result has the same columns and
 * values as {@linkcode loadDecisionsJsonl} gives for the same decisions.
 *
 * @param path Path of the `.csv` file (UTF-8).
 * @returns The decision table.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | TypeError | RangeError} As {@linkcode parseDecisionsCsv}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDecisionsCsv, writeDecisionsCsv } from "./csv.ts";
 * import { loadDecisionsJsonl } from "./load_decisions.ts";
 *
 * const t = await loadDecisionsJsonl(
 *   new URL("../../data/examples/model_ab.jsonl", import.meta.url).pathname,
 * );
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/ab.csv`;
 * await writeDecisionsCsv(path, t);
 * assert.deepEqual((await loadDecisionsCsv(path)).objects(), t.objects());
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadDecisionsCsv(path: string): Promise<ColumnTable> {
  const out: Decision[] = [];
  await streamCsv(path, {}, (d) => void out.push(d));
  return decisionTable(out);
}

/**
 * Stream a CSV run export through the same checks as
 * {@linkcode loadDecisionsCsv} without keeping the decisions, and throw the
 * first error. Used to name the exact line when a SQL scan of a file too
 * large for memory finds a bad row. Memory is O(1) unless `keys` is large.
 *
 * @param path Path of the `.csv` file.
 * @param options `duplicateKeys`: only these decision keys (see `decisionKey`)
 * are tracked for repeats. Default: repeats are not checked.
 * @returns The number of decisions when the file is valid.
 * @throws {SyntaxError | TypeError | RangeError} As {@linkcode parseDecisionsCsv}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkDecisionsCsv } from "./csv.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/bad.csv`;
 * await Deno.writeTextFile(path, "runId,modelId\nr,m\n");
 * await assert.rejects(() => checkDecisionsCsv(path), /line 1: header: missing columns taskId/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function checkDecisionsCsv(
  path: string,
  options: { duplicateKeys?: ReadonlySet<string> } = {},
): Promise<number> {
  let n = 0;
  await streamCsv(
    path,
    options.duplicateKeys === undefined
      ? { duplicates: false }
      : { keys: options.duplicateKeys },
    () => void n++,
  );
  return n;
}

/** A record of a CSV run export as a caller found it (by a SQL query, say). */
export interface CsvRecordFound {
  /** Its number: 1 is the first record after the header. */
  readonly index: number;
  /**
   * Its cells as the caller read them, in header order, `null` for an
   * empty cell; when given, the record read must hold them. Default: not
   * compared.
   */
  readonly cells?: readonly (string | null)[];
}

/**
 * Check chosen records of a CSV run export as {@linkcode loadDecisionsCsv}
 * checks them, and throw its error, naming the same line: for a row that a
 * query over the whole file found bad, or two rows found to repeat one
 * decision, without streaming the file through the reader. The bytes up
 * to the last record are scanned once for where records start (no field
 * is parsed, see `csvRecordStarts`), then only the chosen records are read.
 *
 * Nothing is thrown when a record is not where its number says, or its
 * cells differ from `cells` (the caller numbered or split the records
 * otherwise than the reader), or every record passes: the caller then
 * falls back to {@linkcode checkDecisionsCsv}.
 *
 * @param path Path of the `.csv` file, whose header has been checked.
 * @param header Its column names, in file order.
 * @param records The records, in file order; a repeated decision among them is refused.
 * @returns `true` when the records were found as given and all pass, `false` when they were not found as given.
 * @throws {SyntaxError | TypeError | RangeError} As {@linkcode parseDecisionsCsv}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkDecisionsCsvRecords } from "./csv.ts";
 *
 * const header = "runId,modelId,taskId,trial,severity,trueClass,predClass,parseOk," +
 *   "pCorrect,action,costCompleteness,costUsd,outcome,tokensIn,tokensOut,latencyMs";
 * const ok = "r,m,t1,0,HIGH,AMOUNT_MISMATCH,MATCH,true,,auto,unavailable,,resolved,,,";
 * const bad = ok.replace("t1", '"t\n2"').replace("true,,", "true,2,");
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/a.csv`;
 * await Deno.writeTextFile(path, `${header}\n${ok}\n\n${bad}\n`);
 * const cells = bad.replace('"t\n2"', "t\n2").split(",").map((c) => c === "" ? null : c);
 * await assert.rejects(
 *   () => checkDecisionsCsvRecords(path, header.split(","), [{ index: 2, cells }]),
 *   { message: `Cannot load run export ${path}: line 4: pCorrect must be in [0, 1], got 2` },
 * );
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function checkDecisionsCsvRecords(
  path: string,
  header: readonly string[],
  records: readonly CsvRecordFound[],
): Promise<boolean> {
  const where = `Cannot load run export ${path}`;
  const starts = await csvRecordStarts(path, records.map((r) => r.index));
  if (starts.length !== records.length) return false;
  const found: CsvRecord[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = await readCsvRecordAt(path, where, starts[i]);
    const cells = records[i].cells;
    if (
      record === null || (cells !== undefined &&
        (record.fields.length !== cells.length ||
          record.fields.some((f, k) => f !== (cells[k] ?? ""))))
    ) {
      return false;
    }
    found.push(record);
  }
  const state = new CsvDecisions(where, {}, () => {});
  state.record({ fields: [...header], line: 1 });
  for (const r of found) state.record(r);
  state.finish();
  return true;
}

/**
 * Read only the header record of a CSV file.
 *
 * @param path Path of the `.csv` file.
 * @returns The column names, in file order.
 * @throws {SyntaxError} When the file has no header.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readCsvHeader } from "./csv.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/h.csv`;
 * await Deno.writeTextFile(path, "a,b\n1,2\n");
 * assert.deepEqual(await readCsvHeader(path), ["a", "b"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readCsvHeader(path: string): Promise<string[]> {
  const where = `Cannot load run export ${path}`;
  let header: string[] | null = null;
  const found = new Error("header read"); // stops the reading there
  try {
    await readCsvFile(path, where, (r) => {
      header = r.fields;
      throw found;
    }, 1 << 16);
  } catch (error) {
    if (error !== found) throw error;
  }
  if (header === null) {
    throw new InputSyntaxError(`${where}: line 1: missing header row`);
  }
  return header;
}

/**
 * Format a decision table as CSV text: a header of
 * {@linkcode DECISION_COLUMNS}, then one record per row.
 *
 * `null` is an empty cell; numbers use JavaScript's shortest round-trip
 * form, so reading the text back gives the same doubles; text with a
 * comma, quote or line break is quoted.
 *
 * @param table A decision table with the columns of {@linkcode DECISION_COLUMNS}.
 * @returns The CSV text, ending with a newline.
 * @throws {TypeError} When the table lacks a column or has an extra one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionsToCsv } from "./csv.ts";
 * import { decisionTable } from "./load_decisions.ts";
 *
 * assert.equal(decisionsToCsv(decisionTable([])).split("\n")[0].split(",").length, 20);
 * ```
 */
export function decisionsToCsv(table: ColumnTable): string {
  checkDecisionColumns(table.columnNames(), "Cannot write CSV run export");
  const cols = DECISION_COLUMNS.map((c) => table.array(c));
  const lines = [DECISION_COLUMNS.join(",")];
  const n = table.numRows();
  for (let i = 0; i < n; i++) {
    lines.push(csvLine(cols.map((col) => col[i])));
  }
  return lines.join("\n") + "\n";
}

/**
 * Write a decision table to a CSV file.
 *
 * @param path Destination path.
 * @param table A decision table.
 * @throws {TypeError} As {@linkcode decisionsToCsv}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDecisionsCsv, writeDecisionsCsv } from "./csv.ts";
 * import { decisionTable } from "./load_decisions.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/empty.csv`;
 * await writeDecisionsCsv(path, decisionTable([]));
 * assert.equal((await loadDecisionsCsv(path)).numRows(), 0);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeDecisionsCsv(
  path: string,
  table: ColumnTable,
): Promise<void> {
  await Deno.writeTextFile(path, decisionsToCsv(table));
}
