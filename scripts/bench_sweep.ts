// Benchmark: sweep 10,000 cost profiles over 20 models with 1,000,000
// decisions each (20,000,000 decision rows), against a naive re-scan of the
// rows per profile measured in the same run on a sample of the profiles.
//
//   1. Generate the rows, columnar (model, severity, gold class, predicted
//      class, action as bytes): each model's cell counts drawn with a seeded
//      multinomial, rows laid out cell by cell (sorted rows make the naive
//      scan's branches predictable, which favours the baseline).
//   2. One pass over the rows -> sufficient statistics -> loss coefficients.
//   3. The full sweep: 10,000 registry-drawn profiles, every model's loss,
//      the winners, Kendall tau, regret and win shares (sweepProfiles).
//   4. The naive baseline: for each sampled profile, re-scan all 20M rows and
//      add each row's cost under the consequence matrix. Its losses are
//      checked against the sweep's.
//
// Usage: deno run -A scripts/bench_sweep.ts [--models 20] [--decisions 1000000]
//          [--profiles 10000] [--sample 10] [--repeats 3] [--seed 20261105]
import { parseArgs } from "node:util";
import { SEVERITIES, type Severity } from "../lib/costs/severity.ts";
import {
  beta,
  multinomial,
  type Prng,
  seededPrng,
} from "../lib/math/sampling.ts";
import type { StatsRow } from "../lib/metrics/sufficient_stats.ts";
import { lossCoefficients } from "../lib/sensitivity/loss_coefficients.ts";
import { drawRegistryProfiles } from "../lib/sensitivity/registry_draws.ts";
import { sweepProfiles } from "../lib/sensitivity/sweep.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    models: { type: "string", default: "20" },
    decisions: { type: "string", default: "1000000" },
    profiles: { type: "string", default: "10000" },
    sample: { type: "string", default: "10" },
    repeats: { type: "string", default: "3" },
    seed: { type: "string", default: "20261105" },
  },
});
const M = Number(values.models);
const N = Number(values.decisions);
const P = Number(values.profiles);
const SAMPLE = Number(values.sample);
const REPEATS = Number(values.repeats);
const SEED = Number(values.seed);

// Classes: 0 is the clean class MATCH; each severity has two exception classes.
const CLASSES = ["MATCH"];
const EXC: Record<Severity, [number, number]> = {} as never;
for (const s of SEVERITIES) {
  EXC[s] = [CLASSES.push(`${s}_A`) - 1, CLASSES.push(`${s}_B`) - 1];
}
// Decision kinds per severity: correct exception, missed, wrong type,
// correct clean, false alarm, escalated.
const KINDS = 6;

function modelWeights(rng: Prng): number[] {
  // A random model: severity mix, exception share, error rate per severity,
  // share of misses among errors, escalation rate.
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
}

console.error(
  `generating ${M} models x ${
    N.toLocaleString("en-US")
  } decisions (seed ${SEED}) ...`,
);
let t0 = performance.now();
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
const generateMs = performance.now() - t0;

// One pass over the rows: counts per (model, severity, true, pred, action).
function onePass(): StatsRow[] {
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
}

// The naive baseline: re-scan every row under one profile (consequence
// matrix: a miss costs K(severity); a wrong type, a false alarm or an
// escalation costs a review; a right automatic answer nothing).
function naiveLosses(K: readonly number[], review: number): Float64Array {
  const loss = new Float64Array(M);
  for (let i = 0; i < rows; i++) {
    let cost = 0;
    if (colAction[i] === 1) cost = review;
    else if (colPred[i] !== colTrue[i]) {
      cost = colTrue[i] !== 0 && colPred[i] === 0 ? K[colSeverity[i]] : review;
    }
    loss[colModel[i]] += cost;
  }
  return loss;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
function time<T>(f: () => T): { ms: number; value: T } {
  const times: number[] = [];
  let value!: T;
  for (let r = 0; r < REPEATS; r++) {
    const t = performance.now();
    value = f();
    times.push(performance.now() - t);
  }
  return { ms: median(times), value };
}

console.error(`one pass over ${rows.toLocaleString("en-US")} rows ...`);
const pass = time(onePass);
const coef = time(() => lossCoefficients(pass.value));
t0 = performance.now();
const profiles = drawRegistryProfiles({ draws: P, seed: SEED });
const drawMs = performance.now() - t0;

console.error(`sweeping ${P.toLocaleString("en-US")} profiles ...`);
const sweep = time(() =>
  sweepProfiles(coef.value, profiles, { per: "run", ordered: false })
);

console.error(`naive re-scan on a sample of ${SAMPLE} profiles ...`);
const step = Math.max(1, Math.floor(P / SAMPLE));
const sampleIdx = Array.from({ length: SAMPLE }, (_, i) => i * step);
const naiveTimes: number[] = [];
let worst = 0;
for (const i of sampleIdx) {
  const p = profiles[i];
  const t = performance.now();
  const loss = naiveLosses(SEVERITIES.map((s) => p.K[s]), p.reviewCost);
  naiveTimes.push(performance.now() - t);
  const fromSweep = sweep.value.points[i].losses;
  for (let m = 0; m < M; m++) {
    worst = Math.max(
      worst,
      Math.abs(loss[m] - fromSweep[m]) / Math.max(1, Math.abs(loss[m])),
    );
  }
}
const naivePerProfile = median(naiveTimes);
const sweepPerProfile = sweep.ms / P;
const fmt = (ms: number) =>
  ms >= 1000
    ? `${(ms / 1000).toFixed(2)} s`
    : `${ms.toFixed(ms < 1 ? 4 : 1)} ms`;

console.log(`sweep benchmark (seed ${SEED}, median of ${REPEATS} runs)
  data: ${M} models x ${N.toLocaleString("en-US")} decisions = ${
  rows.toLocaleString("en-US")
} rows (generated in ${fmt(generateMs)})
  one pass over the rows -> ${pass.value.length} statistics cells: ${
  fmt(pass.ms)
}
  loss coefficients: ${fmt(coef.ms)}
  ${P.toLocaleString("en-US")} registry-drawn profiles: drawn in ${fmt(drawMs)}
  full sweep of ${
  P.toLocaleString("en-US")
} profiles x ${M} models (losses, winners, Kendall tau, regret, win shares): ${
  fmt(sweep.ms)
}
    = ${fmt(sweepPerProfile)} per profile
  naive re-scan of all rows, per profile (median of ${SAMPLE} sampled profiles): ${
  fmt(naivePerProfile)
}
    -> ${fmt(naivePerProfile * P)} for all ${
  P.toLocaleString("en-US")
} profiles (extrapolated)
  speed-up per profile, same run: ${
  Math.round(naivePerProfile / sweepPerProfile).toLocaleString("en-US")
}x
  speed-up including the one pass and the coefficients: ${
  Math.round(
    (naivePerProfile * P) / (pass.ms + coef.ms + sweep.ms),
  ).toLocaleString("en-US")
}x
  largest relative difference between naive and swept losses: ${
  worst.toExponential(2)
}`);
