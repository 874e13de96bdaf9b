/**
 * The independent settlement verifier: recomputes the signal, verdict and
 * exposure class from the task's fields and the rule table alone.
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
  rollForward,
} from "./_verify_util.ts";
import { SETTLEMENT_RULES, type SettlementClass } from "./settlement_rules.ts";
import type { Gold, SettlementState } from "./task.ts";

const RULES = SETTLEMENT_RULES;

type ExceptionClass = Exclude<SettlementClass, "ON_TIME">;

function receiveLate(s: SettlementState): boolean {
  if (s.receiveLeg !== "PENDING") return false;
  const cutoff = (RULES.cutoffs as Record<string, string>)[s.buy.currency];
  const deadline = rollForward(calendarDay(s.valueDate)!) * 1440 +
    clockMinutes(cutoff);
  return minuteOf(s.asOf)! > deadline;
}

function sellUsd(s: SettlementState): bigint {
  return mulMicrosRounded(cents(s.sell.amount)!, micros(s.sellUsdRate)!);
}

const CHECKS: Record<ExceptionClass, (s: SettlementState) => boolean> = {
  HERSTATT_EXPOSURE: (s) =>
    s.method === "BILATERAL" && s.payLeg === "SENT" && receiveLate(s),
  LIMIT_BREACH: (s) => cents(s.usedLimitUsd)! + sellUsd(s) > cents(s.limitUsd)!,
  COUNTERPARTY_MISMATCH: (s) =>
    s.confirmation !== null &&
    bic11(s.confirmation.counterpartyBic) !== bic11(s.counterparty.bic),
  MISSING_CONFIRMATION: (s) => s.confirmation === null,
  DELAYED: (s) => receiveLate(s),
};

/**
 * Classify a settlement state by the rule table.
 *
 * The checks run in `SETTLEMENT_RULES.priority` order; the first that holds
 * decides; when none holds the trade is `ON_TIME`.
 *
 * @param state A settlement state (dates, times and amounts well formed; the
 * task loader checks them).
 * @returns The signal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifySettlement } from "./verify_settlement.ts";
 *
 * const s = {
 *   tradeId: "FX1", tradeDate: "2024-03-06", valueDate: "2024-03-08", method: "BILATERAL",
 *   sell: { currency: "USD", amount: "5000000.00" }, buy: { currency: "EUR", amount: "4600000.00" },
 *   counterparty: { name: "Baltic Capital", bic: "BALTDEFF" },
 *   confirmation: { counterpartyBic: "BALTDEFFXXX", reference: "C1" },
 *   payLeg: "SENT", receiveLeg: "PENDING", asOf: "2024-03-08T16:00Z",
 *   sellUsdRate: "1.000000", limitUsd: "9000000.00", usedLimitUsd: "0.00",
 * };
 * assert.equal(classifySettlement(s), "ON_TIME");
 * assert.equal(classifySettlement({ ...s, asOf: "2024-03-08T16:01Z" }), "HERSTATT_EXPOSURE");
 * assert.equal(classifySettlement({ ...s, method: "CLS", asOf: "2024-03-08T16:01Z" }), "DELAYED");
 * ```
 */
export function classifySettlement(state: SettlementState): SettlementClass {
  for (const cls of RULES.priority) {
    if (CHECKS[cls](state)) return cls;
  }
  return "ON_TIME";
}

/**
 * Evaluate every settlement check on its own, ignoring priority.
 *
 * @param state A settlement state.
 * @returns The signals whose check holds, in priority order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settlementFindings } from "./verify_settlement.ts";
 *
 * const s = {
 *   tradeId: "FX1", tradeDate: "2024-03-06", valueDate: "2024-03-08", method: "BILATERAL",
 *   sell: { currency: "USD", amount: "5000000.00" }, buy: { currency: "EUR", amount: "4600000.00" },
 *   counterparty: { name: "Baltic Capital", bic: "BALTDEFF" }, confirmation: null,
 *   payLeg: "SENT", receiveLeg: "PENDING", asOf: "2024-03-08T16:01Z",
 *   sellUsdRate: "1.000000", limitUsd: "9000000.00", usedLimitUsd: "0.00",
 * };
 * assert.deepEqual(settlementFindings(s), ["HERSTATT_EXPOSURE", "MISSING_CONFIRMATION", "DELAYED"]);
 * ```
 */
export function settlementFindings(state: SettlementState): SettlementClass[] {
  return RULES.priority.filter((cls) => CHECKS[cls](state));
}

/**
 * Recompute the gold answer of a settlement state: signal, verdict,
 * severity and exposure class.
 *
 * @param state A settlement state.
 * @returns The gold answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifySettlement } from "./verify_settlement.ts";
 *
 * const s = {
 *   tradeId: "FX1", tradeDate: "2024-03-06", valueDate: "2024-03-08", method: "CLS",
 *   sell: { currency: "USD", amount: "1000000.00" }, buy: { currency: "EUR", amount: "920000.00" },
 *   counterparty: { name: "Baltic Capital", bic: "BALTDEFF" }, confirmation: null,
 *   payLeg: "PENDING", receiveLeg: "PENDING", asOf: "2024-03-07T09:00Z",
 *   sellUsdRate: "1.000000", limitUsd: "9000000.00", usedLimitUsd: "0.00",
 * };
 * assert.deepEqual(verifySettlement(s), {
 *   verdict: "CHASE", exceptionType: "MISSING_CONFIRMATION", severity: "MEDIUM",
 *   exposureClass: "1M_TO_10M",
 * });
 * ```
 */
export function verifySettlement(state: SettlementState): Gold {
  const cls = classifySettlement(state);
  const rule = RULES.classes[cls];
  let exposure: string = RULES.exposureNone;
  if (cls !== "ON_TIME") {
    const usd = sellUsd(state);
    exposure = RULES.exposureTop;
    for (const bucket of RULES.exposureBuckets) {
      if (usd < cents(bucket.below)!) {
        exposure = bucket.label;
        break;
      }
    }
  }
  return {
    verdict: rule.verdict,
    exceptionType: cls === "ON_TIME" ? null : cls,
    severity: rule.severity,
    exposureClass: exposure,
  };
}
