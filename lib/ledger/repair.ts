/**
 * Torn-tail repair: the one explicit operation that changes a ledger file
 * other than by appending.
 *
 * A crash in the middle of an append can leave a last line without its
 * newline. Verification reports it as `torn`, and appending is refused until
 * it is dealt with. `repairTornTail` copies the torn bytes to a side file
 * (`<ledger>.torn-<offset>`), fsyncs it, and only then cuts them from the
 * ledger: nothing is lost, and no complete line is touched.
 *
 * @module
 */

import { dirname } from "node:path";
import { acquireLock } from "./_lock.ts";
import { syncDir } from "./_sync_dir.ts";
import { verifyLedgerFile } from "./verify.ts";
import { InputRangeError } from "../input_error.ts";

/** What a repair did. */
export interface RepairResult {
  /** Whether bytes were moved aside; `false` when the ledger was already valid. */
  readonly repaired: boolean;
  /** Records in the ledger after the repair. */
  readonly records: number;
  /** Hash of the last record after the repair. */
  readonly head: string;
  /** The side file holding the torn bytes, or `null`. */
  readonly sideFile: string | null;
  /** Bytes moved to the side file. */
  readonly tornBytes: number;
}

/** Options for {@linkcode repairTornTail}. */
export interface RepairOptions {
  /** Milliseconds to wait for a writer's lock. Default: 10,000. */
  lockWaitMs?: number;
}

/**
 * Move a torn last line to a side file and cut it from the ledger.
 *
 * @param path Path of the ledger.
 * @param options The lock wait.
 * @returns What was done; a valid ledger is left untouched.
 * @throws {RangeError} When the ledger has a problem other than a torn last
 * line (an edit, a deletion, a truncation): those are evidence, never repaired.
 * @throws {Deno.errors.Busy} When a writer holds the lock for longer than the wait.
 * A side file is never overwritten: when `<ledger>.torn-<offset>` exists
 * (the same tear repaired before), the bytes go to `<ledger>.torn-<offset>.1`,
 * `.2`, and so on.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openLedger } from "./writer.ts";
 * import { repairTornTail } from "./repair.ts";
 * import { verifyLedgerFile } from "./verify.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/ledger.jsonl`;
 * {
 *   await using w = await openLedger(path);
 *   await w.append([{ kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *     slaHours: 24, dueAt: "2026-03-02T09:00:00Z" }]);
 * }
 * await Deno.writeTextFile(path, '{"hash":"ab', { append: true }); // a crash mid-append
 * assert.equal((await verifyLedgerFile(path)).problem, "torn");
 * const r = await repairTornTail(path);
 * assert.equal(await Deno.readTextFile(r.sideFile!), '{"hash":"ab');
 * assert.equal((await verifyLedgerFile(path)).valid, true);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function repairTornTail(
  path: string,
  options: RepairOptions = {},
): Promise<RepairResult> {
  const lock = await acquireLock(path, "repair", {
    waitMs: options.lockWaitMs,
  });
  try {
    const v = await verifyLedgerFile(path);
    if (v.valid) {
      return {
        repaired: false,
        records: v.records,
        head: v.head,
        sideFile: null,
        tornBytes: 0,
      };
    }
    if (v.problem !== "torn") {
      throw new InputRangeError(
        `Cannot repair ${v.reason}; only a torn last line is repaired, everything else is evidence and stays as it is`,
      );
    }
    const size = (await Deno.stat(path)).size;
    // a side file is never overwritten: a second tear at the same offset
    // (a crash, a repair, the same crash again) gets the next free name
    let sideFile = `${path}.torn-${v.goodBytes}`;
    const torn = new Uint8Array(size - v.goodBytes);
    {
      using f = await Deno.open(path, { read: true });
      await f.seek(v.goodBytes, Deno.SeekMode.Start);
      let off = 0;
      while (off < torn.length) {
        const n = await f.read(torn.subarray(off));
        if (n === null) break;
        off += n;
      }
    }
    let side: Deno.FsFile | null = null;
    for (let n = 1; side === null; n++) {
      try {
        side = await Deno.open(sideFile, { write: true, createNew: true });
      } catch (error) {
        if (!(error instanceof Deno.errors.AlreadyExists) || n > 1000) {
          throw error;
        }
        sideFile = `${path}.torn-${v.goodBytes}.${n}`;
      }
    }
    {
      using _side = side;
      let off = 0;
      while (off < torn.length) off += await side.write(torn.subarray(off));
      await side.sync();
    }
    await syncDir(dirname(sideFile));
    {
      using f = await Deno.open(path, { write: true });
      await f.truncate(v.goodBytes);
      await f.sync();
    }
    return {
      repaired: true,
      records: v.records,
      head: v.head,
      sideFile,
      tornBytes: torn.length,
    };
  } finally {
    lock.release();
  }
}
