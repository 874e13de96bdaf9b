// Seeded runs whose tasks are answered in several trials sharing the task's
// difficulty, with known truth, for the coverage tests of the accuracy and
// recall intervals (tests/lib/metrics/accuracy_interval_test.ts and
// scripts/accuracy_interval_coverage.ts). Written for these tests: a task
// of severity s errs on each of its trials with probability
// logit⁻¹(logit(base_s) + sigma·z), z ~ N(0, 1) drawn once per task; its
// trials are independent given z. Every task is an exception, so recall per
// severity and accuracy count the same decisions; an error is a miss.
import { SEVERITIES, type Severity } from "../../../lib/costs/severity.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { normal, type Prng } from "../../../lib/math/sampling.ts";
import type { StatsRow } from "../../../lib/metrics/sufficient_stats.ts";
import { accuracy } from "../../../lib/metrics/accuracy.ts";
import { _logGamma } from "../../../lib/math/_special.ts";
import { statsOfDecisionList } from "../../../lib/read/_stats_builder.ts";
import { decision } from "../../_helpers.ts";

/** A design: tasks and base error rate per severity, the spread of difficulty, trials per task. */
export interface EpochDesign {
  /** Tasks per severity. */
  readonly tasks: Readonly<Record<Severity, number>>;
  /** Error rate per severity of a task of median difficulty (z = 0). */
  readonly base: Readonly<Record<Severity, number>>;
  /** Standard deviation of a task's difficulty on the logit scale. */
  readonly sigma: number;
  /** Trials of each task: a number, or one drawn per task. */
  readonly trials: number | ((rng: Prng) => number);
}

/**
 * 50 tasks (20/15/10/5 at LOW/MEDIUM/HIGH/CRITICAL) of 5 trials, base
 * error 0.10/0.06/0.04/0.02, difficulty spread 1.5 on the logit scale.
 */
export const EPOCH_DESIGN: EpochDesign = {
  tasks: { LOW: 20, MEDIUM: 15, HIGH: 10, CRITICAL: 5 },
  base: { LOW: 0.10, MEDIUM: 0.06, HIGH: 0.04, CRITICAL: 0.02 },
  sigma: 1.5,
  trials: 5,
};

const logit = (p: number) => Math.log(p / (1 - p));
const expit = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * The expected error rate of a task of a severity, over its difficulty:
 * E[logit⁻¹(logit(base) + sigma·z)], by the trapezoid rule on z in [-9, 9]
 * with step 1/1000 (error far below 1e-9).
 */
export function meanErrorRate(base: number, sigma: number): number {
  let num = 0;
  let den = 0;
  for (let i = -9000; i <= 9000; i++) {
    const z = i / 1000;
    const w = Math.exp(-z * z / 2);
    num += w * expit(logit(base) + sigma * z);
    den += w;
  }
  return num / den;
}

/**
 * The truth of a design: recall per severity, the expected share of its
 * tasks' trials answered right; accuracy, their mean weighted by tasks
 * (every task has the same expected trial count).
 */
export function designTruth(
  d: EpochDesign,
): { accuracy: number; recall: Record<Severity, number> } {
  const recall = Object.fromEntries(
    SEVERITIES.map((s) => [s, 1 - meanErrorRate(d.base[s], d.sigma)]),
  ) as Record<Severity, number>;
  let tasks = 0;
  let right = 0;
  for (const s of SEVERITIES) {
    tasks += d.tasks[s];
    right += d.tasks[s] * recall[s];
  }
  return { accuracy: right / tasks, recall };
}

/** The decisions of one simulated run of a design, one model. */
export function simulateEpochs(rng: Prng, d: EpochDesign): Decision[] {
  const out: Decision[] = [];
  for (const severity of SEVERITIES) {
    for (let t = 0; t < d.tasks[severity]; t++) {
      const p = expit(logit(d.base[severity]) + d.sigma * normal(rng));
      const trials = typeof d.trials === "number" ? d.trials : d.trials(rng);
      for (let k = 0; k < trials; k++) {
        out.push(decision({
          taskId: `${severity}-${t}`,
          trial: k,
          severity,
          trueClass: "AMOUNT_MISMATCH",
          predClass: rng.next() < p ? "MATCH" : "AMOUNT_MISMATCH",
          pCorrect: null,
        }));
      }
    }
  }
  return out;
}

/** The sufficient statistics of one simulated run, from lossbook's in-process reader. */
export function simulateEpochStats(rng: Prng, d: EpochDesign): StatsRow[] {
  return statsOfDecisionList(simulateEpochs(rng, d), "simulated").stats;
}

/** The 2.5% and 97.5% quantiles of values (type 7), and their distance. */
export function spreadOf(
  values: readonly number[],
): { lo: number; hi: number; width: number } {
  const xs = [...values].sort((a, b) => a - b);
  const q = (p: number) => {
    const h = (xs.length - 1) * p;
    const i = Math.floor(h);
    return xs[i] + (h - i) * ((xs[Math.min(i + 1, xs.length - 1)]) - xs[i]);
  };
  const lo = q(0.025);
  const hi = q(0.975);
  return { lo, hi, width: hi - lo };
}

/**
 * The exact coverage of score's accuracy interval with one trial per task:
 * n tasks, each right with probability p, so k ~ Binomial(n, p); the sum of
 * P(k) over the k whose interval (from cells as every reader builds them,
 * `taskShare` = `taskTrialsSum` = n) holds p.
 */
export function binomialCoverage(n: number, p: number): number {
  const cell = {
    modelId: "m",
    severity: "LOW",
    trueClass: "X",
    action: "auto",
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
  } as const;
  const logC = _logGamma(n + 1);
  let covered = 0;
  for (let k = 0; k <= n; k++) {
    const ci = accuracy([
      { ...cell, predClass: "X", n: k, taskShare: k, taskTrialsSum: k },
      {
        ...cell,
        predClass: "Y",
        n: n - k,
        taskShare: n - k,
        taskTrialsSum: n - k,
      },
    ]).interval!;
    if (!(ci.lo <= p && p <= ci.hi)) continue;
    covered += Math.exp(
      logC - _logGamma(k + 1) - _logGamma(n - k + 1) + k * Math.log(p) +
        (n - k) * Math.log1p(-p),
    );
  }
  return covered;
}
