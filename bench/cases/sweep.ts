// Sweeping 10,000 cost profiles over 20 models with 1,000,000 decisions
// each (20,000,000 decision rows), against a naive re-scan of the rows per
// profile measured in the same worker on 10 of the profiles and scaled to
// all of them (its losses are checked against the sweep's):
//   1. the rows, columnar (model, severity, gold class, predicted class,
//      action as bytes): each model's cell counts drawn with a seeded
//      multinomial, laid out cell by cell (sorted rows make the naive scan's
//      branches predictable, which favours the baseline);
//   2. one pass over the rows to sufficient statistics, then to loss
//      coefficients;
//   3. the full sweep: registry-drawn profiles, every model's loss, the
//      winners, Kendall tau, regret and win shares (sweepProfiles).
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

const MODELS = 20;
const PROFILES = 10_000;
const SAMPLE = 10;
const SEED = 20261105;

interface Timed {
  seconds: number;
  peakRssBytes: number | null;
}

interface SweepOut {
  runs: Record<string, Timed[]>;
  cells: number;
  worstRelativeDifference: number;
}

/** Functions the sweep group runs in a worker. */
export const children: Children = {
  async sweep(
    args: { rows: number; rounds: number; names: string[] },
  ): Promise<SweepOut> {
    const { SEVERITIES } = await import("../../lib/costs/severity.ts");
    const { beta, multinomial, seededPrng } = await import(
      "../../lib/math/sampling.ts"
    );
    const { lossCoefficients } = await import(
      "../../lib/sensitivity/loss_coefficients.ts"
    );
    const { drawRegistryProfiles } = await import(
      "../../lib/sensitivity/registry_draws.ts"
    );
    const { sweepProfiles } = await import("../../lib/sensitivity/sweep.ts");
    type StatsRow = import("../../lib/metrics/sufficient_stats.ts").StatsRow;
    type Prng = import("../../lib/math/sampling.ts").Prng;
    const want = new Set(args.names);
    const M = MODELS;
    const N = Math.max(1, Math.ceil(args.rows / M));

    // Classes: 0 is the clean class MATCH; each severity has two exception classes.
    const CLASSES = ["MATCH"];
    const EXC: Record<string, [number, number]> = {};
    for (const s of SEVERITIES) {
      EXC[s] = [CLASSES.push(`${s}_A`) - 1, CLASSES.push(`${s}_B`) - 1];
    }
    // Decision kinds per severity: correct exception, missed, wrong type,
    // correct clean, false alarm, escalated.
    const KINDS = 6;
    const modelWeights = (rng: Prng): number[] => {
      // a random model: severity mix, exception share, error rate per
      // severity, share of misses among errors, escalation rate
      const w: number[] = [];
      const mix = [0.4, 0.3, 0.2, 0.1];
      const escalate = 0.05 * rng.next();
      for (let s = 0; s < 4; s++) {
        const err = beta(rng, 2, 40);
        const miss = 0.3 + 0.6 * rng.next();
        const exceptions = 0.3;
        const auto = 1 - escalate;
        w.push(
          mix[s] * exceptions * auto * (1 - err),
          mix[s] * exceptions * auto * err * miss,
          mix[s] * exceptions * auto * err * (1 - miss),
          mix[s] * (1 - exceptions) * auto * (1 - err / 4),
          mix[s] * (1 - exceptions) * auto * (err / 4),
          mix[s] * escalate,
        );
      }
      return w;
    };
    const rng = seededPrng(SEED);
    const rows = M * N;
    const colModel = new Uint8Array(rows);
    const colSeverity = new Uint8Array(rows);
    const colTrue = new Uint8Array(rows);
    const colPred = new Uint8Array(rows);
    const colAction = new Uint8Array(rows); // 0 auto, 1 escalate
    let at = 0;
    for (let m = 0; m < M; m++) {
      const counts = multinomial(rng, N, modelWeights(rng));
      for (let s = 0; s < 4; s++) {
        const [a, b] = EXC[SEVERITIES[s]];
        const kinds: [number, number, number][] = [
          [a, a, 0], // correct exception
          [a, 0, 0], // missed
          [a, b, 0], // wrong type
          [0, 0, 0], // correct clean
          [0, a, 0], // false alarm
          [b, b, 1], // escalated
        ];
        for (let k = 0; k < KINDS; k++) {
          const n = counts[s * KINDS + k];
          const [t, p, act] = kinds[k];
          colModel.fill(m, at, at + n);
          colSeverity.fill(s, at, at + n);
          colTrue.fill(t, at, at + n);
          colPred.fill(p, at, at + n);
          colAction.fill(act, at, at + n);
          at += n;
        }
      }
    }
    // one pass over the rows: counts per (model, severity, true, pred, action)
    const onePass = (): StatsRow[] => {
      const C = CLASSES.length;
      const counts = new Float64Array(M * 4 * C * C * 2);
      for (let i = 0; i < rows; i++) {
        counts[
          ((((colModel[i] * 4 + colSeverity[i]) * C + colTrue[i]) * C +
            colPred[i]) * 2) + colAction[i]
        ]++;
      }
      const stats: StatsRow[] = [];
      for (let idx = 0; idx < counts.length; idx++) {
        const n = counts[idx];
        if (n === 0) continue;
        let r = idx;
        const action = r % 2;
        r = (r - action) / 2;
        const pred = r % C;
        r = (r - pred) / C;
        const tru = r % C;
        r = (r - tru) / C;
        const s = r % 4;
        const m = (r - s) / 4;
        stats.push({
          modelId: `model_${String(m).padStart(2, "0")}`,
          severity: SEVERITIES[s],
          trueClass: CLASSES[tru],
          predClass: CLASSES[pred],
          action: action === 1 ? "escalate" : "auto",
          n,
          pErrorSum: 0,
          pMissing: n,
          parseFailures: 0,
        });
      }
      return stats;
    };
    // the naive baseline: re-scan every row under one profile (a miss costs
    // K(severity); a wrong type, a false alarm or an escalation a review)
    const naiveLosses = (K: readonly number[], review: number) => {
      const loss = new Float64Array(M);
      for (let i = 0; i < rows; i++) {
        let cost = 0;
        if (colAction[i] === 1) cost = review;
        else if (colPred[i] !== colTrue[i]) {
          cost = colTrue[i] !== 0 && colPred[i] === 0
            ? K[colSeverity[i]]
            : review;
        }
        loss[colModel[i]] += cost;
      }
      return loss;
    };
    const runs: Record<string, Timed[]> = {};
    const repeat = async <T>(name: string, f: () => T): Promise<T> => {
      let value!: T;
      for (let r = 0; r < args.rounds; r++) {
        const t = await timeInProcess(f);
        value = t.value;
        if (want.has(name)) {
          (runs[name] ??= []).push({
            seconds: t.seconds,
            peakRssBytes: t.peakRssBytes,
          });
        }
        if (!want.has(name)) break;
      }
      return value;
    };
    const stats = await repeat("sweep-one-pass", onePass);
    const coef = await repeat(
      "sweep-coefficients",
      () => lossCoefficients(stats),
    );
    const profiles = drawRegistryProfiles({ draws: PROFILES, seed: SEED });
    const sweep = await repeat(
      "sweep-profiles",
      () => sweepProfiles(coef, profiles, { per: "run", ordered: false }),
    );
    let worst = 0;
    if (want.has("sweep-naive")) {
      // each run: the naive losses under SAMPLE of the profiles, per profile
      const step = Math.max(1, Math.floor(PROFILES / SAMPLE));
      for (let r = 0; r < args.rounds; r++) {
        let seconds = 0;
        let peak: number | null = null;
        for (let k = 0; k < SAMPLE; k++) {
          const i = k * step;
          const p = profiles[i];
          const t = await timeInProcess(() =>
            naiveLosses(SEVERITIES.map((s) => p.K[s]), p.reviewCost)
          );
          seconds += t.seconds;
          peak = t.peakRssBytes === null
            ? peak
            : Math.max(peak ?? 0, t.peakRssBytes);
          const fromSweep = sweep.points[i].losses;
          for (let m = 0; m < M; m++) {
            worst = Math.max(
              worst,
              Math.abs(t.value[m] - fromSweep[m]) /
                Math.max(1, Math.abs(t.value[m])),
            );
          }
        }
        (runs["sweep-naive"] ??= []).push({
          seconds: seconds / SAMPLE,
          peakRssBytes: peak,
        });
      }
      if (worst > 1e-6) {
        throw new Error(`naive and swept losses differ by ${worst}`);
      }
    }
    return { runs, cells: stats.length, worstRelativeDifference: worst };
  },
};

const ROWS = 20_000_000;
const CASES: CaseInfo[] = [
  {
    name: "sweep-profiles",
    what: `sweepProfiles(): ${
      PROFILES.toLocaleString("en-US")
    } profiles x ${MODELS} models (losses, winners, tau, regret, win shares)`,
    rows: ROWS,
    peers: ["sweep-naive"],
  },
  {
    name: "sweep-naive",
    what: `re-scan every row per profile, ${SAMPLE} profiles timed, scaled to ${
      PROFILES.toLocaleString("en-US")
    }`,
    rows: ROWS,
  },
  {
    name: "sweep-one-pass",
    what: `one pass over the rows to sufficient statistics (${MODELS} models)`,
    rows: ROWS,
  },
  {
    name: "sweep-coefficients",
    what: "loss coefficients from the statistics",
    rows: ROWS,
  },
];

/** The sweep group, in one worker. */
export const sweep: Group = {
  name: "sweep",
  cases: CASES,
  rounds: 3,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    const rows = rowsOf(ctx, CASES[0]);
    ctx.log(`${infos.map((c) => c.name).join(", ")} in one worker`);
    const { value } = await worker<SweepOut>(ctx, "sweep", "sweep", {
      rows,
      rounds: roundsOf(ctx, sweep),
      names: infos.map((c) => c.name),
    });
    return infos.map((c): Result => {
      const taken = value.runs[c.name];
      const naive = c.name === "sweep-naive";
      return resultOf({
        name: c.name,
        what: c.what,
        timing: naive ? "extrapolated" : "in-process",
        rows: MODELS * Math.max(1, Math.ceil(rows / MODELS)),
        peakRssBytes: maxOrNull(taken.map((t) => t.peakRssBytes)),
        rssSource: IN_PROCESS_RSS,
        peers: c.peers?.filter((p) => selected.has(p)),
        extra: naive
          ? {
            meanPerProfileSeconds: taken.map((t) => t.seconds),
            profilesTimed: SAMPLE,
            worstRelativeDifference: value.worstRelativeDifference,
          }
          : c.name === "sweep-one-pass"
          ? { cells: value.cells }
          : undefined,
      }, taken.map((t) => naive ? t.seconds * PROFILES : t.seconds));
    });
  },
};
