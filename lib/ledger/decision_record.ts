/**
 * Recording decisions: a run-export Decision plus its calibrated risk,
 * expected loss, policy revision, model revision and prompt hash becomes a
 * ledger decision record.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { decisionKeyId } from "./_decision_id.ts";
import {
  CONSEQUENCE_MATRIX,
  costIfWrong,
  type CostMatrix,
} from "../metrics/loss.ts";
import { type Decision, pError } from "../decision/decision.ts";
import {
  policyAction,
  policyRevision,
  profileRef,
  type ThresholdPolicy,
} from "./policy.ts";
import { type DecisionRecord, isTimestamp } from "./record.ts";

/** Options for {@linkcode decisionRecord}. */
export interface DecisionRecordOptions {
  /** When the decision was taken (ISO 8601, UTC). Required. */
  at: string;
  /**
   * Decision id. Default: the canonical JSON of the key,
   * `["runId","modelId","taskId",trial]`, unambiguous even when a field holds
   * `/` (model ids such as `openai/gpt-4o` do).
   */
  id?: string;
  /** Calibrated P(error). Default: 1 − pCorrect (`null` when pCorrect is). */
  risk?: number | null;
  /** Profile that prices the expected loss. Default: `null` (expected loss unknown). */
  profile?: CostProfile | null;
  /** Cost matrix that prices the expected loss; its id is recorded. Default: `CONSEQUENCE_MATRIX`. */
  matrix?: CostMatrix;
  /**
   * The policy in force. When given, it chooses the action (replacing the
   * decision's own) and its revision is recorded. Default: `null`, the
   * decision's action stands.
   */
  policy?: ThresholdPolicy | null;
  /** Revision recorded. Default: the policy's revision (no parent), else `null`. */
  policyRevision?: string | null;
  /** Model revision. Default: `null`. */
  modelRevision?: string | null;
  /** Prompt hash. Default: `null`. */
  promptHash?: string | null;
  /** Whether the answer was acted on. Default: `true`. */
  served?: boolean;
  /**
   * Whether the gold class is known when recording (an evaluation run) or
   * arrives later through a review (production). Default: `true`.
   */
  goldKnown?: boolean;
}

/**
 * Build the ledger record of one decision.
 *
 * The expected loss is that of acting on the answer, risk × its cost if
 * wrong under the profile and the cost matrix (`costIfWrong`: K(severity)
 * for an answer that predicted clean; under `consequence`, a review for one
 * that predicted an exception); it is `null` when either is unknown. The
 * record stores the matrix id beside it. When a policy is given, the action is the policy's
 * (escalate when risk is above the severity's threshold), so the record shows
 * what was actually done.
 *
 * @param decision A validated run-export decision.
 * @param options Time, id, risk, profile, policy, revisions and labelling.
 * @returns The record.
 * @throws {RangeError} When `at` is not an ISO 8601 UTC timestamp or the risk is outside [0, 1].
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/load.ts";
 * import { decisionRecord } from "./decision_record.ts";
 * import { thresholdPolicy } from "./policy.ts";
 *
 * const d = { runId: "r", modelId: "m", taskId: "t1", trial: 0, severity: "HIGH",
 *   trueClass: "AMOUNT_MISMATCH", predClass: "MATCH", parseOk: true, pCorrect: 0.7,
 *   action: "auto", cost: { completeness: "complete", usd: 0.01 }, outcome: "model_failure" } as const;
 * const r = decisionRecord(d, { at: "2026-03-01T09:00:00Z", profile: getProfile("reconciliation"),
 *   policy: thresholdPolicy("desk", 0.2), goldKnown: false });
 * assert.equal(r.decision.action, "escalate"); // risk 0.3 > 0.2
 * assert.ok(Math.abs(r.expectedLoss! - 3) < 1e-12); // predicted MATCH: 0.3 x K(HIGH) = 0.3 x 10
 * assert.equal(r.matrix, "consequence"); // priced under the consequence matrix
 * assert.equal(r.decision.trueClass, null);
 * assert.equal(r.id, '["r","m","t1",0]');
 * ```
 */
export function decisionRecord(
  decision: Decision,
  options: DecisionRecordOptions,
): DecisionRecord {
  if (typeof options.at !== "string" || !isTimestamp(options.at)) {
    throw new RangeError(
      `Cannot record decision ${decision.taskId}: at must be an ISO 8601 UTC timestamp, got ${
        JSON.stringify(options.at)
      }`,
    );
  }
  const risk = options.risk === undefined
    ? pError(decision.pCorrect)
    : options.risk;
  if (risk !== null && !(risk >= 0 && risk <= 1)) {
    throw new RangeError(
      `Cannot record decision ${decision.taskId}: risk must be in [0, 1], got ${risk}`,
    );
  }
  const profile = options.profile ?? null;
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const policy = options.policy ?? null;
  const action = policy === null
    ? decision.action
    : policyAction(policy, decision.severity, risk);
  return {
    kind: "decision",
    id: options.id ?? decisionKeyId(decision),
    at: options.at,
    decision: {
      ...decision,
      trueClass: options.goldKnown === false ? null : decision.trueClass,
      action,
    },
    risk,
    expectedLoss: risk === null || profile === null
      ? null
      : risk * costIfWrong(decision.predClass, decision.severity, {
        profile,
        matrix,
      }),
    profile: profile === null ? null : profileRef(profile),
    matrix: risk === null || profile === null ? null : matrix.id,
    policyRevision: options.policyRevision !== undefined
      ? options.policyRevision
      : policy === null
      ? null
      : policyRevision(policy),
    modelRevision: options.modelRevision ?? null,
    promptHash: options.promptHash ?? null,
    served: options.served ?? true,
  };
}
