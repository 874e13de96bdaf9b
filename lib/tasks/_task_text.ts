// Private: the texts a task is made of, from pre-rendered canonical JSON, so
// the generator and the checker render each part once.
import { createHash } from "node:crypto";
import { PAYMENT_REPAIR_RULES } from "./payment_repair_rules.ts";
import { DOMAIN_RULES } from "./rules.ts";
import type { Domain } from "./task.ts";

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
  return [
    INTRO[domain],
    `Apply these rules exactly (rule table ${rules.version}).`,
    "",
    "Definitions:",
    ...rules.definitions.map((d) => `- ${d}`),
    "",
    "Checks in priority order. Apply them in this order; the first that holds decides the class, even when later ones also hold:",
    ...rules.priority.map((c, i) => `${i + 1}. ${classLine(domain, c)}`),
    `If no check holds: ${classLine(domain, rules.cleanClass)}`,
  ].join("\n");
}

const HEAD: Record<Domain, string> = {
  reconciliation: `${rulesText("reconciliation")}\n\nTask data (JSON):\n`,
  payment_repair: `${rulesText("payment_repair")}\n\nTask data (JSON):\n`,
  settlement: `${rulesText("settlement")}\n\nTask data (JSON):\n`,
};

const TAIL: Record<Domain, string> = {
  reconciliation:
    `\n\nAnswer with one JSON object and nothing else:\n${ANSWER.reconciliation}\n`,
  payment_repair:
    `\n\nAnswer with one JSON object and nothing else:\n${ANSWER.payment_repair}\n`,
  settlement:
    `\n\nAnswer with one JSON object and nothing else:\n${ANSWER.settlement}\n`,
};

/** The prompt of a task whose state renders as `stateJson`. */
export function promptText(domain: Domain, stateJson: string): string {
  return HEAD[domain] + stateJson + TAIL[domain];
}

/** The signature from canonical gold and state texts: SHA-256 of `{"domain":..,"gold":..,"state":..}`. */
export function signatureText(
  domain: Domain,
  goldJson: string,
  stateJson: string,
): string {
  return createHash("sha256").update(
    `{"domain":${
      JSON.stringify(domain)
    },"gold":${goldJson},"state":${stateJson}}`,
    "utf8",
  ).digest("hex");
}
