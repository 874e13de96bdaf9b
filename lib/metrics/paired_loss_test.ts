/**
 * Paired loss comparisons with the task as the unit: per-task loss
 * differences, their sign-flip test, and each side's statistics with trials
 * of a task counted as one task.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import type { Severity } from "../costs/severity.ts";
import { CONSEQUENCE_MATRIX, type CostMatrix, ruleCost } from "./loss.ts";
import type { Prng } from "../math/sampling.ts";
import { type SignFlipResult, signFlipTest } from "./sign_flip.ts";
import { type Action, outcomeOf, type StatsRow } from "./sufficient_stats.ts";
import { unitDifferences } from "./paired_units.ts";

/** How many of one side's trials of a task were a (predicted class, action). */
export interface TrialCount {
  /** Predicted class. */
  readonly predClass: string;
  /** Action. */
  readonly action: Action;
  /** Trials. */
  readonly n: number;
}

/**
 * Tasks both models answered that share a severity, a gold class and the
 * same trials on each side (as multisets of predicted class and action).
 * With one trial per task each side has one entry with `n = 1`.
 */
export interface PairedTaskGroup {
  /** Task severity. */
  readonly severity: Severity;
  /** Gold class. */
  readonly trueClass: string;
  /** Model A's trials of each task of the group. */
  readonly a: readonly TrialCount[];
  /** Model B's trials of each task of the group. */
  readonly b: readonly TrialCount[];
  /** Tasks in the group. */
  readonly tasks: number;
}

/** Options for the functions of this module. */
export interface PairedLossOptions {
  /** Cost matrix. Default: {@linkcode CONSEQUENCE_MATRIX}. */
  matrix?: CostMatrix;
  /** Gold class of clean items. Default: `"MATCH"`. */
  cleanClass?: string;
}

function meanCost(
  trials: readonly TrialCount[],
  g: PairedTaskGroup,
  profile: CostProfile,
  matrix: CostMatrix,
  clean: string,
): number {
  let cost = 0;
  let n = 0;
  for (const t of trials) {
    const rule = (t.action === "escalate" ? matrix.escalate : matrix.auto)[
      outcomeOf(g.trueClass, t.predClass, clean)
    ];
    cost += t.n * ruleCost(rule, profile, g.severity);
    n += t.n;
  }
  return n === 0 ? 0 : cost / n;
}

/**
 * Per-task loss differences of two models: for each group, the mean cost
 * of A's trials of a task minus the mean cost of B's, with the group's task
 * count as its multiplicity.
 *
 * Costs come from the matrix's rule for each trial's action and outcome
 * (`outcomeOf`), as in `realisedLoss`; with one trial per task, the
 * weighted sum of the differences is realisedLoss(A) − realisedLoss(B) on
 * the paired tasks. Cost is O(groups).
 *
 * @param groups Paired task groups, from `pairedTasks` in lib/decision.
 * @param profile Cost profile.
 * @param options Matrix and clean class.
 * @returns Differences and their multiplicities, one per group.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { taskLossDifferences } from "./paired_loss_test.ts";
 *
 * const g = { severity: "HIGH", trueClass: "X", tasks: 3,
 *   a: [{ predClass: "MATCH", action: "auto", n: 1 }, { predClass: "X", action: "auto", n: 1 }],
 *   b: [{ predClass: "X", action: "auto", n: 2 }] } as const;
 * const { differences, weights } = taskLossDifferences([g], getProfile("reconciliation"));
 * // A misses in one trial of two: mean cost 10 / 2 = 5 per task, B 0
 * assert.deepEqual([...differences, ...weights], [5, 3]);
 * ```
 */
export function taskLossDifferences(
  groups: readonly PairedTaskGroup[],
  profile: CostProfile,
  options: PairedLossOptions = {},
): { differences: Float64Array; weights: Float64Array } {
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const clean = options.cleanClass ?? "MATCH";
  const differences = new Float64Array(groups.length);
  const weights = new Float64Array(groups.length);
  groups.forEach((g, i) => {
    differences[i] = meanCost(g.a, g, profile, matrix, clean) -
      meanCost(g.b, g, profile, matrix, clean);
    weights[i] = g.tasks;
  });
  return { differences, weights };
}

/** Options for {@linkcode pairedLossTest}. */
export interface PairedLossTestOptions extends PairedLossOptions {
  /** Monte Carlo sign assignments. Default: 10,000. */
  resamples?: number;
  /** Enumerate exactly up to this many non-zero differences. Default: 16. */
  exactMax?: number;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator. */
  prng?: Prng;
  /**
   * The units of the test, when tasks are not independent: each unit's
   * tasks as indices of their groups (`pairedTasks` with the cluster as
   * the unit); a unit's differences are added and flip together
   * (`unitDifferences`). Default: each task its own unit.
   */
  units?: readonly (readonly number[])[];
}

/**
 * The paired sign-flip test of "A and B have exchangeable losses" on
 * per-task loss differences under a profile and a matrix.
 *
 * The task is the unit: trials of a task are averaged on each side before
 * differencing, so repeated trials never pass for independent pairs; with
 * `units`, a cluster's tasks are added and flip together. See
 * `signFlipTest` for the p-value; its level holds under heavy tails when the
 * two models are exchangeable, and is not claimed when they have equal
 * expected loss but err at different severities.
 *
 * @param groups Paired task groups.
 * @param profile Cost profile.
 * @param options Matrix, clean class, resamples and seed.
 * @returns The sign-flip result; `statistic` is the sum of per-task differences.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { pairedLossTest } from "./paired_loss_test.ts";
 *
 * const g = (predA: string, predB: string, tasks: number) => ({ severity: "HIGH", trueClass: "X",
 *   tasks, a: [{ predClass: predA, action: "auto", n: 1 }],
 *   b: [{ predClass: predB, action: "auto", n: 1 }] }) as const;
 * const t = pairedLossTest([g("MATCH", "X", 30), g("X", "X", 470)], getProfile("reconciliation"));
 * assert.equal(t.statistic, 300);
 * assert.ok(t.pValue < 0.001);
 * ```
 */
export function pairedLossTest(
  groups: readonly PairedTaskGroup[],
  profile: CostProfile,
  options: PairedLossTestOptions = {},
): SignFlipResult {
  const tasks = taskLossDifferences(groups, profile, options);
  const { differences, weights } = options.units === undefined
    ? tasks
    : unitDifferences(tasks.differences, options.units);
  return signFlipTest(differences, { ...options, weights });
}

/**
 * Each side's sufficient statistics of paired task groups, with
 * `taskShare` counting a task's trials as one task.
 *
 * @param groups Paired task groups.
 * @param ids Model ids to write into the rows. Default: `["A", "B"]`.
 * @returns Model A's and model B's rows (not merged across groups; every
 * function over statistics adds rows of the same cell).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedTaskStats } from "./paired_loss_test.ts";
 *
 * const [a] = pairedTaskStats([{ severity: "LOW", trueClass: "X", tasks: 2,
 *   a: [{ predClass: "X", action: "auto", n: 3 }], b: [{ predClass: "X", action: "auto", n: 1 }] }]);
 * assert.deepEqual([a[0].n, a[0].taskShare], [6, 2]);
 * ```
 */
export function pairedTaskStats(
  groups: readonly PairedTaskGroup[],
  ids: readonly [string, string] = ["A", "B"],
): [StatsRow[], StatsRow[]] {
  const side = (key: "a" | "b", modelId: string): StatsRow[] =>
    groups.flatMap((g) => {
      const trials = g[key].reduce((s, t) => s + t.n, 0);
      return g[key].map((t) => ({
        modelId,
        severity: g.severity,
        trueClass: g.trueClass,
        predClass: t.predClass,
        action: t.action,
        n: g.tasks * t.n,
        pErrorSum: 0,
        pMissing: g.tasks * t.n,
        parseFailures: 0,
        taskShare: trials === 0 ? 0 : (g.tasks * t.n) / trials,
      }));
    });
  return [side("a", ids[0]), side("b", ids[1])];
}
