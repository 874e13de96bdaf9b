/**
 * Escalation rates of three rules, for the escalation-monotonicity theorem:
 * the pointwise Bayes rule, thresholds fitted per severity, and one global
 * threshold fitted on data.
 *
 * The loss model is docs/method.md's (one cost matrix): an automatic decision that is wrong costs
 * K(severity), an escalated one costs the review cost, a right automatic one
 * costs nothing.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { add, cmp, mul, rat, type Rational } from "./_rational.ts";

/** Per-decision columns: severity, stated P(error), and whether the answer was wrong. */
export interface EscalationColumns {
  /** Severity of each decision. */
  readonly severity: ArrayLike<Severity>;
  /** P(error) = 1 − pCorrect of each decision, in [0, 1]. */
  readonly pError: ArrayLike<number>;
  /** Whether each answer was wrong (1/true) or right (0/false). */
  readonly wrong: ArrayLike<boolean | number>;
}

function check(data: EscalationColumns, what: string): number {
  const n = data.severity.length;
  if (data.pError.length !== n || data.wrong.length !== n) {
    throw new RangeError(
      `Cannot ${what}: columns have different lengths (severity ${n}, pError ${data.pError.length}, wrong ${data.wrong.length})`,
    );
  }
  for (let i = 0; i < n; i++) {
    const p = data.pError[i];
    if (!(p >= 0 && p <= 1)) {
      throw new RangeError(
        `Cannot ${what}: pError of decision ${i} must be in [0, 1], got ${p}`,
      );
    }
    if (!SEVERITIES.includes(data.severity[i])) {
      throw new RangeError(
        `Cannot ${what}: severity of decision ${i} must be one of ${
          SEVERITIES.join(", ")
        }, got ${JSON.stringify(data.severity[i])}`,
      );
    }
  }
  return n;
}

/**
 * The escalation rate of the pointwise Bayes rule: escalate a decision iff
 * P(error) × K(severity) > review cost.
 *
 * Chow's reject rule in money (docs/method.md, one cost matrix). Raising K(HIGH) can only add
 * HIGH decisions to the escalated set, so the rate never falls.
 *
 * @param data Severity and P(error) per decision (`wrong` is not read).
 * @param profile The cost profile.
 * @returns The share of decisions escalated, or `null` for no decisions.
 * @throws {RangeError} When columns differ in length or a value is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { bayesEscalationRate } from "./escalation_rate.ts";
 *
 * const data = { severity: ["HIGH", "LOW"], pError: [0.2, 0.2], wrong: [0, 0] } as const;
 * // 0.2 x 10 = 2 > 1 escalates; 0.2 x 0.2 = 0.04 does not
 * assert.equal(bayesEscalationRate(data, getProfile("reconciliation")), 0.5);
 * ```
 */
export function bayesEscalationRate(
  data: EscalationColumns,
  profile: CostProfile,
): number | null {
  const n = check(data, "compute the Bayes escalation rate");
  if (n === 0) return null;
  let escalated = 0;
  for (let i = 0; i < n; i++) {
    if (data.pError[i] * profile.K[data.severity[i]] > profile.reviewCost) {
      escalated++;
    }
  }
  return escalated / n;
}

/** A fitted threshold rule: escalate a decision iff its score > threshold. */
export interface FittedThreshold {
  /** The threshold; `-Infinity` when everything is escalated, `null` when there is nothing to fit. */
  readonly threshold: number | null;
  /** Decisions escalated. */
  readonly escalated: number;
  /** Realised loss of the rule on the data. */
  readonly loss: number;
}

/** Thresholds fitted per severity, and the rate they give together. */
export interface FittedSeverityThresholds {
  /** The fitted rule per severity. */
  readonly bySeverity: Readonly<Record<Severity, FittedThreshold>>;
  /** Decisions escalated over all severities. */
  readonly escalated: number;
  /** Share of decisions escalated, or `null` for no decisions. */
  readonly rate: number | null;
  /** Realised loss of the rules on the data. */
  readonly loss: number;
}

/** Loss of escalating the top-k decisions: k·review + Σ K(s)·wrong-and-automatic(s), kept exact on demand. */
interface Cut {
  readonly k: number;
  readonly wrongAuto: Readonly<Record<Severity, number>>;
  readonly loss: number;
}

function exactLoss(cut: Cut, profile: CostProfile): Rational {
  let total = mul(rat(cut.k), rat(profile.reviewCost));
  for (const s of SEVERITIES) {
    if (cut.wrongAuto[s] > 0) {
      total = add(total, mul(rat(cut.wrongAuto[s]), rat(profile.K[s])));
    }
  }
  return total;
}

function lossOf(
  k: number,
  wrongAuto: Record<Severity, number>,
  profile: CostProfile,
): number {
  let loss = k * profile.reviewCost;
  for (const s of SEVERITIES) loss += wrongAuto[s] * profile.K[s];
  return loss;
}

/** Compare two cuts' losses, exactly when the floats are within 1e-9 relative. */
function compareCuts(a: Cut, b: Cut, profile: CostProfile): number {
  const scale = Math.max(Math.abs(a.loss), Math.abs(b.loss));
  if (Math.abs(a.loss - b.loss) > 1e-9 * scale) return a.loss < b.loss ? -1 : 1;
  return cmp(exactLoss(a, profile), exactLoss(b, profile));
}

/**
 * Fit "escalate iff score > t" on a set of decisions by minimising realised
 * loss; among equally good thresholds, the one escalating the fewest.
 */
function fitOn(
  idx: readonly number[],
  score: (i: number) => number,
  data: EscalationColumns,
  profile: CostProfile,
): FittedThreshold {
  if (idx.length === 0) return { threshold: null, escalated: 0, loss: 0 };
  const order = [...idx].sort((i, j) => score(j) - score(i));
  const wrongAuto: Record<Severity, number> = {
    LOW: 0,
    MEDIUM: 0,
    HIGH: 0,
    CRITICAL: 0,
  };
  for (const i of order) if (data.wrong[i]) wrongAuto[data.severity[i]]++;
  let best: Cut = {
    k: 0,
    wrongAuto: { ...wrongAuto },
    loss: lossOf(0, wrongAuto, profile),
  };
  let k = 0;
  while (k < order.length) {
    // Escalate the whole group of equal scores: a threshold cannot split it.
    const s0 = score(order[k]);
    while (k < order.length && score(order[k]) === s0) {
      const i = order[k];
      if (data.wrong[i]) wrongAuto[data.severity[i]]--;
      k++;
    }
    const cut: Cut = {
      k,
      wrongAuto: { ...wrongAuto },
      loss: lossOf(k, wrongAuto, profile),
    };
    if (compareCuts(cut, best, profile) < 0) best = cut;
  }
  return {
    threshold: best.k === order.length ? -Infinity : score(order[best.k]),
    escalated: best.k,
    loss: best.loss,
  };
}

/**
 * Fit one threshold on P(error) per severity, each minimising that
 * severity's realised loss on the data.
 *
 * Within a severity, escalating the decisions above a threshold costs k
 * reviews plus K(s) per wrong answer left automatic; the fit tries every
 * threshold between distinct P(error) values and keeps the cheapest (the one
 * escalating fewest when several tie, decided exactly). Raising K(HIGH)
 * changes only the HIGH fit, and cannot lower its count: the loss has
 * decreasing differences in (count, K(HIGH)), so by Topkis' theorem the
 * smallest minimiser is non-decreasing. Cost is O(n log n).
 *
 * @param data Severity, P(error) and wrongness per decision.
 * @param profile The cost profile.
 * @returns The threshold per severity, the escalation rate and the loss.
 * @throws {RangeError} When columns differ in length or a value is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { fitSeverityThresholds } from "./escalation_rate.ts";
 *
 * const data = {
 *   severity: ["HIGH", "HIGH", "HIGH", "LOW"],
 *   pError: [0.9, 0.3, 0.01, 0.9],
 *   wrong: [1, 1, 0, 1],
 * } as const;
 * const fit = fitSeverityThresholds(data, getProfile("reconciliation"));
 * // HIGH: escalating the two riskiest costs 2 reviews and saves 2 x 10
 * assert.equal(fit.bySeverity.HIGH.escalated, 2);
 * // LOW: a review (1) costs more than the miss it saves (0.2)
 * assert.equal(fit.bySeverity.LOW.escalated, 0);
 * assert.equal(fit.rate, 0.5);
 * ```
 */
export function fitSeverityThresholds(
  data: EscalationColumns,
  profile: CostProfile,
): FittedSeverityThresholds {
  const n = check(data, "fit per-severity thresholds");
  const bySeverity = {} as Record<Severity, FittedThreshold>;
  let escalated = 0;
  let loss = 0;
  for (const s of SEVERITIES) {
    const idx: number[] = [];
    for (let i = 0; i < n; i++) if (data.severity[i] === s) idx.push(i);
    const fit = fitOn(idx, (i) => data.pError[i], data, profile);
    bySeverity[s] = fit;
    escalated += fit.escalated;
    loss += fit.loss;
  }
  return { bySeverity, escalated, rate: n === 0 ? null : escalated / n, loss };
}

/** What a single global threshold is put on. */
export type GlobalScore = "pError" | "expectedLoss";

/** Options for {@linkcode fitGlobalThreshold}. */
export interface GlobalThresholdOptions {
  /**
   * The score thresholded: `pError`, the stated P(error) alone, or
   * `expectedLoss`, P(error) × K(severity). Default: `"pError"`.
   */
  score?: GlobalScore;
}

/** A fitted global threshold and the rate it gives. */
export interface FittedGlobalThreshold extends FittedThreshold {
  /** The score thresholded. */
  readonly score: GlobalScore;
  /** Share of decisions escalated, or `null` for no decisions. */
  readonly rate: number | null;
}

/**
 * Fit one threshold for every decision, minimising realised loss on the data.
 *
 * With the `pError` score the escalated set is always a top slice of one
 * fixed order, and the same Topkis argument as for per-severity thresholds
 * makes the fitted escalation rate non-decreasing in K(HIGH). With the
 * `expectedLoss` score it is not: raising K(HIGH) reorders the decisions, a
 * few HIGH ones jump to the top, and the best cut can escalate fewer
 * decisions than before. The theorem tests keep a counterexample.
 *
 * @param data Severity, P(error) and wrongness per decision.
 * @param profile The cost profile.
 * @param options The score. Default: `pError`.
 * @returns The threshold, the count and rate escalated, and the loss.
 * @throws {RangeError} When columns differ in length or a value is out of range.
 *
 * @example The counterexample: raising K(HIGH) lowers the fitted rate on expected loss
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineProfile } from "../costs/mod.ts";
 * import { fitGlobalThreshold } from "./escalation_rate.ts";
 *
 * const data = { severity: ["LOW", "LOW", "HIGH"], pError: [0.9, 0.9, 0.1], wrong: [0, 0, 1] } as const;
 * const at = (high: number) => defineProfile({ id: "p", K: { LOW: 1, MEDIUM: 1, HIGH: high, CRITICAL: high }, reviewCost: 1 });
 * const score = "expectedLoss";
 * assert.equal(fitGlobalThreshold(data, at(5), { score }).rate, 1);
 * assert.equal(fitGlobalThreshold(data, at(10), { score }).rate, 1 / 3);
 * ```
 */
export function fitGlobalThreshold(
  data: EscalationColumns,
  profile: CostProfile,
  options: GlobalThresholdOptions = {},
): FittedGlobalThreshold {
  const n = check(data, "fit a global threshold");
  const score = options.score ?? "pError";
  if (score !== "pError" && score !== "expectedLoss") {
    throw new RangeError(
      `Cannot fit a global threshold: score must be "pError" or "expectedLoss", got ${
        JSON.stringify(score)
      }`,
    );
  }
  const idx = Array.from({ length: n }, (_, i) => i);
  const f = score === "pError"
    ? (i: number) => data.pError[i]
    : (i: number) => data.pError[i] * profile.K[data.severity[i]];
  const fit = fitOn(idx, f, data, profile);
  return { ...fit, score, rate: n === 0 ? null : fit.escalated / n };
}
