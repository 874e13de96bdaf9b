// Private: zod schemas of a task line, used by the task loader only.
import { z } from "zod";
import { SEVERITIES } from "../costs/severity.ts";
import { calendarDay, minuteOf } from "./_verify_util.ts";
import { PAYMENT_REPAIR_RULES } from "./payment_repair_rules.ts";
import { RECONCILIATION_RULES } from "./reconciliation_rules.ts";
import { SETTLEMENT_RULES } from "./settlement_rules.ts";
import { DOMAINS } from "./task.ts";

const text = z.string({ error: "must be a string" });
const id = text.min(1, { error: "must not be empty" });
const decimal2 = text.regex(/^(0|[1-9][0-9]*)\.[0-9]{2}$/, {
  error: "must be a decimal string with two decimals",
});
const decimal6 = text.regex(/^(0|[1-9][0-9]*)\.[0-9]{6}$/, {
  error: "must be a decimal string with six decimals",
});
const date = text.refine((s) => calendarDay(s) !== null, {
  error: "must be a calendar date YYYY-MM-DD",
});
const minute = text.refine((s) => minuteOf(s) !== null, {
  error: "must be a UTC time YYYY-MM-DDTHH:MMZ",
});
const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });
const list = <T extends z.ZodType>(item: T) =>
  z.array(item, { error: "must be an array" });
const obj = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { error: "must be an object" }).strict();

const reconCurrencies = RECONCILIATION_RULES.currencies as unknown as [
  string,
  ...string[],
];
const ledgerEntry = obj({
  reference: id,
  amount: decimal2,
  currency: oneOf(reconCurrencies),
  counterpartyBic: text,
  beneficiaryName: text,
  valueDate: date,
  bookingDate: date,
});
// Statement fields may be corrupted on purpose (FIELD_CORRUPTION): strings only.
const statementEntry = obj({
  reference: text,
  amount: text,
  currency: text,
  counterpartyBic: text,
  beneficiaryName: text,
  valueDate: text,
  bookingDate: text,
});

/** State schema per domain. */
export const STATE_SCHEMAS = {
  reconciliation: obj({
    ledger: ledgerEntry,
    statement: statementEntry.nullable(),
    fxRate: text.nullable(),
    priorBookings: list(
      obj({
        reference: text,
        amount: decimal2,
        currency: text,
        valueDate: text,
      }),
    ),
  }),
  payment_repair: obj({
    messageType: text,
    uetr: text,
    amount: decimal2,
    currency: text,
    executionDate: text,
    businessDate: date,
    debtor: obj({ name: text, iban: text }),
    creditor: obj({ name: text, iban: text, bic: text }),
    remittanceInfo: text,
    fraudScore: z.number({ error: "must be a number" }).int({
      error: "must be an integer",
    })
      .min(0, { error: "must be in [0, 100]" }).max(100, {
        error: "must be in [0, 100]",
      }),
    debtorLimit: decimal2,
    recentUetrs: list(text),
    muleAccounts: list(text),
    bicDirectory: list(obj({ bankCode: text, bic: text })),
  }),
  settlement: obj({
    tradeId: id,
    tradeDate: date,
    valueDate: date,
    method: oneOf(["CLS", "BILATERAL"]),
    sell: obj({ currency: text, amount: decimal2 }),
    buy: obj({
      currency: oneOf(
        Object.keys(SETTLEMENT_RULES.cutoffs) as [string, ...string[]],
      ),
      amount: decimal2,
    }),
    counterparty: obj({ name: text, bic: text }),
    confirmation: obj({ counterpartyBic: text, reference: text }).nullable(),
    payLeg: oneOf(["PENDING", "SENT"]),
    receiveLeg: oneOf(["PENDING", "RECEIVED"]),
    asOf: minute,
    sellUsdRate: decimal6,
    limitUsd: decimal2,
    usedLimitUsd: decimal2,
  }),
} as const;

const goldBase = {
  verdict: id,
  exceptionType: text.nullable(),
  severity: oneOf(SEVERITIES as unknown as [string, ...string[]]),
};

/** Gold schema per domain. */
export const GOLD_SCHEMAS = {
  reconciliation: obj(goldBase),
  payment_repair: obj({
    ...goldBase,
    repairSafe: z.boolean({ error: "must be true or false" }),
    repairAction: oneOf(
      [
        ...new Set(
          Object.values(PAYMENT_REPAIR_RULES.classes).flatMap((c) => [
            c.repairAction,
            ...("unsafe" in c ? [c.unsafe.repairAction] : []),
          ]),
        ),
      ] as [string, ...string[]],
    ),
  }),
  settlement: obj({
    ...goldBase,
    exposureClass: oneOf([
      SETTLEMENT_RULES.exposureNone,
      ...SETTLEMENT_RULES.exposureBuckets.map((b) => b.label),
      SETTLEMENT_RULES.exposureTop,
    ]),
  }),
} as const;

/** The top-level fields of a task line; state and gold are checked per domain. */
export const TASK_SCHEMA = obj({
  id,
  domain: oneOf(DOMAINS as unknown as [string, ...string[]]),
  seed: z.number({ error: "must be a number" }).int({
    error: "must be an integer",
  })
    .min(0, { error: "must be in [0, 4294967295]" }).max(0xffff_ffff, {
      error: "must be in [0, 4294967295]",
    }),
  index: z.number({ error: "must be a number" }).int({
    error: "must be an integer",
  }).min(0, {
    error: "must be >= 0",
  }),
  difficulty: z.number({ error: "must be a number" }).min(0, {
    error: "must be in [0, 1]",
  })
    .max(1, { error: "must be in [0, 1]" }),
  state: z.unknown(),
  gold: z.unknown(),
  prompt: text,
  signature: text.regex(/^[0-9a-f]{64}$/, {
    error: "must be 64 lower-case hex digits",
  }),
});
