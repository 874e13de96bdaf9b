// Seeded designs with known truth for the calibration of P(best): a few
// models answer a fixed suite whose tasks are all exceptions, one gold class
// per severity; each model misses a task of severity s with its own rate,
// base(s) · exp(spread(s) · Z), Z ~ N(0, 1), drawn afresh in every
// replication. The truly best model has the lowest expected loss under the
// true rates. Written for tests/lib/metrics/pbest_calibration_test.ts and
// scripts/pbest_calibration.ts.
import type { CostProfile } from "../../../lib/costs/profile.ts";
import { SEVERITIES, type Severity } from "../../../lib/costs/severity.ts";
import {
  binomial,
  normal,
  type Prng,
  seededPrng,
} from "../../../lib/math/sampling.ts";
import {
  lossPosterior,
  posteriorLossDraws,
} from "../../../lib/metrics/loss_posterior.ts";
import { pooledProbabilityBest } from "../../../lib/metrics/pooled_posterior.ts";
import { probabilityBest } from "../../../lib/metrics/rank_probability.ts";
import {
  forModel,
  modelIds,
  type StatsRow,
} from "../../../lib/metrics/sufficient_stats.ts";

/** A design: tasks and base miss rates per severity, the spread of the models' log-rates, and how many models. */
export interface PBestDesign {
  readonly tasks: Readonly<Record<Severity, number>>;
  readonly base: Readonly<Record<Severity, number>>;
  readonly spread: Readonly<Record<Severity, number>>;
  readonly models: number;
}

const each = (v: number) =>
  Object.fromEntries(SEVERITIES.map((s) => [s, v])) as Record<Severity, number>;

/** Design (P): 3 models on 300 tasks (120/90/60/30), base 0.08/0.05/0.03/0.015, spread 0.5. */
export const DESIGN_P: PBestDesign = {
  tasks: { LOW: 120, MEDIUM: 90, HIGH: 60, CRITICAL: 30 },
  base: { LOW: 0.08, MEDIUM: 0.05, HIGH: 0.03, CRITICAL: 0.015 },
  spread: each(0.5),
  models: 3,
};

/** Bin edges of the reliability table. */
export const EDGES: readonly number[] = [0, 0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 1];

/** Bins with fewer cases are shown but not held to the bound. */
export const MIN_BIN = 60;

/** One simulated replication: the statistics and the true rates per model. */
export function simulateDesign(
  rng: Prng,
  design: PBestDesign,
): { stats: StatsRow[]; rates: Record<Severity, number>[] } {
  const rates = Array.from(
    { length: design.models },
    () =>
      Object.fromEntries(SEVERITIES.map((s) => [
        s,
        Math.min(1, design.base[s] * Math.exp(design.spread[s] * normal(rng))),
      ])) as Record<Severity, number>,
  );
  const stats: StatsRow[] = [];
  rates.forEach((r, m) => {
    for (const s of SEVERITIES) {
      const n = design.tasks[s];
      const missed = binomial(rng, n, r[s]);
      const row = {
        modelId: `m${m}`,
        severity: s,
        trueClass: `${s}_EXC`,
        action: "auto" as const,
        pErrorSum: 0,
        pMissing: 0,
        parseFailures: 0,
      };
      if (n - missed > 0) {
        stats.push({ ...row, predClass: `${s}_EXC`, n: n - missed });
      }
      if (missed > 0) stats.push({ ...row, predClass: "MATCH", n: missed });
    }
  });
  return { stats, rates };
}

/** The classes of a design's runs: every severity's exception class and the clean class. */
export const DESIGN_CLASSES: readonly string[] = [
  ...SEVERITIES.map((s) => `${s}_EXC`),
  "MATCH",
];

/** A way to state P(best): per profile id, per model id, or null where it is not stated. */
export type PBestMethod = (
  stats: readonly StatsRow[],
  profiles: readonly CostProfile[],
  seed: number,
) => Record<string, Record<string, number> | null>;

/** P(best) as `score` states it: the pooled posterior, null where the pooling carries more than half of the comparison. */
export function statedMethod(draws: number): PBestMethod {
  return (stats, profiles, seed) => {
    const out = pooledProbabilityBest(stats, profiles, {
      draws,
      seed,
      classes: DESIGN_CLASSES,
    });
    return Object.fromEntries(profiles.map((p) => [p.id, out[p.id].pBest]));
  };
}

/** P(best) as earlier versions stated it: each model's own Jeffreys draws, independent across models. */
export function independentMethod(draws: number): PBestMethod {
  return (stats, profiles, seed) => {
    const posts = modelIds(stats).map((m, i) =>
      [
        m,
        lossPosterior(forModel(stats, m), {
          draws,
          seed: seed * 31 + i,
          classes: DESIGN_CLASSES,
        }),
      ] as const
    );
    return Object.fromEntries(profiles.map((p) => [
      p.id,
      probabilityBest(
        Object.fromEntries(
          posts.map(([m, post]) => [m, posteriorLossDraws(post, p)]),
        ),
      ),
    ]));
  };
}

/** One bin of a reliability table. */
export interface PBestBin {
  readonly lo: number;
  readonly hi: number;
  readonly n: number;
  /** Mean stated P(best); null in an empty bin. */
  readonly stated: number | null;
  /** Share of the bin's cases that were truly best; null in an empty bin. */
  readonly share: number | null;
  /** The bound |share − stated| is held to: max(0.1, 2·SE). */
  readonly bound: number | null;
}

/** A reliability table: its bins, and the replications in which P(best) was stated. */
export interface PBestTable {
  readonly bins: PBestBin[];
  readonly stated: number;
  readonly reps: number;
}

/** Reliability tables per profile over `reps` replications (each model of each replication where P(best) is stated is one case). */
export function calibrationTable(
  method: PBestMethod,
  design: PBestDesign,
  profiles: readonly CostProfile[],
  reps: number,
  seed: number,
): Record<string, PBestTable> {
  const rng = seededPrng(seed);
  const acc = Object.fromEntries(
    profiles.map((p) => [p.id, EDGES.slice(1).map(() => [0, 0, 0])]),
  );
  const shown = Object.fromEntries(profiles.map((p) => [p.id, 0]));
  for (let r = 0; r < reps; r++) {
    const { stats, rates } = simulateDesign(rng, design);
    const stated = method(stats, profiles, r);
    for (const p of profiles) {
      const sp = stated[p.id];
      if (sp === null) continue;
      shown[p.id]++;
      const truth = rates.map((rate) =>
        SEVERITIES.reduce((a, s) => a + design.tasks[s] * rate[s] * p.K[s], 0)
      );
      const best = truth.indexOf(Math.min(...truth));
      truth.forEach((_, m) => {
        const v = sp[`m${m}`];
        let b = 0;
        while (b < EDGES.length - 2 && v >= EDGES[b + 1]) b++;
        const cell = acc[p.id][b];
        cell[0]++;
        cell[1] += v;
        if (m === best) cell[2]++;
      });
    }
  }
  return Object.fromEntries(profiles.map((p) => [p.id, {
    reps,
    stated: shown[p.id],
    bins: acc[p.id].map(([n, sum, hits], b) => {
      const stated = n === 0 ? null : sum / n;
      return {
        lo: EDGES[b],
        hi: EDGES[b + 1],
        n,
        stated,
        share: n === 0 ? null : hits / n,
        bound: stated === null
          ? null
          : Math.max(0.1, 2 * Math.sqrt(stated * (1 - stated) / n)),
      };
    }),
  }]));
}

/** The largest |share − stated| − bound over the bins of at least MIN_BIN cases (<= 0 when every bin holds). */
export function worstExcess(table: Record<string, PBestTable>): number {
  let worst = -Infinity;
  for (const { bins } of Object.values(table)) {
    for (const b of bins) {
      if (b.n < MIN_BIN) continue;
      worst = Math.max(worst, Math.abs(b.share! - b.stated!) - b.bound!);
    }
  }
  return worst;
}

/** The table as markdown: per profile, the replications where P(best) was stated, and per bin n, mean stated and share truly best. */
export function formatTable(table: Record<string, PBestTable>): string {
  const lines = [
    "| profile | stated in | bin | n | mean stated | share truly best |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  for (const [id, { bins, stated, reps }] of Object.entries(table)) {
    if (stated === 0) {
      lines.push(`| ${id} | 0 of ${reps} | | | | |`);
      continue;
    }
    for (const b of bins) {
      if (b.n === 0) continue;
      const miss = b.n >= MIN_BIN && Math.abs(b.share! - b.stated!) > b.bound!;
      lines.push(
        `| ${id} | ${stated} of ${reps} | [${b.lo}, ${b.hi}) | ${b.n} | ${
          b.stated!.toFixed(3)
        } | ${b.share!.toFixed(3)}${miss ? " (outside)" : ""} |`,
      );
    }
  }
  return lines.join("\n");
}
