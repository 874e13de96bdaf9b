/**
 * Why a table cell is empty. Every null an analysis emits means something —
 * a cost nobody reported, a bin with no decisions, a rate over an empty
 * denominator, a quantity that does not apply to that row — and the report
 * and the notebooks print that meaning as a tooltip on an "unknown" or "n/a"
 * cell, never as a blank or a 0.
 *
 * The rules are keyed by column name and look at the rest of the row, so a
 * rule only answers where its row says why (an `accuracy` cell is explained
 * as an empty bin only when that row's `n` is 0). A null no rule explains
 * gets {@linkcode UNKNOWN_NULL}.
 *
 * @module
 */

/** What an empty cell says: its text and, as a tooltip, why it is empty. */
export interface NullReason {
  /**
   * `"unknown"` when a value exists but was not observed (a cost nobody
   * reported, an answer not graded yet); `"n/a"` when no value can exist for
   * the row (an empty bin, a fixed policy's objective).
   */
  readonly label: "unknown" | "n/a";
  /** Why the cell is empty, in a sentence, shown as the cell's tooltip. */
  readonly why: string;
}

/** A rule: given a row whose column is null, say why, or `undefined` if the row does not tell. */
export type NullReasonRule = (
  row: Readonly<Record<string, unknown>>,
) => NullReason | undefined;

/** The reason given to a null that no rule explains. */
export const UNKNOWN_NULL: NullReason = {
  label: "unknown",
  why:
    "unknown: no value was observed, or it would be a rate over an empty denominator",
};

/** The reason given to a number that is not a number (NaN). */
export const NAN_NULL: NullReason = {
  label: "n/a",
  why: "not a number: the computation is undefined for this row",
};

const EMPTY_BIN: NullReason = {
  label: "n/a",
  why:
    "empty bin: no decision has a stated confidence in this range, so there is no mean or rate",
};

const EMPTY_RATE: NullReason = {
  label: "n/a",
  why:
    "empty denominator: every attempt is excluded from the success rate (for example harness-invalid), so there is no rate and no interval",
};

const NOT_PRICED: NullReason = {
  label: "n/a",
  why:
    "not priced: this statistic counts decisions and does not depend on a cost profile",
};

const NOTHING_ESCALATED = (what: string): NullReason => ({
  label: "n/a",
  why: `always auto-execute: nothing is escalated, so there is no ${what}`,
});

// interval_coverage.width: a ratio to the spread of a realised loss that never varied
function spreadless(
  r: Readonly<Record<string, unknown>>,
): NullReason | undefined {
  return r.spread === 0
    ? {
      label: "n/a",
      why:
        "the realised loss took one value in every suite, so there is no spread to divide by",
    }
    : undefined;
}

// consequence_card.card: R_w of a run it is not defined for
function rwUndefined(
  r: Readonly<Record<string, unknown>>,
): NullReason | undefined {
  return "severityWeightedRecallLo" in r
    ? {
      label: "n/a",
      why:
        "not defined: the model has no exceptions, or an exception class without a weight in ReconForge's table (a harness's own answer classes)",
    }
    : undefined;
}

// consequence_card.card_evidence: calibration of a model that states no probability
function noProbability(
  r: Readonly<Record<string, unknown>>,
): NullReason | undefined {
  return r.pCorrectStated === 0
    ? {
      label: "n/a",
      why:
        "no decision of this model states a probability, so there is nothing to calibrate",
    }
    : undefined;
}

/**
 * The rules, by column name. Each names the table it was written for; add a
 * rule when an analysis gains a nullable column (the report test fails on a
 * null that no rule explains).
 */
export const NULL_REASONS: Readonly<Record<string, NullReasonRule>> = {
  // honest_costs.attempts
  grade: (r) =>
    !("exit" in r) ? undefined : r.exit === "clean"
      ? {
        label: "unknown",
        why: "not graded yet: the attempt exited cleanly but has no grade",
      }
      : {
        label: "n/a",
        why: `not graded: the candidate did not exit cleanly (exit ${
          String(r.exit)
        }), so there was no answer to grade`,
      },
  outcome: (r) =>
    "exit" in r
      ? {
        label: "unknown",
        why:
          "unresolved: a clean exit stays unresolved until it is graded, and stays out of the books",
      }
      : undefined,
  resolved: (r) =>
    r.outcome === null
      ? {
        label: "unknown",
        why: "not graded yet, so neither resolved nor unresolved",
      }
      : r.outcome === "harness_failure"
      ? {
        label: "unknown",
        why:
          "harness-invalid: no valid answer was obtained, which is not the same as the answer no",
      }
      : undefined,
  costUsd: (r) =>
    r.costCompleteness === "not_applicable"
      ? {
        label: "n/a",
        why: "not applicable: no billable event (a local deterministic step)",
      }
      : r.costCompleteness === "unavailable"
      ? {
        label: "unknown",
        why:
          "cost unavailable: no valid execution envelope reported it; never counted as $0",
      }
      : undefined,
  // honest_costs.cost_books
  completeUsd: (r) =>
    r.completeCount === 0
      ? {
        label: "n/a",
        why:
          "no attempt has a complete cost: there is nothing to sum, and the total is not $0",
      }
      : undefined,
  partialFloorUsd: (r) =>
    r.partialCount === 0
      ? {
        label: "n/a",
        why: "no attempt has a partial cost, so there is no observed floor",
      }
      : undefined,
  observedUsd: (r) =>
    r.completeCount === 0 && r.partialCount === 0
      ? {
        label: "unknown",
        why: "no cost was observed for any attempt of this system",
      }
      : undefined,
  // the coverage study: a rate, R_w or ECE (of either model) is not priced
  // under any profile
  profile: (r) =>
    typeof r.statistic === "string" &&
      /^(accuracy|recall |R_w$|ECE($|, ))/.test(r.statistic)
      ? NOT_PRICED
      : undefined,
  successRate: (r) => r.rateDenominator === 0 ? EMPTY_RATE : undefined,
  successRateLo: (r) => r.rateDenominator === 0 ? EMPTY_RATE : undefined,
  successRateHi: (r) => r.rateDenominator === 0 ? EMPTY_RATE : undefined,
  costPerSuccessUsd: (r) =>
    r.costPerSuccessLabel === "incomplete"
      ? {
        label: "unknown",
        why:
          "incomplete: some attempt's cost is not complete, so the total behind a cost per success is not known",
      }
      : r.costPerSuccessLabel === "not_computable"
      ? {
        label: "n/a",
        why:
          "not computable: no attempt succeeded (or none has a cost), so there is nothing to divide",
      }
      : undefined,
  // drift.calibration
  eceRecalibrated: (r) =>
    r.window === 0
      ? {
        label: "n/a",
        why: "first window: there is no earlier window to recalibrate on",
      }
      : undefined,
  // calibration.reliability_bins
  meanConfidence: (r) => r.n === 0 ? EMPTY_BIN : undefined,
  accuracy: (r) => r.n === 0 ? EMPTY_BIN : undefined,
  gap: (r) => r.n === 0 ? EMPTY_BIN : undefined,
  // veto_frontier.cost_curve
  threshold: (r) =>
    r.escalatedShare === 0 ? NOTHING_ESCALATED("threshold") : undefined,
  escalatedErrorRate: (r) =>
    r.escalatedShare === 0
      ? NOTHING_ESCALATED("escalated set to take an error rate of")
      : undefined,
  // veto_frontier.regret
  sampledExcess: (r) =>
    "excess" in r
      ? {
        label: "n/a",
        why:
          "not sampled in this trial: only the expected excess over the Bayes policy is computed",
      }
      : undefined,
  // interval_coverage.width
  errorRate: (r) =>
    r.design === "E"
      ? {
        label: "n/a",
        why:
          "design E has no single error rate: each task draws its own error probability",
      }
      : undefined,
  widthOverSpread: (r) => spreadless(r),
  floorOverSpread: (r) => spreadless(r),
  floorWholeTasksOverSpread: (r) => spreadless(r),
  // routing.routing
  expectedLossPlusPrice: (r) =>
    typeof r.policy === "string" && !r.policy.startsWith("loss-optimal")
      ? {
        label: "n/a",
        why:
          "a fixed policy: it does not choose by expected loss plus price, so that objective is not computed for it",
      }
      : undefined,
  // consequence_card.card: R_w, as score returns it
  severityWeightedRecall: (r) => rwUndefined(r),
  severityWeightedRecallLo: (r) => rwUndefined(r),
  severityWeightedRecallHi: (r) => rwUndefined(r),
  // consequence_card.card_loss
  pBest: (r) =>
    typeof r.pBestShrinkage === "number" && r.pBestShrinkage > 0.5
      ? {
        label: "n/a",
        why:
          "not stated: the prior pooled across the models, not their own counts, would carry more than half of the comparison",
      }
      : undefined,
  // consequence_card.card_evidence
  ece: (r) => noProbability(r),
  eceLo: (r) => noProbability(r),
  eceHi: (r) => noProbability(r),
  brier: (r) => noProbability(r),
  // consequence_card.card_wins
  fromExact: (r) =>
    "toExact" in r
      ? {
        label: "n/a",
        why:
          "the span starts at the first ratio of sweep's grid, not at a winner change",
      }
      : undefined,
  toExact: (r) =>
    "fromExact" in r
      ? {
        label: "n/a",
        why:
          "the span ends at the last ratio of sweep's grid, not at a winner change",
      }
      : undefined,
  // consequence_card.board_pairs
  better: (r) =>
    r.toldApart === false
      ? {
        label: "n/a",
        why: "not told apart at alpha: neither model is declared better",
      }
      : undefined,
};

/**
 * Why `row[column]` is null, from {@linkcode NULL_REASONS}.
 *
 * @param column The column whose cell is null.
 * @param row The whole row, which the rule reads for context.
 * @returns The rule's reason, or `undefined` when no rule explains this null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nullReason } from "./null_reasons.ts";
 *
 * assert.equal(nullReason("accuracy", { n: 0, accuracy: null })?.label, "n/a");
 * assert.equal(nullReason("accuracy", { n: 5, accuracy: null }), undefined);
 * ```
 */
export function nullReason(
  column: string,
  row: Readonly<Record<string, unknown>>,
): NullReason | undefined {
  const rule = Object.hasOwn(NULL_REASONS, column)
    ? NULL_REASONS[column]
    : undefined;
  return rule?.(row);
}
