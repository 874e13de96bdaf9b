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
import { readZipEntries, zipEntryBytes } from "./_zip_read.ts";
import { InputSyntaxError, InputTypeError } from "../input_error.ts";

type RawSample = Parameters<typeof inspectDecisions>[1][number];

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
  const where = `Cannot import inspect log ${file}`;
  const entries = readZipEntries(bytes, file);
  const json = (name: string): unknown =>
    parseJsonBytesStrict(
      zipEntryBytes(bytes, entries.get(name)!, file, options),
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
  const samples: RawSample[] = [];
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
    samples.push({ value, source: name });
  }
  const result = inspectDecisions(header, samples, file, options);
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
      `the log is still being written (no header.json): read ${samples.length} samples from its journal and sample entries`,
    ],
  };
}
