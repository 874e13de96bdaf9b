// Coverage and width of score's accuracy and recall intervals when tasks are
// answered in several trials that share the task's difficulty, the study of
// docs/method.md ("Accuracy and recall intervals"); then the coverage with one
// trial per task, exactly from the binomial. The seeds and sizes of the test
// that checks it (tests/lib/metrics/accuracy_interval_test.ts) are the
// defaults' seed with fewer runs.
// Usage: deno run -A scripts/accuracy_interval_coverage.ts [--runs 2000] [--seed 20261206]
import { parseArgs } from "node:util";
import { SEVERITIES } from "../lib/costs/severity.ts";
import { rate } from "../lib/math/rate.ts";
import { seededPrng } from "../lib/math/sampling.ts";
import {
  accuracy,
  accuracyCounts,
  recallBySeverity,
} from "../lib/metrics/accuracy.ts";
import {
  binomialCoverage,
  designTruth,
  EPOCH_DESIGN,
  type EpochDesign,
  simulateEpochStats,
  spreadOf,
} from "../tests/lib/metrics/_accuracy_suites.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "2000" },
    seed: { type: "string", default: "20261206" },
  },
});
const runs = Number(values.runs);
const seed = Number(values.seed);

const designs: [string, EpochDesign][] = [
  ["50 tasks x 5 trials (design E)", EPOCH_DESIGN],
  ["50 tasks x 1 trial", { ...EPOCH_DESIGN, trials: 1 }],
  ["50 tasks x 5 trials, sigma 0 (trials independent)", {
    ...EPOCH_DESIGN,
    sigma: 0,
  }],
  ["50 tasks x 1-9 trials (uniform)", {
    ...EPOCH_DESIGN,
    trials: (rng) => 1 + Math.floor(rng.next() * 9),
  }],
];

console.log(
  "| design | statistic | truth | spread (2.5-97.5%) | trials: coverage | trials: width | tasks: coverage | tasks: width | width / spread |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
);
for (const [name, d] of designs) {
  const truth = designTruth(d);
  const rng = seededPrng(seed);
  const stats = ["accuracy", ...SEVERITIES] as const;
  const acc = Object.fromEntries(stats.map((s) => [s, {
    est: [] as number[],
    naive: { covered: 0, width: 0, runs: 0 },
    clustered: { covered: 0, width: 0, runs: 0 },
  }]));
  for (let r = 0; r < runs; r++) {
    const run = simulateEpochStats(rng, d);
    const recall = recallBySeverity(run);
    const { k, n } = accuracyCounts(run);
    const rows = [
      ["accuracy", accuracy(run), truth.accuracy, rate(k, n)] as const,
      ...SEVERITIES.map((s) =>
        [
          s,
          recall[s],
          truth.recall[s],
          rate(recall[s].numerator, recall[s].denominator),
        ] as const
      ),
    ];
    for (const [s, got, t, naive] of rows) {
      const a = acc[s];
      a.est.push(got.value!);
      for (
        const [tally, ci] of [
          [a.clustered, got.interval!],
          [a.naive, naive.interval!],
        ] as const
      ) {
        tally.runs++;
        tally.width += ci.hi - ci.lo;
        if (ci.lo <= t && t <= ci.hi) tally.covered++;
      }
    }
  }
  for (const s of stats) {
    const a = acc[s];
    const spread = spreadOf(a.est).width;
    const t = s === "accuracy" ? truth.accuracy : truth.recall[s];
    const f = (x: number) => x.toFixed(3);
    const w = a.clustered.width / a.clustered.runs;
    console.log(
      `| ${name} | ${s === "accuracy" ? s : `recall ${s}`} | ${f(t)} | ${
        f(spread)
      } | ${f(a.naive.covered / a.naive.runs)} | ${
        f(a.naive.width / a.naive.runs)
      } | ${f(a.clustered.covered / a.clustered.runs)} | ${f(w)} | ${
        (w / spread).toFixed(2)
      } |`,
    );
  }
}
console.log(
  `\n${runs} runs per design, seed ${seed}; trials: Wilson/Clopper-Pearson over the decisions (before); tasks: score's interval`,
);

console.log(
  "\nOne trial per task, exactly from the binomial (coverage of score's accuracy interval):",
);
for (const n of [30, 200, 2000]) {
  const row = [0.6, 0.9, 0.99].map((p) =>
    `p = ${p}: ${binomialCoverage(n, p).toFixed(3)}`
  );
  console.log(`n = ${n}: ${row.join(", ")}`);
}
