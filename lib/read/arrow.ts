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
  unflattenRow,
} from "../decision/schema.ts";
import { decisionTupleKey } from "../_tuple_key.ts";
import type { StatsRow } from "../metrics/sufficient_stats.ts";
import { type Cell, emptyCell, statsOfCells } from "./_stats_builder.ts";
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

/**
 * The flat columns of an Arrow IPC run export, with its whole-file checks
 * done (the magic at both ends, the IPC data, the column set, no temporal
 * column, valid UTF-8); each row is still to be checked.
 *
 * @param bytes The file's bytes.
 * @param where Error prefix naming the file.
 * @returns One array per column of {@linkcode DECISION_COLUMNS}, and the rows.
 * @throws {SyntaxError | TypeError} As {@linkcode parseDecisionsArrow}.
 */
function arrowColumns(
  bytes: Uint8Array,
  where: string,
): { cols: Record<DecisionColumn, ArrayLike<unknown>>; rows: number } {
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
  let table: ReturnType<typeof tableFromIPC>;
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
  const cols = {} as Record<DecisionColumn, ArrayLike<unknown>>;
  const names = new Set(table.schema.fields.map((f) => f.name));
  for (const c of DECISION_COLUMNS) {
    cols[c] = names.has(c)
      ? table.getChild(c).toArray() as ArrayLike<unknown>
      : new Array(table.numRows).fill(null);
  }
  // the Arrow reader replaces invalid UTF-8 by U+FFFD; refuse it instead
  for (const c of DECISION_COLUMNS) {
    const col = cols[c];
    for (let i = 0; i < table.numRows; i++) {
      const v = col[i];
      if (typeof v === "string" && v.includes("\uFFFD")) {
        throw new InputSyntaxError(
          `${where}: row ${
            i + 1
          }: ${c} is not valid UTF-8 (it decodes to U+FFFD)`,
        );
      }
    }
  }
  return { cols, rows: table.numRows };
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
}

/**
 * Sufficient statistics straight from an Arrow IPC run export's columns,
 * without a Decision kept per row or a table.
 *
 * The result equals `decisionStats(decisionTable(parseDecisionsArrow(bytes)))`
 * to the last bit (the sums of 1 - pCorrect are exact and rounded once, see
 * lib/math/exact_sum.ts), and a file that reader refuses is refused with
 * the same error: every row passes {@linkcode flatDecision} in row order,
 * and a repeated (runId, modelId, taskId, trial) is found by hashing the
 * keys and comparing the rows of equal hashes. When some model has a
 * second runId or a trial other than 0, a second pass over the columns
 * counts each task's trials for `taskShare`. Cost is O(rows).
 *
 * @param bytes The file's bytes.
 * @param options Where the bytes came from.
 * @returns The statistics and the number of decisions.
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
  options: ParseDecisionsOptions = {},
): ArrowDecisionStats {
  const where = `Cannot load run export ${options.path ?? "<inline>"}`;
  const { cols, rows } = arrowColumns(bytes, where);
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
  if (repeatedTasks) {
    // a task's trials are the rows of its (modelId, taskId): every row
    // passed the checks, so the columns hold its strings as they are
    const trials = new Map<string, number>();
    const task = (i: number) => `${modelId[i]}\u0000${taskId[i]}`;
    for (let i = 0; i < rows; i++) {
      trials.set(task(i), (trials.get(task(i)) ?? 0) + 1);
    }
    for (const c of list) c.trials = new Map();
    for (let i = 0; i < rows; i++) {
      const k = trials.get(task(i))!;
      const t = cellOf[i].trials!;
      t.set(k, (t.get(k) ?? 0) + 1);
    }
  }
  return { stats: statsOfCells(list), decisions: rows };
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
 * Check flat columns row by row into Decision records, refusing duplicates.
 * Shared by the columnar readers; rows are labelled `row N` (1-based).
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
    out[i] = d;
  }
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
