// Private: the check that a path names a regular file, shared by the run
// loaders, the DuckDB readers and the ledger's streaming readers.

/**
 * Check that a path names a file before it is opened for reading: DuckDB's
 * readers take a directory or a pattern for many files, and opening a
 * directory succeeds on Linux and fails only at the first read, with a
 * message that names no file. lossbook reads one file per path.
 *
 * @param path The path.
 * @param where Error prefix, e.g. `Cannot load run export a.parquet`.
 * @returns The file's `Deno.FileInfo`.
 * @throws {Deno.errors.NotFound} When nothing is there.
 * @throws {Deno.errors.IsADirectory} When it is a directory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { regularFile } from "./_regular_file.ts";
 *
 * await assert.rejects(() => regularFile(Deno.cwd(), "Cannot load run export ."), /is a directory/);
 * ```
 */
export async function regularFile(
  path: string,
  where: string,
): Promise<Deno.FileInfo> {
  const info = await Deno.stat(path);
  if (info.isDirectory) {
    throw new Deno.errors.IsADirectory(
      `${where}: is a directory, not a file`,
    );
  }
  return info;
}
