// Private: the check that a path names a regular file, shared by the run
// loaders, the DuckDB readers and the ledger's streaming readers.
import { InputTypeError } from "../input_error.ts";

/**
 * Whether a path names the standard input or an open file descriptor
 * (`/dev/stdin`, `/dev/fd/N`), which lossbook reads as a stream: what a
 * shell's process substitution, `<(zstdcat run.jsonl.zst)`, gives.
 *
 * @param path The path as given.
 * @returns Whether it is read as a stream.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isStreamPath } from "./_regular_file.ts";
 *
 * assert.equal(isStreamPath("/dev/fd/63"), true);
 * assert.equal(isStreamPath("/dev/stdin"), true);
 * assert.equal(isStreamPath("/dev/tty"), false);
 * ```
 */
export function isStreamPath(path: string): boolean {
  return path === "/dev/stdin" || /^\/dev\/fd\/\d+$/.test(path);
}

/**
 * Whether a path names this process's standard input (`/dev/stdin`,
 * `/dev/fd/0`), which Deno opens by path only with every permission: it is
 * read through `Deno.stdin` instead.
 *
 * @param path The path as given.
 * @returns Whether it is the standard input.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isStdinPath } from "./_regular_file.ts";
 *
 * assert.equal(isStdinPath("/dev/fd/0"), true);
 * assert.equal(isStdinPath("/dev/fd/63"), false);
 * ```
 */
export function isStdinPath(path: string): boolean {
  return path === "/dev/stdin" || path === "/dev/fd/0";
}

/**
 * Check that a path names a file before it is opened for reading: DuckDB's
 * readers take a directory or a pattern for many files, and opening a
 * directory succeeds on Linux and fails only at the first read, with a
 * message that names no file. A FIFO or a device would block the read or
 * never end, so it is refused before it is opened, except the streams of
 * {@linkcode isStreamPath}. lossbook reads one file per path.
 *
 * @param path The path.
 * @param where Error prefix, e.g. `Cannot load run export a.parquet`.
 * @returns The file's `Deno.FileInfo`; null for the standard input.
 * @throws {Deno.errors.NotFound} When nothing is there.
 * @throws {Deno.errors.IsADirectory} When it is a directory.
 * @throws {TypeError} When it is a FIFO, a device or a socket (an input error).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { regularFile } from "./_regular_file.ts";
 *
 * await assert.rejects(() => regularFile(Deno.cwd(), "Cannot load run export ."), /is a directory/);
 * await assert.rejects(() => regularFile("/dev/null", "Cannot load run export /dev/null"), /is a character device, not a file/);
 * ```
 */
export async function regularFile(
  path: string,
  where: string,
): Promise<Deno.FileInfo | null> {
  // the standard input is a stream by definition, and Deno cannot stat it
  if (isStdinPath(path)) return null;
  const info = await Deno.stat(path);
  if (info.isDirectory) {
    throw new Deno.errors.IsADirectory(
      `${where}: is a directory, not a file`,
    );
  }
  if (!info.isFile && !isStreamPath(path)) {
    const kind = info.isFifo
      ? "a FIFO (named pipe)"
      : info.isCharDevice
      ? "a character device"
      : info.isBlockDevice
      ? "a block device"
      : info.isSocket
      ? "a socket"
      : "an unknown kind of file";
    throw new InputTypeError(
      `${where}: is ${kind}, not a file; a stream is read only as /dev/stdin or /dev/fd/N, e.g. <(zstdcat run.jsonl.zst)`,
    );
  }
  return info;
}

/** A file opened for reading from its start to its end. */
export interface InputReader extends Disposable {
  /** Read into `buffer`; the bytes read, or null at the end. */
  read(buffer: Uint8Array): Promise<number | null>;
}

/**
 * Open an input for reading in order: a file, or the standard input
 * (through `Deno.stdin`, see {@linkcode isStdinPath}), which is left open.
 *
 * @param path The path.
 * @returns A reader; dispose of it when done.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openInput } from "./_regular_file.ts";
 *
 * using file = await openInput("deno.json");
 * assert.ok((await file.read(new Uint8Array(1))) === 1);
 * ```
 */
export async function openInput(path: string): Promise<InputReader> {
  if (isStdinPath(path)) {
    return { read: (b) => Deno.stdin.read(b), [Symbol.dispose]() {} };
  }
  return await Deno.open(path, { read: true });
}
