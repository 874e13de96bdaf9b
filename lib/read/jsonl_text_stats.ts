/**
 * Sufficient statistics straight from JSONL text, in one pass, without
 * building a table (`jsonlStats`); for a file of any size, streamed, see
 * `jsonlStatsFile` in `jsonl_stats.ts`.
 *
 * @module
 */

import type { Decision } from "../decision/decision.ts";
import type { ParseDecisionsOptions } from "./load_decisions.ts";
import type { DecisionUnit } from "../decision/cluster.ts";
import { decisionFromLine } from "./_jsonl_decision.ts";
import { type JsonlStats, StatsBuilder } from "./_stats_builder.ts";

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
 * this. Cost is O(n). When every decision has trial 0 and one runId and
 * none names a cluster, no task has two decisions of one model and
 * `taskShare` equals `n` at no cost; otherwise a second pass over the lines
 * checks the cluster rules and counts each model's decisions per unit
 * (memory grows with the number of tasks).
 *
 * @param text The JSONL text.
 * @param options Path for errors, a progress callback, the unit.
 * @returns The statistics, the decision count and the unit counted.
 * @throws {SyntaxError | RangeError | TypeError} As `parseDecisionsJsonl`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonlStats } from "./jsonl_text_stats.ts";
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
  options: ParseDecisionsOptions & { unit?: DecisionUnit } = {},
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
  builder.unit = options.unit;
  for (const [line, lineNo, offset] of textLines(text)) {
    if (line.length === 0 || line.trim() === "") continue;
    builder.add(decisionFromLine(line, builder.where(lineNo)), lineNo, offset);
    if (
      options.onProgress !== undefined && builder.decisions % 100_000 === 0
    ) options.onProgress(lineNo, offset);
  }
  if (builder.repeatedTasks) {
    for (const [line, lineNo] of textLines(text)) {
      if (line.trim() !== "") {
        builder.share(JSON.parse(line) as Decision, lineNo);
      }
    }
  }
  return builder.finish();
}
