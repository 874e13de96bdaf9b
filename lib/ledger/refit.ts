/**
 * Threshold refits from labelled outcomes, recorded as new policy revisions.
 *
 * @module
 */

import { getProfile } from "../costs/load.ts";
import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { CONSEQUENCE_MATRIX, type CostMatrix } from "../metrics/loss.ts";
import { answerCosts } from "./_answer_costs.ts";
import type { LedgerColumns } from "./columns.ts";
import { policyRecord, profileRef, type ThresholdPolicy } from "./policy.ts";
import { isTimestamp, type PolicyRecord } from "./record.ts";

/** Options for {@linkcode refitPolicy}. */
export interface RefitOptions {
  /** When the new revision takes effect (ISO 8601, UTC). Required. */
  at: string;
  /** Profile that prices the empirical cost. Default: the shipped `reconciliation`. */
  profile?: CostProfile;
  /** Cost matrix. Default: {@linkcode CONSEQUENCE_MATRIX}. */
  matrix?: CostMatrix;
  /** Use decisions taken at or after this time (ISO 8601). Default: all. */
  from?: string;
  /** Use decisions taken before this time (ISO 8601). Default: all. */
  to?: string;
  /** Fewest labelled decisions a severity needs to be refitted; below it the parent's threshold stays. Default: 30. */
  minLabelled?: number;
}

/** The refit of one severity. */
export interface SeverityRefit {
  /** The severity refitted. */
  readonly severity: Severity;
  /** Labelled served decisions with a risk at this severity. */
  readonly labelled: number;
  /** The parent's threshold. */
  readonly before: number;
  /** The new threshold (the parent's when too few labels). */
  readonly after: number;
  /** Empirical cost of the labelled decisions under the parent's threshold. */
  readonly costBefore: number;
  /** Empirical cost under the new threshold. */
  readonly costAfter: number;
}

/** A refitted policy and the record that announces it. */
export interface Refit {
  /** The new policy. */
  readonly policy: ThresholdPolicy;
  /** The `policy` record to append; its `revision` is the new revision id. */
  readonly record: PolicyRecord;
  /** What changed per severity. */
  readonly severities: readonly SeverityRefit[];
}

/**
 * Refit a policy's thresholds on the labelled outcomes in a ledger.
 *
 * For each severity, over the served decisions whose outcome is known and
 * that state a risk, the new threshold is the one that minimises the
 * empirical cost: for a threshold t, decisions with risk <= t are charged
 * their automatic cost and the rest the escalation cost. Candidates are the
 * distinct risks (and 0), found with one sort and prefix sums; ties go to the
 * larger threshold (fewer reviews). The result gets a new revision id, chained
 * to the parent's, and a `policy` record whose `basis` says what it was
 * fitted on. Labels are not a random sample (escalations are reviewed more
 * often than automatic decisions are audited), so read a refit as a
 * proposal to replay, not a verdict.
 *
 * @param cols The ledger in columns.
 * @param parent The policy record being replaced.
 * @param options Time, profile, matrix, window and minimum labels.
 * @returns The new policy, its record and the per-severity changes.
 * @throws {RangeError} When a time is not ISO 8601 UTC.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerColumns } from "./columns.ts";
 * import { policyRecord, thresholdPolicy } from "./policy.ts";
 * import { refitPolicy } from "./refit.ts";
 *
 * const parent = policyRecord(thresholdPolicy("desk", 0.2), { at: "2026-03-01T00:00:00Z" });
 * const refit = refitPolicy(ledgerColumns([]), parent, { at: "2026-04-01T00:00:00Z" });
 * assert.equal(refit.record.parent, parent.revision);
 * assert.notEqual(refit.record.revision, parent.revision);
 * assert.deepEqual(refit.policy.thresholds, parent.thresholds); // no labels: nothing to refit
 * ```
 */
export function refitPolicy(
  cols: LedgerColumns,
  parent: PolicyRecord,
  options: RefitOptions,
): Refit {
  for (
    const [k, v] of [["at", options.at], ["from", options.from], [
      "to",
      options.to,
    ]]
  ) {
    if (v !== undefined && (typeof v !== "string" || !isTimestamp(v))) {
      throw new RangeError(
        `Cannot refit policy ${parent.policyId}: ${k} must be an ISO 8601 UTC timestamp, got ${
          JSON.stringify(v)
        }`,
      );
    }
  }
  const profile = options.profile ?? getProfile("reconciliation");
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const minLabelled = options.minLabelled ?? 30;
  const from = options.from === undefined
    ? -Infinity
    : Date.parse(options.from);
  const to = options.to === undefined ? Infinity : Date.parse(options.to);
  const costs = answerCosts(cols, profile, matrix);
  const bySev: number[][] = SEVERITIES.map(() => []);
  let first = Infinity;
  let last = -Infinity;
  let labelled = 0;
  for (let j = 0; j < cols.answers; j++) {
    const t = cols.answerAt[j];
    if (!cols.answerServed[j] || t < from || t >= to) continue;
    if (
      Number.isNaN(cols.answerRisk[j]) || Number.isNaN(costs.auto[j]) ||
      Number.isNaN(costs.escalate[j])
    ) continue;
    bySev[cols.caseSeverity[cols.answerCase[j]]].push(j);
    labelled++;
    first = Math.min(first, t);
    last = Math.max(last, t);
  }
  const thresholds = {} as Record<Severity, number>;
  const severities: SeverityRefit[] = SEVERITIES.map((s, i) => {
    const rows = bySev[i].sort((a, b) =>
      cols.answerRisk[a] - cols.answerRisk[b]
    );
    const before = parent.thresholds[s];
    const costAt = (t: number) => {
      let c = 0;
      for (const j of rows) {
        c += cols.answerRisk[j] > t ? costs.escalate[j] : costs.auto[j];
      }
      return c;
    };
    let after = before;
    if (rows.length >= minLabelled) {
      // t = 0 escalates every positive risk; each distinct risk r acts on all up to r
      let esc = 0;
      for (const j of rows) esc += costs.escalate[j];
      let best = costAt(0);
      let bestT = 0;
      let autoSum = 0;
      let escSum = esc;
      for (let k = 0; k < rows.length; k++) {
        const j = rows[k];
        autoSum += costs.auto[j];
        escSum -= costs.escalate[j];
        const r = cols.answerRisk[j];
        if (k + 1 < rows.length && cols.answerRisk[rows[k + 1]] === r) continue;
        const c = autoSum + escSum;
        if (c <= best) {
          best = c;
          bestT = r;
        }
      }
      after = bestT;
    }
    thresholds[s] = after;
    return {
      severity: s,
      labelled: rows.length,
      before,
      after,
      costBefore: costAt(before),
      costAfter: costAt(after),
    };
  });
  const policy: ThresholdPolicy = Object.freeze({
    id: parent.policyId,
    thresholds: Object.freeze(thresholds),
    missingRisk: parent.missingRisk,
    slaHours: parent.slaHours,
    profile: profileRef(profile),
  });
  const record = policyRecord(policy, {
    at: options.at,
    parent: parent.revision,
    basis: {
      method: "min-empirical-cost",
      labelled,
      from: labelled === 0 ? null : new Date(first).toISOString(),
      to: labelled === 0 ? null : new Date(last).toISOString(),
    },
  });
  return { policy, record, severities };
}
