/**
 * The review workflow: escalations open reviews with an SLA; a reviewer
 * approves, rejects or amends; overdue reviews are listed; resolved outcomes
 * become labelled data.
 *
 * Every step is a new ledger record. Nothing edits the decision it is about:
 * the ledger keeps what the model said, what the policy did and what the
 * human decided, each with its own time and hash.
 *
 * @module
 */

import type { Severity } from "../costs/severity.ts";
import { answerCosts } from "./_answer_costs.ts";
import { getProfile } from "../costs/load.ts";
import { CONSEQUENCE_MATRIX } from "../metrics/loss.ts";
import type { LedgerColumns, ReviewState } from "./columns.ts";
import {
  type DecisionRecord,
  isTimestamp,
  type Resolution,
  type ReviewOpenedRecord,
  type ReviewResolvedRecord,
} from "./record.ts";

function checkTime(what: string, at: string): void {
  if (typeof at !== "string" || !isTimestamp(at)) {
    throw new RangeError(
      `Cannot ${what}: time must be an ISO 8601 UTC timestamp, got ${
        JSON.stringify(at)
      }`,
    );
  }
}

/** Options for {@linkcode openReview}. */
export interface OpenReviewOptions {
  /** Hours the reviewer has. Default: 24. */
  slaHours?: number;
  /** When the review opens. Default: the decision's time. */
  at?: string;
}

/**
 * Open the review of an escalated decision.
 *
 * @param decision The decision record; it must be served and escalated.
 * @param options SLA and opening time.
 * @returns The `review_opened` record, due `slaHours` after it opens.
 * @throws {RangeError} When the decision was not escalated or not served, or the SLA is negative.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openReview } from "./review.ts";
 *
 * const d = { kind: "decision", id: "d1", at: "2026-03-01T09:00:00Z", risk: 0.4, expectedLoss: null,
 *   profile: null, policyRevision: null, modelRevision: null, promptHash: null, served: true,
 *   decision: { runId: "r", modelId: "m", taskId: "t", trial: 0, severity: "HIGH", trueClass: null,
 *   predClass: "MATCH", parseOk: true, pCorrect: 0.6, action: "escalate",
 *   cost: { completeness: "unavailable", usd: null }, outcome: "resolved" } } as const;
 * assert.equal(openReview(d, { slaHours: 4 }).dueAt, "2026-03-01T13:00:00.000Z");
 * ```
 */
export function openReview(
  decision: DecisionRecord,
  options: OpenReviewOptions = {},
): ReviewOpenedRecord {
  const slaHours = options.slaHours ?? 24;
  const at = options.at ?? decision.at;
  checkTime(`open a review of ${decision.id}`, at);
  if (decision.decision.action !== "escalate" || !decision.served) {
    throw new RangeError(
      `Cannot open a review of ${decision.id}: only an escalated served decision is reviewed, this one was ${
        decision.served ? "" : "a shadow answer, "
      }${decision.decision.action}`,
    );
  }
  if (!(slaHours >= 0) || !Number.isFinite(slaHours)) {
    throw new RangeError(
      `Cannot open a review of ${decision.id}: slaHours must be a finite number >= 0, got ${slaHours}`,
    );
  }
  return {
    kind: "review_opened",
    at,
    decisionId: decision.id,
    slaHours,
    dueAt: new Date(Date.parse(at) + slaHours * 3_600_000).toISOString(),
  };
}

/** Options for {@linkcode resolveReview}. */
export interface ResolveReviewOptions {
  /** When the review was resolved (ISO 8601, UTC). */
  at: string;
  /** Who resolved it. */
  reviewer: string;
  /** The right class; required for `amend`, not allowed otherwise. */
  trueClass?: string;
}

/**
 * Resolve a review: approve (the answer was right), reject (it was wrong) or
 * amend (it was wrong, and here is the right class).
 *
 * @param decision The reviewed decision's record.
 * @param resolution `approve`, `reject` or `amend`.
 * @param options Time, reviewer and the amended class.
 * @returns The `review_resolved` record to append.
 * @throws {RangeError} When an amendment names no class or the answer's own
 * class, when approve or reject names a class, or the time is not ISO 8601.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveReview } from "./review.ts";
 *
 * const d = { kind: "decision", id: "d1", at: "2026-03-01T09:00:00Z", risk: 0.4, expectedLoss: null,
 *   profile: null, policyRevision: null, modelRevision: null, promptHash: null, served: true,
 *   decision: { runId: "r", modelId: "m", taskId: "t", trial: 0, severity: "HIGH", trueClass: null,
 *   predClass: "MATCH", parseOk: true, pCorrect: 0.6, action: "escalate",
 *   cost: { completeness: "unavailable", usd: null }, outcome: "resolved" } } as const;
 * const r = resolveReview(d, "amend", { at: "2026-03-01T10:00:00Z", reviewer: "ana",
 *   trueClass: "AMOUNT_MISMATCH" });
 * assert.equal(r.trueClass, "AMOUNT_MISMATCH");
 * assert.equal(resolveReview(d, "approve", { at: r.at, reviewer: "ana" }).trueClass, "MATCH");
 * ```
 */
export function resolveReview(
  decision: DecisionRecord,
  resolution: Resolution,
  options: ResolveReviewOptions,
): ReviewResolvedRecord {
  const what = `resolve the review of ${decision.id}`;
  checkTime(what, options.at);
  const pred = decision.decision.predClass;
  let trueClass: string | null;
  if (resolution === "amend") {
    if (options.trueClass === undefined || options.trueClass === pred) {
      throw new RangeError(
        `Cannot ${what}: an amendment must name a class other than the answer's ${
          JSON.stringify(pred)
        }, got ${JSON.stringify(options.trueClass ?? null)}`,
      );
    }
    trueClass = options.trueClass;
  } else if (resolution === "approve" || resolution === "reject") {
    if (options.trueClass !== undefined) {
      throw new RangeError(
        `Cannot ${what}: ${resolution} takes no class (use amend to name one), got ${
          JSON.stringify(options.trueClass)
        }`,
      );
    }
    trueClass = resolution === "approve" ? pred : null;
  } else {
    throw new RangeError(
      `Cannot ${what}: resolution must be approve, reject or amend, got ${
        JSON.stringify(resolution)
      }`,
    );
  }
  if (typeof options.reviewer !== "string" || options.reviewer === "") {
    throw new RangeError(`Cannot ${what}: reviewer must be a non-empty string`);
  }
  return {
    kind: "review_resolved",
    at: options.at,
    decisionId: decision.id,
    resolution,
    trueClass,
    reviewer: options.reviewer,
  };
}

/** An open review past its due time. */
export interface OverdueReview extends ReviewState {
  /** Hours past due at `now`. */
  readonly hoursOverdue: number;
}

/**
 * The reviews still open after their due time, most overdue first.
 *
 * @param reviews The review queue (`ledgerColumns(...).reviews`).
 * @param now The time to judge by (ISO 8601, UTC).
 * @returns Overdue open reviews, by due time then seq.
 * @throws {RangeError} When `now` is not an ISO 8601 UTC timestamp.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { overdueReviews } from "./review.ts";
 *
 * const open = { decisionId: "d1", seq: 2, modelId: "m", severity: "HIGH", openedAt: "2026-03-01T09:00:00Z",
 *   dueAt: "2026-03-02T09:00:00Z", slaHours: 24, resolution: null, resolvedAt: null,
 *   resolvedSeq: null, reviewer: null, trueClass: null } as const;
 * const late = overdueReviews([open], "2026-03-02T12:00:00Z");
 * assert.equal(late[0].hoursOverdue, 3);
 * assert.deepEqual(overdueReviews([open], "2026-03-02T08:00:00Z"), []);
 * ```
 */
export function overdueReviews(
  reviews: readonly ReviewState[],
  now: string,
): OverdueReview[] {
  checkTime("list overdue reviews", now);
  const t = Date.parse(now);
  return reviews
    .filter((r) => r.resolution === null && Date.parse(r.dueAt) < t)
    .map((r) => ({ ...r, hoursOverdue: (t - Date.parse(r.dueAt)) / 3_600_000 }))
    .sort((a, b) => Date.parse(a.dueAt) - Date.parse(b.dueAt) || a.seq - b.seq);
}

/** Counts of the review queue at a time. */
export interface ReviewSummary {
  /** Reviews opened. */
  readonly opened: number;
  /** Reviews resolved, by resolution. */
  readonly resolved: Readonly<Record<Resolution, number>>;
  /** Resolved after their due time. */
  readonly resolvedLate: number;
  /** Still open. */
  readonly open: number;
  /** Still open and past due at `now`. */
  readonly overdue: number;
}

/**
 * Count the review queue: opened, resolved by kind, late, open, overdue.
 *
 * @param reviews The review queue.
 * @param now The time to judge by (ISO 8601, UTC).
 * @returns The counts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reviewSummary } from "./review.ts";
 *
 * assert.equal(reviewSummary([], "2026-03-02T00:00:00Z").opened, 0);
 * ```
 */
export function reviewSummary(
  reviews: readonly ReviewState[],
  now: string,
): ReviewSummary {
  const overdue = overdueReviews(reviews, now).length;
  const resolved = { approve: 0, reject: 0, amend: 0 };
  let late = 0;
  let open = 0;
  for (const r of reviews) {
    if (r.resolution === null) {
      open++;
      continue;
    }
    resolved[r.resolution]++;
    if (Date.parse(r.resolvedAt!) > Date.parse(r.dueAt)) late++;
  }
  return {
    opened: reviews.length,
    resolved,
    resolvedLate: late,
    open,
    overdue,
  };
}

/** Decisions whose correctness is known, in columns. */
export interface LedgerLabels {
  /** Rows. */
  readonly n: number;
  /** Decision id. */
  readonly decisionId: readonly string[];
  /** Seq of the decision record. */
  readonly seq: Float64Array;
  /** Decision time, ms since the epoch. */
  readonly at: Float64Array;
  /** Model id. */
  readonly modelId: readonly string[];
  /** Severity. */
  readonly severity: readonly Severity[];
  /** Recorded risk, NaN when none. */
  readonly risk: Float64Array;
  /** 1 when the answer was wrong. */
  readonly error: Uint8Array;
  /** The gold class, `null` when only the answer's wrongness is known (a rejection). */
  readonly trueClass: readonly (string | null)[];
  /** Where the label came from. */
  readonly source: readonly ("record" | "review")[];
}

/** Options for {@linkcode ledgerLabels}. */
export interface LedgerLabelsOptions {
  /** Only served answers (`true`), or shadow answers too. Default: `true`. */
  servedOnly?: boolean;
}

/**
 * The labelled data a ledger holds: every answer whose correctness its case's
 * label settles, for calibration and threshold refits.
 *
 * Labels come from decision records that carried the gold class and from
 * resolved reviews. These are not a random sample: escalated decisions get
 * reviewed more often than automatic ones, so a refit on them is biased
 * towards the decisions the old policy doubted. The `source` column shows
 * where each label came from.
 *
 * @param cols The ledger in columns.
 * @param options Whether to include shadow answers.
 * @returns The labelled outcomes, in ledger order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerColumns } from "./columns.ts";
 * import { ledgerLabels } from "./review.ts";
 *
 * assert.equal(ledgerLabels(ledgerColumns([])).n, 0);
 * ```
 */
export function ledgerLabels(
  cols: LedgerColumns,
  options: LedgerLabelsOptions = {},
): LedgerLabels {
  const servedOnly = options.servedOnly ?? true;
  const wrong = answerCosts(cols, getProfile("flat"), CONSEQUENCE_MATRIX).wrong;
  const rows: number[] = [];
  for (let j = 0; j < cols.answers; j++) {
    if (servedOnly && !cols.answerServed[j]) continue;
    if (!Number.isNaN(wrong[j])) rows.push(j);
  }
  const caseOf = (j: number) => cols.answerCase[j];
  return {
    n: rows.length,
    decisionId: rows.map((j) => cols.answerId[j]),
    seq: Float64Array.from(rows, (j) => cols.answerSeq[j]),
    at: Float64Array.from(rows, (j) => cols.answerAt[j]),
    modelId: rows.map((j) => cols.models[cols.answerModel[j]]),
    severity: rows.map((j) => cols.severities[cols.caseSeverity[caseOf(j)]]),
    risk: Float64Array.from(rows, (j) => cols.answerRisk[j]),
    error: Uint8Array.from(rows, (j) => wrong[j]),
    trueClass: rows.map((j) => {
      const g = cols.caseGold[caseOf(j)];
      return g < 0 ? null : cols.classes[g];
    }),
    source: rows.map((j) =>
      cols.caseLabelSource[caseOf(j)] === 2 ? "review" : "record"
    ),
  };
}
