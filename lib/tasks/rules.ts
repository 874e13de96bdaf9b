/**
 * The three rule tables by domain, and the class lists and severities they
 * imply.
 *
 * @module
 */

import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { PAYMENT_REPAIR_RULES } from "./payment_repair_rules.ts";
import { RECONCILIATION_RULES } from "./reconciliation_rules.ts";
import { SETTLEMENT_RULES } from "./settlement_rules.ts";
import type { Domain, Task } from "./task.ts";

/** What every domain's rule table has in common. */
export interface DomainRules {
  /** Version of the rule table; recorded in every prompt. */
  readonly version: string;
  /** The class of a clean item. */
  readonly cleanClass: string;
  /** Exception checks, first applied first. */
  readonly priority: readonly string[];
  /** Definitions the class rules use, in words. */
  readonly definitions: readonly string[];
  /** Every class, clean one included, with its severity, verdict and rule. */
  readonly classes: Readonly<
    Record<
      string,
      {
        readonly severity: Severity;
        readonly verdict: string;
        readonly rule: string;
      }
    >
  >;
}

/**
 * The rule table of each domain.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DOMAIN_RULES } from "./rules.ts";
 *
 * assert.equal(DOMAIN_RULES.reconciliation.cleanClass, "MATCH");
 * assert.equal(DOMAIN_RULES.settlement.priority[0], "HERSTATT_EXPOSURE");
 * ```
 */
export const DOMAIN_RULES: Readonly<Record<Domain, DomainRules>> = {
  reconciliation: RECONCILIATION_RULES,
  payment_repair: PAYMENT_REPAIR_RULES,
  settlement: SETTLEMENT_RULES,
};

/**
 * List a domain's classes: the clean class first, then the exception
 * classes in priority order.
 *
 * @param domain A domain.
 * @returns Class names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { domainClasses } from "./rules.ts";
 *
 * assert.equal(domainClasses("reconciliation").length, 10);
 * assert.equal(domainClasses("settlement")[0], "ON_TIME");
 * ```
 */
export function domainClasses(domain: Domain): string[] {
  const rules = DOMAIN_RULES[domain];
  return [rules.cleanClass, ...rules.priority];
}

/**
 * Group a domain's classes by severity, in class order; severities with no
 * class are absent.
 *
 * @param domain A domain.
 * @returns Classes per severity.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classesBySeverity } from "./rules.ts";
 *
 * assert.deepEqual(classesBySeverity("payment_repair").CRITICAL, ["FRAUD_HOLD"]);
 * assert.equal(classesBySeverity("reconciliation").CRITICAL, undefined);
 * ```
 */
export function classesBySeverity(
  domain: Domain,
): Partial<Record<Severity, string[]>> {
  const rules = DOMAIN_RULES[domain];
  const out: Partial<Record<Severity, string[]>> = {};
  for (const s of SEVERITIES) {
    const cs = domainClasses(domain).filter((c) =>
      rules.classes[c].severity === s
    );
    if (cs.length > 0) out[s] = cs;
  }
  return out;
}

/**
 * Give a task's class: its exception type, or the domain's clean class.
 *
 * This is the `trueClass` of a Decision record made on the task.
 *
 * @param task A task (only `domain` and `gold.exceptionType` are read).
 * @returns The class name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { taskClass } from "./rules.ts";
 *
 * assert.equal(taskClass({ domain: "reconciliation", gold: { exceptionType: null } }), "MATCH");
 * assert.equal(taskClass({ domain: "settlement", gold: { exceptionType: "DELAYED" } }), "DELAYED");
 * ```
 */
export function taskClass(
  task: Pick<Task, "domain"> & { gold: Pick<Task["gold"], "exceptionType"> },
): string {
  return task.gold.exceptionType ?? DOMAIN_RULES[task.domain].cleanClass;
}
