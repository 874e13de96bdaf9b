/**
 * The classification cascade: an attempt's terminal signals, checked in a
 * fixed order, give its failure class.
 *
 * @module
 */

import type { AttemptSignals } from "./attempt_signals.ts";
import type { FailureClass } from "./cost_evidence.ts";
import { checkSignals } from "./_check_signals.ts";

/**
 * Classify an attempt by the fixed cascade of `yylo-benchmark`.
 *
 * The signals are checked in order, and the first that applies decides:
 * cancellation; then timeout; then `harness_failure` when a model step left
 * no envelope, or one whose provider, model or version differs from the
 * requested identity; then the candidate side (`runner_error` gives
 * `environment_failure`, evidence about the environment kept out of the
 * model's column; `failed` gives `model_failure`). A clean exit proves only
 * that the process ran: it "remains unresolved until governed grading", so
 * an ungraded clean exit gives `null`, never `resolved`. Grading overlays a
 * clean exit only: pass gives `resolved`, fail gives `grader_failure`; an
 * unsuccessful candidate keeps its own class. Local steps skip the envelope
 * check. `safety_failure` and `invalid_case` have no producer here, as in
 * `yylo-benchmark` (reserved vocabulary).
 *
 * @param signals The attempt's terminal signals.
 * @returns The failure class, or `null` for a clean exit not yet graded.
 * @throws {TypeError} When a signal has the wrong shape or value (an unknown
 * exit or grade, a malformed identity, a local step with an envelope).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyAttempt } from "./classify.ts";
 *
 * const requested = { provider: "acme", model: "alpha", version: "2026-01" };
 * const envelope = { identity: requested };
 * assert.equal(classifyAttempt({ requested, envelope, exit: "clean" }), null);
 * assert.equal(classifyAttempt({ requested, envelope, exit: "clean", grade: "pass" }), "resolved");
 * assert.equal(classifyAttempt({ requested, envelope: null, exit: "clean", grade: "pass" }), "harness_failure");
 * assert.equal(classifyAttempt({ requested, envelope, exit: "clean", timedOut: true, cancelled: true }), "cancelled");
 * ```
 */
export function classifyAttempt(signals: AttemptSignals): FailureClass | null {
  const { local, validEnvelope } = checkSignals(signals, "classify attempt");
  if (signals.cancelled === true) return "cancelled";
  if (signals.timedOut === true) return "timeout";
  if (!local && validEnvelope === null) return "harness_failure";
  if (signals.exit === "runner_error") return "environment_failure";
  if (signals.exit === "failed") return "model_failure";
  const grade = signals.grade ?? null;
  if (grade === null) return null;
  return grade === "pass" ? "resolved" : "grader_failure";
}
