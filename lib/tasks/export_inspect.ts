/**
 * The seeded benchmark as an inspect_ai dataset (`inspect-ai`): one JSON
 * record per task with the fields inspect's default `FieldSpec` reads
 * (`input`, `target`, `id`, `metadata`), so a researcher can run a real
 * model on lossbook's tasks with inspect_ai and score the log back with
 * `--severity-field metadata.severity`.
 *
 * @module
 */

import { canonicalJson } from "./canonical_json.ts";
import { taskClass } from "./rules.ts";
import type { Task } from "./task.ts";

/** One inspect_ai dataset record. */
export interface InspectDatasetRecord {
  /** The sample id: the task id. */
  readonly id: string;
  /** The prompt, as the model sees it. */
  readonly input: string;
  /** The task's class name (`"MATCH"` and the other clean classes included). */
  readonly target: string;
  /** Severity and class, and what regenerates and checks the task. */
  readonly metadata: {
    readonly severity: string;
    readonly class: string;
    readonly verdict: string;
    readonly domain: string;
    readonly difficulty: number;
    readonly seed: number;
    readonly index: number;
    readonly signature: string;
    readonly gold: Task["gold"];
  };
}

/**
 * The inspect_ai dataset record of a task. The target is the task's class
 * (the exception class, or the domain's clean class), which the answer
 * format asks for as `exceptionType` or `verdict`; `metadata.gold` keeps
 * the whole gold answer for a scorer that checks every field.
 *
 * @param task A seeded task.
 * @returns The record.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateTask } from "./generate.ts";
 * import { inspectDatasetRecord } from "./export_inspect.ts";
 *
 * const t = generateTask("reconciliation", 7, 0);
 * const r = inspectDatasetRecord(t);
 * assert.equal(r.id, t.id);
 * assert.equal(r.input, t.prompt);
 * assert.equal(r.metadata.severity, t.gold.severity);
 * ```
 */
export function inspectDatasetRecord(task: Task): InspectDatasetRecord {
  const cls = taskClass(task);
  return {
    id: task.id,
    input: task.prompt,
    target: cls,
    metadata: {
      severity: task.gold.severity,
      class: cls,
      verdict: task.gold.verdict,
      domain: task.domain,
      difficulty: task.difficulty,
      seed: task.seed,
      index: task.index,
      signature: task.signature,
      gold: task.gold,
    },
  };
}

/**
 * A suite as inspect_ai dataset JSONL: one canonical JSON record per line
 * (keys sorted, so the same suite gives the same bytes).
 *
 * @param tasks The suite.
 * @returns The JSONL text, ending with a newline (empty for no tasks).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateTasks } from "./generate.ts";
 * import { inspectDatasetJsonl } from "./export_inspect.ts";
 *
 * const text = inspectDatasetJsonl([...generateTasks("settlement", { seed: 1, n: 3 })]);
 * assert.equal(text.trim().split("\n").length, 3);
 * assert.equal(JSON.parse(text.split("\n")[0]).id, "settlement-1-0");
 * ```
 */
export function inspectDatasetJsonl(tasks: Iterable<Task>): string {
  let out = "";
  for (const t of tasks) out += canonicalJson(inspectDatasetRecord(t)) + "\n";
  return out;
}
