/**
 * The settlement rule table: cut-off times, date rules, limit arithmetic,
 * exposure classes and the priority order of the six settlement signals,
 * written once as data.
 *
 * @module
 */

import type { Severity } from "../costs/severity.ts";

/** One settlement signal: severity and verdict. */
export interface SettlementClassRule {
  /** Severity of a wrong automatic decision on an item of this class. */
  readonly severity: Severity;
  /** The verdict. */
  readonly verdict: string;
  /** The rule, in words. */
  readonly rule: string;
}

const CUTOFFS = {
  AUD: "06:00",
  CAD: "21:00",
  CHF: "15:00",
  EUR: "16:00",
  GBP: "15:00",
  USD: "21:00",
} as const;

/**
 * The settlement rules.
 *
 * An FX trade carries one settlement-risk signal. Herstatt exposure (our
 * leg paid, theirs not received after its cut-off, outside CLS) is CRITICAL.
 * The exposure class sizes the USD value of the leg we pay.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SETTLEMENT_RULES } from "./settlement_rules.ts";
 *
 * assert.equal(SETTLEMENT_RULES.classes.HERSTATT_EXPOSURE.severity, "CRITICAL");
 * assert.equal(SETTLEMENT_RULES.cutoffs.EUR, "16:00");
 * ```
 */
export const SETTLEMENT_RULES = {
  version: "settlement/1",
  cleanClass: "ON_TIME",
  cutoffs: CUTOFFS,
  exposureBuckets: [
    { below: "1000000.00", label: "UNDER_1M" },
    { below: "10000000.00", label: "1M_TO_10M" },
  ],
  exposureTop: "10M_AND_OVER",
  exposureNone: "NONE",
  priority: [
    "HERSTATT_EXPOSURE",
    "LIMIT_BREACH",
    "COUNTERPARTY_MISMATCH",
    "MISSING_CONFIRMATION",
    "DELAYED",
  ],
  definitions: [
    `Receive deadline: the value date, rolled forward to Monday when it falls on Saturday or Sunday, at the cut-off time (UTC) of the buy currency: ${
      Object.entries(CUTOFFS).map(([c, t]) => `${c} ${t}`).join(", ")
    }. The receive leg is late when receiveLeg is PENDING and asOf is strictly after the deadline (asOf equal to the deadline is not late).`,
    "USD value of the sell leg: sell amount x sellUsdRate, rounded half up to cents. Amounts are decimal strings compared in cents.",
    "BIC comparison: an 8-character BIC means branch XXX; compare 11-character forms exactly.",
    "Exposure class: NONE for ON_TIME; otherwise by the USD value of the sell leg: below 1000000.00 UNDER_1M, below 10000000.00 1M_TO_10M, else 10M_AND_OVER.",
  ],
  classes: {
    ON_TIME: {
      severity: "LOW",
      verdict: "PROCEED",
      rule: "none of the checks holds",
    },
    HERSTATT_EXPOSURE: {
      severity: "CRITICAL",
      verdict: "HALT",
      rule:
        "method is BILATERAL, payLeg is SENT and the receive leg is late (principal paid, nothing received)",
    },
    LIMIT_BREACH: {
      severity: "HIGH",
      verdict: "ESCALATE",
      rule:
        "usedLimitUsd + USD value of the sell leg > limitUsd (equal to the limit is allowed)",
    },
    COUNTERPARTY_MISMATCH: {
      severity: "HIGH",
      verdict: "ESCALATE",
      rule:
        "a confirmation is present and its counterpartyBic differs from the counterparty BIC under the BIC comparison",
    },
    MISSING_CONFIRMATION: {
      severity: "MEDIUM",
      verdict: "CHASE",
      rule: "confirmation is null",
    },
    DELAYED: {
      severity: "LOW",
      verdict: "CHASE",
      rule: "the receive leg is late (under CLS, or before our leg is sent)",
    },
  } satisfies Record<string, SettlementClassRule>,
} as const;

/** A settlement signal: ON_TIME or one of the five risk signals. */
export type SettlementClass = keyof typeof SETTLEMENT_RULES.classes;
