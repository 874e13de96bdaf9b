/**
 * The inspect_ai `.eval` reader: a zip archive of JSON entries (stored,
 * deflate or zstd), read into the samples that `inspectDecisions` turns
 * into decisions. Its own module so that the zip reader and its
 * decompressors (fflate, fzstd) load only for a `.eval` log, not for every
 * run whose format is being detected.
 *
 * @module
 */

import type { HarnessImportResult } from "./harness.ts";
import { inspectDecisions, type InspectOptions } from "./inspect.ts";
import { parseJsonBytesStrict } from "../_json.ts";
import { isObject } from "./_harness_record.ts";
import { readZipEntries, type ZipEntry, zipEntryBytes } from "./_zip_read.ts";
import { InputSyntaxError, InputTypeError } from "../input_error.ts";

type RawSample = Parameters<typeof inspectDecisions>[1] extends
  Iterable<infer S> ? S
  : never;

const MONOLITH = /^samples\/([^/]+)\.json$/;
const SHELL = /^samples\/([^/]+)\/sample\.json$/;

/**
 * Parse an inspect_ai `.eval` log: `header.json` (or, while the log is
 * being written, `_journal/start.json`), and every sample, whether one entry
 * `samples/{id}_epoch_{n}.json` or a chunked folder whose
 * `samples/{id}_epoch_{n}/sample.json` shell holds the scores and whose
 * `metadata.json` holds the metadata. Entries may be stored, deflate or zstd.
 *
 * @param bytes The archive.
 * @param options As {@linkcode inspectDecisions}, `file` for messages, and
 *   the caps `maxEntryBytes` and `maxEntryRatio` on each entry inflated.
 * @returns As {@linkcode inspectDecisions}; an in-progress log says so in
 *   `messages`, and its completeness has status `started`.
 * @throws {SyntaxError} For a damaged archive or entry; as {@linkcode inspectDecisions}.
 * @throws {RangeError} For an entry past a cap.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { zipSync } from "fflate";
 * import { parseInspectEvalLog } from "./inspect_eval.ts";
 *
 * const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
 * const zip = zipSync({
 *   "_journal/start.json": enc({ version: 2, eval: { run_id: "r", model: "m" }, plan: {} }),
 *   "samples/1_epoch_1.json": enc({ id: 1, epoch: 1, target: "B", scores: { s: { value: "I" } } }),
 * });
 * const r = parseInspectEvalLog(zip, { severityOf: () => "HIGH", file: "a.eval" });
 * assert.equal(r.decisions[0].predClass, "verdict:incorrect");
 * assert.match(r.messages.join("\n"), /still being written/);
 * assert.equal(r.completeness.status, "started");
 * ```
 */
export function parseInspectEvalLog(
  bytes: Uint8Array,
  options: InspectOptions & { file?: string },
): HarnessImportResult {
  const file = options.file ?? "<inline>";
  const entries = readZipEntries(bytes, file);
  return evalLogDecisions(
    entries,
    (entry) => zipEntryBytes(bytes, entry, file, options),
    file,
    options,
  );
}

// bytes read past an entry's name for its local extra field, in the same read
const LOCAL_SLACK = 256;

// bytes of the file read at once for its entries
const WINDOW = 4 * 1024 * 1024;

/**
 * Read an inspect_ai `.eval` log from a file without reading the whole
 * archive into memory: its central directory is read from the end of the
 * file, and each entry's bytes are read (through a window of 4 MiB of the
 * file) and inflated only when its sample is read, so one sample at a time
 * is held whole.
 *
 * @param path The archive.
 * @param options As {@linkcode parseInspectEvalLog}, without `file`.
 * @returns As {@linkcode parseInspectEvalLog}.
 * @throws As {@linkcode parseInspectEvalLog}; `Deno.errors.NotFound`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadInspectEvalLog } from "./inspect_eval.ts";
 *
 * const r = loadInspectEvalLog("data/examples/harness/inspect_qwen.eval", { severityOf: () => "HIGH" });
 * assert.equal(r.decisions.length, 9);
 * ```
 */
export function loadInspectEvalLog(
  path: string,
  options: InspectOptions,
): HarnessImportResult {
  const f = Deno.openSync(path, { read: true });
  try {
    const size = f.statSync().size;
    const readAt = (into: Uint8Array, at: number): void => {
      f.seekSync(at, Deno.SeekMode.Start);
      for (let n = 0; n < into.length;) {
        const got = f.readSync(into.subarray(n));
        if (got === null) break; // past the end: the reader says the entry is cut
        n += got;
      }
    };
    const entries = directoryOf(readAt, size, path);
    // Entries are read through a window of the file, read again from an
    // entry that starts outside it: an archive's entries lie in the order
    // of its directory, so one read serves many entries. The window's
    // buffer is reused: an entry's bytes are read (inflated, decoded and
    // parsed) before the next entry's are.
    let buffer = new Uint8Array(0);
    let window = buffer;
    let windowAt = 0;
    const span = (at: number, length: number): Uint8Array => {
      if (at < windowAt || at + length > windowAt + window.length) {
        if (buffer.length < length) {
          buffer = new Uint8Array(Math.max(WINDOW, length));
        }
        window = buffer.subarray(
          0,
          Math.max(0, Math.min(buffer.length, size - at)),
        );
        readAt(window, at);
        windowAt = at;
      }
      return window.subarray(at - windowAt, at - windowAt + length);
    };
    const bytesOf = (entry: ZipEntry): Uint8Array => {
      const length = Math.max(
        0,
        Math.min(
          size - entry.offset,
          30 + entry.name.length * 3 + LOCAL_SLACK + entry.compressedSize,
        ),
      );
      let part = span(entry.offset, length);
      // a local extra field longer than the slack: read the entry again,
      // as long as its local header says it is
      if (part.length >= 30) {
        const view = new DataView(part.buffer, part.byteOffset, 30);
        const need = 30 + view.getUint16(26, true) + view.getUint16(28, true) +
          entry.compressedSize;
        if (need > part.length && entry.offset + need <= size) {
          part = span(entry.offset, need);
        }
      }
      return zipEntryBytes(part, { ...entry, offset: 0 }, path, options);
    };
    return evalLogDecisions(entries, bytesOf, path, options);
  } finally {
    f.close();
  }
}

// The entries of an archive, from its central directory. The zip reader
// takes the archive as one array. A zeroed array of the file's size holds
// only the pages written into it, so the end of the file is read into it,
// doubling, until the reader finds the whole central directory there (a
// directory not yet read is zeros, which the reader refuses). The array is
// let go once the entries are read.
function directoryOf(
  readAt: (into: Uint8Array, at: number) => void,
  size: number,
  path: string,
): Map<string, ZipEntry> {
  const whole = new Uint8Array(size);
  for (let tail = Math.min(size, 1 << 20);; tail = Math.min(size, tail * 2)) {
    readAt(whole.subarray(size - tail), size - tail);
    try {
      return readZipEntries(whole, path);
    } catch (error) {
      if (tail === size) throw error;
    }
  }
}

// The decisions of an archive's entries, each read by `bytesOf` when needed.
function evalLogDecisions(
  entries: Map<string, ZipEntry>,
  bytesOf: (entry: ZipEntry) => Uint8Array,
  file: string,
  options: InspectOptions,
): HarnessImportResult {
  const where = `Cannot import inspect log ${file}`;
  const json = (name: string): unknown =>
    parseJsonBytesStrict(
      bytesOf(entries.get(name)!),
      `${file}: ${name}`,
      { nonFinite: true },
    );
  let header: unknown;
  const inProgress = !entries.has("header.json");
  if (!inProgress) header = json("header.json");
  else if (entries.has("_journal/start.json")) {
    header = json("_journal/start.json");
  } else {
    throw new InputSyntaxError(
      `${where}: neither header.json nor _journal/start.json is in the archive (not an inspect_ai log)`,
    );
  }
  if (!isObject(header)) {
    throw new InputTypeError(
      `${where}: ${
        inProgress ? "_journal/start.json" : "header.json"
      } must hold a JSON object, got ${
        Array.isArray(header) ? "an array" : JSON.stringify(header)
      }`,
    );
  }
  // each sample entry is inflated and parsed only when the importer asks
  // for it, so that one sample at a time is held whole
  let read = 0;
  function* samples(): Generator<RawSample> {
    for (const name of entries.keys()) {
      const mono = MONOLITH.exec(name);
      const shell = mono === null ? SHELL.exec(name) : null;
      if (mono === null && shell === null) continue;
      const value = json(name);
      if (!isObject(value)) {
        throw new InputTypeError(`${where}: ${name} must hold a JSON object`);
      }
      if (shell !== null) {
        const metaName = `samples/${shell[1]}/metadata.json`;
        if (entries.has(metaName)) {
          const metadata = json(metaName);
          if (!isObject(metadata)) {
            throw new InputTypeError(
              `${where}: ${metaName} must hold a JSON object`,
            );
          }
          value.metadata = metadata;
        }
      }
      read++;
      yield { value, source: name };
    }
  }
  const result = inspectDecisions(header, samples(), file, options);
  if (!inProgress) return result;
  return {
    ...result,
    notes: { ...result.notes, inProgress: 1 },
    // the journal's start record has no status: the log is still running
    completeness: {
      ...result.completeness,
      status: result.completeness.status ?? "started",
    },
    messages: [
      ...result.messages,
      `the log is still being written (no header.json): read ${read} samples from its journal and sample entries`,
    ],
  };
}
