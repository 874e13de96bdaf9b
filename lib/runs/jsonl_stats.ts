/**
 * Sufficient statistics straight from JSONL text, in one pass, without
 * building a table: the fast path for scoring large run exports.
 *
 * @module
 */

import { describeIssue } from "../_zod_issue.ts";
import type { Severity } from "../costs/severity.ts";
import {
  type Action,
  sortStats,
  type StatsRow,
} from "../metrics/sufficient_stats.ts";
import { type Decision, decisionSchema } from "./decision.ts";
import type { ParseDecisionsOptions } from "./load_decisions.ts";
import { fastDecision } from "./_fast_decision.ts";
import { keyHash, OffsetSet } from "./_offset_set.ts";
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
} from "../input_error.ts";
import { stripBom } from "./_utf8.ts";
import { refuseDuplicateKeys } from "../_json_keys.ts";

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
  // Cells in nested maps (model, severity, gold, predicted, action) and seen
  // tasks per (run, model, trial): no key string is built per line.
  const cells = new Map<
    string,
    Map<string, Map<string, Map<string, Map<string, Cell>>>>
  >();
  const list: Cell[] = [];
  const seen = new OffsetSet();
  let decisions = 0;
  text = stripBom(text);
  let start = 0;
  let lineNo = 0;
  let firstRun: string | null = null;
  let repeatedTasks = false;
  const len = text.length;
  while (start < len) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = len;
    lineNo++;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.length === 0 || line.trim() === "") continue;
    const where = () => `Cannot load run export ${path}: line ${lineNo}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new InputSyntaxError(
        `${where()}: invalid JSON: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    refuseDuplicateKeys(line, value, where);
    let d = fastDecision(value);
    if (d === null) {
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        throw new InputSyntaxError(
          `${where()}: expected a JSON object, got ${
            Array.isArray(value) ? "an array" : JSON.stringify(value)
          }`,
        );
      }
      const parsed = decisionSchema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const message = `${where()}: ${describeIssue(issue, value)}`;
        throw issue.code === "invalid_type" ||
            issue.code === "unrecognized_keys"
          ? new InputTypeError(message, { cause: parsed.error })
          : new InputRangeError(message, { cause: parsed.error });
      }
      d = parsed.data as Decision;
    }
    const lineStart = start - line.length - 1;
    const current = d;
    const earlier = seen.insertOrFind(
      keyHash(d.runId, d.modelId, d.taskId, d.trial),
      lineStart,
      (offset) => {
        const stop = text.indexOf("\n", offset);
        const e = JSON.parse(
          text.slice(offset, stop < 0 ? len : stop),
        ) as Decision;
        return e.runId === current.runId && e.modelId === current.modelId &&
          e.taskId === current.taskId && e.trial === current.trial;
      },
    );
    if (earlier >= 0) {
      throw new InputRangeError(
        `${where()}: duplicate decision for runId ${
          JSON.stringify(d.runId)
        }, modelId ${JSON.stringify(d.modelId)}, taskId ${
          JSON.stringify(d.taskId)
        }, trial ${d.trial} (first on line ${lineOf(text, earlier)})`,
      );
    }
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
      list.push(c);
    }
    c.n++;
    if (d.pCorrect === null) c.pMissing++;
    else c.pErrorSum += 1 - d.pCorrect;
    if (!d.parseOk) c.parseFailures++;
    if (firstRun === null) firstRun = d.runId;
    if (d.trial !== 0 || d.runId !== firstRun) repeatedTasks = true;
    decisions++;
    if (options.onProgress !== undefined && decisions % 100_000 === 0) {
      options.onProgress(lineNo, start);
    }
  }
  if (repeatedTasks) shareByTask(text, cells);
  else for (const c of list) c.taskShare = c.n;
  return { stats: sortStats(list), decisions };
}

// Second pass, for runs where a task can have several decisions of one
// model: every line was validated by the first pass, so it is only parsed.
function shareByTask(
  text: string,
  cells: Map<string, Map<string, Map<string, Map<string, Map<string, Cell>>>>>,
): void {
  const tasks = new Map<string, Map<string, Cell[]>>();
  let start = 0;
  const len = text.length;
  while (start < len) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = len;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.trim() === "") continue;
    const d = JSON.parse(line) as Decision;
    const cell = cells.get(d.modelId)!.get(d.severity)!.get(d.trueClass)!
      .get(d.predClass)!.get(d.action)!;
    let byTask = tasks.get(d.modelId);
    if (byTask === undefined) tasks.set(d.modelId, byTask = new Map());
    const seen = byTask.get(d.taskId);
    if (seen === undefined) byTask.set(d.taskId, [cell]);
    else seen.push(cell);
  }
  for (const byTask of tasks.values()) {
    for (const trials of byTask.values()) {
      for (const c of trials) c.taskShare += 1 / trials.length;
    }
  }
}
