import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/mod.ts";
import fc from "fast-check";
import {
  accuracy,
  accuracyCounts,
  bootstrapInterval,
  bootstrapIntervals,
  bootstrapRatioIntervals,
  caughtRecallBySeverity,
  caughtRecallCounts,
  countRatio,
  pairedBootstrap,
  type PairedRow,
  quantileSorted,
  realisedLoss,
  recallBySeverity,
  recallCounts,
  type StatsRow,
} from "../../../lib/metrics/mod.ts";
import { wilsonInterval } from "../../../lib/math/mod.ts";

const base = {
  modelId: "m",
  severity: "HIGH",
  trueClass: "AMOUNT_MISMATCH",
  action: "auto",
  pErrorSum: 0,
  pMissing: 0,
  parseFailures: 0,
} as const;

function run(errors: number, n: number): StatsRow[] {
  return [{ ...base, predClass: "MATCH", n: errors }, {
    ...base,
    predClass: "AMOUNT_MISMATCH",
    n: n - errors,
  }];
}

Deno.test("bootstrapInterval() is byte-identical for the same seed and differs for another", () => {
  const stats = run(30_000, 1_000_000);
  const f = (s: readonly StatsRow[]) => accuracy(s).value;
  assert.deepEqual(
    bootstrapInterval(stats, f, { seed: 9 }),
    bootstrapInterval(stats, f, { seed: 9 }),
  );
  assert.notDeepEqual(
    bootstrapInterval(stats, f, { seed: 9 }).lo,
    bootstrapInterval(stats, f, { seed: 10 }).lo,
  );
});

Deno.test("bootstrapInterval() of accuracy agrees with the Wilson interval on a large run", () => {
  // For n = 20,000 and p = 0.97 both intervals approximate the same normal interval.
  const stats = run(600, 20_000);
  const boot = bootstrapInterval(stats, (s) => accuracy(s).value, {
    seed: 1,
    resamples: 4000,
  });
  const wilson = wilsonInterval(19_400, 20_000)!;
  assert.equal(boot.estimate, 0.97);
  assert.ok(
    Math.abs(boot.lo! - wilson.lo) < 0.0008,
    `${boot.lo} vs ${wilson.lo}`,
  );
  assert.ok(
    Math.abs(boot.hi! - wilson.hi) < 0.0008,
    `${boot.hi} vs ${wilson.hi}`,
  );
});

Deno.test("bootstrapInterval() of loss has the width of the binomial sampling distribution", () => {
  // loss = K(HIGH) x misses with misses ~ Binomial(n, p): sd = 10 sqrt(n p (1 - p))
  const n = 50_000, errors = 500;
  const boot = bootstrapInterval(
    run(errors, n),
    (s) => realisedLoss(s, getProfile("reconciliation")),
    {
      seed: 3,
      resamples: 4000,
    },
  );
  const sd = 10 * Math.sqrt(n * (errors / n) * (1 - errors / n));
  const width = boot.hi! - boot.lo!;
  assert.ok(
    Math.abs(width / (2 * 1.959964 * sd) - 1) < 0.08,
    `width ${width} vs ${2 * 1.96 * sd}`,
  );
});

Deno.test("bootstrapInterval() counts resamples where the statistic is undefined and reports null on empty input", () => {
  // one LOW exception among many HIGH: some resamples hold no LOW exception, where LOW recall is undefined
  const stats: StatsRow[] = [
    ...run(1, 60),
    {
      ...base,
      severity: "LOW",
      trueClass: "DUPLICATE",
      predClass: "DUPLICATE",
      n: 1,
    },
  ];
  const boot = bootstrapInterval(stats, (s) => recallBySeverity(s).LOW.value, {
    seed: 4,
    resamples: 500,
  });
  assert.ok(
    boot.undefinedResamples > 100 && boot.undefinedResamples < 300,
    String(boot.undefinedResamples),
  );
  const empty = bootstrapInterval([], (s) => accuracy(s).value, {
    resamples: 10,
  });
  assert.deepEqual([
    empty.estimate,
    empty.lo,
    empty.hi,
    empty.undefinedResamples,
  ], [null, null, null, 10]);
  assert.throws(
    () => bootstrapInterval(stats, () => 1, { resamples: 0 }),
    RangeError,
  );
  assert.throws(
    () => bootstrapInterval(stats, () => 1, { level: 1 }),
    RangeError,
  );
});

Deno.test("pairedBootstrap() estimates the difference, finds a real one and finds none between identical models", () => {
  const cell = {
    severity: "HIGH",
    trueClass: "X",
    actionA: "auto",
    actionB: "auto",
  } as const;
  const loss = (s: readonly StatsRow[]) =>
    realisedLoss(s, getProfile("reconciliation"));
  const different: PairedRow[] = [
    { ...cell, predA: "MATCH", predB: "X", n: 30 },
    { ...cell, predA: "X", predB: "MATCH", n: 5 },
    { ...cell, predA: "X", predB: "X", n: 965 },
  ];
  const d = pairedBootstrap(different, loss, { seed: 5 });
  // (30 - 5) misses x K(HIGH) = 250
  assert.equal(d.estimate, 250);
  assert.equal(d.pairs, 1000);
  assert.ok(d.lo! > 0 && d.pValue! <= 0.002);
  const same: PairedRow[] = [
    { ...cell, predA: "MATCH", predB: "MATCH", n: 10 },
    { ...cell, predA: "X", predB: "X", n: 90 },
  ];
  const s = pairedBootstrap(same, loss, { seed: 5 });
  assert.deepEqual([s.estimate, s.lo, s.hi, s.pValue], [0, 0, 0, 1]);
});

Deno.test("pairedBootstrap() on an even split gives a large p-value (seed 6)", () => {
  const cell = {
    severity: "MEDIUM",
    trueClass: "X",
    actionA: "auto",
    actionB: "auto",
  } as const;
  const even: PairedRow[] = [
    { ...cell, predA: "MATCH", predB: "X", n: 20 },
    { ...cell, predA: "X", predB: "MATCH", n: 20 },
    { ...cell, predA: "X", predB: "X", n: 160 },
  ];
  const r = pairedBootstrap(even, (s) => realisedLoss(s, getProfile("flat")), {
    seed: 6,
  });
  assert.equal(r.estimate, 0);
  assert.ok(r.pValue! > 0.5);
});

Deno.test("quantileSorted() interpolates like R's type 7", () => {
  // R: quantile(c(1, 2, 4, 8), c(0.1, 0.9)) = 1.3, 6.8
  assert.ok(Math.abs(quantileSorted([1, 2, 4, 8], 0.1)! - 1.3) < 1e-12);
  assert.ok(Math.abs(quantileSorted([1, 2, 4, 8], 0.9)! - 6.8) < 1e-12);
  assert.equal(quantileSorted([5], 0.3), 5);
});

const SEVERITY_NAMES = ["LOW", "MEDIUM", "HIGH", "CRITICAL"] as const;
const CLASSES = ["MATCH", "AMOUNT_MISMATCH", "DUPLICATE", "HERSTATT_EXPOSURE"];

// cells of one model over a few severities and classes, some of them empty
const cellsArb = fc.array(
  fc.record({
    severity: fc.constantFrom(...SEVERITY_NAMES),
    trueClass: fc.constantFrom(...CLASSES),
    predClass: fc.constantFrom(...CLASSES),
    n: fc.nat({ max: 400 }),
  }),
  { maxLength: 12 },
).map((cs) => cs.map((c) => ({ ...base, ...c }) as StatsRow));

Deno.test("bootstrapIntervals() gives each statistic the interval bootstrapInterval() gives it with the same seed (property)", () => {
  fc.assert(
    fc.property(cellsArb, fc.nat({ max: 1000 }), (stats, seed) => {
      const statistics = {
        accuracy: (s: readonly StatsRow[]) => accuracy(s).value,
        high: (s: readonly StatsRow[]) => recallBySeverity(s).HIGH.value,
        low: (s: readonly StatsRow[]) => recallBySeverity(s).LOW.value,
      };
      const all = bootstrapIntervals(stats, statistics, {
        seed,
        resamples: 50,
      });
      for (const [k, f] of Object.entries(statistics)) {
        assert.deepEqual(
          all[k as keyof typeof statistics],
          bootstrapInterval(stats, f, { seed, resamples: 50 }),
          k,
        );
      }
    }),
    { seed: 20261201, numRuns: 60 },
  );
});

Deno.test("the count functions give the values and denominators of the rates they stand for (property)", () => {
  const value = (c: { k: number; n: number }) => c.n === 0 ? null : c.k / c.n;
  fc.assert(
    fc.property(cellsArb, (stats) => {
      const acc = accuracy(stats);
      assert.deepEqual(accuracyCounts(stats), {
        k: acc.numerator,
        n: acc.denominator,
      });
      assert.equal(value(accuracyCounts(stats)), acc.value);
      const exact = recallBySeverity(stats);
      const caught = caughtRecallBySeverity(stats);
      for (const s of SEVERITY_NAMES) {
        assert.equal(value(recallCounts(stats)[s]), exact[s].value);
        assert.equal(recallCounts(stats)[s].n, exact[s].denominator);
        assert.equal(value(caughtRecallCounts(stats)[s]), caught[s].value);
        assert.equal(caughtRecallCounts(stats)[s].n, caught[s].denominator);
      }
    }),
    { seed: 20261201, numRuns: 200 },
  );
});

Deno.test("bootstrapRatioIntervals() of countRatio() gives accuracy and recall the intervals bootstrapIntervals() gives them on the cells merged by their weights, with the same seed (property)", () => {
  const value = (c: { k: number; n: number }) => c.n === 0 ? null : c.k / c.n;
  const ratios = {
    accuracy: countRatio(accuracyCounts),
    high: countRatio((s) => recallCounts(s).HIGH),
    caughtLow: countRatio((s) => caughtRecallCounts(s).LOW),
  };
  // the cells with the same weights in every ratio, as one cell each (the
  // first of them, holding their count), in order of first sight
  const merged = (stats: readonly StatsRow[]): StatsRow[] => {
    const by = new Map<string, StatsRow>();
    for (const c of stats) {
      if (c.n <= 0) continue;
      const key = Object.values(ratios).flatMap((r) => [
        r.numerator(c),
        r.denominator(c),
      ]).join(",");
      const seen = by.get(key);
      by.set(key, seen === undefined ? c : { ...seen, n: seen.n + c.n });
    }
    return [...by.values()];
  };
  fc.assert(
    fc.property(cellsArb, fc.nat({ max: 1000 }), (stats, seed) => {
      const fast = bootstrapRatioIntervals(stats, ratios, {
        seed,
        resamples: 50,
      });
      const slow = bootstrapIntervals(merged(stats), {
        accuracy: (s) => value(accuracyCounts(s)),
        high: (s) => value(recallCounts(s).HIGH),
        caughtLow: (s) => value(caughtRecallCounts(s).LOW),
      }, { seed, resamples: 50 });
      assert.deepEqual(fast, slow);
    }),
    { seed: 20261201, numRuns: 200 },
  );
});

Deno.test("bootstrapRatioIntervals() draws the percentile bootstrap of every decision: its bounds match bootstrapIntervals() on the unmerged cells within Monte Carlo error", () => {
  const value = (c: { k: number; n: number }) => c.n === 0 ? null : c.k / c.n;
  // 40 classes: errors spread over many cells that the ratios merge
  const cell = {
    modelId: "A",
    action: "auto",
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
  } as const;
  const stats: StatsRow[] = [];
  for (const severity of ["LOW", "HIGH"] as const) {
    for (let i = 0; i < 40; i++) {
      const t = `C${i}`;
      stats.push({ ...cell, severity, trueClass: t, predClass: t, n: 20 });
      stats.push({ ...cell, severity, trueClass: t, predClass: "MATCH", n: 2 });
    }
  }
  const resamples = 20_000;
  const fast = bootstrapRatioIntervals(stats, {
    accuracy: countRatio(accuracyCounts),
    high: countRatio((s) => recallCounts(s).HIGH),
  }, { seed: 5, resamples });
  const slow = bootstrapIntervals(stats, {
    accuracy: (s) => value(accuracyCounts(s)),
    high: (s) => value(recallCounts(s).HIGH),
  }, { seed: 6, resamples });
  // 1,760 decisions at 0.909: the bootstrap SD of the ratio is about 0.0069;
  // a 2.5% quantile of 20,000 resamples moves by about 0.0004 between seeds
  for (const k of ["accuracy", "high"] as const) {
    assert.equal(fast[k].estimate, slow[k].estimate);
    assert.ok(Math.abs(fast[k].lo! - slow[k].lo!) < 0.002, k);
    assert.ok(Math.abs(fast[k].hi! - slow[k].hi!) < 0.002, k);
  }
});

Deno.test("bootstrapRatioIntervals() is null where the denominator is empty and refuses bad options", () => {
  const stats = run(3, 100); // HIGH only: LOW recall has no exceptions
  const lowExceptions = (c: StatsRow) =>
    c.severity === "LOW" && c.trueClass !== "MATCH" ? 1 : 0;
  const ci = bootstrapRatioIntervals(stats, {
    low: { numerator: lowExceptions, denominator: lowExceptions },
  }, { seed: 1, resamples: 20 });
  assert.equal(ci.low.estimate, null);
  assert.equal(ci.low.lo, null);
  assert.equal(ci.low.undefinedResamples, 20);
  assert.throws(
    () => bootstrapRatioIntervals(stats, {}, { resamples: 0 }),
    /resamples must be an integer >= 1/,
  );
});
