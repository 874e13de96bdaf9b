/**
 * Sufficient statistics from a decision table, computed with Arquero.
 *
 * @module
 */

import { escape, op } from "arquero";
import type { ColumnTable } from "arquero";
import type { Severity } from "../costs/severity.ts";
import {
  type Action,
  canCost,
  sortStats,
  type StatsRow,
} from "../metrics/sufficient_stats.ts";
import { ComplementSum, reciprocalSum, trialsSum } from "../math/exact_sum.ts";
import { resolveUnit, type UnitOptions } from "./cluster.ts";
import { InputRangeError } from "../input_error.ts";

/**
 * Group a decision table into sufficient statistics per (model, severity,
 * trueClass, predClass, action).
 *
 * One pass over the rows; the result has one row per non-empty cell, so its
 * size depends on the number of models and classes, not on the run length.
 * The same grouping in SQL is `GROUP BY modelId, severity, trueClass,
 * predClass, action` with `count(*)`, `sum(1 - pCorrect)`,
 * `count(*) - count(pCorrect)` and `sum(CASE WHEN parseOk THEN 0 ELSE 1 END)`.
 * `taskShare` sums 1 / (decisions of the same model in the same unit) over
 * the cell, so trials of a task (epochs, repeated runs) count as one task,
 * and, when the unit is the cluster, a cluster's tasks as one cluster.
 * Both non-integer sums are exact and rounded once (see
 * lib/math/exact_sum.ts), so they do not depend on the order of the rows.
 *
 * @param table A decision table, as made by `decisionTable` or a loader.
 * @param options The unit (default: `cluster` when the table's decisions
 * name one, else `taskId`).
 * @returns Statistics rows, in canonical order (see `sortStats`).
 * @throws {RangeError} When the unit is the cluster and a decision names none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionStats } from "./decision_stats.ts";
 * import { decisionTable } from "../read/load_decisions.ts";
 *
 * const base = {
 *   runId: "r", modelId: "m", trial: 0, severity: "HIGH", trueClass: "AMOUNT_MISMATCH",
 *   parseOk: true, pCorrect: 0.8, action: "auto", outcome: "resolved",
 *   cost: { completeness: "not_applicable", usd: null },
 * } as const;
 * const stats = decisionStats(decisionTable([
 *   { ...base, taskId: "a", predClass: "AMOUNT_MISMATCH" },
 *   { ...base, taskId: "b", predClass: "MATCH" },
 *   { ...base, taskId: "c", predClass: "MATCH" },
 * ]));
 * assert.deepEqual(stats.map((r) => [r.predClass, r.n]), [["AMOUNT_MISMATCH", 1], ["MATCH", 2]]);
 * ```
 */
export function decisionStats(
  table: ColumnTable,
  options: UnitOptions = {},
): StatsRow[] {
  const clusters = table.columnNames().includes("cluster")
    ? table.array("cluster") as ArrayLike<string | null>
    : null;
  let named = 0;
  for (let i = 0; clusters !== null && i < clusters.length; i++) {
    if (clusters[i] != null) named++;
  }
  const unit = resolveUnit(options.unit, named > 0, "the decision table");
  if (unit === "cluster" && named < table.numRows()) {
    const row = Array.from(clusters!).findIndex((c) => c == null);
    throw new InputRangeError(
      `Cannot count clusters: row ${
        row + 1
      } of the decision table names no cluster, but ${named} of its rows do`,
    );
  }
  options.onUnit?.(unit);
  if (table.numRows() === 0) return [];
  // the non-integer sums are taken exactly from each cell's values (its
  // pCorrect values, its units' decision counts) and rounded once, so that
  // they equal every other engine's to the last bit
  // each decision's unit: its size and its decisions that can cost
  const rolled = table
    .derive({
      _costly: escape((d: Parameters<typeof canCost>[0]) => canCost(d) ? 1 : 0),
    })
    .groupby("modelId", unit)
    .derive({ _taskTrials: op.count(), _unitCostly: op.sum("_costly") })
    .ungroup()
    .derive({
      _pMiss: (d: Record<string, unknown>) => d.pCorrect == null ? 1 : 0,
      _parseFail: (d: Record<string, unknown>) => d.parseOk ? 0 : 1,
    })
    .groupby("modelId", "severity", "trueClass", "predClass", "action")
    .rollup({
      n: op.count(),
      pCorrects: op.array_agg("pCorrect"),
      pMissing: op.sum("_pMiss"),
      parseFailures: op.sum("_parseFail"),
      trials: op.array_agg("_taskTrials"),
      unitCostPairs: op.sum("_unitCostly"),
    });
  const rows = rolled.objects() as Array<Record<string, unknown>>;
  return sortStats(rows.map((r) => {
    const pError = new ComplementSum();
    for (const p of r.pCorrects as Array<number | null>) {
      if (p != null) pError.add(p);
    }
    const trials = new Map<number, number>();
    for (const k of r.trials as number[]) {
      trials.set(k, (trials.get(k) ?? 0) + 1);
    }
    return {
      modelId: r.modelId as string,
      severity: r.severity as Severity,
      trueClass: r.trueClass as string,
      predClass: r.predClass as string,
      action: r.action as Action,
      n: r.n as number,
      pErrorSum: pError.value(),
      pMissing: r.pMissing as number,
      parseFailures: r.parseFailures as number,
      taskShare: reciprocalSum(trials),
      taskTrialsSum: trialsSum(trials),
      unitCostPairs: r.unitCostPairs as number,
    };
  }));
}
