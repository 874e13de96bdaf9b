/**
 * The Task record: one seeded benchmark item, with its state, its gold
 * answer, the prompt that states the rules, and a content signature.
 *
 * @module
 */

import type { Severity } from "../costs/severity.ts";

/**
 * The three finance domains the generator covers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DOMAINS } from "./task.ts";
 *
 * assert.deepEqual([...DOMAINS], ["reconciliation", "payment_repair", "settlement"]);
 * ```
 */
export const DOMAINS = [
  "reconciliation",
  "payment_repair",
  "settlement",
] as const;

/** A task domain. */
export type Domain = typeof DOMAINS[number];

/**
 * Tell whether a value is one of the three domains.
 *
 * @param value Any value.
 * @returns `true` for `"reconciliation"`, `"payment_repair"` or `"settlement"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDomain } from "./task.ts";
 *
 * assert.equal(isDomain("settlement"), true);
 * assert.equal(isDomain("fx"), false);
 * ```
 */
export function isDomain(value: unknown): value is Domain {
  return typeof value === "string" &&
    (DOMAINS as readonly string[]).includes(value);
}

/** One side of a reconciliation pair: a ledger entry or a bank statement line. */
export interface ReconciliationEntry {
  /** Payment reference, as printed by the system that holds the record. */
  readonly reference: string;
  /** Amount as a decimal string with two decimals, e.g. `"1250.00"`. */
  readonly amount: string;
  /** ISO 4217 currency code. */
  readonly currency: string;
  /** BIC of the counterparty's bank, 8 or 11 characters. */
  readonly counterpartyBic: string;
  /** Beneficiary name. */
  readonly beneficiaryName: string;
  /** Value date, `YYYY-MM-DD`. */
  readonly valueDate: string;
  /** Booking date, `YYYY-MM-DD`; informational, never compared. */
  readonly bookingDate: string;
}

/** A ledger booking already reconciled earlier, kept to detect duplicates. */
export interface PriorBooking {
  /** Payment reference. */
  readonly reference: string;
  /** Amount, decimal string. */
  readonly amount: string;
  /** ISO 4217 currency code. */
  readonly currency: string;
  /** Value date, `YYYY-MM-DD`. */
  readonly valueDate: string;
}

/** What a reconciliation task shows: a ledger entry and the statement line paired with it. */
export interface ReconciliationState {
  /** Our ledger entry. */
  readonly ledger: ReconciliationEntry;
  /** The bank statement line paired with it, or `null` when none arrived. */
  readonly statement: ReconciliationEntry | null;
  /** Units of statement currency per unit of ledger currency, six decimals; `null` when none is quoted. */
  readonly fxRate: string | null;
  /** Earlier bookings of the same ledger account. */
  readonly priorBookings: readonly PriorBooking[];
}

/** A party of a payment message. */
export interface PaymentParty {
  /** Name as carried in the message. */
  readonly name: string;
  /** IBAN as carried in the message (may be printed in groups of four). */
  readonly iban: string;
}

/** What a payment-repair task shows: a failed payment and the context to judge it. */
export interface PaymentRepairState {
  /** `"pacs.008"` (ISO 20022) or `"MT103"` (SWIFT FIN). */
  readonly messageType: string;
  /** Unique end-to-end transaction reference. */
  readonly uetr: string;
  /** Instructed amount, decimal string. */
  readonly amount: string;
  /** ISO 4217 currency code. */
  readonly currency: string;
  /** Requested execution date, `YYYY-MM-DD`. */
  readonly executionDate: string;
  /** Today's business date at the repairing bank, `YYYY-MM-DD`. */
  readonly businessDate: string;
  /** The paying party. */
  readonly debtor: PaymentParty;
  /** The payee, with the BIC of its bank. */
  readonly creditor: PaymentParty & { readonly bic: string };
  /** Unstructured remittance information. */
  readonly remittanceInfo: string;
  /** Fraud-screening score, integer 0-100. */
  readonly fraudScore: number;
  /** The debtor's single-payment limit, decimal string. */
  readonly debtorLimit: string;
  /** UETRs of payments settled in the last days. */
  readonly recentUetrs: readonly string[];
  /** IBANs on the mule-account watch list. */
  readonly muleAccounts: readonly string[];
  /** Bank directory: the BIC registered for each IBAN bank code (`"CC:code"`). */
  readonly bicDirectory: readonly {
    readonly bankCode: string;
    readonly bic: string;
  }[];
}

/** What a settlement task shows: an FX trade and its settlement status. */
export interface SettlementState {
  /** Trade identifier. */
  readonly tradeId: string;
  /** Trade date, `YYYY-MM-DD`. */
  readonly tradeDate: string;
  /** Contractual value date, `YYYY-MM-DD`. */
  readonly valueDate: string;
  /** `"CLS"` (payment versus payment) or `"BILATERAL"` (gross, each leg on its own). */
  readonly method: string;
  /** The leg we pay. */
  readonly sell: { readonly currency: string; readonly amount: string };
  /** The leg we receive. */
  readonly buy: { readonly currency: string; readonly amount: string };
  /** The counterparty as booked. */
  readonly counterparty: { readonly name: string; readonly bic: string };
  /** The counterparty's confirmation, or `null` when none was received. */
  readonly confirmation: {
    readonly counterpartyBic: string;
    readonly reference: string;
  } | null;
  /** `"PENDING"` or `"SENT"`: whether our payment has gone out (irrevocably). */
  readonly payLeg: string;
  /** `"PENDING"` or `"RECEIVED"`: whether the counterparty's payment has arrived. */
  readonly receiveLeg: string;
  /** Observation time, `YYYY-MM-DDTHH:MMZ` (UTC). */
  readonly asOf: string;
  /** USD per unit of the sell currency, six decimals. */
  readonly sellUsdRate: string;
  /** Settlement limit for this counterparty in USD, decimal string. */
  readonly limitUsd: string;
  /** Limit already used by other open trades in USD, decimal string. */
  readonly usedLimitUsd: string;
}

/** The state of a task, by domain. */
export interface StateOf {
  /** Reconciliation state. */
  reconciliation: ReconciliationState;
  /** Payment-repair state. */
  payment_repair: PaymentRepairState;
  /** Settlement state. */
  settlement: SettlementState;
}

/**
 * The gold answer of a task (docs/formats.md).
 *
 * `exceptionType` is `null` for a clean item; `verdict` then carries the
 * clean verdict (`MATCH`, `RELEASE`, `PROCEED`). Payment repair adds
 * `repairSafe` and `repairAction`; settlement adds `exposureClass`.
 */
export interface Gold {
  /** The decision: e.g. `MATCH`/`EXCEPTION`, `REPAIR`/`HOLD`, `PROCEED`/`HALT`. */
  readonly verdict: string;
  /** The exception class, or `null` when the item is clean. */
  readonly exceptionType: string | null;
  /** Consequence of a wrong automatic decision on this task. */
  readonly severity: Severity;
  /** Payment repair only: whether an automatic repair is safe. */
  readonly repairSafe?: boolean;
  /** Payment repair only: the action to take. */
  readonly repairAction?: string;
  /** Settlement only: the size class of the amount at risk. */
  readonly exposureClass?: string;
}

/** One seeded benchmark item of domain `D`. */
export interface Task<D extends Domain = Domain> {
  /** `"<domain>-<seed>-<index>"`. */
  readonly id: string;
  /** The domain. */
  readonly domain: D;
  /** The suite seed the task was generated from. */
  readonly seed: number;
  /** Position in the suite; with `seed` it regenerates the task. */
  readonly index: number;
  /** Difficulty in [0, 1], in steps of 0.001. */
  readonly difficulty: number;
  /** What the task shows. */
  readonly state: StateOf[D];
  /** The gold answer. */
  readonly gold: Gold;
  /** The prompt: the domain's rules in full, the state, and the answer format. */
  readonly prompt: string;
  /** SHA-256 (hex) of the canonical `{ domain, gold, state }`; see `taskSignature`. */
  readonly signature: string;
}
