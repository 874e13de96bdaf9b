/**
 * Sufficient statistics straight from JSONL text, in one pass, without
 * building a table: the fast path for scoring large run exports. From text
 * (`jsonlStats`) or streamed from a file of any size (`jsonlStatsFile`).
 *
 * @module
 */

import type { Decision } from "./decision.ts";
import type { ParseDecisionsOptions } from "./load_decisions.ts";
import { decisionFromLine } from "./_jsonl_decision.ts";
import { type JsonlStats, StatsBuilder } from "./_stats_builder.ts";
import { DecisionKeySet } from "./_key_spill.ts";
import { type JsonlLinesOptions, LineReader } from "./_jsonl_lines.ts";
import {
  parallelJsonlStats,
  readLines,
  SEGMENT_BYTES,
  shareLines,
} from "./_jsonl_segments.ts";

export type { JsonlStats } from "./_stats_builder.ts";

/** The 1-based line number of a text offset. */
function lineOf(text: string, offset: number): number {
  let n = 1;
  for (
    let i = text.indexOf("\n");
    i >= 0 && i < offset;
    i = text.indexOf("\n", i + 1)
  ) n++;
  return n;
}

function* textLines(text: string): Generator<[string, number, number]> {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a leading BOM
  let lineNo = 0;
  const len = text.length;
  while (start < len) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = len;
    lineNo++;
    let line = text.slice(start, end);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    yield [line, lineNo, start];
    start = end + 1;
  }
}

/**
 * Read a JSONL run export straight into sufficient statistics.
 *
 * Validates every line exactly as `parseDecisionsJsonl` does (same errors,
 * naming file, line and field; duplicates refused) but keeps only the cell
 * counts, so memory grows with the number of distinct decision keys, not
 * with whole decisions. Gives the same statistics as
 * `decisionStats(decisionTable(parseDecisionsJsonl(text)))`; a test pins
 * this. Cost is O(n). When every decision has trial 0 and one runId, no
 * task has two decisions of one model and `taskShare` equals `n` at no
 * cost; otherwise a second pass over the lines counts each model's
 * decisions per task (memory grows with the number of tasks).
 *
 * @param text The JSONL text.
 * @param options Path for errors, and a progress callback.
 * @returns The statistics and the decision count.
 * @throws {SyntaxError | RangeError | TypeError} As `parseDecisionsJsonl`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonlStats } from "./jsonl_stats.ts";
 *
 * const d = {
 *   runId: "r", modelId: "m", taskId: "t", trial: 0, severity: "LOW", trueClass: "MATCH",
 *   predClass: "MATCH", parseOk: true, pCorrect: 0.9, action: "auto", outcome: "resolved",
 *   cost: { completeness: "complete", usd: 0 },
 * };
 * const { stats, decisions } = jsonlStats(JSON.stringify(d) + "\n" + JSON.stringify({ ...d, taskId: "u" }));
 * assert.equal(decisions, 2);
 * assert.equal(stats[0].n, 2);
 * ```
 */
export function jsonlStats(
  text: string,
  options: ParseDecisionsOptions = {},
): JsonlStats {
  const path = options.path ?? "<inline>";
  const builder = new StatsBuilder(
    path,
    (o) => {
      const stop = text.indexOf("\n", o);
      return text.slice(o, stop < 0 ? text.length : stop);
    },
    (o) => lineOf(text, o),
  );
  for (const [line, lineNo, offset] of textLines(text)) {
    if (line.length === 0 || line.trim() === "") continue;
    builder.add(decisionFromLine(line, builder.where(lineNo)), lineNo, offset);
    if (
      options.onProgress !== undefined && builder.decisions % 100_000 === 0
    ) options.onProgress(lineNo, offset);
  }
  if (builder.repeatedTasks) {
    for (const [line] of textLines(text)) {
      if (line.trim() !== "") builder.share(JSON.parse(line) as Decision);
    }
  }
  return builder.finish();
}

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
}

/**
 * Read a JSONL run export file straight into sufficient statistics,
 * streaming its bytes: no size limit short of the disk, memory in
 * proportion to the distinct decision keys (a 32-bit hash and an offset
 * each) and cells, never to the file.
 *
 * Same checks, errors and result as {@linkcode jsonlStats} on the file's
 * text, plus: invalid UTF-8 is refused naming the line (a text decoder
 * would put U+FFFD in its place). CRLF line ends are read as LF.
 *
 * @param path The `.jsonl` file.
 * @param options Read chunk size, progress.
 * @returns The statistics and the decision count.
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
  using reader = new LineReader(path, where);
  using keys = new DecisionKeySet({ memoryKeys: options.memoryKeys });
  const builder = new StatsBuilder(
    path,
    (o) => reader.textAt(o),
    (o) => reader.lineOf(o),
    null,
    keys,
  );
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
