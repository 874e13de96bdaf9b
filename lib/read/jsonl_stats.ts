/**
 * Sufficient statistics streamed from a JSONL file of any size, without
 * building a table: the fast path for scoring large run exports
 * (`jsonlStatsFile`; from text, `jsonlStats` in `jsonl_text_stats.ts`).
 *
 * A clean file is read by the byte scanner and its WebAssembly reader
 * alone; the line decoder and the Decision schema (zod) behind its error
 * messages load only when a file takes the one-thread reader or a line the
 * scanner leaves, so scoring a clean file does not load them. Like
 * `loadDecisions`, it loads those modules when it needs them, so it needs
 * read access to lossbook's own files (a program run with `--allow-read`
 * limited to its data cannot load them).
 *
 * @module
 */

import { importLater } from "../_late_import.ts";
import { type JsonlStats, StatsBuilder } from "./_stats_builder.ts";
import { DecisionKeySet } from "./_key_spill.ts";
import type { DecisionUnit } from "../decision/cluster.ts";
import { type JsonlLinesOptions, LineReader } from "./_jsonl_lines.ts";
import {
  parallelJsonlStats,
  readLines,
  SEGMENT_BYTES,
  shareLines,
} from "./_jsonl_segments.ts";

export type { JsonlStats } from "./_stats_builder.ts";

/** Options for {@linkcode jsonlStatsFile}. */
export interface JsonlStatsFileOptions extends JsonlLinesOptions {
  /**
   * Worker threads that read a file of two segments (16 MiB each) or more
   * in parallel. Default: `navigator.hardwareConcurrency`; 1 reads on this
   * thread only.
   */
  workers?: number;
  /** Segment size for the workers, in bytes (tests use small ones). */
  segmentBytes?: number;
  /**
   * Decision keys checked in memory before the check spills to disk
   * (bounded memory for any number of keys). Default: 2^16.
   */
  memoryKeys?: number;
  /** Called every 100,000 decisions with the lines and bytes read so far. */
  onProgress?: (lines: number, bytes: number) => void;
  /**
   * The unit counted: `taskId` or `cluster`. Default: `cluster` when the
   * decisions name one, else `taskId`.
   */
  unit?: DecisionUnit;
}

/**
 * Read a JSONL run export file straight into sufficient statistics,
 * streaming its bytes: no size limit short of the disk, memory in
 * proportion to the distinct decision keys (a 32-bit hash and an offset
 * each) and cells, never to the file.
 *
 * Same checks, errors and result as `jsonlStats` on the file's
 * text, plus: invalid UTF-8 is refused naming the line (a text decoder
 * would put U+FFFD in its place). CRLF line ends are read as LF.
 *
 * @param path The `.jsonl` file.
 * @param options Read chunk size, progress, the unit.
 * @returns The statistics, the decision count and the unit counted.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | RangeError | TypeError} As `parseDecisionsJsonl`, naming file, line and field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonlStatsFile } from "./jsonl_stats.ts";
 *
 * const path = new URL("../../data/examples/model_ab.jsonl", import.meta.url).pathname;
 * const { stats, decisions } = await jsonlStatsFile(path, { chunkSize: 1000 });
 * assert.equal(stats.reduce((s, r) => s + r.n, 0), decisions);
 * ```
 */
export async function jsonlStatsFile(
  path: string,
  options: JsonlStatsFileOptions = {},
): Promise<JsonlStats> {
  const where = `Cannot load run export ${path}`;
  const stat = await Deno.stat(path);
  const progress = options.onProgress;
  const workers = options.workers ?? navigator.hardwareConcurrency ?? 1;
  const segmentBytes = options.segmentBytes ?? SEGMENT_BYTES;
  if (stat.isFile && workers > 1 && stat.size >= 2 * segmentBytes) {
    let reported = 0;
    const stats = await parallelJsonlStats(path, stat.size, {
      workers,
      segmentBytes,
      chunkSize: options.chunkSize,
      memoryKeys: options.memoryKeys,
      unit: options.unit,
      onSegment: (lines, bytes, decisions) => {
        if (progress === undefined) return;
        const step = Math.floor(decisions / 100_000);
        if (step > reported) {
          reported = step;
          progress(lines, bytes);
        }
      },
    });
    if (stats !== null) return stats;
  }
  const { decisionFromLine } = await importLater<
    typeof import("./_jsonl_decision.ts")
  >(new URL("./_jsonl_decision.ts", import.meta.url));
  using reader = new LineReader(path, where);
  using keys = new DecisionKeySet({ memoryKeys: options.memoryKeys });
  const builder = new StatsBuilder(
    path,
    (o) => reader.textAt(o),
    (o) => reader.lineOf(o),
    null,
    keys,
  );
  builder.unit = options.unit;
  // once keys went to disk a repeat is found later: before any other error
  // at a line, and at the end, so that the first problem is the one named
  const repeatBefore = async (offset: number) => {
    if (!keys.spilled) return null;
    const d = await keys.firstDuplicate(offset, builder.sameLines);
    return d === null ? null : builder.duplicateError(d);
  };
  const tick = (line: number, offset: number) => {
    if (progress !== undefined && builder.decisions % 100_000 === 0) {
      progress(line, offset);
    }
  };
  await readLines(
    builder,
    path,
    options,
    {},
    (text, line, offset) => {
      builder.add(decisionFromLine(text, builder.where(line)), line, offset);
      tick(line, offset);
    },
    progress,
    async (error, offset) => (await repeatBefore(offset)) ?? error,
  );
  const repeat = await repeatBefore(Infinity);
  if (repeat !== null) throw repeat;
  if (builder.repeatedTasks) await shareLines(builder, path, options);
  return builder.finish();
}
