/**
 * Threshold policies: when a decision is escalated to human review, and the
 * revision id that every decision record carries.
 *
 * A policy escalates a decision when its calibrated risk, P(error), is above
 * the threshold of its severity. Chow's reject rule in money (docs/method.md, one cost matrix)
 * is the special case `threshold = reviewCost / cost if wrong`: escalate
 * exactly when the expected loss of acting, risk × cost if wrong, exceeds
 * the review cost, with the cost if wrong read from the cost matrix
 * (`costIfWrong`: K(s) for a decision that predicted clean).
 *
 * @module
 */

import { canonicalJson } from "./_canonical_json.ts";
import { sha256Hex } from "./_sha256.ts";
import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import type { Action } from "../metrics/sufficient_stats.ts";
import { costIfWrong, type CostMatrix } from "../metrics/loss.ts";
import type { PolicyRecord, RefitBasis } from "./record.ts";

/** Thresholds on P(error), one per severity. */
export type SeverityThresholds = Readonly<Record<Severity, number>>;

/** An escalation policy. */
export interface ThresholdPolicy {
  /** Policy id, stable across revisions. */
  readonly id: string;
  /** Escalate when risk is above the decision's severity's threshold. */
  readonly thresholds: SeverityThresholds;
  /** What to do with a decision that states no risk. */
  readonly missingRisk: "escalate" | "auto";
  /** Hours a reviewer has for an escalation. */
  readonly slaHours: number;
  /** Profile the thresholds were derived under (`id@version`), or `null`. */
  readonly profile: string | null;
}

/** Options for {@linkcode thresholdPolicy}. */
export interface ThresholdPolicyOptions {
  /** What to do with a decision that states no risk. Default: `"escalate"`. */
  missingRisk?: "escalate" | "auto";
  /** Hours a reviewer has. Default: 24. */
  slaHours?: number;
  /** Profile the thresholds come from, as `id@version`. Default: `null`. */
  profile?: string | null;
}

/**
 * Expand one threshold or a per-severity map into full per-severity thresholds.
 *
 * @param threshold A threshold for every severity, or one per severity.
 * @returns Thresholds for all four severities.
 * @throws {RangeError} When a threshold is outside [0, 1].
 * @throws {TypeError} When a severity is missing from the map.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { severityThresholds } from "./policy.ts";
 *
 * assert.deepEqual(severityThresholds(0.3), { LOW: 0.3, MEDIUM: 0.3, HIGH: 0.3, CRITICAL: 0.3 });
 * ```
 */
export function severityThresholds(
  threshold: number | Readonly<Record<Severity, number>>,
): SeverityThresholds {
  const out = {} as Record<Severity, number>;
  for (const s of SEVERITIES) {
    const t = typeof threshold === "number" ? threshold : threshold[s];
    if (t === undefined) {
      throw new TypeError(`Cannot build thresholds: ${s} is missing`);
    }
    if (typeof t !== "number" || !(t >= 0 && t <= 1)) {
      throw new RangeError(
        `Cannot build thresholds: the ${s} threshold must be in [0, 1], got ${t}`,
      );
    }
    out[s] = t;
  }
  return Object.freeze(out);
}

/**
 * Build an escalation policy.
 *
 * @param id Policy id.
 * @param threshold One threshold on P(error) for every severity, or one per severity.
 * @param options Missing-risk rule, SLA and profile.
 * @returns The policy.
 * @throws {RangeError} When a threshold is outside [0, 1] or the SLA is negative.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyAction, thresholdPolicy } from "./policy.ts";
 *
 * const p = thresholdPolicy("desk", 0.2);
 * assert.equal(policyAction(p, "HIGH", 0.25), "escalate");
 * assert.equal(policyAction(p, "HIGH", 0.2), "auto");
 * assert.equal(policyAction(p, "LOW", null), "escalate");
 * ```
 */
export function thresholdPolicy(
  id: string,
  threshold: number | Readonly<Record<Severity, number>>,
  options: ThresholdPolicyOptions = {},
): ThresholdPolicy {
  const slaHours = options.slaHours ?? 24;
  if (!(slaHours >= 0) || !Number.isFinite(slaHours)) {
    throw new RangeError(
      `Cannot build policy ${
        JSON.stringify(id)
      }: slaHours must be a finite number >= 0, got ${slaHours}`,
    );
  }
  return Object.freeze({
    id,
    thresholds: severityThresholds(threshold),
    missingRisk: options.missingRisk ?? "escalate",
    slaHours,
    profile: options.profile ?? null,
  });
}

/**
 * What a policy does with one decision: escalate when its risk is above its
 * severity's threshold, or by the missing-risk rule when it states none.
 *
 * @param policy The thresholds and the missing-risk rule.
 * @param severity The decision's severity.
 * @param risk Its calibrated P(error), or `null`.
 * @returns `"escalate"` or `"auto"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyAction, thresholdPolicy } from "./policy.ts";
 *
 * assert.equal(policyAction(thresholdPolicy("p", 0.5, { missingRisk: "auto" }), "LOW", null), "auto");
 * ```
 */
export function policyAction(
  policy: Pick<ThresholdPolicy, "thresholds" | "missingRisk">,
  severity: Severity,
  risk: number | null,
): Action {
  if (risk === null) return policy.missingRisk;
  return risk > policy.thresholds[severity] ? "escalate" : "auto";
}

/** Options for {@linkcode chowThresholds}. */
export interface ChowOptions {
  /** Cost matrix that prices an error. Default: `CONSEQUENCE_MATRIX`. */
  matrix?: CostMatrix;
  /**
   * The prediction the thresholds are for: `"clean"` (a wrong answer is a
   * miss) or `"exception"` (a wrong type or a false alarm). Default: `"clean"`.
   */
  predicted?: "clean" | "exception";
}

/**
 * Chow's rule in money: per-severity thresholds `reviewCost / cost if
 * wrong`, capped at 1, so that a decision is escalated exactly when risk ×
 * its cost if wrong exceeds the review cost. The cost if wrong comes from
 * the cost matrix and the prediction (`costIfWrong`): K(s) for a decision
 * that predicted clean under either shipped matrix; for one that predicted
 * an exception, a review under `consequence` (so it is never worth
 * escalating) and K(s) under `strict`. Where an error costs nothing, or the
 * review costs at least as much, escalation never pays and the threshold is 1.
 *
 * @param profile Cost profile.
 * @param options Cost matrix and the prediction.
 * @returns Thresholds per severity.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/load.ts";
 * import { chowThresholds } from "./policy.ts";
 *
 * // reconciliation: review 1, K = 0.2 / 1 / 10 / 50
 * assert.deepEqual(chowThresholds(getProfile("reconciliation")),
 *   { LOW: 1, MEDIUM: 1, HIGH: 0.1, CRITICAL: 0.02 });
 * // consequence: a wrong exception type still reaches review, so escalating it never pays
 * assert.deepEqual(chowThresholds(getProfile("reconciliation"), { predicted: "exception" }),
 *   { LOW: 1, MEDIUM: 1, HIGH: 1, CRITICAL: 1 });
 * ```
 */
export function chowThresholds(
  profile: CostProfile,
  options: ChowOptions = {},
): SeverityThresholds {
  // any exception class stands for "predicted an exception"
  const pred = (options.predicted ?? "clean") === "clean"
    ? "MATCH"
    : "AMOUNT_MISMATCH";
  const out = {} as Record<Severity, number>;
  for (const s of SEVERITIES) {
    const k = costIfWrong(pred, s, { profile, matrix: options.matrix });
    out[s] = k <= 0 ? 1 : Math.min(1, profile.reviewCost / k);
  }
  return Object.freeze(out);
}

/**
 * A profile's reference as records store it: `id@version`.
 *
 * @param profile Cost profile.
 * @returns `"<id>@<version>"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/load.ts";
 * import { profileRef } from "./policy.ts";
 *
 * assert.equal(profileRef(getProfile("reconciliation")), "reconciliation@1.0.0");
 * ```
 */
export function profileRef(profile: CostProfile): string {
  return `${profile.id}@${profile.version}`;
}

/**
 * The revision id of a policy: `rev-` and the first 12 hex digits of the
 * SHA-256 of its canonical JSON together with its parent revision. The same
 * policy with the same parent always gets the same id; any change of
 * threshold, rule, SLA, profile or parent gets a new one.
 *
 * @param policy The policy.
 * @param parent The revision it replaces, or `null`. Default: `null`.
 * @returns The revision id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyRevision, thresholdPolicy } from "./policy.ts";
 *
 * const a = policyRevision(thresholdPolicy("desk", 0.2));
 * assert.match(a, /^rev-[0-9a-f]{12}$/);
 * assert.equal(a, policyRevision(thresholdPolicy("desk", 0.2)));
 * assert.notEqual(a, policyRevision(thresholdPolicy("desk", 0.3)));
 * ```
 */
export function policyRevision(
  policy: ThresholdPolicy,
  parent: string | null = null,
): string {
  const body = canonicalJson({
    id: policy.id,
    thresholds: policy.thresholds,
    missingRisk: policy.missingRisk,
    slaHours: policy.slaHours,
    profile: policy.profile,
    parent,
  });
  return `rev-${sha256Hex(body).slice(0, 12)}`;
}

/** Options for {@linkcode policyRecord}. */
export interface PolicyRecordOptions {
  /** When the revision takes effect (ISO 8601, UTC). */
  at: string;
  /** The revision it replaces. Default: `null`. */
  parent?: string | null;
  /** What a refit was fitted on. Default: `null` (set by hand). */
  basis?: RefitBasis | null;
}

/**
 * The ledger record announcing a policy revision.
 *
 * @param policy The policy.
 * @param options Time, parent revision and refit basis.
 * @returns The record, with its revision id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { policyRecord, policyRevision, thresholdPolicy } from "./policy.ts";
 *
 * const p = thresholdPolicy("desk", 0.2);
 * const r = policyRecord(p, { at: "2026-03-01T00:00:00Z" });
 * assert.equal(r.revision, policyRevision(p));
 * assert.equal(r.parent, null);
 * ```
 */
export function policyRecord(
  policy: ThresholdPolicy,
  options: PolicyRecordOptions,
): PolicyRecord {
  const parent = options.parent ?? null;
  return {
    kind: "policy",
    at: options.at,
    policyId: policy.id,
    revision: policyRevision(policy, parent),
    parent,
    thresholds: policy.thresholds,
    missingRisk: policy.missingRisk,
    profile: policy.profile,
    slaHours: policy.slaHours,
    basis: options.basis ?? null,
  };
}
