/**
 * The payment-repair generator: builds a failed payment and its context,
 * then injects the intended exception signal. The verifier decides whether
 * the candidate is admitted.
 *
 * @module
 */

import {
  amountCents,
  bicAlias,
  bicOneOff,
  businessDay,
  centsToDecimal,
  changeChar,
  chars,
  cosmeticName,
  dayToIso,
  DIGITS,
  HEX,
  isWeekendDay,
  randomBic,
  randomName,
  randomUuid,
  renderName,
  UPPER,
  weekday,
} from "./_gen_util.ts";
import {
  PAYMENT_REPAIR_RULES,
  type PaymentRepairClass,
} from "./payment_repair_rules.ts";
import { chance, drawInt, pick, type TaskRng } from "./task_rng.ts";
import type { Gold, PaymentRepairState } from "./task.ts";

const RULES = PAYMENT_REPAIR_RULES;
const COUNTRIES = Object.keys(
  RULES.ibanFormats,
) as (keyof typeof RULES.ibanFormats)[];
const WORDS = [
  "Invoice",
  "order",
  "rent",
  "March",
  "services",
  "consulting",
  "delivery",
  "batch",
  "contract",
  "refund",
  "fees",
  "quarter",
  "project",
  "licence",
  "balance",
  "advance",
];

/** A valid IBAN of a country (check digits by ISO 7064 mod 97-10, computed with BigInt). */
function makeIban(rng: TaskRng, country: string): string {
  const f = RULES.ibanFormats[country as keyof typeof RULES.ibanFormats];
  let bban = "";
  for (const c of f.bban) {
    bban += c === "n" ? chars(rng, DIGITS, 1) : chars(rng, UPPER, 1);
  }
  const digits = (bban + country + "00").replace(
    /[A-Z]/g,
    (ch) => String(ch.charCodeAt(0) - 55),
  );
  const check = 98n - (BigInt(digits) % 97n);
  return country + String(check).padStart(2, "0") + bban;
}

function grouped(iban: string): string {
  return iban.replace(/(.{4})/g, "$1 ").trim();
}

function bankKey(iban: string): string {
  const f =
    RULES.ibanFormats[iban.slice(0, 2) as keyof typeof RULES.ibanFormats];
  return `${iban.slice(0, 2)}:${iban.slice(f.bankCode[0], f.bankCode[1])}`;
}

function remittance(rng: TaskRng, length: number): string {
  let s = `${pick(rng, WORDS)} ${chars(rng, DIGITS, drawInt(rng, 4, 8))}`;
  while (s.length < length) s += ` ${pick(rng, WORDS)}`;
  return s.slice(0, length).trimEnd().padEnd(length, "x");
}

type Mutable<T> = {
  -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? Mutable<U>[]
    : T[K] extends object ? Mutable<T[K]>
    : T[K];
};

interface Draft {
  s: Mutable<PaymentRepairState>;
  cents: number;
  limitCents: number;
  businessDay: number;
  creditorIban: string;
  safe: boolean;
}

function base(rng: TaskRng, d: number): Draft {
  const bizDay = businessDay(rng);
  const creditorIban = makeIban(rng, pick(rng, COUNTRIES));
  const creditorBic = randomBic(rng, creditorIban.slice(0, 2));
  const cents = amountCents(rng, 2, 7);
  let execDay = bizDay + drawInt(rng, 0, 6);
  while (isWeekendDay(execDay)) execDay++;
  const directory = [{ bankCode: bankKey(creditorIban), bic: creditorBic }];
  for (let i = drawInt(rng, 1, 3); i > 0; i--) {
    const other = makeIban(rng, pick(rng, COUNTRIES));
    directory.push({
      bankCode: bankKey(other),
      bic: randomBic(rng, other.slice(0, 2)),
    });
  }
  directory.sort((a, b) =>
    a.bankCode < b.bankCode ? -1 : a.bankCode > b.bankCode ? 1 : 0
  );
  const name = randomName(rng);
  const draft: Draft = {
    s: {
      messageType: pick(rng, ["pacs.008", "MT103"]),
      uetr: randomUuid(rng),
      amount: "",
      currency: pick(rng, ["EUR", "EUR", "GBP", "CHF", "USD"]),
      executionDate: dayToIso(execDay),
      businessDate: dayToIso(bizDay),
      debtor: {
        name: renderName(randomName(rng)),
        iban: makeIban(rng, pick(rng, COUNTRIES)),
      },
      creditor: {
        name: renderName(name),
        iban: creditorIban,
        bic: creditorBic,
      },
      remittanceInfo: remittance(rng, drawInt(rng, 12, 90)),
      fraudScore: drawInt(rng, 0, RULES.fraudThreshold - 15),
      debtorLimit: "",
      recentUetrs: [],
      muleAccounts: [],
      bicDirectory: directory,
    },
    cents,
    limitCents: Math.round(cents * drawInt(rng, 1200, 8000) / 1000),
    businessDay: bizDay,
    creditorIban,
    safe: true,
  };
  for (let i = drawInt(rng, 1, 4); i > 0; i--) {
    draft.s.recentUetrs.push(randomUuid(rng));
  }
  for (let i = drawInt(rng, 1, 3); i > 0; i--) {
    draft.s.muleAccounts.push(makeIban(rng, pick(rng, COUNTRIES)));
  }
  // Near-miss levers, each with probability difficulty.
  if (chance(rng, d)) draft.s.fraudScore = RULES.fraudThreshold - 1;
  if (chance(rng, d)) {
    draft.s.muleAccounts.push(
      changeChar(
        rng,
        creditorIban,
        drawInt(rng, 4, creditorIban.length - 1),
        DIGITS,
      ),
    );
  }
  if (chance(rng, d)) {
    draft.s.recentUetrs.push(
      changeChar(rng, draft.s.uetr, drawInt(rng, 0, 7), HEX),
    );
  }
  if (chance(rng, d)) draft.limitCents = cents;
  if (chance(rng, d)) {
    draft.s.creditor.iban = chance(rng, 500)
      ? grouped(creditorIban)
      : grouped(creditorIban).toLowerCase();
  }
  if (chance(rng, d)) {
    const alias = bicAlias(creditorBic);
    if (alias !== null) draft.s.creditor.bic = alias;
  }
  if (chance(rng, d)) draft.s.executionDate = draft.s.businessDate;
  if (chance(rng, d)) {
    draft.s.remittanceInfo = remittance(rng, RULES.remittanceMaxLength);
  }
  if (chance(rng, d)) {
    const extra = pick(rng, ["'", "+", "?", ":", "(", ")", "/"]);
    draft.s.creditor.name = chance(rng, 500)
      ? cosmeticName(rng, name).replace(" ", ` ${extra} `)
      : draft.s.creditor.name;
    const r = draft.s.remittanceInfo;
    const i = drawInt(rng, 1, Math.max(1, r.length - 1));
    draft.s.remittanceInfo = (r.slice(0, i) + extra + r.slice(i + 1)).slice(
      0,
      r.length,
    );
  }
  return draft;
}

function inject(
  draft: Draft,
  cls: PaymentRepairClass,
  rng: TaskRng,
  d: number,
): void {
  const near = chance(rng, d);
  const s = draft.s;
  switch (cls) {
    case "NO_EXCEPTION":
      return;
    case "FRAUD_HOLD":
      if (chance(rng, 500)) {
        s.fraudScore = near
          ? RULES.fraudThreshold
          : drawInt(rng, RULES.fraudThreshold + 1, 100);
      } else {
        const listed = near
          ? grouped(normalIbanOf(s.creditor.iban))
          : normalIbanOf(s.creditor.iban);
        s.muleAccounts.splice(
          drawInt(rng, 0, s.muleAccounts.length),
          0,
          listed,
        );
      }
      return;
    case "DUPLICATE_PAYMENT":
      s.recentUetrs.splice(
        drawInt(rng, 0, s.recentUetrs.length),
        0,
        near ? s.uetr.toUpperCase() : s.uetr,
      );
      return;
    case "LIMIT_EXCEEDED":
      draft.limitCents = near
        ? draft.cents - 1
        : Math.floor(draft.cents * drawInt(rng, 200, 950) / 1000);
      return;
    case "INVALID_IBAN": {
      const iban = normalIbanOf(s.creditor.iban);
      if (near) {
        const i = drawInt(rng, 4, iban.length - 2);
        s.creditor.iban = chance(rng, 500)
          ? changeChar(rng, iban, i, /[0-9]/.test(iban[i]) ? DIGITS : UPPER)
          : iban.slice(0, i) + iban[i + 1] + iban[i] + iban.slice(i + 2);
      } else {
        s.creditor.iban = chance(rng, 500)
          ? iban.slice(0, -1)
          : "XK" + iban.slice(2);
      }
      return;
    }
    case "BIC_MISMATCH":
      s.creditor.bic = near ? bicOneOff(rng, s.creditor.bic) : randomBic(rng);
      return;
    case "INVALID_EXECUTION_DATE": {
      const biz = draft.businessDay;
      const variant = drawInt(rng, 0, 2);
      if (variant === 0) {
        // a weekend date, in the future: safe to roll
        let day = biz + drawInt(rng, 1, 10);
        while (weekday(day) !== 6) day++;
        s.executionDate = dayToIso(day + drawInt(rng, 0, 1));
        draft.safe = true;
      } else if (variant === 1) {
        const back = near
          ? RULES.maxRollbackDays
          : drawInt(rng, 1, RULES.maxRollbackDays);
        s.executionDate = dayToIso(biz - back);
        draft.safe = true;
      } else {
        const back = near
          ? RULES.maxRollbackDays + 1
          : drawInt(rng, RULES.maxRollbackDays + 1, 60);
        s.executionDate = dayToIso(biz - back);
        draft.safe = false;
      }
      return;
    }
    case "INVALID_CHARACTERS": {
      const bad = near
        ? pick(rng, ["&", "_", "#", "@"])
        : pick(rng, ["é", "ü", "ß", "€", "ø"]);
      if (chance(rng, 500)) {
        const n = s.creditor.name;
        const i = drawInt(rng, 1, n.length - 1);
        s.creditor.name = n.slice(0, i) + bad + n.slice(i + 1);
      } else {
        const r = s.remittanceInfo;
        const i = drawInt(rng, 0, r.length - 1);
        s.remittanceInfo = r.slice(0, i) + bad + r.slice(i + 1);
      }
      return;
    }
    case "REMITTANCE_TOO_LONG":
      s.remittanceInfo = remittance(
        rng,
        near
          ? RULES.remittanceMaxLength + 1
          : drawInt(rng, RULES.remittanceMaxLength + 2, 280),
      );
      return;
  }
}

function normalIbanOf(iban: string): string {
  return iban.replaceAll(" ", "").toUpperCase();
}

function render(draft: Draft): PaymentRepairState {
  return {
    ...draft.s,
    amount: centsToDecimal(draft.cents),
    debtorLimit: centsToDecimal(draft.limitCents),
  };
}

/** The intended gold answer of a class (and, for a date repair, its safety). */
function intendedGold(cls: PaymentRepairClass, safe: boolean): Gold {
  const rule = RULES.classes[cls] as {
    severity: Gold["severity"];
    verdict: string;
    repairSafe: boolean | "conditional";
    repairAction: string;
    unsafe?: { verdict: string; repairAction: string };
  };
  const isSafe = rule.repairSafe === "conditional" ? safe : rule.repairSafe;
  const alt = !isSafe && rule.unsafe !== undefined ? rule.unsafe : rule;
  return {
    verdict: alt.verdict,
    exceptionType: cls === "NO_EXCEPTION" ? null : cls,
    severity: rule.severity,
    repairSafe: isSafe,
    repairAction: alt.repairAction,
  };
}

/**
 * Make one payment-repair candidate of an intended class.
 *
 * Near-miss levers (each with probability difficulty): a fraud score one
 * below the threshold, a watch-list IBAN one character off, a recent UETR
 * one character off, an amount equal to the limit, an IBAN printed in groups
 * or lower case, the other spelling of the BIC, an execution date of today, a
 * remittance of exactly the maximum length, unusual but allowed characters.
 * The injected signal is itself a near miss with probability difficulty.
 *
 * @param rng The task generator; it advances.
 * @param cls The intended class.
 * @param difficultyMilli Difficulty in thousandths.
 * @returns The state and the intended gold answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paymentRepairCandidate } from "./generate_payment_repair.ts";
 * import { taskRng } from "./task_rng.ts";
 *
 * const c = paymentRepairCandidate(taskRng(1, 0), "FRAUD_HOLD", 0);
 * assert.equal(c.gold.severity, "CRITICAL");
 * assert.equal(c.gold.repairSafe, false);
 * ```
 */
export function paymentRepairCandidate(
  rng: TaskRng,
  cls: PaymentRepairClass,
  difficultyMilli: number,
): { state: PaymentRepairState; gold: Gold } {
  const draft = base(rng, difficultyMilli);
  inject(draft, cls, rng, difficultyMilli);
  return { state: render(draft), gold: intendedGold(cls, draft.safe) };
}

/**
 * Make a payment-repair state carrying several exception signals at once,
 * for testing the priority order. Signals are injected lowest priority first.
 *
 * @param rng The task generator; it advances.
 * @param classes Exception classes to inject.
 * @param difficultyMilli Difficulty in thousandths.
 * @returns The state.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paymentRepairMulti } from "./generate_payment_repair.ts";
 * import { taskRng } from "./task_rng.ts";
 *
 * const s = paymentRepairMulti(taskRng(1, 0), ["REMITTANCE_TOO_LONG", "LIMIT_EXCEEDED"], 0);
 * assert.ok(s.remittanceInfo.length > 140);
 * ```
 */
export function paymentRepairMulti(
  rng: TaskRng,
  classes: readonly PaymentRepairClass[],
  difficultyMilli: number,
): PaymentRepairState {
  const draft = base(rng, difficultyMilli);
  const order = [...RULES.priority].reverse();
  for (const cls of order) {
    if (classes.includes(cls)) inject(draft, cls, rng, difficultyMilli);
  }
  return render(draft);
}
