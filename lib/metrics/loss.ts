/**
 * Loss in money: realised loss of a run under a cost profile and a cost
 * matrix, and expected loss from stated probabilities.
 *
 * A cost matrix says what each kind of decision costs, by its outcome and
 * its action. The two shipped matrices:
 *
 * | action   | outcome                                  | strict   | consequence (default) |
 * | -------- | ---------------------------------------- | -------- | --------------------- |
 * | auto     | correct                                  | 0        | 0                     |
 * | auto     | missed: an exception predicted clean     | K(sev)   | K(sev)                |
 * | auto     | wrongType: another exception class       | K(sev)   | reviewCost            |
 * | auto     | falseAlarm: a clean item flagged         | K(sev)   | reviewCost            |
 * | escalate | any                                      | review   | reviewCost            |
 *
 * `strict` charges every wrong answer its severity's K, as LossBench does.
 * `consequence` follows the money: a flagged item is routed to a human
 * whatever its type, so a wrong exception type or a false alarm costs a
 * review, and only a miss lets the loss through.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import {
  type Action,
  isVerdictClass,
  type Outcome,
  outcomeOf,
  OUTCOMES,
  type StatsRow,
} from "./sufficient_stats.ts";

/** What one decision of a kind costs, in terms of the profile. */
export type CostRule =
  | { readonly of: "zero" }
  | { readonly of: "K"; readonly times?: number }
  | { readonly of: "review"; readonly times?: number }
  | { readonly of: "fixed"; readonly value: number };

/** A cost per (action, outcome): the rules that turn counts into loss. */
export interface CostMatrix {
  /** Id, for example `"consequence"`. */
  readonly id: string;
  /** What the matrix models. */
  readonly description: string;
  /** Rules for automatic decisions. */
  readonly auto: Readonly<Record<Outcome, CostRule>>;
  /** Rules for escalated decisions. */
  readonly escalate: Readonly<Record<Outcome, CostRule>>;
}

const ZERO: CostRule = { of: "zero" };
const K: CostRule = { of: "K" };
const REVIEW: CostRule = { of: "review" };
const ALL_REVIEW: Record<Outcome, CostRule> = {
  correct: REVIEW,
  missed: REVIEW,
  wrongType: REVIEW,
  falseAlarm: REVIEW,
};

/** Every wrong automatic answer costs K(severity); escalations cost a review (LossBench). */
export const STRICT_MATRIX: CostMatrix = Object.freeze({
  id: "strict",
  description:
    "Every wrong automatic answer costs K(severity); an escalation costs a review.",
  auto: Object.freeze({
    correct: ZERO,
    missed: K,
    wrongType: K,
    falseAlarm: K,
  }),
  escalate: Object.freeze(ALL_REVIEW),
});

/**
 * A miss costs K(severity); a wrong exception type or a false alarm is
 * routed to review and costs a review; an escalation costs a review.
 */
export const CONSEQUENCE_MATRIX: CostMatrix = Object.freeze({
  id: "consequence",
  description:
    "A missed exception costs K(severity); a wrong exception type or a false alarm still reaches review and costs a review; an escalation costs a review.",
  auto: Object.freeze({
    correct: ZERO,
    missed: K,
    wrongType: REVIEW,
    falseAlarm: REVIEW,
  }),
  escalate: Object.freeze(ALL_REVIEW),
});

/**
 * Build a validated cost matrix, for users who price outcomes differently.
 *
 * @param spec Id, description and one rule per action and outcome.
 * @returns The frozen matrix.
 * @throws {RangeError} When a multiplier or fixed cost is negative or not finite.
 * @throws {TypeError} When a rule is missing or has an unknown kind.
 *
 * @example False alarms cost a tenth of a review
 * ```ts
 * import assert from "node:assert/strict";
 * import { CONSEQUENCE_MATRIX, defineCostMatrix } from "./loss.ts";
 *
 * const m = defineCostMatrix({
 *   ...CONSEQUENCE_MATRIX,
 *   id: "cheap_alarms",
 *   auto: { ...CONSEQUENCE_MATRIX.auto, falseAlarm: { of: "review", times: 0.1 } },
 * });
 * assert.equal(m.auto.falseAlarm.of, "review");
 * ```
 */
export function defineCostMatrix(spec: CostMatrix): CostMatrix {
  const check = (where: string, rule: CostRule | undefined): CostRule => {
    if (rule === undefined || rule === null || typeof rule !== "object") {
      throw new TypeError(
        `Cannot define cost matrix "${spec.id}": ${where} is missing`,
      );
    }
    const n = rule.of === "fixed"
      ? rule.value
      : rule.of === "zero"
      ? 0
      : rule.times ?? 1;
    if (!["zero", "K", "review", "fixed"].includes(rule.of)) {
      throw new TypeError(
        `Cannot define cost matrix "${spec.id}": ${where}.of must be zero, K, review or fixed, got ${
          JSON.stringify((rule as { of: unknown }).of)
        }`,
      );
    }
    if (typeof n !== "number" || !Number.isFinite(n) || n < 0) {
      throw new RangeError(
        `Cannot define cost matrix "${spec.id}": ${where} must have a finite amount >= 0, got ${n}`,
      );
    }
    return Object.freeze({ ...rule });
  };
  const side = (name: "auto" | "escalate") =>
    Object.freeze(
      Object.fromEntries(
        OUTCOMES.map((o) => [o, check(`${name}.${o}`, spec[name]?.[o])]),
      ),
    ) as Record<Outcome, CostRule>;
  return Object.freeze({
    id: spec.id,
    description: spec.description,
    auto: side("auto"),
    escalate: side("escalate"),
  });
}

/**
 * What one decision costs under a rule, a profile and a severity.
 *
 * @param rule A cost rule.
 * @param profile Cost profile.
 * @param severity Task severity.
 * @returns The cost of one decision.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { ruleCost } from "./loss.ts";
 *
 * assert.equal(ruleCost({ of: "K", times: 2 }, getProfile("reconciliation"), "HIGH"), 20);
 * ```
 */
export function ruleCost(
  rule: CostRule,
  profile: CostProfile,
  severity: Severity,
): number {
  switch (rule.of) {
    case "zero":
      return 0;
    case "K":
      return profile.K[severity] * (rule.times ?? 1);
    case "review":
      return profile.reviewCost * (rule.times ?? 1);
    case "fixed":
      return rule.value;
  }
}

/** Options for loss functions. */
export interface LossOptions {
  /** Cost matrix. Default: {@linkcode CONSEQUENCE_MATRIX}. */
  matrix?: CostMatrix;
  /** Gold class of clean items. Default: `"MATCH"`. */
  cleanClass?: string;
}

/** Loss at one severity, split by action. */
export interface SeverityLoss {
  /** Decisions at this severity. */
  readonly n: number;
  /** Automatic decisions that were wrong. */
  readonly autoErrors: number;
  /** Decisions sent to review. */
  readonly escalated: number;
  /** Loss from automatic decisions. */
  readonly autoLoss: number;
  /** Loss from escalated decisions. */
  readonly escalatedLoss: number;
  /** `autoLoss + escalatedLoss`. */
  readonly loss: number;
}

/**
 * Realised loss per severity under a cost profile and a cost matrix.
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param profile Cost profile.
 * @param options Cost matrix and clean class.
 * @returns The split per severity; a severity with no decisions is `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { lossBySeverity } from "./loss.ts";
 *
 * const cell = { modelId: "A", severity: "HIGH", trueClass: "AMOUNT_MISMATCH", action: "auto",
 *   pErrorSum: 0, pMissing: 0, parseFailures: 0 } as const;
 * const by = lossBySeverity(
 *   [{ ...cell, predClass: "MATCH", n: 10 }, { ...cell, predClass: "AMOUNT_MISMATCH", n: 490 }],
 *   getProfile("reconciliation"),
 * );
 * assert.equal(by.HIGH?.loss, 100);
 * assert.equal(by.LOW, null);
 * ```
 */
export function lossBySeverity(
  stats: readonly StatsRow[],
  profile: CostProfile,
  options: LossOptions = {},
): Record<Severity, SeverityLoss | null> {
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const clean = options.cleanClass ?? "MATCH";
  const acc = Object.fromEntries(
    SEVERITIES.map((
      s,
    ) => [s, {
      n: 0,
      autoErrors: 0,
      escalated: 0,
      autoLoss: 0,
      escalatedLoss: 0,
    }]),
  ) as Record<
    Severity,
    {
      n: number;
      autoErrors: number;
      escalated: number;
      autoLoss: number;
      escalatedLoss: number;
    }
  >;
  for (const r of stats) {
    const a = acc[r.severity];
    const outcome = outcomeOf(r.trueClass, r.predClass, clean);
    a.n += r.n;
    if (r.action === "escalate") {
      a.escalated += r.n;
      a.escalatedLoss += r.n *
        ruleCost(matrix.escalate[outcome], profile, r.severity);
    } else {
      if (outcome !== "correct") a.autoErrors += r.n;
      a.autoLoss += r.n * ruleCost(matrix.auto[outcome], profile, r.severity);
    }
  }
  return Object.fromEntries(SEVERITIES.map((s) => {
    const a = acc[s];
    return [s, a.n === 0 ? null : { ...a, loss: a.autoLoss + a.escalatedLoss }];
  })) as Record<Severity, SeverityLoss | null>;
}

/**
 * Realised loss of a run under a cost profile and a cost matrix.
 *
 * The sum over cells of (decisions × the matrix's cost for that action and
 * outcome). Under the default consequence matrix a missed exception costs
 * K(severity), a wrong exception type, a false alarm or an escalation costs
 * the review cost (docs/method.md, one cost matrix). Linear in K, so two models' loss lines
 * cross at an exact point as costs vary. Cost is O(rows of `stats`).
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param profile Cost profile.
 * @param options Cost matrix and clean class.
 * @returns The loss in the profile's unit, or `null` when there are no decisions.
 *
 * @example Model A of the Third Number under `reconciliation`
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { realisedLoss, STRICT_MATRIX } from "./loss.ts";
 *
 * const cell = { modelId: "A", trueClass: "X", action: "auto", pErrorSum: 0, pMissing: 0,
 *   parseFailures: 0 } as const;
 * const stats = [
 *   { ...cell, severity: "HIGH", predClass: "MATCH", n: 10 },
 *   { ...cell, severity: "HIGH", predClass: "X", n: 490 },
 *   { ...cell, severity: "MEDIUM", predClass: "MATCH", n: 4 },
 *   { ...cell, severity: "LOW", predClass: "MATCH", n: 2 },
 * ] as const;
 * // 10 x 10 + 4 x 1.0 + 2 x 0.2 = 104.4; every error is a miss, so both matrices agree
 * assert.ok(Math.abs(realisedLoss(stats, getProfile("reconciliation"))! - 104.4) < 1e-9);
 * assert.ok(Math.abs(realisedLoss(stats, getProfile("reconciliation"), { matrix: STRICT_MATRIX })! - 104.4) < 1e-9);
 * assert.equal(realisedLoss([], getProfile("flat")), null);
 * ```
 */
export function realisedLoss(
  stats: readonly StatsRow[],
  profile: CostProfile,
  options: LossOptions = {},
): number | null {
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const clean = options.cleanClass ?? "MATCH";
  let n = 0;
  let loss = 0;
  for (const r of stats) {
    n += r.n;
    const rule = (r.action === "escalate" ? matrix.escalate : matrix.auto)[
      outcomeOf(r.trueClass, r.predClass, clean)
    ];
    loss += r.n * ruleCost(rule, profile, r.severity);
  }
  return n === 0 ? null : loss;
}

/** Options for {@linkcode costIfWrong}. */
export interface CostIfWrongOptions {
  /** Cost profile. Required. */
  profile: CostProfile;
  /** Cost matrix. Default: {@linkcode CONSEQUENCE_MATRIX}. */
  matrix?: CostMatrix;
  /** The decision's action. Default: `"auto"`. */
  action?: Action;
  /** Gold class of clean items. Default: `"MATCH"`. */
  cleanClass?: string;
}

/**
 * What one decision costs if it is wrong, given its prediction and the
 * cost matrix: the one place where "the cost of an error" is decided.
 *
 * A wrong answer that predicted the clean class is a miss, so it costs the
 * matrix's `missed` rule (K of its severity in both shipped matrices). A
 * wrong answer that predicted an exception class is either a wrong type
 * (the gold class is another exception) or a false alarm (the item was
 * clean); the prediction alone cannot tell the two apart, so it costs the
 * larger of the matrix's `wrongType` and `falseAlarm` rules (they are equal
 * in both shipped matrices: K under `strict`, a review under
 * `consequence`). A reserved harness class ({@linkcode isVerdictClass},
 * as importers write for right/wrong graded answers) has no exception type
 * to route on, so its wrong answers are always a miss. Expected loss,
 * escalation thresholds, Chow's rule and ledger records all price an error
 * through this function, so they agree with the realised loss of the same
 * matrix. Cost: O(1).
 *
 * @param predClass The class the decision was taken as.
 * @param severity Task severity.
 * @param options Profile (required), matrix, action and clean class.
 * @returns The cost of the decision if it is wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { costIfWrong, STRICT_MATRIX } from "./loss.ts";
 *
 * const profile = getProfile("reconciliation"); // K(HIGH) 10, review 1
 * assert.equal(costIfWrong("MATCH", "HIGH", { profile }), 10); // a miss
 * assert.equal(costIfWrong("AMOUNT_MISMATCH", "HIGH", { profile }), 1); // still reviewed
 * assert.equal(costIfWrong("AMOUNT_MISMATCH", "HIGH", { profile, matrix: STRICT_MATRIX }), 10);
 * assert.equal(costIfWrong("verdict:correct", "HIGH", { profile }), 10); // always a miss
 * ```
 */
export function costIfWrong(
  predClass: string,
  severity: Severity,
  options: CostIfWrongOptions,
): number {
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const side = options.action === "escalate" ? matrix.escalate : matrix.auto;
  const clean = options.cleanClass ?? "MATCH";
  const profile = options.profile;
  if (predClass === clean || isVerdictClass(predClass)) {
    return ruleCost(side.missed, profile, severity);
  }
  return Math.max(
    ruleCost(side.wrongType, profile, severity),
    ruleCost(side.falseAlarm, profile, severity),
  );
}

/**
 * Expected loss of a run from the models' stated probabilities.
 *
 * Each decision contributes P(error) × its cost if wrong plus
 * (1 − P(error)) × its cost if right, with P(error) = 1 − pCorrect and both
 * costs read from the same cost matrix as {@linkcode realisedLoss}
 * ({@linkcode costIfWrong}): under the default `consequence` matrix an
 * automatic decision that predicted clean risks K(severity) and one that
 * predicted an exception risks a review; an escalated decision costs the
 * review cost whatever its probability. So expected and realised loss are
 * two estimates of the same quantity. When an automatic decision states no
 * probability (and its cost depends on being right) the expected loss is
 * unknown and the result is `null`: a missing probability is never read as
 * certainty. Cost: O(rows of `stats`).
 *
 * @param stats Sufficient statistics, usually of one model.
 * @param profile Cost profile.
 * @param options Cost matrix and clean class.
 * @returns The expected loss, or `null` when there are no decisions or some decision whose cost depends on it lacks pCorrect.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { expectedLoss, STRICT_MATRIX } from "./loss.ts";
 *
 * const cell = { modelId: "m", severity: "HIGH", trueClass: "X", predClass: "MATCH", action: "auto",
 *   n: 2, pErrorSum: 0.3, pMissing: 0, parseFailures: 0 } as const;
 * // predicted clean: (0.1 + 0.2) x K(HIGH) = 0.3 x 10 = 3
 * assert.ok(Math.abs(expectedLoss([cell], getProfile("reconciliation"))! - 3) < 1e-12);
 * // predicted an exception: a wrong answer is still reviewed, 0.3 x 1
 * const flagged = { ...cell, predClass: "X" };
 * assert.ok(Math.abs(expectedLoss([flagged], getProfile("reconciliation"))! - 0.3) < 1e-12);
 * assert.ok(Math.abs(expectedLoss([flagged], getProfile("reconciliation"), { matrix: STRICT_MATRIX })! - 3) < 1e-12);
 * assert.equal(expectedLoss([{ ...cell, pMissing: 1 }], getProfile("reconciliation")), null);
 * ```
 */
export function expectedLoss(
  stats: readonly StatsRow[],
  profile: CostProfile,
  options: LossOptions = {},
): number | null {
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const cleanClass = options.cleanClass ?? "MATCH";
  let n = 0;
  let loss = 0;
  for (const r of stats) {
    n += r.n;
    const side = r.action === "escalate" ? matrix.escalate : matrix.auto;
    const right = ruleCost(side.correct, profile, r.severity);
    const wrong = costIfWrong(r.predClass, r.severity, {
      profile,
      matrix,
      action: r.action,
      cleanClass,
    });
    if (right === wrong) {
      loss += r.n * right;
      continue;
    }
    if (r.pMissing > 0) return null;
    loss += (r.n - r.pErrorSum) * right + r.pErrorSum * wrong;
  }
  return n === 0 ? null : loss;
}
