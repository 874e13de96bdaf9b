/**
 * The reconciliation rule table: tolerances, formats, date rules and the
 * priority order, written once as data. The generator, the independent
 * verifier and the prompt text all read this table; nothing else states a
 * reconciliation rule.
 *
 * @module
 */

import type { Severity } from "../costs/severity.ts";

/** One outcome class of a domain: its severity, verdict and the rule that decides it. */
export interface ClassRule {
  /** Severity of a wrong automatic decision on an item of this class. */
  readonly severity: Severity;
  /** The verdict an item of this class gets. */
  readonly verdict: string;
  /** The rule, in words, as the prompt states it. */
  readonly rule: string;
}

const TOLERANCE_MINOR = 5;
const FX_TOLERANCE_BP = 10;
const REFERENCE_MIN_PREFIX = 8;
const NAME_THRESHOLD = { num: 3, den: 4 } as const;
const LEGAL_FORMS = [
  "AG",
  "BV",
  "CO",
  "CORP",
  "GMBH",
  "INC",
  "LIMITED",
  "LLC",
  "LTD",
  "NV",
  "PLC",
  "SA",
  "SARL",
  "SPA",
] as const;
const CURRENCIES = [
  "EUR",
  "USD",
  "GBP",
  "CHF",
  "SEK",
  "NOK",
  "DKK",
  "CAD",
] as const;

/**
 * The reconciliation rules (`reconforge` classes and severities).
 *
 * Amounts are compared in minor units (cents). Names are compared as sets of
 * words after normalisation. Dates roll forward from a weekend to Monday.
 * `priority` lists the exception checks in the order they are applied: the
 * first that holds decides the class; when none holds the pair is a MATCH.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RECONCILIATION_RULES } from "./reconciliation_rules.ts";
 *
 * assert.equal(RECONCILIATION_RULES.priority.length, 9);
 * assert.equal(RECONCILIATION_RULES.classes.AMOUNT_MISMATCH.severity, "HIGH");
 * assert.equal(RECONCILIATION_RULES.amountToleranceMinor, 5);
 * ```
 */
export const RECONCILIATION_RULES = {
  version: "reconciliation/1",
  cleanClass: "MATCH",
  currencies: CURRENCIES,
  minorDigits: 2,
  amountToleranceMinor: TOLERANCE_MINOR,
  fxToleranceBp: FX_TOLERANCE_BP,
  fxRateDecimals: 6,
  referenceMinPrefix: REFERENCE_MIN_PREFIX,
  nameThreshold: NAME_THRESHOLD,
  legalForms: LEGAL_FORMS,
  formats: {
    amount: "^(0|[1-9][0-9]*)\\.[0-9]{2}$",
    bic: "^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$",
    date: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
    name: "^[A-Za-z0-9 &.,'/()-]{1,70}$",
  },
  priority: [
    "MISSING_MESSAGE",
    "FIELD_CORRUPTION",
    "DUPLICATE",
    "FX_CONVERSION_ERROR",
    "AMOUNT_MISMATCH",
    "BENEFICIARY_MISMATCH",
    "COUNTERPARTY_MISMATCH",
    "PARTIAL_MATCH",
    "VALUE_DATE_MISMATCH",
  ],
  definitions: [
    "Reference normalisation: upper-case, then remove spaces, hyphens and slashes.",
    `Amounts are decimal strings with two decimals; compare them in cents. Same-currency tolerance: the amounts agree when they differ by at most ${
      (TOLERANCE_MINOR / 100).toFixed(2)
    }.`,
    `FX conversion: expected statement amount = ledger amount x fxRate, rounded half up to cents. It agrees when |statement - expected| x 10000 <= expected x ${FX_TOLERANCE_BP} (a tolerance of ${FX_TOLERANCE_BP} basis points).`,
    `Name comparison: upper-case; replace every character other than A-Z and 0-9 by a space; split into words; drop the legal-form words ${
      LEGAL_FORMS.join(", ")
    }. The names agree when (shared words) / (words in either) >= ${NAME_THRESHOLD.num}/${NAME_THRESHOLD.den}; two empty word sets agree.`,
    "BIC comparison: a BIC of 8 characters means branch XXX (DEUTDEFF = DEUTDEFFXXX); compare the 11-character forms exactly.",
    "Date rule: a value date on Saturday or Sunday rolls forward to the following Monday; compare the rolled value dates. Booking dates are never compared.",
    `Well-formed statement fields: amount matches ^(0|[1-9][0-9]*)\\.[0-9]{2}$; currency is one of ${
      CURRENCIES.join(", ")
    }; counterpartyBic matches ^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$; beneficiaryName matches ^[A-Za-z0-9 &.,'/()-]{1,70}$; valueDate and bookingDate are real calendar dates written YYYY-MM-DD. The reference is never a corruption.`,
  ],
  classes: {
    MATCH: {
      severity: "LOW",
      verdict: "MATCH",
      rule: "none of the checks holds",
    },
    MISSING_MESSAGE: {
      severity: "MEDIUM",
      verdict: "EXCEPTION",
      rule:
        `statement is null, or the normalised references are different and neither is a prefix of the other of at least ${REFERENCE_MIN_PREFIX} characters`,
    },
    FIELD_CORRUPTION: {
      severity: "LOW",
      verdict: "EXCEPTION",
      rule: "a statement field other than the reference is not well formed",
    },
    DUPLICATE: {
      severity: "LOW",
      verdict: "EXCEPTION",
      rule:
        "a prior booking has the ledger entry's normalised reference, amount, currency and value date (the entry was booked twice)",
    },
    FX_CONVERSION_ERROR: {
      severity: "HIGH",
      verdict: "EXCEPTION",
      rule:
        "the currencies differ and fxRate is null, not a decimal with six decimals, or the statement amount is outside the FX tolerance",
    },
    AMOUNT_MISMATCH: {
      severity: "HIGH",
      verdict: "EXCEPTION",
      rule:
        "the currencies are equal and the amounts differ by more than the tolerance",
    },
    BENEFICIARY_MISMATCH: {
      severity: "HIGH",
      verdict: "EXCEPTION",
      rule: "the beneficiary names do not agree under the name comparison",
    },
    COUNTERPARTY_MISMATCH: {
      severity: "HIGH",
      verdict: "EXCEPTION",
      rule: "the counterparty BICs differ under the BIC comparison",
    },
    PARTIAL_MATCH: {
      severity: "MEDIUM",
      verdict: "EXCEPTION",
      rule:
        `the normalised references differ but one is a prefix of the other of at least ${REFERENCE_MIN_PREFIX} characters (a truncated reference)`,
    },
    VALUE_DATE_MISMATCH: {
      severity: "MEDIUM",
      verdict: "EXCEPTION",
      rule: "the rolled value dates differ",
    },
  } satisfies Record<string, ClassRule>,
} as const;

/** A reconciliation class: MATCH or one of the nine exception classes. */
export type ReconciliationClass = keyof typeof RECONCILIATION_RULES.classes;
