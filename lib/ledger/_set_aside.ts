// Private: move a ledger's tail to a side file, the one change to a ledger
// other than appending. The tail is copied and made durable first, then cut
// from the ledger, so a crash at any point loses nothing: at worst the bytes
// are in both places, and the next set-aside copies them again.

import { dirname } from "node:path";
import { syncDir } from "./_sync_dir.ts";
import type { LedgerVerification } from "./verify.ts";
import { onPath } from "../io_error.ts";

/** Where a tail went. */
export interface SetAside {
  /** The side file holding the bytes. */
  readonly sideFile: string;
  /** Bytes moved. */
  readonly bytes: number;
}

/**
 * Copy the bytes of `path` from `offset` to its end into a new side file
 * `<path>.torn-<offset>` (or `.torn-<offset>.1`, `.2`, … when that exists:
 * a side file is never overwritten), fsync it and its folder, then cut the
 * ledger at `offset` and fsync it. The caller holds the ledger's lock.
 */
export async function setAsideTail(
  path: string,
  offset: number,
): Promise<SetAside> {
  let sideFile = `${path}.torn-${offset}`;
  let side: Deno.FsFile | null = null;
  for (let n = 1; side === null; n++) {
    try {
      side = await Deno.open(sideFile, { write: true, createNew: true });
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists) || n > 1000) {
        throw onPath(error, `Cannot create side file ${sideFile}`);
      }
      sideFile = `${path}.torn-${offset}.${n}`;
    }
  }
  let bytes = 0;
  try {
    using _side = side;
    using from = await Deno.open(path, { read: true });
    await from.seek(offset, Deno.SeekMode.Start);
    const buf = new Uint8Array(1 << 20);
    for (let n = await from.read(buf); n !== null; n = await from.read(buf)) {
      let off = 0;
      while (off < n) off += await side.write(buf.subarray(off, n));
      bytes += n;
    }
    await side.sync();
  } catch (error) {
    // the ledger is untouched; a partial copy would only hold space
    await Deno.remove(sideFile).catch(() => {});
    throw onPath(
      error,
      `Cannot set aside the tail of ledger ${path} to ${sideFile}`,
    );
  }
  try {
    await syncDir(dirname(sideFile));
    using f = await Deno.open(path, { write: true });
    await f.truncate(offset);
    await f.sync();
  } catch (error) {
    throw onPath(error, `Cannot cut ledger ${path} back to ${offset} bytes`);
  }
  return { sideFile, bytes };
}

/**
 * The notice for an unacknowledged tail: how many bytes past which record,
 * and what they hold. `sideFile` is where they went, or `null` when they
 * were left in place (verify changes nothing).
 */
export function unacknowledgedNotice(
  path: string,
  v: LedgerVerification,
  sideFile: string | null,
): string {
  const t = v.unacknowledged;
  if (t === null) return "";
  const held = `${t.records} complete record${
    t.records === 1 ? "" : "s"
  } among them`;
  return `${path}: the ${t.bytes} bytes after record ${v.records} were never acknowledged by its head file (${held}: an interrupted append); ${
    sideFile === null
      ? "the next 'ledger append' or 'ledger repair' sets them aside to a side file"
      : `set aside to ${sideFile}`
  }`;
}
