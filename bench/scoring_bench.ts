// Scoring benchmarks. Each group has a baseline measured in the same run, so
// the summary reads as a ratio, which survives a noisy machine.
//   deno task bench --only bench-scoring   (or: deno bench -A bench/scoring_bench.ts)
import { defineProfile } from "../lib/costs/profile.ts";
import { SEVERITIES } from "../lib/costs/severity.ts";
import { realisedLoss } from "../lib/metrics/loss.ts";
import {
  accuracyCounts,
  type Counts,
  recallCounts,
} from "../lib/metrics/accuracy.ts";
import {
  bootstrapIntervals,
  bootstrapRatioIntervals,
  countRatio,
} from "../lib/metrics/bootstrap.ts";
import type { StatsRow } from "../lib/metrics/sufficient_stats.ts";
import type { Decision } from "../lib/decision/decision.ts";
import { decisionStats } from "../lib/decision/decision_stats.ts";
import {
  decisionTable,
  parseDecisionsJsonl,
} from "../lib/read/load_decisions.ts";

const N = 200_000;
const PROFILES = 1_000;
const classes = ["MATCH", "AMOUNT_MISMATCH", "PARTIAL_MATCH", "DUPLICATE"];
// A fixed linear congruential sequence: the same decisions every run.
let state = 12345;
const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const decisions: Decision[] = Array.from({ length: N }, (_, i) => {
  const trueClass = classes[Math.floor(next() * classes.length)];
  return {
    runId: "bench",
    modelId: `m${i % 3}`,
    taskId: `t${i}`,
    trial: 0,
    severity: SEVERITIES[Math.floor(next() * 4)],
    trueClass,
    predClass: next() < 0.9 ? trueClass : "MATCH",
    parseOk: true,
    pCorrect: next(),
    action: next() < 0.1 ? "escalate" : "auto",
    cost: { completeness: "complete", usd: 0.001 },
    outcome: "resolved",
  };
});
const profiles = Array.from({ length: PROFILES }, (_, i) =>
  defineProfile({
    id: `p${i}`,
    K: { LOW: 1, MEDIUM: 1 + i, HIGH: 10 + 10 * i, CRITICAL: 100 + 100 * i },
    reviewCost: 1,
  }));
const table = decisionTable(decisions);
const lines = decisions.map((d) => JSON.stringify(d)).join("\n");

Deno.bench({
  name:
    `loss under ${PROFILES} profiles: re-scan ${N} rows per profile (naive)`,
  group: "sweep",
  baseline: true,
  fn() {
    for (const p of profiles) {
      const loss = new Map<string, number>();
      for (const d of decisions) {
        const c = d.action === "escalate"
          ? p.reviewCost
          : d.predClass !== d.trueClass
          ? p.K[d.severity]
          : 0;
        loss.set(d.modelId, (loss.get(d.modelId) ?? 0) + c);
      }
    }
  },
});

Deno.bench({
  name:
    `loss under ${PROFILES} profiles: one decisionStats() pass, then sufficient statistics`,
  group: "sweep",
  fn() {
    const stats = decisionStats(table);
    for (const p of profiles) {
      for (const m of ["m0", "m1", "m2"]) {
        realisedLoss(stats.filter((r) => r.modelId === m), p);
      }
    }
  },
});

Deno.bench({
  name: `read ${N} JSONL lines: bare JSON.parse loop (floor)`,
  group: "load",
  baseline: true,
  fn() {
    let n = 0;
    for (const line of lines.split("\n")) n += JSON.parse(line).trial;
    if (n !== 0) throw new Error("unexpected");
  },
});

Deno.bench({
  name: `read ${N} JSONL lines: parseDecisionsJsonl() with validation`,
  group: "load",
  fn() {
    parseDecisionsJsonl(lines);
  },
});

// score's bootstrap of accuracy and the four recalls, 1,000 resamples of one
// model's cells: each resample rebuilt as cells (the general function) or
// counted (the ratio function); the same intervals, a test pins it
const modelCells = decisionStats(table).filter((r) => r.modelId === "m0");
const value = (c: Counts) => c.n === 0 ? null : c.k / c.n;
const bySeverity = <T>(f: (s: typeof SEVERITIES[number]) => T) =>
  Object.fromEntries(SEVERITIES.map((s) => [s, f(s)]));

Deno.bench({
  name:
    "bootstrap accuracy and 4 recalls, 1,000 resamples: cells rebuilt per resample",
  group: "bootstrap",
  baseline: true,
  fn() {
    bootstrapIntervals(modelCells, {
      accuracy: (s) => value(accuracyCounts(s)),
      ...bySeverity((sev) => (s: readonly StatsRow[]) =>
        value(recallCounts(s)[sev])
      ),
    }, { seed: 1 });
  },
});

Deno.bench({
  name:
    "bootstrap accuracy and 4 recalls, 1,000 resamples: counted (bootstrapRatioIntervals)",
  group: "bootstrap",
  fn() {
    bootstrapRatioIntervals(modelCells, {
      accuracy: countRatio(accuracyCounts),
      ...bySeverity((sev) => countRatio((s) => recallCounts(s)[sev])),
    }, { seed: 1 });
  },
});
