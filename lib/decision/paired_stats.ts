/**
 * Paired statistics: how two models did on the same tasks, for paired
 * comparisons.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { Severity } from "../costs/severity.ts";
import type { PairedRow } from "../metrics/bootstrap.ts";
import type { Action } from "../metrics/sufficient_stats.ts";
import { byOrderThenKey, tupleKey } from "../_tuple_key.ts";

/** Paired cells, and the tasks that could not be paired. */
export interface PairedStats {
  /** Cells keyed by (severity, trueClass, predA, actionA, predB, actionB). */
  readonly rows: PairedRow[];
  /** Decisions of model A on tasks model B did not answer. */
  readonly onlyA: number;
  /** Decisions of model B on tasks model A did not answer. */
  readonly onlyB: number;
}

/**
 * Pair two models' decisions on the same (taskId, trial) and count the
 * pairs per cell.
 *
 * Unpaired decisions are counted, not dropped silently. Both sides of a pair
 * must agree on the task's severity and gold class; a disagreement means the
 * exports describe different tasks and is an error.
 *
 * @param table A decision table.
 * @param a Model A's id.
 * @param b Model B's id.
 * @returns Paired cells and the unpaired counts.
 * @throws {RangeError} When a model is absent, the ids are equal, or a pair disagrees on severity or gold class.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionTable } from "../read/load_decisions.ts";
 * import { pairedStats } from "./paired_stats.ts";
 *
 * const d = {
 *   runId: "r", taskId: "t1", trial: 0, severity: "HIGH", trueClass: "X", parseOk: true,
 *   pCorrect: null, action: "auto", cost: { completeness: "unavailable", usd: null },
 *   outcome: "resolved",
 * } as const;
 * const p = pairedStats(
 *   decisionTable([{ ...d, modelId: "a", predClass: "X" }, { ...d, modelId: "b", predClass: "MATCH" }]),
 *   "a",
 *   "b",
 * );
 * assert.deepEqual([p.rows[0].predA, p.rows[0].predB, p.rows[0].n, p.onlyA], ["X", "MATCH", 1, 0]);
 * ```
 */
export function pairedStats(
  table: ColumnTable,
  a: string,
  b: string,
): PairedStats {
  if (a === b) {
    throw new RangeError(
      `Cannot pair a model with itself: both ids are ${JSON.stringify(a)}`,
    );
  }
  const model = table.array("modelId") as ArrayLike<string>;
  const task = table.array("taskId") as ArrayLike<string>;
  const trial = table.array("trial") as ArrayLike<number>;
  const sev = table.array("severity") as ArrayLike<Severity>;
  const gold = table.array("trueClass") as ArrayLike<string>;
  const pred = table.array("predClass") as ArrayLike<string>;
  const action = table.array("action") as ArrayLike<Action>;
  const indexA = new Map<string, number>();
  let seenB = false;
  const twice = (id: string, i: number) =>
    new RangeError(
      `Cannot pair models: ${id} has two decisions for task ${
        JSON.stringify(task[i])
      } trial ${trial[i]}; pair one run at a time`,
    );
  for (let i = 0; i < model.length; i++) {
    if (model[i] === a) {
      const key = `${task[i]}\u0000${trial[i]}`;
      if (indexA.has(key)) throw twice(a, i);
      indexA.set(key, i);
    } else if (model[i] === b) seenB = true;
  }
  for (const [id, present] of [[a, indexA.size > 0], [b, seenB]] as const) {
    if (!present) {
      throw new RangeError(
        `Cannot pair models: no decisions of model ${JSON.stringify(id)}`,
      );
    }
  }
  const cells = new Map<string, PairedRow>();
  const order = new Map<string, string>();
  const used = new Set<string>();
  let onlyB = 0;
  for (let j = 0; j < model.length; j++) {
    if (model[j] !== b) continue;
    const key = `${task[j]}\u0000${trial[j]}`;
    const i = indexA.get(key);
    if (i === undefined) {
      onlyB++;
      continue;
    }
    if (used.has(key)) throw twice(b, j);
    used.add(key);
    if (sev[i] !== sev[j] || gold[i] !== gold[j]) {
      throw new RangeError(
        `Cannot pair models on task ${JSON.stringify(task[j])} trial ${
          trial[j]
        }: ${a} has ${sev[i]}/${gold[i]} but ${b} has ${sev[j]}/${gold[j]}`,
      );
    }
    const parts = [sev[i], gold[i], pred[i], action[i], pred[j], action[j]];
    const cellKey = tupleKey(parts);
    if (!order.has(cellKey)) order.set(cellKey, parts.join("\u0000"));
    const prev = cells.get(cellKey);
    cells.set(cellKey, {
      severity: sev[i],
      trueClass: gold[i],
      predA: pred[i],
      actionA: action[i],
      predB: pred[j],
      actionB: action[j],
      n: (prev?.n ?? 0) + 1,
    });
  }
  // cells in the order of their parts joined by NUL (which the seeded
  // resampling depends on), then of their keys
  const rows = [...cells.entries()].sort(([x], [y]) =>
    byOrderThenKey(order.get(x)!, x, order.get(y)!, y)
  ).map(([, r]) => r);
  return { rows, onlyA: indexA.size - used.size, onlyB };
}
