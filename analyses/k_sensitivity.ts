/**
 * K-sensitivity: what the ranking of models does as costs vary (`third-number`, K-sensitivity).
 *
 * Never at one chosen K. Simulated models answer the three shipped suites;
 * each reduces once to a loss coefficient vector, and every profile after
 * that is a dot product. The analysis sweeps a log grid of spans from 1x to
 * 100,000x, the four shipped profiles, Monte Carlo draws within the
 * registry's ranges and a grid of (K(HIGH)/K(LOW), K(CRITICAL)/K(HIGH));
 * reports winners, exact crossovers, flips, Kendall tau against the accuracy
 * ranking, win shares, the regret of choosing by accuracy and the
 * rank-reversal distance; and counts the (suite, profile) pairs where cost
 * weighting changes the winner.
 *
 * @module
 */

import * as aq from "arquero";
import { heatmapChart } from "../lib/charts/heatmap_chart.ts";
import { lineChart } from "../lib/charts/line_chart.ts";
import { type Claim, claimClose, claimEqual } from "../lib/claims/claim.ts";
import type { AnalysisResult } from "../lib/claims/analysis_result.ts";
import {
  getProfile,
  SHIPPED_PROFILES,
  SHIPPED_REGISTRY,
} from "../lib/costs/load.ts";
import {
  type CostProfile,
  defineProfile,
  profileSpan,
} from "../lib/costs/profile.ts";
import { getAnchor, profileFromAnchor } from "../lib/costs/registry.ts";
import { SEVERITIES } from "../lib/costs/severity.ts";
import {
  CONSEQUENCE_MATRIX,
  type CostMatrix,
  realisedLoss,
  STRICT_MATRIX,
} from "../lib/metrics/loss.ts";
import { forModel, type StatsRow } from "../lib/metrics/sufficient_stats.ts";
import { decisionStats } from "../lib/decision/decision_stats.ts";
import { decisionTable } from "../lib/read/load_decisions.ts";
import { suiteDecisions } from "./_suite.ts";
import {
  costFamily,
  familyProfile,
  logGrid,
} from "../lib/sensitivity/cost_family.ts";
import { crossoverRatio } from "../lib/sensitivity/crossover.ts";
import { sweepFamily } from "../lib/sensitivity/family_sweep.ts";
import {
  type LossCoefficients,
  lossCoefficients,
} from "../lib/sensitivity/loss_coefficients.ts";
import { rankReversalDistance } from "../lib/sensitivity/rank_reversal.ts";
import {
  DRAW_DISTRIBUTIONS,
  drawRegistryProfiles,
  PAYMENTS_ANCHOR_MAP,
} from "../lib/sensitivity/registry_draws.ts";
import { type Sweep, sweepProfiles } from "../lib/sensitivity/sweep.ts";

const SOURCE = "third-number: K-sensitivity; lossbench: its K sweep";

/** The three shipped suites (seed 777, 300 tasks each). */
export const SENSITIVITY_SUITES: readonly string[] = [
  "data/tasks/reconciliation_777_300.jsonl",
  "data/tasks/payment_repair_777_300.jsonl",
  "data/tasks/settlement_777_300.jsonl",
];

/** Simulated models that act on their answers (the zoo without the baselines). */
export const AUTOMATED_MODELS: readonly string[] = [
  "frontier_even",
  "small_severity_shaped",
  "constant_confidence",
];

/** The contestants of the sweeps: the automated models and the always-escalate baseline. */
export const SENSITIVITY_MODELS: readonly string[] = [
  ...AUTOMATED_MODELS,
  "always_escalate",
];

/** Options for {@linkcode kSensitivity}. */
export interface KSensitivityOptions {
  /**
   * Your own profiles: each gets a row in `profiles` with its winner, Kendall
   * tau, regret and rank-reversal distance. Claims always check the
   * defaults. Default: none.
   */
  profiles?: readonly CostProfile[];
  /** Seed of the simulated runs. Default: 1. */
  seed?: number;
  /** Seed of the registry draws. Default: 20,261,105. */
  drawSeed?: number;
  /** Monte Carlo draws per distribution. Default: 2,000. */
  draws?: number;
  /** Points of the span grid from 1 to 100,000. Default: 61. */
  points?: number;
}

/**
 * The registry-derived profiles of the winner-share count: every anchor of
 * the shipped registry spread over the severity ladder (LOW = low, MEDIUM =
 * √(low·typical), HIGH = typical, CRITICAL = high, see `profileFromAnchor`),
 * with the review cost of a typical AML false-positive review ($6.50).
 *
 * @returns Ten profiles, in registry order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { registryLadderProfiles } from "./k_sensitivity.ts";
 *
 * const ladders = registryLadderProfiles();
 * assert.equal(ladders.length, 10);
 * assert.deepEqual(ladders[1].K, { LOW: 1e6, MEDIUM: Math.sqrt(5e12), HIGH: 5e6, CRITICAL: 1e7 });
 * assert.equal(ladders[1].reviewCost, 6.5);
 * ```
 */
export function registryLadderProfiles(): CostProfile[] {
  return SHIPPED_REGISTRY.anchors.map((a) =>
    profileFromAnchor(SHIPPED_REGISTRY, a.id, {
      reviewCost: { anchor: "false_positive_review" },
    })
  );
}

function only(
  coefficients: readonly LossCoefficients[],
  models: readonly string[],
): LossCoefficients[] {
  return coefficients.filter((c) => models.includes(c.modelId));
}

function label(v: number): string {
  return v.toLocaleString("en-US", { maximumSignificantDigits: 2 });
}

function round(v: number, digits = 6): number {
  return Number(v.toPrecision(digits));
}

/**
 * Sweep costs over simulated models and report how the ranking moves.
 *
 * Four simulated models (frontier_even, small_severity_shaped,
 * constant_confidence and the always_escalate baseline; the oracle, which
 * wins everywhere, is left out) answer the three shipped suites with seed 1,
 * 900 decisions each, scored per decision under the consequence matrix.
 *
 * - Span sweep: K = (1, 1, r, r) for r on a 61-point log grid from 1 to
 *   100,000, so r is the span and r = 1 the flat profile.
 * - Crossovers, exact, along that family and along LossBench's
 *   (reconciliation with K(HIGH) and K(CRITICAL) × r); the 5.8.
 * - The four shipped profiles, with the rank-reversal distance.
 * - Monte Carlo: 2,000 draws per distribution (log-uniform, triangular,
 *   log-triangular) within the registry ranges of the payments ladder
 *   (LOW chargeback, MEDIUM misposted_ach, HIGH misrouted_wire, CRITICAL
 *   settlement_failure; review false_positive_review), with and without the
 *   always-escalate baseline.
 * - Win regions over K(HIGH)/K(LOW) and K(CRITICAL)/K(HIGH), with K(LOW) =
 *   1, K(MEDIUM) = √K(HIGH) and review 1.
 * - The share of (suite, profile) pairs, over the three suites and the ten
 *   registry ladder profiles, where the loss winner is not the accuracy
 *   winner.
 *
 * @param options Your own profiles, seeds, draws and grid size.
 * @returns Tables, charts `loss_vs_span`, `win_regions`, `kendall_tau_vs_span`, and claims.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kSensitivity } from "./k_sensitivity.ts";
 *
 * const result = kSensitivity({ draws: 200 });
 * assert.ok(result.claims.every((c) => c.holds));
 * ```
 */
export function kSensitivity(
  options: KSensitivityOptions = {},
): AnalysisResult {
  const seed = options.seed ?? 1;
  const drawSeed = options.drawSeed ?? 20_261_105;
  const draws = options.draws ?? 2_000;
  const points = options.points ?? 61;
  const extra = options.profiles ?? [];
  const claims: Claim[] = [];

  const perSuite = SENSITIVITY_SUITES.map((path) =>
    suiteDecisions(path, [...SENSITIVITY_MODELS, "oracle"], seed)
  );
  const pooledStats = decisionStats(
    decisionTable(
      perSuite.flat().filter((d) => d.modelId !== "oracle"),
    ),
  );
  const coefficients = lossCoefficients(pooledStats);

  // 1. The span sweep along K = (1, 1, r, r).
  const flatFamily = costFamily(getProfile("flat"));
  const span = sweepFamily(coefficients, flatFamily, {
    from: 1,
    to: 100_000,
    points,
  });
  const spanRows = span.points.map((p, i) => ({
    span: span.ratios[i],
    lossWinner: p.winners.join(" = "),
    accuracyWinner: span.accuracyWinners.join(" = "),
    kendallTau: p.kendallTau,
    regret: p.regret,
    disagrees: p.disagrees,
  }));
  const spanLossRows = span.points.flatMap((p, i) =>
    span.models.map((m, j) => ({
      span: span.ratios[i],
      model: m,
      loss: p.losses[j],
    }))
  );
  claims.push(
    claimEqual(
      "k_sensitivity.flat_point.tau",
      "At span 1 (the flat profile) Kendall's tau between the loss and accuracy rankings is 1",
      1,
      span.points[0].kendallTau,
      { kind: "property", source: "third-number: flat-cost theorem" },
    ),
    claimEqual(
      "k_sensitivity.flat_point.winner",
      "At span 1 the loss winner is the accuracy winner",
      span.accuracyWinners.join(" = "),
      span.points[0].winners.join(" = "),
      {
        kind: "derived",
        how: "the accuracy winners of the same models",
        source: "third-number: flat-cost theorem",
      },
    ),
    claimEqual(
      "k_sensitivity.grid_brackets_exact",
      "Every change of winner on the grid lies between two grid points that bracket an exact winner change",
      true,
      span.points.every((p, i) =>
        i === 0 ||
        p.winners.join() === span.points[i - 1].winners.join() ||
        span.winnerChanges.some((c) =>
          c.ratio >= span.ratios[i - 1] && c.ratio <= span.ratios[i]
        )
      ),
      {
        kind: "property",
        source:
          "third-number: K-sensitivity, crossovers are exact, the grid only samples them",
      },
    ),
    claimEqual(
      "k_sensitivity.winner_changes",
      "Along K = (1, 1, r, r) from 1x to 100,000x the winner changes at these exact spans (seeded simulation)",
      "frontier_even → small_severity_shaped at 60/7; small_severity_shaped → always_escalate at 830",
      span.winnerChanges.map((c) =>
        `${c.from.join(" = ")} → ${c.to.join(" = ")} at ${c.exact}`
      )
        .join("; "),
      {
        kind: "property",
        source: "lossbook: seeded simulation (seed 1); no published figure",
      },
    ),
  );

  // 2. Exact crossovers along both families; the 5.8.
  const lossbenchFamily = costFamily();
  const lossbench = sweepFamily(coefficients, lossbenchFamily, {
    from: 1,
    to: 100_000,
    points,
  });
  const crossoverRows = [
    ["flat base: HIGH, CRITICAL × r", span] as const,
    ["reconciliation base: HIGH, CRITICAL × r (LossBench)", lossbench] as const,
  ].flatMap(([family, s]) =>
    s.crossovers.map((x) => ({
      family,
      a: x.a,
      b: x.b,
      ratio: x.ratio,
      exact: x.exact,
      span: profileSpan(familyProfile(s.family, x.ratio)),
      changesWinner: s.winnerChanges.some((c) =>
        c.exact === x.exact &&
        c.from.includes(x.a) && c.to.includes(x.b)
      ),
    }))
  );
  let worstGap = 0;
  for (
    const [s, stats] of [[span, pooledStats], [lossbench, pooledStats]] as const
  ) {
    for (const x of s.crossovers) {
      const at = familyProfile(s.family, x.ratio);
      const la = realisedLoss(forModel(stats, x.a), at)!;
      const lb = realisedLoss(forModel(stats, x.b), at)!;
      worstGap = Math.max(worstGap, Math.abs(la - lb) / Math.max(la, lb));
    }
  }
  claims.push(claimClose(
    "k_sensitivity.crossovers_are_intersections",
    "At every reported crossover the two models' realised losses, recomputed from the cells, are equal (largest relative gap)",
    0,
    worstGap,
    {
      kind: "property",
      tolerance: 1e-12,
      source: "third-number: K-sensitivity, loss is linear in K",
    },
  ));
  const example = (modelId: string, low: number, high: number) => ({
    modelId,
    n: 10_000,
    correct: 10_000 - low - high,
    K: { LOW: low, MEDIUM: 0, HIGH: high, CRITICAL: 0 },
    review: 0,
    fixed: 0,
  });
  const exampleModels = [example("A", 100, 40), example("B", 3000, 30)];
  const example58 = crossoverRatio(
    exampleModels[0],
    exampleModels[1],
    lossbenchFamily,
  );
  const decades = sweepFamily(exampleModels, lossbenchFamily, {
    from: 1,
    to: 100_000,
    points: 6,
  });
  claims.push(
    claimEqual(
      "k_sensitivity.crossover_5_8",
      "A (100 LOW, 40 HIGH errors) and B (3,000 LOW, 30 HIGH) with K(LOW) = 0.2, K(HIGH) = 10 r lose 20 + 400 r and 600 + 300 r: they cross at r = 5.8 exactly",
      5.8,
      example58?.ratio ?? null,
      { kind: "property", source: "lossbook: loss linearity example" },
    ),
    claimEqual(
      "k_sensitivity.crossover_5_8.grid",
      "On a decade grid (1, 10, 100, ...) the first point where B wins is 10, the figure LossBench's grid reported",
      10,
      decades.ratios[decades.points.findIndex((p) => p.winners[0] === "B")],
      {
        kind: "property",
        source:
          "lossbook: exact crossover, where LossBench's grid reported 10.0",
      },
    ),
  );

  // 3. The shipped profiles and your own, with the rank-reversal distance.
  const profiles = [...SHIPPED_PROFILES, ...extra];
  const shipped = sweepProfiles(coefficients, profiles);
  const profileRows = shipped.points.map((p, i) => {
    const rr = rankReversalDistance(coefficients, profiles[i]);
    return {
      profile: p.id,
      span: profileSpan(profiles[i]),
      lossWinner: p.winners.join(" = "),
      accuracyWinner: shipped.accuracyWinners.join(" = "),
      kendallTau: p.kendallTau,
      regret: p.regret,
      disagrees: p.disagrees,
      reversalFactor: rr.factor,
      challenger: rr.challenger,
    };
  });

  // 4. Rank-reversal distance under each registry ladder.
  const ladders = registryLadderProfiles();
  const ladderSweep = sweepProfiles(coefficients, ladders, { ordered: false });
  const reversalRows = ladders.map((p, i) => {
    const rr = rankReversalDistance(coefficients, p);
    return {
      profile: p.id,
      span: profileSpan(p),
      lossWinner: ladderSweep.points[i].winners.join(" = "),
      challenger: rr.challenger,
      reversalFactor: rr.factor,
      log10Factor: rr.log10Factor,
    };
  });

  // 5. Monte Carlo draws within the registry ranges.
  const drawRows: Record<string, unknown>[] = [];
  const drawSummary: Record<string, unknown>[] = [];
  let drawsInRange = true;
  for (const distribution of DRAW_DISTRIBUTIONS) {
    const sample = drawRegistryProfiles({
      draws,
      distribution,
      seed: drawSeed,
    });
    for (const s of SEVERITIES) {
      const a = getAnchor(SHIPPED_REGISTRY, PAYMENTS_ANCHOR_MAP.K[s]);
      drawsInRange &&= sample.every((p) => p.K[s] >= a.low && p.K[s] <= a.high);
    }
    for (
      const [contestants, models] of [
        ["automated models and always_escalate", SENSITIVITY_MODELS],
        ["automated models only", AUTOMATED_MODELS],
      ] as const
    ) {
      const sweep = sweepProfiles(only(coefficients, models), sample, {
        ordered: false,
      });
      for (const m of sweep.models) {
        drawRows.push({
          distribution,
          contestants,
          model: m,
          winShare: sweep.winShare[m],
        });
      }
      drawSummary.push({
        distribution,
        contestants,
        draws,
        seed: drawSeed,
        disagreementShare: sweep.disagreementShare,
        meanRegret: round(sweep.meanRegret),
        maxRegret: round(sweep.maxRegret),
        meanKendallTau: meanTau(sweep),
        drawsWithCriticalBelowHigh: sample.filter((p) =>
          p.K.CRITICAL < p.K.HIGH
        ).length,
      });
    }
  }
  claims.push(claimEqual(
    "k_sensitivity.draws_in_range",
    "Every Monte Carlo draw of K lies within its registry anchor's [low, high]",
    true,
    drawsInRange,
    {
      kind: "property",
      source:
        "third-number: the cost registry, every conclusion across the registry's [low, high]",
    },
  ));

  // 6. Win regions over (K(HIGH)/K(LOW), K(CRITICAL)/K(HIGH)).
  const his = logGrid({ from: 1, to: 100_000, points: 11 });
  const crits = logGrid({ from: 1, to: 10_000, points: 9 });
  const regionProfiles = crits.flatMap((c) =>
    his.map((h) =>
      defineProfile({
        id: `hi${h}_crit${c}`,
        K: { LOW: 1, MEDIUM: Math.sqrt(h), HIGH: h, CRITICAL: h * c },
        reviewCost: 1,
      })
    )
  );
  const regions = sweepProfiles(coefficients, regionProfiles, {
    ordered: false,
  });
  const regionRows = regions.points.map((p, i) => ({
    highOverLow: label(his[i % his.length]),
    criticalOverHigh: label(crits[Math.floor(i / his.length)]),
    winner: p.winners.join(" = "),
    kendallTau: p.kendallTau,
  }));
  claims.push(claimEqual(
    "k_sensitivity.win_regions.flat_corner",
    "In the win-region map, the corner where K(HIGH)/K(LOW) = K(CRITICAL)/K(HIGH) = 1 is won by the accuracy winner",
    regions.accuracyWinners.join(" = "),
    regionRows[0].winner,
    {
      kind: "derived",
      how: "the accuracy winners of the same models",
      source: "third-number: flat-cost theorem",
    },
  ));

  // 7. How often cost weighting changes the winner: (suite, profile) pairs.
  const pairRows: Record<string, unknown>[] = [];
  const pairSummary: Record<string, unknown>[] = [];
  const contestants = [
    ["automated models", AUTOMATED_MODELS],
    ["automated models and always_escalate", SENSITIVITY_MODELS],
    ["the whole zoo, oracle included", [...SENSITIVITY_MODELS, "oracle"]],
  ] as const;
  const suiteStats = perSuite.map((ds) => decisionStats(decisionTable(ds)));
  for (const [name, models] of contestants) {
    for (
      const [matrixName, matrix] of [["consequence", CONSEQUENCE_MATRIX], [
        "strict",
        STRICT_MATRIX,
      ]] as const
    ) {
      let disagree = 0;
      let total = 0;
      suiteStats.forEach((stats, si) => {
        const sweep = pairSweep(stats, models, ladders, matrix);
        sweep.points.forEach((p) => {
          total++;
          if (p.disagrees) disagree++;
          if (matrixName === "consequence") {
            pairRows.push({
              contestants: name,
              suite: SENSITIVITY_SUITES[si].replace(/^.*\//, ""),
              profile: p.id,
              accuracyWinner: sweep.accuracyWinners.join(" = "),
              lossWinner: p.winners.join(" = "),
              disagrees: p.disagrees,
            });
          }
        });
      });
      pairSummary.push({
        contestants: name,
        matrix: matrixName,
        pairs: total,
        disagreeing: disagree,
        share: disagree / total,
      });
    }
  }
  const share = (name: string, matrix = "consequence") =>
    pairSummary.find((r) => r.contestants === name && r.matrix === matrix)!
      .share as number;
  claims.push(
    claimClose(
      "k_sensitivity.winner_share.automated",
      "Over 3 suites x 10 registry ladder profiles, cost weighting changes the winner among the three automated models in 10 of 30 pairs",
      10 / 30,
      share("automated models"),
      {
        kind: "property",
        tolerance: 1e-12,
        source:
          "lossbook: seeded simulation (seed 1); third-number cites 55% of studies for a related figure",
      },
    ),
    claimClose(
      "k_sensitivity.winner_share.with_baseline",
      "With the always-escalate baseline competing, cost weighting changes the winner in 18 of 30 pairs",
      18 / 30,
      share("automated models and always_escalate"),
      {
        kind: "property",
        tolerance: 1e-12,
        source: "lossbook: seeded simulation (seed 1)",
      },
    ),
    claimClose(
      "k_sensitivity.winner_share.oracle",
      "With the oracle competing the share is 0: the most accurate model also never loses",
      0,
      share("the whole zoo, oracle included"),
      {
        kind: "property",
        tolerance: 0,
        source:
          "third-number: flat-cost theorem, a model with no errors has zero loss under every profile",
      },
    ),
  );

  const markers = span.winnerChanges.map((c) => ({
    x: c.ratio,
    label: `${c.to.join(" = ")} from ${label(c.ratio)}x`,
  }));
  const charts = {
    loss_vs_span: lineChart(spanLossRows, {
      x: "span",
      y: "loss",
      group: "model",
      title:
        "Loss per decision as the span grows (K = 1, 1, r, r), winner changes marked",
      xTitle: "cost span K(HIGH)/K(LOW) = K(CRITICAL)/K(LOW) (log)",
      yTitle: "loss per decision (log)",
      xScale: "log",
      yScale: "log",
      markers,
      colorBy: "model",
    }),
    win_regions: heatmapChart(regionRows, {
      x: "highOverLow",
      y: "criticalOverHigh",
      color: "winner",
      title:
        "Which model wins where (K(LOW) = 1, K(MEDIUM) = √K(HIGH), review 1)",
      xTitle: "K(HIGH) / K(LOW)",
      yTitle: "K(CRITICAL) / K(HIGH)",
      colorTitle: "loss winner",
      xOrder: his.map(label),
      yOrder: crits.map(label),
      colorBy: "model",
    }),
    kendall_tau_vs_span: lineChart(
      spanRows.map((r) => ({ span: r.span, tau: r.kendallTau })),
      {
        x: "span",
        y: "tau",
        title: "Kendall's tau between the loss and accuracy rankings, by span",
        xTitle: "cost span (log)",
        yTitle: "Kendall tau-b",
        xScale: "log",
        yDomain: [-1, 1],
        points: true,
      },
    ),
  };

  return {
    id: "k_sensitivity",
    title: "K-sensitivity: how the ranking moves as costs vary",
    source: SOURCE,
    parameters: {
      suites: SENSITIVITY_SUITES,
      models: SENSITIVITY_MODELS,
      seed,
      matrix: "consequence",
      per: "decision",
      decisionsPerModel: coefficients[0].n,
      spanGrid: { from: 1, to: 100_000, points },
      draws,
      drawSeed,
      distributions: DRAW_DISTRIBUTIONS,
      anchorMap: {
        ...PAYMENTS_ANCHOR_MAP.K,
        reviewCost: PAYMENTS_ANCHOR_MAP.reviewCost,
      },
      ladderReviewCost: "false_positive_review typical (6.5 USD)",
      profiles: profiles.map((p) => `${p.id}@${p.version}`),
    },
    tables: {
      span_sweep: aq.from(spanRows),
      span_losses: aq.from(spanLossRows),
      crossovers: aq.from(crossoverRows),
      profiles: aq.from(profileRows),
      rank_reversal: aq.from(reversalRows),
      registry_draws: aq.from(drawRows),
      registry_draw_summary: aq.from(drawSummary),
      win_regions: aq.from(regionRows),
      winner_vs_accuracy: aq.from(pairRows),
      winner_share: aq.from(pairSummary),
    },
    charts,
    claims,
  };
}

function pairSweep(
  stats: readonly StatsRow[],
  models: readonly string[],
  profiles: readonly CostProfile[],
  matrix: CostMatrix,
): Sweep {
  return sweepProfiles(
    only(lossCoefficients(stats, { matrix }), models),
    profiles,
    { ordered: false },
  );
}

function meanTau(sweep: Sweep): number | null {
  const taus = sweep.points.map((p) => p.kendallTau).filter((t): t is number =>
    t !== null
  );
  return taus.length === 0
    ? null
    : round(taus.reduce((a, b) => a + b, 0) / taus.length);
}
