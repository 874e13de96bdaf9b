// Coverage of the three loss-interval methods on seeded heavy-tailed suites
// with known truth, the table of docs/method.md ("What auto picks"); then
// the clustered-trials coverage and compare's size, with the seeds of the
// tests that check them (tests/lib/metrics/loss_interval_test.ts and
// sign_flip_test.ts).
// Usage: deno run -A scripts/loss_interval_coverage.ts [--suites 200] [--draws 400] [--seed 11]
import { parseArgs } from "node:util";
import { getProfile, SHIPPED_PROFILES } from "../lib/costs/load.ts";
import { pairedBootstrap } from "../lib/metrics/bootstrap.ts";
import { realisedLoss } from "../lib/metrics/loss.ts";
import { lossInterval } from "../lib/metrics/loss_interval.ts";
import { pairedLossTest } from "../lib/metrics/paired_loss_test.ts";
import { seededPrng } from "../lib/math/sampling.ts";
import {
  clusteredCells,
  COMPARE_RATES,
  HEAVY_RATES,
  simulateClustered,
  simulatePair,
  simulateStats,
  suiteCells,
  trueLoss,
} from "../tests/lib/metrics/_loss_suites.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    suites: { type: "string", default: "200" },
    draws: { type: "string", default: "400" },
    seed: { type: "string", default: "11" },
  },
});
const suites = Number(values.suites);
const draws = Number(values.draws);
const seed = Number(values.seed);
const methods = ["fay-feuer", "jeffreys", "bootstrap"] as const;

console.log(
  `| n | profile | ${methods.join(" | ")} |\n| --- | --- | ${
    methods.map(() => "---").join(" | ")
  } |`,
);
for (const n of [60, 400, 3000]) {
  const cells = suiteCells(n);
  for (const p of SHIPPED_PROFILES) {
    const truth = trueLoss(cells, HEAVY_RATES, p);
    const cover = methods.map((method) => {
      // the same suites for every method
      const rng = seededPrng(seed);
      let covered = 0;
      for (let r = 0; r < suites; r++) {
        const stats = simulateStats(rng, cells, HEAVY_RATES);
        const ci = lossInterval(stats, p, { method, draws, seed: r });
        if (ci.lo! <= truth && truth <= ci.hi!) covered++;
      }
      return (covered / suites).toFixed(3);
    });
    console.log(`| ${n} | ${p.id} | ${cover.join(" | ")} |`);
  }
}
console.log(
  `\n${suites} suites per row, ${draws} draws or resamples, seed ${seed}`,
);

{
  const cells = clusteredCells(suiteCells(3000), 5);
  const p = getProfile("flat");
  const truth = trueLoss(cells, HEAVY_RATES, p);
  const rng = seededPrng(20261202);
  let clustered = 0, naive = 0;
  for (let r = 0; r < 200; r++) {
    const run = simulateClustered(rng, cells, HEAVY_RATES, 5);
    const a = lossInterval(run.clustered, p);
    const b = lossInterval(run.naive, p);
    if (a.lo! <= truth && truth <= a.hi!) clustered++;
    if (b.lo! <= truth && truth <= b.hi!) naive++;
  }
  console.log(
    `clustered trials (600 tasks x 5, flat, 200 runs, seed 20261202): default interval with trials counted per task covers ${
      (clustered / 200).toFixed(3)
    }, counting trials as independent ${(naive / 200).toFixed(3)}`,
  );
}
{
  const cells = suiteCells(100);
  const rng = seededPrng(20261203);
  const profile = getProfile("principal_risk");
  let flip = 0, boot = 0;
  for (let r = 0; r < 300; r++) {
    const { groups, rows } = simulatePair(rng, cells, COMPARE_RATES);
    if (
      pairedLossTest(groups, profile, { resamples: 400, seed: r }).pValue <=
        0.05
    ) flip++;
    const b = pairedBootstrap(rows, (x) => realisedLoss(x, profile), {
      resamples: 400,
      seed: r,
    });
    if (b.pValue! <= 0.05) boot++;
  }
  console.log(
    `compare size (300 exchangeable pairs, 100 tasks, principal_risk, seed 20261203): sign-flip rejects ${
      (flip / 300).toFixed(3)
    } at 5%, paired bootstrap ${(boot / 300).toFixed(3)}`,
  );
}
