/**
 * Sufficient statistics straight from JSONL text, in one pass, without
 * building a table: the fast path for scoring large run exports. From text
 * (`jsonlStats`) or streamed from a file of any size (`jsonlStatsFile`).
 *
 * @module
 */

import type { Severity } from "../costs/severity.ts";
import {
  type Action,
  sortStats,
  type StatsRow,
} from "../metrics/sufficient_stats.ts";
import type { Decision } from "./decision.ts";
import type { ParseDecisionsOptions } from "./load_decisions.ts";
import { keyHash, OffsetSet } from "./_offset_set.ts";
import { decisionFromLine } from "./_jsonl_decision.ts";
import { InputRangeError } from "../input_error.ts";
import {
  jsonlLines,
  type JsonlLinesOptions,
  LineReader,
} from "./_jsonl_lines.ts";

/** Statistics of a run export, and how many decisions they cover. */
export interface JsonlStats {
  /** Sufficient statistics, in canonical order. */
  readonly stats: StatsRow[];
  /** Decisions read. */
  readonly decisions: number;
}

interface Cell {
  modelId: string;
  severity: Severity;
  trueClass: string;
  predClass: string;
  action: Action;
  n: number;
  pErrorSum: number;
  pMissing: number;
  parseFailures: number;
  taskShare: number;
}

type Cells = Map<
  string,
  Map<string, Map<string, Map<string, Map<string, Cell>>>>
>;

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

// The one-pass state: cells in nested maps (model, severity, gold,
// predicted, action), so no key string is built per line, and seen keys as
// 32-bit hashes with the offset of the line that first used them.
class StatsBuilder {
  readonly cells: Cells = new Map();
  readonly list: Cell[] = [];
  readonly seen = new OffsetSet();
  decisions = 0;
  firstRun: string | null = null;
  repeatedTasks = false;

  constructor(
    readonly path: string,
    // the line that starts at an earlier offset, and its line number
    readonly lineText: (offset: number) => string,
    readonly lineNumber: (offset: number) => number,
  ) {}

  add(line: string, lineNo: number, offset: number): void {
    const where = `Cannot load run export ${this.path}: line ${lineNo}`;
    const d = decisionFromLine(line, where);
    const earlier = this.seen.insertOrFind(
      keyHash(d.runId, d.modelId, d.taskId, d.trial),
      offset,
      (o) => {
        const e = JSON.parse(this.lineText(o)) as Decision;
        return e.runId === d.runId && e.modelId === d.modelId &&
          e.taskId === d.taskId && e.trial === d.trial;
      },
    );
    if (earlier >= 0) {
      throw new InputRangeError(
        `${where}: duplicate decision for runId ${
          JSON.stringify(d.runId)
        }, modelId ${JSON.stringify(d.modelId)}, taskId ${
          JSON.stringify(d.taskId)
        }, trial ${d.trial} (first on line ${this.lineNumber(earlier)})`,
      );
    }
    const cells = this.cells;
    let bySeverity = cells.get(d.modelId);
    if (bySeverity === undefined) cells.set(d.modelId, bySeverity = new Map());
    let byGold = bySeverity.get(d.severity);
    if (byGold === undefined) bySeverity.set(d.severity, byGold = new Map());
    let byPred = byGold.get(d.trueClass);
    if (byPred === undefined) byGold.set(d.trueClass, byPred = new Map());
    let byAction = byPred.get(d.predClass);
    if (byAction === undefined) byPred.set(d.predClass, byAction = new Map());
    let c = byAction.get(d.action);
    if (c === undefined) {
      c = {
        modelId: d.modelId,
        severity: d.severity,
        trueClass: d.trueClass,
        predClass: d.predClass,
        action: d.action,
        n: 0,
        pErrorSum: 0,
        pMissing: 0,
        parseFailures: 0,
        taskShare: 0,
      };
      byAction.set(d.action, c);
      this.list.push(c);
    }
    c.n++;
    if (d.pCorrect === null) c.pMissing++;
    else c.pErrorSum += 1 - d.pCorrect;
    if (!d.parseOk) c.parseFailures++;
    if (this.firstRun === null) this.firstRun = d.runId;
    if (d.trial !== 0 || d.runId !== this.firstRun) this.repeatedTasks = true;
    this.decisions++;
  }

  // the second pass, for runs where a task can have several decisions of
  // one model: every line was validated by the first pass, so it is only parsed
  readonly tasks = new Map<string, Map<string, Cell[]>>();
  share(line: string): void {
    const d = JSON.parse(line) as Decision;
    const cell = this.cells.get(d.modelId)!.get(d.severity)!.get(d.trueClass)!
      .get(d.predClass)!.get(d.action)!;
    let byTask = this.tasks.get(d.modelId);
    if (byTask === undefined) this.tasks.set(d.modelId, byTask = new Map());
    const seen = byTask.get(d.taskId);
    if (seen === undefined) byTask.set(d.taskId, [cell]);
    else seen.push(cell);
  }

  finish(): JsonlStats {
    if (this.repeatedTasks) {
      for (const byTask of this.tasks.values()) {
        for (const trials of byTask.values()) {
          for (const c of trials) c.taskShare += 1 / trials.length;
        }
      }
    } else for (const c of this.list) c.taskShare = c.n;
    return { stats: sortStats(this.list), decisions: this.decisions };
  }
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
    builder.add(line, lineNo, offset);
    if (
      options.onProgress !== undefined && builder.decisions % 100_000 === 0
    ) options.onProgress(lineNo, offset);
  }
  if (builder.repeatedTasks) {
    for (const [line] of textLines(text)) {
      if (line.trim() !== "") builder.share(line);
    }
  }
  return builder.finish();
}

/** Options for {@linkcode jsonlStatsFile}. */
export interface JsonlStatsFileOptions extends JsonlLinesOptions {
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
  await Deno.stat(path);
  using reader = new LineReader(path, where);
  const builder = new StatsBuilder(
    path,
    (o) => reader.textAt(o),
    (o) => reader.lineOf(o),
  );
  for await (const batch of jsonlLines(path, where, options)) {
    for (const { text, line, offset } of batch) {
      if (text.length === 0 || text.trim() === "") continue;
      builder.add(text, line, offset);
      if (
        options.onProgress !== undefined && builder.decisions % 100_000 === 0
      ) options.onProgress(line, offset);
    }
  }
  if (builder.repeatedTasks) {
    for await (const batch of jsonlLines(path, where, options)) {
      for (const { text } of batch) {
        if (text.trim() !== "") builder.share(text);
      }
    }
  }
  return builder.finish();
}
