import assert from "node:assert/strict";
import fc from "fast-check";
import { defineProfile, getProfile } from "../../../lib/costs/mod.ts";
import {
  accuracy,
  CONSEQUENCE_MATRIX,
  defineCostMatrix,
  errorsBySeverity,
  expectedLoss,
  lossBySeverity,
  realisedLoss,
  recallBySeverity,
  type StatsRow,
  STRICT_MATRIX,
} from "../../../lib/metrics/mod.ts";
import { normalQuantile, rate, wilsonInterval } from "../../../lib/math/mod.ts";

function cell(patch: Partial<StatsRow>): StatsRow {
  return {
    modelId: "m",
    severity: "HIGH",
    trueClass: "AMOUNT_MISMATCH",
    predClass: "AMOUNT_MISMATCH",
    action: "auto",
    n: 0,
    pErrorSum: 0,
    pMissing: 0,
    parseFailures: 0,
    ...patch,
  };
}

// A small hand-built run, scored by hand below.
//   HIGH AMOUNT_MISMATCH (10): 7 right/auto, 1 missed/auto, 1 wrong type/auto, 1 missed/escalated
//   MEDIUM PARTIAL_MATCH (5):  4 right/auto, 1 missed/auto
//   LOW MATCH, clean (20):     19 right/auto, 1 false alarm/escalated
const stats: StatsRow[] = [
  cell({ n: 7, pErrorSum: 0.7 }),
  cell({ predClass: "MATCH", n: 1, pErrorSum: 0.5 }),
  cell({ predClass: "FX_CONVERSION_ERROR", n: 1, pErrorSum: 0.4 }),
  cell({ predClass: "MATCH", action: "escalate", n: 1, pErrorSum: 0.9 }),
  cell({
    severity: "MEDIUM",
    trueClass: "PARTIAL_MATCH",
    predClass: "PARTIAL_MATCH",
    n: 4,
    pErrorSum: 0.2,
  }),
  cell({
    severity: "MEDIUM",
    trueClass: "PARTIAL_MATCH",
    predClass: "MATCH",
    n: 1,
    pErrorSum: 0.3,
  }),
  cell({
    severity: "LOW",
    trueClass: "MATCH",
    predClass: "MATCH",
    n: 19,
    pErrorSum: 0.4,
  }),
  cell({
    severity: "LOW",
    trueClass: "MATCH",
    predClass: "DUPLICATE",
    action: "escalate",
    n: 1,
  }),
];

Deno.test("realisedLoss() matches hand-computed values under the strict matrix", () => {
  const strict = { matrix: STRICT_MATRIX };
  // reconciliation: 2 auto HIGH errors x 10 + 1 MEDIUM miss x 1 + 2 escalations x 1 = 23
  assert.ok(
    Math.abs(realisedLoss(stats, getProfile("reconciliation"), strict)! - 23) <
      1e-12,
  );
  // review_heavy: 2 x 50 + 1 x 5 + 2 x 25 = 155
  assert.equal(realisedLoss(stats, getProfile("review_heavy"), strict), 155);
  // principal_risk: 2 x 1000 + 1 x 10 + 2 x 1 = 2012
  assert.equal(realisedLoss(stats, getProfile("principal_risk"), strict), 2012);
  // flat: 3 automatic errors + 2 reviews = 5
  assert.equal(realisedLoss(stats, getProfile("flat"), strict), 5);
});

Deno.test("realisedLoss() under the consequence matrix charges a wrong exception type a review, not K", () => {
  // reconciliation: HIGH miss 10 + HIGH wrong type 1 (review) + MEDIUM miss 1 + 2 escalations = 14
  assert.ok(
    Math.abs(realisedLoss(stats, getProfile("reconciliation"))! - 14) < 1e-12,
  );
  // principal_risk: 1000 + 1 + 10 + 2 = 1013
  assert.equal(
    realisedLoss(stats, getProfile("principal_risk"), {
      matrix: CONSEQUENCE_MATRIX,
    }),
    1013,
  );
  // a false alarm left automatic costs a review under consequence, K(LOW) under strict
  const alarm = [
    cell({ severity: "LOW", trueClass: "MATCH", predClass: "DUPLICATE", n: 3 }),
  ];
  assert.equal(realisedLoss(alarm, getProfile("review_heavy")), 75);
  assert.equal(
    realisedLoss(alarm, getProfile("review_heavy"), { matrix: STRICT_MATRIX }),
    3,
  );
});

Deno.test("strict and consequence agree on right answers and missed exceptions", () => {
  const subset = stats.filter((r) =>
    r.action === "auto" &&
    (r.predClass === r.trueClass || r.predClass === "MATCH")
  );
  for (
    const p of ["flat", "reconciliation", "review_heavy", "principal_risk"]
  ) {
    assert.equal(
      realisedLoss(subset, getProfile(p), { matrix: STRICT_MATRIX }),
      realisedLoss(subset, getProfile(p), { matrix: CONSEQUENCE_MATRIX }),
      p,
    );
  }
});

Deno.test("defineCostMatrix() validates rules and feeds realisedLoss()", () => {
  const cheap = defineCostMatrix({
    ...CONSEQUENCE_MATRIX,
    id: "cheap_alarms",
    auto: {
      ...CONSEQUENCE_MATRIX.auto,
      wrongType: { of: "fixed", value: 0.5 },
    },
  });
  // reconciliation: 10 + 0.5 + 1 + 2 = 13.5
  assert.ok(
    Math.abs(
      realisedLoss(stats, getProfile("reconciliation"), { matrix: cheap })! -
        13.5,
    ) < 1e-12,
  );
  assert.throws(
    () =>
      defineCostMatrix({
        ...STRICT_MATRIX,
        auto: { ...STRICT_MATRIX.auto, missed: { of: "K", times: -1 } },
      }),
    /auto\.missed must have a finite amount >= 0, got -1/,
  );
  assert.throws(
    () =>
      defineCostMatrix({
        ...STRICT_MATRIX,
        auto: { ...STRICT_MATRIX.auto, missed: undefined as never },
      }),
    /auto\.missed is missing/,
  );
});

Deno.test("lossBySeverity() splits loss by action and sums to realisedLoss()", () => {
  const p = getProfile("review_heavy");
  const by = lossBySeverity(stats, p, { matrix: STRICT_MATRIX });
  assert.deepEqual(by.HIGH, {
    n: 10,
    autoErrors: 2,
    escalated: 1,
    autoLoss: 100,
    escalatedLoss: 25,
    loss: 125,
  });
  assert.deepEqual(by.LOW, {
    n: 20,
    autoErrors: 0,
    escalated: 1,
    autoLoss: 0,
    escalatedLoss: 25,
    loss: 25,
  });
  assert.equal(by.CRITICAL, null);
  for (const matrix of [STRICT_MATRIX, CONSEQUENCE_MATRIX]) {
    const total = Object.values(lossBySeverity(stats, p, { matrix })).reduce(
      (s, v) => s + (v?.loss ?? 0),
      0,
    );
    assert.equal(total, realisedLoss(stats, p, { matrix }));
  }
});

Deno.test("expectedLoss() weighs automatic P(error) by the matrix's cost if wrong, charges escalations a review, and is null when a probability is missing", () => {
  // strict, reconciliation: HIGH auto (0.7 + 0.5 + 0.4) x 10 + MEDIUM (0.2 + 0.3) x 1 + LOW 0.4 x 0.2 + 2 reviews = 16 + 0.5 + 0.08 + 2
  assert.ok(
    Math.abs(
      expectedLoss(stats, getProfile("reconciliation"), {
        matrix: STRICT_MATRIX,
      })! - 18.58,
    ) < 1e-12,
  );
  // consequence (default): only a predicted MATCH risks K; a predicted exception risks a review (1):
  // HIGH 0.7 x 1 + 0.5 x 10 + 0.4 x 1 + MEDIUM 0.2 x 1 + 0.3 x 1 + LOW 0.4 x 0.2 + 2 reviews = 8.68
  assert.ok(
    Math.abs(expectedLoss(stats, getProfile("reconciliation"))! - 8.68) <
      1e-12,
  );
  assert.equal(
    expectedLoss([...stats, cell({ n: 1, pMissing: 1 })], getProfile("flat")),
    null,
  );
  // a missing probability on an escalated decision does not matter: it costs a review either way
  assert.equal(
    expectedLoss(
      [cell({ n: 2, pMissing: 2, action: "escalate" })],
      getProfile("review_heavy"),
    ),
    50,
  );
});

Deno.test("metrics of an empty group are null, never 0", () => {
  assert.equal(accuracy([]).value, null);
  assert.equal(accuracy([]).interval, null);
  assert.equal(accuracy(stats.slice(6), { exceptionsOnly: true }).value, null);
  assert.equal(realisedLoss([], getProfile("flat")), null);
  assert.equal(expectedLoss([], getProfile("flat")), null);
  assert.deepEqual(errorsBySeverity([]), {
    LOW: null,
    MEDIUM: null,
    HIGH: null,
    CRITICAL: null,
  });
  const recall = recallBySeverity(stats);
  assert.equal(recall.CRITICAL.value, null);
  // LOW has only clean items, so LOW recall has no denominator
  assert.equal(recall.LOW.value, null);
  assert.equal(recall.LOW.denominator, 0);
  assert.equal(lossBySeverity([], getProfile("flat")).HIGH, null);
});

Deno.test("accuracy() states its denominator and can count exceptions only", () => {
  const all = accuracy(stats);
  assert.deepEqual([all.numerator, all.denominator], [30, 35]);
  const exc = accuracy(stats, { exceptionsOnly: true });
  assert.deepEqual([exc.numerator, exc.denominator], [11, 15]);
  const custom = accuracy([cell({ trueClass: "OK", predClass: "OK", n: 4 })], {
    exceptionsOnly: true,
    cleanClass: "OK",
  });
  assert.equal(custom.denominator, 0);
});

Deno.test("errorsBySeverity() and recallBySeverity() count by hand", () => {
  assert.deepEqual(errorsBySeverity(stats), {
    LOW: 1,
    MEDIUM: 1,
    HIGH: 3,
    CRITICAL: null,
  });
  assert.deepEqual(errorsBySeverity(stats, { exceptionsOnly: true }), {
    LOW: null,
    MEDIUM: 1,
    HIGH: 3,
    CRITICAL: null,
  });
  const r = recallBySeverity(stats);
  assert.equal(r.HIGH.value, 0.7);
  assert.equal(r.MEDIUM.value, 0.8);
});

Deno.test("loss under a flat profile is errors times K plus reviews times review cost", () => {
  const flat = defineProfile({
    id: "flat3",
    K: { LOW: 3, MEDIUM: 3, HIGH: 3, CRITICAL: 3 },
    reviewCost: 0.5,
  });
  // strict: 3 automatic errors x 3 + 2 escalations x 0.5
  assert.equal(realisedLoss(stats, flat, { matrix: STRICT_MATRIX }), 10);
});

Deno.test("wilsonInterval() matches an independent computation", () => {
  // Python 3.11: z = NormalDist().inv_cdf((1 + level) / 2),
  // centre = (k + z²/2) / (n + z²), half = z·sqrt(k(n-k)/n + z²/4) / (n + z²)
  const a = wilsonInterval(98, 100)!;
  assert.ok(Math.abs(a.lo - 0.9299882092714561) < 1e-12);
  assert.ok(Math.abs(a.hi - 0.9944980324498377) < 1e-12);
  const z = wilsonInterval(0, 10)!;
  assert.equal(z.lo, 0);
  assert.ok(Math.abs(z.hi - 0.27753279986288915) < 1e-12);
  const l = wilsonInterval(784, 800, { level: 0.9 })!;
  assert.ok(Math.abs(l.lo - 0.9700948147183052) < 1e-12);
  assert.ok(Math.abs(l.hi - 0.9866694760766045) < 1e-12);
  assert.throws(() => wilsonInterval(5, 4), RangeError);
  assert.throws(() => wilsonInterval(1.5, 4), RangeError);
  assert.throws(() => wilsonInterval(1, 4, { level: 1 }), RangeError);
});

Deno.test("normalQuantile() agrees with Python's NormalDist.inv_cdf in both tails and the centre", () => {
  // Python 3.11 statistics.NormalDist().inv_cdf(p)
  const cases: [number, number][] = [
    [0.975, 1.959963984540054],
    [0.95, 1.6448536269514715],
    [0.995, 2.5758293035489],
    [0.5, 0],
    [0.2, -0.8416212335729142],
    [1e-10, -6.361340902404056],
    [1 - 1e-6, 4.753424308822899],
  ];
  for (const [p, expected] of cases) {
    assert.ok(
      Math.abs(normalQuantile(p) - expected) <
        1e-9 * Math.max(1, Math.abs(expected)),
      `p=${p}`,
    );
  }
  assert.equal(normalQuantile(0), -Infinity);
  assert.throws(() => normalQuantile(1.1), RangeError);
});

Deno.test("wilsonInterval() contains the point estimate, stays in [0, 1] and widens with the level (property, seed 7)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 100_000 }).chain((n) =>
        fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))
      ),
      ([k, n]) => {
        const ci = wilsonInterval(k, n)!;
        const wide = wilsonInterval(k, n, { level: 0.99 })!;
        assert.ok(0 <= ci.lo && ci.lo <= k / n && k / n <= ci.hi && ci.hi <= 1);
        assert.ok(wide.lo <= ci.lo + 1e-15 && wide.hi >= ci.hi - 1e-15);
      },
    ),
    { seed: 7, numRuns: 500 },
  );
});

Deno.test("rate() over an empty denominator has a null value and a null interval", () => {
  assert.deepEqual(rate(0, 0), {
    numerator: 0,
    denominator: 0,
    value: null,
    interval: null,
  });
});

Deno.test("realisedLoss() is linear in K (property, seed 11)", () => {
  const arbRow = fc.record({
    severity: fc.constantFrom(
      "LOW" as const,
      "MEDIUM" as const,
      "HIGH" as const,
      "CRITICAL" as const,
    ),
    n: fc.integer({ min: 1, max: 50 }),
    autoErrors: fc.integer({ min: 0, max: 50 }),
    escalated: fc.integer({ min: 0, max: 50 }),
  });
  const arbK = fc.record({
    LOW: fc.double({ min: 0, max: 1e3, noNaN: true }),
    MEDIUM: fc.double({ min: 0, max: 1e3, noNaN: true }),
    HIGH: fc.double({ min: 0, max: 1e3, noNaN: true }),
    CRITICAL: fc.double({ min: 0, max: 1e3, noNaN: true }),
  });
  fc.assert(
    fc.property(
      fc.array(arbRow, { minLength: 1, maxLength: 8 }),
      arbK,
      arbK,
      fc.double({ min: 0, max: 10, noNaN: true }),
      (rows, K1, K2, a) => {
        const s = rows.flatMap((r) => [
          cell({ severity: r.severity, predClass: "MATCH", n: r.autoErrors }),
          cell({ severity: r.severity, action: "escalate", n: r.escalated }),
          cell({ severity: r.severity, n: r.n }),
        ]);
        const p = (K: typeof K1) =>
          defineProfile({ id: "p", K, reviewCost: 1 });
        const mix = {
          LOW: K1.LOW + a * K2.LOW,
          MEDIUM: K1.MEDIUM + a * K2.MEDIUM,
          HIGH: K1.HIGH + a * K2.HIGH,
          CRITICAL: K1.CRITICAL + a * K2.CRITICAL,
        };
        const reviews = s.reduce(
          (t, r) => t + (r.action === "escalate" ? r.n : 0),
          0,
        );
        // L(K1 + aK2) = L(K1) + a (L(K2) - reviews): the review term is not scaled
        const lhs = realisedLoss(s, p(mix))!;
        const rhs = realisedLoss(s, p(K1))! +
          a * (realisedLoss(s, p(K2))! - reviews);
        assert.ok(Math.abs(lhs - rhs) <= 1e-9 * Math.max(1, Math.abs(lhs)));
      },
    ),
    { seed: 11, numRuns: 300 },
  );
});
