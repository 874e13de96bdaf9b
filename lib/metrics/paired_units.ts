/**
 * Paired comparisons with the cluster as the unit: what `compare` and
 * `board` read when a run's decisions name clusters (docs/method.md, "The
 * unit"). The estimates stay those of the task: a task's trials averaged,
 * each task weighing one. Only what counts independent units changes: the
 * sign-flip test flips a cluster's tasks together, the Jeffreys posteriors
 * count a cluster's tasks as one cluster's evidence, and the paired table
 * of correct answers is read at its effective number of clusters.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusteredPairedTable, unitDifferences } from "./paired_units.ts";
 *
 * // two clusters of two tasks: a 2 and a 0 flip as one
 * const { differences, weights } = unitDifferences([1, 1, 0], [[0, 1], [2, 2]]);
 * assert.deepEqual([...differences, ...weights], [2, 0, 1, 1]);
 * const t = clusteredPairedTable({ both: 2, onlyA: 2, onlyB: 0, neither: 0 }, [[0, 1], [2, 2]]);
 * assert.equal(t.effectiveN, 2);
 * ```
 *
 * @module
 */

import type { PairedTaskGroup } from "./paired_loss_test.ts";
import type { PairedTable } from "./paired_proportion.ts";
import type { StatsRow } from "./sufficient_stats.ts";

// the members of a unit in ascending order, and the order of two such lists
const sorted = (members: readonly number[]) =>
  [...members].sort((x, y) => x - y);
function byMembers(x: readonly number[], y: readonly number[]): number {
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

/**
 * Per-unit differences from per-task ones: each unit's difference is the
 * sum of its tasks' (so the units' differences add up to the tasks'), and
 * units of the same tasks' groups are merged, their count the weight, as a
 * sign-flip test reads them. Units are ordered by their groups, so that
 * with one task per unit the result is the groups' own differences, each
 * weighted by its task count.
 *
 * @param differences Per group, one task's difference (`taskLossDifferences`, `pairedAccuracyTable`).
 * @param units Each unit's tasks, as indices of their groups (`pairedTasks`' `units`).
 * @returns The units' differences and weights.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unitDifferences } from "./paired_units.ts";
 *
 * // one task per unit: the groups' differences, weighted by their task counts
 * const one = unitDifferences([5, -1], [[0], [1], [0]]);
 * assert.deepEqual([...one.differences, ...one.weights], [5, -1, 2, 1]);
 * ```
 */
export function unitDifferences(
  differences: ArrayLike<number>,
  units: readonly (readonly number[])[],
): { differences: Float64Array; weights: Float64Array } {
  const merged = new Map<string, { members: number[]; count: number }>();
  for (const u of units) {
    const members = sorted(u);
    const key = members.join(",");
    const seen = merged.get(key);
    if (seen === undefined) merged.set(key, { members, count: 1 });
    else seen.count++;
  }
  const list = [...merged.values()].sort((x, y) =>
    byMembers(x.members, y.members)
  );
  const out = new Float64Array(list.length);
  list.forEach((u, i) => {
    let d = 0;
    for (const g of u.members) d += differences[g];
    out[i] = d;
  });
  return { differences: out, weights: Float64Array.from(list, (u) => u.count) };
}

/**
 * Each side's sufficient statistics of paired task groups as a clustered
 * interval reads them: `n` counts tasks (a task's trials averaged, the
 * estimate's weights, as `pairedTaskStats` gives `taskShare`), and
 * `taskShare` counts units, each decision weighing 1 / (its side's
 * decisions in its unit on the paired tasks). Give them to a loss interval
 * that weighs cells by `n` and counts evidence by `taskShare`
 * (`lossDifferenceInterval` with its default unit).
 *
 * @param groups Paired task groups.
 * @param units Each unit's tasks, as indices of their groups.
 * @param ids Model ids to write into the rows. Default: `["A", "B"]`.
 * @returns Model A's and model B's rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedUnitStats } from "./paired_units.ts";
 *
 * // two tasks of one trial each, both in one cluster
 * const g = { severity: "LOW", trueClass: "X", tasks: 2,
 *   a: [{ predClass: "X", action: "auto", n: 1 }], b: [{ predClass: "X", action: "auto", n: 1 }] } as const;
 * const [a] = pairedUnitStats([g], [[0, 0]]);
 * assert.deepEqual([a[0].n, a[0].taskShare], [2, 1]);
 * ```
 */
export function pairedUnitStats(
  groups: readonly PairedTaskGroup[],
  units: readonly (readonly number[])[],
  ids: readonly [string, string] = ["A", "B"],
): [StatsRow[], StatsRow[]] {
  const side = (key: "a" | "b", modelId: string): StatsRow[] => {
    const trials = groups.map((g) => g[key].reduce((s, t) => s + t.n, 0));
    // per group, the sum over its tasks of 1 / (decisions in the task's unit)
    const share = new Float64Array(groups.length);
    for (const u of units) {
      let decisions = 0;
      for (const g of u) decisions += trials[g];
      if (decisions > 0) { for (const g of u) share[g] += 1 / decisions; }
    }
    return groups.flatMap((g, i) =>
      g[key].map((t) => {
        const n = trials[i] === 0 ? 0 : (g.tasks * t.n) / trials[i];
        return {
          modelId,
          severity: g.severity,
          trueClass: g.trueClass,
          predClass: t.predClass,
          action: t.action,
          n,
          pErrorSum: 0,
          pMissing: n,
          parseFailures: 0,
          taskShare: t.n * share[i],
        };
      })
    );
  };
  return [side("a", ids[0]), side("b", ids[1])];
}

/**
 * A paired table of correct answers read at its effective number of units:
 * each count scaled by n_eff / n, n_eff = n² / Σ m², m the paired tasks of
 * each unit (Kish's effective sample size, as the clustered accuracy
 * interval counts it). The shares, and so the estimate, are unchanged; an
 * interval on the scaled table is as wide as the units' number allows.
 *
 * @param table The table over tasks (`pairedAccuracyTable`).
 * @param units Each unit's tasks, as indices of their groups.
 * @returns The scaled table, and n_eff.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusteredPairedTable } from "./paired_units.ts";
 *
 * // one task per unit: the table as it is
 * const t = { both: 3, onlyA: 1, onlyB: 0, neither: 0 };
 * assert.deepEqual(clusteredPairedTable(t, [[0], [0], [0], [1]]), { ...t, effectiveN: 4 });
 * ```
 */
export function clusteredPairedTable(
  table: PairedTable,
  units: readonly (readonly number[])[],
): PairedTable & { effectiveN: number } {
  let n = 0;
  let squares = 0;
  for (const u of units) {
    n += u.length;
    squares += u.length * u.length;
  }
  if (squares === n) return { ...table, effectiveN: n };
  const scale = n / squares;
  return {
    both: table.both * scale,
    onlyA: table.onlyA * scale,
    onlyB: table.onlyB * scale,
    neither: table.neither * scale,
    effectiveN: (n * n) / squares,
  };
}
