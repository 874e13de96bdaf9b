import assert from "node:assert/strict";
import fc from "fast-check";
import { getProfile, SHIPPED_PROFILES } from "../../../lib/costs/load.ts";
import { SEVERITIES, type Severity } from "../../../lib/costs/severity.ts";
import {
  defineCostMatrix,
  gammaInterval,
  gammaLossInterval,
  type StatsRow,
  unitGammaLossInterval,
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

const cpGamma = (stats: readonly StatsRow[], p = getProfile("flat")) =>
  gammaLossInterval(stats, p, { extra: "clopper-pearson" });

// One harness-verdict cell of `units` units of `trials` trials with `wrong`
// wrong answers whose squared counts per unit sum to `squares`.
function verdictCell(
  units: number,
  trials: number,
  wrong: number,
  squares: number,
  severity: Severity = "CRITICAL",
): StatsRow[] {
  const base = {
    modelId: "m",
    severity,
    trueClass: "verdict:correct",
    action: "auto",
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
  } as const;
  const right = units * trials - wrong;
  return [
    {
      ...base,
      predClass: "verdict:correct",
      n: right,
      taskShare: right / trials,
      taskTrialsSum: right * trials,
      // a unit with c wrong answers adds (trials - c) · c
      unitCostPairs: trials * wrong - squares,
    },
    {
      ...base,
      predClass: "verdict:incorrect",
      n: wrong,
      taskShare: wrong / trials,
      taskTrialsSum: wrong * trials,
      unitCostPairs: squares,
    },
  ].filter((r) => r.n > 0);
}

function binomialPmf(n: number, k: number, p: number): number {
  let c = 1;
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
  return c * p ** k * (1 - p) ** (n - k);
}

Deno.test("unitGammaLossInterval() equals cp-gamma to the last bit when every unit has one decision", () => {
  const rng = seededPrng(41);
  for (const n of [31, 400, 3000]) {
    for (let r = 0; r < 50; r++) {
      const stats = simulateStats(rng, suiteCells(n), HEAVY_RATES);
      // one decision per unit: it can cost unless it is correct
      const tagged = stats.map((s) => ({
        ...s,
        taskShare: s.n,
        taskTrialsSum: s.n,
        unitCostPairs: s.predClass === s.trueClass ? 0 : s.n,
      }));
      for (const p of SHIPPED_PROFILES) {
        const cp = cpGamma(stats, p);
        assert.deepEqual(unitGammaLossInterval(tagged, p), cp);
        // statistics without the second moment read it as the trials
        assert.deepEqual(unitGammaLossInterval(stats, p), cp);
      }
    }
  }
});

Deno.test("unitGammaLossInterval() with no error keeps cp-gamma's bound: the Clopper-Pearson bound on whole units", () => {
  const p = getProfile("principal_risk");
  // 5 units of 5 trials, none wrong: at most 5 × (1 − 0.025^(1/5)) units
  // wrong at 97.5%, each 5 misses of 100,000
  const b = unitGammaLossInterval(verdictCell(5, 5, 0, 0), p)!;
  assert.equal(b.lo, 0);
  const whole = 5 * 5 * (1 - 0.025 ** (1 / 5)) * 100_000;
  assert.ok(Math.abs(b.hi - whole) < 1e-6 * whole, `${b.hi} vs ${whole}`);
  assert.deepEqual(b, cpGamma(verdictCell(5, 5, 0, 0), p));
  assert.equal(unitGammaLossInterval([], p), null);
});

Deno.test("unitGammaLossInterval()'s upper bound never falls below its bound on the same cells with no error", () => {
  // design E's cells: 20/15/10/5 tasks of 5 epochs, any wrong epochs per task
  const tasks = [20, 15, 10, 5];
  const errorFree = SEVERITIES.flatMap((s, i) =>
    verdictCell(tasks[i], 5, 0, 0, s)
  );
  fc.assert(
    fc.property(
      fc.tuple(
        ...tasks.map((t) =>
          fc.array(fc.integer({ min: 0, max: 5 }), {
            minLength: t,
            maxLength: t,
          })
        ),
      ),
      (wrong) => {
        const stats = SEVERITIES.flatMap((s, i) =>
          verdictCell(
            tasks[i],
            5,
            wrong[i].reduce((a, c) => a + c, 0),
            wrong[i].reduce((a, c) => a + c * c, 0),
            s,
          )
        );
        for (const p of SHIPPED_PROFILES) {
          const hi = unitGammaLossInterval(stats, p)!.hi;
          const zero = unitGammaLossInterval(errorFree, p)!.hi;
          assert.ok(hi >= zero * (1 - 1e-12), `${p.id}: ${hi} < ${zero}`);
        }
      },
    ),
    { seed: 20261213, numRuns: 300 },
  );
});

Deno.test("unitGammaLossInterval() covers at least 0.95, exactly, on a CRITICAL cell whose units fail whole or whose trials are independent", () => {
  const p = getProfile("principal_risk");
  const k = 100_000;
  for (const [units, trials] of [[5, 5], [20, 3]]) {
    let worstWhole = 1, worstIndependent = 1;
    for (let q = 0.005; q < 1; q += 0.01) {
      const truth = units * trials * q * k;
      const covers = (rows: StatsRow[]) => {
        const b = unitGammaLossInterval(rows, p)!;
        return b.lo <= truth && truth <= b.hi;
      };
      // whole units: x units fail in every trial
      let whole = 0;
      for (let x = 0; x <= units; x++) {
        if (
          covers(verdictCell(units, trials, trials * x, trials * trials * x))
        ) {
          whole += binomialPmf(units, x, q);
        }
      }
      worstWhole = Math.min(worstWhole, whole);
      // independent trials: the distribution of (wrong answers, Σ c²)
      let dist = new Map<string, number>([["0,0", 1]]);
      for (let u = 0; u < units; u++) {
        const next = new Map<string, number>();
        for (const [key, pr] of dist) {
          const [w, s] = key.split(",").map(Number);
          for (let c = 0; c <= trials; c++) {
            const to = `${w + c},${s + c * c}`;
            next.set(to, (next.get(to) ?? 0) + pr * binomialPmf(trials, c, q));
          }
        }
        dist = next;
      }
      let independent = 0;
      for (const [key, pr] of dist) {
        const [w, s] = key.split(",").map(Number);
        if (covers(verdictCell(units, trials, w, s))) independent += pr;
      }
      worstIndependent = Math.min(worstIndependent, independent);
    }
    assert.ok(worstWhole >= 0.95, `${units} x ${trials} whole: ${worstWhole}`);
    assert.ok(
      worstIndependent >= 0.95,
      `${units} x ${trials} independent: ${worstIndependent}`,
    );
  }
});

Deno.test("unitGammaLossInterval() covers at least 0.93 on tasks whose trials fail together, misses and wrong types mixed, and is narrower than cp-gamma there", () => {
  // 600 tasks x 5 trials; a fifth of the tasks err at five times the rate
  const cells = clusteredCells(suiteCells(3000), 5);
  const suites = 200;
  const rng = seededPrng(20261211);
  const runs = Array.from(
    { length: suites },
    () => simulateClustered(rng, cells, HEAVY_RATES, 5).clustered,
  );
  for (const p of SHIPPED_PROFILES) {
    const truth = trueLoss(cells, HEAVY_RATES, p);
    let covered = 0, width = 0, cpWidth = 0;
    for (const stats of runs) {
      const b = unitGammaLossInterval(stats, p)!;
      const cp = cpGamma(stats, p)!;
      if (b.lo <= truth && truth <= b.hi) covered++;
      width += b.hi - b.lo;
      cpWidth += cp.hi - cp.lo;
    }
    assert.ok(covered / suites >= 0.93, `${p.id}: ${covered / suites}`);
    assert.ok(width < cpWidth, `${p.id}: ${width} vs ${cpWidth}`);
  }
});

Deno.test("unitGammaLossInterval() contains the gamma interval whose variance is the exact sum of squared unit losses", () => {
  // one HIGH cell of 12 units of 4 trials: a trial is correct, missed
  // (K = 10 under reconciliation) or a wrong type (a review, 1)
  const p = getProfile("reconciliation");
  const cost = [0, 10, 1];
  const preds = ["X", "MATCH", "Y"];
  const units = 12, trials = 4;
  const share = units * -Math.expm1(Math.log(0.025) / units) /
    -Math.log(0.025);
  // the extra event: one unit missing all its trials, sized by its cell's units
  const e = 10 * trials * share;
  fc.assert(
    fc.property(
      fc.array(
        fc.array(fc.integer({ min: 0, max: 2 }), {
          minLength: trials,
          maxLength: trials,
        }),
        { minLength: units, maxLength: units },
      ),
      (kinds) => {
        const n = [0, 0, 0], pairs = [0, 0, 0];
        let y = 0, squares = 0;
        for (const unit of kinds) {
          const costly = unit.filter((k) => k > 0).length;
          let loss = 0;
          for (const k of unit) {
            n[k]++;
            pairs[k] += costly;
            loss += cost[k];
          }
          y += loss;
          squares += loss * loss;
        }
        const stats: StatsRow[] = preds.map((predClass, k) => ({
          modelId: "m",
          severity: "HIGH" as const,
          trueClass: "X",
          predClass,
          action: "auto" as const,
          n: n[k],
          pErrorSum: 0,
          pMissing: 0,
          parseFailures: 0,
          taskShare: n[k] / trials,
          taskTrialsSum: n[k] * trials,
          unitCostPairs: pairs[k],
        })).filter((r) => r.n > 0);
        const b = unitGammaLossInterval(stats, p)!;
        const exact = gammaInterval(
          y > 0 ? [{ weight: squares / y, count: (y * y) / squares }] : [],
          { extra: { weight: e, square: e * e } },
        );
        const ceiling = units * trials * 10;
        assert.ok(b.lo <= exact.lo + 1e-9, `${b.lo} > ${exact.lo}`);
        assert.ok(
          b.hi >= Math.min(exact.hi, ceiling) - 1e-9,
          `${b.hi} < ${exact.hi}`,
        );
      },
    ),
    { seed: 20261212, numRuns: 300 },
  );
});

Deno.test("unitGammaLossInterval() is cp-gamma's interval under a matrix that prices an automatic correct decision", () => {
  const p = getProfile("reconciliation");
  const matrix = defineCostMatrix({
    id: "paid_correct",
    description: "every automatic decision costs a tenth of a review",
    auto: {
      correct: { of: "review", times: 0.1 },
      missed: { of: "K" },
      wrongType: { of: "review" },
      falseAlarm: { of: "review" },
    },
    escalate: {
      correct: { of: "review" },
      missed: { of: "review" },
      wrongType: { of: "review" },
      falseAlarm: { of: "review" },
    },
  });
  const stats = verdictCell(10, 5, 4, 10);
  assert.deepEqual(
    unitGammaLossInterval(stats, p, { matrix }),
    gammaLossInterval(stats, p, { matrix, extra: "clopper-pearson" }),
  );
  assert.notDeepEqual(
    unitGammaLossInterval(stats, p),
    gammaLossInterval(stats, p, { extra: "clopper-pearson" }),
  );
});

Deno.test("unitGammaLossInterval() refuses a unitCostPairs no unit can have, naming the cell", () => {
  const p = getProfile("flat");
  const [right, wrong] = verdictCell(10, 5, 4, 10);
  assert.throws(
    () => unitGammaLossInterval([right, { ...wrong, unitCostPairs: 3 }], p),
    /cell m\/CRITICAL\/verdict:correct\/verdict:incorrect\/auto: unitCostPairs must be at least n = 4 \(each costly decision counts itself\), got 3/,
  );
  assert.throws(
    () => unitGammaLossInterval([right, { ...wrong, unitCostPairs: 21 }], p),
    /unitCostPairs must be at most taskTrialsSum = 20 .*got 21/,
  );
  assert.throws(
    () => unitGammaLossInterval([{ ...right, unitCostPairs: NaN }, wrong], p),
    /unitCostPairs must be finite and >= 0, got NaN/,
  );
});
