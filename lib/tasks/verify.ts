/**
 * Task-level verification: recompute a task's answer with the independent
 * verifier of its domain, and check its signature and prompt.
 *
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { promptText, signatureText } from "./_task_text.ts";
import { canonicalJson } from "./canonical_json.ts";
import type { Domain, Gold, StateOf, Task } from "./task.ts";
import { verifyPaymentRepair } from "./verify_payment_repair.ts";
import { verifyReconciliation } from "./verify_reconciliation.ts";
import { verifySettlement } from "./verify_settlement.ts";

/**
 * Recompute the gold answer of a state with its domain's verifier.
 *
 * @param domain The domain.
 * @param state The state.
 * @returns The verifier's answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateTask } from "./generate.ts";
 * import { verifyState } from "./verify.ts";
 *
 * const t = generateTask("payment_repair", 3, 5);
 * assert.deepEqual(verifyState(t.domain, t.state), t.gold);
 * ```
 */
export function verifyState<D extends Domain>(
  domain: D,
  state: StateOf[D],
): Gold {
  switch (domain) {
    case "reconciliation":
      return verifyReconciliation(state as StateOf["reconciliation"]);
    case "payment_repair":
      return verifyPaymentRepair(state as StateOf["payment_repair"]);
    default:
      return verifySettlement(state as StateOf["settlement"]);
  }
}

/**
 * Describe the first difference between two gold answers, in words.
 *
 * Fields are compared in the order exceptionType, verdict, severity,
 * repairSafe, repairAction, exposureClass.
 *
 * @param expected The answer a task states.
 * @param actual The answer the verifier recomputes.
 * @returns `null` when they are equal, otherwise one sentence naming the field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { goldDifference } from "./verify.ts";
 *
 * const g = { verdict: "MATCH", exceptionType: null, severity: "LOW" as const };
 * assert.equal(goldDifference(g, g), null);
 * assert.equal(
 *   goldDifference(g, { ...g, severity: "HIGH" }),
 *   'gold.severity is "LOW" but the verifier finds "HIGH"',
 * );
 * ```
 */
export function goldDifference(expected: Gold, actual: Gold): string | null {
  if (isDeepStrictEqual(expected, actual)) return null;
  const keys = [
    "exceptionType",
    "verdict",
    "severity",
    "repairSafe",
    "repairAction",
    "exposureClass",
  ] as const;
  for (const k of keys) {
    if (expected[k] !== actual[k]) {
      return `gold.${k} is ${
        JSON.stringify(expected[k] ?? null)
      } but the verifier finds ${JSON.stringify(actual[k] ?? null)}`;
    }
  }
  return "gold has fields the verifier does not produce";
}

/** The outcome of verifying one task. */
export interface TaskCheck {
  /** The task id. */
  id: string;
  /** The verifier's answer. */
  verified: Gold;
  /** Problems found, empty when the task agrees. */
  problems: string[];
}

/**
 * Re-verify a task: its gold answer against the verifier, its signature
 * against its content, and its prompt against the rule table.
 *
 * @param task A task, as loaded from a file.
 * @returns The verifier's answer and the problems found.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateTask } from "./generate.ts";
 * import { checkTask } from "./verify.ts";
 *
 * const t = generateTask("reconciliation", 7, 1);
 * assert.deepEqual(checkTask(t).problems, []);
 * const bad = { ...t, gold: { ...t.gold, severity: "CRITICAL" as const } };
 * assert.match(checkTask(bad).problems[0], /gold\.severity is "CRITICAL" but the verifier finds/);
 * ```
 */
export function checkTask(task: Task): TaskCheck {
  const verified = verifyState(task.domain, task.state);
  const problems: string[] = [];
  const diff = goldDifference(task.gold, verified);
  if (diff !== null) problems.push(diff);
  const stateJson = canonicalJson(task.state);
  if (
    signatureText(task.domain, canonicalJson(task.gold), stateJson) !==
      task.signature
  ) {
    problems.push("signature does not match the task content");
  }
  if (promptText(task.domain, stateJson) !== task.prompt) {
    problems.push("prompt is not the rule table's prompt for this state");
  }
  return { id: task.id, verified, problems };
}
