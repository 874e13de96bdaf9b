/**
 * Reading run exports (JSONL, one Decision per line) into Arquero tables,
 * with errors that name the file, the line and the field.
 *
 * @module
 */

import * as aq from "arquero";
import type { ColumnTable } from "arquero";
import type { Decision } from "../decision/decision.ts";
import { decisionFromLine } from "./_jsonl_decision.ts";
import { InputRangeError } from "../input_error.ts";
import { jsonlLines, type JsonlLinesOptions } from "./_jsonl_lines.ts";
import { stripBom } from "../_bom.ts";
import { recordColumns } from "../decision/schema.ts";
import { decisionTupleKey } from "../_tuple_key.ts";
import { ClusterCheck } from "../decision/cluster.ts";

/** Options for parsing a run export. */
export interface ParseDecisionsOptions {
  /** File path shown in errors. Default: `"<inline>"`. */
  path?: string;
  /**
   * Called every 100,000 lines with the lines and characters read so far,
   * for progress on large inputs. Default: none.
   */
  onProgress?: (lines: number, chars: number) => void;
}

export {
  DECISION_COLUMNS,
  OPTIONAL_DECISION_COLUMNS,
} from "../decision/schema.ts";

/**
 * Parse a JSONL run export into Decision records.
 *
 * Every non-blank line must be one JSON object matching the Decision schema
 * (docs/formats.md). Blank lines are skipped. Unknown fields are errors, not
 * silently dropped, and so is a second decision for the same (runId, modelId,
 * taskId, trial), and a decision that breaks a cluster rule (see
 * `ClusterCheck`). Cost is O(n) in the size of the text.
 *
 * @param text The file's text.
 * @param options Where the text came from.
 * @returns The decisions, in file order.
 * @throws {SyntaxError} When a line is not valid JSON or not an object.
 * @throws {RangeError} When a value is out of range (pCorrect outside [0, 1],
 * an unknown severity, a negative cost) or a decision is duplicated.
 * @throws {TypeError} When a field is missing or has the wrong type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseDecisionsJsonl } from "./load_decisions.ts";
 *
 * const line = {
 *   runId: "r1", modelId: "m", taskId: "t1", trial: 0, severity: "HIGH",
 *   trueClass: "AMOUNT_MISMATCH", predClass: "MATCH", parseOk: true,
 *   pCorrect: 0.7, action: "auto", outcome: "resolved",
 *   cost: { completeness: "complete", usd: 0.002 },
 * };
 * assert.equal(parseDecisionsJsonl(JSON.stringify(line)).length, 1);
 * assert.throws(
 *   () => parseDecisionsJsonl(JSON.stringify({ ...line, pCorrect: 1.3 }), { path: "a.jsonl" }),
 *   /Cannot load run export a\.jsonl: line 1: pCorrect must be in \[0, 1\], got 1\.3/,
 * );
 * ```
 */
export function parseDecisionsJsonl(
  text: string,
  options: ParseDecisionsOptions = {},
): Decision[] {
  const path = options.path ?? "<inline>";
  text = stripBom(text);
  const out: Decision[] = [];
  const seen = new Map<string, number>();
  const clusters = new ClusterCheck(`Cannot load run export ${path}`, "line");
  let start = 0;
  let lineNo = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    lineNo++;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.trim() === "") {
      if (end === text.length) break;
      continue;
    }
    const where = () => `Cannot load run export ${path}: line ${lineNo}`;
    const d = decisionFromLine(
      line.endsWith("\r") ? line.slice(0, -1) : line,
      where(),
    );
    const key = decisionTupleKey(d.runId, d.modelId, d.taskId, d.trial);
    const first = seen.get(key);
    if (first !== undefined) {
      throw new InputRangeError(
        `${where()}: duplicate decision for runId ${
          JSON.stringify(d.runId)
        }, modelId ${JSON.stringify(d.modelId)}, taskId ${
          JSON.stringify(d.taskId)
        }, trial ${d.trial} (first on line ${first})`,
      );
    }
    seen.set(key, lineNo);
    clusters.add(d.taskId, d.cluster, lineNo);
    out.push(d);
    if (options.onProgress !== undefined && out.length % 100_000 === 0) {
      options.onProgress(lineNo, start);
    }
    if (end === text.length) break;
  }
  clusters.finish();
  return out;
}

/**
 * Lay decisions out as an Arquero table, one column per field.
 *
 * Cost evidence is flattened into `costCompleteness` and `costUsd`; optional
 * fields that a decision lacks are `null` (unknown), never 0.
 *
 * @param decisions Decision records.
 * @returns A table with the columns of {@linkcode DECISION_COLUMNS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionTable } from "./load_decisions.ts";
 *
 * const t = decisionTable([{
 *   runId: "r", modelId: "m", taskId: "t", trial: 0, severity: "LOW",
 *   trueClass: "MATCH", predClass: "MATCH", parseOk: true, pCorrect: null,
 *   action: "auto", outcome: "resolved",
 *   cost: { completeness: "unavailable", usd: null },
 * }]);
 * assert.equal(t.numRows(), 1);
 * assert.equal(t.get("costUsd", 0), null);
 * assert.equal(t.get("tokensIn", 0), null);
 * ```
 */
export function decisionTable(decisions: readonly Decision[]): ColumnTable {
  return aq.table(
    recordColumns(
      decisions as readonly unknown[] as readonly Record<string, unknown>[],
    ),
  );
}

/**
 * Read a JSONL run export into an Arquero decision table.
 *
 * @param path Path of the `.jsonl` file.
 * @returns The decision table.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | RangeError | TypeError} As {@linkcode parseDecisionsJsonl}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDecisionsJsonl } from "./load_decisions.ts";
 *
 * const t = await loadDecisionsJsonl(
 *   new URL("../../data/examples/model_ab.jsonl", import.meta.url).pathname,
 * );
 * assert.equal(t.numRows(), 1600);
 * ```
 */
export async function loadDecisionsJsonl(path: string): Promise<ColumnTable> {
  return decisionTable(await readDecisionsJsonl(path));
}

/** Options for {@linkcode readDecisionsJsonl}. */
export interface ReadDecisionsJsonlOptions extends JsonlLinesOptions {
  /** Called every 100,000 decisions with the lines and bytes read so far. */
  onProgress?: (lines: number, bytes: number) => void;
  /**
   * Called for each decision, in the order returned, with the line it was
   * read from: for messages about a decision later on. Default: none.
   */
  onDecision?: (line: number) => void;
}

/**
 * Read a JSONL run export file into Decision records, streaming its bytes:
 * no limit on the file's size but the decisions themselves (the text is
 * never one string). Same checks and errors as
 * {@linkcode parseDecisionsJsonl}, plus invalid UTF-8 refused naming the
 * line; CRLF line ends are read as LF.
 *
 * @param path Path of the `.jsonl` file.
 * @param options Read chunk size, progress.
 * @returns The decisions, in file order.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | RangeError | TypeError} As {@linkcode parseDecisionsJsonl}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readDecisionsJsonl } from "./load_decisions.ts";
 *
 * const path = new URL("../../data/examples/model_ab.jsonl", import.meta.url).pathname;
 * assert.equal((await readDecisionsJsonl(path, { chunkSize: 777 })).length, 1600);
 * ```
 */
export async function readDecisionsJsonl(
  path: string,
  options: ReadDecisionsJsonlOptions = {},
): Promise<Decision[]> {
  const where = `Cannot load run export ${path}`;
  const out: Decision[] = [];
  const seen = new Map<string, number>();
  const clusters = new ClusterCheck(where, "line");
  for await (const batch of jsonlLines(path, where, options)) {
    for (const { text, line, offset } of batch) {
      if (text.trim() === "") continue;
      const at = `${where}: line ${line}`;
      const d = decisionFromLine(text, at);
      const key = decisionTupleKey(d.runId, d.modelId, d.taskId, d.trial);
      const first = seen.get(key);
      if (first !== undefined) {
        throw new InputRangeError(
          `${at}: duplicate decision for runId ${
            JSON.stringify(d.runId)
          }, modelId ${JSON.stringify(d.modelId)}, taskId ${
            JSON.stringify(d.taskId)
          }, trial ${d.trial} (first on line ${first})`,
        );
      }
      seen.set(key, line);
      clusters.add(d.taskId, d.cluster, line);
      out.push(d);
      options.onDecision?.(line);
      if (options.onProgress !== undefined && out.length % 100_000 === 0) {
        options.onProgress(line, offset);
      }
    }
  }
  clusters.finish();
  return out;
}
