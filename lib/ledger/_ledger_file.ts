// Private: the check that a ledger's path names a regular file. A ledger is
// appended to, locked, cut back and read to its end: a FIFO would hang the
// read, a device such as /dev/null would swallow the records, and a symlink
// loop names nothing. Each is refused at once, naming the path.

import { InputTypeError } from "../input_error.ts";

function kindOf(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a folder";
  if (info.isFifo) return "a FIFO (named pipe)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

/**
 * The `Deno.FileInfo` of the ledger at `path` (symlinks followed), or
 * `null` when nothing is there and `missingOk`. `what` starts the messages,
 * for example `Cannot append to ledger l.jsonl`.
 *
 * @throws {Deno.errors.NotFound} When nothing is there and not `missingOk`.
 * @throws {Deno.errors.IsADirectory} When it is a folder.
 * @throws {TypeError} When it is a FIFO, a device, a socket or a symlink loop.
 */
export async function ledgerFileInfo(
  path: string,
  what: string,
  missingOk = false,
): Promise<Deno.FileInfo | null> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound && missingOk) return null;
    if (error instanceof Deno.errors.FilesystemLoop) {
      throw new InputTypeError(
        `${what}: the path is a symlink loop (too many levels of symbolic links); a ledger is a regular file`,
        { cause: error },
      );
    }
    throw error;
  }
  if (info.isDirectory) {
    throw new Deno.errors.IsADirectory(
      `${what}: is a directory, not a file`,
    );
  }
  if (!info.isFile) {
    throw new InputTypeError(
      `${what}: it is ${kindOf(info)}; a ledger is a regular file`,
    );
  }
  return info;
}
