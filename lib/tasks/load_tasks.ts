/**
 * Reading task files (canonical JSONL, one task per line) into tasks and
 * Arquero tables, with errors that name the file, the line and the field.
 *
 * @module
 */

import * as aq from "arquero";
import type { ColumnTable } from "arquero";
import { createHash } from "node:crypto";
import { describeIssue } from "../_zod_issue.ts";
import { GOLD_SCHEMAS, STATE_SCHEMAS, TASK_SCHEMA } from "./_task_schema.ts";
import { canonicalJson } from "./canonical_json.ts";
import type { Domain, Task } from "./task.ts";
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
} from "../input_error.ts";
import { refuseDuplicateKeys } from "../_json.ts";
import { openInput, regularFile } from "../read/_regular_file.ts";

/** Options for parsing a task file. */
export interface ParseTasksOptions {
  /** File path shown in errors. Default: `"<inline>"`. */
  path?: string;
}

function fail(
  where: string,
  issue: Parameters<typeof describeIssue>[0],
  value: unknown,
  prefix: string,
  cause: unknown,
): never {
  const message = `${where}: ${describeIssue(issue, value, prefix)}`;
  throw issue.code === "invalid_type" || issue.code === "unrecognized_keys"
    ? new InputTypeError(message, { cause })
    : new InputRangeError(message, { cause });
}

/** Parse one line's text into a task, or throw naming `where`. */
function parseLine(line: string, where: string): Task {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new InputSyntaxError(`${where}: invalid JSON: ${detail}`, {
      cause: error,
    });
  }
  refuseDuplicateKeys(line, value, () => where);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InputSyntaxError(
      `${where}: expected a JSON object, got ${
        Array.isArray(value) ? "an array" : JSON.stringify(value)
      }`,
    );
  }
  const top = TASK_SCHEMA.safeParse(value);
  if (!top.success) fail(where, top.error.issues[0], value, "", top.error);
  const domain = top.data.domain as Domain;
  const raw = value as { state: unknown; gold: unknown };
  const state = STATE_SCHEMAS[domain].safeParse(raw.state);
  if (!state.success) {
    fail(where, state.error.issues[0], raw.state, "state", state.error);
  }
  const gold = GOLD_SCHEMAS[domain].safeParse(raw.gold);
  if (!gold.success) {
    fail(where, gold.error.issues[0], raw.gold, "gold", gold.error);
  }
  return value as Task;
}

/** Split text into lines with their numbers, skipping blank lines. */
function* lines(text: string): Generator<[string, number]> {
  let start = 0;
  let lineNo = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    lineNo++;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.trim() !== "") yield [line, lineNo];
  }
}

/**
 * Parse a task file's text into tasks.
 *
 * Every non-blank line must be one task (docs/formats.md) whose state and gold
 * match its domain's schema. Unknown fields are errors, and so is a second
 * task with the same id. Whether the labels are right is not checked here;
 * that is the verifier's job (`checkTask`). Cost is O(size of the text).
 *
 * @param text The file's text.
 * @param options Where the text came from.
 * @returns The tasks, in file order.
 * @throws {SyntaxError} When a line is not valid JSON or not an object.
 * @throws {RangeError} When a value is out of range (an unknown severity, a
 * malformed amount or date) or a task id repeats.
 * @throws {TypeError} When a field is missing, unknown or of the wrong type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateTask } from "./generate.ts";
 * import { parseTasksJsonl } from "./load_tasks.ts";
 * import { taskLine } from "./signature.ts";
 *
 * const t = generateTask("reconciliation", 7, 0);
 * assert.deepEqual(parseTasksJsonl(taskLine(t) + "\n"), [t]);
 * const bad = taskLine({ ...t, gold: { ...t.gold, severity: "SEVERE" as never } });
 * assert.throws(() => parseTasksJsonl(bad, { path: "a.jsonl" }), {
 *   name: "RangeError",
 *   message: 'Cannot load task file a.jsonl: line 1: gold.severity must be one of LOW, MEDIUM, HIGH, CRITICAL, got "SEVERE"',
 * });
 * ```
 */
export function parseTasksJsonl(
  text: string,
  options: ParseTasksOptions = {},
): Task[] {
  const path = options.path ?? "<inline>";
  const out: Task[] = [];
  const seen = new Map<string, number>();
  for (const [line, lineNo] of lines(text)) {
    const where = `Cannot load task file ${path}: line ${lineNo}`;
    const task = parseLine(line, where);
    const first = seen.get(task.id);
    if (first !== undefined) {
      throw new InputRangeError(
        `${where}: duplicate task id ${
          JSON.stringify(task.id)
        } (first on line ${first})`,
      );
    }
    seen.set(task.id, lineNo);
    out.push(task);
  }
  return out;
}

/** The end of a streamed read: line count and the file's SHA-256. */
export interface StreamSummary {
  /** Tasks read. */
  tasks: number;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
}

/**
 * Read a task file as a stream, one task at a time, with bounded memory.
 *
 * The iterator's return value gives the task count and the SHA-256 of the
 * file's bytes (the suite hash, for a canonical file). Task ids are
 * checked for repeats only with `checkIds` (that needs memory in the number
 * of tasks).
 *
 * @param path Path of the `.jsonl` file.
 * @param options `checkIds`: refuse a repeated task id, as {@linkcode parseTasksJsonl} does.
 * @returns An async iterator of tasks.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | RangeError | TypeError} As {@linkcode parseTasksJsonl}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { streamTasksJsonl } from "./load_tasks.ts";
 *
 * const it = streamTasksJsonl(new URL("../../data/tasks/settlement_777_300.jsonl", import.meta.url).pathname);
 * let n = 0;
 * let r = await it.next();
 * while (!r.done) { n++; r = await it.next(); }
 * assert.equal(n, 300);
 * assert.equal(r.value.sha256.length, 64);
 * ```
 */
export async function* streamTasksJsonl(
  path: string,
  options: { checkIds?: boolean } = {},
): AsyncGenerator<Task, StreamSummary, undefined> {
  const seen = options.checkIds ? new Map<string, number>() : null;
  const checked = (task: Task, where: string, lineNo: number): Task => {
    if (seen === null) return task;
    const first = seen.get(task.id);
    if (first !== undefined) {
      throw new InputRangeError(
        `${where}: duplicate task id ${
          JSON.stringify(task.id)
        } (first on line ${first})`,
      );
    }
    seen.set(task.id, lineNo);
    return task;
  };
  await regularFile(path, `Cannot load task file ${path}`);
  using file = await openInput(path);
  const hash = createHash("sha256");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pending = "";
  let lineNo = 0;
  let count = 0;
  const buf = new Uint8Array(1 << 20);
  while (true) {
    const n = await file.read(buf);
    const done = n === null;
    let chunk = "";
    if (!done) {
      const bytes = buf.subarray(0, n);
      hash.update(bytes);
      try {
        chunk = decoder.decode(bytes, { stream: true });
      } catch (error) {
        throw new InputSyntaxError(
          `Cannot load task file ${path}: line ${lineNo + 1}: not valid UTF-8`,
          { cause: error },
        );
      }
    }
    pending += chunk;
    let start = 0;
    while (true) {
      const end = pending.indexOf("\n", start);
      if (end < 0) break;
      lineNo++;
      const line = pending.slice(start, end);
      start = end + 1;
      if (line.trim() === "") continue;
      count++;
      const where = `Cannot load task file ${path}: line ${lineNo}`;
      yield checked(parseLine(line, where), where, lineNo);
    }
    pending = pending.slice(start);
    if (done) break;
  }
  if (pending.trim() !== "") {
    lineNo++;
    count++;
    const where = `Cannot load task file ${path}: line ${lineNo}`;
    yield checked(parseLine(pending, where), where, lineNo);
  }
  return { tasks: count, sha256: hash.digest("hex") };
}

function flatten(
  prefix: string,
  value: unknown,
  row: Record<string, unknown>,
): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      flatten(`${prefix}_${k}`, v, row);
    }
  } else if (Array.isArray(value)) {
    row[prefix] = canonicalJson(value);
  } else {
    row[prefix] = value;
  }
}

/**
 * Lay tasks out as an Arquero table with flattened columns.
 *
 * Top-level fields keep their names; `gold` and `state` fields are
 * flattened with underscores (`gold_severity`, `state_ledger_amount`);
 * arrays (prior bookings, watch lists) become canonical JSON text. A field
 * that a task lacks (another domain's, or inside a null statement) is
 * `null`.
 *
 * @param tasks Tasks.
 * @returns The table, one row per task.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateSuite } from "./generate.ts";
 * import { taskTable } from "./load_tasks.ts";
 *
 * const t = taskTable(generateSuite("settlement", { seed: 7, n: 4 }).tasks);
 * assert.equal(t.numRows(), 4);
 * assert.ok(t.columnNames().includes("gold_exposureClass"));
 * assert.ok(t.columnNames().includes("state_sell_amount"));
 * ```
 */
export function taskTable(tasks: readonly Task[]): ColumnTable {
  const rows = tasks.map((t) => {
    const row: Record<string, unknown> = {
      id: t.id,
      domain: t.domain,
      seed: t.seed,
      index: t.index,
      difficulty: t.difficulty,
      signature: t.signature,
      prompt: t.prompt,
    };
    flatten("gold", t.gold, row);
    flatten("state", t.state, row);
    return row;
  });
  const names: string[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    for (const k of Object.keys(r)) {
      if (!seen.has(k)) {
        seen.add(k);
        names.push(k);
      }
    }
  }
  const cols: Record<string, unknown[]> = {};
  for (const k of names) cols[k] = rows.map((r) => r[k] ?? null);
  return aq.table(cols);
}

/**
 * Read a task file into an Arquero table with flattened columns.
 *
 * @param path Path of the `.jsonl` file.
 * @returns The task table (see {@linkcode taskTable}).
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | RangeError | TypeError} As {@linkcode parseTasksJsonl}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadTasksJsonl } from "./load_tasks.ts";
 *
 * const t = await loadTasksJsonl(
 *   new URL("../../data/tasks/reconciliation_777_300.jsonl", import.meta.url).pathname,
 * );
 * assert.equal(t.numRows(), 300);
 * ```
 */
export async function loadTasksJsonl(path: string): Promise<ColumnTable> {
  return taskTable(await readTasksJsonl(path));
}

/**
 * Read a task file into task records.
 *
 * @param path Path of the `.jsonl` file.
 * @returns The tasks.
 * @throws {SyntaxError | RangeError | TypeError} As {@linkcode parseTasksJsonl}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readTasksJsonl } from "./load_tasks.ts";
 *
 * const tasks = await readTasksJsonl(
 *   new URL("../../data/tasks/payment_repair_777_300.jsonl", import.meta.url).pathname,
 * );
 * assert.equal(tasks[0].id, "payment_repair-777-0");
 * ```
 */
export async function readTasksJsonl(path: string): Promise<Task[]> {
  // streamed: the file is never one string (no size limit but the tasks)
  const out: Task[] = [];
  for await (const task of streamTasksJsonl(path, { checkIds: true })) {
    out.push(task);
  }
  return out;
}
