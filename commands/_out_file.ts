// Private to the CLI: where a command may write its --out file, decided in
// one place for every command that writes one.
import { UsageError } from "./_errors.ts";
import type { OptionTable } from "./_help.ts";
import { isStdinPath } from "../lib/read/_regular_file.ts";

/** A file a command reads or writes, with the flag or argument that names it. */
export interface NamedPath {
  /** `--tasks`, `--severity-map`, `log`: how the user named it. */
  readonly flag: string;
  /** The path as given. */
  readonly path: string;
}

/**
 * Refuse to write `out` when it is one of the command's inputs: the same
 * file under any name, compared by device and inode, so a symlink or a hard
 * link to an input is caught as surely as its own path. An output never
 * overwrites an input, with or without `--force`.
 *
 * @param out The output and its flag.
 * @param inputs Every file the command reads, each with its flag.
 * @throws {UsageError} When `out` is one of the inputs, naming both.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refuseInputAsOutput } from "./_out_file.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/map.csv`, "key,severity\n");
 * await Deno.link(`${dir}/map.csv`, `${dir}/out.csv`);
 * await assert.rejects(
 *   () => refuseInputAsOutput({ flag: "--out", path: `${dir}/out.csv` }, [{ flag: "--severity-map", path: `${dir}/map.csv` }]),
 *   /is the same file as the input --severity-map/,
 * );
 * await refuseInputAsOutput({ flag: "--out", path: `${dir}/new.csv` }, [{ flag: "--severity-map", path: `${dir}/map.csv` }]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function refuseInputAsOutput(
  out: NamedPath,
  inputs: readonly NamedPath[],
): Promise<void> {
  const o = await statOrNull(out.path);
  // a file that is not there yet is no input
  if (o === null || o.ino === null) return;
  for (const input of inputs) {
    const i = await statOrNull(input.path);
    if (i !== null && i.dev === o.dev && i.ino === o.ino) {
      throw new UsageError(
        `${out.flag} ${out.path} is the same file as the input ${input.flag} ${input.path}; lossbook never overwrites an input, not even with --force`,
      );
    }
  }
}

// A missing or unreadable input is reported where it is read.
async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  // Deno cannot stat the standard input; a redirection from the output
  // file itself is the one case this leaves unchecked
  if (isStdinPath(path)) return null;
  try {
    return await Deno.stat(path);
  } catch (error) {
    if (
      error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.NotADirectory ||
      error instanceof Deno.errors.PermissionDenied ||
      error instanceof Deno.errors.FilesystemLoop
    ) return null;
    throw error;
  }
}

/**
 * Every file a command reads, from its option table: its positional
 * arguments, and each flag whose placeholder names a `FILE` (`--tasks FILE`,
 * `--severity-map FILE`, `--profile ID|FILE`), except `--out` itself. A
 * command that gains a file flag is covered by declaring it so.
 *
 * @param options The command's option table.
 * @param values The parsed flags.
 * @param positionals The positional arguments, all of which are inputs.
 * @param argument What a positional argument is, for messages (`log`).
 * @returns The inputs, each with its flag.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputFiles } from "./_out_file.ts";
 *
 * const options = {
 *   tasks: { type: "string", value: "FILE", doc: "suite" },
 *   out: { type: "string", value: "FILE", doc: "output" },
 *   seed: { type: "string", value: "N", doc: "seed" },
 * } as const;
 * assert.deepEqual(
 *   inputFiles(options, { tasks: "t.jsonl", out: "o.jsonl", seed: "1" }, ["a.eval"], "log"),
 *   [{ flag: "log", path: "a.eval" }, { flag: "--tasks", path: "t.jsonl" }],
 * );
 * ```
 */
export function inputFiles(
  options: OptionTable,
  values: Readonly<Record<string, unknown>>,
  positionals: readonly string[],
  argument: string,
): NamedPath[] {
  const inputs: NamedPath[] = positionals.map((path) => ({
    flag: argument,
    path,
  }));
  for (const [name, option] of Object.entries(options)) {
    if (name === "out" || !/\bFILE\b/.test(option.value ?? "")) continue;
    const value = values[name];
    for (const path of Array.isArray(value) ? value : [value]) {
      if (typeof path === "string") inputs.push({ flag: `--${name}`, path });
    }
  }
  return inputs;
}

/**
 * Check an output path before anything is written: never one of the inputs
 * (by device and inode, see {@linkcode refuseInputAsOutput}), and an
 * existing file only with `--force`.
 *
 * @param out The `--out` path.
 * @param inputs Every file the command reads ({@linkcode inputFiles}).
 * @param force Whether `--force` was given.
 * @param flag The flag that names `out`, for messages. Default `--out`.
 * @throws {UsageError} When `out` is an input.
 * @throws {Deno.errors.AlreadyExists} When `out` exists and `force` is false.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkOutPath } from "./_out_file.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/in.json`, "{}");
 * const inputs = [{ flag: "log", path: `${dir}/in.json` }];
 * await checkOutPath(`${dir}/out.jsonl`, inputs, false);
 * await assert.rejects(() => checkOutPath(`${dir}/in.json`, inputs, true), /same file as the input log/);
 * await assert.rejects(() => checkOutPath(`${dir}/in.json`, [], false), /pass --force/);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function checkOutPath(
  out: string,
  inputs: readonly NamedPath[],
  force: boolean,
  flag = "--out",
): Promise<void> {
  await refuseInputAsOutput({ flag, path: out }, inputs);
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
