/**
 * The missing error-cost term of routing economics: total cost = spend +
 * errors × K, and the K at which two policies cost the same.
 *
 * @module
 */

/** A policy's published spend and accuracy on a task suite. */
export interface SpendAndAccuracy {
  /** Spend per run of the suite. */
  readonly spend: number;
  /** Share of tasks done right, in [0, 1]. */
  readonly accuracy: number;
}

/** The Switchyard run as published (`switchyard` via `third-number`). */
export const SWITCHYARD_RUN: {
  /** Tasks in the suite. */
  readonly tasks: number;
  /** The frontier model (Opus) alone. */
  readonly frontierOnly: SpendAndAccuracy;
  /** Routed: most calls to a 30B open model, a judge deciding. */
  readonly routed: SpendAndAccuracy;
  /** Share of the routed spend that went to the judge. */
  readonly judgeShareOfRoutedSpend: number;
  /** Share of calls that went to the 30B model. */
  readonly smallModelCallShare: number;
  /** Share of the routed spend that went to the 30B model. */
  readonly smallModelSpendShare: number;
  /** Where the figures come from. */
  readonly source: string;
} = Object.freeze({
  tasks: 145,
  frontierOnly: Object.freeze({ spend: 11.45, accuracy: 0.86 }),
  routed: Object.freeze({ spend: 3.0, accuracy: 0.8 }),
  judgeShareOfRoutedSpend: 0.212,
  smallModelCallShare: 0.93,
  smallModelSpendShare: 0.104,
  source:
    "switchyard, as quoted by third-number: Opus alone $11.45 per run of the 145-task suite, routed $3.00 (-74%), accuracy 86.0 -> 80.0, judge 21.2% of routed spend, 93% of calls on the 30B model for 10.4% of spend",
});

function _check(what: string, name: string, p: SpendAndAccuracy): void {
  if (!(p?.spend >= 0) || !Number.isFinite(p.spend)) {
    throw new RangeError(
      `Cannot compute ${what}: ${name}.spend must be a finite number >= 0, got ${p?.spend}`,
    );
  }
  if (!(p.accuracy >= 0 && p.accuracy <= 1)) {
    throw new RangeError(
      `Cannot compute ${what}: ${name}.accuracy must be in [0, 1], got ${p.accuracy}`,
    );
  }
}

/**
 * Total cost of a run once errors are priced: spend + (1 − accuracy) ×
 * tasks × K.
 *
 * Routing benchmarks report spend and accuracy side by side and leave the
 * reader to guess what the accuracy loss is worth; with K the cost of one
 * failed task, the two add up in one currency (The Third Number, seed
 * document 000). Cost: O(1).
 *
 * @param policy Spend per run and accuracy.
 * @param options Tasks per run and K per failed task (both required).
 * @returns The total cost per run.
 * @throws {RangeError} When a value is out of range.
 *
 * @example Switchyard's routed run at K = $1 per failed task
 * ```ts
 * import assert from "node:assert/strict";
 * import { SWITCHYARD_RUN, totalCostWithErrors } from "./error_cost.ts";
 *
 * // 3.00 + 0.20 × 145 × 1 = 32.00
 * assert.ok(Math.abs(totalCostWithErrors(SWITCHYARD_RUN.routed, { tasks: 145, K: 1 }) - 32) < 1e-9);
 * ```
 */
export function totalCostWithErrors(
  policy: SpendAndAccuracy,
  options: { tasks: number; K: number },
): number {
  const what = "a total cost with errors";
  _check(what, "policy", policy);
  const { tasks, K } = options ?? ({} as { tasks: number; K: number });
  if (!(tasks >= 0) || !Number.isFinite(tasks)) {
    throw new RangeError(
      `Cannot compute ${what}: tasks must be a finite number >= 0, got ${tasks}`,
    );
  }
  if (!(K >= 0) || !Number.isFinite(K)) {
    throw new RangeError(
      `Cannot compute ${what}: K must be a finite number >= 0, got ${K}`,
    );
  }
  return policy.spend + (1 - policy.accuracy) * tasks * K;
}

/**
 * The cost K per failed task at which two policies' total costs are equal.
 *
 * Total cost is linear in K, so the crossover is exact: K* = (spend_a −
 * spend_b) / (tasks × (error_b − error_a)). Below K* the cheaper, less
 * accurate policy wins; above it the more accurate one does. For
 * Switchyard, (11.45 − 3.00) / (145 × 0.06) ≈ $0.97: routing pays only
 * while a failed task costs less than a dollar. Cost: O(1).
 *
 * @param a One policy (for example frontier-only).
 * @param b The other (for example routed).
 * @param options Tasks per run (required).
 * @returns K*, or `null` when the accuracies are equal (the lines never cross, or always coincide).
 * @throws {RangeError} When a value is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorCostCrossover, SWITCHYARD_RUN } from "./error_cost.ts";
 *
 * const k = errorCostCrossover(SWITCHYARD_RUN.frontierOnly, SWITCHYARD_RUN.routed, { tasks: 145 })!;
 * assert.ok(Math.abs(k - 8.45 / 8.7) < 1e-12);
 * ```
 */
export function errorCostCrossover(
  a: SpendAndAccuracy,
  b: SpendAndAccuracy,
  options: { tasks: number },
): number | null {
  const what = "an error-cost crossover";
  _check(what, "a", a);
  _check(what, "b", b);
  const tasks = options?.tasks;
  if (!(tasks > 0) || !Number.isFinite(tasks)) {
    throw new RangeError(
      `Cannot compute ${what}: tasks must be a finite number > 0, got ${tasks}`,
    );
  }
  const slope = tasks * (a.accuracy - b.accuracy);
  if (slope === 0) return null;
  return (a.spend - b.spend) / slope;
}
