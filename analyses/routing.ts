/**
 * Routing in money: Switchyard's published economics with the error-cost
 * term they leave out, loss-optimal routing on simulated runs, and what a
 * judge's kappa means for p*.
 *
 * @module
 */

import * as aq from "arquero";
import { applyCalibrator } from "../lib/calibration/calibrator.ts";
import { fitIsotonic } from "../lib/calibration/isotonic.ts";
import { outcomeColumns } from "../lib/calibration/outcome_columns.ts";
import { lineChart } from "../lib/charts/line_chart.ts";
import { groupedBarChart } from "../lib/charts/specs.ts";
import type { AnalysisResult } from "../lib/claims/analysis_result.ts";
import { type Claim, claimClose, claimEqual } from "../lib/claims/claim.ts";
import { SHIPPED_REGISTRY } from "../lib/costs/load.ts";
import { type CostProfile, defineProfile } from "../lib/costs/profile.ts";
import { seededPrng } from "../lib/math/sampling.ts";
import { STRICT_MATRIX } from "../lib/metrics/loss.ts";
import {
  errorCostCrossover,
  SWITCHYARD_RUN,
  totalCostWithErrors,
} from "../lib/policy/error_cost.ts";
import {
  cohensKappa,
  judgeErrorFromKappa,
  kappaFromJudgeError,
} from "../lib/policy/kappa.ts";
import { lossOptimalRoute } from "../lib/policy/routing.ts";
import { SIMULATED_MODELS, simulateRun } from "../lib/tasks/simulate.ts";
import { severitySuite } from "./calibration.ts";

const SOURCE = "third-number: switchyard figures as quoted, and judge kappa";

const registry = (id: string, at: "low" | "typical" | "high") =>
  SHIPPED_REGISTRY.anchors.find((a) => a.id === id)![at];

/**
 * A cost profile in US dollars for routing, where prices and error costs
 * must share a currency. Every figure is a registry anchor (`third-number`, cost registry; docs/sources.md):
 * LOW = an electronic prior-authorisation touch ($2.56), MEDIUM = a manual
 * one ($12.43), HIGH = a chargeback ($40 typical), CRITICAL = a misposted
 * ACH at the low end ($500); a review = a false-positive AML review ($6.50).
 */
export const ROUTING_USD_PROFILE: CostProfile = defineProfile({
  id: "routing_usd",
  version: "1",
  currency: "USD",
  unit: "USD",
  description:
    "Per-failure costs from the registry's anchors, so that model prices in dollars and error costs add up.",
  K: {
    LOW: registry("prior_auth_manual", "low"),
    MEDIUM: registry("prior_auth_manual", "typical"),
    HIGH: registry("chargeback", "typical"),
    CRITICAL: registry("misposted_ach", "low"),
  },
  reviewCost: registry("false_positive_review", "typical"),
  notes: {
    LOW: "prior_auth_manual low: an electronic transaction ($2.56, CAQH Index)",
    MEDIUM: "prior_auth_manual typical: a manual touch ($12.43, CAQH Index)",
    HIGH: "chargeback typical ($40, card network fee schedules)",
    CRITICAL: "misposted_ach low ($500, Federal Reserve Payments Study 2024)",
    reviewCost:
      "false_positive_review typical ($6.50, LexisNexis True Cost of AML Compliance)",
  },
});

/** Options for {@linkcode routing}. */
export interface RoutingOptions {
  /**
   * Cost profile of the routing simulation, in the same currency as the
   * models' prices. Default: {@linkcode ROUTING_USD_PROFILE}.
   */
  profile?: CostProfile;
  /** Tasks in the routing simulation. Default: 20,000. */
  decisions?: number;
  /** Seed. Default: 20,261,203. */
  seed?: number;
  /** Judge cost over error cost, C_e/C_r, for the kappa table. Default: 0.02. */
  ceOverCr?: number;
  /** Items the simulated judge is checked on for the kappa interval. Default: 300. */
  judgeItems?: number;
}

const r6 = (x: number | null) => x === null ? null : Math.round(x * 1e6) / 1e6;

/**
 * Reproduce Switchyard's routing economics, add the cost of errors, route by
 * expected loss, and map judge agreement to p*.
 *
 * @param options Profile, simulation size, seed, C_e/C_r and judge sample size.
 * @returns Tables `switchyard`, `total_cost_by_k`, `registry_anchors`,
 * `routing` and `kappa`; charts `total_cost_by_k`, `routing` and
 * `kappa_to_p_star`; and the claims.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { routing } from "./routing.ts";
 *
 * const result = routing({ decisions: 4000 });
 * assert.ok(result.claims.every((c) => c.holds), result.claims.filter((c) => !c.holds).map((c) => c.id).join());
 * ```
 */
export function routing(options: RoutingOptions = {}): AnalysisResult {
  const profile = options.profile ?? ROUTING_USD_PROFILE;
  const n = options.decisions ?? 20_000;
  const seed = options.seed ?? 20_261_203;
  const ceOverCr = options.ceOverCr ?? 0.02;
  const judgeItems = options.judgeItems ?? 300;
  const claims: Claim[] = [];
  const S = SWITCHYARD_RUN;

  // 1. Switchyard as published, and what follows from it
  const savings = 1 - S.routed.spend / S.frontierOnly.spend;
  const judgeSpend = S.judgeShareOfRoutedSpend * S.routed.spend;
  const smallSpend = S.smallModelSpendShare * S.routed.spend;
  const frontierInRouted = S.routed.spend - judgeSpend - smallSpend;
  const extraFailures = (S.frontierOnly.accuracy - S.routed.accuracy) * S.tasks;
  const kStar = errorCostCrossover(S.frontierOnly, S.routed, {
    tasks: S.tasks,
  })!;
  const switchyardRows = [
    {
      quantity: "frontier-only spend per 145-task run ($)",
      value: S.frontierOnly.spend,
      kind: "published",
    },
    {
      quantity: "routed spend per run ($)",
      value: S.routed.spend,
      kind: "published",
    },
    {
      quantity: "routed saving",
      value: r6(savings),
      kind: "derived: 1 − 3.00/11.45",
    },
    {
      quantity: "accuracy, frontier-only",
      value: S.frontierOnly.accuracy,
      kind: "published",
    },
    {
      quantity: "accuracy, routed",
      value: S.routed.accuracy,
      kind: "published",
    },
    {
      quantity: "judge share of routed spend",
      value: S.judgeShareOfRoutedSpend,
      kind: "published",
    },
    {
      quantity: "judge spend per run ($)",
      value: r6(judgeSpend),
      kind: "derived",
    },
    {
      quantity: "calls on the 30B model",
      value: S.smallModelCallShare,
      kind: "published",
    },
    {
      quantity: "30B share of routed spend",
      value: S.smallModelSpendShare,
      kind: "published",
    },
    {
      quantity: "frontier spend inside the routed run ($)",
      value: r6(frontierInRouted),
      kind: "derived: 3.00 − judge − 30B",
    },
    {
      quantity: "extra failed tasks per run when routed",
      value: r6(extraFailures),
      kind: "derived: 0.06 × 145",
    },
    {
      quantity: "break-even cost per failed task K* ($)",
      value: r6(kStar),
      kind: "derived: (11.45 − 3.00)/(0.06 × 145)",
    },
  ];
  const published = {
    kind: "published",
    tolerance: 0,
    source: S.source,
  } as const;
  claims.push(
    claimClose(
      "routing.switchyard.frontier_spend",
      "Frontier-only costs $11.45 per 145-task run",
      11.45,
      S.frontierOnly.spend,
      published,
    ),
    claimClose(
      "routing.switchyard.routed_spend",
      "Routed costs $3.00 per run",
      3.0,
      S.routed.spend,
      published,
    ),
    claimClose(
      "routing.switchyard.savings",
      "Routing is 74% cheaper",
      0.74,
      savings,
      { kind: "property", tolerance: 0.005, source: S.source },
    ),
    claimClose(
      "routing.switchyard.accuracy_frontier",
      "Frontier-only accuracy 86.0%",
      0.86,
      S.frontierOnly.accuracy,
      published,
    ),
    claimClose(
      "routing.switchyard.accuracy_routed",
      "Routed accuracy 80.0%",
      0.8,
      S.routed.accuracy,
      published,
    ),
    claimClose(
      "routing.switchyard.judge_share",
      "The judge takes 21.2% of the routed spend",
      0.212,
      S.judgeShareOfRoutedSpend,
      published,
    ),
    claimClose(
      "routing.switchyard.small_calls",
      "93% of calls go to the 30B model",
      0.93,
      S.smallModelCallShare,
      published,
    ),
    claimClose(
      "routing.switchyard.small_spend",
      "for 10.4% of the spend",
      0.104,
      S.smallModelSpendShare,
      published,
    ),
    claimEqual(
      "routing.switchyard.judge_second_largest",
      "The judge is the second-largest line item after the frontier model (0.212 of spend against 0.684 and 0.104)",
      true,
      frontierInRouted > judgeSpend && judgeSpend > smallSpend,
      { kind: "property", source: S.source },
    ),
    claimClose(
      "routing.switchyard.break_even_k",
      "Routed is cheaper only while 0.06·145·K < 11.45 − 3.00, i.e. K < about $0.97 per failed task",
      0.97,
      kStar,
      {
        kind: "property",
        tolerance: 0.005,
        source: "third-number: switchyard figures as quoted",
      },
    ),
  );

  // 2. total cost against K, both policies
  const grid = Array.from(
    { length: 61 },
    (_, i) => Math.pow(10, -2 + (5 * i) / 60),
  );
  const kRows = grid.flatMap((K) => [
    {
      K: r6(K),
      policy: "frontier only",
      total: r6(totalCostWithErrors(S.frontierOnly, { tasks: S.tasks, K })),
    },
    {
      K: r6(K),
      policy: "routed",
      total: r6(totalCostWithErrors(S.routed, { tasks: S.tasks, K })),
    },
  ]);
  const at = (K: number) => ({
    frontier: totalCostWithErrors(S.frontierOnly, { tasks: S.tasks, K }),
    routed: totalCostWithErrors(S.routed, { tasks: S.tasks, K }),
  });
  claims.push(
    claimEqual(
      "routing.k.below",
      "At K = $0.90 per failed task the routed run costs less in total",
      true,
      at(0.9).routed < at(0.9).frontier,
      { kind: "property", source: SOURCE },
    ),
    claimEqual(
      "routing.k.above",
      "At K = $1.00 it costs more",
      true,
      at(1).routed > at(1).frontier,
      { kind: "property", source: SOURCE },
    ),
  );

  // registry anchors per failed task: which policy wins at low, typical and high
  const anchorRows = SHIPPED_REGISTRY.anchors
    // per-failure costs only: the fraud multiplier is per $1 of loss, not per failure
    .filter((a) => /^USD per (incident|review|transaction)$/.test(a.unit))
    .flatMap((a) =>
      (["low", "typical", "high"] as const).map((point) => {
        const K = a[point];
        const c = at(K);
        return {
          anchor: a.id,
          point,
          K,
          frontierTotal: Math.round(c.frontier * 100) / 100,
          routedTotal: Math.round(c.routed * 100) / 100,
          cheaper: c.routed < c.frontier ? "routed" : "frontier only",
        };
      })
    );
  claims.push(claimEqual(
    "routing.registry.frontier_wins",
    "At every cost anchor of the registry, from its low value up, a failed task costs more than $0.97, so frontier-only is the cheaper policy",
    true,
    anchorRows.length > 0 &&
      anchorRows.every((r) => r.cheaper === "frontier only"),
    {
      kind: "property",
      source: "third-number: the cost registry (data/registry.json)",
    },
  ));

  // 3. loss-optimal routing on a simulated suite
  const suite = severitySuite(n);
  const half = Math.floor(n / 2);
  const price = { frontier: S.frontierOnly.spend / S.tasks, small: 0 };
  const frontierModel = {
    ...SIMULATED_MODELS.frontier_even,
    errorRate: {
      LOW: 0.04,
      MEDIUM: 0.04,
      HIGH: 0.04,
      CRITICAL: 0.04,
      clean: 0.02,
    },
    concentration: 6,
  };
  const smallModel = {
    ...SIMULATED_MODELS.small_severity_shaped,
    errorRate: {
      LOW: 0.2,
      MEDIUM: 0.15,
      HIGH: 0.06,
      CRITICAL: 0.05,
      clean: 0.05,
    },
    concentration: 6,
  };
  const runF = simulateRun(suite, frontierModel, { seed });
  const runS = simulateRun(suite, smallModel, { seed });
  // every error of either model costs K(severity), so both share one exposure column
  const colsF = outcomeColumns(runF, { profile, matrix: STRICT_MATRIX });
  const colsS = outcomeColumns(runS, { profile, matrix: STRICT_MATRIX });
  const evalIdx = Array.from({ length: n - half }, (_, i) => half + i);
  const pErr = (p: ArrayLike<number>, idx: number[]) =>
    Float64Array.from(idx, (i) => 1 - p[i]);
  const K = Float64Array.from(evalIdx, (i) => colsF.exposure![i]);
  // recalibrate each model on the first half, as a ledger would
  const fitIdx = Array.from({ length: half }, (_, i) => i);
  const recal = (cols: typeof colsF) => {
    const iso = fitIsotonic(
      Float64Array.from(fitIdx, (i) => cols.p[i]),
      Uint8Array.from(fitIdx, (i) => cols.y[i]),
    );
    return Float64Array.from(
      applyCalibrator(iso, Float64Array.from(evalIdx, (i) => cols.p[i])),
      (q) => 1 - q,
    );
  };
  const stated = {
    frontier: pErr(colsF.p, evalIdx),
    small: pErr(colsS.p, evalIdx),
  };
  const recalibrated = { frontier: recal(colsF), small: recal(colsS) };
  const errF = Uint8Array.from(evalIdx, (i) => 1 - colsF.y[i]);
  const errS = Uint8Array.from(evalIdx, (i) => 1 - colsS.y[i]);
  const realised = (choice: (i: number) => 0 | 1) => {
    let loss = 0, spend = 0, frontierCalls = 0;
    for (let i = 0; i < evalIdx.length; i++) {
      const c = choice(i);
      if (c === 0) {
        loss += errF[i] * K[i];
        spend += price.frontier;
        frontierCalls++;
      } else loss += errS[i] * K[i];
    }
    return {
      loss,
      spend,
      total: loss + spend,
      frontierShare: frontierCalls / evalIdx.length,
    };
  };
  const route = (p: { frontier: Float64Array; small: Float64Array }) =>
    lossOptimalRoute([
      { id: "frontier", pError: p.frontier, price: price.frontier },
      { id: "small", pError: p.small, price: price.small },
    ], { exposure: K });
  const rStated = route(stated);
  const rRecal = route(recalibrated);
  const policies: [string, ReturnType<typeof realised>][] = [
    ["frontier only", realised(() => 0)],
    [
      "small only (price-only routing: always the cheaper model)",
      realised(() => 1),
    ],
    [
      "loss-optimal on stated P(error)",
      realised((i) => rStated.choice[i] as 0 | 1),
    ],
    [
      "loss-optimal on recalibrated P(error)",
      realised((i) => rRecal.choice[i] as 0 | 1),
    ],
  ];
  const routingRows = policies.map(([policy, r]) => ({
    policy,
    expectedLossPlusPrice: policy.startsWith("loss-optimal on stated")
      ? r6(rStated.expectedCost)
      : policy.startsWith("loss-optimal on recal")
      ? r6(rRecal.expectedCost)
      : null,
    realisedLoss: r6(r.loss),
    spend: r6(r.spend),
    total: r6(r.total),
    frontierShare: r6(r.frontierShare),
  }));
  const totals = Object.fromEntries(policies.map(([p, r]) => [p, r.total]));
  const bestSingle = Math.min(
    totals["frontier only"],
    totals["small only (price-only routing: always the cheaper model)"],
  );
  claims.push(
    claimEqual(
      "routing.loss_optimal.beats_single",
      `On month 2 of the simulation, loss-optimal routing on recalibrated probabilities costs less (${profile.id} K + price) than either model alone`,
      true,
      totals["loss-optimal on recalibrated P(error)"] < bestSingle,
      {
        kind: "property",
        source:
          "third-number: loss-optimal routing, pick the model minimising p·K(s) + price",
      },
    ),
    claimEqual(
      "routing.loss_optimal.calibration_pays",
      "Routing on recalibrated probabilities costs no more than routing on the over-confident frontier model's stated ones",
      true,
      totals["loss-optimal on recalibrated P(error)"] <=
        totals["loss-optimal on stated P(error)"],
      {
        kind: "property",
        source: "third-number: routing on uncalibrated confidence",
      },
    ),
  );

  // 4. judge agreement: kappa with a CI, and kappa -> p_j -> p*
  const kappaRows: Record<string, unknown>[] = [];
  for (
    const [judge, kappa] of [["local judge", 0.3672], [
      "frontier judge, after the rubric fix",
      0.9037,
    ]] as const
  ) {
    for (const prevalence of [0.1, 0.3, 0.5]) {
      const pj = judgeErrorFromKappa(kappa, { prevalence });
      kappaRows.push({
        judge,
        kappa,
        prevalence,
        pj: r6(pj),
        pStar: r6(pj + ceOverCr),
        regime: pj + ceOverCr >= 1 ? "never-pays" : "threshold",
      });
    }
  }
  // a simulated judge with the local judge's p_j, checked on judgeItems gold labels
  const rng = seededPrng(seed + 7);
  const localPj = judgeErrorFromKappa(0.3672);
  const gold = Array.from(
    { length: judgeItems },
    () => (rng.next() < 0.5 ? "pass" : "fail"),
  );
  const judged = gold.map((
    g,
  ) => (rng.next() < localPj ? (g === "pass" ? "fail" : "pass") : g));
  const measured = cohensKappa(judged, gold);
  claims.push(
    claimClose(
      "routing.kappa.local_pj",
      "κ = 0.3672 means a judge error rate p_j = (1 − κ)/2 = 0.3164 at balanced prevalence",
      0.3164,
      judgeErrorFromKappa(0.3672),
      {
        kind: "property",
        tolerance: 1e-12,
        source: "third-number: local judge kappa 0.3672",
      },
    ),
    claimClose(
      "routing.kappa.frontier_pj",
      "κ = 0.9037 means p_j = 0.04815 at balanced prevalence",
      0.04815,
      judgeErrorFromKappa(0.9037),
      {
        kind: "property",
        tolerance: 1e-12,
        source: "third-number: frontier judge kappa 0.9037 after a rubric fix",
      },
    ),
    claimClose(
      "routing.kappa.p_star_gap",
      `Swapping the local judge for the frontier one lowers p* by 0.2683 at C_e/C_r = ${ceOverCr}`,
      0.2683,
      judgeErrorFromKappa(0.3672) - judgeErrorFromKappa(0.9037),
      { kind: "property", tolerance: 5e-5, source: SOURCE },
    ),
    claimEqual(
      "routing.kappa.interval_covers",
      `A simulated judge with p_j = 0.3164, checked on ${judgeItems} gold labels, has a 95% kappa interval that covers 0.3672`,
      true,
      measured.lo! <= 0.3672 && 0.3672 <= measured.hi!,
      {
        kind: "property",
        source: "fleiss-1969: large-sample standard error of kappa",
      },
    ),
  );
  const kappaCurve = [0.1, 0.3, 0.5].flatMap((prevalence) =>
    Array.from({ length: 41 }, (_, i) => {
      const kappa = i / 40;
      return {
        kappa,
        prevalence: `prevalence ${prevalence}`,
        pStar: r6(judgeErrorFromKappa(kappa, { prevalence }) + ceOverCr),
      };
    })
  );

  const charts = {
    total_cost_by_k: lineChart(kRows, {
      x: "K",
      y: "total",
      group: "policy",
      title: "Switchyard per 145-task run: spend + failed tasks × K",
      xTitle: "K, cost of one failed task ($, log scale)",
      yTitle: "total cost per run ($, log scale)",
      xScale: "log",
      yScale: "log",
      markers: [{ x: kStar, label: `K* = $${kStar.toFixed(2)}` }],
    }),
    routing: groupedBarChart(
      routingRows.flatMap((r) => {
        const policy = r.policy.replace(/ \(.*\)$/, "")
          .replace(/^loss-optimal on (\w+) P\(error\)$/, "loss-optimal, $1");
        return [
          { policy, part: "realised loss", value: r.realisedLoss },
          { policy, part: "spend", value: r.spend },
        ];
      }),
      {
        x: "policy",
        group: "part",
        y: "value",
        title: `Routing month 2 of the simulation (${profile.id} K, frontier $${
          price.frontier.toFixed(4)
        } per call)`,
        xTitle: "policy",
        yTitle: `${profile.currency ?? profile.unit ?? "profile units"} per ${
          n - Math.floor(n / 2)
        } decisions`,
        labelFormat: ",.1f",
        width: 700,
      },
    ),
    kappa_to_p_star: lineChart(kappaCurve, {
      x: "kappa",
      y: "pStar",
      group: "prevalence",
      title:
        `p* = p_j(κ) + C_e/C_r (C_e/C_r = ${ceOverCr}): the judge's kappa sets the break-even`,
      xTitle: "Cohen's kappa of the judge against gold",
      yTitle: "p*",
      markers: [{ x: 0.3672, label: "local judge 0.3672" }, {
        x: 0.9037,
        label: "frontier judge 0.9037",
      }],
    }),
  };

  return {
    id: "routing",
    title:
      "Routing in money: Switchyard with the error-cost term, loss-optimal routing, judge kappa",
    source: SOURCE,
    parameters: {
      profile: `${profile.id}@${profile.version}`,
      decisions: n,
      seed,
      ceOverCr,
      judgeItems,
      measuredKappa: r6(measured.kappa),
      measuredKappaLo: r6(measured.lo),
      measuredKappaHi: r6(measured.hi),
      kappaModel:
        "binary labels, gold labels are the truth, the judge errs at one rate p_j on both classes, known prevalence, measured on the escalated set",
      kappaCheck: r6(kappaFromJudgeError(localPj)),
    },
    tables: {
      switchyard: aq.from(switchyardRows),
      total_cost_by_k: aq.from(kRows),
      registry_anchors: aq.from(anchorRows),
      routing: aq.from(routingRows),
      kappa: aq.from(kappaRows),
    },
    charts,
    claims,
  };
}
