// Risk-coverage and the optimal escalation threshold on 10,000,000
// decisions, and ECE with a 1,000-resample bootstrap interval on 1,000,000,
// each against a naive O(n × thresholds) or O(n × resamples) way measured
// in the same worker. The naive ways are too slow to run in full (10⁷
// decisions × every distinct threshold; 10⁶ decisions × 1,000 resamples of
// row draws), so they run on a fixed subset of thresholds (40) or resamples
// (60) and their per-unit time is scaled up: their lines say
// "extrapolated". Their results are checked equal (thresholds) to the fast
// ones; the bootstrap spreads are reported side by side.
import {
  type CaseInfo,
  type Children,
  type Group,
  roundsOf,
  rowsOf,
  worker,
} from "../_case.ts";
import {
  IN_PROCESS_RSS,
  maxOrNull,
  type Result,
  resultOf,
  timeInProcess,
} from "../_measure.ts";

const K = [0.2, 1, 10, 50]; // reconciliation K for LOW, MEDIUM, HIGH, CRITICAL
const SEV = ["LOW", "MEDIUM", "HIGH", "CRITICAL"];
const THRESHOLDS = 40;
const RESAMPLES = 60;

interface Timed {
  seconds: number;
  peakRssBytes: number | null;
}

interface PolicyOut {
  runs: Record<string, Timed[]>;
  /** what a naive run covers, and what it is scaled to */
  scale: Record<string, { measured: number; scaledTo: number }>;
  facts: Record<string, unknown>;
}

/** Functions the policy group runs in a worker. */
export const children: Children = {
  async policy(
    args: { n: number; m: number; rounds: number; names: string[] },
  ): Promise<PolicyOut> {
    const { binEdges, binIndex } = await import(
      "../../lib/calibration/binning.ts"
    );
    const { eceInterval } = await import(
      "../../lib/calibration/ece_interval.ts"
    );
    const { eceNoiseFloor } = await import(
      "../../lib/calibration/noise_floor.ts"
    );
    const { seededPrng } = await import("../../lib/math/sampling.ts");
    const { optimalThreshold, thresholdsByGroup } = await import(
      "../../lib/policy/optimal_threshold.ts"
    );
    const { riskCoverage } = await import("../../lib/policy/risk_coverage.ts");
    const want = new Set(args.names);
    const runs: Record<string, Timed[]> = {};
    const scale: PolicyOut["scale"] = {};
    const facts: Record<string, unknown> = {};
    const repeat = async <T>(name: string, f: () => T): Promise<T> => {
      let value!: T;
      for (let r = 0; r < args.rounds; r++) {
        const t = await timeInProcess(f);
        value = t.value;
        (runs[name] ??= []).push({
          seconds: t.seconds,
          peakRssBytes: t.peakRssBytes,
        });
      }
      return value;
    };
    /** n decisions: true P(correct) from a skewed mix, stated P(error) rounded to six decimals as run exports are. */
    const decisions = (n: number, seed: number) => {
      const rng = seededPrng(seed);
      const pError = new Float64Array(n);
      const error = new Uint8Array(n);
      const exposure = new Float64Array(n);
      const severity = new Array<string>(n);
      for (let i = 0; i < n; i++) {
        const u = rng.next();
        const p = u * u * u * 0.6; // most decisions sure, a tail of doubtful ones
        pError[i] = Math.round(p * 1e6) / 1e6;
        error[i] = rng.next() < p ? 1 : 0;
        const s = Math.min(3, Math.floor(rng.next() * 3.3));
        exposure[i] = K[s];
        severity[i] = SEV[s];
      }
      return { pError, error, exposure, severity };
    };

    const riskNames = [
      "risk-coverage",
      "optimal-threshold",
      "thresholds-by-group",
      "risk-coverage-naive",
    ];
    if (riskNames.some((x) => want.has(x))) {
      const N = args.n;
      const { pError, error, exposure, severity } = decisions(N, 20_261_129);
      const reviewCost = 1;
      const rc = riskCoverage(pError, error, { exposure, reviewCost });
      if (want.has("risk-coverage")) {
        await repeat(
          "risk-coverage",
          () => riskCoverage(pError, error, { exposure, reviewCost }),
        );
      }
      if (want.has("optimal-threshold")) {
        const opt = await repeat(
          "optimal-threshold",
          () => optimalThreshold(pError, error, { exposure, reviewCost }),
        );
        facts.optimum = {
          threshold: opt.threshold,
          escalated: opt.escalated,
          cost: opt.cost,
          costAllAuto: opt.costAllAuto,
        };
      }
      if (want.has("thresholds-by-group")) {
        await repeat(
          "thresholds-by-group",
          () =>
            thresholdsByGroup(pError, error, {
              exposure,
              reviewCost,
              group: severity,
            }),
        );
      }
      const distinct = rc.threshold.length - 1;
      facts.distinctThresholds = distinct;
      if (want.has("risk-coverage-naive")) {
        // for each threshold, one pass over every decision
        const step = Math.max(1, Math.floor(distinct / THRESHOLDS));
        const picked = Array.from(
          { length: THRESHOLDS },
          (_, i) => Math.min(distinct, 1 + i * step),
        );
        const costs = await repeat(
          "risk-coverage-naive",
          () =>
            picked.map((j) => {
              const t = rc.threshold[j];
              let cost = 0;
              for (let i = 0; i < N; i++) {
                cost += pError[i] <= t ? error[i] * exposure[i] : reviewCost;
              }
              return cost;
            }),
        );
        picked.forEach((j, k) => {
          const exact = rc.cost[j];
          if (Math.abs(costs[k] - exact) > 1e-6 * Math.max(1, exact)) {
            throw new Error(
              `naive and exact disagree at threshold ${rc.threshold[j]}: ${
                costs[k]
              } vs ${exact}`,
            );
          }
        });
        scale["risk-coverage-naive"] = {
          measured: THRESHOLDS,
          scaledTo: distinct,
        };
      }
    }

    const eceNames = ["ece-interval", "ece-naive", "ece-noise-floor"];
    if (eceNames.some((x) => want.has(x))) {
      const M = args.m;
      const { pError, error } = decisions(M, 20_261_130);
      const p = Float64Array.from(pError, (v) => 1 - v);
      const y = Uint8Array.from(error, (e) => 1 - e);
      if (want.has("ece-interval")) {
        const fast = await repeat(
          "ece-interval",
          () => eceInterval(p, y, { resamples: 1000, seed: 1 }),
        );
        facts.ece = {
          estimate: fast.estimate,
          lo: fast.lo,
          hi: fast.hi,
          halfWidthOver196: (fast.hi! - fast.lo!) / (2 * 1.96),
        };
      }
      if (want.has("ece-noise-floor")) {
        await repeat(
          "ece-noise-floor",
          () => eceNoiseFloor(p, { replicates: 200, seed: 2 }),
        );
      }
      if (want.has("ece-naive")) {
        // each resample draws M row indices and re-bins them
        const edges = binEdges(p, { bins: 10 });
        const bin = Int32Array.from(p, (v) => binIndex(edges, v));
        const draws = await repeat("ece-naive", () => {
          const rng = seededPrng(3);
          const sp = new Float64Array(10);
          const sy = new Float64Array(10);
          const out: number[] = [];
          for (let r = 0; r < RESAMPLES; r++) {
            sp.fill(0);
            sy.fill(0);
            for (let t = 0; t < M; t++) {
              const i = Math.floor(rng.next() * M);
              sp[bin[i]] += p[i];
              sy[bin[i]] += y[i];
            }
            let s = 0;
            for (let b = 0; b < 10; b++) s += Math.abs(sy[b] - sp[b]);
            out.push(s / M);
          }
          return out;
        });
        const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
        facts.naiveBootstrapSd = Math.sqrt(
          draws.reduce((s, v) => s + (v - mean) ** 2, 0) / (draws.length - 1),
        );
        scale["ece-naive"] = { measured: RESAMPLES, scaledTo: 1000 };
      }
    }
    return { runs, scale, facts };
  },
};

const CASES: CaseInfo[] = [
  {
    name: "risk-coverage",
    what: "riskCoverage(): every distinct threshold, AURC, E-AURC, optimum",
    rows: 10_000_000,
    peers: ["risk-coverage-naive"],
  },
  {
    name: "optimal-threshold",
    what: "optimalThreshold()",
    rows: 10_000_000,
  },
  {
    name: "thresholds-by-group",
    what: "thresholdsByGroup() per severity",
    rows: 10_000_000,
  },
  {
    name: "risk-coverage-naive",
    what:
      `naive O(n × thresholds), ${THRESHOLDS} thresholds timed, scaled to every distinct one`,
    rows: 10_000_000,
  },
  {
    name: "ece-interval",
    what: "eceInterval(), 1,000 resamples on bin sufficient statistics",
    rows: 1_000_000,
    peers: ["ece-naive"],
  },
  {
    name: "ece-naive",
    what: `naive row bootstrap, ${RESAMPLES} resamples timed, scaled to 1,000`,
    rows: 1_000_000,
  },
  {
    name: "ece-noise-floor",
    what: "eceNoiseFloor(), 200 calibrated replicates",
    rows: 1_000_000,
  },
];

/** The policy and calibration group, in one worker. */
export const policy: Group = {
  name: "policy",
  cases: CASES,
  rounds: 3,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    const n = rowsOf(ctx, CASES[0]);
    const m = rowsOf(ctx, CASES[4]);
    ctx.log(`${infos.map((c) => c.name).join(", ")} in one worker`);
    const { value } = await worker<PolicyOut>(ctx, "policy", "policy", {
      n,
      m,
      rounds: roundsOf(ctx, policy),
      names: infos.map((c) => c.name),
    });
    return infos.map((c): Result => {
      const taken = value.runs[c.name];
      const s = value.scale[c.name];
      const factor = s === undefined ? 1 : s.scaledTo / s.measured;
      return resultOf({
        name: c.name,
        what: c.what,
        timing: s === undefined ? "in-process" : "extrapolated",
        rows: rowsOf(ctx, c),
        peakRssBytes: maxOrNull(taken.map((t) => t.peakRssBytes)),
        rssSource: IN_PROCESS_RSS,
        peers: c.peers?.filter((p) => selected.has(p)),
        extra: {
          ...(s === undefined ? {} : {
            measuredSeconds: taken.map((t) => t.seconds),
            measuredUnits: s.measured,
            scaledToUnits: s.scaledTo,
          }),
          ...(c.name === "risk-coverage" || c.name === "ece-interval"
            ? value.facts
            : {}),
        },
      }, taken.map((t) => t.seconds * factor));
    });
  },
};
