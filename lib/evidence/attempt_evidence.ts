/**
 * Attempt evidence: the class and the cost of one attempt, decided together
 * from its terminal signals.
 *
 * @module
 */

import type { AttemptSignals } from "./attempt_signals.ts";
import { classifyAttempt } from "./classify.ts";
import type { CostEvidence, FailureClass } from "./cost_evidence.ts";
import { reconcileCost } from "./reconcile_cost.ts";

/** The evidence one attempt leaves: its class and its cost. */
export interface AttemptEvidence {
  /** Failure class, or `null` while a clean exit awaits grading. */
  readonly outcome: FailureClass | null;
  /** Cost evidence. */
  readonly cost: CostEvidence;
}

/**
 * Classify an attempt and reconcile its cost in one step.
 *
 * The two are independent facts (`yylo-benchmark`): the class comes from
 * the cascade of `classifyAttempt()`, the cost from `reconcileCost()`. A
 * harness failure has `unavailable` cost because it left no valid envelope,
 * not because it failed; an attempt that resolved may still have an
 * `unavailable` cost, and that does not make it a failure.
 *
 * @param signals The attempt's terminal signals.
 * @returns Its outcome and cost.
 * @throws {TypeError} When the signals are malformed.
 *
 * @example The positive control cost:zero: a genuine, complete zero
 * ```ts
 * import assert from "node:assert/strict";
 * import { attemptEvidence } from "./attempt_evidence.ts";
 * import { readEnvelope } from "./envelope.ts";
 *
 * const requested = { provider: "acme", model: "alpha", version: "2026-01" };
 * const stdout = "cache hit\n" + JSON.stringify({
 *   identity: requested, cost: { completeness: "complete", usd: 0 },
 * });
 * const e = attemptEvidence({ requested, envelope: readEnvelope(stdout), exit: "clean", grade: "pass" });
 * assert.deepEqual(e, { outcome: "resolved", cost: { completeness: "complete", usd: 0 } });
 * ```
 */
export function attemptEvidence(signals: AttemptSignals): AttemptEvidence {
  return { outcome: classifyAttempt(signals), cost: reconcileCost(signals) };
}
