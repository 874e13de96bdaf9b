import assert from "node:assert/strict";
import { type Prng, seededPrng } from "../../../lib/math/sampling.ts";
import type { StatsRow } from "../../../lib/metrics/sufficient_stats.ts";
import { weightedRecallInterval } from "../../../lib/metrics/weighted_recall_interval.ts";
import { RECONFORGE_CLASS_WEIGHTS } from "../../../lib/metrics/reconforge.ts";

// The exception cells of a 60-decision suite (12 / 9 / 6 / 3 exceptions on
// LOW / MEDIUM / HIGH / CRITICAL) and each cell's true catch rate: a LOW or
// MEDIUM exception is caught only with the exact type, a HIGH or CRITICAL
// one by any exception verdict (ReconForge's rule), so a wrong type still
// catches there.
const CELLS = [
  { severity: "LOW", trueClass: "DUPLICATE", n: 12, caught: 0.9 },
  { severity: "MEDIUM", trueClass: "VALUE_DATE_MISMATCH", n: 9, caught: 0.95 },
  { severity: "HIGH", trueClass: "AMOUNT_MISMATCH", n: 6, caught: 0.986 },
  {
    severity: "CRITICAL",
    trueClass: "FX_CONVERSION_ERROR",
    n: 3,
    caught: 0.993,
  },
] as const;

const TRUTH = CELLS.reduce(
  (a, c) => a + RECONFORGE_CLASS_WEIGHTS[c.trueClass] * c.n * c.caught,
  0,
) / CELLS.reduce((a, c) => a + RECONFORGE_CLASS_WEIGHTS[c.trueClass] * c.n, 0);

function suite(rng: Prng): StatsRow[] {
  const rows: StatsRow[] = [];
  const base = {
    modelId: "m",
    action: "auto",
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
  } as const;
  for (const c of CELLS) {
    let k = 0;
    for (let i = 0; i < c.n; i++) if (rng.next() < c.caught) k++;
    if (k > 0) {
      rows.push({
        ...base,
        severity: c.severity,
        trueClass: c.trueClass,
        predClass: c.trueClass,
        n: k,
      });
    }
    if (k < c.n) {
      rows.push({
        ...base,
        severity: c.severity,
        trueClass: c.trueClass,
        predClass: "MATCH",
        n: c.n - k,
      });
    }
  }
  return rows;
}

Deno.test("weightedRecallInterval() covers the true R_w in at least 93% of seeded 60-decision suites; the former bootstrap does not", () => {
  const runs = 300;
  let hits = 0;
  let bootHits = 0;
  const rng = seededPrng(500);
  for (let r = 0; r < runs; r++) {
    const stats = suite(rng);
    const ci = weightedRecallInterval(stats, { draws: 400, seed: r });
    if (ci.lo! <= TRUTH && TRUTH <= ci.hi!) hits++;
    const b = weightedRecallInterval(stats, {
      method: "bootstrap",
      draws: 400,
      seed: r,
    });
    if (b.lo! <= TRUTH && TRUTH <= b.hi!) bootHits++;
  }
  assert.ok(hits / runs >= 0.93, `default covered ${hits / runs}`);
  assert.ok(bootHits / runs < 0.9, `bootstrap covered ${bootHits / runs}`);
});

Deno.test("weightedRecallInterval() covers a true R_w near 1 (catch rates 0.99 to 0.999) in at least 93% of seeded suites", () => {
  const near = [
    { severity: "LOW", trueClass: "DUPLICATE", n: 120, caught: 0.99 },
    {
      severity: "MEDIUM",
      trueClass: "VALUE_DATE_MISMATCH",
      n: 90,
      caught: 0.995,
    },
    { severity: "HIGH", trueClass: "AMOUNT_MISMATCH", n: 60, caught: 0.999 },
    {
      severity: "CRITICAL",
      trueClass: "FX_CONVERSION_ERROR",
      n: 30,
      caught: 0.999,
    },
  ] as const;
  const w = (c: (typeof near)[number]) =>
    RECONFORGE_CLASS_WEIGHTS[c.trueClass] * c.n;
  const truth = near.reduce((a, c) => a + w(c) * c.caught, 0) /
    near.reduce((a, c) => a + w(c), 0);
  const rng = seededPrng(77);
  const base = {
    modelId: "m",
    action: "auto",
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
  } as const;
  const runs = 300;
  let hits = 0;
  for (let r = 0; r < runs; r++) {
    const stats: StatsRow[] = near.flatMap((c) => {
      let k = 0;
      for (let i = 0; i < c.n; i++) if (rng.next() < c.caught) k++;
      const cell = { ...base, severity: c.severity, trueClass: c.trueClass };
      return [
        ...(k > 0 ? [{ ...cell, predClass: c.trueClass, n: k }] : []),
        ...(k < c.n ? [{ ...cell, predClass: "MATCH", n: c.n - k }] : []),
      ];
    });
    const ci = weightedRecallInterval(stats, { draws: 400, seed: r });
    if (ci.lo! <= truth && truth <= ci.hi!) hits++;
  }
  assert.ok(hits / runs >= 0.93, `covered ${hits / runs}`);
});

Deno.test("weightedRecallInterval() is byte-identical for one seed, names its method and is null without exceptions", () => {
  const stats = suite(seededPrng(9));
  const a = weightedRecallInterval(stats, { seed: 4 });
  assert.deepEqual(weightedRecallInterval(stats, { seed: 4 }), a);
  assert.equal(a.interval, "clopper-pearson");
  assert.ok(a.lo! <= a.estimate! && a.estimate! <= a.hi!);
  const clean = [{
    modelId: "m",
    severity: "LOW",
    trueClass: "MATCH",
    predClass: "MATCH",
    action: "auto",
    n: 5,
    pErrorSum: 0,
    pMissing: 5,
    parseFailures: 0,
  }] as const;
  const none = weightedRecallInterval(clean);
  assert.deepEqual([none.estimate, none.lo, none.hi], [null, null, null]);
  assert.throws(
    () => weightedRecallInterval(stats, { level: 1 }),
    /level must be in \(0, 1\), got 1/,
  );
});

Deno.test("weightedRecallInterval() counts a task's trials as one task", () => {
  // the same catches as 10 tasks x 5 perfectly correlated trials: as wide as 10 tasks, not 50
  const base = {
    modelId: "m",
    severity: "LOW",
    trueClass: "DUPLICATE",
    action: "auto",
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
  } as const;
  const tasks = [{ ...base, predClass: "DUPLICATE", n: 8 }, {
    ...base,
    predClass: "MATCH",
    n: 2,
  }];
  const trials = [{ ...base, predClass: "DUPLICATE", n: 40, taskShare: 8 }, {
    ...base,
    predClass: "MATCH",
    n: 10,
    taskShare: 2,
  }];
  const a = weightedRecallInterval(tasks, { seed: 1 });
  const b = weightedRecallInterval(trials, { seed: 1 });
  assert.ok(Math.abs(a.lo! - b.lo!) < 1e-12 && Math.abs(a.hi! - b.hi!) < 1e-12);
  // counted as 50 independent trials it would be narrower
  const naive = weightedRecallInterval(
    trials.map(({ taskShare: _, ...r }) => r),
    { seed: 1 },
  );
  assert.ok(naive.hi! - naive.lo! < 0.8 * (b.hi! - b.lo!));
});
