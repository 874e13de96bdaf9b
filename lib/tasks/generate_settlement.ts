/**
 * The settlement generator: builds an FX trade and its settlement status,
 * then injects the intended settlement-risk signal. The verifier decides
 * whether the candidate is admitted.
 *
 * @module
 */

import {
  amountCents,
  bicAlias,
  bicOneOff,
  businessDay,
  centsToDecimal,
  chars,
  dayToIso,
  DIGITS,
  divRound,
  microsToDecimal,
  nextBusinessDay,
  randomBic,
  randomName,
  renderName,
  weekday,
  weekendDay,
} from "./_gen_util.ts";
import { SETTLEMENT_RULES, type SettlementClass } from "./settlement_rules.ts";
import { chance, drawInt, pick, type TaskRng } from "./task_rng.ts";
import type { Gold, SettlementState } from "./task.ts";

const RULES = SETTLEMENT_RULES;
const CURRENCIES = Object.keys(RULES.cutoffs) as (keyof typeof RULES.cutoffs)[];
// USD value of one unit, in micro-USD (generator data only).
const USD_MICROS: Record<string, number> = {
  AUD: 655_000,
  CAD: 735_000,
  CHF: 1_130_000,
  EUR: 1_085_000,
  GBP: 1_270_000,
  USD: 1_000_000,
};

interface Draft {
  s: {
    -readonly [K in keyof SettlementState]: SettlementState[K];
  };
  sellCents: bigint;
  rateMicros: number;
  valueDay: number;
  limitCents: bigint;
  usedCents: bigint;
  asOfMinute: number;
}

function isoMinute(minute: number): string {
  const day = Math.floor(minute / 1440);
  const m = minute - day * 1440;
  return `${dayToIso(day)}T${String(Math.floor(m / 60)).padStart(2, "0")}:${
    String(m % 60).padStart(2, "0")
  }Z`;
}

function sellUsdCents(d: Draft): bigint {
  return divRound(d.sellCents * BigInt(d.rateMicros), 1_000_000n);
}

/** The receive deadline in minutes, computed the generator's way. */
function deadline(d: Draft): number {
  const [h, m] = RULES.cutoffs[d.s.buy.currency as keyof typeof RULES.cutoffs]
    .split(":");
  return nextBusinessDay(d.valueDay) * 1440 + Number(h) * 60 + Number(m);
}

function base(rng: TaskRng, difficulty: number): Draft {
  const tradeDay = businessDay(rng);
  let valueDay = tradeDay + 2;
  while (weekday(valueDay) === 0 || weekday(valueDay) === 6) valueDay++;
  const sellCur = pick(rng, CURRENCIES);
  let buyCur = pick(rng, CURRENCIES);
  while (buyCur === sellCur) buyCur = pick(rng, CURRENCIES);
  const sellCents = BigInt(amountCents(rng, 6, 8));
  const rateMicros = Math.round(
    USD_MICROS[sellCur] * (1000 + drawInt(rng, -15, 15)) / 1000,
  );
  const crossMicros = Math.round(
    USD_MICROS[sellCur] * 1_000_000 / USD_MICROS[buyCur],
  );
  const bic = randomBic(rng);
  const draft: Draft = {
    s: {
      tradeId: `FX${chars(rng, DIGITS, 9)}`,
      tradeDate: dayToIso(tradeDay),
      valueDate: dayToIso(valueDay),
      method: pick(rng, ["CLS", "BILATERAL"]),
      sell: { currency: sellCur, amount: centsToDecimal(sellCents) },
      buy: {
        currency: buyCur,
        amount: centsToDecimal(
          divRound(sellCents * BigInt(crossMicros), 1_000_000n),
        ),
      },
      counterparty: { name: renderName(randomName(rng)), bic },
      confirmation: {
        counterpartyBic: bic,
        reference: `CONF${chars(rng, DIGITS, 8)}`,
      },
      payLeg: pick(rng, ["PENDING", "SENT"]),
      receiveLeg: "PENDING",
      asOf: "",
      sellUsdRate: microsToDecimal(rateMicros),
      limitUsd: "",
      usedLimitUsd: "",
    },
    sellCents,
    rateMicros,
    valueDay,
    limitCents: 0n,
    usedCents: 0n,
    asOfMinute: 0,
  };
  // Clean status: received (any time), or pending before the deadline.
  const dl = deadline(draft);
  if (chance(rng, 500)) {
    draft.s.receiveLeg = "RECEIVED";
    draft.asOfMinute = dl + drawInt(rng, -600, 600);
  } else {
    draft.asOfMinute = dl - drawInt(rng, 1, 3000);
  }
  const usd = sellUsdCents(draft);
  draft.usedCents = BigInt(drawInt(rng, 0, 50)) * usd / 10n;
  draft.limitCents = draft.usedCents + usd +
    usd * BigInt(drawInt(rng, 1, 20)) / 10n + 1n;
  // Near-miss levers, each with probability difficulty.
  if (chance(rng, difficulty)) {
    draft.s.receiveLeg = "PENDING";
    draft.asOfMinute = dl;
  }
  if (chance(rng, difficulty)) {
    // a weekend value date: the deadline rolls to Monday; observe on the weekend
    const wk = weekendDay(rng);
    draft.valueDay = wk;
    draft.s.valueDate = dayToIso(wk);
    draft.s.tradeDate = dayToIso(wk - 2 - (weekday(wk) === 0 ? 1 : 0));
    draft.asOfMinute = wk * 1440 + drawInt(rng, 0, 1439);
  }
  if (chance(rng, difficulty)) {
    draft.limitCents = draft.usedCents + sellUsdCents(draft);
  }
  if (chance(rng, difficulty)) {
    const alias = bicAlias(bic);
    if (alias !== null) {
      draft.s.confirmation = {
        ...draft.s.confirmation!,
        counterpartyBic: alias,
      };
    }
  }
  if (chance(rng, difficulty)) {
    const edge = pick(rng, [
      99_999_999n,
      100_000_000n,
      999_999_999n,
      1_000_000_000n,
    ]);
    draft.s.sell = { currency: "USD", amount: centsToDecimal(edge) };
    draft.sellCents = edge;
    draft.rateMicros = 1_000_000;
    draft.s.sellUsdRate = microsToDecimal(1_000_000);
    const buyCur = draft.s.buy.currency === "USD"
      ? "EUR"
      : draft.s.buy.currency;
    draft.s.buy = {
      currency: buyCur,
      amount: centsToDecimal(
        divRound(
          edge * BigInt(Math.round(1e12 / USD_MICROS[buyCur])),
          1_000_000n,
        ),
      ),
    };
    draft.limitCents = draft.usedCents + edge + 1n +
      BigInt(drawInt(rng, 0, 1_000_000));
  }
  return draft;
}

function inject(
  d: Draft,
  cls: SettlementClass,
  rng: TaskRng,
  difficulty: number,
): void {
  const near = chance(rng, difficulty);
  const late = () => deadline(d) + (near ? 1 : drawInt(rng, 2, 2880));
  switch (cls) {
    case "ON_TIME":
      return;
    case "HERSTATT_EXPOSURE":
      d.s.method = "BILATERAL";
      d.s.payLeg = "SENT";
      d.s.receiveLeg = "PENDING";
      d.asOfMinute = late();
      return;
    case "LIMIT_BREACH": {
      const need = d.usedCents + sellUsdCents(d);
      d.limitCents = near
        ? need - 1n
        : need * BigInt(drawInt(rng, 300, 950)) / 1000n;
      return;
    }
    case "COUNTERPARTY_MISMATCH":
      d.s.confirmation = {
        reference: d.s.confirmation?.reference ??
          `CONF${chars(rng, DIGITS, 8)}`,
        counterpartyBic: near
          ? bicOneOff(rng, d.s.counterparty.bic)
          : randomBic(rng),
      };
      return;
    case "MISSING_CONFIRMATION":
      d.s.confirmation = null;
      return;
    case "DELAYED":
      d.s.receiveLeg = "PENDING";
      d.asOfMinute = late();
      if (near) {
        // looks like Herstatt, but CLS protects the principal
        d.s.method = "CLS";
        d.s.payLeg = "SENT";
      } else if (d.s.method === "BILATERAL") {
        d.s.payLeg = "PENDING";
      }
      return;
  }
}

function render(d: Draft): SettlementState {
  return {
    ...d.s,
    asOf: isoMinute(d.asOfMinute),
    limitUsd: centsToDecimal(d.limitCents),
    usedLimitUsd: centsToDecimal(d.usedCents),
  };
}

function intendedGold(cls: SettlementClass, d: Draft): Gold {
  const rule = RULES.classes[cls];
  let exposure: string = RULES.exposureNone;
  if (cls !== "ON_TIME") {
    const usd = sellUsdCents(d);
    exposure = RULES.exposureTop;
    for (const b of RULES.exposureBuckets) {
      const [whole, frac] = b.below.split(".");
      if (usd < BigInt(whole) * 100n + BigInt(frac)) {
        exposure = b.label;
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

/**
 * Make one settlement candidate of an intended class.
 *
 * Near-miss levers (each with probability difficulty): observed exactly at
 * the receive deadline, a weekend value date whose deadline rolls to Monday,
 * a limit used exactly to the cent, the other spelling of the counterparty
 * BIC, a sell leg one cent either side of an exposure boundary. The injected
 * signal is a near miss with probability difficulty: one minute late, one
 * cent over the limit, one BIC character, a CLS trade that looks like
 * Herstatt exposure.
 *
 * @param rng The task generator; it advances.
 * @param cls The intended class.
 * @param difficultyMilli Difficulty in thousandths.
 * @returns The state and the intended gold answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settlementCandidate } from "./generate_settlement.ts";
 * import { taskRng } from "./task_rng.ts";
 *
 * const c = settlementCandidate(taskRng(1, 0), "HERSTATT_EXPOSURE", 1000);
 * assert.equal(c.gold.severity, "CRITICAL");
 * assert.equal(c.state.method, "BILATERAL");
 * ```
 */
export function settlementCandidate(
  rng: TaskRng,
  cls: SettlementClass,
  difficultyMilli: number,
): { state: SettlementState; gold: Gold } {
  const d = base(rng, difficultyMilli);
  inject(d, cls, rng, difficultyMilli);
  return { state: render(d), gold: intendedGold(cls, d) };
}

/**
 * Make a settlement state carrying several signals at once, for testing the
 * priority order. Signals are injected lowest priority first.
 *
 * @param rng The task generator; it advances.
 * @param classes Signals to inject.
 * @param difficultyMilli Difficulty in thousandths.
 * @returns The state.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settlementMulti } from "./generate_settlement.ts";
 * import { taskRng } from "./task_rng.ts";
 *
 * const s = settlementMulti(taskRng(1, 0), ["MISSING_CONFIRMATION", "HERSTATT_EXPOSURE"], 0);
 * assert.equal(s.confirmation, null);
 * ```
 */
export function settlementMulti(
  rng: TaskRng,
  classes: readonly SettlementClass[],
  difficultyMilli: number,
): SettlementState {
  const d = base(rng, difficultyMilli);
  for (const cls of [...RULES.priority].reverse()) {
    if (classes.includes(cls)) inject(d, cls, rng, difficultyMilli);
  }
  return render(d);
}
