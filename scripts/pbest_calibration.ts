// Calibration of P(best) on seeded designs with known truth, the tables of
// docs/method.md ("Probability of being best"): for each design, the
// reliability table of what `score` states (pooled prior, null where the
// pooling carries more than half of the comparison), and on design (P) the
// same for every statement of the pooled posterior and for the independent
// Jeffreys draws of earlier versions. The test suite runs a lighter version
// (tests/lib/metrics/pbest_calibration_test.ts).
// Usage: deno run -A scripts/pbest_calibration.ts [--reps 2000] [--draws 400] [--seed 20260601]
import { parseArgs } from "node:util";
import { getProfile } from "../lib/costs/load.ts";
import { SEVERITIES, type Severity } from "../lib/costs/severity.ts";
import {
  pooledLossDraws,
  pooledLossPosterior,
} from "../lib/metrics/pooled_posterior.ts";
import { probabilityBest } from "../lib/metrics/rank_probability.ts";
import {
  calibrationTable,
  DESIGN_CLASSES,
  DESIGN_P,
  formatTable,
  independentMethod,
  type PBestDesign,
  type PBestMethod,
  statedMethod,
  worstExcess,
} from "../tests/lib/metrics/_pbest_design.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    reps: { type: "string", default: "2000" },
    draws: { type: "string", default: "400" },
    seed: { type: "string", default: "20260601" },
  },
});
const reps = Number(values.reps);
const draws = Number(values.draws);
const seed = Number(values.seed);
const profiles = ["flat", "reconciliation", "principal_risk"].map((p) =>
  getProfile(p)
);

const stated = statedMethod(draws);

/** Every statement of the pooled posterior, with no shrinkage bound. */
const pooledAll: PBestMethod = (stats, profiles, s) => {
  const post = pooledLossPosterior(stats, {
    draws,
    seed: s,
    classes: DESIGN_CLASSES,
  });
  return Object.fromEntries(
    profiles.map((p) => [p.id, probabilityBest(pooledLossDraws(post, p))]),
  );
};

const independent = independentMethod(draws);

const each = (f: (s: Severity) => number) =>
  Object.fromEntries(SEVERITIES.map((s) => [s, f(s)])) as Record<
    Severity,
    number
  >;

const designs: [string, PBestDesign][] = [
  ["(P): 3 models, 300 tasks, spread 0.5", DESIGN_P],
  ["(P) x10: 3,000 tasks", {
    ...DESIGN_P,
    tasks: each((s) => 10 * DESIGN_P.tasks[s]),
  }],
  ["(P), spread 1", { ...DESIGN_P, spread: each(() => 1) }],
  ["(P), spread 0.25", { ...DESIGN_P, spread: each(() => 0.25) }],
  ["(P), spread 0.25/0.5/0.75/1 by severity", {
    ...DESIGN_P,
    spread: { LOW: 0.25, MEDIUM: 0.5, HIGH: 0.75, CRITICAL: 1 },
  }],
  ["(P), 5 models", { ...DESIGN_P, models: 5 }],
];

const run = (name: string, method: PBestMethod, design: PBestDesign) => {
  const t = performance.now();
  const table = calibrationTable(method, design, profiles, reps, seed);
  console.log(`\n### ${name}\n\n${formatTable(table)}\n`);
  console.log(
    `worst |share - stated| - max(0.1, 2 SE) over bins of >= 60 cases: ${
      worstExcess(table).toFixed(3)
    } (${((performance.now() - t) / 1000).toFixed(0)} s)`,
  );
};

console.log(
  `${reps} replications per design, ${draws} draws, seed ${seed}; truth drawn afresh in every replication`,
);
run(
  `${designs[0][0]}: independent Jeffreys (earlier versions)`,
  independent,
  designs[0][1],
);
run(`${designs[0][0]}: pooled, every statement`, pooledAll, designs[0][1]);
for (const [name, design] of designs) run(`${name}: score`, stated, design);
