/**
 * The difference of two paired proportions (two models graded on the same
 * tasks): Newcombe's hybrid score interval and the paired 2×2 table it
 * reads.
 *
 * @module
 */

import { normalQuantile } from "../math/normal_quantile.ts";
import type { PairedTaskGroup } from "./paired_loss_test.ts";

/** A paired 2×2 table: tasks by which of the two models got them right. */
export interface PairedTable {
  /** Tasks both models got right. */
  readonly both: number;
  /** Tasks only A got right. */
  readonly onlyA: number;
  /** Tasks only B got right. */
  readonly onlyB: number;
  /** Tasks neither got right. */
  readonly neither: number;
}

/** Newcombe's interval for p(A) − p(B). */
export interface PairedProportionInterval {
  /** p(A) − p(B) on the observed tasks; `null` when there are none. */
  readonly estimate: number | null;
  /** Lower bound; `null` when there are no tasks. */
  readonly lo: number | null;
  /** Upper bound; `null` when there are no tasks. */
  readonly hi: number | null;
  /** Confidence level. */
  readonly level: number;
  /** How it was computed. */
  readonly method: string;
}

/** What the `method` field of {@linkcode newcombePairedInterval} says. */
export const NEWCOMBE_PAIRED_METHOD =
  "newcombe hybrid score, paired (newcombe-1998 method 10)";

/**
 * Newcombe's hybrid score interval for the difference of two paired
 * proportions, p(A) − p(B) (`newcombe-1998`, method 10).
 *
 * With a = both right, b = only A, c = only B, d = neither and n tasks,
 * p(A) = (a + b)/n and p(B) = (a + c)/n each get a Wilson score interval
 * [l1, u1] and [l2, u2]; the two are combined by "square and add" with the
 * correlation of the pair, φ = C / √((a+b)(c+d)(a+c)(b+d)), where C = ad −
 * bc − n/2 when ad − bc > n/2, C = ad − bc when it is negative, and 0
 * between (the continuity-corrected φ of the method):
 *
 *     lo = D − √((p(A) − l1)² − 2φ(p(A) − l1)(u2 − p(B)) + (u2 − p(B))²)
 *     hi = D + √((p(B) − l2)² − 2φ(p(B) − l2)(u1 − p(A)) + (u1 − p(A))²)
 *
 * Newcombe found its coverage close to nominal down to small n, where a
 * percentile bootstrap of the paired difference is too narrow. Counts may
 * be fractional (a task's trials averaged). O(1).
 *
 * @param table The paired 2×2 table.
 * @param options `level` in (0, 1). Default: 0.95.
 * @returns The interval; nulls when the table is empty.
 * @throws {RangeError} When a count is negative or not finite, or the level is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { newcombePairedInterval } from "./paired_proportion.ts";
 *
 * const ci = newcombePairedInterval({ both: 40, onlyA: 12, onlyB: 3, neither: 5 });
 * assert.ok(Math.abs(ci.estimate! - 0.15) < 1e-12);
 * assert.ok(ci.lo! > 0 && ci.lo! < 0.15 && ci.hi! > 0.15 && ci.hi! < 1);
 * ```
 */
export function newcombePairedInterval(
  table: PairedTable,
  options: { level?: number } = {},
): PairedProportionInterval {
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot compute a paired difference interval: level must be in (0, 1), got ${level}`,
    );
  }
  for (const [k, v] of Object.entries(table)) {
    if (!(v >= 0) || !Number.isFinite(v)) {
      throw new RangeError(
        `Cannot compute a paired difference interval: ${k} must be a finite count >= 0, got ${v}`,
      );
    }
  }
  const { both: a, onlyA: b, onlyB: c, neither: d } = table;
  const n = a + b + c + d;
  const method = NEWCOMBE_PAIRED_METHOD;
  if (n === 0) return { estimate: null, lo: null, hi: null, level, method };
  const p1 = (a + b) / n;
  const p2 = (a + c) / n;
  const D = p1 - p2;
  const [l1, u1] = wilsonBounds(p1, n, level);
  const [l2, u2] = wilsonBounds(p2, n, level);
  const denom = (a + b) * (c + d) * (a + c) * (b + d);
  const cross = a * d - b * c;
  const C = cross > n / 2 ? cross - n / 2 : cross < 0 ? cross : 0;
  const phi = denom > 0 ? C / Math.sqrt(denom) : 0;
  const dl1 = p1 - l1, du1 = u1 - p1, dl2 = p2 - l2, du2 = u2 - p2;
  const lo = D -
    Math.sqrt(Math.max(0, dl1 ** 2 - 2 * phi * dl1 * du2 + du2 ** 2));
  const hi = D +
    Math.sqrt(Math.max(0, dl2 ** 2 - 2 * phi * dl2 * du1 + du1 ** 2));
  return {
    estimate: D,
    lo: Math.max(-1, lo),
    hi: Math.min(1, hi),
    level,
    method,
  };
}

/**
 * Wilson score bounds at a share p of n trials; n may be fractional (a
 * task's trials averaged). At p = 0 and p = 1 the bound on that side is
 * exactly 0 or 1.
 */
function wilsonBounds(p: number, n: number, level: number): [number, number] {
  const z = normalQuantile((1 + level) / 2);
  const z2 = z * z;
  const centre = (p * n + z2 / 2) / (n + z2);
  const half = (z * Math.sqrt(n * p * (1 - p) + z2 / 4)) / (n + z2);
  return [
    p === 0 ? 0 : Math.max(0, centre - half),
    p === 1 ? 1 : Math.min(1, centre + half),
  ];
}

/**
 * The paired 2×2 table of correct answers, and the per-task accuracy
 * differences, of two models' tasks grouped as `pairedTasks` groups them.
 *
 * A task's trials are averaged on each side: with shares pA and pB of its
 * trials right, the task adds pA·pB to `both`, pA·(1 − pB) to `onlyA`,
 * (1 − pA)·pB to `onlyB` and the rest to `neither` (whole counts with one
 * trial per task), so the table's margins are the per-task accuracies and a
 * task weighs one whatever its trials. The differences pA − pB, with the
 * group's task count as weight, are what a sign-flip test reads (with one
 * trial per task it is the exact McNemar test). O(groups × trials).
 *
 * @param groups Paired task groups.
 * @returns The table, and per group the accuracy difference and its task count.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedAccuracyTable } from "./paired_proportion.ts";
 *
 * const right = [{ predClass: "X", action: "auto", n: 1 }] as const;
 * const wrong = [{ predClass: "MATCH", action: "auto", n: 1 }] as const;
 * const g = { severity: "HIGH", trueClass: "X" } as const;
 * const { table, differences } = pairedAccuracyTable([
 *   { ...g, a: right, b: right, tasks: 7 },
 *   { ...g, a: right, b: wrong, tasks: 2 },
 * ]);
 * assert.deepEqual(table, { both: 7, onlyA: 2, onlyB: 0, neither: 0 });
 * assert.deepEqual([...differences], [0, 1]);
 * ```
 */
export function pairedAccuracyTable(
  groups: readonly PairedTaskGroup[],
): { table: PairedTable; differences: Float64Array; weights: Float64Array } {
  const share = (trials: PairedTaskGroup["a"], gold: string): number => {
    let right = 0, n = 0;
    for (const t of trials) {
      n += t.n;
      if (t.predClass === gold) right += t.n;
    }
    return n === 0 ? 0 : right / n;
  };
  let both = 0, onlyA = 0, onlyB = 0, neither = 0;
  const differences = new Float64Array(groups.length);
  const weights = new Float64Array(groups.length);
  groups.forEach((g, i) => {
    const pa = share(g.a, g.trueClass);
    const pb = share(g.b, g.trueClass);
    both += g.tasks * pa * pb;
    onlyA += g.tasks * pa * (1 - pb);
    onlyB += g.tasks * (1 - pa) * pb;
    neither += g.tasks * (1 - pa) * (1 - pb);
    differences[i] = pa - pb;
    weights[i] = g.tasks;
  });
  return { table: { both, onlyA, onlyB, neither }, differences, weights };
}
