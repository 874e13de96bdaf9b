// Private to the CLI: where a command may write its --out file.
import { resolve } from "node:path";
import { UsageError } from "./_command.ts";

async function realOrResolved(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return resolve(path);
    throw error;
  }
}

/**
 * Check an output path before anything is written: never one of the inputs
 * (even with `--force`, and through a symlink), and an existing file only
 * with `--force`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkOutPath } from "./_out_file.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/in.json`, "{}");
 * await checkOutPath(`${dir}/out.jsonl`, [`${dir}/in.json`], false);
 * await assert.rejects(() => checkOutPath(`${dir}/in.json`, [`${dir}/in.json`], true), /one of the inputs/);
 * await assert.rejects(() => checkOutPath(`${dir}/in.json`, [], false), /pass --force/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function checkOutPath(
  out: string,
  inputs: readonly string[],
  force: boolean,
): Promise<void> {
  const target = await realOrResolved(out);
  for (const input of inputs) {
    if ((await realOrResolved(input)) === target) {
      throw new UsageError(
        `--out ${out} is one of the inputs (${input}); refusing to overwrite it, even with --force`,
      );
    }
  }
  if (force) return;
  try {
    await Deno.lstat(out);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  throw new Deno.errors.AlreadyExists(
    `Cannot write ${out}: the file exists; pass --force to overwrite it`,
  );
}
