/**
 * Task prompts: the domain's rules in full (from its rule table), the task
 * data, and the answer format.
 *
 * @module
 */

import { canonicalJson } from "./canonical_json.ts";
import { PAYMENT_REPAIR_RULES } from "./payment_repair_rules.ts";
import { DOMAIN_RULES } from "./rules.ts";
import type { Domain, StateOf } from "./task.ts";

const INTRO: Record<Domain, string> = {
  reconciliation:
    "You reconcile a ledger entry against the bank statement line paired with it.",
  payment_repair:
    "You triage a failed payment message: decide whether to release, repair, reject or hold it.",
  settlement:
    "You monitor the settlement of an FX trade and classify its settlement-risk signal.",
};

const ANSWER: Record<Domain, string> = {
  reconciliation:
    '{"verdict": "MATCH" or "EXCEPTION", "exceptionType": <class name, or null for MATCH>, "severity": <severity>}',
  payment_repair:
    '{"verdict": <verdict>, "exceptionType": <class name, or null for NO_EXCEPTION>, "severity": <severity>, "repairSafe": <true or false>, "repairAction": <action>}',
  settlement:
    '{"verdict": <verdict>, "exceptionType": <signal name, or null for ON_TIME>, "severity": <severity>, "exposureClass": <exposure class>}',
};

function classLine(domain: Domain, cls: string): string {
  const rule = DOMAIN_RULES[domain].classes[cls];
  let extra = "";
  if (domain === "payment_repair") {
    const p = PAYMENT_REPAIR_RULES
      .classes[cls as keyof typeof PAYMENT_REPAIR_RULES.classes];
    extra = p.repairSafe === "conditional"
      ? `, action ${p.repairAction} when repair-safe`
      : `, repairSafe ${p.repairSafe}, action ${p.repairAction}`;
  }
  return `${cls} (severity ${rule.severity}, verdict ${rule.verdict}${extra}): ${rule.rule}.`;
}

function rulesText(domain: Domain): string {
  const rules = DOMAIN_RULES[domain];
  const lines = [
    INTRO[domain],
    `Apply these rules exactly (rule table ${rules.version}).`,
    "",
    "Definitions:",
    ...rules.definitions.map((d) => `- ${d}`),
    "",
    "Checks in priority order. Apply them in this order; the first that holds decides the class, even when later ones also hold:",
    ...rules.priority.map((c, i) => `${i + 1}. ${classLine(domain, c)}`),
    `If no check holds: ${classLine(domain, rules.cleanClass)}`,
  ];
  return lines.join("\n");
}

const RULES_TEXT: Record<Domain, string> = {
  reconciliation: rulesText("reconciliation"),
  payment_repair: rulesText("payment_repair"),
  settlement: rulesText("settlement"),
};

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
  return `${RULES_TEXT[domain]}\n\nTask data (JSON):\n${
    canonicalJson(state)
  }\n\nAnswer with one JSON object and nothing else:\n${ANSWER[domain]}\n`;
}
