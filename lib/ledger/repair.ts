/**
 * Tail repair: the one explicit operation that changes a ledger file other
 * than by appending (which does the same set-aside on its own).
 *
 * A crash in the middle of an append can leave records, and a last line
 * without its newline, past the record the head file acknowledges.
 * `repairTornTail` copies everything past that record to a side file
 * (`<ledger>.torn-<offset>`), fsyncs it, and only then cuts it from the
 * ledger: nothing is lost, and no acknowledged line is touched. A ledger
 * without a head file has only its torn last line set aside.
 *
 * @module
 */

import { acquireLock } from "./_lock.ts";
import { setAsideTail } from "./_set_aside.ts";
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
 * Move an unacknowledged tail (or, without a head file, a torn last line) to
 * a side file and cut it from the ledger.
 *
 * @param path Path of the ledger.
 * @param options The lock wait.
 * @returns What was done; a valid ledger is left untouched.
 * @throws {RangeError} When the ledger has a problem within its acknowledged
 * records (an edit, a deletion, a truncation): those are evidence, never repaired.
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
 * assert.equal((await verifyLedgerFile(path)).unacknowledged?.bytes, 11);
 * const r = await repairTornTail(path);
 * assert.equal(await Deno.readTextFile(r.sideFile!), '{"hash":"ab');
 * assert.equal((await verifyLedgerFile(path)).unacknowledged, null);
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
    const v = await verifyLedgerFile(lock.realPath);
    const tail = v.valid ? v.unacknowledged : null;
    if (v.valid && tail === null) {
      return {
        repaired: false,
        records: v.records,
        head: v.head,
        sideFile: null,
        tornBytes: 0,
      };
    }
    if (!v.valid && v.problem !== "torn") {
      throw new InputRangeError(
        `Cannot repair ${v.reason}; only a tail its head file never acknowledged (or, without a head file, a torn last line) is set aside, everything else is evidence and stays as it is`,
      );
    }
    const moved = await setAsideTail(lock.realPath, v.goodBytes);
    return {
      repaired: true,
      records: v.records,
      head: v.head,
      sideFile: moved.sideFile,
      tornBytes: moved.bytes,
    };
  } finally {
    lock.release();
  }
}
