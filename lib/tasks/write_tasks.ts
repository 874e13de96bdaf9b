/**
 * Writing task suites to disk as canonical JSONL, streamed, with bounded
 * memory.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { taskLine } from "./signature.ts";
import type { Task } from "./task.ts";

/** Options for writing a task file. */
export interface WriteTasksOptions {
  /** Replace an existing file. Default `false`: an existing file is an error. */
  force?: boolean;
  /** Called after every `progressEvery` tasks with the count written so far. */
  onProgress?: (written: number) => void;
  /** Tasks between progress calls. Default 10,000. */
  progressEvery?: number;
}

/** What was written. */
export interface WriteSummary {
  /** Tasks written. */
  tasks: number;
  /** Bytes written. */
  bytes: number;
  /** SHA-256 of the file, hex: the suite hash. */
  sha256: string;
}

/**
 * Write tasks to a JSONL file, one canonical line per task, streaming.
 *
 * Lines are buffered into chunks of about 1 MiB and written as they fill,
 * so memory stays bounded whatever the number of tasks. The file is written
 * under a temporary name beside the target and renamed at the end, so a
 * failed run never leaves a half-written suite under the target name.
 *
 * @param path Target path.
 * @param tasks Tasks, in suite order (any iterable, e.g. `generateTasks`).
 * @param options Overwriting and progress reporting.
 * @returns Count, bytes and suite hash.
 * @throws {Deno.errors.AlreadyExists} When the file exists and `force` is not set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateTasks } from "./generate.ts";
 * import { writeTasksJsonl } from "./write_tasks.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const out = await writeTasksJsonl(`${dir}/t.jsonl`, generateTasks("settlement", { seed: 1, n: 5 }));
 * assert.equal(out.tasks, 5);
 * await assert.rejects(
 *   () => writeTasksJsonl(`${dir}/t.jsonl`, []),
 *   { name: "AlreadyExists", message: `Cannot write ${dir}/t.jsonl: the file exists; pass --force to overwrite it` },
 * );
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeTasksJsonl(
  path: string,
  tasks: Iterable<Task>,
  options: WriteTasksOptions = {},
): Promise<WriteSummary> {
  if (!options.force) {
    let exists = true;
    try {
      await Deno.lstat(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      exists = false;
    }
    if (exists) {
      throw new Deno.errors.AlreadyExists(
        `Cannot write ${path}: the file exists; pass --force to overwrite it`,
      );
    }
  }
  const tmp = `${path}.partial-${Deno.pid}`;
  const every = options.progressEvery ?? 10_000;
  const hash = createHash("sha256");
  const encoder = new TextEncoder();
  let count = 0;
  let bytes = 0;
  let buffer = "";
  try {
    using file = await Deno.open(tmp, {
      write: true,
      create: true,
      truncate: true,
    });
    const flush = async () => {
      const data = encoder.encode(buffer);
      buffer = "";
      hash.update(data);
      bytes += data.length;
      let off = 0;
      while (off < data.length) off += await file.write(data.subarray(off));
    };
    for (const task of tasks) {
      buffer += taskLine(task) + "\n";
      count++;
      if (buffer.length >= 1 << 20) await flush();
      if (options.onProgress !== undefined && count % every === 0) {
        options.onProgress(count);
      }
    }
    await flush();
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
  await Deno.rename(tmp, path);
  return { tasks: count, bytes, sha256: hash.digest("hex") };
}
