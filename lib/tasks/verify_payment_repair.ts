/**
 * The independent payment-repair verifier: recomputes verdict, repair
 * safety and action from the task's fields and the rule table alone.
 *
 * @module
 */

import {
  bic11,
  calendarDay,
  cents,
  ibanRemainder,
  normalIban,
} from "./_verify_util.ts";
import {
  PAYMENT_REPAIR_RULES,
  type PaymentRepairClass,
} from "./payment_repair_rules.ts";
import type { Gold, PaymentRepairState } from "./task.ts";

const RULES = PAYMENT_REPAIR_RULES;
const ALLOWED = new RegExp(RULES.allowedCharacters);

type ExceptionClass = Exclude<PaymentRepairClass, "NO_EXCEPTION">;

function ibanFormat(iban: string) {
  return (RULES.ibanFormats as Record<
    string,
    (typeof RULES.ibanFormats)[keyof typeof RULES.ibanFormats]
  >)[
    iban.slice(0, 2)
  ];
}

function validIban(raw: string): boolean {
  const iban = normalIban(raw);
  const f = ibanFormat(iban);
  if (f === undefined || iban.length !== f.length) return false;
  if (!/^[A-Z]{2}[0-9]{2}$/.test(iban.slice(0, 4))) return false;
  for (let i = 0; i < f.bban.length; i++) {
    const ch = iban[4 + i];
    const ok = f.bban[i] === "n"
      ? ch >= "0" && ch <= "9"
      : ch >= "A" && ch <= "Z";
    if (!ok) return false;
  }
  return ibanRemainder(iban) === 1;
}

/** Calendar days from `a` to `b` (b - a), or null when a date is not real. */
function daysBetween(a: string, b: string): number | null {
  const x = calendarDay(a);
  const y = calendarDay(b);
  return x === null || y === null ? null : y.day - x.day;
}

const CHECKS: Record<ExceptionClass, (s: PaymentRepairState) => boolean> = {
  FRAUD_HOLD: (s) => {
    if (s.fraudScore >= RULES.fraudThreshold) return true;
    const iban = normalIban(s.creditor.iban);
    return s.muleAccounts.some((m) => normalIban(m) === iban);
  },
  DUPLICATE_PAYMENT: (s) => {
    const u = s.uetr.toLowerCase();
    return s.recentUetrs.some((r) => r.toLowerCase() === u);
  },
  LIMIT_EXCEEDED: (s) => cents(s.amount)! > cents(s.debtorLimit)!,
  INVALID_IBAN: (s) => !validIban(s.creditor.iban),
  BIC_MISMATCH: (s) => {
    const iban = normalIban(s.creditor.iban);
    const f = ibanFormat(iban)!;
    const key = `${iban.slice(0, 2)}:${
      iban.slice(f.bankCode[0], f.bankCode[1])
    }`;
    const entry = s.bicDirectory.find((e) => e.bankCode === key);
    return entry !== undefined && bic11(entry.bic) !== bic11(s.creditor.bic);
  },
  INVALID_EXECUTION_DATE: (s) => {
    const exec = calendarDay(s.executionDate);
    if (exec === null) return true;
    return exec.dow === 0 || exec.dow === 6 ||
      daysBetween(s.businessDate, s.executionDate)! < 0;
  },
  INVALID_CHARACTERS: (s) =>
    !ALLOWED.test(s.creditor.name) || !ALLOWED.test(s.remittanceInfo),
  REMITTANCE_TOO_LONG: (s) =>
    s.remittanceInfo.length > RULES.remittanceMaxLength,
};

/**
 * Classify a payment-repair state by the rule table.
 *
 * The checks run in `PAYMENT_REPAIR_RULES.priority` order; the first that
 * holds decides; when none holds the class is `NO_EXCEPTION`.
 *
 * @param state A payment-repair state.
 * @returns The class.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyPaymentRepair } from "./verify_payment_repair.ts";
 *
 * const s = {
 *   messageType: "pacs.008", uetr: "0d1b2c3a-1111-4222-8333-444455556666", amount: "100.00",
 *   currency: "EUR", executionDate: "2024-03-11", businessDate: "2024-03-11",
 *   debtor: { name: "Acme", iban: "DE89370400440532013000" },
 *   creditor: { name: "Fjord Foods", iban: "DE89 3704 0044 0532 0130 00", bic: "COBADEFF" },
 *   remittanceInfo: "Invoice 4711", fraudScore: 69, debtorLimit: "100.00",
 *   recentUetrs: [], muleAccounts: [], bicDirectory: [{ bankCode: "DE:37040044", bic: "COBADEFFXXX" }],
 * };
 * assert.equal(classifyPaymentRepair(s), "NO_EXCEPTION");
 * assert.equal(classifyPaymentRepair({ ...s, fraudScore: 70 }), "FRAUD_HOLD");
 * ```
 */
export function classifyPaymentRepair(
  state: PaymentRepairState,
): PaymentRepairClass {
  for (const cls of RULES.priority) {
    if (CHECKS[cls](state)) return cls;
  }
  return "NO_EXCEPTION";
}

/**
 * Evaluate every payment-repair check on its own, ignoring priority.
 *
 * Checks that need a valid creditor IBAN (the BIC check) are skipped when
 * the IBAN is invalid.
 *
 * @param state A payment-repair state.
 * @returns The classes whose check holds, in priority order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paymentRepairFindings } from "./verify_payment_repair.ts";
 *
 * const s = {
 *   messageType: "MT103", uetr: "0d1b2c3a-1111-4222-8333-444455556666", amount: "100.00",
 *   currency: "EUR", executionDate: "2024-03-11", businessDate: "2024-03-11",
 *   debtor: { name: "Acme", iban: "DE89370400440532013000" },
 *   creditor: { name: "Fjord Foods", iban: "DE89370400440532013000", bic: "COBADEFF" },
 *   remittanceInfo: "x".repeat(141), fraudScore: 90, debtorLimit: "900.00",
 *   recentUetrs: [], muleAccounts: [], bicDirectory: [],
 * };
 * assert.deepEqual(paymentRepairFindings(s), ["FRAUD_HOLD", "REMITTANCE_TOO_LONG"]);
 * ```
 */
export function paymentRepairFindings(
  state: PaymentRepairState,
): PaymentRepairClass[] {
  const ibanOk = !CHECKS.INVALID_IBAN(state);
  return RULES.priority.filter((cls) =>
    (cls !== "BIC_MISMATCH" || ibanOk) && CHECKS[cls](state)
  );
}

/**
 * Recompute the gold answer of a payment-repair state: verdict, exception
 * type, severity, repair safety and action.
 *
 * An invalid execution date is repair-safe only when the date is at most
 * `maxRollbackDays` calendar days before the business date (or later).
 *
 * @param state A payment-repair state.
 * @returns The gold answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifyPaymentRepair } from "./verify_payment_repair.ts";
 *
 * const s = {
 *   messageType: "MT103", uetr: "0d1b2c3a-1111-4222-8333-444455556666", amount: "100.00",
 *   currency: "EUR", executionDate: "2024-03-06", businessDate: "2024-03-11",
 *   debtor: { name: "Acme", iban: "DE89370400440532013000" },
 *   creditor: { name: "Fjord Foods", iban: "DE89370400440532013000", bic: "COBADEFF" },
 *   remittanceInfo: "Invoice 4711", fraudScore: 5, debtorLimit: "900.00",
 *   recentUetrs: [], muleAccounts: [], bicDirectory: [],
 * };
 * assert.deepEqual(verifyPaymentRepair(s), {
 *   verdict: "REJECT", exceptionType: "INVALID_EXECUTION_DATE", severity: "MEDIUM",
 *   repairSafe: false, repairAction: "RETURN_TO_ORIGINATOR",
 * });
 * ```
 */
export function verifyPaymentRepair(state: PaymentRepairState): Gold {
  const cls = classifyPaymentRepair(state);
  const rule = RULES.classes[cls] as {
    severity: Gold["severity"];
    verdict: string;
    repairSafe: boolean | "conditional";
    repairAction: string;
    unsafe?: { verdict: string; repairAction: string };
  };
  let safe: boolean;
  if (rule.repairSafe === "conditional") {
    const back = daysBetween(state.executionDate, state.businessDate);
    safe = back !== null && back <= RULES.maxRollbackDays;
  } else {
    safe = rule.repairSafe;
  }
  const chosen = safe || rule.unsafe === undefined ? rule : rule.unsafe;
  return {
    verdict: chosen.verdict,
    exceptionType: cls === "NO_EXCEPTION" ? null : cls,
    severity: rule.severity,
    repairSafe: safe,
    repairAction: chosen.repairAction,
  };
}
