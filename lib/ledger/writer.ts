/**
 * The ledger writer: append-only, durable, one writer at a time.
 *
 * `openLedger` takes the ledger's lock (a second writer gets a clear error),
 * verifies what is already there, and opens the file for appending only. Each
 * `append` writes its lines in one write, then fsyncs the file, then
 * replaces the head file (`<ledger>.head`, the last seq and hash) through a
 * temporary file, fsync and rename, so that a later truncation is caught. No
 * function here rewrites or removes a line that was written; a torn last line
 * left by a crash is moved aside only by `repairTornTail`.
 *
 * @module
 */

import { acquireLock } from "./_lock.ts";
import { entryLine, type LedgerHead } from "./chain.ts";
import type { LedgerEntry, LedgerRecord } from "./record.ts";
import { headFilePath, verifyLedgerFile } from "./verify.ts";

/** What one append wrote. */
export interface LedgerAppend {
  /** Seq of the first record written. */
  readonly first: number;
  /** Seq of the last record written (`first - 1` when nothing was). */
  readonly last: number;
  /** The new head. */
  readonly head: LedgerHead;
  /** Bytes written. */
  readonly bytes: number;
  /** The entries written, with their hashes. */
  readonly entries: readonly LedgerEntry[];
}

/** An open ledger. Close it (or use `await using`) to release the lock. */
export interface LedgerWriter extends AsyncDisposable {
  /** Path of the ledger. */
  readonly path: string;
  /** The head after the last append. */
  readonly head: LedgerHead;
  /**
   * Append records: write their lines in one write, fsync, update the head
   * file. After a failed write the writer refuses further appends.
   */
  append(records: readonly LedgerRecord[]): Promise<LedgerAppend>;
  /** Release the lock and close the file. Safe to call twice. */
  close(): Promise<void>;
}

async function writeHeadFile(path: string, head: LedgerHead): Promise<void> {
  const final = headFilePath(path);
  const tmp = `${final}.tmp`;
  {
    using f = await Deno.open(tmp, {
      write: true,
      create: true,
      truncate: true,
    });
    const bytes = new TextEncoder().encode(
      `{"hash":"${head.hash}","seq":${head.seq}}\n`,
    );
    let off = 0;
    while (off < bytes.length) off += await f.write(bytes.subarray(off));
    await f.sync();
  }
  await Deno.rename(tmp, final);
}

/**
 * Open a ledger for appending, creating it when it does not exist.
 *
 * The existing file is verified first (O(size)), against its head file when
 * there is one: appending to a ledger that is edited, truncated or torn would
 * bury the damage, so that is refused.
 *
 * @param path Path of the ledger (`.jsonl`).
 * @returns The writer, holding the ledger's lock.
 * @throws {Deno.errors.AlreadyExists} When another writer holds the lock; the
 * message names the lock file and its holder.
 * @throws {RangeError} When the existing ledger does not verify; the message
 * names the first bad record.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openLedger } from "./writer.ts";
 *
 * const path = `${await Deno.makeTempDir()}/ledger.jsonl`;
 * const opened = { kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *   slaHours: 24, dueAt: "2026-03-02T09:00:00Z" } as const;
 * const w = await openLedger(path);
 * await assert.rejects(() => openLedger(path), /another writer holds its lock/);
 * const { first, last } = await w.append([opened, { ...opened, decisionId: "d2" }]);
 * assert.deepEqual([first, last, w.head.seq], [1, 2, 2]);
 * await w.close();
 * await using again = await openLedger(path);
 * assert.equal(again.head.seq, 2);
 * ```
 */
export async function openLedger(path: string): Promise<LedgerWriter> {
  const release = await acquireLock(path, "append to");
  let file: Deno.FsFile;
  let head: LedgerHead;
  try {
    let exists = true;
    try {
      await Deno.stat(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      exists = false;
    }
    if (exists) {
      const v = await verifyLedgerFile(path);
      if (!v.valid) {
        throw new RangeError(
          `Cannot append to ${v.reason}${
            v.problem === "torn"
              ? ""
              : "; appending would bury the damage, so nothing was written"
          }`,
        );
      }
      head = { seq: v.records, hash: v.head };
    } else {
      head = { seq: 0, hash: "0".repeat(64) };
    }
    file = await Deno.open(path, { append: true, create: true });
  } catch (error) {
    await release();
    throw error;
  }
  let closed = false;
  let broken: Error | null = null;
  const writer: LedgerWriter = {
    path,
    get head() {
      return head;
    },
    async append(records) {
      if (closed) {
        throw new TypeError(
          `Cannot append to ledger ${path}: writer is closed`,
        );
      }
      if (broken !== null) {
        throw new TypeError(
          `Cannot append to ledger ${path}: an earlier append failed (${broken.message}); verify the ledger and reopen it`,
        );
      }
      const lines: string[] = [];
      const entries: LedgerEntry[] = [];
      let h = head;
      for (const r of records) {
        const { entry, line } = entryLine(r, h);
        lines.push(line);
        entries.push(entry);
        h = { seq: entry.seq, hash: entry.hash };
      }
      const bytes = new TextEncoder().encode(lines.join(""));
      try {
        let off = 0;
        while (off < bytes.length) off += await file.write(bytes.subarray(off));
        await file.sync();
        if (bytes.length > 0) await writeHeadFile(path, h);
      } catch (error) {
        broken = error as Error;
        throw error;
      }
      const first = head.seq + 1;
      head = h;
      return { first, last: h.seq, head: h, bytes: bytes.length, entries };
    },
    async close() {
      if (closed) return;
      closed = true;
      file.close();
      await release();
    },
    [Symbol.asyncDispose]() {
      return writer.close();
    },
  };
  return writer;
}
