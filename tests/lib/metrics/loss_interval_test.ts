import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/mod.ts";
import {
  fayFeuerInterval,
  gammaLossInterval,
  gammaQuantile,
  type IntervalMethod,
  lossCells,
  lossDifferenceInterval,
  lossInterval,
  lossPosterior,
  posteriorLossDraws,
  realisedLoss,
  type StatsRow,
  STRICT_MATRIX,
} from "../../../lib/metrics/mod.ts";
import { seededPrng } from "../../../lib/math/mod.ts";
import {
  clusteredCells,
  HEAVY_RATES,
  simulateClustered,
  simulateStats,
  suiteCells,
  trueLoss,
} from "./_loss_suites.ts";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { decisionTable } from "../../../lib/read/load_decisions.ts";
import { decision } from "../../_helpers.ts";

// The method `score` uses by default. Switching this to "bootstrap" makes the
// coverage tests below fail (the percentile bootstrap covers 0.015 at n = 60
// under principal_risk).
const DEFAULT_METHOD: IntervalMethod = "auto";

function coverage(
  n: number,
  profileId: string,
  suites: number,
  seed: number,
): { covered: number; highMisses: number } {
  const cells = suiteCells(n);
  const profile = getProfile(profileId);
  const truth = trueLoss(cells, HEAVY_RATES, profile);
  const rng = seededPrng(seed);
  let covered = 0, highMisses = 0;
  for (let r = 0; r < suites; r++) {
    const stats = simulateStats(rng, cells, HEAVY_RATES);
    const ci = lossInterval(stats, profile, {
      method: DEFAULT_METHOD,
      draws: 200,
      seed: r,
    });
    if (ci.lo! <= truth && truth <= ci.hi!) covered++;
    else if (truth > ci.hi!) highMisses++;
  }
  return { covered: covered / suites, highMisses };
}

for (const n of [60, 400]) {
  for (const profile of ["principal_risk", "reconciliation"]) {
    Deno.test(`lossInterval() default covers >= 0.90 at nominal 0.95 on 200 heavy-tailed suites of ${n} decisions under ${profile}`, () => {
      const { covered, highMisses } = coverage(n, profile, 200, 20261201 + n);
      assert.ok(
        covered >= 0.90,
        `coverage ${covered} (${highMisses} misses above the interval)`,
      );
    });
  }
}

Deno.test("lossInterval() default keeps an upper bound above 0 when a costly cell shows zero errors", () => {
  const base = {
    modelId: "m",
    severity: "CRITICAL",
    trueClass: "X",
    action: "auto",
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
  } as const;
  const stats: StatsRow[] = [{ ...base, predClass: "X", n: 40 }];
  const p = getProfile("principal_risk");
  const ci = lossInterval(stats, p);
  assert.equal(ci.estimate, 0);
  assert.equal(ci.lo, 0);
  // one possible miss costs 100,000; the exact binomial bound for 0 misses
  // in 40 decisions is 40 (1 - 0.025^(1/40)) = 3.52 misses
  assert.ok(
    Math.abs(ci.hi! - 40 * (1 - 0.025 ** (1 / 40)) * 100_000) < 1e-6,
  );
  assert.equal(ci.method, "gamma, extra event sized by clopper-pearson");
  assert.equal(ci.interval, "cp-gamma");
  // Fay and Feuer's extra event is the exact Poisson bound for 0 events, 3.689
  const ff = lossInterval(stats, p, { method: "fay-feuer" });
  assert.ok(Math.abs(ff.hi! - 3.6888794541139363 * 100_000) < 1e-6);
  assert.equal(ff.method, "fay-feuer gamma");
  assert.equal(lossInterval(stats, p, { method: "bootstrap" }).hi, 0);
  assert.ok(lossInterval(stats, p, { method: "jeffreys" }).hi! > 0);
  assert.match(
    ci.estimand,
    /conditional on its counts per severity and gold class/,
  );
});

Deno.test("fayFeuerLossInterval() never exceeds the largest loss the cells allow", () => {
  const base = {
    modelId: "m",
    severity: "CRITICAL",
    trueClass: "X",
    action: "auto",
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
  } as const;
  // 2 decisions: at most 2 misses of 100,000 whatever the Poisson bound says
  const ci = lossInterval(
    [{ ...base, predClass: "X", n: 2 }],
    getProfile("principal_risk"),
    { method: "fay-feuer" },
  );
  assert.equal(ci.hi, 200_000);
  // the default's extra event is the binomial bound: 2 (1 - 0.025^(1/2)) misses
  const cp = lossInterval(
    [{ ...base, predClass: "X", n: 2 }],
    getProfile("principal_risk"),
  );
  assert.ok(Math.abs(cp.hi! - 2 * (1 - Math.sqrt(0.025)) * 100_000) < 1e-6);
});

Deno.test("gammaQuantile() inverts chi-square tables and fayFeuerInterval() reduces to Garwood for one count", () => {
  // chi-square(10) 2.5% and 97.5% quantiles: 3.246973, 20.483177 (standard tables)
  assert.ok(Math.abs(2 * gammaQuantile(0.025, 5) - 3.246973) < 1e-5);
  assert.ok(Math.abs(2 * gammaQuantile(0.975, 5) - 20.483177) < 1e-5);
  // Garwood exact Poisson interval for 5 events: [1.623486, 11.668332]
  const b = fayFeuerInterval([{ weight: 1, count: 5 }]);
  assert.ok(Math.abs(b.lo - 1.623486) < 1e-5);
  assert.ok(Math.abs(b.hi - 11.668332) < 1e-5);
});

Deno.test("lossCells() takes its outcomes from outcomeOf, so the strict matrix prices a wrong type at K", () => {
  const base = {
    modelId: "m",
    severity: "HIGH",
    action: "auto",
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
  } as const;
  const stats: StatsRow[] = [
    { ...base, trueClass: "A", predClass: "A", n: 50 },
    { ...base, trueClass: "B", predClass: "B", n: 50 },
  ];
  const cells = lossCells(stats);
  assert.deepEqual(
    cells.find((c) => c.trueClass === "A")!.kinds.map((k) => k.outcome),
    ["correct", "missed", "wrongType"],
  );
  const post = lossPosterior(stats, { draws: 500, seed: 1 });
  const p = getProfile("reconciliation");
  const strict = posteriorLossDraws(post, p, { matrix: STRICT_MATRIX });
  const consequence = posteriorLossDraws(post, p);
  for (let d = 0; d < 500; d++) assert.ok(strict[d] >= consequence[d] - 1e-9);
});

Deno.test("lossInterval() gives the same interval with one trial per task whether or not taskShare is recorded", () => {
  const rng = seededPrng(3);
  const stats = simulateStats(rng, suiteCells(400), HEAVY_RATES);
  const tagged = stats.map((r) => ({ ...r, taskShare: r.n }));
  const p = getProfile("principal_risk");
  for (
    const method of ["cp-gamma", "fay-feuer", "jeffreys", "bootstrap"] as const
  ) {
    assert.deepEqual(
      lossInterval(tagged, p, { method, seed: 5 }),
      lossInterval(stats, p, { method, seed: 5 }),
    );
  }
});

const SEVERITY_RATES = { LOW: 0.1, MEDIUM: 0.08, HIGH: 0.05, CRITICAL: 0.03 };

/**
 * A seeded run of `tasks` tasks answered in `trials` independent trials:
 * each trial of a task of severity s is wrong with probability
 * SEVERITY_RATES[s] (an exception missed, a clean item flagged), whatever
 * the task's other trials did.
 */
function independentTrials(
  rng: { next(): number },
  tasks: number,
  trials: number,
): Decision[] {
  const out: Decision[] = [];
  for (let t = 0; t < tasks; t++) {
    const severity = (["LOW", "MEDIUM", "HIGH", "CRITICAL"] as const)[t % 4];
    const trueClass = t % 3 === 0 ? "MATCH" : "AMOUNT_MISMATCH";
    const wrong = trueClass === "MATCH" ? "DUPLICATE" : "MATCH";
    for (let k = 0; k < trials; k++) {
      out.push(decision({
        taskId: `t${t}`,
        trial: k,
        severity,
        trueClass,
        predClass: rng.next() < SEVERITY_RATES[severity] ? wrong : trueClass,
      }));
    }
  }
  return out;
}

Deno.test("lossInterval() default reads unitCostPairs: on independent trials it is narrower than with a task's trials failing together, and covers >= 0.93 (200 seeded runs of 80 tasks x 5 trials)", () => {
  const rng = seededPrng(20261205);
  for (const id of ["flat", "reconciliation"]) {
    const p = getProfile(id);
    // the expected loss: each decision's error probability times its cost
    const truth = independentTrials({ next: () => 0.5 }, 80, 5).reduce(
      (s, d) => {
        const wrong = d.trueClass === "MATCH" ? "DUPLICATE" : "MATCH";
        const cost = realisedLoss([{
          ...d,
          predClass: wrong,
          n: 1,
          pErrorSum: 0,
          pMissing: 1,
          parseFailures: 0,
        }], p)!;
        return s + SEVERITY_RATES[d.severity] * cost;
      },
      0,
    );
    let covered = 0, width = 0, wholeWidth = 0;
    const runs = 200;
    for (let r = 0; r < runs; r++) {
      const stats = decisionStats(decisionTable(independentTrials(rng, 80, 5)));
      const ci = lossInterval(stats, p);
      const whole = gammaLossInterval(stats, p, { extra: "clopper-pearson" })!;
      assert.equal(ci.interval, "cp-gamma");
      if (ci.lo! <= truth && truth <= ci.hi!) covered++;
      width += ci.hi! - ci.lo!;
      wholeWidth += whole.hi - whole.lo;
    }
    assert.ok(covered / runs >= 0.93, `${id}: coverage ${covered / runs}`);
    assert.ok(width < 0.95 * wholeWidth, `${id}: ${width} vs ${wholeWidth}`);
  }
});

Deno.test("lossInterval() default on statistics without unitCostPairs is the interval with a task's trials failing together, as before the field", () => {
  const rng = seededPrng(11);
  const stats = decisionStats(decisionTable(independentTrials(rng, 80, 5)));
  const old = stats.map(({ unitCostPairs: _, ...r }) => r);
  const p = getProfile("reconciliation");
  const whole = gammaLossInterval(old, p, { extra: "clopper-pearson" })!;
  const ci = lossInterval(old, p);
  // every task has 5 trials: the two variances are the same sum
  assert.ok(Math.abs(ci.lo! - whole.lo) <= 1e-9 * whole.hi, `${ci.lo}`);
  assert.ok(Math.abs(ci.hi! - whole.hi) <= 1e-9 * whole.hi, `${ci.hi}`);
  const read = lossInterval(stats, p);
  assert.ok(read.hi! - read.lo! < ci.hi! - ci.lo!);
});

Deno.test("lossInterval() with trials counted per task covers >= 0.90 on correlated trials where the naive interval does not", () => {
  // 600 tasks x 5 trials, a task's trials fail together (see simulateClustered)
  const cells = clusteredCells(suiteCells(3000), 5);
  const p = getProfile("flat");
  const truth = trueLoss(cells, HEAVY_RATES, p);
  const rng = seededPrng(20261202);
  let clustered = 0, naive = 0;
  const suites = 200;
  for (let r = 0; r < suites; r++) {
    const run = simulateClustered(rng, cells, HEAVY_RATES, 5);
    const a = lossInterval(run.clustered, p, { method: DEFAULT_METHOD });
    const b = lossInterval(run.naive, p, { method: DEFAULT_METHOD });
    if (a.lo! <= truth && truth <= a.hi!) clustered++;
    if (b.lo! <= truth && truth <= b.hi!) naive++;
  }
  assert.ok(
    clustered / suites >= 0.90,
    `clustered coverage ${clustered / suites}`,
  );
  assert.ok(naive / suites < 0.90, `naive coverage ${naive / suites}`);
});

Deno.test("lossDifferenceInterval() is seeded, antisymmetric in its estimate, and its estimate is the difference of realised losses", () => {
  const rng = seededPrng(9);
  const cells = suiteCells(400);
  const a = simulateStats(rng, cells, HEAVY_RATES, "a");
  const b = simulateStats(rng, cells, HEAVY_RATES, "b");
  const p = getProfile("reconciliation");
  const ab = lossDifferenceInterval(a, b, p, { seed: 2 });
  assert.deepEqual(ab, lossDifferenceInterval(a, b, p, { seed: 2 }));
  assert.ok(
    Math.abs(ab.estimate! - (realisedLoss(a, p)! - realisedLoss(b, p)!)) < 1e-9,
  );
  const ba = lossDifferenceInterval(b, a, p, { seed: 2 });
  assert.ok(Math.abs(ab.estimate! + ba.estimate!) < 1e-9);
  assert.ok(ab.lo! < ab.hi!);
});
