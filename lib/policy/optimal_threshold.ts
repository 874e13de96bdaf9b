/**
 * The escalation threshold that minimises realised cost, globally and per
 * group (for example per severity).
 *
 * @module
 */

import {
  _checkReviewCost,
  _checkScored,
  _optimum,
  _scoreGroups,
} from "./_score_groups.ts";

/** Options for threshold policies on P(error). */
export interface EscalationOptions {
  /**
   * Money one error costs when it is served automatically, per decision:
   * usually K(severity) of its task. Default: 1 for every decision (the
   * cost then counts errors).
   */
  exposure?: ArrayLike<number>;
  /** Cost of escalating one decision to review. Default: 1. */
  reviewCost?: number;
}

/** The best threshold of a run and what it saves. */
export interface OptimalThreshold {
  /**
   * Serve automatically iff P(error) ≤ threshold; `null` when escalating
   * everything is cheapest. The threshold is the largest P(error) served, so
   * any value up to the next observed P(error) gives the same policy.
   */
  readonly threshold: number | null;
  /** Decisions. */
  readonly n: number;
  /** Decisions served automatically. */
  readonly autoServed: number;
  /** Decisions escalated. */
  readonly escalated: number;
  /** Errors served automatically. */
  readonly autoErrors: number;
  /** Realised cost of the policy: loss of the automatic errors plus reviews. */
  readonly cost: number;
  /** Cost of serving everything automatically. */
  readonly costAllAuto: number;
  /** Cost of escalating everything. */
  readonly costAllEscalate: number;
  /** `costAllAuto − cost`: what the threshold saves against always-auto. */
  readonly saved: number;
}

/**
 * The global escalation threshold on P(error) with the lowest realised cost.
 *
 * Decisions are served automatically from the lowest P(error) up; serving
 * the k lowest costs the loss of their errors plus reviewCost × (n − k).
 * One sort and a prefix sum evaluate every threshold exactly (equal
 * P(error) values are never split), so the result is the in-sample optimum
 * of the risk-coverage curve in money. It is an oracle on the data it is
 * computed from; for new data use the Bayes rule or a conformal threshold,
 * or fit this on one split and apply it to another. Cost: O(n log n).
 *
 * @param pError P(error) per decision, 1 − pCorrect.
 * @param error 1 when the decision was wrong.
 * @param options Exposure per decision (default 1) and review cost (default 1).
 * @returns The threshold, its cost and what it saves.
 * @throws {RangeError} When a value is out of range.
 * @throws {TypeError} When the columns differ in length.
 *
 * @example Escalate the decisions whose expected loss exceeds a review
 * ```ts
 * import assert from "node:assert/strict";
 * import { optimalThreshold } from "./optimal_threshold.ts";
 *
 * const pError = [0.01, 0.02, 0.3, 0.6];
 * const error = [0, 0, 1, 1];
 * const t = optimalThreshold(pError, error, { exposure: [10, 10, 10, 10], reviewCost: 1 });
 * assert.equal(t.threshold, 0.02);
 * assert.deepEqual([t.cost, t.costAllAuto, t.saved], [2, 20, 18]);
 * ```
 */
export function optimalThreshold(
  pError: ArrayLike<number>,
  error: ArrayLike<number>,
  options: EscalationOptions = {},
): OptimalThreshold {
  const what = "an optimal threshold";
  _checkScored(what, pError, error, options.exposure, "pError");
  const reviewCost = _checkReviewCost(what, options.reviewCost ?? 1);
  const g = _scoreGroups(pError, error, options.exposure);
  const best = _optimum(g, reviewCost);
  let totalLoss = 0;
  for (const l of g.loss) totalLoss += l;
  return {
    threshold: best.groups === 0 ? null : g.score[best.groups - 1],
    n: g.n,
    autoServed: best.autoServed,
    escalated: g.n - best.autoServed,
    autoErrors: best.errors,
    cost: best.cost,
    costAllAuto: totalLoss,
    costAllEscalate: reviewCost * g.n,
    saved: totalLoss - best.cost,
  };
}

/** Options for {@linkcode thresholdsByGroup}. */
export interface GroupThresholdOptions extends EscalationOptions {
  /** Group of each decision, for example its severity. Required. */
  group: ArrayLike<string>;
}

/** One optimal threshold per group, and their total. */
export interface GroupThresholds {
  /** Optimal threshold per group, in order of first appearance. */
  readonly groups: Readonly<Record<string, OptimalThreshold>>;
  /** Sum of the groups' optimal costs: the cost of the per-group policy. */
  readonly cost: number;
  /** Cost of serving everything automatically. */
  readonly costAllAuto: number;
  /** `costAllAuto − cost`. */
  readonly saved: number;
}

/**
 * The optimal escalation threshold within each group, for example within
 * each severity.
 *
 * Costs add over decisions, so the best policy that may use a different
 * threshold per severity is the best threshold of each severity on its own.
 * Its cost is never above the best single global threshold's, and the gap
 * says how much one threshold for all severities throws away (the Veto
 * Frontier's "a single global threshold targets the wrong thing"). Cost:
 * O(n log n).
 *
 * @param pError P(error) per decision.
 * @param error 1 when the decision was wrong.
 * @param options Group per decision (required), exposure and review cost.
 * @returns The optimal threshold of each group and the total.
 * @throws {RangeError} As {@linkcode optimalThreshold}.
 * @throws {TypeError} When the columns differ in length.
 *
 * @example HIGH errors cost more, so HIGH escalates more
 * ```ts
 * import assert from "node:assert/strict";
 * import { thresholdsByGroup } from "./optimal_threshold.ts";
 *
 * const by = thresholdsByGroup([0.2, 0.2, 0.2, 0.2], [1, 0, 1, 0], {
 *   group: ["LOW", "LOW", "HIGH", "HIGH"],
 *   exposure: [0.2, 0.2, 10, 10],
 *   reviewCost: 1,
 * });
 * assert.equal(by.groups.LOW.threshold, 0.2); // serve: 0.2 < 2 reviews
 * assert.equal(by.groups.HIGH.threshold, null); // escalate: 10 > 2 reviews
 * assert.ok(Math.abs(by.cost - 2.2) < 1e-12);
 * ```
 */
export function thresholdsByGroup(
  pError: ArrayLike<number>,
  error: ArrayLike<number>,
  options: GroupThresholdOptions,
): GroupThresholds {
  const what = "per-group thresholds";
  const group = options?.group;
  if (group === undefined || group.length !== pError.length) {
    throw new TypeError(
      `Cannot compute ${what}: group must have one value per decision (${pError.length}), got ${
        group === undefined ? "none" : group.length
      }`,
    );
  }
  _checkScored(what, pError, error, options.exposure, "pError");
  // one pass assigns group ids, a second scatters each group's columns
  const ids = new Map<string, number>();
  const gid = new Int32Array(group.length);
  const sizes: number[] = [];
  for (let i = 0; i < group.length; i++) {
    const key = String(group[i]);
    let id = ids.get(key);
    if (id === undefined) {
      id = sizes.length;
      ids.set(key, id);
      sizes.push(0);
    }
    gid[i] = id;
    sizes[id]++;
  }
  const cols = sizes.map((m) => ({
    pError: new Float64Array(m),
    error: new Uint8Array(m),
    exposure: options.exposure ? new Float64Array(m) : undefined,
    fill: 0,
  }));
  for (let i = 0; i < group.length; i++) {
    const c = cols[gid[i]];
    const j = c.fill++;
    c.pError[j] = pError[i];
    c.error[j] = error[i];
    if (c.exposure) c.exposure[j] = options.exposure![i];
  }
  const groups: Record<string, OptimalThreshold> = {};
  let cost = 0;
  let costAllAuto = 0;
  for (const [key, id] of ids) {
    const c = cols[id];
    const t = optimalThreshold(c.pError, c.error, {
      reviewCost: options.reviewCost,
      ...(c.exposure ? { exposure: c.exposure } : {}),
    });
    groups[key] = t;
    cost += t.cost;
    costAllAuto += t.costAllAuto;
  }
  return { groups, cost, costAllAuto, saved: costAllAuto - cost };
}
