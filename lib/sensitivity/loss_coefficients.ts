/**
 * Loss coefficients: what a model's sufficient statistics charge each cost
 * slot, so that loss under any profile is one dot product.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { CONSEQUENCE_MATRIX, type LossOptions } from "../metrics/loss.ts";
import { outcomeOf, type StatsRow } from "../metrics/sufficient_stats.ts";
import {
  add,
  mul,
  rat,
  RAT_ZERO,
  type Rational,
  toNumber,
} from "./_rational.ts";

/** How loss is totalled: per decision (a mean) or over the whole run (a sum). */
export type LossPer = "decision" | "run";

/**
 * One model's loss as a linear function of the cost profile.
 *
 * Loss = K(LOW)·K.LOW + K(MEDIUM)·K.MEDIUM + K(HIGH)·K.HIGH +
 * K(CRITICAL)·K.CRITICAL + reviewCost·review + fixed, where each coefficient
 * counts the decisions the cost matrix charges that slot (times the rule's
 * multiplier). Divided by `n` it is the loss per decision.
 */
export interface LossCoefficients {
  /** Model id. */
  readonly modelId: string;
  /** Decisions of the model. */
  readonly n: number;
  /** Decisions whose class equals the gold class (escalated ones by their answer, as `accuracy()`). */
  readonly correct: number;
  /** Multiplier of K(severity) per severity. */
  readonly K: Readonly<Record<Severity, number>>;
  /** Multiplier of the review cost. */
  readonly review: number;
  /** Cost that depends on no profile slot (`fixed` rules of the matrix). */
  readonly fixed: number;
}

/** Options for {@linkcode lossCoefficients}. */
export type LossCoefficientOptions = LossOptions;

/**
 * Reduce sufficient statistics to one loss coefficient vector per model.
 *
 * This is the one pass a cost sweep needs: realised loss under the cost
 * matrix is linear in the profile (`third-number`, K-sensitivity), so after this reduction the
 * loss of a model under any profile is a dot product of six numbers, and a
 * sweep over P profiles and M models costs O(M × P), whatever the length of
 * the run. The coefficients reproduce `realisedLoss()` exactly in exact
 * arithmetic. Cost is O(rows of `stats`).
 *
 * @param stats Sufficient statistics of one or more models.
 * @param options Cost matrix (default: the consequence matrix) and clean class (default `"MATCH"`).
 * @returns One vector per model, sorted by model id.
 *
 * @example The Third Number's Model A: 10, 4 and 2 misses on HIGH, MEDIUM, LOW
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { coefficientLoss, lossCoefficients } from "./loss_coefficients.ts";
 *
 * const cell = { modelId: "A", trueClass: "X", predClass: "MATCH", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const [a] = lossCoefficients([
 *   { ...cell, severity: "HIGH", n: 10 },
 *   { ...cell, severity: "MEDIUM", n: 4 },
 *   { ...cell, severity: "LOW", n: 2 },
 *   { ...cell, severity: "LOW", predClass: "X", n: 784 },
 * ]);
 * assert.deepEqual(a.K, { LOW: 2, MEDIUM: 4, HIGH: 10, CRITICAL: 0 });
 * assert.equal(a.correct, 784);
 * const loss = coefficientLoss(a, getProfile("reconciliation"), { per: "run" });
 * assert.ok(Math.abs(loss! - 104.4) < 1e-9);
 * ```
 */
export function lossCoefficients(
  stats: readonly StatsRow[],
  options: LossCoefficientOptions = {},
): LossCoefficients[] {
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const clean = options.cleanClass ?? "MATCH";
  // Accumulated in exact arithmetic on the rules' decimal multipliers, so
  // that 3 x 12.2 is 36.6 and the exact tie checks of a sweep stay exact.
  const acc = new Map<
    string,
    { n: number; correct: number; slots: Rational[] }
  >();
  for (const r of stats) {
    let a = acc.get(r.modelId);
    if (a === undefined) {
      a = { n: 0, correct: 0, slots: Array(6).fill(RAT_ZERO) };
      acc.set(r.modelId, a);
    }
    const outcome = outcomeOf(r.trueClass, r.predClass, clean);
    a.n += r.n;
    if (outcome === "correct") a.correct += r.n;
    const rule = (r.action === "escalate" ? matrix.escalate : matrix.auto)[
      outcome
    ];
    if (rule.of === "zero") continue;
    const slot = rule.of === "K"
      ? SEVERITIES.indexOf(r.severity)
      : rule.of === "review"
      ? 4
      : 5;
    const times = rule.of === "fixed" ? rule.value : rule.times ?? 1;
    a.slots[slot] = add(a.slots[slot], mul(rat(r.n), rat(times)));
  }
  return [...acc.keys()].sort().map((modelId) => {
    const a = acc.get(modelId)!;
    const v = a.slots.map(toNumber);
    return {
      modelId,
      n: a.n,
      correct: a.correct,
      K: Object.freeze({ LOW: v[0], MEDIUM: v[1], HIGH: v[2], CRITICAL: v[3] }),
      review: v[4],
      fixed: v[5],
    };
  });
}

/** Options for {@linkcode coefficientLoss}. */
export interface CoefficientLossOptions {
  /** Loss per decision (a mean) or per run (a sum). Default: `"decision"`. */
  per?: LossPer;
}

/**
 * Loss of one model under one profile, from its coefficients: a dot product.
 *
 * @param coefficients The model's loss coefficients.
 * @param profile A cost profile.
 * @param options Whether to divide by the decisions. Default: per decision.
 * @returns The loss; `null` when the model has no decisions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { coefficientLoss } from "./loss_coefficients.ts";
 *
 * const c = { modelId: "m", n: 100, correct: 90, K: { LOW: 4, MEDIUM: 0, HIGH: 2, CRITICAL: 0 },
 *   review: 4, fixed: 0 };
 * // 4 x 0.2 + 2 x 10 + 4 x 1 = 24.8 over 100 decisions
 * assert.ok(Math.abs(coefficientLoss(c, getProfile("reconciliation"))! - 0.248) < 1e-12);
 * ```
 */
export function coefficientLoss(
  coefficients: LossCoefficients,
  profile: CostProfile,
  options: CoefficientLossOptions = {},
): number | null {
  if (coefficients.n === 0) return null;
  let loss = coefficients.review * profile.reviewCost + coefficients.fixed;
  for (const s of SEVERITIES) loss += coefficients.K[s] * profile.K[s];
  return (options.per ?? "decision") === "run" ? loss : loss / coefficients.n;
}
