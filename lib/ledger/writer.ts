/**
 * The ledger writer: append-only, durable, one writer at a time.
 *
 * `openLedger` takes the ledger's lock (an OS advisory lock on the file
 * itself; a second writer waits a short bound, then gets a clear error),
 * verifies what is already there, and opens the file for appending only. Each
 * `append` writes its lines in one write, then fsyncs the file, then
 * replaces the head file (`<ledger>.head`, the last seq and hash) through a
 * temporary file, fsync, rename and a directory fsync, so that a later
 * truncation is caught. A batch is all or nothing: when its write fails (a
 * full disk, a read-only file system), the file is cut back to the last
 * acknowledged record. What a crash leaves past that record (records and a
 * torn line never acknowledged to anyone) is set aside to a side file by
 * the next writer, under the lock; no acknowledged line is ever rewritten.
 *
 * @module
 */

import { dirname } from "node:path";
import { acquireLock } from "./_lock.ts";
import { syncDir } from "./_sync_dir.ts";
import { entryLine, LEDGER_GENESIS, type LedgerHead } from "./chain.ts";
import type { LedgerEntry, LedgerRecord } from "./record.ts";
import {
  type HeadFile,
  headFilePath,
  headFileText,
  type LedgerVerification,
  readHeadFile,
  verifyLedgerFile,
} from "./verify.ts";
import { InputRangeError, InputTypeError } from "../input_error.ts";
import { onPath } from "../io_error.ts";
import { setAsideTail, unacknowledgedNotice } from "./_set_aside.ts";

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
  /** Its real path, symlinks resolved; its head file sits beside it. */
  readonly realPath: string;
  /** Things to tell the user, such as an old lock file removed. */
  readonly notices: readonly string[];
  /** What verifying the existing ledger found when it was opened. */
  readonly verification: LedgerVerification;
  /** The head after the last append (and the adoption, when there was one). */
  readonly head: HeadFile;
  /**
   * Append records: write their lines in one write, fsync, update the head
   * file. After a failed write the writer refuses further appends.
   */
  append(records: readonly LedgerRecord[]): Promise<LedgerAppend>;
  /** Release the lock and close the file. Safe to call twice. */
  close(): Promise<void>;
}

/** The existing ledger does not verify; appending would bury the damage. */
export class LedgerDamagedError extends RangeError {
  /** What verification found. */
  readonly verification: LedgerVerification;
  /**
   * Build the error.
   *
   * @param message The message, naming the ledger and the first bad record.
   * @param verification What verification found.
   */
  constructor(message: string, verification: LedgerVerification) {
    super(message);
    this.name = "LedgerDamagedError";
    this.verification = verification;
  }
}

/** Options for {@linkcode openLedger}. */
export interface OpenLedgerOptions {
  /**
   * Adopt an existing ledger that has records but no head file: trust the
   * chain as it stands and record the adoption, with this time (ISO 8601,
   * UTC), in the new head file. Default: `null`, such a ledger is refused,
   * since a truncation of it cannot be detected.
   */
  adoptAt?: string | null;
  /** Milliseconds to wait for another writer's lock. Default: 10,000. */
  lockWaitMs?: number;
}

// marks an error raised after the new head file took the old one's place
const HEAD_RENAMED = Symbol("headRenamed");

async function writeHeadFile(path: string, head: HeadFile): Promise<void> {
  const final = headFilePath(path);
  const tmp = `${final}.tmp`;
  try {
    {
      using f = await Deno.open(tmp, {
        write: true,
        create: true,
        truncate: true,
      });
      const bytes = new TextEncoder().encode(headFileText(head));
      let off = 0;
      while (off < bytes.length) off += await f.write(bytes.subarray(off));
      await f.sync();
    }
    await Deno.rename(tmp, final);
  } catch (error) {
    // the old head file stands; a partial new one would only hold space
    await Deno.remove(tmp).catch(() => {});
    throw onPath(error, `Cannot write head file ${final}`);
  }
  // the rename is durable only once the directory is synced; a crash before
  // it leaves the old head, which the ledger still reaches
  try {
    await syncDir(dirname(final));
  } catch (error) {
    throw Object.assign(onPath(error, `Cannot sync the folder of ${final}`), {
      [HEAD_RENAMED]: true,
    });
  }
}
/**
 * Open a ledger for appending, creating it when it does not exist.
 *
 * The writer takes an OS advisory lock (flock) on the ledger file itself, so
 * writers through any path or symlink exclude each other, and a writer that
 * dies releases it. Under the lock, the existing file is verified (O(size))
 * against its head file: appending to a ledger that is edited, truncated or
 * torn would bury the damage, so that is refused. A ledger with records but
 * no head file is unanchored (a truncation of it cannot be detected); it is
 * refused unless `adoptAt` is given, which anchors it as it stands and
 * records the adoption in the head file. Bytes past the record the head file
 * acknowledges (a writer died before its head update) are set aside to
 * `<ledger>.torn-<offset>`, and a notice says so.
 *
 * @param path Path of the ledger (`.jsonl`).
 * @param options Adoption of an unanchored ledger and the lock wait.
 * @returns The writer, holding the ledger's lock.
 * @throws {Deno.errors.Busy} When another writer holds the lock for longer
 * than the wait; the message names the ledger.
 * @throws {LedgerDamagedError} When the existing ledger does not verify; the
 * message names the first bad record.
 * @throws {RangeError} When the ledger is unanchored and not adopted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openLedger } from "./writer.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/ledger.jsonl`;
 * const opened = { kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *   slaHours: 24, dueAt: "2026-03-02T09:00:00Z" } as const;
 * const w = await openLedger(path);
 * await assert.rejects(() => openLedger(path, { lockWaitMs: 50 }), /another writer holds its lock/);
 * const { first, last } = await w.append([opened, { ...opened, decisionId: "d2" }]);
 * assert.deepEqual([first, last, w.head.seq], [1, 2, 2]);
 * await w.close();
 * {
 *   await using again = await openLedger(path);
 *   assert.equal(again.head.seq, 2);
 * }
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function openLedger(
  path: string,
  options: OpenLedgerOptions = {},
): Promise<LedgerWriter> {
  const lock = await acquireLock(path, "append to", {
    create: true,
    waitMs: options.lockWaitMs,
  });
  const real = lock.realPath;
  const file = lock.file;
  const notices = [...lock.notices];
  let head: HeadFile;
  let verification: LedgerVerification;
  // length of the acknowledged records: where a failed append cuts back to
  let acknowledged: number;
  try {
    let anchor = await readHeadFile(real);
    if (anchor === null && lock.created) {
      // a ledger lossbook creates is anchored from its first byte, so a
      // crash during its first append leaves a ledger that can be checked
      anchor = { seq: 0, hash: LEDGER_GENESIS };
      await writeHeadFile(real, anchor);
    }
    const v = await verifyLedgerFile(real, { anchor });
    verification = v;
    if (v.valid && v.unacknowledged !== null) {
      // never reported to anyone: set aside, so the append goes on
      const { sideFile } = await setAsideTail(real, v.goodBytes);
      notices.push(unacknowledgedNotice(path, v, sideFile));
    }
    acknowledged = v.goodBytes;
    if (!v.valid) {
      throw new LedgerDamagedError(
        `Cannot append to ${v.reason}${
          v.problem === "torn"
            ? ""
            : "; appending would bury the damage, so nothing was written"
        }`,
        v,
      );
    }
    head = { seq: v.records, hash: v.head };
    if (anchor === null) {
      if (v.records > 0) {
        const adoptAt = options.adoptAt ?? null;
        if (adoptAt === null) {
          throw new InputRangeError(
            `Cannot append to ledger ${path}: it has ${v.records} records but no head file ${
              headFilePath(real)
            }, so a truncation of it cannot be detected; if it is complete, adopt it as it stands (ledger append --adopt), which records the adoption in a new head file`,
          );
        }
        head = {
          ...head,
          adopted: { at: adoptAt, seq: v.records, hash: v.head },
        };
        await writeHeadFile(real, head);
      }
    } else {
      if (anchor.adopted !== undefined) {
        head = { ...head, adopted: anchor.adopted };
      }
    }
  } catch (error) {
    lock.release();
    throw error;
  }
  let closed = false;
  let broken: Error | null = null;
  const writer: LedgerWriter = {
    path,
    realPath: real,
    notices,
    verification,
    get head() {
      return head;
    },
    async append(records) {
      if (closed) {
        throw new InputTypeError(
          `Cannot append to ledger ${path}: writer is closed`,
        );
      }
      if (broken !== null) {
        throw new InputTypeError(
          `Cannot append to ledger ${path}: an earlier append failed (${broken.message}); verify the ledger and reopen it`,
        );
      }
      const lines: string[] = [];
      const entries: LedgerEntry[] = [];
      let h: HeadFile = head;
      for (const r of records) {
        const { entry, line } = entryLine(r, h);
        lines.push(line);
        entries.push(entry);
        h = {
          seq: entry.seq,
          hash: entry.hash,
          ...(head.adopted === undefined ? {} : { adopted: head.adopted }),
        };
      }
      const bytes = new TextEncoder().encode(lines.join(""));
      try {
        let off = 0;
        while (off < bytes.length) off += await file.write(bytes.subarray(off));
        await file.sync();
        if (bytes.length > 0) await writeHeadFile(real, h);
      } catch (error) {
        // all or nothing: the head file still names the last acknowledged
        // record, so cut the file back to it, and the same append works
        // once the device has room again
        // (unless the new head file is already in place: then the batch is
        // acknowledged, and only the durability of its rename is in doubt)
        const renamed = (error as Record<symbol, unknown>)[HEAD_RENAMED];
        const cut = renamed
          ? "; the batch is written, but its head file may not survive a power loss"
          : await file.truncate(acknowledged).then(() => file.sync()).then(
            () => "; nothing of this batch was kept",
            (e) =>
              `; cutting the ledger back to its last acknowledged record failed too (${e})`,
          );
        broken = onPath(error, `Cannot append to ledger ${path}`);
        broken.message += cut;
        throw broken;
      }
      const first = head.seq + 1;
      acknowledged += bytes.length;
      head = h;
      return { first, last: h.seq, head: h, bytes: bytes.length, entries };
    },
    close() {
      if (!closed) {
        closed = true;
        lock.release();
      }
      return Promise.resolve();
    },
    [Symbol.asyncDispose]() {
      return writer.close();
    },
  };
  return writer;
}
