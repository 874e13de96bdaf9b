// Policy and calibration benchmarks, each group against a naive peer in the
// same run, so the summary reads as a ratio. The headline sizes (10,000,000
// and 1,000,000 decisions) are the runner's policy group (`deno task bench
// --only policy`); these are small. The naive peers do a fraction of the work
// (20 thresholds, 20 resamples) and still take longer per unit of work: divide.
//   deno task bench --only bench-policy   (or: deno bench -A bench/policy_bench.ts)
import { binEdges, binIndex } from "../lib/calibration/binning.ts";
import { eceInterval } from "../lib/calibration/ece_interval.ts";
import { seededPrng } from "../lib/math/sampling.ts";
import { riskCoverage } from "../lib/policy/risk_coverage.ts";

const N = 1_000_000;
const THRESHOLDS = 20;
const M = 100_000;
const RESAMPLES = 20;

const rng = seededPrng(20_261_129);
const pError = new Float64Array(N);
const error = new Uint8Array(N);
const exposure = new Float64Array(N);
for (let i = 0; i < N; i++) {
  const u = rng.next();
  const p = u * u * u * 0.6;
  pError[i] = Math.round(p * 1e6) / 1e6;
  error[i] = rng.next() < p ? 1 : 0;
  exposure[i] = [0.2, 1, 10, 50][Math.min(3, Math.floor(rng.next() * 3.3))];
}
const grid = Array.from(
  { length: THRESHOLDS },
  (_, i) => (0.6 * (i + 1)) / THRESHOLDS,
);

Deno.bench({
  name:
    `risk-coverage: naive O(n × thresholds), ${N} decisions, only ${THRESHOLDS} thresholds`,
  group: "risk-coverage",
  baseline: true,
  n: 5,
  warmup: 1,
  fn() {
    for (const t of grid) {
      let cost = 0;
      for (let i = 0; i < N; i++) {
        cost += pError[i] <= t ? error[i] * exposure[i] : 1;
      }
      if (cost < 0) throw new Error("unreachable");
    }
  },
});

Deno.bench({
  name:
    `risk-coverage: riskCoverage(), ${N} decisions, every distinct threshold`,
  group: "risk-coverage",
  n: 5,
  warmup: 1,
  fn() {
    riskCoverage(pError, error, { exposure, reviewCost: 1 });
  },
});

const p = Float64Array.from(pError.subarray(0, M), (v) => 1 - v);
const y = Uint8Array.from(error.subarray(0, M), (e) => 1 - e);
const bins = (() => {
  const edges = binEdges(p, { bins: 10 });
  return Int32Array.from(p, (v) => binIndex(edges, v));
})();

Deno.bench({
  name:
    `ECE bootstrap: naive row resampling, ${M} decisions × ${RESAMPLES} resamples`,
  group: "ece-bootstrap",
  baseline: true,
  n: 5,
  warmup: 1,
  fn() {
    const r = seededPrng(1);
    const sp = new Float64Array(10);
    const sy = new Float64Array(10);
    for (let k = 0; k < RESAMPLES; k++) {
      sp.fill(0);
      sy.fill(0);
      for (let t = 0; t < M; t++) {
        const i = Math.floor(r.next() * M);
        sp[bins[i]] += p[i];
        sy[bins[i]] += y[i];
      }
    }
  },
});

Deno.bench({
  name: `ECE bootstrap: eceInterval(), ${M} decisions × 1,000 resamples`,
  group: "ece-bootstrap",
  n: 5,
  warmup: 1,
  fn() {
    eceInterval(p, y, { resamples: 1000, seed: 1 });
  },
});
