/**
 * The payment-repair rule table: thresholds, formats, date rules, repair
 * actions and the priority order, written once as data.
 *
 * @module
 */

import type { Severity } from "../costs/severity.ts";

/** One payment-repair class: severity, verdict, repair safety and action. */
export interface PaymentRepairClassRule {
  /** Severity of a wrong automatic decision on an item of this class. */
  readonly severity: Severity;
  /** Verdict when the repair is safe (or always, when `unsafe` is absent). */
  readonly verdict: string;
  /** Whether the repair is safe; `"conditional"` means the date window decides. */
  readonly repairSafe: boolean | "conditional";
  /** The action when the repair is safe (or always). */
  readonly repairAction: string;
  /** Verdict and action when a conditional repair is not safe. */
  readonly unsafe?: { readonly verdict: string; readonly repairAction: string };
  /** The rule, in words. */
  readonly rule: string;
}

const FRAUD_THRESHOLD = 70;
const MAX_ROLLBACK_DAYS = 3;
const REMITTANCE_MAX = 140;
const IBAN_FORMATS = {
  BE: { length: 16, bban: "nnnnnnnnnnnn", bankCode: [4, 7] },
  DE: { length: 22, bban: "nnnnnnnnnnnnnnnnnn", bankCode: [4, 12] },
  ES: { length: 24, bban: "nnnnnnnnnnnnnnnnnnnn", bankCode: [4, 8] },
  FR: { length: 27, bban: "nnnnnnnnnnnnnnnnnnnnnnn", bankCode: [4, 9] },
  GB: { length: 22, bban: "aaaannnnnnnnnnnnnn", bankCode: [4, 8] },
  NL: { length: 18, bban: "aaaannnnnnnnnn", bankCode: [4, 8] },
} as const;

/**
 * The payment-repair rules.
 *
 * A failed payment gets a verdict, a repair-safe flag and a repair action.
 * FRAUD_HOLD is CRITICAL and never repair-safe. `priority` lists the checks
 * in the order they are applied; when none holds the payment is released.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PAYMENT_REPAIR_RULES } from "./payment_repair_rules.ts";
 *
 * assert.equal(PAYMENT_REPAIR_RULES.classes.FRAUD_HOLD.severity, "CRITICAL");
 * assert.equal(PAYMENT_REPAIR_RULES.classes.FRAUD_HOLD.repairSafe, false);
 * assert.equal(PAYMENT_REPAIR_RULES.priority[0], "FRAUD_HOLD");
 * ```
 */
export const PAYMENT_REPAIR_RULES = {
  version: "payment_repair/1",
  cleanClass: "NO_EXCEPTION",
  fraudThreshold: FRAUD_THRESHOLD,
  maxRollbackDays: MAX_ROLLBACK_DAYS,
  remittanceMaxLength: REMITTANCE_MAX,
  ibanFormats: IBAN_FORMATS,
  allowedCharacters: "^[A-Za-z0-9/?:().,'+ -]*$",
  priority: [
    "FRAUD_HOLD",
    "DUPLICATE_PAYMENT",
    "LIMIT_EXCEEDED",
    "INVALID_IBAN",
    "BIC_MISMATCH",
    "INVALID_EXECUTION_DATE",
    "INVALID_CHARACTERS",
    "REMITTANCE_TOO_LONG",
  ],
  definitions: [
    "IBAN normalisation: remove spaces and upper-case. A valid IBAN has a known country (first two letters), the country's length, the country's BBAN pattern after the four first characters (n = digit, a = letter A-Z), and passes ISO 7064 mod 97-10: move the first four characters to the end, replace each letter by two digits (A=10 ... Z=35), and the number mod 97 must be 1.",
    `IBAN formats (country: length, BBAN pattern, bank code = characters [start, end) of the IBAN, counted from 0): ${
      Object.entries(IBAN_FORMATS).map(([c, f]) =>
        `${c}: ${f.length}, ${f.bban}, [${f.bankCode[0]}, ${f.bankCode[1]})`
      ).join("; ")
    }.`,
    'Bank code key of an IBAN: country, ":", bank code (e.g. "DE:37040044"). BIC comparison: an 8-character BIC means branch XXX; compare 11-character forms exactly.',
    "UETR comparison ignores case. Amounts are decimal strings with two decimals, compared in cents.",
    "Business days are Monday to Friday; there are no holidays.",
    `Allowed characters in creditor name and remittance information: A-Z a-z 0-9 space / - ? : ( ) . , ' + (the SWIFT X character set).`,
  ],
  classes: {
    NO_EXCEPTION: {
      severity: "LOW",
      verdict: "RELEASE",
      repairSafe: true,
      repairAction: "RESUBMIT",
      rule: "none of the checks holds: resubmit the payment unchanged",
    },
    FRAUD_HOLD: {
      severity: "CRITICAL",
      verdict: "HOLD",
      repairSafe: false,
      repairAction: "HOLD_FOR_FRAUD_REVIEW",
      rule:
        `fraudScore >= ${FRAUD_THRESHOLD}, or the normalised creditor IBAN equals a normalised IBAN on the mule-account list`,
    },
    DUPLICATE_PAYMENT: {
      severity: "HIGH",
      verdict: "REJECT",
      repairSafe: false,
      repairAction: "CANCEL_DUPLICATE",
      rule: "the UETR equals one of recentUetrs, ignoring case",
    },
    LIMIT_EXCEEDED: {
      severity: "HIGH",
      verdict: "REJECT",
      repairSafe: false,
      repairAction: "REFER_TO_APPROVER",
      rule: "amount > debtorLimit (an amount equal to the limit is allowed)",
    },
    INVALID_IBAN: {
      severity: "HIGH",
      verdict: "REJECT",
      repairSafe: false,
      repairAction: "RETURN_TO_ORIGINATOR",
      rule: "the creditor IBAN is not valid",
    },
    BIC_MISMATCH: {
      severity: "MEDIUM",
      verdict: "REPAIR",
      repairSafe: true,
      repairAction: "REPLACE_BIC",
      rule:
        "bicDirectory has an entry for the creditor IBAN's bank code key and its BIC differs from the creditor BIC",
    },
    INVALID_EXECUTION_DATE: {
      severity: "MEDIUM",
      verdict: "REPAIR",
      repairSafe: "conditional",
      repairAction: "ROLL_EXECUTION_DATE",
      unsafe: { verdict: "REJECT", repairAction: "RETURN_TO_ORIGINATOR" },
      rule:
        `executionDate is before businessDate or falls on a Saturday or Sunday. The repair (roll to the next business day on or after businessDate) is safe only when executionDate is at most ${MAX_ROLLBACK_DAYS} calendar days before businessDate (or later); otherwise verdict REJECT, action RETURN_TO_ORIGINATOR, not repair-safe`,
    },
    INVALID_CHARACTERS: {
      severity: "LOW",
      verdict: "REPAIR",
      repairSafe: true,
      repairAction: "TRANSLITERATE",
      rule:
        "the creditor name or the remittance information has a character outside the allowed set",
    },
    REMITTANCE_TOO_LONG: {
      severity: "LOW",
      verdict: "REPAIR",
      repairSafe: true,
      repairAction: "TRUNCATE_REMITTANCE",
      rule:
        `the remittance information is longer than ${REMITTANCE_MAX} characters`,
    },
  } satisfies Record<string, PaymentRepairClassRule>,
} as const;

/** A payment-repair class: NO_EXCEPTION or one of the eight exception classes. */
export type PaymentRepairClass = keyof typeof PAYMENT_REPAIR_RULES.classes;
