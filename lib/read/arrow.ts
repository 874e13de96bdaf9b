/**
 * Arrow IPC run exports, and the flat (columnar) Decision layout that every
 * columnar importer shares.
 *
 * A Decision laid out in columns is flat: the cost evidence becomes two
 * columns, `costCompleteness` and `costUsd`, and the optional fields are
 * nullable columns ({@linkcode DECISION_COLUMNS}). Arrow, Parquet and CSV
 * files all hold that layout, so their readers check each row with
 * {@linkcode flatDecision}, which applies the same zod schema as the JSONL
 * loader and names the file, the row and the field on error.
 *
 * @module
 */

import * as aq from "arquero";
import type { ColumnTable } from "arquero";
import {
  bool,
  type DataType,
  dictionary,
  float64,
  int64,
  tableFromIPC,
  utf8,
} from "@uwdata/flechette";
import { describeIssue } from "../_zod_issue.ts";
import { type Decision, decisionSchema } from "../decision/decision.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
  OPTIONAL_DECISION_COLUMNS,
  type ParseDecisionsOptions,
} from "./load_decisions.ts";
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
} from "../input_error.ts";
import {
  DECISION_FIELDS,
  type DecisionColumn,
  type DecisionField,
  isValidFlatRow,
  keyPath,
  kindOfRule,
  type OptionalDecisionColumn,
  ruleInWords,
  satisfies,
  unflattenRow,
} from "../decision/schema.ts";
import { decisionTupleKey } from "../_tuple_key.ts";
import type { StatsRow } from "../metrics/sufficient_stats.ts";
import {
  type Cell,
  countUnitSizes,
  emptyCell,
  statsOfCells,
  unitOfRows,
} from "./_stats_builder.ts";
import { ClusterCheck, type DecisionUnit } from "../decision/cluster.ts";
import { DecisionKeySet } from "./_key_spill.ts";
import { Interner } from "./_decision_scan.ts";
import { SEVERITIES } from "../costs/severity.ts";

export type { DecisionColumn };

/** A column a file may leave out (see `OPTIONAL_DECISION_COLUMNS`). */
type OptionalColumn = OptionalDecisionColumn;

/**
 * One row of the flat layout: a value (or `null`) for every column; the
 * optional columns may be missing (read as `null`).
 */
export type FlatDecisionRow =
  & Record<Exclude<DecisionColumn, OptionalColumn>, unknown>
  & Partial<Record<OptionalColumn, unknown>>;

const FIELDS: readonly DecisionField[] = DECISION_FIELDS;

// the columns that hold numbers: checked finite, and int64 bigints made numbers
const NUMERIC: readonly DecisionColumn[] = FIELDS
  .filter((f) => kindOfRule(f.rule) === "number")
  .map((f) => f.column as DecisionColumn);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);

/**
 * Check that a file's column names are exactly the flat Decision columns.
 *
 * Order does not matter; a missing, unknown or repeated column is an error,
 * so that no field is silently dropped or made up.
 *
 * @param names The column names found in the file, in file order.
 * @param where Error prefix, e.g. `Cannot load run export runs/a.csv`.
 * @throws {TypeError} When a column is missing, unknown or repeated.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkDecisionColumns } from "./arrow.ts";
 * import { DECISION_COLUMNS } from "./load_decisions.ts";
 *
 * checkDecisionColumns([...DECISION_COLUMNS].reverse(), "a.csv");
 * assert.throws(
 *   () => checkDecisionColumns([...DECISION_COLUMNS, "confidence"], "a.csv"),
 *   /a\.csv: unknown column "confidence"/,
 * );
 * ```
 */
export function checkDecisionColumns(
  names: readonly string[],
  where: string,
): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) {
      throw new InputTypeError(
        `${where}: column ${JSON.stringify(name)} repeats`,
      );
    }
    seen.add(name);
  }
  const expected = new Set<string>(DECISION_COLUMNS);
  const unknown = names.filter((n) => !expected.has(n));
  if (unknown.length > 0) {
    throw new InputTypeError(
      `${where}: unknown column${unknown.length > 1 ? "s" : ""} ${
        unknown.map((n) => JSON.stringify(n)).join(", ")
      } (expected exactly ${DECISION_COLUMNS.join(", ")})`,
    );
  }
  const optional = new Set<string>(OPTIONAL_DECISION_COLUMNS);
  const missing = DECISION_COLUMNS.filter((c) =>
    !seen.has(c) && !optional.has(c)
  );
  if (missing.length > 0) {
    throw new InputTypeError(
      `${where}: missing column${missing.length > 1 ? "s" : ""} ${
        missing.join(", ")
      }`,
    );
  }
}

/**
 * A zod issue of an unflattened row, named by its flat column: a nested
 * member (`cost.usd`) by its column (`costUsd`). The nested key's union
 * refuses the member the others depend on (`cost.completeness`) in its own
 * words; that member's column gets its rule's words instead.
 */
function flatIssue<T extends { path: PropertyKey[]; message: string }>(
  issue: T,
): T {
  const [head, member] = issue.path;
  const tag = typeof head === "string" ? NESTED.get(head) : undefined;
  if (tag === undefined) return issue;
  const f = FIELD_BY_KEY.get(`${String(head)}.${String(member)}`);
  return f !== undefined && f !== tag
    ? { ...issue, path: [f.column] }
    : { ...issue, path: [tag.column], message: `must be ${ruleInWords(tag)}` };
}

const FIELD_BY_KEY: ReadonlyMap<string, DecisionField> = new Map(
  FIELDS.map((f) => [f.key, f]),
);

/** Each nested key (`cost`), with the member its other members' nulls depend on. */
const NESTED: ReadonlyMap<string, DecisionField> = new Map(
  FIELDS.flatMap((f): [string, DecisionField][] => {
    const n = f.nulls;
    const { head, member } = keyPath(f.key);
    if (n.reads !== "when" || member === null) return [];
    const tag = FIELDS.find((t) => t.column === n.column)!;
    return [[head, tag]];
  }),
);

/**
 * Check one flat row and turn it into a Decision.
 *
 * The row is unflattened (`costCompleteness` and `costUsd` become `cost`; a
 * `null` optional field is left out) and checked with the same zod schema
 * as a JSONL line, so every format accepts and refuses the same values. An
 * empty or null required field, a pCorrect outside [0, 1], an unknown
 * severity, a negative cost, NaN and infinities are errors; nothing is
 * coerced. Whole-number
 * bigints (Arrow and DuckDB int64) become numbers when they are safe
 * integers. Errors use the flat column names (`costUsd`, not `cost.usd`).
 *
 * @param row A value (or `null`) for every column of {@linkcode DECISION_COLUMNS}.
 * @param where Error prefix naming file and row, e.g. `Cannot load run export a.parquet: row 3`.
 * @returns The decision.
 * @throws {TypeError} When a field has the wrong type or is missing.
 * @throws {RangeError} When a value is out of range or not in its closed set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flatDecision } from "./arrow.ts";
 *
 * const row = {
 *   runId: "r", modelId: "m", taskId: "t", trial: 0n, severity: "HIGH",
 *   trueClass: "MATCH", predClass: "MATCH", parseOk: true, pCorrect: 0.8,
 *   action: "auto", costCompleteness: "complete", costUsd: 0.01,
 *   outcome: "resolved", tokensIn: null, tokensOut: null, latencyMs: null,
 * };
 * assert.deepEqual(flatDecision(row, "x").cost, { completeness: "complete", usd: 0.01 });
 * assert.throws(
 *   () => flatDecision({ ...row, costUsd: -1 }, "Cannot load run export a.arrow: row 2"),
 *   { name: "RangeError", message: "Cannot load run export a.arrow: row 2: costUsd must be >= 0, got -1" },
 * );
 * ```
 */
export function flatDecision(row: FlatDecisionRow, where: string): Decision {
  let r = row;
  for (const c of NUMERIC) {
    const v = r[c];
    if (typeof v === "number" && !Number.isFinite(v)) {
      throw new InputRangeError(
        `${where}: ${c} must be a finite number, got ${v}`,
      );
    }
    if (typeof v === "bigint") {
      if (v > MAX_SAFE || v < MIN_SAFE) {
        throw new InputRangeError(
          `${where}: ${c} must be a safe integer, got ${v}`,
        );
      }
      r = r === row ? { ...row } : r;
      (r as Record<string, unknown>)[c] = Number(v);
    }
  }
  const value = unflattenRow(r);
  // exactly the rows that decisionSchema accepts; zod only names the error
  if (isValidFlatRow(r)) return value as unknown as Decision;
  const parsed = decisionSchema.safeParse(value);
  if (parsed.success) return parsed.data as unknown as Decision;
  const issue = parsed.error.issues[0];
  const message = `${where}: ${
    describeIssue(flatIssue(issue), r as Record<string, unknown>)
  }`;
  throw issue.code === "invalid_type" || issue.code === "unrecognized_keys"
    ? new InputTypeError(message, { cause: parsed.error })
    : new InputRangeError(message, { cause: parsed.error });
}

/**
 * The identity of a decision: run, model, task and trial. Two decisions with
 * the same key are a duplicate, which every loader refuses.
 *
 * @param d A decision.
 * @returns A string that is equal for equal keys.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionKey } from "./arrow.ts";
 *
 * const a = { runId: "r", modelId: "m", taskId: "t", trial: 0 };
 * assert.equal(decisionKey(a), decisionKey({ ...a }));
 * assert.notEqual(decisionKey(a), decisionKey({ ...a, trial: 1 }));
 * ```
 */
export function decisionKey(
  d: Pick<Decision, "runId" | "modelId" | "taskId" | "trial">,
): string {
  return decisionTupleKey(d.runId, d.modelId, d.taskId, d.trial);
}

/**
 * The error for a second decision with the same key, worded as the JSONL
 * loader words it.
 *
 * @param d The repeated decision.
 * @param where Error prefix naming file and the repeat's row or line.
 * @param first Where the first one was, e.g. `row 3` or `line 4`.
 * @returns A RangeError.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duplicateDecisionError } from "./arrow.ts";
 *
 * const e = duplicateDecisionError(
 *   { runId: "r", modelId: "m", taskId: "t", trial: 0 }, "a.csv: line 3", "line 2");
 * assert.match(e.message, /line 3: duplicate decision for runId "r", .* \(first on line 2\)/);
 * ```
 */
export function duplicateDecisionError(
  d: Pick<Decision, "runId" | "modelId" | "taskId" | "trial">,
  where: string,
  first: string,
): RangeError {
  return new InputRangeError(
    `${where}: duplicate decision for runId ${
      JSON.stringify(d.runId)
    }, modelId ${JSON.stringify(d.modelId)}, taskId ${
      JSON.stringify(d.taskId)
    }, trial ${d.trial} (first on ${first})`,
  );
}

// "ARROW1"
const ARROW_MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31];

/**
 * Parse Arrow IPC bytes (file or stream format, e.g. `.arrow`, `.feather`
 * version 2, `.ipc`) into Decision records.
 *
 * The table must have exactly the columns of {@linkcode DECISION_COLUMNS},
 * in any order. Each row is checked with {@linkcode flatDecision}; a
 * repeated (runId, modelId, taskId, trial) is an error. Int64 columns are
 * read as bigints and must hold safe integers. Cost is O(rows).
 *
 * @param bytes The file's bytes.
 * @param options Where the bytes came from.
 * @returns The decisions, in row order.
 * @throws {SyntaxError} When the bytes are not Arrow IPC.
 * @throws {TypeError | RangeError} As {@linkcode flatDecision}, prefixed with the path and `row N` (1-based).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionsToArrow, parseDecisionsArrow } from "./arrow.ts";
 * import { decisionTable } from "./load_decisions.ts";
 *
 * const d = {
 *   runId: "r", modelId: "m", taskId: "t", trial: 0, severity: "LOW",
 *   trueClass: "MATCH", predClass: "MATCH", parseOk: true, pCorrect: null,
 *   action: "auto", outcome: "resolved",
 *   cost: { completeness: "unavailable", usd: null },
 * } as const;
 * assert.deepEqual(parseDecisionsArrow(decisionsToArrow(decisionTable([d]))), [d]);
 * ```
 */
export function parseDecisionsArrow(
  bytes: Uint8Array,
  options: ParseDecisionsOptions = {},
): Decision[] {
  const where = `Cannot load run export ${options.path ?? "<inline>"}`;
  const { cols, rows } = arrowColumns(bytes, where);
  return decisionsFromColumns(cols, rows, where);
}

/** A decoded Arrow IPC table (flechette's). */
type ArrowTable = ReturnType<typeof tableFromIPC>;

/**
 * An Arrow IPC run export as a table, with its whole-file checks done (the
 * magic at both ends, the IPC data, the column set, no temporal column,
 * valid UTF-8); each row is still to be checked. The columns are views of
 * `bytes`, nothing is copied.
 *
 * @param bytes The file's bytes.
 * @param where Error prefix naming the file.
 * @returns The table.
 * @throws {SyntaxError | TypeError} As {@linkcode parseDecisionsArrow}.
 */
function arrowTable(bytes: Uint8Array, where: string): ArrowTable {
  // the IPC file format opens and closes with ARROW1: a file cut short has
  // the first and not the last, and the reader's own error would name a
  // property of its footer, not the file's fault
  const magic = (at: number) =>
    at >= 0 && ARROW_MAGIC.every((b, i) => bytes[at + i] === b);
  if (magic(0) && !(bytes.length >= 12 && magic(bytes.length - 6))) {
    throw new InputSyntaxError(
      `${where}: the Arrow IPC file is truncated (${bytes.length} bytes; it opens with the ARROW1 magic but does not end with it)`,
    );
  }
  let table: ArrowTable;
  try {
    table = tableFromIPC(bytes, { useBigInt: true });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new InputSyntaxError(`${where}: not Arrow IPC data: ${detail}`, {
      cause: error,
    });
  }
  checkDecisionColumns(table.schema.fields.map((f) => f.name), where);
  for (const f of table.schema.fields) {
    // a timestamp, date, time or duration column holds numbers that are not
    // counts: refused rather than read as a trial or a token count
    const t = (f.type as { typeId: number }).typeId;
    if (TEMPORAL_TYPE_IDS.has(t)) {
      throw new InputTypeError(
        `${where}: column ${f.name} is an Arrow ${
          TEMPORAL_TYPE_IDS.get(t)
        } column; ${f.name} must be a number column`,
      );
    }
  }
  checkArrowUtf8(table, where);
  return table;
}

/**
 * The flat columns of an Arrow IPC run export ({@linkcode arrowTable}), one
 * array per column of {@linkcode DECISION_COLUMNS}, and the rows.
 */
function arrowColumns(
  bytes: Uint8Array,
  where: string,
): { cols: Record<DecisionColumn, ArrayLike<unknown>>; rows: number } {
  const table = arrowTable(bytes, where);
  return { cols: tableColumns(table), rows: table.numRows };
}

function tableColumns(
  table: ArrowTable,
): Record<DecisionColumn, ArrayLike<unknown>> {
  const cols = {} as Record<DecisionColumn, ArrayLike<unknown>>;
  const names = new Set(table.schema.fields.map((f) => f.name));
  for (const c of DECISION_COLUMNS) {
    cols[c] = names.has(c)
      ? table.getChild(c).toArray() as ArrayLike<unknown>
      : new Array(table.numRows).fill(null);
  }
  return cols;
}

// Arrow type ids that flechette reads
const NULL = 1;
const UTF8 = 5;
const DICTIONARY = -1;
const INT = 2;
const FLOAT = 3;
const BOOL = 6;

/** What this file reads of one batch of a flechette column. */
interface ArrowBatch {
  readonly length: number;
  readonly nullCount: number;
  readonly type: {
    readonly typeId: number;
    readonly dictionary?: { readonly typeId: number };
  };
  readonly validity?: Uint8Array;
  readonly values?: ArrayLike<number | bigint> & { buffer: ArrayBufferLike };
  readonly offsets?: ArrayLike<number>;
  /** A dictionary batch's values, one per key. */
  readonly cache?: readonly unknown[];
  at(index: number): unknown;
  value(index: number): unknown;
}

function batchesOf(table: ArrowTable, column: string): ArrowBatch[] {
  return table.getChild(column).data as unknown as ArrowBatch[];
}

/** Whether row `i` of a batch is null, as flechette reads its validity. */
function isNull(b: ArrowBatch, i: number): boolean {
  const v = b.validity;
  return b.nullCount > 0 && v !== undefined &&
    (v[i >> 3] & (1 << (i & 7))) === 0;
}

/** A UTF-8 column's batch whose offsets rise within its bytes. */
function plainUtf8(b: ArrowBatch): b is ArrowBatch & {
  offsets: ArrayLike<number>;
  values: Uint8Array;
} {
  if (b.type.typeId !== UTF8) return false;
  const o = b.offsets!;
  const n = b.length;
  if (o.length < n + 1 || o[0] < 0 || o[n] > b.values!.length) return false;
  for (let i = 0; i < n; i++) if (o[i] > o[i + 1]) return false;
  return true;
}

/** A dictionary batch with text values and number keys. */
function textDictionary(b: ArrowBatch): b is ArrowBatch & {
  cache: readonly unknown[];
  values: ArrayLike<number> & { buffer: ArrayBufferLike };
} {
  return b.type.typeId === DICTIONARY && b.type.dictionary?.typeId === UTF8 &&
    b.cache !== undefined && b.values !== undefined &&
    !(b.values instanceof BigInt64Array || b.values instanceof BigUint64Array);
}

const CONTINUATION = (byte: number) => (byte & 0xc0) === 0x80;
const fatalUtf8 = new TextDecoder("utf-8", { fatal: true });

// Whether no row of a UTF-8 batch decodes to U+FFFD, without decoding its
// rows: all of its bytes ASCII, or all valid UTF-8 without the bytes of
// U+FFFD and every row starting on a character.
function cleanUtf8(
  b: ArrowBatch & { offsets: ArrayLike<number>; values: Uint8Array },
): boolean {
  const o = b.offsets;
  const bytes = b.values;
  const s = o[0];
  const e = o[b.length];
  let ascii = true;
  for (let j = s; j < e; j++) {
    if (bytes[j] >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return true;
  const span = bytes.subarray(s, e);
  try {
    fatalUtf8.decode(span);
  } catch {
    return false;
  }
  for (let j = 0; j + 2 < span.length; j++) {
    if (span[j] === 0xef && span[j + 1] === 0xbf && span[j + 2] === 0xbd) {
      return false;
    }
  }
  for (let i = 0; i < b.length; i++) {
    if (o[i] < e && CONTINUATION(bytes[o[i]])) return false;
  }
  return true;
}

/**
 * Refuse text that is not UTF-8: the Arrow reader decodes invalid bytes to
 * U+FFFD, and a value holding U+FFFD is refused, naming the first such row
 * of the first such column. A UTF-8 column is checked on its bytes, a
 * dictionary once per value; other columns value by value.
 */
function checkArrowUtf8(table: ArrowTable, where: string): void {
  const refuse = (row: number, c: string) =>
    new InputSyntaxError(
      `${where}: row ${
        row + 1
      }: ${c} is not valid UTF-8 (it decodes to U+FFFD)`,
    );
  const bad = (v: unknown) => typeof v === "string" && v.includes("\uFFFD");
  const names = new Set(table.schema.fields.map((f) => f.name));
  for (const c of DECISION_COLUMNS) {
    if (!names.has(c)) continue;
    const batches = batchesOf(table, c);
    const t = table.getChild(c).type as { typeId: number };
    // numbers and booleans are never text
    if (t.typeId === INT || t.typeId === FLOAT || t.typeId === BOOL) continue;
    let start = 0;
    for (const b of batches) {
      if (plainUtf8(b)) {
        if (!cleanUtf8(b)) {
          for (let i = 0; i < b.length; i++) {
            if (!isNull(b, i) && bad(b.value(i))) throw refuse(start + i, c);
          }
        }
      } else if (textDictionary(b)) {
        const entries = b.cache;
        if (entries.some(bad)) {
          for (let i = 0; i < b.length; i++) {
            if (bad(b.at(i))) throw refuse(start + i, c);
          }
        }
      } else {
        for (let i = 0; i < b.length; i++) {
          if (bad(b.at(i))) throw refuse(start + i, c);
        }
      }
      start += b.length;
    }
  }
}

const SEVERITY_IDS: Readonly<Record<string, number>> = Object.fromEntries(
  SEVERITIES.map((v, i) => [v, i]),
);

// Two 32-bit hashes of a decision's key (runId, modelId, taskId, trial)
// from its strings' UTF-16 code units, for a DecisionKeySet: the hash of
// the JSONL reader hashes UTF-8 bytes, which would cost an encoding per row
// here. Each text ends with a value no code unit has.
const keyHashes = new Int32Array(2);
function hashKey(d: Decision): void {
  let h1 = 0x9747b28c | 0;
  let h2 = 0x5bd1e995 | 0;
  for (let t = 0; t < 4; t++) {
    const text = t === 0 ? d.runId : t === 1 ? d.modelId : d.taskId;
    const n = t === 3 ? 2 : text.length + 1;
    for (let i = 0; i < n; i++) {
      const k0 = t === 3
        ? (i === 0 ? d.trial | 0 : (d.trial / 4294967296) | 0)
        : i < text.length
        ? text.charCodeAt(i)
        : 0x10000 + text.length;
      let k = Math.imul(k0, 0xcc9e2d51);
      k = (k << 15) | (k >>> 17);
      k = Math.imul(k, 0x1b873593);
      h1 ^= k;
      h1 = (h1 << 13) | (h1 >>> 19);
      h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
      h2 = (Math.imul(h2 ^ k0, 0x01000193) + (h2 >>> 7)) | 0;
    }
  }
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  keyHashes[0] = h1 ^ (h1 >>> 16);
  h2 ^= h2 >>> 15;
  h2 = Math.imul(h2, 0x2c1b3c6d);
  keyHashes[1] = h2 ^ (h2 >>> 12);
}

/** Statistics of a run export read for them alone, and its decisions. */
export interface ArrowDecisionStats {
  /** Sufficient statistics, in canonical order (`sortStats`). */
  readonly stats: StatsRow[];
  /** Decisions read. */
  readonly decisions: number;
  /** The unit the statistics count: the one asked for, or the decisions' own. */
  readonly unit: DecisionUnit;
}

/** Options for {@linkcode arrowDecisionStats}. */
export interface ArrowStatsOptions extends ParseDecisionsOptions {
  /**
   * The unit counted: `taskId` or `cluster`. Default: `cluster` when the
   * decisions name one, else `taskId`.
   */
  unit?: DecisionUnit;
}

/**
 * Sufficient statistics straight from an Arrow IPC run export's columns,
 * without a Decision kept per row or a table.
 *
 * The result equals `decisionStats(decisionTable(parseDecisionsArrow(bytes)))`
 * to the last bit (the sums of 1 - pCorrect are exact and rounded once, see
 * lib/math/exact_sum.ts), and a file that reader refuses is refused with
 * the same error. The columns are read in place, record batch by record
 * batch, as typed arrays: each column's rule is checked over the whole
 * batch (a dictionary-encoded column once per dictionary value), the
 * first row a check refuses is read whole and given to
 * {@linkcode flatDecision} for its message, cells are found by integer
 * codes, and a repeated (runId, modelId, taskId, trial) is found by
 * sorting hashes of the keys' bytes and comparing the rows of equal
 * hashes; whichever of the two comes first in row order is the error. A
 * column of a type read otherwise (large or viewed text, decimals, half
 * floats, a text column of numbers), or a check stricter than the schema's
 * on some row, sends the table through the row by row reader instead.
 * When some model has a second runId or a trial other than 0, or the unit
 * is the cluster, a second pass counts each unit's decisions for
 * `taskShare`, after the cluster rules are checked (`ClusterCheck`). Cost is
 * O(rows); memory is the bytes and a few typed arrays of one entry per row.
 *
 * @param bytes The file's bytes.
 * @param options Where the bytes came from, and the unit.
 * @returns The statistics, the number of decisions and the unit counted.
 * @throws {SyntaxError | TypeError | RangeError} As {@linkcode parseDecisionsArrow}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arrowDecisionStats, decisionsToArrow } from "./arrow.ts";
 * import { decisionTable, loadDecisionsJsonl } from "./load_decisions.ts";
 * import { decisionStats } from "../decision/decision_stats.ts";
 *
 * const t = await loadDecisionsJsonl(
 *   new URL("../../data/examples/model_ab.jsonl", import.meta.url).pathname,
 * );
 * const got = arrowDecisionStats(decisionsToArrow(t));
 * assert.deepEqual(got.stats, decisionStats(t));
 * assert.equal(got.decisions, t.numRows());
 * ```
 */
export function arrowDecisionStats(
  bytes: Uint8Array,
  options: ArrowStatsOptions = {},
): ArrowDecisionStats {
  const where = `Cannot load run export ${options.path ?? "<inline>"}`;
  const table = arrowTable(bytes, where);
  return columnarStats(table, where, options.unit) ??
    rowStats(tableColumns(table), table.numRows, where, options.unit);
}

// The statistics from columns as arrays, row by row: for a table whose
// column types columnarStats does not read.
function rowStats(
  cols: Record<DecisionColumn, ArrayLike<unknown>>,
  rows: number,
  where: string,
  unit: DecisionUnit | undefined,
): ArrowDecisionStats {
  const arrays = DECISION_COLUMNS.map((c) => cols[c]);
  const row = Object.fromEntries(
    DECISION_COLUMNS.map((c) => [c, null]),
  ) as Record<DecisionColumn, unknown>;
  const { runId, modelId, taskId, trial } = cols;
  // rows a and b hold the same key (called on equal hashes only)
  const same = (a: number, b: number) =>
    runId[a] === runId[b] && modelId[a] === modelId[b] &&
    taskId[a] === taskId[b] && value(trial[a]) === value(trial[b]);
  using keys = new DecisionKeySet({ memoryKeys: Infinity });
  // cells by small ids, so no key string is built per row
  const models = new Interner();
  const classes = new Interner();
  const cells = new Map<number, Map<number, Cell>>();
  const list: Cell[] = [];
  const classIds = 2 ** 26; // as the JSONL reader's: gold and pred in one number
  const cellOf: Cell[] = new Array(rows);
  let firstRun: string | null = null;
  let repeatedTasks = false;
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < arrays.length; k++) {
      row[DECISION_COLUMNS[k]] = value(arrays[k][i]);
    }
    const at = `${where}: row ${i + 1}`;
    const d = flatDecision(row, at);
    hashKey(d);
    const earlier = keys.add(keyHashes[0], keyHashes[1], i, same);
    if (earlier >= 0) throw duplicateDecisionError(d, at, `row ${earlier + 1}`);
    const gold = classes.ofString(d.trueClass);
    const pred = classes.ofString(d.predClass);
    if (gold >= classIds || pred >= classIds) {
      throw new InputRangeError(
        `${where}: more than ${classIds} distinct classes`,
      );
    }
    const outer = (models.ofString(d.modelId) * 8 + SEVERITY_IDS[d.severity]) *
        2 + (d.action === "auto" ? 0 : 1);
    let byClass = cells.get(outer);
    if (byClass === undefined) cells.set(outer, byClass = new Map());
    let c = byClass.get(gold * classIds + pred);
    if (c === undefined) {
      c = emptyCell(d.modelId, d.severity, d.trueClass, d.predClass, d.action);
      byClass.set(gold * classIds + pred, c);
      list.push(c);
    }
    c.n++;
    if (d.pCorrect === null) c.pMissing++;
    else c.pError.add(d.pCorrect);
    if (!d.parseOk) c.parseFailures++;
    cellOf[i] = c;
    firstRun ??= d.runId;
    if (d.trial !== 0 || d.runId !== firstRun) repeatedTasks = true;
  }
  // every row passed the checks, so the columns hold its strings as they are
  const { cluster } = cols;
  const u = unitOfRows(
    rows,
    (i) => taskId[i] as string,
    (i) => value(cluster[i]) as string | null,
    where,
    unit,
  );
  if (repeatedTasks || u === "cluster") {
    // a unit's decisions are the rows of its (modelId, taskId or cluster)
    const ids = u === "cluster" ? cluster : taskId;
    countUnitSizes(list, rows, (i) => cellOf[i], (i) => ids[i]);
  }
  return { stats: statsOfCells(list), decisions: rows, unit: u };
}

// Statistics from the columns, record batch by record batch, on typed
// arrays: each column's rule checked over the whole batch (a dictionary
// column once per dictionary value), cells found by integer codes, keys
// hashed from the bytes of their text and repeats found by sorting the
// hashes. The first row a check refuses is read whole and given to
// flatDecision, which throws the loaders' message.

/** How a batch of a column is read. */
type Reading =
  | {
    readonly kind: "utf8";
    readonly offsets: ArrayLike<number>;
    readonly bytes: Uint8Array;
  }
  | {
    readonly kind: "dictionary";
    readonly keys: ArrayLike<number>;
    readonly entries: readonly unknown[];
  }
  | { readonly kind: "number"; readonly values: Float64Array }
  // 64-bit integers as their 32-bit halves, low first
  | {
    readonly kind: "int64";
    readonly halves: Int32Array;
    readonly unsigned: boolean;
  }
  | { readonly kind: "bool"; readonly bits: Uint8Array }
  | { readonly kind: "null" };

// What is worked out once per dictionary value (its check, its code, its
// hash), kept per dictionary: the record batches that share a dictionary
// share its values' array, and each value is worked out once for them all.
// Made anew for each table (the codes are that table's).
let perDictionary = new WeakMap<readonly unknown[], Map<string, unknown>>();
function onceFor<T>(
  entries: readonly unknown[],
  what: string,
  make: () => T,
): T {
  let known = perDictionary.get(entries);
  if (known === undefined) perDictionary.set(entries, known = new Map());
  if (!known.has(what)) known.set(what, make());
  return known.get(what) as T;
}

const TWO_32 = 4294967296;
const SAFE_HI = 0x200000; // 2^53 / 2^32: a high half below it is safe

function readingOf(b: ArrowBatch, field: DecisionField): Reading | null {
  if (b.type.typeId === NULL) {
    // a column of nulls only: read where nulls may be, as none is read
    const reads = field.nulls.reads;
    return reads === "value" || reads === "absent" ? { kind: "null" } : null;
  }
  const v = b.values;
  switch (kindOfRule(field.rule)) {
    case "text":
      if (plainUtf8(b)) {
        return { kind: "utf8", offsets: b.offsets, bytes: b.values };
      }
      if (textDictionary(b)) {
        return { kind: "dictionary", keys: b.values, entries: b.cache };
      }
      return null;
    case "number":
      if (b.type.typeId !== INT && b.type.typeId !== FLOAT) return null;
      if (v instanceof BigInt64Array || v instanceof BigUint64Array) {
        return {
          kind: "int64",
          halves: new Int32Array(v.buffer, v.byteOffset, 2 * b.length),
          unsigned: v instanceof BigUint64Array,
        };
      }
      if (v instanceof Float64Array) {
        return { kind: "number", values: v.subarray(0, b.length) };
      }
      // narrower numbers as doubles, the values the row reader reads (a
      // half float's bits are not its value: read by the rows)
      return (b.type.typeId === FLOAT && v instanceof Float32Array) ||
          (b.type.typeId === INT &&
            (v instanceof Int8Array || v instanceof Int16Array ||
              v instanceof Int32Array || v instanceof Uint8Array ||
              v instanceof Uint16Array || v instanceof Uint32Array))
        ? {
          kind: "number",
          values: Float64Array.from(v.subarray(0, b.length)),
        }
        : null;
    case "boolean":
      return b.type.typeId === BOOL
        ? { kind: "bool", bits: v as unknown as Uint8Array }
        : null;
  }
}

// For each row, whether a text column holds one of `values` (never when null).
function holdsOneOf(
  r: Reading,
  b: ArrowBatch,
  values: readonly string[],
): Uint8Array {
  const out = new Uint8Array(b.length);
  if (r.kind === "dictionary") {
    const hit = onceFor(
      r.entries,
      `holds ${JSON.stringify(values)}`,
      () => r.entries.map((e) => values.includes(e as string) ? 1 : 0),
    );
    for (let i = 0; i < b.length; i++) {
      out[i] = !isNull(b, i) && hit[r.keys[i]] === 1 ? 1 : 0;
    }
  } else if (r.kind === "utf8") {
    for (let i = 0; i < b.length; i++) {
      out[i] = !isNull(b, i) && values.includes(b.value(i) as string) ? 1 : 0;
    }
  }
  return out;
}

// The validity bitmap of a batch as flechette reads it (a row is null where
// its bit is 0), or null when no row is null.
function validityOf(b: ArrowBatch): Uint8Array | null {
  return b.nullCount > 0 && b.validity !== undefined ? b.validity : null;
}

// Whether every row below n of a validity bitmap is null.
function allNull(valid: Uint8Array, n: number): boolean {
  const whole = n >> 3;
  for (let j = 0; j < whole; j++) if (valid[j] !== 0) return false;
  for (let i = whole << 3; i < n; i++) {
    if ((valid[i >> 3] & (1 << (i & 7))) !== 0) return false;
  }
  return true;
}

// Mark in `bad` the rows whose value of `field` the schema refuses, alone
// (and, for a null rule `when`, with the other column's value in `when`).
// A row marked may pass flatDecision (a check here may be stricter than
// the schema); a row not marked passes it. Each kind of column has a loop
// of its own, which the engine compiles for that kind alone.
function markRefused(
  field: DecisionField,
  r: Reading | null,
  b: ArrowBatch | null,
  when: Uint8Array | null,
  bad: Uint8Array,
  n: number,
): void {
  const nulls = field.nulls.reads;
  const nullOk = nulls === "value" || nulls === "absent";
  const valid = b === null ? null : validityOf(b);
  if (
    r === null || b === null || r.kind === "null" ||
    (valid !== null && allNull(valid, n))
  ) { // all null: refused unless the null rule allows it
    if (!nullOk || when !== null) markNulls(null, when, nullOk, bad, n);
    return;
  }
  // a null is refused unless the null rule allows it; with `when`, a value
  // is refused where the other column says null
  if (valid !== null || when !== null) markNulls(valid, when, nullOk, bad, n);
  // then each value that is not null
  const rule = field.rule;
  switch (r.kind) {
    case "number":
      return markNumbers(
        r.values,
        rule.kind === "count" ? 0 : rule.kind === "amount" ? 1 : 2,
        valid,
        bad,
        n,
      );
    case "int64":
      return markWholes(
        r.halves,
        r.unsigned,
        rule.kind === "probability",
        valid,
        bad,
        n,
      );
    case "dictionary":
      return markKeys(
        r.keys,
        onceFor(
          r.entries,
          `satisfies ${field.column}`,
          () => Uint8Array.from(r.entries, (e) => satisfies(rule, e) ? 1 : 0),
        ),
        valid,
        bad,
        n,
      );
    case "utf8":
      if (rule.kind === "id") return markEmpty(r.offsets, valid, bad, n);
      if (rule.kind === "text") return;
      for (let i = 0; i < n; i++) {
        if (
          !satisfies(rule, b.value(i)) &&
          (valid === null || (valid[i >> 3] & (1 << (i & 7))) !== 0)
        ) bad[i] = 1;
      }
      return;
    case "bool":
      return;
  }
}

// Nulls (all rows when `valid` is null) refused unless allowed, and with
// `when` values where it says null.
function markNulls(
  valid: Uint8Array | null,
  when: Uint8Array | null,
  nullOk: boolean,
  bad: Uint8Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    if (valid === null || (valid[i >> 3] & (1 << (i & 7))) === 0) {
      if (when !== null ? when[i] === 0 : !nullOk) bad[i] = 1;
    } else if (when !== null && when[i] === 1) bad[i] = 1;
  }
}

// Numbers that are not whole and >= 0 (rule 0), finite and >= 0 (1), or in
// [0, 1] (2).
function markNumbers(
  x: Float64Array,
  rule: number,
  valid: Uint8Array | null,
  bad: Uint8Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    const v = x[i];
    if (
      !(rule === 0
        ? Number.isSafeInteger(v) && v >= 0
        : rule === 1
        ? v >= 0 && v < Infinity
        : v >= 0 && v <= 1) &&
      (valid === null || (valid[i >> 3] & (1 << (i & 7))) !== 0)
    ) bad[i] = 1;
  }
}

// 64-bit integers (two halves each) that are not safe and >= 0 (with
// `probability`, not 0 or 1).
function markWholes(
  h: Int32Array,
  unsigned: boolean,
  probability: boolean,
  valid: Uint8Array | null,
  bad: Uint8Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    const hi = unsigned ? h[2 * i + 1] >>> 0 : h[2 * i + 1];
    const ok = probability
      ? hi === 0 && (h[2 * i] >>> 0) <= 1
      : hi >= 0 && hi < SAFE_HI;
    if (!ok && (valid === null || (valid[i >> 3] & (1 << (i & 7))) !== 0)) {
      bad[i] = 1;
    }
  }
}

// Dictionary keys of a value not `ok`, or outside the dictionary.
function markKeys(
  keys: ArrayLike<number>,
  ok: Uint8Array,
  valid: Uint8Array | null,
  bad: Uint8Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    if (
      ok[keys[i]] !== 1 &&
      (valid === null || (valid[i >> 3] & (1 << (i & 7))) !== 0)
    ) bad[i] = 1;
  }
}

// Empty text.
function markEmpty(
  offsets: ArrayLike<number>,
  valid: Uint8Array | null,
  bad: Uint8Array,
  n: number,
): void {
  for (let i = 0; i < n; i++) {
    if (
      offsets[i + 1] === offsets[i] &&
      (valid === null || (valid[i >> 3] & (1 << (i & 7))) !== 0)
    ) bad[i] = 1;
  }
}

// murmur3's 32-bit block step
function mix(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  h ^= k;
  return (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

// Two 32-bit hashes of the bytes b[s, e), into bytesHash.
const bytesHash = new Int32Array(2);
function hashBytes(b: Uint8Array, s: number, e: number): void {
  let h1 = 0x9747b28c | 0;
  let h2 = 0x2545f491 | 0;
  let i = s;
  for (; i + 4 <= e; i += 4) {
    const k = b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
    h1 = mix(h1, k);
    h2 = mix(h2, k);
  }
  let k = e - s; // the length ends the text
  for (let shift = 8; i < e; i++, shift += 8) k ^= b[i] << shift;
  bytesHash[0] = fmix(mix(h1, k));
  bytesHash[1] = fmix(mix(h2, k));
}

const utf8Encoder = new TextEncoder();

// Mix the hashes of each row's text into h1 and h2 from `at` on (its
// bytes, or its dictionary value's bytes hashed once per value): equal
// texts mix alike, however they are stored.
function mixText(
  r: Reading,
  n: number,
  h1: Int32Array,
  h2: Int32Array,
  at: number,
): void {
  if (r.kind === "dictionary") {
    const [e1, e2] = onceFor(r.entries, "hash", () => {
      const e1 = new Int32Array(r.entries.length);
      const e2 = new Int32Array(r.entries.length);
      r.entries.forEach((e, j) => {
        const bytes = utf8Encoder.encode(typeof e === "string" ? e : "");
        hashBytes(bytes, 0, bytes.length);
        e1[j] = bytesHash[0];
        e2[j] = bytesHash[1];
      });
      return [e1, e2];
    });
    const keys = r.keys;
    for (let i = 0; i < n; i++) {
      h1[at + i] = mix(h1[at + i], e1[keys[i]]);
      h2[at + i] = mix(h2[at + i], e2[keys[i]]);
    }
  } else if (r.kind === "utf8") {
    const o = r.offsets;
    for (let i = 0; i < n; i++) {
      hashBytes(r.bytes, o[i], o[i + 1]);
      h1[at + i] = mix(h1[at + i], bytesHash[0]);
      h2[at + i] = mix(h2[at + i], bytesHash[1]);
    }
  }
}

// Mix each row's whole number (its two 32-bit halves, as an int64 column
// holds them) into h1 and h2 from `at` on; whether some row's is not 0.
function mixWhole(
  r: Reading,
  n: number,
  h1: Int32Array,
  h2: Int32Array,
  at: number,
): boolean {
  let nonzero = false;
  if (r.kind === "int64") {
    const h = r.halves;
    for (let i = 0; i < n; i++) {
      const lo = h[2 * i];
      const hi = h[2 * i + 1];
      h1[at + i] = fmix(mix(mix(h1[at + i], lo), hi));
      h2[at + i] = fmix(mix(mix(h2[at + i], lo), hi));
      if (lo !== 0 || hi !== 0) nonzero = true;
    }
  } else if (r.kind === "number") {
    const x = r.values;
    for (let i = 0; i < n; i++) {
      const t = x[i];
      const lo = t % TWO_32 | 0;
      const hi = Math.floor(t / TWO_32) | 0;
      h1[at + i] = fmix(mix(mix(h1[at + i], lo), hi));
      h2[at + i] = fmix(mix(mix(h2[at + i], lo), hi));
      if (t !== 0) nonzero = true;
    }
  }
  return nonzero;
}

// Whether some row below `n` of a text column holds other text than `text`.
function holdsOther(r: Reading, n: number, text: string): boolean {
  if (r.kind === "dictionary") {
    const other = onceFor(
      r.entries,
      `other than ${JSON.stringify(text)}`,
      () => r.entries.map((e) => e !== text),
    );
    for (let i = 0; i < n; i++) if (other[r.keys[i]]) return true;
  } else if (r.kind === "utf8") {
    const want = utf8Encoder.encode(text);
    const o = r.offsets;
    const bytes = r.bytes;
    for (let i = 0; i < n; i++) {
      const s = o[i];
      if (o[i + 1] - s !== want.length) return true;
      for (let j = 0; j < want.length; j++) {
        if (bytes[s + j] !== want[j]) return true;
      }
    }
  }
  return false;
}

// A number column's value in row i (not null) as the row reader reads it.
function numberAt(r: Reading, i: number): number {
  if (r.kind === "number") return r.values[i];
  if (r.kind !== "int64") return NaN;
  const lo = r.halves[2 * i] >>> 0;
  const hi = r.halves[2 * i + 1];
  return (r.unsigned ? hi >>> 0 : hi) * TWO_32 + lo;
}

// Each row's code for a text column: of its dictionary value (found once
// per value), or of its text.
function codesOf(
  r: Reading,
  b: ArrowBatch,
  n: number,
  what: string,
  code: (text: string) => number,
): Int32Array {
  const out = new Int32Array(n);
  if (r.kind === "dictionary") {
    const codes = onceFor(
      r.entries,
      what,
      () => r.entries.map((e) => typeof e === "string" ? code(e) : 0),
    );
    const keys = r.keys;
    for (let i = 0; i < n; i++) out[i] = codes[keys[i]] ?? 0;
  } else {
    for (let i = 0; i < n; i++) {
      const t = b.value(i);
      out[i] = typeof t === "string" ? code(t) : 0;
    }
  }
  return out;
}

// The rows below `n` in the order of their keys (32 bits), rows of equal
// keys in row order: a least-significant-digit radix sort, 11 bits a pass.
function radixOrder(keys: Int32Array, n: number): Uint32Array {
  let order = new Uint32Array(n);
  let next = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const count = new Uint32Array(2048);
  for (let shift = 0; shift < 32; shift += 11) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(keys[i] >>> shift) & 2047]++;
    let sum = 0;
    for (let d = 0; d < 2048; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const j = order[i];
      next[count[(keys[j] >>> shift) & 2047]++] = j;
    }
    [order, next] = [next, order];
  }
  return order;
}

/**
 * The first row below `n` whose key an earlier row has, and the first row
 * with that key: rows sorted by their hashes, and the rows of a hash
 * compared by `same`; or null when no key repeats.
 */
function firstRepeat(
  h1: Int32Array,
  h2: Int32Array,
  n: number,
  same: (a: number, b: number) => boolean,
): { row: number; first: number } | null {
  const order = radixOrder(h1, n);
  let found: { row: number; first: number } | null = null;
  for (let s = 0; s < n;) {
    let e = s + 1;
    while (e < n && h1[order[e]] === h1[order[s]]) e++;
    // a run of equal first hashes, in row order
    for (let k = s + 1; k < e; k++) {
      const row = order[k];
      if (found !== null && row >= found.row) break;
      for (let j = s; j < k; j++) {
        const first = order[j];
        if (h2[first] === h2[row] && same(first, row)) {
          found = { row, first };
          break;
        }
      }
    }
    s = e;
  }
  return found;
}

/**
 * The statistics of an Arrow table from its columns, as {@linkcode rowStats}
 * gives them to the last bit, with the same error for a file it refuses:
 * or null when a column's type is not one read here, or a check here
 * refuses a row the schema accepts (then the caller reads the rows).
 */
function columnarStats(
  table: ArrowTable,
  where: string,
  unit: DecisionUnit | undefined,
): ArrowDecisionStats | null {
  perDictionary = new WeakMap();
  const rows = table.numRows;
  const names = new Set(table.schema.fields.map((f) => f.name));
  const batches = new Map<string, ArrowBatch[]>();
  for (const c of names) batches.set(c, batchesOf(table, c));
  const counts = [...batches.values()].map((bs) => bs.map((b) => b.length));
  const lengths = counts[0] ?? [];
  if (counts.some((c) => c.join() !== lengths.join())) return null;
  const columns = DECISION_COLUMNS.map((c) =>
    names.has(c) ? table.getChild(c) : null
  );
  const row = Object.fromEntries(
    DECISION_COLUMNS.map((c) => [c, null]),
  ) as Record<DecisionColumn, unknown>;
  // the row at a table index, as the row reader reads it
  const rowAt = (g: number) => {
    for (let k = 0; k < DECISION_COLUMNS.length; k++) {
      const col = columns[k];
      row[DECISION_COLUMNS[k]] = col === null ? null : value(col.at(g));
    }
    return row;
  };
  const [runCol, modelCol, taskCol, trialCol] = [
    "runId",
    "modelId",
    "taskId",
    "trial",
  ].map((c) => table.getChild(c));
  // rows a and b hold the same key (called on equal hashes only)
  const same = (a: number, b: number) =>
    runCol.at(a) === runCol.at(b) && modelCol.at(a) === modelCol.at(b) &&
    taskCol.at(a) === taskCol.at(b) &&
    value(trialCol.at(a)) === value(trialCol.at(b));
  const models = new Interner();
  const classes = new Interner();
  // cells by (model, severity, action) and (gold, pred) ids, as rowStats
  const cells = new Map<number, Map<number, number>>();
  const list: Cell[] = [];
  const cellKeys: number[][] = []; // each cell's ids: model, severity, action, gold, pred
  const classIds = 2 ** 26; // as the JSONL reader's: gold and pred in one number
  const cellOf = new Int32Array(rows);
  const h1 = new Int32Array(rows).fill(0x1b873593);
  const h2 = new Int32Array(rows).fill(0x27d4eb2d);
  const severityCode = (s: string) => SEVERITY_IDS[s] ?? 0;
  const actionCode = (s: string) => s === "auto" ? 0 : 1;
  let firstRun: string | null = null;
  let repeatedTasks = false;
  let firstBad = -1;
  let dense: Int32Array | null = null;
  let denseCells = 0; // the cells in it
  let start = 0;
  for (let bi = 0; bi < lengths.length && firstBad < 0; bi++) {
    const n = lengths[bi];
    const readings = new Map<string, Reading>();
    const batch = (c: string) => batches.get(c)?.[bi] ?? null;
    for (const f of FIELDS) {
      const b = batch(f.column);
      if (b === null) continue;
      const r = readingOf(b, f);
      if (r === null) return null;
      readings.set(f.column, r);
    }
    const bad = new Uint8Array(n);
    for (const f of FIELDS) {
      const nr = f.nulls;
      let when: Uint8Array | null = null;
      if (nr.reads === "when") {
        const other = readings.get(nr.column);
        if (other === undefined) return null;
        when = holdsOneOf(other, batch(nr.column)!, nr.values);
      }
      markRefused(
        f,
        readings.get(f.column) ?? null,
        batch(f.column),
        when,
        bad,
        n,
      );
    }
    // the rows before the first refused one count
    const m = bad.indexOf(1) < 0 ? n : bad.indexOf(1);
    if (m < n) firstBad = start + m;
    const read = (c: string) => readings.get(c)!;
    const runR = read("runId");
    const modelR = read("modelId");
    const trialR = read("trial");
    mixText(runR, m, h1, h2, start);
    mixText(modelR, m, h1, h2, start);
    mixText(read("taskId"), m, h1, h2, start);
    firstRun ??= m > 0 ? String(runCol.at(start)) : null;
    if (mixWhole(trialR, m, h1, h2, start)) repeatedTasks = true;
    if (!repeatedTasks && m > 0 && holdsOther(runR, m, firstRun!)) {
      repeatedTasks = true;
    }
    const code = (c: string, what: string, of: (s: string) => number) =>
      codesOf(read(c), batch(c)!, m, what, of);
    const model = code("modelId", "model", (s) => models.ofString(s));
    const severity = code("severity", "severity", severityCode);
    const action = code("action", "action", actionCode);
    const gold = code("trueClass", "class", (s) => classes.ofString(s));
    const pred = code("predClass", "class", (s) => classes.ofString(s));
    if (classes.strings.length > classIds) {
      throw new InputRangeError(
        `${where}: more than ${classIds} distinct classes`,
      );
    }
    // each row's cell: by a table of codes while it is small, else by
    // maps; the table is made again when a batch brings new ids
    const classCount = classes.strings.length;
    const codes = models.strings.length * 16 * classCount * classCount;
    if (dense === null || dense.length !== codes) {
      dense = codes <= 1 << 22 ? new Int32Array(codes).fill(-1) : null;
      denseCells = 0;
    }
    const codeOf = (
      model: number,
      severity: number,
      action: number,
      gold: number,
      pred: number,
    ) =>
      (((model * 8 + severity) * 2 + action) * classCount + gold) *
        classCount + pred;
    if (dense !== null) {
      for (let id = denseCells; id < list.length; id++) {
        const k = cellKeys[id];
        dense[codeOf(k[0], k[1], k[2], k[3], k[4])] = id;
      }
    }
    const cellFor = (i: number): number => {
      const outer = (model[i] * 8 + severity[i]) * 2 + action[i];
      let byClass = cells.get(outer);
      if (byClass === undefined) cells.set(outer, byClass = new Map());
      const inner = gold[i] * classIds + pred[i];
      let id = byClass.get(inner);
      if (id === undefined) {
        id = list.length;
        list.push(emptyCell(
          models.strings[model[i]],
          SEVERITIES[severity[i]],
          classes.strings[gold[i]],
          classes.strings[pred[i]],
          action[i] === 0 ? "auto" : "escalate",
        ));
        cellKeys.push([model[i], severity[i], action[i], gold[i], pred[i]]);
        byClass.set(inner, id);
      }
      return id;
    };
    for (let i = 0; i < m; i++) {
      if (dense === null) {
        cellOf[start + i] = cellFor(i);
        continue;
      }
      const k = codeOf(model[i], severity[i], action[i], gold[i], pred[i]);
      let id = dense[k];
      if (id < 0) dense[k] = id = cellFor(i);
      cellOf[start + i] = id;
    }
    denseCells = list.length;
    const pR = read("pCorrect");
    const pValid = validityOf(batch("pCorrect")!);
    const parseValid = validityOf(batch("parseOk")!);
    const parseBits = (read("parseOk") as { bits: Uint8Array }).bits;
    // counts by cell id in typed arrays, added to the cells once a batch
    const ns = new Int32Array(list.length);
    const missing = new Int32Array(list.length);
    const failures = new Int32Array(list.length);
    const sums = list.map((c) => c.pError);
    const px = pR.kind === "number" ? pR.values : null;
    for (let i = 0; i < m; i++) {
      const id = cellOf[start + i];
      ns[id]++;
      if (
        pR.kind === "null" ||
        (pValid !== null && (pValid[i >> 3] & (1 << (i & 7))) === 0)
      ) missing[id]++;
      else sums[id].add(px !== null ? px[i] : numberAt(pR, i));
      if (
        (parseBits[i >> 3] & (1 << (i & 7))) === 0 &&
        (parseValid === null || (parseValid[i >> 3] & (1 << (i & 7))) !== 0)
      ) failures[id]++;
    }
    list.forEach((c, id) => {
      c.n += ns[id];
      c.pMissing += missing[id];
      c.parseFailures += failures[id];
    });
    start += n;
  }
  const limit = firstBad < 0 ? rows : firstBad;
  const repeat = firstRepeat(h1, h2, limit, same);
  if (repeat !== null) {
    const at = `${where}: row ${repeat.row + 1}`;
    throw duplicateDecisionError(
      flatDecision(rowAt(repeat.row), at),
      at,
      `row ${repeat.first + 1}`,
    );
  }
  if (firstBad >= 0) {
    flatDecision(rowAt(firstBad), `${where}: row ${firstBad + 1}`); // throws the loaders' message
    return null; // a check here stricter than the schema's: read the rows
  }
  const clusterCol = names.has("cluster") ? table.getChild("cluster") : null;
  const u = unitOfRows(
    rows,
    (g) => taskCol.at(g) as string,
    clusterCol === null
      ? null
      : (g) => value(clusterCol.at(g)) as string | null,
    where,
    unit,
  );
  if (repeatedTasks || u === "cluster") {
    // a unit's decisions are the rows of its (modelId, taskId or cluster)
    const ids = u === "cluster" ? clusterCol! : taskCol;
    countUnitSizes(list, rows, (g) => list[cellOf[g]], (g) => ids.at(g));
  }
  return { stats: statsOfCells(list), decisions: rows, unit: u };
}

// Arrow type ids of temporal types (Date 8, Time 9, Timestamp 10, Interval 11, Duration 18)
const TEMPORAL_TYPE_IDS = new Map<number, string>([
  [8, "date"],
  [9, "time"],
  [10, "timestamp"],
  [11, "interval"],
  [18, "duration"],
]);

// A cell as flatDecision wants it: undefined is null, and a safe bigint is a
// number already (so that flatDecision need not copy the row).
function value(v: unknown): unknown {
  return v === undefined
    ? null
    : typeof v === "bigint" && v <= MAX_SAFE && v >= MIN_SAFE
    ? Number(v)
    : v;
}

/**
 * Check flat columns row by row into Decision records, refusing duplicates
 * and, once every row passed, a row that breaks a cluster rule
 * (`ClusterCheck`). Shared by the columnar readers; rows are labelled `row
 * N` (1-based).
 *
 * @param cols One array per column of {@linkcode DECISION_COLUMNS}.
 * @param rows Number of rows.
 * @param where Error prefix naming the file.
 * @returns The decisions, in row order.
 * @throws {TypeError | RangeError} As {@linkcode flatDecision}, or on a duplicate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionsFromColumns } from "./arrow.ts";
 *
 * const one = (v: unknown) => [v];
 * const cols = {
 *   runId: one("r"), modelId: one("m"), taskId: one("t"), trial: one(0), severity: one("LOW"),
 *   trueClass: one("MATCH"), predClass: one("MATCH"), parseOk: one(true), pCorrect: one(1),
 *   action: one("auto"), costCompleteness: one("not_applicable"), costUsd: one(null),
 *   outcome: one("resolved"), tokensIn: one(null), tokensOut: one(null), latencyMs: one(null),
 * };
 * assert.equal(decisionsFromColumns(cols, 1, "x")[0].pCorrect, 1);
 * ```
 */
export function decisionsFromColumns(
  cols:
    & Readonly<
      Record<Exclude<DecisionColumn, OptionalColumn>, ArrayLike<unknown>>
    >
    & Readonly<Partial<Record<OptionalColumn, ArrayLike<unknown>>>>,
  rows: number,
  where: string,
): Decision[] {
  const out: Decision[] = new Array(rows);
  const seen = new Map<string, number>();
  const clusters = new ClusterCheck(where, "row");
  const arrays = DECISION_COLUMNS.map((c) =>
    (cols as Readonly<Record<string, ArrayLike<unknown> | undefined>>)[c]
  );
  // one row, refilled for each record: flatDecision keeps nothing of it, and
  // a row whose shape never changes keeps this loop fast
  const row = Object.fromEntries(
    DECISION_COLUMNS.map((c) => [c, null]),
  ) as Record<DecisionColumn, unknown>;
  const n = arrays.length;
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < n; k++) {
      const a = arrays[k];
      row[DECISION_COLUMNS[k]] = a === undefined ? null : value(a[i]);
    }
    const at = `${where}: row ${i + 1}`;
    const d = flatDecision(row, at);
    const key = decisionKey(d);
    const first = seen.get(key);
    if (first !== undefined) {
      throw duplicateDecisionError(d, at, `row ${first}`);
    }
    seen.set(key, i + 1);
    clusters.add(d.taskId, d.cluster, i + 1);
    out[i] = d;
  }
  clusters.finish();
  return out;
}

/**
 * Read an Arrow IPC run export into an Arquero decision table.
 *
 * The result has the same columns and values as
 * {@linkcode loadDecisionsJsonl} gives for the same decisions.
 *
 * @param path Path of the `.arrow`, `.feather` or `.ipc` file.
 * @returns The decision table.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | TypeError | RangeError} As {@linkcode parseDecisionsArrow}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDecisionsArrow, writeDecisionsArrow } from "./arrow.ts";
 * import { loadDecisionsJsonl } from "./load_decisions.ts";
 *
 * const t = await loadDecisionsJsonl(
 *   new URL("../../data/examples/model_ab.jsonl", import.meta.url).pathname,
 * );
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/ab.arrow`;
 * await writeDecisionsArrow(path, t);
 * assert.deepEqual((await loadDecisionsArrow(path)).objects(), t.objects());
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadDecisionsArrow(path: string): Promise<ColumnTable> {
  return decisionTable(
    parseDecisionsArrow(await Deno.readFile(path), { path }),
  );
}

/** Arrow types of the flat layout, as {@linkcode decisionsToArrow} writes them. */
function arrowTypes(): Record<DecisionColumn, DataType> {
  const types = {} as Record<DecisionColumn, DataType>;
  for (const f of FIELDS) {
    types[f.column as DecisionColumn] = arrowTypeOf(f);
  }
  return types;
}

/** The Arrow type of a field: from its rule's kind, and its storage hint. */
function arrowTypeOf(f: DecisionField): DataType {
  switch (kindOfRule(f.rule)) {
    case "number":
      return f.rule.kind === "count" ? int64() : float64();
    case "boolean":
      return bool();
    case "text":
      return f.repeats === true ? dictionary(utf8()) : utf8();
  }
}

/**
 * Encode a decision table as Arrow IPC (file format) bytes.
 *
 * Columns are written with fixed types whatever their values, from each
 * field's rule in the Decision schema: text as UTF-8 (dictionary-encoded
 * where the schema says its values repeat: model and class ids, the closed
 * sets), counts (`trial`, tokens) as Int64, other numbers (probabilities,
 * dollars, latency) as Float64, booleans (`parseOk`) as Bool; `null` stays
 * null.
 *
 * @param table A decision table with the columns of {@linkcode DECISION_COLUMNS}.
 * @returns Arrow IPC file bytes.
 * @throws {TypeError} When the table lacks a column or has an extra one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionsToArrow } from "./arrow.ts";
 * import { decisionTable } from "./load_decisions.ts";
 *
 * assert.ok(decisionsToArrow(decisionTable([])).byteLength > 0);
 * ```
 */
export function decisionsToArrow(table: ColumnTable): Uint8Array {
  checkDecisionColumns(table.columnNames(), "Cannot write Arrow run export");
  return aq.toArrowIPC(table.select(...DECISION_COLUMNS), {
    format: "file",
    types: arrowTypes(),
  });
}

/**
 * Write a decision table to an Arrow IPC file.
 *
 * @param path Destination path (`.arrow`, `.feather` or `.ipc`).
 * @param table A decision table.
 * @throws {TypeError} As {@linkcode decisionsToArrow}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDecisionsArrow, writeDecisionsArrow } from "./arrow.ts";
 * import { decisionTable } from "./load_decisions.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/empty.arrow`;
 * await writeDecisionsArrow(path, decisionTable([]));
 * assert.equal((await loadDecisionsArrow(path)).numRows(), 0);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeDecisionsArrow(
  path: string,
  table: ColumnTable,
): Promise<void> {
  await Deno.writeFile(path, decisionsToArrow(table));
}
