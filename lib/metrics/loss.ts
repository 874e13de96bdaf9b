/**
 * Loss in money: realised loss of a run and expected loss from stated
 * probabilities, under any cost profile.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import type { StatsRow } from "./sufficient_stats.ts";

/** Loss at one severity, split into its two sources. */
export interface SeverityLoss {
  /** Decisions at this severity. */
  readonly n: number;
  /** Automatic decisions that were wrong. */
  readonly autoErrors: number;
  /** Decisions sent to review. */
  readonly escalated: number;
  /** `autoErrors × K(severity)`. */
  readonly errorLoss: number;
  /** `escalated × reviewCost`. */
  readonly reviewLoss: number;
  /** `errorLoss + reviewLoss`. */
  readonly loss: number;
}

/**
 * Realised loss per severity under a cost profile.
 *
 * A wrong automatic decision costs K(severity); an escalated decision costs
 * the review, whether or not the model was right (DESIGN §4.1).
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param profile Cost profile.
 * @returns The split per severity; a severity with no decisions is `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { lossBySeverity } from "./loss.ts";
 *
 * const row = { modelId: "A", severity: "HIGH", trueClass: "AMOUNT_MISMATCH", n: 500,
 *   correct: 490, escalated: 0, autoErrors: 10, pErrorSum: 0, pMissing: 500, parseFailures: 0 } as const;
 * const by = lossBySeverity([row], getProfile("reconciliation"));
 * assert.equal(by.HIGH?.loss, 100);
 * assert.equal(by.LOW, null);
 * ```
 */
export function lossBySeverity(
  stats: readonly StatsRow[],
  profile: CostProfile,
): Record<Severity, SeverityLoss | null> {
  const acc = Object.fromEntries(
    SEVERITIES.map((s) => [s, { n: 0, autoErrors: 0, escalated: 0 }]),
  ) as Record<Severity, { n: number; autoErrors: number; escalated: number }>;
  for (const r of stats) {
    const a = acc[r.severity];
    a.n += r.n;
    a.autoErrors += r.autoErrors;
    a.escalated += r.escalated;
  }
  return Object.fromEntries(SEVERITIES.map((s) => {
    const a = acc[s];
    if (a.n === 0) return [s, null];
    const errorLoss = a.autoErrors * profile.K[s];
    const reviewLoss = a.escalated * profile.reviewCost;
    return [s, { ...a, errorLoss, reviewLoss, loss: errorLoss + reviewLoss }];
  })) as Record<Severity, SeverityLoss | null>;
}

/**
 * Realised loss of a run under a cost profile.
 *
 * The sum over severities of (wrong automatic decisions × K(severity)) plus
 * (escalated decisions × review cost). Linear in K, so two models' loss lines
 * cross at an exact point as costs vary. Cost is O(rows of `stats`).
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param profile Cost profile.
 * @returns The loss in the profile's unit, or `null` when there are no decisions.
 *
 * @example Model A of the Third Number under `reconciliation`
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { realisedLoss } from "./loss.ts";
 *
 * const cell = { modelId: "A", trueClass: "X", escalated: 0, pErrorSum: 0, parseFailures: 0 } as const;
 * const stats = [
 *   { ...cell, severity: "HIGH", n: 500, correct: 490, autoErrors: 10, pMissing: 500 },
 *   { ...cell, severity: "MEDIUM", n: 200, correct: 196, autoErrors: 4, pMissing: 200 },
 *   { ...cell, severity: "LOW", n: 100, correct: 98, autoErrors: 2, pMissing: 100 },
 * ] as const;
 * // 10 x 10 + 4 x 1.0 + 2 x 0.2 = 104.4
 * assert.ok(Math.abs(realisedLoss(stats, getProfile("reconciliation"))! - 104.4) < 1e-9);
 * assert.equal(realisedLoss([], getProfile("flat")), null);
 * ```
 */
export function realisedLoss(
  stats: readonly StatsRow[],
  profile: CostProfile,
): number | null {
  let n = 0;
  let loss = 0;
  for (const r of stats) {
    n += r.n;
    loss += r.autoErrors * profile.K[r.severity] +
      r.escalated * profile.reviewCost;
  }
  return n === 0 ? null : loss;
}

/**
 * Expected loss of a run from the models' stated probabilities.
 *
 * Each automatic decision contributes P(error) × K(severity), with P(error) =
 * 1 - pCorrect; each escalated decision contributes the review cost. When any
 * automatic decision states no probability the expected loss is unknown and
 * the result is `null`: a missing probability is never read as certainty.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param profile Cost profile.
 * @returns The expected loss, or `null` when there are no decisions or some automatic decision lacks pCorrect.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { expectedLoss } from "./loss.ts";
 *
 * const row = { modelId: "m", severity: "HIGH", trueClass: "X", n: 2, correct: 2,
 *   escalated: 0, autoErrors: 0, pErrorSum: 0.3, pMissing: 0, parseFailures: 0 } as const;
 * // (0.1 + 0.2) x K(HIGH) = 0.3 x 10 = 3
 * assert.ok(Math.abs(expectedLoss([row], getProfile("reconciliation"))! - 3) < 1e-12);
 * assert.equal(expectedLoss([{ ...row, pMissing: 1 }], getProfile("reconciliation")), null);
 * ```
 */
export function expectedLoss(
  stats: readonly StatsRow[],
  profile: CostProfile,
): number | null {
  let n = 0;
  let loss = 0;
  for (const r of stats) {
    if (r.pMissing > 0) return null;
    n += r.n;
    loss += r.pErrorSum * profile.K[r.severity] +
      r.escalated * profile.reviewCost;
  }
  return n === 0 ? null : loss;
}
