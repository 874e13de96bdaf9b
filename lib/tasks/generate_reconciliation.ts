/**
 * The reconciliation generator: builds a clean ledger/statement pair, then
 * injects the intended discrepancy. It states an intended label; whether the
 * candidate is admitted is for the independent verifier to say.
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
  type CompanyName,
  cosmeticName,
  dayToIso,
  DIGITS,
  divRound,
  microsToDecimal,
  otherWord,
  randomBic,
  randomName,
  randomReference,
  renderName,
  weekday,
  weekendDay,
} from "./_gen_util.ts";
import {
  RECONCILIATION_RULES,
  type ReconciliationClass,
} from "./reconciliation_rules.ts";
import { chance, drawInt, pick, type TaskRng } from "./task_rng.ts";
import type { Gold, PriorBooking, ReconciliationState } from "./task.ts";

const RULES = RECONCILIATION_RULES;

// USD value of one unit of each currency, in micro-USD (generator data only).
const USD_MICROS: Record<string, number> = {
  EUR: 1_085_000,
  USD: 1_000_000,
  GBP: 1_270_000,
  CHF: 1_130_000,
  SEK: 95_000,
  NOK: 93_000,
  DKK: 145_000,
  CAD: 735_000,
};

interface Side {
  ref: string;
  cents: bigint;
  currency: string;
  bic: string;
  name: string;
  valueDay: number;
  bookingDay: number;
  /** Corrupted raw values that replace the rendered ones. */
  raw: Partial<Record<keyof ReconciliationState["ledger"], string>>;
}

/** A reconciliation pair under construction (generator-internal numbers). */
export interface ReconciliationDraft {
  /** Ledger side. */
  ledger: Side;
  /** Statement side, `null` when missing. */
  statement: Side | null;
  /** FX rate in micro-units, `null` when none is quoted. */
  rateMicros: number | null;
  /** Prior bookings. */
  prior: { ref: string; cents: bigint; currency: string; valueDay: number }[];
  /** The beneficiary name's parts. */
  name: CompanyName;
}

/** Options of the base pair. */
export interface ReconciliationBaseOptions {
  /** Difficulty in thousandths: the chance of each near-miss lever. */
  difficultyMilli: number;
  /** Whether the statement is in another currency than the ledger. */
  crossCurrency: boolean;
}

function convert(cents: bigint, rateMicros: number): bigint {
  return divRound(cents * BigInt(rateMicros), 1_000_000n);
}

function fxEdge(expected: bigint): bigint {
  return (expected * BigInt(RULES.fxToleranceBp)) / 10_000n;
}

function cosmeticReference(rng: TaskRng, ref: string): string {
  switch (drawInt(rng, 0, 2)) {
    case 0:
      return ref.toLowerCase();
    case 1:
      return ref.replaceAll("-", " ");
    default:
      return ref.replaceAll("-", "");
  }
}

/** Cut a raw reference so that its normalised form keeps `k` characters. */
function truncateReference(ref: string, k: number): string {
  let kept = 0;
  let i = 0;
  for (; i < ref.length && kept < k; i++) {
    if (/[A-Za-z0-9]/.test(ref[i])) kept++;
  }
  return ref.slice(0, i);
}

/**
 * Build a clean pair (a MATCH candidate), with cosmetic near-miss levers
 * applied at the given difficulty.
 *
 * Each lever fires with probability difficulty: an amount difference exactly
 * at the tolerance, the other spelling of the BIC, a cosmetic or
 * partly-overlapping beneficiary name, a re-spaced reference, a weekend value
 * date paired with the following Monday, and a prior booking that almost
 * duplicates the entry.
 *
 * @param rng The task generator; it advances.
 * @param options Difficulty and currency mode.
 * @returns A draft to inject discrepancies into.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reconciliationBase } from "./generate_reconciliation.ts";
 * import { taskRng } from "./task_rng.ts";
 *
 * const d = reconciliationBase(taskRng(1, 0), { difficultyMilli: 0, crossCurrency: false });
 * assert.equal(d.statement?.cents, d.ledger.cents);
 * ```
 */
export function reconciliationBase(
  rng: TaskRng,
  options: ReconciliationBaseOptions,
): ReconciliationDraft {
  const d = options.difficultyMilli;
  const name = randomName(rng);
  const valueDay = businessDay(rng);
  const ledger: Side = {
    ref: randomReference(rng),
    cents: BigInt(amountCents(rng, 2, 7)),
    currency: pick(rng, RULES.currencies),
    bic: randomBic(rng),
    name: renderName(name),
    valueDay,
    bookingDay: valueDay + drawInt(rng, -1, 2),
    raw: {},
  };
  const statement: Side = { ...ledger, raw: {} };
  let rateMicros: number | null = null;
  if (options.crossCurrency) {
    let other = pick(rng, RULES.currencies);
    while (other === ledger.currency) other = pick(rng, RULES.currencies);
    statement.currency = other;
    const mid = Math.round(
      USD_MICROS[ledger.currency] * 1_000_000 / USD_MICROS[other],
    );
    rateMicros = Math.max(
      1,
      Math.round(mid * (1000 + drawInt(rng, -20, 20)) / 1000),
    );
    statement.cents = convert(ledger.cents, rateMicros);
  }
  statement.bookingDay = ledger.valueDay + drawInt(rng, 0, 2);
  const draft: ReconciliationDraft = {
    ledger,
    statement,
    rateMicros,
    prior: [],
    name,
  };
  for (let i = drawInt(rng, 0, 3); i > 0; i--) {
    draft.prior.push({
      ref: randomReference(rng),
      cents: BigInt(amountCents(rng, 2, 7)),
      currency: ledger.currency,
      valueDay: businessDay(rng, ledger.valueDay - 60, ledger.valueDay),
    });
  }
  // Near-miss levers, each with probability difficulty.
  if (chance(rng, d)) {
    const sign = chance(rng, 500) ? 1n : -1n;
    const edge = rateMicros === null
      ? BigInt(RULES.amountToleranceMinor)
      : fxEdge(statement.cents);
    statement.cents += sign * edge;
  }
  if (chance(rng, d)) {
    const alias = bicAlias(ledger.bic);
    if (alias !== null) statement.bic = alias;
  }
  if (chance(rng, d)) {
    statement.name = chance(rng, 500) ? cosmeticName(rng, name) : renderName({
      words: [...name.words, otherWord(rng, name.words)],
      legal: name.legal,
    });
  }
  if (chance(rng, d)) statement.ref = cosmeticReference(rng, ledger.ref);
  if (chance(rng, d)) {
    const weekend = weekendDay(rng);
    const monday = weekend + (weekday(weekend) === 6 ? 2 : 1);
    const ledgerFirst = chance(rng, 500);
    ledger.valueDay = ledgerFirst ? weekend : monday;
    statement.valueDay = ledgerFirst ? monday : weekend;
    ledger.bookingDay = ledger.valueDay + drawInt(rng, 0, 2);
    statement.bookingDay = statement.valueDay + drawInt(rng, 0, 2);
  }
  if (chance(rng, d)) {
    const nearAmount = chance(rng, 500);
    draft.prior.push({
      ref: chance(rng, 500) ? cosmeticReference(rng, ledger.ref) : ledger.ref,
      cents: nearAmount
        ? ledger.cents + (chance(rng, 500) ? 1n : -1n)
        : ledger.cents,
      currency: ledger.currency,
      valueDay: nearAmount
        ? ledger.valueDay
        : ledger.valueDay - drawInt(rng, 1, 30),
    });
  }
  return draft;
}

function corrupt(rng: TaskRng, s: Side, near: boolean): void {
  const field = pick(
    rng,
    [
      "amount",
      "currency",
      "counterpartyBic",
      "beneficiaryName",
      "valueDate",
      "bookingDate",
    ] as const,
  );
  const amount = centsToDecimal(s.cents);
  const iso = dayToIso(s.valueDay);
  switch (field) {
    case "amount":
      s.raw.amount = near
        ? pick(rng, [amount + "0", amount.slice(0, -3), amount.slice(0, -1)])
        : pick(rng, [
          amount.replace(".", ","),
          amount.replace(/[0-9]/, "O"),
          `${amount} ${s.currency}`,
        ]);
      return;
    case "currency":
      s.raw.currency = near
        ? s.currency.toLowerCase()
        : pick(rng, ["€", "EURO", "???", ""]);
      return;
    case "counterpartyBic":
      s.raw.counterpartyBic = near
        ? s.bic + chars(rng, DIGITS, 1)
        : `${s.bic.slice(0, 4)} ${s.bic.slice(4, 6)} ${s.bic.slice(6)}`;
      return;
    case "beneficiaryName": {
      const i = drawInt(rng, 1, s.name.length - 1);
      const bad = near ? pick(rng, ["@", "#", "_", "*"]) : "\uFFFD";
      s.raw.beneficiaryName = s.name.slice(0, i) + bad + s.name.slice(i + 1);
      return;
    }
    default: {
      const [y, m, day] = iso.split("-");
      const value = near
        ? pick(rng, [
          `${y}-02-${pick(rng, ["29", "30", "31"])}`,
          `${y}-${pick(rng, ["04", "06", "09", "11"])}-31`,
          `${y}-13-${day}`,
        ])
        : pick(rng, [`${day}/${m}/${y}`, `${y}${m}${day}`, `${y}-${m}`]);
      s.raw[field] = value;
    }
  }
}

/**
 * Inject the discrepancy of class `cls` into a draft.
 *
 * With probability difficulty the discrepancy is a near miss: one cent past
 * the tolerance, one character of the BIC, one word of the name, Friday
 * against Monday, a reference cut to exactly the minimum prefix. Otherwise it
 * is plain. `MATCH` injects nothing. Injections touch different fields, so
 * several can be applied to one draft (lowest priority first).
 *
 * @param draft The draft; it changes.
 * @param cls The class to inject.
 * @param rng The task generator; it advances.
 * @param difficultyMilli Difficulty in thousandths.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { injectReconciliation, reconciliationBase } from "./generate_reconciliation.ts";
 * import { taskRng } from "./task_rng.ts";
 *
 * const rng = taskRng(1, 0);
 * const d = reconciliationBase(rng, { difficultyMilli: 0, crossCurrency: false });
 * injectReconciliation(d, "MISSING_MESSAGE", rng, 0);
 * assert.equal(d.statement, null);
 * ```
 */
export function injectReconciliation(
  draft: ReconciliationDraft,
  cls: ReconciliationClass,
  rng: TaskRng,
  difficultyMilli: number,
): void {
  const near = chance(rng, difficultyMilli);
  const { ledger } = draft;
  const st = draft.statement;
  if (cls === "MATCH") return;
  if (cls === "DUPLICATE") {
    draft.prior.splice(drawInt(rng, 0, draft.prior.length), 0, {
      ref: near ? cosmeticReference(rng, ledger.ref) : ledger.ref,
      cents: ledger.cents,
      currency: ledger.currency,
      valueDay: ledger.valueDay,
    });
    return;
  }
  if (cls === "MISSING_MESSAGE") {
    if (!near || st === null) {
      draft.statement = null;
      return;
    }
    const norm = ledger.ref.replace(/[^A-Za-z0-9]/g, "");
    st.ref = chance(rng, 500)
      ? changeChar(rng, norm, drawInt(rng, 0, norm.length - 1), DIGITS)
      : truncateReference(ledger.ref, RULES.referenceMinPrefix - 1);
    return;
  }
  if (st === null) return;
  switch (cls) {
    case "FIELD_CORRUPTION":
      corrupt(rng, st, near);
      return;
    case "AMOUNT_MISMATCH": {
      const tol = BigInt(RULES.amountToleranceMinor);
      const delta = near ? tol + 1n : tol + 1n +
        BigInt(drawInt(rng, 0, Math.max(1, Number(ledger.cents / 5n))));
      st.cents = chance(rng, 500) || delta > ledger.cents
        ? ledger.cents + delta
        : ledger.cents - delta;
      return;
    }
    case "FX_CONVERSION_ERROR": {
      const rate = draft.rateMicros ?? 1_000_000;
      const expected = convert(ledger.cents, rate);
      if (near) {
        st.cents = expected +
          (chance(rng, 500) ? 1n : -1n) * (fxEdge(expected) + 1n);
        return;
      }
      switch (drawInt(rng, 0, 2)) {
        case 0: // rate applied the wrong way round
          st.cents = divRound(ledger.cents * 1_000_000n, BigInt(rate));
          return;
        case 1: // stale rate, 1% to 5% off
          st.cents = divRound(
            expected *
              BigInt(1000 + (chance(rng, 500) ? 1 : -1) * drawInt(rng, 10, 50)),
            1000n,
          );
          return;
        default: // no rate quoted
          draft.rateMicros = null;
          return;
      }
    }
    case "BENEFICIARY_MISMATCH": {
      if (near) {
        const words = [...draft.name.words];
        words[drawInt(rng, 0, words.length - 1)] = otherWord(rng, words);
        st.name = chance(rng, 500)
          ? renderName({ words, legal: draft.name.legal })
          : renderName({
            words: draft.name.words.slice(0, 1),
            legal: draft.name.legal,
          });
      } else {
        st.name = renderName(randomName(rng));
      }
      return;
    }
    case "COUNTERPARTY_MISMATCH":
      st.bic = near ? bicOneOff(rng, ledger.bic) : randomBic(rng);
      return;
    case "PARTIAL_MATCH": {
      const len = ledger.ref.replace(/[^A-Za-z0-9]/g, "").length;
      const k = near
        ? RULES.referenceMinPrefix
        : drawInt(rng, RULES.referenceMinPrefix + 1, len - 1);
      const cut = truncateReference(ledger.ref, k);
      if (chance(rng, 500)) st.ref = cut;
      else {
        st.ref = ledger.ref;
        ledger.ref = cut;
      }
      return;
    }
    case "VALUE_DATE_MISMATCH": {
      if (near) {
        // Friday against the following Monday, or Saturday against Tuesday.
        let day = businessDay(rng);
        while (weekday(day) !== 5) day++;
        const sat = chance(rng, 500);
        ledger.valueDay = sat ? day + 1 : day;
        st.valueDay = sat ? day + 4 : day + 3;
      } else {
        // a shift of 1-10 days, moved off a weekend in the same direction
        const step = chance(rng, 500) ? 1 : -1;
        let day = ledger.valueDay + step * drawInt(rng, 1, 10);
        while (weekday(day) === 0 || weekday(day) === 6) day += step;
        st.valueDay = day;
      }
      st.bookingDay = st.valueDay + drawInt(rng, 0, 2);
      return;
    }
  }
}

function renderSide(s: Side): ReconciliationState["ledger"] {
  return {
    reference: s.raw.reference ?? s.ref,
    amount: s.raw.amount ?? centsToDecimal(s.cents),
    currency: s.raw.currency ?? s.currency,
    counterpartyBic: s.raw.counterpartyBic ?? s.bic,
    beneficiaryName: s.raw.beneficiaryName ?? s.name,
    valueDate: s.raw.valueDate ?? dayToIso(s.valueDay),
    bookingDate: s.raw.bookingDate ?? dayToIso(s.bookingDay),
  };
}

/**
 * Render a draft as the task state.
 *
 * @param draft A draft.
 * @returns The state, with amounts and dates as strings.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reconciliationBase, renderReconciliation } from "./generate_reconciliation.ts";
 * import { taskRng } from "./task_rng.ts";
 *
 * const s = renderReconciliation(
 *   reconciliationBase(taskRng(1, 0), { difficultyMilli: 0, crossCurrency: false }),
 * );
 * assert.match(s.ledger.amount, /^\d+\.\d\d$/);
 * ```
 */
export function renderReconciliation(
  draft: ReconciliationDraft,
): ReconciliationState {
  const prior: PriorBooking[] = draft.prior.map((p) => ({
    reference: p.ref,
    amount: centsToDecimal(p.cents),
    currency: p.currency,
    valueDate: dayToIso(p.valueDay),
  }));
  const sameCurrency = draft.statement === null ||
    draft.statement.currency === draft.ledger.currency;
  return {
    ledger: renderSide(draft.ledger),
    statement: draft.statement === null ? null : renderSide(draft.statement),
    fxRate: draft.rateMicros === null || sameCurrency
      ? null
      : microsToDecimal(draft.rateMicros),
    priorBookings: prior,
  };
}

/**
 * Make one reconciliation candidate of an intended class.
 *
 * @param rng The task generator; it advances.
 * @param cls The intended class.
 * @param difficultyMilli Difficulty in thousandths.
 * @returns The state and the intended gold answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reconciliationCandidate } from "./generate_reconciliation.ts";
 * import { taskRng } from "./task_rng.ts";
 *
 * const c = reconciliationCandidate(taskRng(1, 0), "AMOUNT_MISMATCH", 500);
 * assert.equal(c.gold.severity, "HIGH");
 * assert.equal(c.gold.verdict, "EXCEPTION");
 * ```
 */
export function reconciliationCandidate(
  rng: TaskRng,
  cls: ReconciliationClass,
  difficultyMilli: number,
): { state: ReconciliationState; gold: Gold } {
  const cross = cls === "FX_CONVERSION_ERROR" ||
    (cls !== "AMOUNT_MISMATCH" && chance(rng, 250));
  const draft = reconciliationBase(rng, {
    difficultyMilli,
    crossCurrency: cross,
  });
  injectReconciliation(draft, cls, rng, difficultyMilli);
  const rule = RULES.classes[cls];
  return {
    state: renderReconciliation(draft),
    gold: {
      verdict: rule.verdict,
      exceptionType: cls === "MATCH" ? null : cls,
      severity: rule.severity,
    },
  };
}

/**
 * Make a reconciliation state carrying several discrepancies at once, for
 * testing the priority order. Discrepancies are injected lowest priority
 * first, so a later one never erases an earlier one's field.
 *
 * FX_CONVERSION_ERROR needs a cross-currency pair and AMOUNT_MISMATCH a
 * same-currency one, so they cannot be combined.
 *
 * @param rng The task generator; it advances.
 * @param classes Exception classes to inject.
 * @param difficultyMilli Difficulty in thousandths.
 * @returns The state.
 * @throws {RangeError} When both FX_CONVERSION_ERROR and AMOUNT_MISMATCH are asked for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reconciliationMulti } from "./generate_reconciliation.ts";
 * import { taskRng } from "./task_rng.ts";
 *
 * const s = reconciliationMulti(taskRng(1, 0), ["VALUE_DATE_MISMATCH", "DUPLICATE"], 0);
 * assert.ok(s.priorBookings.some((p) => p.reference === s.ledger.reference));
 * ```
 */
export function reconciliationMulti(
  rng: TaskRng,
  classes: readonly ReconciliationClass[],
  difficultyMilli: number,
): ReconciliationState {
  const fx = classes.includes("FX_CONVERSION_ERROR");
  if (fx && classes.includes("AMOUNT_MISMATCH")) {
    throw new RangeError(
      "Cannot combine FX_CONVERSION_ERROR with AMOUNT_MISMATCH: one needs different currencies, the other equal ones",
    );
  }
  const draft = reconciliationBase(rng, { difficultyMilli, crossCurrency: fx });
  for (const cls of [...RULES.priority].reverse()) {
    if (classes.includes(cls)) {
      injectReconciliation(draft, cls, rng, difficultyMilli);
    }
  }
  return renderReconciliation(draft);
}
