/**
 * Ledger records: what one line of a decision ledger holds, and the zod
 * schemas that check them at the edge.
 *
 * A ledger is a sequence of records of four kinds: a `decision` (one model
 * answer with its calibrated risk, expected loss, policy revision, model
 * revision, prompt hash and the action taken), a `review_opened` (an
 * escalation waiting for a human, with its SLA), a `review_resolved` (the
 * human's approve, reject or amend, appended later, never editing the
 * decision) and a `policy` (a policy revision, for example after a refit).
 *
 * @module
 */

import { z } from "zod";
import { describeIssue } from "../_zod_issue.ts";
import type { Severity } from "../costs/severity.ts";
import { SEVERITIES } from "../costs/severity.ts";
import { decisionSchema } from "../decision/decision.ts";
import type { Decision } from "../decision/decision.ts";
import { fastDecisionRecord } from "./_fast_record.ts";
import { InputRangeError, InputTypeError } from "../input_error.ts";

/**
 * A decision as the ledger holds it: a run-export {@linkcode Decision} whose
 * gold class may be unknown (`null`) when the record is written. In
 * production the gold class usually arrives later, through a review
 * resolution; evaluation runs and simulations know it up front.
 */
export type LedgerDecision = Omit<Decision, "trueClass"> & {
  /** Gold class when known at recording time, otherwise `null`. */
  readonly trueClass: string | null;
};

/** One model answer, as recorded when it was made. */
export interface DecisionRecord {
  /** Record kind. */
  readonly kind: "decision";
  /** Decision id, unique within the ledger; reviews refer to it. */
  readonly id: string;
  /** When the decision was taken: ISO 8601 in UTC, `YYYY-MM-DDTHH:MM:SS[.fff]Z`. */
  readonly at: string;
  /** The decision, including the action taken (`decision.action`). */
  readonly decision: LedgerDecision;
  /** Calibrated P(error) the policy acted on, or `null` when none was available. */
  readonly risk: number | null;
  /**
   * Expected loss of acting on the answer, `risk × cost if wrong` under
   * `profile` and `matrix`, or `null` when either is unknown.
   */
  readonly expectedLoss: number | null;
  /** Cost profile that priced `expectedLoss`, as `id@version`, or `null`. */
  readonly profile: string | null;
  /**
   * Id of the cost matrix that priced `expectedLoss` (`"consequence"`,
   * `"strict"`), or `null` when there is none. Records written before the
   * field existed have none: their expected loss is `risk × K(severity)`,
   * and readers take it as `"strict"` and say so.
   */
  readonly matrix?: string | null;
  /** Revision of the policy that chose the action, or `null` when unknown. */
  readonly policyRevision: string | null;
  /** Revision of the model that answered, or `null` when unknown. */
  readonly modelRevision: string | null;
  /** Hash of the prompt the model saw, or `null` when unknown. */
  readonly promptHash: string | null;
  /**
   * `true` when this answer was acted on; `false` for a shadow answer,
   * recorded so that routing to its model can be replayed later.
   */
  readonly served: boolean;
}

/** An escalated decision waiting for review. */
export interface ReviewOpenedRecord {
  /** Record kind. */
  readonly kind: "review_opened";
  /** When the review was opened (ISO 8601, UTC). */
  readonly at: string;
  /** The escalated decision. */
  readonly decisionId: string;
  /** Service level: hours allowed for the review. */
  readonly slaHours: number;
  /** `at + slaHours`, when the review becomes overdue (ISO 8601, UTC). */
  readonly dueAt: string;
}

/** How a reviewer resolved an escalation. */
export type Resolution = "approve" | "reject" | "amend";

/** The three resolutions. */
export const RESOLUTIONS: readonly Resolution[] = [
  "approve",
  "reject",
  "amend",
];

/** A review's outcome, appended as a new record. */
export interface ReviewResolvedRecord {
  /** Record kind. */
  readonly kind: "review_resolved";
  /** When the review was resolved (ISO 8601, UTC). */
  readonly at: string;
  /** The decision reviewed. */
  readonly decisionId: string;
  /**
   * `approve`: the model's answer was right; `amend`: it was wrong and
   * `trueClass` is the right one; `reject`: it was wrong and the reviewer
   * did not name the right class.
   */
  readonly resolution: Resolution;
  /** The gold class the review established: the answer on approve, the amendment on amend, `null` on reject. */
  readonly trueClass: string | null;
  /** Who resolved it. */
  readonly reviewer: string;
}

/** What a policy revision was fitted on. */
export interface RefitBasis {
  /** How the thresholds were chosen, for example `"min-empirical-cost"`. */
  readonly method: string;
  /** Labelled outcomes used. */
  readonly labelled: number;
  /** Earliest labelled decision used (ISO 8601), or `null` when none. */
  readonly from: string | null;
  /** Latest labelled decision used (ISO 8601), or `null` when none. */
  readonly to: string | null;
}

/** A policy revision: escalate when risk exceeds the severity's threshold. */
export interface PolicyRecord {
  /** Record kind. */
  readonly kind: "policy";
  /** When the revision took effect (ISO 8601, UTC). */
  readonly at: string;
  /** Policy id, stable across revisions. */
  readonly policyId: string;
  /** Revision id, derived from the policy's content. */
  readonly revision: string;
  /** Revision this one replaces, or `null` for the first. */
  readonly parent: string | null;
  /** Escalate a decision when its risk is above its severity's threshold. */
  readonly thresholds: Readonly<Record<Severity, number>>;
  /** What to do with a decision that states no risk. */
  readonly missingRisk: "escalate" | "auto";
  /** Cost profile the policy was derived under (`id@version`), or `null`. */
  readonly profile: string | null;
  /** Hours a reviewer has for an escalation. */
  readonly slaHours: number;
  /** What a refit was fitted on, or `null` for a hand-set policy. */
  readonly basis: RefitBasis | null;
}

/** Any ledger record. */
export type LedgerRecord =
  | DecisionRecord
  | ReviewOpenedRecord
  | ReviewResolvedRecord
  | PolicyRecord;

/** One line of a ledger: a record with its place in the hash chain. */
export interface LedgerEntry {
  /** Position in the ledger, from 1. */
  readonly seq: number;
  /** Hash of the previous entry, or the genesis value for the first. */
  readonly prev: string;
  /** This entry's hash (lowercase hex SHA-256). */
  readonly hash: string;
  /** The record. */
  readonly record: LedgerRecord;
}

/** The form of a ledger timestamp: ISO 8601 in UTC, seconds, optional fraction. */
export const TIMESTAMP_PATTERN =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/**
 * Whether a string is a ledger timestamp: ISO 8601 in UTC with a valid date.
 *
 * @param text Any string.
 * @returns `true` for text like `2026-03-01T09:30:00Z` or `2026-03-01T09:30:00.250Z`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isTimestamp } from "./record.ts";
 *
 * assert.equal(isTimestamp("2026-03-01T09:30:00Z"), true);
 * assert.equal(isTimestamp("2026-03-01 09:30"), false);
 * assert.equal(isTimestamp("2026-02-30T00:00:00Z"), false);
 * ```
 */
export function isTimestamp(text: string): boolean {
  if (!TIMESTAMP_PATTERN.test(text)) return false;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return false;
  // Date.parse rolls 2026-02-30 over to March; the round trip catches it.
  return new Date(ms).toISOString().slice(0, 19) === text.slice(0, 19);
}

const id = z.string({ error: "must be a string" }).min(1, {
  error: "must not be empty",
});
const nullableId = z.string({ error: "must be a string or null" }).min(1, {
  error: "must not be empty",
}).nullable();
const timestamp = z.string({ error: "must be a string" }).refine(isTimestamp, {
  error: "must be an ISO 8601 UTC timestamp like 2026-03-01T09:30:00Z",
});
const probability = z.number({ error: "must be a number in [0, 1] or null" })
  .min(0, { error: "must be in [0, 1]" }).max(1, {
    error: "must be in [0, 1]",
  });
const nonNegative = z.number({ error: "must be a number" }).refine(
  Number.isFinite,
  { error: "must be finite" },
).refine((v) => v >= 0, { error: "must be >= 0" });

/** zod schema of a ledger decision: a Decision whose `trueClass` may be `null`. */
export const ledgerDecisionSchema = decisionSchema.extend({
  trueClass: nullableId,
}).strict();

const thresholds = z.object(
  Object.fromEntries(
    SEVERITIES.map((s) => [s, probability]),
  ) as Record<Severity, typeof probability>,
).strict();

/** zod schema of one ledger record; unknown fields are rejected. */
export const ledgerRecordSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("decision"),
    id,
    at: timestamp,
    decision: ledgerDecisionSchema,
    risk: probability.nullable(),
    expectedLoss: nonNegative.nullable(),
    profile: nullableId,
    matrix: nullableId.optional(),
    policyRevision: nullableId,
    modelRevision: nullableId,
    promptHash: nullableId,
    served: z.boolean({ error: "must be true or false" }),
  }).strict(),
  z.object({
    kind: z.literal("review_opened"),
    at: timestamp,
    decisionId: id,
    slaHours: nonNegative,
    dueAt: timestamp,
  }).strict(),
  z.object({
    kind: z.literal("review_resolved"),
    at: timestamp,
    decisionId: id,
    resolution: z.enum(RESOLUTIONS as [Resolution, ...Resolution[]], {
      error: "must be approve, reject or amend",
    }),
    trueClass: nullableId,
    reviewer: id,
  }).strict(),
  z.object({
    kind: z.literal("policy"),
    at: timestamp,
    policyId: id,
    revision: id,
    parent: nullableId,
    thresholds,
    missingRisk: z.enum(["escalate", "auto"], {
      error: 'must be "escalate" or "auto"',
    }),
    profile: nullableId,
    slaHours: nonNegative,
    basis: z.object({
      method: id,
      labelled: z.number().int().min(0),
      from: timestamp.nullable(),
      to: timestamp.nullable(),
    }).strict().nullable(),
  }).strict(),
], {
  error: "must be decision, review_opened, review_resolved or policy",
});

/**
 * Check a parsed value against the ledger record schema.
 *
 * Decision records, the bulk of any ledger, go through a hand-written check
 * first; anything it does not accept is re-checked with zod for the message.
 * Beyond the shape, a `review_resolved` must carry a class on approve and
 * amend and none on reject, and a `review_opened` must be due at `at +
 * slaHours`.
 *
 * @param value A parsed JSON value.
 * @param where Prefix of error messages, naming the file and line.
 * @returns The value, typed.
 * @throws {TypeError} When a field is missing or has the wrong type.
 * @throws {RangeError} When a field is out of range; the message names the field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkLedgerRecord } from "./record.ts";
 *
 * const r = { kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *   slaHours: 24, dueAt: "2026-03-02T09:00:00Z" };
 * assert.equal(checkLedgerRecord(r, "here").kind, "review_opened");
 * assert.throws(() => checkLedgerRecord({ ...r, slaHours: -1 }, "ledger.jsonl: line 3"),
 *   /ledger\.jsonl: line 3: record\.slaHours must be >= 0, got -1/);
 * ```
 */
export function checkLedgerRecord(value: unknown, where: string): LedgerRecord {
  const fast = fastDecisionRecord(value);
  if (fast !== null) return fast;
  const parsed = ledgerRecordSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = `${where}: ${describeIssue(issue, value, "record")}`;
    throw issue.code === "invalid_type" || issue.code === "unrecognized_keys" ||
        issue.code === "invalid_union"
      ? new InputTypeError(message, { cause: parsed.error })
      : new InputRangeError(message, { cause: parsed.error });
  }
  const r = parsed.data as LedgerRecord;
  if (r.kind === "review_resolved") {
    if (r.resolution === "reject" && r.trueClass !== null) {
      throw new InputRangeError(
        `${where}: record.trueClass must be null when resolution is reject (a reject names no class; use amend), got ${
          JSON.stringify(r.trueClass)
        }`,
      );
    }
    if (r.resolution !== "reject" && r.trueClass === null) {
      throw new InputRangeError(
        `${where}: record.trueClass must name the gold class when resolution is ${r.resolution}, got null`,
      );
    }
  }
  if (r.kind === "review_opened") {
    const due = Date.parse(r.at) + r.slaHours * 3_600_000;
    if (Date.parse(r.dueAt) !== due) {
      throw new InputRangeError(
        `${where}: record.dueAt must be at + slaHours (${
          new Date(due).toISOString()
        }), got ${JSON.stringify(r.dueAt)}`,
      );
    }
  }
  return r;
}
