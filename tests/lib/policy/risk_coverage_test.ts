import assert from "node:assert/strict";
import fc from "fast-check";
import {
  bayesEscalation,
  optimalThreshold,
  policyColumns,
  policyCost,
  riskCoverage,
  thresholdsByGroup,
} from "../../../lib/policy/mod.ts";

const FC = { seed: 20_261_201, numRuns: 200, verbose: 1 } as const;

// decisions with tied P(error), errors and a severity's K
const decisions = fc.array(
  fc.record({
    p: fc.integer({ min: 0, max: 40 }).map((k) => k / 40),
    err: fc.boolean(),
    sev: fc.constantFrom("LOW", "MEDIUM", "HIGH", "CRITICAL"),
  }),
  { minLength: 1, maxLength: 120 },
);
const K: Record<string, number> = {
  LOW: 0.2,
  MEDIUM: 1,
  HIGH: 10,
  CRITICAL: 50,
};

function columns(ds: { p: number; err: boolean; sev: string }[]) {
  return {
    pError: ds.map((d) => d.p),
    error: ds.map((d) => (d.err ? 1 : 0)),
    exposure: ds.map((d) => K[d.sev]),
    severity: ds.map((d) => d.sev),
  };
}

Deno.test("riskCoverage() equals the naive O(n × thresholds) sweep at every threshold", () => {
  fc.assert(
    fc.property(
      decisions,
      fc.double({ min: 0, max: 5, noNaN: true }),
      (ds, reviewCost) => {
        const c = columns(ds);
        const rc = riskCoverage(c.pError, c.error, {
          exposure: c.exposure,
          reviewCost,
        });
        rc.threshold.forEach((t, j) => {
          let loss = 0, served = 0, errors = 0;
          for (let i = 0; i < ds.length; i++) {
            if (c.pError[i] <= t) {
              served++;
              errors += c.error[i];
              loss += c.error[i] * c.exposure[i];
            }
          }
          assert.equal(rc.autoServed[j], served);
          assert.equal(rc.autoErrors[j], errors);
          assert.ok(
            Math.abs(rc.cost[j] - (loss + reviewCost * (ds.length - served))) <
              1e-9,
          );
        });
        assert.equal(rc.coverage[0], 0);
        assert.equal(rc.coverage[rc.coverage.length - 1], 1);
        // the optimum is the curve's minimum
        assert.ok(Math.abs(rc.optimal.cost - Math.min(...rc.cost)) < 1e-9);
      },
    ),
    FC,
  );
});

Deno.test("riskCoverage() AURC is the per-decision mean selective risk when P(error) has no ties, and E-AURC is never negative", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 0, max: 100_000 }), {
        minLength: 1,
        maxLength: 100,
      }),
      fc.array(fc.boolean(), { minLength: 100, maxLength: 100 }),
      (ks, errs) => {
        const pError = ks.map((k) => k / 100_000);
        const error = pError.map((_, i) => (errs[i] ? 1 : 0));
        const rc = riskCoverage(pError, error);
        const order = pError.map((_, i) => i).sort((a, b) =>
          pError[a] - pError[b]
        );
        let e = 0, sum = 0;
        order.forEach((i, k) => {
          e += error[i];
          sum += e / (k + 1);
        });
        assert.ok(Math.abs(rc.aurc! - sum / pError.length) < 1e-12);
        assert.ok(rc.eAurc! >= -1e-12 && rc.moneyEAurc! >= -1e-12);
      },
    ),
    FC,
  );
});

Deno.test("thresholdsByGroup() per severity never costs more than the best global threshold, nor than the Bayes rule", () => {
  fc.assert(
    fc.property(
      decisions,
      fc.double({ min: 0.01, max: 5, noNaN: true }),
      (ds, reviewCost) => {
        const c = columns(ds);
        const opts = { exposure: c.exposure, reviewCost };
        const global = optimalThreshold(c.pError, c.error, opts);
        const bySeverity = thresholdsByGroup(c.pError, c.error, {
          ...opts,
          group: c.severity,
        });
        const bayes = policyCost(
          bayesEscalation(c.pError, c.exposure, { reviewCost }),
          c.error,
          opts,
        );
        assert.ok(bySeverity.cost <= global.cost + 1e-9);
        // the Bayes rule is one per-severity threshold policy (r / K(s)); the in-sample optimum is the best
        assert.ok(bySeverity.cost <= bayes.cost + 1e-9);
        assert.ok(
          global.cost <= global.costAllAuto + 1e-9 &&
            global.cost <= global.costAllEscalate + 1e-9,
        );
      },
    ),
    FC,
  );
});

Deno.test("optimalThreshold() never escalates fewer HIGH decisions when K(HIGH) rises (`third-number`, flat-cost theorem)", () => {
  fc.assert(
    fc.property(
      decisions,
      fc.double({ min: 0.5, max: 100, noNaN: true }),
      fc.double({ min: 1, max: 50, noNaN: true }),
      (ds, k, factor) => {
        const c = columns(ds);
        const at = (kHigh: number) =>
          optimalThreshold(c.pError, c.error, {
            exposure: c.pError.map(() => kHigh),
            reviewCost: 1,
          }).escalated;
        assert.ok(at(k * factor) >= at(k));
      },
    ),
    FC,
  );
});

Deno.test("bayesEscalation() minimises expected cost decision by decision when probabilities are calibrated", () => {
  fc.assert(
    fc.property(
      decisions,
      fc.array(fc.boolean(), { minLength: 120, maxLength: 120 }),
      (ds, other) => {
        const c = columns(ds);
        const expected = (mask: ArrayLike<number | boolean>) =>
          c.pError.reduce(
            (s, p, i) => s + (mask[i] ? 1 : p * c.exposure[i]),
            0,
          );
        const bayes = bayesEscalation(c.pError, c.exposure);
        assert.ok(
          expected(bayes) <= expected(other.slice(0, ds.length)) + 1e-9,
        );
      },
    ),
    FC,
  );
});

Deno.test("policyColumns() derives P(error) as 1 − pCorrect and flags errors", () => {
  const c = policyColumns({
    p: [1, 0.75, 0],
    y: [1, 0, 0],
    exposure: [10, 1, 50],
  });
  assert.deepEqual([...c.pError], [0, 0.25, 1]);
  assert.deepEqual([...c.error], [0, 1, 1]);
  assert.deepEqual([...c.exposure!], [10, 1, 50]);
  assert.throws(
    () => policyColumns({ p: [1.5], y: [1] }),
    /pCorrect must be in \[0, 1\], got 1.5/,
  );
});

Deno.test("riskCoverage() and optimalThreshold() name the value they refuse", () => {
  assert.throws(
    () => riskCoverage([0.1, NaN], [0, 1]),
    /pError\[1\] must be a finite number, got NaN/,
  );
  assert.throws(
    () => riskCoverage([0.1], [2]),
    /error\[0\] must be 0 or 1, got 2/,
  );
  assert.throws(
    () => riskCoverage([0.1], [1], { reviewCost: -1 }),
    /reviewCost must be a finite number >= 0, got -1/,
  );
  assert.throws(
    () => optimalThreshold([0.1], [1], { exposure: [1, 2] }),
    /exposure must have one value per decision \(1\), got 2/,
  );
  const empty = riskCoverage([], []);
  assert.equal(empty.aurc, null);
  assert.equal(empty.optimal.threshold, null);
});
