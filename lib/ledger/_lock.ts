// Private: the single-writer lock of a ledger, an OS advisory lock (flock)
// held on the ledger file itself. It follows the file's identity, so a
// writer through a symlink or another path waits for it too, and it dies
// with its process: a crashed writer leaves nothing to clean up. A second
// writer polls for a short bound, then gives up with a message naming the
// ledger.

import { dirname } from "node:path";
import { syncDir } from "./_sync_dir.ts";
import { ledgerFileInfo } from "./_ledger_file.ts";

/** Milliseconds a writer waits for the lock by default. */
export const LOCK_WAIT_MS = 10_000;

/** Path of the lock file earlier versions kept next to a ledger. */
export function legacyLockFilePath(path: string): string {
  return `${path}.lock`;
}

/** A held ledger lock. */
export interface LedgerLock {
  /** The ledger, opened for reading and appending; the lock is held on it. */
  readonly file: Deno.FsFile;
  /** The ledger's real path, symlinks resolved: where its head file lives. */
  readonly realPath: string;
  /** Whether this call created the ledger (an empty file). */
  readonly created: boolean;
  /** Things the caller should tell the user (an old lock file removed). */
  readonly notices: readonly string[];
  /** Release the lock and close the file. Safe to call twice. */
  release(): void;
}

/** Options for {@linkcode acquireLock}. */
export interface AcquireLockOptions {
  /** Create the ledger when it does not exist. Default: `false`. */
  create?: boolean;
  /** Milliseconds to wait for another writer. Default: {@linkcode LOCK_WAIT_MS}. */
  waitMs?: number;
}

/**
 * Take the lock on the ledger at `path` for `purpose` ("append to",
 * "repair"), waiting up to `waitMs` for another writer to finish.
 */
export async function acquireLock(
  path: string,
  purpose: string,
  options: AcquireLockOptions = {},
): Promise<LedgerLock> {
  const create = options.create ?? false;
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const existed =
    (await ledgerFileInfo(path, `Cannot ${purpose} ledger ${path}`, create)) !==
      null;
  const file = await Deno.open(path, { read: true, append: true, create });
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    file.close(); // closing the descriptor releases the flock
  };
  try {
    const started = Date.now();
    while (!(await file.tryLock(true))) {
      if (Date.now() - started >= waitMs) {
        throw new Deno.errors.Busy(
          `Cannot ${purpose} ledger ${path}: another writer holds its lock (waited ${
            (waitMs / 1000).toFixed(1)
          } s); try again when it has finished`,
        );
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    const realPath = await Deno.realPath(path);
    if (!existed) await syncDir(dirname(realPath));
    const notices: string[] = [];
    for (const p of new Set([path, realPath].map(legacyLockFilePath))) {
      let held: string;
      try {
        held = (await Deno.readTextFile(p)).trim().slice(0, 200);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) continue;
        throw error;
      }
      await Deno.remove(p);
      await syncDir(dirname(p));
      notices.push(
        `removed the lock file ${p} left by an earlier version of lossbook${
          held === "" ? "" : ` (${JSON.stringify(held)})`
        }; ledgers are now locked by the operating system and leave no lock file`,
      );
    }
    return { file, realPath, created: !existed, notices, release };
  } catch (error) {
    release();
    throw error;
  }
}
