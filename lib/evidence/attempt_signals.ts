/**
 * The terminal signals of an attempt: what the harness knows when it ends,
 * before any cost or class is decided.
 *
 * @module
 */

import type { ExecutionEnvelope, ModelIdentity } from "./envelope.ts";

/**
 * How the candidate side ended: `clean` (the process ran and exited
 * normally), `failed` (it ran and failed: non-zero exit, refusal, unusable
 * answer) or `runner_error` (the runner itself threw).
 */
export type CandidateExit = "clean" | "failed" | "runner_error";

/** Every candidate exit. */
export const CANDIDATE_EXITS: readonly CandidateExit[] = [
  "clean",
  "failed",
  "runner_error",
];

/** The result of governed grading: the answer passed or failed the rubric. */
export type Grade = "pass" | "fail";

/** Signals every attempt has, whatever ran it. */
export interface CommonSignals {
  /** A cancellation signal was received. Default: `false`. */
  readonly cancelled?: boolean;
  /** The attempt hit its time limit. Default: `false`. */
  readonly timedOut?: boolean;
  /** How the candidate side ended. */
  readonly exit: CandidateExit;
  /**
   * The grading result, or `null`/absent when the attempt has not been
   * graded. A grader that could not run counts as `"fail"` (`yylo-benchmark` records it as a failing decision). Default: `null`.
   */
  readonly grade?: Grade | null;
}

/** A model step: a provider child was spawned and must leave an envelope. */
export interface ModelAttemptSignals extends CommonSignals {
  /** Discriminator. Default: `"model"`. */
  readonly kind?: "model";
  /** The identity the harness asked for. */
  readonly requested: ModelIdentity;
  /** The envelope read from stdout, or `null` when there was none. */
  readonly envelope: ExecutionEnvelope | null;
}

/**
 * A local step: a deterministic script or synthetic transport run by the
 * local process, with no provider child and hence no envelope and no
 * billable event.
 */
export interface LocalStepSignals extends CommonSignals {
  /** Discriminator. */
  readonly kind: "local";
}

/** The terminal signals of one attempt, a model step or a local step. */
export type AttemptSignals = ModelAttemptSignals | LocalStepSignals;
