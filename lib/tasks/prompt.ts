/**
 * Task prompts: the domain's rules in full (from its rule table), the task
 * data, and the answer format.
 *
 * @module
 */

import { promptText } from "./_task_text.ts";
import { canonicalJson } from "./canonical_json.ts";
import type { Domain, StateOf } from "./task.ts";

/**
 * Write the prompt of a task.
 *
 * The prompt states every rule the label depends on, from the domain's rule
 * table: definitions (tolerances, normalisations, date rules), each check in
 * priority order with its severity and verdict, and the clean outcome. Then
 * the task data as canonical JSON, then the answer format.
 *
 * @param domain The task's domain.
 * @param state The task's state.
 * @returns The prompt text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateTask } from "./generate.ts";
 * import { taskPrompt } from "./prompt.ts";
 *
 * const t = generateTask("reconciliation", 7, 0);
 * const p = taskPrompt(t.domain, t.state);
 * assert.equal(p, t.prompt);
 * assert.match(p, /differ by at most 0\.05/);
 * assert.match(p, /1\. MISSING_MESSAGE/);
 * ```
 */
export function taskPrompt<D extends Domain>(
  domain: D,
  state: StateOf[D],
): string {
  return promptText(domain, canonicalJson(state));
}
