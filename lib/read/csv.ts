/**
 * CSV run exports: one Decision per record, with the flat columns of
 * {@linkcode DECISION_COLUMNS} as the header.
 *
 * The parser is our own rather than Arquero's `fromCSV`, because Arquero's
 * reader pads short records with nulls, drops extra fields and does not
 * report line numbers, and lossbook must refuse such rows and name the line.
 * It follows RFC 4180: fields are separated by commas, a field may be quoted
 * with `"` (a quote inside is doubled), quoted fields may span lines, records
 * end with LF or CRLF, blank lines are skipped.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
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
import { invalidUtf8At, lineOfByte } from "./_utf8.ts";
import { InputSyntaxError } from "../input_error.ts";

/**
 * The number syntax accepted in numeric CSV cells: an optional minus sign,
 * digits with an optional decimal point, an optional exponent. No `+`, no
 * spaces, no `NaN` or `Infinity`, no thousands separators. The same pattern
 * (in RE2 syntax) is used by the DuckDB CSV reader in `duckdb_stats.ts`.
 */
export const CSV_NUMBER_PATTERN =
  "-?(?:[0-9]+(?:[.][0-9]*)?|[.][0-9]+)(?:[eE][+-]?[0-9]+)?";

const NUMBER = new RegExp(`^${CSV_NUMBER_PATTERN}$`);
const NUMERIC_COLUMNS: ReadonlySet<string> = new Set([
  "trial",
  "pCorrect",
  "costUsd",
  "tokensIn",
  "tokensOut",
  "latencyMs",
]);

/** One CSV record: its fields and the line on which it starts (1-based). */
export interface CsvRecord {
  /** The field texts, unquoted. */
  readonly fields: string[];
  /** Line on which the record starts. */
  readonly line: number;
}

const QUOTE = 34, COMMA = 44, LF = 10, CR = 13;

/**
 * An incremental RFC 4180 record reader: push text in chunks of any size,
 * take the complete records.
 *
 * Strict: a quote inside an unquoted field, a character after a closing
 * quote, and an unterminated quoted field are errors naming the line.
 * Blank lines are skipped. A byte-order mark at the start is dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CsvReader } from "./csv.ts";
 *
 * const r = new CsvReader("x.csv");
 * const records = [...r.push('a,"b\nc"\r\n\n1,'), ...r.push("2\n"), ...r.finish()];
 * assert.deepEqual(records, [
 *   { fields: ["a", "b\nc"], line: 1 },
 *   { fields: ["1", "2"], line: 4 },
 * ]);
 * assert.throws(() => new CsvReader("x.csv").push('a,b"c\n'), /x\.csv: line 1: unexpected quote/);
 * ```
 */
export class CsvReader {
  #path: string;
  #line = 1;
  #recordLine = 1;
  #fields: string[] = [];
  #field = "";
  #quoted = false; // inside a quoted field
  #closed = false; // just after a quote inside a quoted field
  #afterQuoted = false; // the current field was quoted and has closed
  #fieldStarted = false;
  #fieldLine = 1; // line on which the open quoted field started
  #skipLf = false; // a record ended with CR at the end of the last chunk
  #crPending = false; // a quoted field's last chunk ended with CR
  #start = true;

  /**
   * @param path File path shown in errors.
   */
  constructor(path: string) {
    this.#path = path;
  }

  #fail(message: string, line: number): never {
    throw new InputSyntaxError(
      `Cannot load run export ${this.#path}: line ${line}: ${message}`,
    );
  }

  #endField(): void {
    this.#fields.push(this.#field);
    this.#field = "";
    this.#afterQuoted = false;
    this.#fieldStarted = false;
  }

  #endRecord(out: CsvRecord[]): void {
    const blank = this.#fields.length === 0 && !this.#fieldStarted &&
      this.#field === "" && !this.#afterQuoted;
    if (!blank) {
      this.#endField();
      out.push({ fields: this.#fields, line: this.#recordLine });
    }
    this.#fields = [];
    this.#field = "";
    this.#afterQuoted = false;
    this.#fieldStarted = false;
  }

  /**
   * Read a chunk of text.
   *
   * @param text The next chunk.
   * @returns The records completed by this chunk.
   * @throws {SyntaxError} On malformed quoting.
   */
  push(text: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    let i = 0;
    const n = text.length;
    if (this.#start && n > 0) {
      this.#start = false;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    if (this.#skipLf && i < n) {
      this.#skipLf = false;
      if (text.charCodeAt(i) === LF) i++;
    }
    while (i < n) {
      if (this.#quoted) {
        if (this.#closed) {
          this.#closed = false;
          if (text.charCodeAt(i) === QUOTE) {
            this.#field += '"';
            i++;
            continue;
          }
          this.#quoted = false;
          this.#afterQuoted = true;
          continue;
        }
        if (this.#crPending) {
          this.#crPending = false;
          if (text.charCodeAt(i) !== LF) this.#line++;
        }
        const q = text.indexOf('"', i);
        const end = q < 0 ? n : q;
        const chunk = text.slice(i, end);
        this.#field += chunk;
        for (let k = 0; k < chunk.length; k++) {
          const c = chunk.charCodeAt(k);
          if (c === LF) this.#line++;
          else if (c === CR) {
            if (k + 1 === chunk.length && q < 0) this.#crPending = true;
            else if (chunk.charCodeAt(k + 1) !== LF) this.#line++;
          }
        }
        if (q < 0) return out;
        this.#closed = true;
        i = q + 1;
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === COMMA) {
        this.#endField();
        this.#fieldStarted = true;
        i++;
      } else if (c === LF || c === CR) {
        this.#endRecord(out);
        this.#line++;
        this.#recordLine = this.#line;
        i++;
        if (c === CR) {
          if (i < n) {
            if (text.charCodeAt(i) === LF) i++;
          } else this.#skipLf = true;
        }
      } else if (this.#afterQuoted) {
        this.#fail(
          `unexpected ${JSON.stringify(text[i])} after a closing quote`,
          this.#line,
        );
      } else if (c === QUOTE) {
        if (this.#field !== "") {
          this.#fail("unexpected quote inside an unquoted field", this.#line);
        }
        this.#quoted = true;
        this.#fieldStarted = true;
        this.#fieldLine = this.#line;
        i++;
      } else {
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === COMMA || d === LF || d === CR || d === QUOTE) break;
          j++;
        }
        this.#field += text.slice(i, j);
        this.#fieldStarted = true;
        i = j;
      }
    }
    return out;
  }

  /**
   * Finish reading: the last record, if the text did not end with a newline.
   *
   * @returns The remaining record, if any.
   * @throws {SyntaxError} When a quoted field is still open.
   */
  finish(): CsvRecord[] {
    if (this.#quoted && !this.#closed) {
      this.#fail("unterminated quoted field", this.#fieldLine);
    }
    if (this.#closed) {
      this.#closed = false;
      this.#quoted = false;
      this.#afterQuoted = true;
    }
    const out: CsvRecord[] = [];
    this.#endRecord(out);
    return out;
  }
}

function cellValue(column: DecisionColumn, text: string): unknown {
  if (NUMERIC_COLUMNS.has(column)) {
    if (text === "") return null;
    return NUMBER.test(text) ? Number(text) : text;
  }
  if (column === "parseOk") {
    return text === "true"
      ? true
      : text === "false"
      ? false
      : text === ""
      ? null
      : text;
  }
  // an empty cell of a nullable text column is null (CSV cannot tell an
  // empty string from a missing value once unquoted)
  if (text === "" && NULLABLE_TEXT.has(column)) return null;
  return text;
}

const NULLABLE_TEXT: ReadonlySet<string> = new Set([
  "pCorrectSource",
  "answer",
  "target",
]);

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
  #reader: CsvReader;
  #order: DecisionColumn[] | null = null;
  #seen = new Map<string, number>();
  #options: VisitOptions;
  #row = {} as FlatDecisionRow;

  constructor(path: string, options: VisitOptions) {
    this.#where = `Cannot load run export ${path}`;
    this.#reader = new CsvReader(path);
    this.#options = options;
  }

  push(text: string, visit: (d: Decision) => void): void {
    for (const r of this.#reader.push(text)) this.#record(r, visit);
  }

  finish(visit: (d: Decision) => void): void {
    for (const r of this.#reader.finish()) this.#record(r, visit);
    if (this.#order === null) {
      throw new InputSyntaxError(
        `${this.#where}: line 1: missing header row (expected ${
          DECISION_COLUMNS.join(",")
        })`,
      );
    }
  }

  #record(r: CsvRecord, visit: (d: Decision) => void): void {
    if (this.#order === null) {
      checkDecisionColumns(r.fields, `${this.#where}: line ${r.line}: header`);
      this.#order = r.fields as DecisionColumn[];
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
    for (let k = 0; k < order.length; k++) {
      row[order[k]] = cellValue(order[k], r.fields[k]);
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
    visit(d);
  }
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
 * modelId, taskId, trial) is an error. Cost is O(n) in the text.
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
  const visit = (d: Decision) => void out.push(d);
  const state = new CsvDecisions(options.path ?? "<inline>", {});
  state.push(text, visit);
  state.finish(visit);
  return out;
}

async function streamCsv(
  path: string,
  options: VisitOptions,
  visit: (d: Decision) => void,
): Promise<void> {
  const state = new CsvDecisions(path, options);
  for await (const text of utf8Chunks(path, 1 << 20)) state.push(text, visit);
  state.finish(visit);
}

async function* utf8Chunks(
  path: string,
  size: number,
): AsyncGenerator<string> {
  using file = await Deno.open(path);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const buffer = new Uint8Array(size);
  let offset = 0;
  let lines = 1;
  const decode = (bytes?: Uint8Array) => {
    try {
      return bytes === undefined
        ? decoder.decode()
        : decoder.decode(bytes, { stream: true });
    } catch (error) {
      // name the first bad byte of this chunk and its line; a sequence cut
      // by the chunk's start is named at the chunk's start
      const at = bytes === undefined ? -1 : invalidUtf8At(bytes, false);
      const byte = at >= 0 ? offset + at : offset;
      const line = at >= 0 ? lines + lineOfByte(bytes!, at) - 1 : lines;
      throw new InputSyntaxError(
        `Cannot load run export ${path}: line ${line}: not valid UTF-8 at byte ${byte}`,
        { cause: error },
      );
    }
  };
  while (true) {
    const n = await file.read(buffer);
    if (n === null) break;
    const chunk = buffer.subarray(0, n);
    yield decode(chunk);
    for (let i = 0; i < n; i++) if (chunk[i] === 0x0a) lines++;
    offset += n;
  }
  yield decode();
}

/**
 * Read a CSV run export into an Arquero decision table.
 *
 * The file is streamed in 1 MiB chunks; the result has the same columns and
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
  const reader = new CsvReader(path);
  for await (const text of utf8Chunks(path, 1 << 16)) {
    const records = reader.push(text);
    if (records.length > 0) return records[0].fields;
  }
  const last = reader.finish();
  if (last.length > 0) return last[0].fields;
  throw new InputSyntaxError(
    `Cannot load run export ${path}: line 1: missing header row`,
  );
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) || text === ""
    ? `"${text.replaceAll('"', '""')}"`
    : text;
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
 * assert.equal(decisionsToCsv(decisionTable([])).split("\n")[0].split(",").length, 19);
 * ```
 */
export function decisionsToCsv(table: ColumnTable): string {
  checkDecisionColumns(table.columnNames(), "Cannot write CSV run export");
  const cols = DECISION_COLUMNS.map((c) => table.array(c));
  const lines = [DECISION_COLUMNS.join(",")];
  const n = table.numRows();
  for (let i = 0; i < n; i++) {
    lines.push(cols.map((col) => csvField(col[i])).join(","));
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
