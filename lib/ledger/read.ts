/**
 * Reading ledger files: lines into typed entries, with errors that name the
 * file, the line and the field.
 *
 * Reading does not check the hash chain; `verifyLedger` does, and
 * `loadLedger` runs both.
 *
 * @module
 */

import { checkLedgerRecord, type LedgerEntry } from "./record.ts";
import {
  type LedgerVerification,
  verifyLedgerFile,
  type VerifyOptions,
} from "./verify.ts";
import { InputSyntaxError, InputTypeError } from "../input_error.ts";
import { refuseDuplicateKeys } from "../_json.ts";
import { ledgerFileInfo } from "./_ledger_file.ts";

/** Options for {@linkcode ledgerEntries}. */
export interface ParseLedgerOptions {
  /** File path shown in errors. Default: `"<inline>"`. */
  path?: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Parse ledger bytes into entries, one line at a time.
 *
 * @param bytes The ledger's bytes.
 * @param options Path for messages.
 * @returns A generator of entries; cost O(size), memory O(one line).
 * @throws {SyntaxError} When a line is not JSON or not an object.
 * @throws {TypeError | RangeError} When a field is missing or invalid; the
 * message names file, line and field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerText } from "./chain.ts";
 * import { ledgerEntries } from "./read.ts";
 *
 * const r = { kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *   slaHours: 24, dueAt: "2026-03-02T09:00:00Z" } as const;
 * const bytes = new TextEncoder().encode(ledgerText([r]).text);
 * assert.deepEqual([...ledgerEntries(bytes)].map((e) => e.record), [r]);
 * const bad = new TextEncoder().encode(ledgerText([{ ...r, slaHours: "1" as unknown as number }]).text);
 * assert.throws(() => [...ledgerEntries(bad, { path: "l.jsonl" })],
 *   /Cannot read ledger l\.jsonl: line 1: record\.slaHours must be number, got "1"/);
 * ```
 */
export function* ledgerEntries(
  bytes: Uint8Array,
  options: ParseLedgerOptions = {},
): Generator<LedgerEntry> {
  const path = options.path ?? "<inline>";
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pos = 0;
  let line = 0;
  while (pos < bytes.length) {
    let nl = bytes.indexOf(10, pos);
    if (nl < 0) nl = bytes.length;
    yield entryOfLine(bytes.subarray(pos, nl), ++line, path, decoder);
    pos = nl + 1;
  }
}

/** Options for {@linkcode ledgerEntriesFile}. */
export interface ReadLedgerFileOptions {
  /** Bytes read at a time. Default: 8 MiB. */
  chunkBytes?: number;
  /** Path shown in errors, when it differs from the path read. Default: the path read. */
  shownAs?: string;
  /**
   * Bytes to read from the start: the records a verification vouched for
   * (its `goodBytes`), leaving out an unacknowledged tail. Default: the
   * whole file.
   */
  endAt?: number;
}

/**
 * Parse a ledger file into entries, streaming: the file is read a chunk at a
 * time, so its size is limited by the disk, not by memory or V8's string
 * limit. The same checks and messages as {@linkcode ledgerEntries}.
 *
 * @param path Path of the ledger (also shown in errors).
 * @param options The read size.
 * @returns An async generator of entries; memory O(chunk + one line).
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | TypeError | RangeError} As {@linkcode ledgerEntries}, naming file, line and field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerText } from "./chain.ts";
 * import { ledgerEntriesFile } from "./read.ts";
 *
 * const r = { kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *   slaHours: 24, dueAt: "2026-03-02T09:00:00Z" } as const;
 * const path = `${await Deno.makeTempDir()}/l.jsonl`;
 * await Deno.writeTextFile(path, ledgerText([r, { ...r, decisionId: "d2" }]).text);
 * const seqs: number[] = [];
 * for await (const e of ledgerEntriesFile(path, { chunkBytes: 7 })) seqs.push(e.seq);
 * assert.deepEqual(seqs, [1, 2]);
 * ```
 */
export async function* ledgerEntriesFile(
  path: string,
  options: ReadLedgerFileOptions = {},
): AsyncGenerator<LedgerEntry> {
  const chunkBytes = options.chunkBytes ?? 8 << 20;
  const shown = options.shownAs ?? path;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  await ledgerFileInfo(path, `Cannot read ledger ${shown}`);
  using file = await Deno.open(path, { read: true });
  let carry = new Uint8Array(0);
  let line = 0;
  let left = options.endAt ?? Infinity;
  while (left > 0) {
    const buf = new Uint8Array(Math.min(chunkBytes, left));
    const n = await file.read(buf);
    if (n === null) break;
    left -= n;
    let bytes = buf.subarray(0, n);
    if (carry.length > 0) {
      const joined = new Uint8Array(carry.length + n);
      joined.set(carry);
      joined.set(bytes, carry.length);
      bytes = joined;
    }
    let pos = 0;
    for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, pos)) {
      yield entryOfLine(bytes.subarray(pos, nl), ++line, shown, decoder);
      pos = nl + 1;
    }
    // a line longer than a chunk grows the carry until its newline arrives
    carry = bytes.slice(pos);
  }
  if (carry.length > 0) yield entryOfLine(carry, ++line, shown, decoder);
}

// One ledger line's bytes (without the newline) into an entry.
function entryOfLine(
  bytes: Uint8Array,
  line: number,
  path: string,
  decoder: TextDecoder,
): LedgerEntry {
  const where = `Cannot read ledger ${path}: line ${line}`;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch (error) {
    throw new InputSyntaxError(`${where}: not valid UTF-8`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputSyntaxError(
      `${where}: invalid JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
  refuseDuplicateKeys(text, value, () => where);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InputSyntaxError(`${where}: expected a JSON object`);
  }
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (k !== "hash" && k !== "prev" && k !== "record" && k !== "seq") {
      throw new InputTypeError(
        `${where}: unknown field ${JSON.stringify(k)}`,
      );
    }
  }
  if (!Number.isSafeInteger(o.seq) || (o.seq as number) < 1) {
    throw new InputTypeError(
      `${where}: seq must be an integer >= 1, got ${JSON.stringify(o.seq)}`,
    );
  }
  for (const k of ["hash", "prev"] as const) {
    if (typeof o[k] !== "string" || !HEX64.test(o[k] as string)) {
      throw new InputTypeError(
        `${where}: ${k} must be 64 lowercase hex digits, got ${
          JSON.stringify(o[k])
        }`,
      );
    }
  }
  return {
    seq: o.seq as number,
    prev: o.prev as string,
    hash: o.hash as string,
    record: checkLedgerRecord(o.record, where),
  };
}

/** A ledger read from a file: its verification and, when valid, its entries. */
export interface LoadedLedger {
  /** What verification found. */
  readonly verification: LedgerVerification;
  /** The entries, in order; empty when verification failed. */
  readonly entries: readonly LedgerEntry[];
}

/**
 * Read a ledger file, verify its chain (against its head file when it has
 * one), and parse its entries when it is valid, up to the record the head
 * file acknowledges (an unacknowledged tail is in `verification`, not in the
 * entries).
 *
 * @param path Path of the ledger.
 * @param options An anchor other than the head file.
 * @returns The verification, and the entries when valid. An invalid ledger
 * is reported, not thrown: the caller decides what a failed check means.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | TypeError | RangeError} When a verified line still
 * does not hold a valid record (one written by something other than lossbook).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLedger } from "./read.ts";
 * import { openLedger } from "./writer.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/l.jsonl`;
 * {
 *   await using w = await openLedger(path);
 *   await w.append([{ kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *     slaHours: 24, dueAt: "2026-03-02T09:00:00Z" }]);
 * }
 * const { verification, entries } = await loadLedger(path);
 * assert.equal(verification.valid, true);
 * assert.equal(entries.length, 1);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadLedger(
  path: string,
  options: Pick<VerifyOptions, "anchor"> = {},
): Promise<LoadedLedger> {
  // both passes stream the file: verification, then the entries
  const verification = await verifyLedgerFile(path, {
    anchor: options.anchor === undefined ? "head-file" : options.anchor,
  });
  if (!verification.valid) return { verification, entries: [] };
  const entries: LedgerEntry[] = [];
  // an unacknowledged tail is left out: the entries end at the anchor
  const endAt = verification.goodBytes;
  for await (const e of ledgerEntriesFile(path, { endAt })) entries.push(e);
  return { verification, entries };
}
