/**
 * Near-miss detection: which of a task's decision quantities sit at the
 * edge of a rule, measured from the task's fields alone.
 *
 * @module
 */

import {
  bic11,
  calendarDay,
  cents,
  clockMinutes,
  micros,
  minuteOf,
  mulMicrosRounded,
  nameWords,
  normalIban,
  normalReference,
  overlap,
  rollForward,
} from "./_verify_util.ts";
import { PAYMENT_REPAIR_RULES } from "./payment_repair_rules.ts";
import { RECONCILIATION_RULES } from "./reconciliation_rules.ts";
import { SETTLEMENT_RULES } from "./settlement_rules.ts";
import type {
  PaymentRepairState,
  ReconciliationState,
  SettlementState,
  Task,
} from "./task.ts";

function hamming1(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && ++d > 1) return false;
  return d === 1;
}

function bicNear(a: string, b: string): boolean {
  return (a !== b && bic11(a) === bic11(b)) || hamming1(bic11(a), bic11(b));
}

function isWeekend(date: string): boolean {
  const d = calendarDay(date);
  return d !== null && (d.dow === 0 || d.dow === 6);
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

function reconciliation(s: ReconciliationState): string[] {
  const R = RECONCILIATION_RULES;
  const out: string[] = [];
  const l = s.ledger;
  const st = s.statement;
  const lRef = normalReference(l.reference);
  if (
    s.priorBookings.some((p) =>
      normalReference(p.reference) === lRef &&
      (p.reference !== l.reference || p.amount !== l.amount ||
        p.valueDate !== l.valueDate)
    )
  ) out.push("duplicate-decoy");
  if (isWeekend(l.valueDate)) out.push("weekend-date");
  if (st === null) return out;
  const sRef = normalReference(st.reference);
  if (st.reference !== l.reference && sRef === lRef) {
    out.push("reference-variant");
  }
  const shorter = Math.min(sRef.length, lRef.length);
  if (
    sRef !== lRef &&
    ((shorter >= R.referenceMinPrefix - 1 && shorter <= R.referenceMinPrefix &&
      (sRef.startsWith(lRef.slice(0, shorter)) ||
        lRef.startsWith(sRef.slice(0, shorter)))) ||
      hamming1(sRef, lRef))
  ) out.push("reference-edge");
  const a = cents(l.amount);
  const b = cents(st.amount);
  if (a !== null && b !== null) {
    if (st.currency === l.currency) {
      const diff = abs(a - b);
      const tol = BigInt(R.amountToleranceMinor);
      if (diff === tol || diff === tol + 1n) out.push("amount-at-tolerance");
    } else {
      const rate = micros(s.fxRate);
      if (rate !== null) {
        const expected = mulMicrosRounded(a, rate);
        const edge = expected * BigInt(R.fxToleranceBp) / 10_000n;
        const dev = abs(b - expected);
        if (dev === edge || dev === edge + 1n) out.push("fx-at-tolerance");
      }
    }
  }
  if (st.beneficiaryName !== l.beneficiaryName) {
    const { shared, union } = overlap(
      nameWords(l.beneficiaryName, R.legalForms),
      nameWords(st.beneficiaryName, R.legalForms),
    );
    if (shared === union) out.push("name-cosmetic");
    else if (shared > 0) out.push("name-partial-overlap");
  }
  if (bicNear(l.counterpartyBic, st.counterpartyBic)) out.push("bic-variant");
  if (isWeekend(st.valueDate) && !out.includes("weekend-date")) {
    out.push("weekend-date");
  }
  const x = calendarDay(l.valueDate);
  const y = calendarDay(st.valueDate);
  if (x !== null && y !== null && x.day !== y.day) {
    const gap = Math.abs(x.day - y.day);
    if (
      gap <= 4 && Math.abs(rollForward(x) - rollForward(y)) <= 3 &&
      (x.dow === 5 || y.dow === 5)
    ) {
      out.push("date-across-weekend");
    }
  }
  return out;
}

function paymentRepair(s: PaymentRepairState): string[] {
  const R = PAYMENT_REPAIR_RULES;
  const out: string[] = [];
  if (
    s.fraudScore === R.fraudThreshold - 1 || s.fraudScore === R.fraudThreshold
  ) {
    out.push("fraud-score-at-threshold");
  }
  const iban = normalIban(s.creditor.iban);
  if (
    s.muleAccounts.some((m) =>
      (m !== s.creditor.iban && normalIban(m) === iban) ||
      hamming1(normalIban(m), iban)
    )
  ) {
    out.push("mule-lookalike");
  }
  if (s.creditor.iban !== iban) out.push("iban-formatting");
  const u = s.uetr.toLowerCase();
  if (
    s.recentUetrs.some((r) =>
      (r !== s.uetr && r.toLowerCase() === u) || hamming1(r.toLowerCase(), u)
    )
  ) {
    out.push("uetr-lookalike");
  }
  const a = cents(s.amount);
  const lim = cents(s.debtorLimit);
  if (a !== null && lim !== null && (a === lim || a === lim + 1n)) {
    out.push("amount-at-limit");
  }
  const key = iban.slice(0, 2);
  if (
    s.bicDirectory.some((e) =>
      e.bankCode.startsWith(`${key}:`) && bicNear(e.bic, s.creditor.bic)
    )
  ) {
    out.push("bic-variant");
  }
  const exec = calendarDay(s.executionDate);
  const biz = calendarDay(s.businessDate);
  if (exec !== null && biz !== null) {
    const back = biz.day - exec.day;
    if (exec.dow === 0 || exec.dow === 6) out.push("weekend-date");
    if (
      back === 0 || back === R.maxRollbackDays || back === R.maxRollbackDays + 1
    ) {
      out.push("date-at-edge");
    }
  }
  const len = s.remittanceInfo.length;
  if (len === R.remittanceMaxLength || len === R.remittanceMaxLength + 1) {
    out.push("remittance-at-limit");
  }
  if (/['+?:()/]/.test(s.creditor.name + s.remittanceInfo)) {
    out.push("unusual-allowed-characters");
  }
  return out;
}

function settlement(s: SettlementState): string[] {
  const R = SETTLEMENT_RULES;
  const out: string[] = [];
  const v = calendarDay(s.valueDate)!;
  if (v.dow === 0 || v.dow === 6) out.push("weekend-date");
  const cutoff = (R.cutoffs as Record<string, string>)[s.buy.currency];
  const deadline = rollForward(v) * 1440 + clockMinutes(cutoff);
  const asOf = minuteOf(s.asOf)!;
  if (s.receiveLeg === "PENDING" && Math.abs(asOf - deadline) <= 1) {
    out.push("at-deadline");
  }
  if (
    s.method === "CLS" && s.payLeg === "SENT" && s.receiveLeg === "PENDING" &&
    asOf > deadline
  ) {
    out.push("herstatt-lookalike");
  }
  const usd = mulMicrosRounded(cents(s.sell.amount)!, micros(s.sellUsdRate)!);
  if (abs(cents(s.limitUsd)! - cents(s.usedLimitUsd)! - usd) <= 1n) {
    out.push("limit-at-edge");
  }
  if (R.exposureBuckets.some((b) => abs(usd - cents(b.below)!) <= 1n)) {
    out.push("exposure-at-boundary");
  }
  if (
    s.confirmation !== null &&
    bicNear(s.confirmation.counterpartyBic, s.counterparty.bic)
  ) {
    out.push("bic-variant");
  }
  return out;
}

/**
 * List the near-miss signals of a task: rule inputs within one step of a
 * threshold, or spelled differently from what they equal.
 *
 * Measured from the task's fields alone (not from a generator flag), so it
 * can audit any task file. Signals by domain:
 * - reconciliation: amount or FX deviation at the tolerance (or one cent
 *   past it), cosmetic or partly-overlapping names, BIC spelled 8/11 or one
 *   character off, a re-spaced reference or one cut near the minimum prefix,
 *   a weekend value date or a Friday/Monday pair, a prior booking that almost
 *   duplicates the entry;
 * - payment_repair: fraud score at the threshold, a watch-list IBAN or recent
 *   UETR spelled differently or one character off, amount at the limit, an
 *   IBAN printed in groups, BIC variants, weekend or edge execution dates,
 *   remittance at the length limit, unusual allowed characters;
 * - settlement: observed at the deadline, weekend value date, a CLS trade that
 *   looks like Herstatt exposure, limit or exposure boundary within a cent,
 *   BIC variants.
 *
 * @param task The task's domain and state.
 * @returns Signal names; empty when the task is plain.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nearMissSignals } from "./near_miss.ts";
 * import { generateTask } from "./generate.ts";
 *
 * const easy = generateTask("settlement", 7, 0, { difficulty: 0 });
 * const hard = generateTask("settlement", 7, 0, { difficulty: 1 });
 * assert.ok(nearMissSignals(hard).length >= nearMissSignals(easy).length);
 * ```
 */
export function nearMissSignals(
  task: Pick<Task, "domain" | "state">,
): string[] {
  switch (task.domain) {
    case "reconciliation":
      return reconciliation(task.state as ReconciliationState);
    case "payment_repair":
      return paymentRepair(task.state as PaymentRepairState);
    default:
      return settlement(task.state as SettlementState);
  }
}
