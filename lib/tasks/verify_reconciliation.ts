/**
 * The independent reconciliation verifier: recomputes the answer from the
 * task's fields and the rule table alone. It shares no code with the
 * generator and never sees the intended label.
 *
 * @module
 */

import {
  bic11,
  calendarDay,
  cents,
  micros,
  mulMicrosRounded,
  nameWords,
  normalReference,
  overlap,
  rollForward,
} from "./_verify_util.ts";
import {
  RECONCILIATION_RULES,
  type ReconciliationClass,
} from "./reconciliation_rules.ts";
import type { Gold, ReconciliationEntry, ReconciliationState } from "./task.ts";

const RULES = RECONCILIATION_RULES;
const FORMAT = {
  amount: new RegExp(RULES.formats.amount),
  bic: new RegExp(RULES.formats.bic),
  name: new RegExp(RULES.formats.name),
};

type ExceptionClass = Exclude<ReconciliationClass, "MATCH">;

function referencesRelated(
  a: string,
  b: string,
): "equal" | "prefix" | "unrelated" {
  const x = normalReference(a);
  const y = normalReference(b);
  if (x === y) return "equal";
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short.length >= RULES.referenceMinPrefix && long.startsWith(short)
    ? "prefix"
    : "unrelated";
}

function wellFormed(s: ReconciliationEntry): boolean {
  return FORMAT.amount.test(s.amount) &&
    (RULES.currencies as readonly string[]).includes(s.currency) &&
    FORMAT.bic.test(s.counterpartyBic) &&
    FORMAT.name.test(s.beneficiaryName) &&
    calendarDay(s.valueDate) !== null &&
    calendarDay(s.bookingDate) !== null;
}

/** Each exception check, as a predicate on the state. Later checks may assume earlier ones failed. */
const CHECKS: Record<ExceptionClass, (s: ReconciliationState) => boolean> = {
  MISSING_MESSAGE: (s) =>
    s.statement === null ||
    referencesRelated(s.ledger.reference, s.statement.reference) ===
      "unrelated",
  FIELD_CORRUPTION: (s) => s.statement !== null && !wellFormed(s.statement),
  DUPLICATE: (s) => {
    const ref = normalReference(s.ledger.reference);
    const amount = cents(s.ledger.amount);
    return s.priorBookings.some((p) =>
      normalReference(p.reference) === ref && cents(p.amount) === amount &&
      p.currency === s.ledger.currency && p.valueDate === s.ledger.valueDate
    );
  },
  FX_CONVERSION_ERROR: (s) => {
    const st = s.statement!;
    if (st.currency === s.ledger.currency) return false;
    const rate = micros(s.fxRate);
    if (rate === null) return true;
    const expected = mulMicrosRounded(cents(s.ledger.amount)!, rate);
    const got = cents(st.amount)!;
    const dev = got > expected ? got - expected : expected - got;
    return dev * 10_000n > expected * BigInt(RULES.fxToleranceBp);
  },
  AMOUNT_MISMATCH: (s) => {
    const st = s.statement!;
    if (st.currency !== s.ledger.currency) return false;
    const a = cents(s.ledger.amount)!;
    const b = cents(st.amount)!;
    return (a > b ? a - b : b - a) > BigInt(RULES.amountToleranceMinor);
  },
  BENEFICIARY_MISMATCH: (s) => {
    const { shared, union } = overlap(
      nameWords(s.ledger.beneficiaryName, RULES.legalForms),
      nameWords(s.statement!.beneficiaryName, RULES.legalForms),
    );
    if (union === 0) return false;
    return shared * RULES.nameThreshold.den < union * RULES.nameThreshold.num;
  },
  COUNTERPARTY_MISMATCH: (s) =>
    bic11(s.ledger.counterpartyBic) !== bic11(s.statement!.counterpartyBic),
  PARTIAL_MATCH: (s) =>
    referencesRelated(s.ledger.reference, s.statement!.reference) === "prefix",
  VALUE_DATE_MISMATCH: (s) =>
    rollForward(calendarDay(s.ledger.valueDate)!) !==
      rollForward(calendarDay(s.statement!.valueDate)!),
};

/**
 * Classify a reconciliation state by the rule table.
 *
 * The checks run in `RECONCILIATION_RULES.priority` order and the first that
 * holds decides the class; when none holds the pair is a MATCH. Cost is O(1)
 * plus the prior bookings.
 *
 * @param state A reconciliation state; ledger fields are assumed well formed
 * (the task loader checks them).
 * @returns The exception class, or `"MATCH"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyReconciliation } from "./verify_reconciliation.ts";
 *
 * const ledger = {
 *   reference: "INV-2024-001234", amount: "100.00", currency: "EUR",
 *   counterpartyBic: "DEUTDEFF", beneficiaryName: "Acme Trading Ltd",
 *   valueDate: "2024-03-09", bookingDate: "2024-03-09",
 * };
 * const statement = {
 *   ...ledger, reference: "inv 2024 001234", amount: "100.05",
 *   counterpartyBic: "DEUTDEFFXXX", beneficiaryName: "ACME TRADING", valueDate: "2024-03-11",
 * };
 * const s = { ledger, statement, fxRate: null, priorBookings: [] };
 * assert.equal(classifyReconciliation(s), "MATCH");
 * assert.equal(classifyReconciliation({ ...s, statement: { ...statement, amount: "100.06" } }), "AMOUNT_MISMATCH");
 * ```
 */
export function classifyReconciliation(
  state: ReconciliationState,
): ReconciliationClass {
  for (const cls of RULES.priority) {
    if (CHECKS[cls](state)) return cls;
  }
  return "MATCH";
}

/**
 * Evaluate every exception check on its own, ignoring priority.
 *
 * Useful to see which discrepancies a state carries at once. A check whose
 * inputs are missing or malformed reports `false` (for example every
 * statement check when the statement is null).
 *
 * @param state A reconciliation state.
 * @returns The classes whose check holds, in priority order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reconciliationFindings } from "./verify_reconciliation.ts";
 *
 * const e = {
 *   reference: "INV-2024-001234", amount: "100.00", currency: "EUR",
 *   counterpartyBic: "DEUTDEFF", beneficiaryName: "Acme", valueDate: "2024-03-08",
 *   bookingDate: "2024-03-08",
 * };
 * const s = { ledger: e, statement: { ...e, amount: "90.00", counterpartyBic: "DEUTDEFA" }, fxRate: null, priorBookings: [] };
 * assert.deepEqual(reconciliationFindings(s), ["AMOUNT_MISMATCH", "COUNTERPARTY_MISMATCH"]);
 * ```
 */
export function reconciliationFindings(
  state: ReconciliationState,
): ReconciliationClass[] {
  const out: ReconciliationClass[] = [];
  const statementUsable = state.statement !== null &&
    wellFormed(state.statement);
  for (const cls of RULES.priority) {
    const needsStatement = cls !== "MISSING_MESSAGE" && cls !== "DUPLICATE";
    if (needsStatement && !statementUsable && cls !== "FIELD_CORRUPTION") {
      continue;
    }
    if (CHECKS[cls](state)) out.push(cls);
  }
  return out;
}

/**
 * Recompute the gold answer of a reconciliation state.
 *
 * @param state A reconciliation state.
 * @returns `{ verdict, exceptionType, severity }` from the rule table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifyReconciliation } from "./verify_reconciliation.ts";
 *
 * const e = {
 *   reference: "PO-2025-778812", amount: "5.00", currency: "EUR", counterpartyBic: "BNPAFRPP",
 *   beneficiaryName: "Fjord Foods", valueDate: "2025-01-06", bookingDate: "2025-01-06",
 * };
 * assert.deepEqual(verifyReconciliation({ ledger: e, statement: null, fxRate: null, priorBookings: [] }), {
 *   verdict: "EXCEPTION", exceptionType: "MISSING_MESSAGE", severity: "MEDIUM",
 * });
 * ```
 */
export function verifyReconciliation(state: ReconciliationState): Gold {
  const cls = classifyReconciliation(state);
  const rule = RULES.classes[cls];
  return {
    verdict: rule.verdict,
    exceptionType: cls === "MATCH" ? null : cls,
    severity: rule.severity,
  };
}
