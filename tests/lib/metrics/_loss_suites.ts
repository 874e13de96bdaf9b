// Seeded heavy-tailed suites with known truth, for the coverage tests of
// loss intervals and the size tests of compare. Written for these tests:
// counts per (severity, gold class) are fixed, each decision errs with its
// severity's rate, an erring exception is missed (70%) or given another
// exception type (30%), an erring clean item is a false alarm.
import type { CostProfile } from "../../../lib/costs/profile.ts";
import { SEVERITIES, type Severity } from "../../../lib/costs/severity.ts";
import {
  CONSEQUENCE_MATRIX,
  type CostMatrix,
  ruleCost,
} from "../../../lib/metrics/loss.ts";
import {
  multinomial,
  type Prng,
  seededPrng,
} from "../../../lib/math/sampling.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { decision } from "../../_helpers.ts";
import type { StatsRow } from "../../../lib/metrics/sufficient_stats.ts";
import type { PairedRow } from "../../../lib/metrics/bootstrap.ts";
import type { PairedTaskGroup } from "../../../lib/metrics/paired_loss_test.ts";

/** Error rates per severity of the reference study: 0.10/0.05/0.02/0.01. */
export const HEAVY_RATES: Readonly<Record<Severity, number>> = {
  LOW: 0.10,
  MEDIUM: 0.05,
  HIGH: 0.02,
  CRITICAL: 0.01,
};

/**
 * Error rates for the size tests of compare: three times the reference
 * study's (0.30/0.15/0.06/0.03), so that under principal_risk a few
 * 100,000-unit misses dominate the per-task differences of most pairs.
 */
export const COMPARE_RATES: Readonly<Record<Severity, number>> = {
  LOW: 0.30,
  MEDIUM: 0.15,
  HIGH: 0.06,
  CRITICAL: 0.03,
};

/** Shares of decisions per severity: CRITICAL is rare (5%). */
export const SEVERITY_SHARES: Readonly<Record<Severity, number>> = {
  LOW: 0.45,
  MEDIUM: 0.30,
  HIGH: 0.20,
  CRITICAL: 0.05,
};

/** One fixed cell of a suite: decisions per severity and gold class. */
export interface SuiteCell {
  readonly severity: Severity;
  readonly trueClass: string;
  readonly n: number;
}

/** Fixed cells of a suite of about n decisions: 30% exceptions in each severity. */
export function suiteCells(n: number): SuiteCell[] {
  const out: SuiteCell[] = [];
  for (const s of SEVERITIES) {
    const ns = Math.max(2, Math.round(n * SEVERITY_SHARES[s]));
    const exc = Math.max(1, Math.round(ns * 0.3));
    out.push({ severity: s, trueClass: `${s}_EXC`, n: exc });
    out.push({ severity: s, trueClass: "MATCH", n: ns - exc });
  }
  return out;
}

/** Per-decision probabilities of [correct, missed, wrongType] or [correct, falseAlarm]. */
export function kindProbs(cell: SuiteCell, rate: number): number[] {
  return cell.trueClass === "MATCH"
    ? [1 - rate, rate]
    : [1 - rate, 0.7 * rate, 0.3 * rate];
}

/** The true expected loss of a model with these rates on these cells. */
export function trueLoss(
  cells: readonly SuiteCell[],
  rates: Readonly<Record<Severity, number>>,
  profile: CostProfile,
  matrix: CostMatrix = CONSEQUENCE_MATRIX,
): number {
  let loss = 0;
  for (const c of cells) {
    const p = kindProbs(c, rates[c.severity]);
    const outcomes = c.trueClass === "MATCH"
      ? (["correct", "falseAlarm"] as const)
      : (["correct", "missed", "wrongType"] as const);
    outcomes.forEach((o, i) => {
      loss += c.n * p[i] * ruleCost(matrix.auto[o], profile, c.severity);
    });
  }
  return loss;
}

function rowsOf(
  modelId: string,
  cell: SuiteCell,
  counts: readonly number[],
  taskShare?: readonly number[],
  unitCostPairs?: readonly number[],
): StatsRow[] {
  const preds = cell.trueClass === "MATCH"
    ? ["MATCH", `${cell.severity}_EXC`]
    : [cell.trueClass, "MATCH", `${cell.severity}_OTHER`];
  return preds.map((predClass, i) => ({
    modelId,
    severity: cell.severity,
    trueClass: cell.trueClass,
    predClass,
    action: "auto" as const,
    n: counts[i],
    pErrorSum: 0,
    pMissing: counts[i],
    parseFailures: 0,
    ...(taskShare ? { taskShare: taskShare[i] } : {}),
    ...(unitCostPairs ? { unitCostPairs: unitCostPairs[i] } : {}),
  })).filter((r) => r.n > 0);
}

/** One simulated run of one model on the fixed cells, as sufficient statistics. */
export function simulateStats(
  rng: Prng,
  cells: readonly SuiteCell[],
  rates: Readonly<Record<Severity, number>>,
  modelId = "m",
): StatsRow[] {
  return cells.flatMap((c) =>
    rowsOf(modelId, c, multinomial(rng, c.n, kindProbs(c, rates[c.severity])))
  );
}

/**
 * A run with `trials` trials per task and strongly correlated trials: each
 * task draws its own error rate, 0 with probability 1 - q and
 * rate / q with probability q (q = 0.2), so the mean rate is kept but a
 * task's trials fail together, misses and wrong types mixed. Cells hold `n`
 * decisions = tasks × trials; the clustered rows carry `taskShare` and
 * `unitCostPairs` (every wrong decision can cost).
 */
export function simulateClustered(
  rng: Prng,
  cells: readonly SuiteCell[],
  rates: Readonly<Record<Severity, number>>,
  trials: number,
  modelId = "m",
): { clustered: StatsRow[]; naive: StatsRow[] } {
  const q = 0.2;
  const clustered: StatsRow[] = [];
  const naive: StatsRow[] = [];
  for (const c of cells) {
    const tasks = Math.round(c.n / trials);
    const probs = kindProbs(c, rates[c.severity] / q);
    const counts = probs.map(() => 0);
    const share = probs.map(() => 0);
    const pairs = probs.map(() => 0);
    for (let t = 0; t < tasks; t++) {
      const bad = rng.next() < q;
      const k = bad
        ? multinomial(rng, trials, probs)
        : [trials, ...probs.slice(1).map(() => 0)];
      const wrong = trials - k[0];
      k.forEach((v, i) => {
        counts[i] += v;
        share[i] += v / trials;
        pairs[i] += v * wrong;
      });
    }
    const cell = { ...c, n: tasks * trials };
    clustered.push(...rowsOf(modelId, cell, counts, share, pairs));
    naive.push(...rowsOf(modelId, cell, counts));
  }
  return { clustered, naive };
}

/** Cells of a clustered suite with `trials` trials per task (n counts decisions). */
export function clusteredCells(
  cells: readonly SuiteCell[],
  trials: number,
): SuiteCell[] {
  return cells.map((c) => ({ ...c, n: Math.round(c.n / trials) * trials }));
}

/**
 * Two exchangeable models on the same tasks: each task's kind is drawn
 * independently for A and B from the same probabilities. Returns the task
 * groups (for the sign-flip test) and the paired cells (for the bootstrap).
 */
export function simulatePair(
  rng: Prng,
  cells: readonly SuiteCell[],
  rates: Readonly<Record<Severity, number>>,
): { groups: PairedTaskGroup[]; rows: PairedRow[] } {
  const groups: PairedTaskGroup[] = [];
  const rows: PairedRow[] = [];
  for (const c of cells) {
    const probs = kindProbs(c, rates[c.severity]);
    const preds = c.trueClass === "MATCH"
      ? ["MATCH", `${c.severity}_EXC`]
      : [c.trueClass, "MATCH", `${c.severity}_OTHER`];
    const joint = new Map<string, number>();
    for (let t = 0; t < c.n; t++) {
      const pick = () => {
        let u = rng.next();
        for (let k = 0; k < probs.length; k++) {
          if (u < probs[k]) return k;
          u -= probs[k];
        }
        return probs.length - 1;
      };
      const key = `${pick()}/${pick()}`;
      joint.set(key, (joint.get(key) ?? 0) + 1);
    }
    for (const [key, n] of joint) {
      const [i, j] = key.split("/").map(Number);
      groups.push({
        severity: c.severity,
        trueClass: c.trueClass,
        a: [{ predClass: preds[i], action: "auto", n: 1 }],
        b: [{ predClass: preds[j], action: "auto", n: 1 }],
        tasks: n,
      });
      rows.push({
        severity: c.severity,
        trueClass: c.trueClass,
        predA: preds[i],
        actionA: "auto",
        predB: preds[j],
        actionB: "auto",
        n,
      });
    }
  }
  return { groups, rows };
}

/**
 * A suite whose items come from source documents that fail together: the
 * items of `cells`, shuffled once (seed 11) into sources of `perSource`; in
 * each suite drawn, each model's source is bad with probability `bad`, its
 * items then err at their severity's rate divided by `bad` (the kinds of
 * {@linkcode kindProbs}), the items of a good source never: each item errs
 * at its rate, and a source's items fail together. Decisions name their
 * source as `cluster`.
 */
export function sourceSuite(
  cells: readonly SuiteCell[],
  perSource: number,
  bad: number,
): (rng: Prng, modelIds: readonly string[]) => Decision[] {
  const items = cells.flatMap((c, i) => Array.from({ length: c.n }, () => i));
  const shuffle = seededPrng(11);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(shuffle.next() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return (rng, modelIds) => {
    const out: Decision[] = [];
    for (const modelId of modelIds) {
      for (let s = 0; s * perSource < items.length; s++) {
        const isBad = rng.next() < bad;
        for (let k = s * perSource; k < (s + 1) * perSource; k++) {
          const c = cells[items[k]];
          const kind = isBad
            ? multinomial(rng, 1, kindProbs(c, HEAVY_RATES[c.severity] / bad))
              .indexOf(1)
            : 0;
          out.push(decision({
            modelId,
            taskId: `item-${k}`,
            cluster: `source-${s}`,
            severity: c.severity,
            trueClass: c.trueClass,
            predClass: kind === 0
              ? c.trueClass
              : c.trueClass === "MATCH"
              ? `${c.severity}_EXC`
              : kind === 1
              ? "MATCH"
              : `${c.severity}_OTHER`,
          }));
        }
      }
    }
    return out;
  };
}
