/**
 * The Veto Frontier (`veto-frontier`) as computed curves: the break-even
 * p*, the expected-cost curve of a margin threshold, the regret bound
 * against realised excess, the sign test, the RRF margin lattice and the
 * certified threshold under dense-side quantisation.
 *
 * A seeded synthetic catalog of 2,000 skills is routed by reciprocal rank
 * fusion (k = 60) of a BM25-like and a dense-like ranker. The first half of
 * the queries is the labelled calibration set (the margin is calibrated into
 * P(wrong) by isotonic regression); the second half is where costs, sign
 * tests and certification are read.
 *
 * @module
 */

import * as aq from "arquero";
import { applyCalibrator } from "../lib/calibration/calibrator.ts";
import { fitIsotonic } from "../lib/calibration/isotonic.ts";
import { costThresholdChart } from "../lib/charts/cost_threshold_curve.ts";
import { lineChart } from "../lib/charts/line_chart.ts";
import { groupedBarChart } from "../lib/charts/specs.ts";
import type { AnalysisResult } from "../lib/claims/analysis_result.ts";
import { type Claim, claimClose, claimEqual } from "../lib/claims/claim.ts";
import { beta, normal, seededPrng } from "../lib/math/sampling.ts";
import { breakEven, type VetoCosts } from "../lib/policy/break_even.ts";
import {
  certificationOverhead,
  marginThreshold,
} from "../lib/policy/certified_threshold.ts";
import { judgeErrorFromKappa } from "../lib/policy/kappa.ts";
import { policyRegret } from "../lib/policy/regret.ts";
import {
  rrfErosionBound,
  rrfMarginLattice,
  rrfWorstErosion,
} from "../lib/policy/rrf_lattice.ts";
import { signTest } from "../lib/policy/sign_test.ts";
import { simulateSkillCatalog } from "../lib/policy/skill_catalog.ts";
import { vetoCostCurve } from "../lib/policy/veto_cost_curve.ts";

const SOURCE =
  "veto-frontier: break-even, regret bound, sign test, RRF lattice";

/** Options for {@linkcode vetoFrontier}. */
export interface VetoFrontierOptions {
  /** p_j, C_e and C_r of the operating example. Default: p_j 0.1, C_e 0.02, C_r 1. */
  costs?: VetoCosts;
  /** Skills in the catalog. Default: 2,000. */
  skills?: number;
  /** Queries routed (half calibrate, half evaluate). Default: 1,000. */
  queries?: number;
  /** The RRF constant. Default: 60. */
  k?: number;
  /** Dense-side bit widths. Default: [10, 8, 7, 6]. */
  bits?: readonly number[];
  /** Seed. Default: 20,261,202. */
  seed?: number;
  /** Seeded trials of the regret bound. Default: 20. */
  regretTrials?: number;
  /** Queries per regret trial. Default: 5,000. */
  regretQueries?: number;
  /** Size of the small golden set (the sra_bench + route_bench of `veto-frontier`). Default: 63. */
  goldenSet?: number;
}

const r6 = (x: number | null) => x === null ? null : Math.round(x * 1e6) / 1e6;
const r9 = (x: number | null) => x === null ? null : Math.round(x * 1e9) / 1e9;

/**
 * Reproduce the Veto Frontier's results on a seeded synthetic skill catalog.
 *
 * @param options Costs, catalog size, k, bit widths, seed and trial counts.
 * @returns Tables `break_even`, `cost_curve`, `sign_test`, `regret`,
 * `lattice`, `lattice_atoms` and `certified`; charts `cost_curve`,
 * `regret`, `margin_lattice` and `certified`; and the claims (the RRF
 * figures 0.0318 and 0.00053 among them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { vetoFrontier } from "./veto_frontier.ts";
 *
 * const result = vetoFrontier({ regretTrials: 3, regretQueries: 1000 });
 * assert.ok(result.claims.every((c) => c.holds), result.claims.filter((c) => !c.holds).map((c) => c.id).join());
 * ```
 */
export function vetoFrontier(
  options: VetoFrontierOptions = {},
): AnalysisResult {
  const costs = options.costs ?? { pj: 0.1, ce: 0.02, cr: 1 };
  const skills = options.skills ?? 2000;
  const queries = options.queries ?? 1000;
  const k = options.k ?? 60;
  const bits = options.bits ?? [10, 8, 7, 6];
  const seed = options.seed ?? 20_261_202;
  const regretTrials = options.regretTrials ?? 20;
  const regretQueries = options.regretQueries ?? 5000;
  const golden = options.goldenSet ?? 63;
  const claims: Claim[] = [];
  const be = breakEven(costs);
  const pStar = be.pStar;

  // 1. break-even p* across judge tiers and skill classes
  const localPj = judgeErrorFromKappa(0.3672);
  const frontierPj = judgeErrorFromKappa(0.9037);
  const scenarios: [string, VetoCosts][] = [
    ["operating example", costs],
    ["free judge (C_e = 0)", { ...costs, ce: 0 }],
    ["read-only skill (C_r = 0.05)", { ...costs, cr: 0.05 }],
    ["destructive skill (C_r = 5)", { ...costs, cr: 5 }],
    ["local judge, κ = 0.3672 (p_j at π = 1/2)", { ...costs, pj: localPj }],
    ["frontier judge, κ = 0.9037 (p_j at π = 1/2)", {
      ...costs,
      pj: frontierPj,
    }],
    ["local judge on a read-only skill", {
      pj: localPj,
      ce: costs.ce,
      cr: 0.025,
    }],
  ];
  const breakEvenRows = scenarios.map(([scenario, c]) => {
    const b = breakEven(c);
    return {
      scenario,
      pj: r6(b.pj),
      ce: b.ce,
      cr: b.cr,
      pStar: r6(b.pStar),
      regime: b.regime,
    };
  });
  claims.push(
    claimClose(
      "veto.p_star.example",
      "p* = p_j + C_e/C_r = 0.1 + 0.02/1 = 0.12 for the operating example",
      0.12,
      breakEven({ pj: 0.1, ce: 0.02, cr: 1 }).pStar,
      { kind: "published", tolerance: 1e-12, source: SOURCE },
    ),
    claimClose(
      "veto.p_star.free_judge",
      "A free judge (C_e = 0) gives p* = p_j",
      costs.pj,
      breakEven({ ...costs, ce: 0 }).pStar,
      { kind: "property", tolerance: 0, source: SOURCE },
    ),
    claimEqual(
      "veto.p_star.never_pays",
      "When p_j + C_e/C_r ≥ 1 escalation never pays and is flagged",
      "never-pays",
      breakEven({ pj: localPj, ce: costs.ce, cr: 0.025 }).regime,
      { kind: "property", source: SOURCE },
    ),
  );

  // 2. the synthetic catalog
  const run = simulateSkillCatalog({ skills, queries, k, bits, seed });
  const half = Math.floor(queries / 2);
  const fitMargin = run.margin.slice(0, half);
  const fitError = run.error.slice(0, half);
  const margin = run.margin.slice(half);
  const error = run.error.slice(half);
  const nEval = margin.length;
  const tStar = marginThreshold(fitMargin, fitError, { pStar }).tStar;

  // 3. the expected-cost curve against the threshold
  const curve = vetoCostCurve(margin, error, costs);
  const curveRows = curve.threshold.map((c, j) => ({
    threshold: Number.isFinite(c) ? r9(c) : null,
    escalatedShare: r6(curve.escalatedShare[j]),
    escalatedErrorRate: r6(curve.escalatedErrorRate[j]),
    costPerQuery: r6(curve.cost[j]),
  }));
  const tStarCost = costAt(margin, error, costs, tStar);
  const marks = [
    {
      x: curve.operatingPoint.threshold,
      y: curve.operatingPoint.cost,
      label: "operating point (minimum)",
    },
    ...(curve.crossing === null ? [] : [{
      x: curve.crossing.threshold,
      y: costAt(margin, error, costs, curve.crossing.threshold),
      label: "r(c) passes p*",
    }]),
    ...(Number.isFinite(tStar)
      ? [{ x: tStar, y: tStarCost, label: "calibrated t*" }]
      : []),
  ];
  const op = curve.operatingPoint;
  const opK = Math.round(op.escalatedShare * nEval);
  claims.push(
    claimEqual(
      "veto.cost_curve.operating_point_below_auto",
      "The operating point costs less per query than always auto-executing",
      true,
      op.cost < curve.alwaysAuto,
      { kind: "property", source: SOURCE },
    ),
    claimClose(
      "veto.cost_curve.identity",
      "At the operating point, cost − always-auto = k·C_r·(p* − r(c))/n exactly",
      (opK * costs.cr * (pStar - (op.escalatedErrorRate ?? 0))) / nEval,
      op.cost - curve.alwaysAuto,
      {
        kind: "derived",
        how: "k·C_r·(p* − r(c))/n from the operating point's escalation counts",
        tolerance: 1e-12,
        source: SOURCE,
      },
    ),
    claimEqual(
      "veto.cost_curve.crossing",
      "The curve crosses the always-auto line where r(c) passes p*: r > p* at the crossing, and escalating everything costs more than always-auto",
      true,
      curve.crossing !== null && curve.crossing.escalatedErrorRate > pStar &&
        curve.alwaysEscalate > curve.alwaysAuto,
      { kind: "property", source: SOURCE },
    ),
  );

  // 4. the sign test r(c) > p*
  const testAt: [string, number][] = [
    [
      "adjacent top-2 margin 2/((k+1)(k+2))",
      rrfMarginLattice({ k }).adjacentTop2,
    ],
    ["calibrated t*", tStar],
    ["operating point", op.threshold],
    ...(curve.crossing === null
      ? []
      : [["crossing", curve.crossing.threshold] as [string, number]]),
    ["median margin", median(margin)],
  ];
  const signRows: Record<string, unknown>[] = [];
  for (const [label, c] of testAt) {
    for (
      const [set, m, e] of [
        [`evaluation half (n = ${nEval})`, margin, error],
        [
          `golden set (n = ${golden})`,
          margin.slice(0, golden),
          error.slice(0, golden),
        ],
      ] as const
    ) {
      for (const method of ["clopper-pearson", "wilson"] as const) {
        const t = signTest(m, e, { threshold: c, pStar, method });
        signRows.push({
          threshold: label,
          c: r9(c),
          set,
          method,
          escalated: t.escalated,
          escalatedErrors: t.escalatedErrors,
          rate: r6(t.rate),
          lo: r6(t.lo),
          hi: r6(t.hi),
          pStar: r6(pStar),
          verdict: t.verdict,
        });
      }
    }
  }
  const opSign = signTest(margin, error, { threshold: op.threshold, pStar });
  claims.push(claimEqual(
    "veto.sign_test.operating_point",
    "At the operating point the Clopper–Pearson interval on r(c) lies above p*: the veto beats always-auto",
    "beats always-auto",
    opSign.verdict,
    { kind: "property", source: SOURCE },
  ));

  // 5. the regret bound against realised excess
  const regretRows = regretTable(regretTrials, regretQueries, seed + 1);
  // a realistic trial: the margin calibrated on the golden set only, against the calibration half
  const full = fitIsotonic(fitMargin, Uint8Array.from(fitError, (e) => 1 - e));
  const small = fitIsotonic(
    fitMargin.slice(0, golden),
    Uint8Array.from(fitError.slice(0, golden), (e) => 1 - e),
  );
  const pTrue = Float64Array.from(applyCalibrator(full, margin), (v) => 1 - v);
  const qGolden = Float64Array.from(
    applyCalibrator(small, margin),
    (v) => 1 - v,
  );
  const golden63 = policyRegret(qGolden, pTrue, costs);
  regretRows.push({
    trial: `golden ${golden}`,
    miscalibration:
      `margin calibrated on the golden set (n = ${golden}) against the calibration half`,
    pj: costs.pj,
    ce: costs.ce,
    cr: costs.cr,
    excess: r9(golden63.excess),
    bound: r9(golden63.bound),
    sampledExcess: null,
    disagreements: golden63.disagreements,
    holds: golden63.holds,
  });
  const holding = regretRows.filter((r) => r.holds).length;
  claims.push(claimEqual(
    "veto.regret.every_trial",
    `In every one of the ${regretRows.length} seeded trials the excess cost over the Bayes policy is at most C_r·E|q − p|`,
    regretRows.length,
    holding,
    { kind: "property", source: SOURCE },
  ));

  // 6. the RRF margin lattice
  const lattice = rrfMarginLattice({ candidates: skills, k });
  const latticeRows = [
    {
      quantity: "maximum margin, veto-frontier's bound 2/(k+1) − 2/(k+N)",
      value: r9(lattice.maxMarginBound),
    },
    {
      quantity: "maximum margin attainable, 2/(k+1) − 1/(k+2) − 1/(k+N)",
      value: r9(lattice.maxMarginAttainable),
    },
    {
      quantity: "adjacent top-2 margin 2/((k+1)(k+2))",
      value: r9(lattice.adjacentTop2),
    },
    {
      quantity: "erosion per position of dense-rank move, 2/(k+1)²",
      value: r9(lattice.erosionPerRank),
    },
    {
      quantity: "exact worst erosion of a one-position move, 2/((k+1)(k+2))",
      value: r9(rrfWorstErosion(1, { k })),
    },
    {
      quantity: "largest simulated margin",
      value: r9(Math.max(...run.margin)),
    },
    {
      quantity: "lattice points, at most N⁴",
      value: lattice.latticePointsBound,
    },
  ];
  const atoms = latticeAtoms(run);
  const adjacentShare =
    run.margin.filter((m) => Math.abs(m - lattice.adjacentTop2) < 1e-15)
      .length / queries;
  claims.push(
    claimClose(
      "veto.rrf.max_margin",
      "RRF margin with k = 60, N = 2,000: maximum 2/(k+1) − 2/(k+N) = 0.0318",
      0.0318,
      lattice.maxMarginBound,
      { kind: "published", tolerance: 5e-5, source: SOURCE },
    ),
    claimClose(
      "veto.rrf.adjacent_top2",
      "Adjacent top-2 margin 2/((k+1)(k+2)) = 0.00053",
      0.00053,
      lattice.adjacentTop2,
      { kind: "published", tolerance: 5e-6, source: SOURCE },
    ),
    claimClose(
      "veto.rrf.erosion_per_rank",
      "A one-position dense-rank move erodes the margin by at most 2/(k+1)², about one two-thousandth",
      1 / 2000,
      rrfErosionBound(1, { k }),
      { kind: "published", tolerance: 5e-5, source: SOURCE },
    ),
    claimClose(
      "veto.rrf.worst_erosion_equals_adjacent",
      "The exact worst case of a one-position move equals the adjacent top-2 margin",
      lattice.adjacentTop2,
      rrfWorstErosion(1, { k }),
      {
        kind: "derived",
        how: "the adjacent top-2 margin 2/((k+1)(k+2)) of the same lattice",
        tolerance: 1e-17,
        source:
          "veto-frontier: the worst one-position move is 'the same order as an adjacent top-2 margin'",
      },
    ),
    claimClose(
      "veto.rrf.attainable_max",
      "The largest margin two rankings of 2,000 skills can produce is 2/(k+1) − 1/(k+2) − 1/(k+N) ≈ 0.0162, about half the bound veto-frontier states",
      0.0162,
      lattice.maxMarginAttainable,
      {
        kind: "property",
        tolerance: 5e-5,
        source:
          "lossbook: the attainable RRF margin, checked by brute force in tests/lib/policy/rrf_test.ts",
      },
    ),
    claimEqual(
      "veto.rrf.simulated_within_lattice",
      "Every simulated margin is at most the attainable maximum",
      true,
      Math.max(...run.margin) <= lattice.maxMarginAttainable + 1e-15,
      { kind: "property", source: SOURCE },
    ),
  );

  // 7. the certified threshold under quantisation
  const certRows: Record<string, unknown>[] = [];
  const certChart: Record<string, unknown>[] = [];
  let allHold = true;
  let certifiedFlips = 0;
  for (const q of run.quantised) {
    const o = certificationOverhead(margin, {
      tStar,
      rankShift: q.maxRankShift,
      k,
      ce: costs.ce,
    });
    const qFlip = q.top1Changed.slice(half);
    const qErr = q.error.slice(half);
    let flipsCertified = 0;
    let flipsUncertifiedAuto = 0;
    for (let i = 0; i < nEval; i++) {
      if (margin[i] >= o.threshold) flipsCertified += qFlip[i];
      else if (margin[i] >= tStar) flipsUncertifiedAuto += qFlip[i];
    }
    certifiedFlips += flipsCertified;
    allHold &&= o.holds;
    const quantCost = (threshold: number) => {
      let s = 0;
      for (let i = 0; i < nEval; i++) {
        s += margin[i] >= threshold
          ? costs.cr * qErr[i]
          : costs.ce + costs.pj * costs.cr;
      }
      return s / nEval;
    };
    certRows.push({
      bits: q.bits,
      rankShift: q.maxRankShift,
      erosion: r9(o.erosion),
      tStar: r9(tStar),
      threshold: r9(o.threshold),
      binding: o.binding,
      atRisk: r6(o.atRisk),
      extraEscalated: r6(o.extraEscalated),
      overhead: r9(o.overhead),
      bound: r9(o.bound),
      flipsCertified,
      flipsAutoWithoutCertification: flipsUncertifiedAuto,
      costPerQueryCertified: r6(quantCost(o.threshold)),
      costPerQueryUncertified: r6(quantCost(tStar)),
    });
    certChart.push(
      { bits: q.bits, measure: "at-risk share ρ(b)", share: r6(o.atRisk) },
      {
        bits: q.bits,
        measure: "extra escalations (t* ≤ margin < Δ)",
        share: r6(o.extraEscalated),
      },
      {
        bits: q.bits,
        measure: "top-1 flips, all queries",
        share: r6(qFlip.reduce((a, b) => a + b, 0) / nEval),
      },
    );
  }
  claims.push(
    claimEqual(
      "veto.certified.overhead_bound",
      "At every bit width the extra judge spend of certification is at most ρ(b)·C_e per query",
      true,
      allHold,
      { kind: "property", source: SOURCE },
    ),
    claimEqual(
      "veto.certified.no_flips",
      "No query served above the certified threshold changes its top skill under quantisation, at any bit width",
      0,
      certifiedFlips,
      { kind: "property", source: SOURCE },
    ),
  );

  // charts
  const step = Math.max(1, Math.floor(curveRows.length / 200));
  // always-auto sits left of every margin: draw it at a small negative threshold
  const curvePoints = curve.threshold
    .map((c, j) => ({
      threshold: Number.isFinite(c) ? c : -Math.max(...margin) / 40,
      cost: curve.cost[j],
    }))
    .filter((_, j) => j % step === 0 || j === curve.threshold.length - 1);
  const sortedMargins = [...run.margin].sort((a, b) => a - b);
  const ecdf = sortedMargins.map((m, i) => ({
    margin: m,
    share: (i + 1) / queries,
  }))
    .filter((_, i, all) =>
      i === all.length - 1 || all[i + 1].margin !== all[i].margin
    );
  const charts = {
    cost_curve: costThresholdChart(curvePoints, {
      x: "threshold",
      y: "cost",
      title:
        `Expected cost per query against the margin threshold (p_j ${costs.pj}, C_e ${costs.ce}, C_r ${costs.cr}; p* = ${
          r6(pStar)
        })`,
      xTitle: "escalate iff RRF margin ≤ c",
      yTitle: "cost per query",
      flat: { y: curve.alwaysAuto, label: "always auto-execute" },
      marks,
    }),
    regret: groupedBarChart(
      regretRows.flatMap((r) => [
        { trial: r.trial, measure: "bound C_r·E|q − p|", value: r.bound },
        { trial: r.trial, measure: "excess over Bayes", value: r.excess },
      ]),
      {
        x: "trial",
        group: "measure",
        y: "value",
        title: "Regret bound against realised excess, per seeded trial",
        xTitle: "trial",
        yTitle: "cost per query",
        labelFormat: ".2~g",
        width: 900,
      },
    ),
    margin_lattice: lineChart(ecdf, {
      x: "margin",
      y: "share",
      title:
        `Simulated RRF margins on the rank lattice (k = ${k}, N = ${skills})`,
      xTitle: "RRF margin (top-1 − top-2 fused score)",
      yTitle: "share of queries with margin ≤ x",
      markers: [
        { x: lattice.adjacentTop2, label: "adjacent top-2 0.00053" },
        ...(Number.isFinite(tStar)
          ? [{ x: tStar, label: `t* ${r6(tStar)}` }]
          : []),
        { x: lattice.maxMarginAttainable, label: "attainable max 0.0162" },
      ],
      yDomain: [0, 1],
    }),
    certified: lineChart(certChart, {
      x: "bits",
      y: "share",
      group: "measure",
      title:
        "Certification against dense-side quantisation: what each bit width puts at risk",
      xTitle: "dense-score bits b",
      yTitle: "share of queries",
      points: true,
      yDomain: [0, 1],
    }),
  };

  return {
    id: "veto_frontier",
    title:
      "The veto frontier: break-even p*, cost curve, regret bound, sign test, RRF lattice, certified threshold",
    source: SOURCE,
    parameters: {
      pj: costs.pj,
      ce: costs.ce,
      cr: costs.cr,
      pStar: r9(pStar),
      skills,
      queries,
      k,
      bits: [...bits],
      seed,
      regretTrials,
      regretQueries,
      goldenSet: golden,
      adjacentShare: r6(adjacentShare),
    },
    tables: {
      break_even: aq.from(breakEvenRows),
      cost_curve: aq.from(curveRows),
      sign_test: aq.from(signRows),
      regret: aq.from(regretRows),
      lattice: aq.from(latticeRows),
      lattice_atoms: aq.from(atoms),
      certified: aq.from(certRows),
    },
    charts,
    claims,
  };
}

/** Expected cost per query of escalating the queries with margin ≤ c. */
function costAt(
  margin: ArrayLike<number>,
  error: ArrayLike<number>,
  c: VetoCosts,
  threshold: number,
): number {
  let s = 0;
  for (let i = 0; i < margin.length; i++) {
    s += margin[i] <= threshold ? c.ce + c.pj * c.cr : c.cr * error[i];
  }
  return s / margin.length;
}

function median(xs: ArrayLike<number>): number {
  const s = Float64Array.from(xs).sort();
  return s[Math.floor((s.length - 1) / 2)];
}

/** The most frequent margins of a run: the lattice's atoms, with the rank tuple that makes each. */
function latticeAtoms(
  run: ReturnType<typeof simulateSkillCatalog>,
): Record<string, unknown>[] {
  const by = new Map<
    string,
    { margin: number; count: number; ranks: string }
  >();
  for (let i = 0; i < run.queries; i++) {
    const ranks = `(${run.ranks.lexical1[i]}, ${run.ranks.dense1[i]}) vs (${
      run.ranks.lexical2[i]
    }, ${run.ranks.dense2[i]})`;
    const entry = by.get(ranks);
    if (entry) entry.count++;
    else by.set(ranks, { margin: run.margin[i], count: 1, ranks });
  }
  return [...by.values()]
    .sort((a, b) => b.count - a.count || a.margin - b.margin)
    .slice(0, 10)
    .map((a) => ({
      ranks: a.ranks,
      margin: r9(a.margin),
      queries: a.count,
      share: r6(a.count / run.queries),
    }));
}

/**
 * Seeded regret trials: true P(wrong) p ~ Beta(1.2, 6); the estimate q is
 * over-confident (p^s), under-confident (toward 1/2) or noisy (p + N(0, σ²),
 * clipped); the costs vary by trial. Reports the expected excess over the
 * Bayes policy (given p), the bound, and an excess from sampled outcomes.
 */
function regretTable(
  trials: number,
  n: number,
  seed: number,
): Record<string, unknown>[] {
  const rng = seededPrng(seed);
  const rows: Record<string, unknown>[] = [];
  for (let t = 0; t < trials; t++) {
    const kind = ["over-confident", "under-confident", "noisy"][t % 3];
    const strength = 1.5 + (t % 4) * 0.75;
    const c: VetoCosts = {
      pj: 0.02 + 0.03 * (t % 5),
      ce: 0.01 * (1 + (t % 4)),
      cr: [1, 2, 5, 0.5][t % 4],
    };
    const p = new Float64Array(n);
    const q = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = beta(rng, 1.2, 6);
      p[i] = v;
      q[i] = kind === "over-confident"
        ? Math.pow(v, strength)
        : kind === "under-confident"
        ? 0.5 + (v - 0.5) / strength
        : Math.min(1, Math.max(0, v + (0.05 * strength) * normal(rng)));
    }
    const r = policyRegret(q, p, c);
    // sampled outcomes, common to both policies: router wrong ~ Bernoulli(p), judge wrong ~ Bernoulli(p_j)
    const pStar = c.pj + c.ce / c.cr;
    let sampled = 0;
    for (let i = 0; i < n; i++) {
      const routerWrong = rng.next() < p[i] ? 1 : 0;
      const judgeWrong = rng.next() < c.pj ? 1 : 0;
      const cost = (esc: boolean) =>
        esc ? c.ce + c.cr * judgeWrong : c.cr * routerWrong;
      sampled += cost(q[i] > pStar) - cost(p[i] > pStar);
    }
    rows.push({
      trial: `T${t + 1}`,
      miscalibration: kind === "noisy"
        ? `noisy, σ = ${Number((0.05 * strength).toFixed(4))}`
        : `${kind}, strength ${strength}`,
      pj: r6(c.pj),
      ce: c.ce,
      cr: c.cr,
      excess: r9(r.excess),
      bound: r9(r.bound),
      sampledExcess: r9(sampled / n),
      disagreements: r.disagreements,
      holds: r.holds,
    });
  }
  return rows;
}
