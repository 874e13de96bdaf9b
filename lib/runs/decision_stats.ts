/**
 * Sufficient statistics from a decision table, computed with Arquero.
 *
 * @module
 */

import { op } from "arquero";
import type { ColumnTable } from "arquero";
import type { Severity } from "../costs/severity.ts";
import { sortStats, type StatsRow } from "../metrics/sufficient_stats.ts";

/**
 * Group a decision table into sufficient statistics per (model, severity,
 * trueClass).
 *
 * One pass over the rows; the result has one row per non-empty cell, so its
 * size depends on the number of models and classes, not on the run length.
 *
 * @param table A decision table, as made by `decisionTable` or a loader.
 * @returns Statistics rows, sorted by model, severity rank and class.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionStats, decisionTable } from "./mod.ts";
 *
 * const base = {
 *   runId: "r", modelId: "m", trial: 0, severity: "HIGH", trueClass: "AMOUNT_MISMATCH",
 *   parseOk: true, pCorrect: 0.8, action: "auto", outcome: "resolved",
 *   cost: { completeness: "not_applicable", usd: null },
 * } as const;
 * const stats = decisionStats(decisionTable([
 *   { ...base, taskId: "a", predClass: "AMOUNT_MISMATCH" },
 *   { ...base, taskId: "b", predClass: "MATCH" },
 * ]));
 * assert.equal(stats.length, 1);
 * assert.equal(stats[0].n, 2);
 * assert.equal(stats[0].autoErrors, 1);
 * ```
 */
export function decisionStats(table: ColumnTable): StatsRow[] {
  if (table.numRows() === 0) return [];
  const rolled = table
    .derive({
      _correct: (d: Record<string, unknown>) =>
        d.predClass === d.trueClass ? 1 : 0,
      _esc: (d: Record<string, unknown>) => d.action === "escalate" ? 1 : 0,
      _autoErr: (d: Record<string, unknown>) =>
        d.action === "auto" && d.predClass !== d.trueClass ? 1 : 0,
      _pErr: (d: Record<string, unknown>) =>
        d.action === "auto" && d.pCorrect != null
          ? 1 - (d.pCorrect as number)
          : 0,
      _pMiss: (d: Record<string, unknown>) =>
        d.action === "auto" && d.pCorrect == null ? 1 : 0,
      _parseFail: (d: Record<string, unknown>) => d.parseOk ? 0 : 1,
    })
    .groupby("modelId", "severity", "trueClass")
    .rollup({
      n: op.count(),
      correct: op.sum("_correct"),
      escalated: op.sum("_esc"),
      autoErrors: op.sum("_autoErr"),
      pErrorSum: op.sum("_pErr"),
      pMissing: op.sum("_pMiss"),
      parseFailures: op.sum("_parseFail"),
    });
  const rows = rolled.objects() as Array<Record<string, unknown>>;
  return sortStats(rows.map((r) => ({
    modelId: r.modelId as string,
    severity: r.severity as Severity,
    trueClass: r.trueClass as string,
    n: r.n as number,
    correct: r.correct as number,
    escalated: r.escalated as number,
    autoErrors: r.autoErrors as number,
    pErrorSum: r.pErrorSum as number,
    pMissing: r.pMissing as number,
    parseFailures: r.parseFailures as number,
  })));
}
