/**
 * The flat-cost theorem and its edges, on a simulated suite.
 *
 * The Third Number's central claim is falsifiable: when every severity costs
 * the same, ranking by expected loss is ranking by accuracy; when costs
 * differ, the rankings can disagree, more so as the span grows. This
 * analysis shows the theorem holding under flat profiles, a constructed pair
 * of models that disagree under every non-flat shipped profile, the interval
 * of spans [r*, ∞) on which a less accurate model wins, and the escalation
 * monotonicity property with the negative result kept: a single global
 * threshold on expected loss, fitted on data, can escalate less after
 * K(HIGH) rises.
 *
 * @module
 */

import * as aq from "arquero";
import { lineChart } from "../lib/charts/line_chart.ts";
import { type Claim, claimClose, claimEqual } from "../lib/claims/claim.ts";
import type { AnalysisResult } from "../lib/claims/analysis_result.ts";
import { getProfile, SHIPPED_PROFILES } from "../lib/costs/load.ts";
import {
  type CostProfile,
  defineProfile,
  isFlatProfile,
  profileSpan,
} from "../lib/costs/profile.ts";
import { realisedLoss } from "../lib/metrics/loss.ts";
import { forModel } from "../lib/metrics/sufficient_stats.ts";
import type { Decision } from "../lib/decision/decision.ts";
import { decisionStats } from "../lib/decision/decision_stats.ts";
import { decisionTable } from "../lib/read/load_decisions.ts";
import { suiteDecisions } from "./_suite.ts";
import {
  costFamily,
  familyProfile,
  logGrid,
} from "../lib/sensitivity/cost_family.ts";
import { crossoverRatio } from "../lib/sensitivity/crossover.ts";
import { disagreeingPair } from "../lib/sensitivity/disagreeing_pair.ts";
import {
  bayesEscalationRate,
  type EscalationColumns,
  fitGlobalThreshold,
  fitSeverityThresholds,
} from "../lib/sensitivity/escalation_rate.ts";
import {
  type LossCoefficients,
  lossCoefficients,
} from "../lib/sensitivity/loss_coefficients.ts";
import { sweepProfiles } from "../lib/sensitivity/sweep.ts";

const SOURCE = "third-number: the flat-cost theorem and its property tests";

/** The shipped suite the theorem is shown on: reconciliation, seed 777, 300 tasks. */
export const FLAT_COST_SUITE = "data/tasks/reconciliation_777_300.jsonl";

/**
 * The simulated models: the zoo without the oracle, which is right on every
 * task and so wins under every profile and every ranking alike.
 */
export const THEOREM_MODELS: readonly string[] = [
  "frontier_even",
  "small_severity_shaped",
  "constant_confidence",
  "always_escalate",
];

/** The counterexample kept for the global expected-loss threshold. */
export const ESCALATION_COUNTEREXAMPLE: EscalationColumns = Object.freeze({
  severity: Object.freeze(["LOW", "LOW", "HIGH"] as const),
  pError: Object.freeze([0.9, 0.9, 0.1]),
  wrong: Object.freeze([false, false, true]),
});

/** Options for {@linkcode flatCostTheorem}. */
export interface FlatCostTheoremOptions {
  /**
   * More profiles to show next to the shipped ones, for example your own K.
   * Flat ones join the theorem's rows, non-flat ones get a disagreeing pair.
   * Claims always check the defaults. Default: none.
   */
  profiles?: readonly CostProfile[];
  /** Seed of the simulated runs. Default: 1. */
  seed?: number;
}

function escalationColumns(
  decisions: readonly Decision[],
  model: string,
): EscalationColumns {
  const rows = decisions.filter((d) =>
    d.modelId === model && d.action === "auto" && d.pCorrect !== null
  );
  return {
    severity: rows.map((d) => d.severity),
    pError: rows.map((d) => 1 - d.pCorrect!),
    wrong: rows.map((d) => d.predClass !== d.trueClass),
  };
}

function nonDecreasing(values: readonly (number | null)[]): boolean {
  return values.every((v, i) => i === 0 || v! >= values[i - 1]!);
}

/**
 * Show the flat-cost theorem, divergence and escalation monotonicity on a
 * simulated reconciliation suite.
 *
 * Four simulated models answer the shipped reconciliation suite (300 tasks,
 * seed 777): a frontier-like model with even errors, a small severity-shaped
 * fine-tune, a ReconForge-like constant-confidence model and the
 * always-escalate baseline. Their runs reduce to sufficient statistics and
 * loss coefficients (consequence matrix, loss per decision). Then:
 *
 * - under the flat profiles (`flat`, and every K and the review cost at 7.3)
 *   the loss ranking equals the accuracy ranking (Kendall tau 1);
 * - under each non-flat profile a constructed pair of models disagrees;
 * - along K_r = (1, 1, r, r) the frontier model wins below the exact
 *   crossover r* and the small model above it, and nowhere else;
 * - as K(HIGH) rises, the escalation rate never falls for the Bayes rule,
 *   per-severity thresholds and a global threshold on P(error), while a
 *   global threshold on expected loss can fall (kept counterexample).
 *
 * @param options Extra profiles to show and the simulation seed.
 * @returns Tables `rankings`, `witnesses`, `span_interval`, `escalation`,
 * `counterexample`; charts `loss_vs_span`, `escalation_rate`; and the claims.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flatCostTheorem } from "./flat_cost_theorem.ts";
 *
 * const result = flatCostTheorem();
 * assert.ok(result.claims.every((c) => c.holds));
 * ```
 */
export function flatCostTheorem(
  options: FlatCostTheoremOptions = {},
): AnalysisResult {
  const seed = options.seed ?? 1;
  const extra = options.profiles ?? [];
  const decisions = suiteDecisions(FLAT_COST_SUITE, THEOREM_MODELS, seed);
  const stats = decisionStats(decisionTable(decisions));
  const coefficients = lossCoefficients(stats);
  const claims: Claim[] = [];

  // 1. The theorem: flat profiles rank by accuracy.
  const flat73 = defineProfile({
    id: "flat_7.3",
    description: "Every K and the review cost at 7.3: a flat profile",
    K: { LOW: 7.3, MEDIUM: 7.3, HIGH: 7.3, CRITICAL: 7.3 },
    reviewCost: 7.3,
  });
  const profiles = [...SHIPPED_PROFILES, flat73, ...extra];
  const sweep = sweepProfiles(coefficients, profiles);
  const accRanks = denseFromValues(sweep.accuracy.map((a) => -a));
  const rankingRows = sweep.points.flatMap((p, i) =>
    sweep.models.map((m, j) => ({
      profile: p.id,
      span: profileSpan(profiles[i]),
      flat: isFlatProfile(profiles[i]) &&
        profiles[i].reviewCost === profiles[i].K.LOW,
      model: m,
      accuracy: sweep.accuracy[j],
      accuracyRank: accRanks[j] + 1,
      lossPerDecision: p.losses[j],
      lossRank: p.ranks[j] + 1,
      kendallTau: p.kendallTau,
      winner: p.winners.includes(m),
    }))
  );
  for (const [i, p] of sweep.points.entries()) {
    if (i >= SHIPPED_PROFILES.length + 1) break; // claims check the defaults only
    const profile = profiles[i];
    if (!(isFlatProfile(profile) && profile.reviewCost === profile.K.LOW)) {
      continue;
    }
    claims.push(
      claimEqual(
        `flat_cost.tau.${p.id}`,
        `Under "${p.id}" (every error and every review costs ${profile.K.LOW}) Kendall's tau between the loss and accuracy rankings is 1`,
        1,
        p.kendallTau,
        { kind: "property", source: SOURCE },
      ),
      claimEqual(
        `flat_cost.winner.${p.id}`,
        `Under "${p.id}" the loss winner is the accuracy winner (${
          sweep.accuracyWinners.join(", ")
        })`,
        sweep.accuracyWinners.join(", "),
        p.winners.join(", "),
        {
          kind: "derived",
          how: "the accuracy winners of the same sweep",
          source: SOURCE,
        },
      ),
    );
  }

  // 2. Divergence: a constructed pair for every non-flat profile.
  const witnessRows = profiles.filter((p) => !isFlatProfile(p)).map((p) => {
    const pair = disagreeingPair(p);
    const point = sweepProfiles(lossCoefficients(pair.stats), [p]).points[0];
    const lossOf = (id: string) => realisedLoss(forModel(pair.stats, id), p);
    return {
      profile: p.id,
      accurateErrorsOn: `${pair.accurateErrors} on ${pair.costly}`,
      cheapErrorsOn: `${pair.cheapErrors} on ${pair.cheap}`,
      lossAccurate: lossOf("accurate"),
      lossCheap: lossOf("cheap"),
      lossWinner: point.winners.join(", "),
      disagrees: point.disagrees,
    };
  });
  for (const row of witnessRows.slice(0, 3)) {
    claims.push(claimEqual(
      `divergence.witness.${row.profile}`,
      `Under "${row.profile}" a model with ${row.accurateErrorsOn} is more accurate than one with ${row.cheapErrorsOn}, and loses more`,
      true,
      row.disagrees && row.lossAccurate! > row.lossCheap!,
      {
        kind: "property",
        source:
          "third-number: flat-cost theorem, the rankings can disagree when K varies",
      },
    ));
  }

  // 3. The interval of spans where the less accurate model wins.
  const family = costFamily(getProfile("flat"));
  const pair = ["frontier_even", "small_severity_shaped"];
  const [ca, cb] = pair.map((id) =>
    coefficients.find((c) => c.modelId === id)!
  ) as [LossCoefficients, LossCoefficients];
  const x = crossoverRatio(ca, cb, family);
  const rStar = x?.ratio ?? null;
  const grid = logGrid({ from: 1, to: 100_000, points: 21 });
  const twoModel = sweepProfiles(
    [ca, cb],
    grid.map((r) => familyProfile(family, r)),
  );
  const spanRows = twoModel.points.map((p, i) => ({
    span: grid[i],
    lossFrontier: p.losses[0],
    lossSmall: p.losses[1],
    lossWinner: p.winners.join(", "),
    disagrees: p.disagrees,
    aboveCrossover: rStar !== null && grid[i] > rStar,
  }));
  claims.push(
    claimEqual(
      "divergence.interval",
      "Along K = (1, 1, r, r) the less accurate small model beats the frontier model exactly on the grid points with r > r*",
      true,
      spanRows.every((r) => r.disagrees === r.aboveCrossover),
      {
        kind: "property",
        source:
          "third-number: K-sensitivity, the disagreement set is [r*, ∞) for two models",
      },
    ),
    claimEqual(
      "divergence.flips",
      "The winner between the two models changes once along the family",
      1,
      twoModel.flips,
      { kind: "property", source: "third-number: K-sensitivity" },
    ),
  );
  claims.push(claimEqual(
    "divergence.crossover",
    "On the simulated suite the frontier and small models' loss lines cross at r* = 8 exactly",
    "8",
    x?.exact ?? null,
    {
      kind: "property",
      source: "lossbook: seeded simulation (seed 1); no published figure",
    },
  ));
  if (rStar !== null) {
    const at = familyProfile(family, rStar);
    const la = realisedLoss(forModel(stats, pair[0]), at)!;
    const lb = realisedLoss(forModel(stats, pair[1]), at)!;
    claims.push(
      claimClose(
        "divergence.crossover_is_intersection",
        "At r* the two models' realised losses (recomputed from the cells) are equal",
        0,
        Math.abs(la - lb) / Math.max(la, lb),
        {
          kind: "property",
          tolerance: 1e-12,
          source: "third-number: K-sensitivity, loss is linear in K",
        },
      ),
    );
  }

  // 4. Escalation monotonicity.
  const recon = getProfile("reconciliation");
  const kHighs = logGrid({ from: 1, to: 10_000, points: 17 });
  const withHigh = (high: number) =>
    defineProfile({
      id: `reconciliation_high_${high}`,
      K: { ...recon.K, HIGH: high },
      reviewCost: recon.reviewCost,
    });
  const rules = [
    [
      "Bayes rule",
      (d: EscalationColumns, p: CostProfile) => bayesEscalationRate(d, p),
    ],
    [
      "per-severity thresholds",
      (d: EscalationColumns, p: CostProfile) =>
        fitSeverityThresholds(d, p).rate,
    ],
    [
      "global threshold on P(error)",
      (d: EscalationColumns, p: CostProfile) => fitGlobalThreshold(d, p).rate,
    ],
    ["global threshold on expected loss", (
      d: EscalationColumns,
      p: CostProfile,
    ) => fitGlobalThreshold(d, p, { score: "expectedLoss" }).rate],
  ] as const;
  const escalationRows: Record<string, unknown>[] = [];
  for (const model of ["frontier_even", "small_severity_shaped"]) {
    const data = escalationColumns(decisions, model);
    for (const [rule, rate] of rules) {
      const rates = kHighs.map((k) => rate(data, withHigh(k)));
      kHighs.forEach((k, i) =>
        escalationRows.push({ model, rule, kHigh: k, rate: rates[i] })
      );
      if (rule.includes("expected loss")) {
        if (model === "frontier_even") {
          claims.push(claimEqual(
            "escalation.not_monotone.frontier_even.global_threshold_on_expected_loss",
            "On the simulated frontier_even run, the global threshold on expected loss escalates less at high K(HIGH) than at K(HIGH) = 56: the negative result shows on data too",
            false,
            nonDecreasing(rates),
            {
              kind: "property",
              source:
                "lossbook: seeded simulation (seed 1), kept negative result",
            },
          ));
        }
      } else {
        claims.push(claimEqual(
          `escalation.monotone.${model}.${rule.replaceAll(/[^a-z]+/gi, "_")}`,
          `For ${model}, the ${rule} escalates no less as K(HIGH) rises from 1 to 10,000`,
          true,
          nonDecreasing(rates),
          { kind: "property", source: SOURCE },
        ));
      }
    }
  }
  const ce = ESCALATION_COUNTEREXAMPLE;
  const ceAt = (high: number) =>
    defineProfile({
      id: `k_high_${high}`,
      K: { LOW: 1, MEDIUM: 1, HIGH: high, CRITICAL: high },
      reviewCost: 1,
    });
  const ceRows = rules.flatMap(([rule, rate]) =>
    [5, 10].map((high) => ({ rule, kHigh: high, rate: rate(ce, ceAt(high)) }))
  );
  const ceRate = (rule: string, high: number) =>
    ceRows.find((r) => r.rule === rule && r.kHigh === high)!.rate;
  claims.push(
    claimClose(
      "escalation.counterexample.before",
      "Counterexample (LOW 0.9 right, LOW 0.9 right, HIGH 0.1 wrong; K(LOW) = review = 1): at K(HIGH) = 5 the fitted global threshold on expected loss escalates all three",
      1,
      ceRate("global threshold on expected loss", 5),
      { kind: "property", source: "lossbook: kept negative result" },
    ),
    claimClose(
      "escalation.counterexample.after",
      "At K(HIGH) = 10 the same rule escalates only the HIGH decision: the rate falls to 1/3",
      1 / 3,
      ceRate("global threshold on expected loss", 10),
      { kind: "property", source: "lossbook: kept negative result" },
    ),
    claimEqual(
      "escalation.counterexample.others_hold",
      "On the counterexample the Bayes rule, per-severity thresholds and the global threshold on P(error) do not escalate less",
      true,
      rules.slice(0, 3).every(([rule]) =>
        ceRate(rule, 10)! >= ceRate(rule, 5)!
      ),
      { kind: "property", source: SOURCE },
    ),
  );

  const rLabel = rStar === null ? "no crossover" : `r* = ${fmt(rStar)}`;
  const charts = {
    loss_vs_span: lineChart(
      spanRows.flatMap((r) => [
        { span: r.span, model: pair[0], loss: r.lossFrontier },
        { span: r.span, model: pair[1], loss: r.lossSmall },
      ]),
      {
        x: "span",
        y: "loss",
        group: "model",
        title:
          "Loss per decision along K = (1, 1, r, r): the less accurate model wins from r* on",
        xTitle: "cost span r = K(HIGH)/K(LOW) (log)",
        yTitle: "loss per decision (log)",
        xScale: "log",
        yScale: "log",
        markers: rStar === null ? [] : [{ x: rStar, label: rLabel }],
        colorBy: "model",
      },
    ),
    escalation_rate: lineChart(
      escalationRows.filter((r) => r.model === "frontier_even"),
      {
        x: "kHigh",
        y: "rate",
        group: "rule",
        title:
          "Escalation rate as K(HIGH) rises (frontier_even on the reconciliation suite)",
        xTitle: "K(HIGH), other costs as reconciliation (log)",
        yTitle: "share of decisions escalated",
        xScale: "log",
        yDomain: [0, 1],
      },
    ),
  };

  return {
    id: "flat_cost_theorem",
    title: "The flat-cost theorem, divergence and escalation monotonicity",
    source: SOURCE,
    parameters: {
      suite: FLAT_COST_SUITE,
      models: THEOREM_MODELS,
      seed,
      matrix: "consequence",
      per: "decision",
      profiles: profiles.map((p) => `${p.id}@${p.version}`),
      family: "flat base, HIGH and CRITICAL x r",
      crossover: x === null ? null : { ...x },
      escalationProfiles: "reconciliation with K(HIGH) from 1 to 10,000",
    },
    tables: {
      rankings: aq.from(rankingRows),
      witnesses: aq.from(witnessRows),
      span_interval: aq.from(spanRows),
      escalation: aq.from(escalationRows),
      counterexample: aq.from(ceRows),
    },
    charts,
    claims,
  };
}

function denseFromValues(values: readonly number[]): number[] {
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  return values.map((v) => distinct.indexOf(v));
}

function fmt(v: number): string {
  return v.toLocaleString("en-US", { maximumSignificantDigits: 6 });
}
