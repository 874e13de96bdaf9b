// Sweep benchmarks: the loss of every model under many cost profiles, from
// loss coefficients (one dot product per model and profile) against a naive
// re-scan of the decision rows per profile, measured in the same run.
//   deno task bench --only bench-sweep   (or: deno bench -A bench/sweep_bench.ts)
// The full-size figure (10,000 profiles x 20 models x 1,000,000 decisions)
// comes from the runner's sweep group (deno task bench --only sweep).
import { SEVERITIES } from "../lib/costs/severity.ts";
import { multinomial, seededPrng } from "../lib/math/sampling.ts";
import type { StatsRow } from "../lib/metrics/sufficient_stats.ts";
import { lossCoefficients } from "../lib/sensitivity/loss_coefficients.ts";
import { drawRegistryProfiles } from "../lib/sensitivity/registry_draws.ts";
import { sweepProfiles } from "../lib/sensitivity/sweep.ts";

const MODELS = 20;
const DECISIONS = 50_000; // per model: 1,000,000 rows in all
const PROFILES = 10_000;

// Rows, columnar: per model a multinomial over (severity, kind) cells.
// Kinds: 0 right, 1 missed exception, 2 wrong exception type, 3 escalated.
const rng = seededPrng(7);
const rows = MODELS * DECISIONS;
const model = new Uint8Array(rows);
const severity = new Uint8Array(rows);
const kind = new Uint8Array(rows);
let at = 0;
for (let m = 0; m < MODELS; m++) {
  const err = 0.01 + 0.1 * rng.next();
  const weights = SEVERITIES.flatMap((_, s) => {
    const share = [0.4, 0.3, 0.2, 0.1][s];
    const e = s >= 2 ? err * rng.next() : err;
    return [share * (0.97 - e), share * e * 0.7, share * e * 0.3, share * 0.03];
  });
  const counts = multinomial(rng, DECISIONS, weights);
  counts.forEach((n, c) => {
    model.fill(m, at, at + n);
    severity.fill(c >> 2, at, at + n);
    kind.fill(c & 3, at, at + n);
    at += n;
  });
}
const profiles = drawRegistryProfiles({ draws: PROFILES, seed: 7 });

function stats(): StatsRow[] {
  const counts = new Float64Array(MODELS * 16);
  for (let i = 0; i < rows; i++) {
    counts[model[i] * 16 + severity[i] * 4 + kind[i]]++;
  }
  const out: StatsRow[] = [];
  counts.forEach((n, idx) => {
    if (n === 0) return;
    const k = idx & 3;
    const s = SEVERITIES[(idx >> 2) & 3];
    out.push({
      modelId: `m${String(idx >> 4).padStart(2, "0")}`,
      severity: s,
      trueClass: `${s}_A`,
      predClass: k === 0 || k === 3 ? `${s}_A` : k === 1 ? "MATCH" : `${s}_B`,
      action: k === 3 ? "escalate" : "auto",
      n,
      pErrorSum: 0,
      pMissing: n,
      parseFailures: 0,
    });
  });
  return out;
}
const coefficients = lossCoefficients(stats());

const SAME = 10; // the same profiles for both sides of the ratio
const sample = profiles.slice(0, SAME);

Deno.bench({
  name: `naive: re-scan ${
    rows.toLocaleString("en-US")
  } rows per profile, ${SAME} profiles`,
  group: `loss of ${MODELS} models under ${SAME} profiles`,
  baseline: true,
  fn() {
    for (const p of sample) {
      const K = SEVERITIES.map((s) => p.K[s]);
      const loss = new Float64Array(MODELS);
      for (let i = 0; i < rows; i++) {
        const k = kind[i];
        loss[model[i]] += k === 0 ? 0 : k === 1 ? K[severity[i]] : p.reviewCost;
      }
    }
  },
});

Deno.bench({
  name: `coefficients: sweepProfiles() over the same ${SAME} profiles`,
  group: `loss of ${MODELS} models under ${SAME} profiles`,
  fn() {
    sweepProfiles(coefficients, sample, { per: "run", ordered: false });
  },
});

Deno.bench({
  name: `coefficients: sweepProfiles() over all ${
    PROFILES.toLocaleString("en-US")
  } profiles (winners, tau, regret)`,
  group: "full sweep",
  fn() {
    sweepProfiles(coefficients, profiles, { per: "run", ordered: false });
  },
});

Deno.bench({
  name: `one pass: ${rows.toLocaleString("en-US")} rows to loss coefficients`,
  group: "one pass",
  fn() {
    lossCoefficients(stats());
  },
});
