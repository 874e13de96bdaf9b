// Private, shared by the library functions (api/) and the commands: inputs
// given as /dev/stdin or /dev/fd/N (a pipe, process substitution), read once
// as a stream into a temporary file, because the readers seek (a zip's
// central directory, Parquet's footer, JSONL read in parallel segments) and
// detection reads a file's head before its reader opens it again.
import { isStdinPath, isStreamPath } from "../lib/read/_regular_file.ts";

const HEAD_BYTES = 64 * 1024;

/**
 * The file name extension a stream's content calls for, so that the
 * readers that go by extension read it as what it is: a zip (an inspect
 * `.eval`), Parquet, Arrow, JSONL (a first line that is a whole JSON
 * object), a JSON document (one spread over lines, as harness logs are
 * written), or else CSV.
 *
 * @param head The stream's first bytes (64 KiB, or all of a shorter one).
 * @returns The extension, with its dot.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { streamExtension } from "./_stream_input.ts";
 *
 * const text = (s: string) => new TextEncoder().encode(s);
 * assert.equal(streamExtension(text('{"runId":"r"}\n{"runId":"s"}\n')), ".jsonl");
 * assert.equal(streamExtension(text('{\n  "version": 2\n}\n')), ".json");
 * assert.equal(streamExtension(text("runId,modelId\n")), ".csv");
 * assert.equal(streamExtension(text("PK\x03\x04")), ".eval");
 * ```
 */
export function streamExtension(head: Uint8Array): string {
  const text = new TextDecoder().decode(head.subarray(0, 8));
  if (text.startsWith("PK\x03\x04")) return ".eval";
  if (text.startsWith("PAR1")) return ".parquet";
  if (text.startsWith("ARROW1")) return ".arrow";
  // an Arrow IPC stream opens with the continuation marker
  if (head[0] === 0xff && head[1] === 0xff && head[2] === 0xff) {
    return ".arrow";
  }
  const decoded = new TextDecoder().decode(head).replace(/^\uFEFF/, "");
  const first = decoded.trimStart();
  if (!first.startsWith("{") && !first.startsWith("[")) return ".csv";
  const line = first.split("\n", 1)[0];
  try {
    const value = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? ".jsonl"
      : ".json";
  } catch {
    return ".json";
  }
}

// Copy one stream to `dir`, named after its position and content.
async function spool(path: string, dir: string, i: number): Promise<string> {
  if (isStdinPath(path)) return await copy(Deno.stdin, dir, i);
  using source = await Deno.open(path);
  return await copy(source, dir, i);
}

async function copy(
  source: {
    read(p: Uint8Array): Promise<number | null>;
    readonly readable: ReadableStream<Uint8Array>;
  },
  dir: string,
  i: number,
): Promise<string> {
  const head = new Uint8Array(HEAD_BYTES);
  let filled = 0;
  while (filled < head.length) {
    const n = await source.read(head.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  const local = `${dir}/stream${i}${streamExtension(head.subarray(0, filled))}`;
  using target = await Deno.open(local, { write: true, createNew: true });
  let written = 0;
  while (written < filled) {
    written += await target.write(head.subarray(written, filled));
  }
  if (filled === head.length) {
    await source.readable.pipeTo(target.writable, { preventClose: true });
  }
  return local;
}

/**
 * Read inputs of which some may be streams (`/dev/stdin`, `/dev/fd/N`):
 * each stream is read once, to its end, into a temporary file whose
 * extension follows its content (see {@linkcode streamExtension}); `read`
 * gets those files in the streams' places, and an error it throws names the
 * stream as the user gave it. The files are removed afterwards.
 *
 * @param paths The inputs as given.
 * @param read Reads the inputs, given readable files and `rename`, which
 * puts a stream's name back in place of its file in a text.
 * @returns What `read` returns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withStreams } from "./_stream_input.ts";
 *
 * const seen = await withStreams(["data/examples/model_ab.jsonl"], (local) => Promise.resolve(local));
 * assert.deepEqual(seen, ["data/examples/model_ab.jsonl"]);
 * ```
 */
export async function withStreams<T>(
  paths: readonly string[],
  read: (
    local: readonly string[],
    rename: (path: string) => string,
  ) => Promise<T>,
): Promise<T> {
  if (!paths.some(isStreamPath)) return await read(paths, (p) => p);
  const dir = await Deno.makeTempDir({ prefix: "lossbook-stream-" });
  try {
    const local: string[] = [];
    for (const [i, path] of paths.entries()) {
      local.push(isStreamPath(path) ? await spool(path, dir, i) : path);
    }
    const rename = (text: string) =>
      local.reduce(
        (t, l, i) => l === paths[i] ? t : t.replaceAll(l, paths[i]),
        text,
      );
    try {
      return await read(local, rename);
    } catch (error) {
      if (error instanceof Error) error.message = rename(error.message);
      throw error;
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
