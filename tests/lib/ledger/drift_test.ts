import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/load.ts";
import type { Severity } from "../../../lib/costs/severity.ts";
import { ledgerText } from "../../../lib/ledger/chain.ts";
import { ledgerColumns } from "../../../lib/ledger/columns.ts";
import {
  errorsFlatCostRising,
  ksTest,
  ledgerDrift,
  populationStabilityIndex,
  rollingCalibration,
} from "../../../lib/ledger/drift.ts";
import { thresholdPolicy } from "../../../lib/ledger/policy.ts";
import { simulateLedgerMonth } from "../../../lib/ledger/simulate_month.ts";
import { CONSEQUENCE_MATRIX, ruleCost } from "../../../lib/metrics/loss.ts";
import { outcomeOf } from "../../../lib/metrics/sufficient_stats.ts";
import {
  type SimTask,
  type SimulatedModel,
  simulateRun,
} from "../../../lib/tasks/simulate.ts";
import { seededPrng } from "../../../lib/math/sampling.ts";

// The same error rate, 3.0% of all decisions, spread evenly over severities
// first, then moved onto HIGH: 0.15·0.06·2 + 0.1·0.06 = 0.15·0.02 + 0.15·0.04 + 0.1·0.15.
const EVEN: SimulatedModel = {
  id: "desk",
  label: "errors spread evenly",
  errorRate: { LOW: 0.06, MEDIUM: 0.06, HIGH: 0.06, clean: 0.01 },
  missShare: 0.7,
  confidence: { kind: "calibrated" },
};
const SHIFTED: SimulatedModel = {
  ...EVEN,
  label: "errors moved to HIGH",
  errorRate: { LOW: 0.02, MEDIUM: 0.04, HIGH: 0.15, clean: 0.01 },
};
const MIX: [Severity | "clean", number][] = [["clean", 0.6], ["LOW", 0.15], [
  "MEDIUM",
  0.15,
], ["HIGH", 0.1]];
const CLASSES: Record<string, string[]> = {
  LOW: ["DUPLICATE", "FIELD_CORRUPTION"],
  MEDIUM: ["VALUE_DATE_MISMATCH", "MISSING_MESSAGE"],
  HIGH: ["AMOUNT_MISMATCH", "FX_CONVERSION_ERROR"],
};

function suite(n: number, seed: number): SimTask[] {
  const rng = seededPrng(seed);
  return Array.from({ length: n }, (_, i) => {
    let u = rng.next();
    const [key] = MIX.find(([, w]) => (u -= w) < 0) ?? MIX[0];
    const severity = key === "clean" ? "LOW" : key;
    return {
      id: `t${i}`,
      gold: {
        exceptionType: key === "clean" ? null : CLASSES[key][i % 2],
        severity,
      },
    };
  });
}

Deno.test("populationStabilityIndex() is 0 for one distribution and large for a shifted one", () => {
  const a = Array.from({ length: 5000 }, (_, i) => (i % 100) / 100);
  assert.ok(populationStabilityIndex(a, a).psi! < 1e-12);
  const p = populationStabilityIndex(a, a.map((x) => x + 0.3));
  assert.ok(p.psi! > 0.25);
  assert.equal(p.bins.length, 10);
  assert.equal(populationStabilityIndex([], a).psi, null);
  // ties in the reference merge bins instead of making empty ones
  assert.equal(
    populationStabilityIndex(new Array(100).fill(0), [0, 1]).bins.length,
    1,
  );
});

Deno.test("ksTest() matches known values of D and the asymptotic p-value", () => {
  // D = 0.5 for {1,2,3,4} vs {3,4,5,6}; n = m = 4, ne = 2
  const t = ksTest([1, 2, 3, 4], [3, 4, 5, 6]);
  assert.equal(t.statistic, 0.5);
  // Q(λ) with λ = (√2 + 0.12 + 0.11/√2)·0.5 = 0.80589..., Q = 0.5350... (Numerical Recipes probks)
  assert.ok(Math.abs(t.pValue! - 0.535) < 0.002);
  assert.deepEqual(ksTest([], [1]), {
    statistic: null,
    pValue: null,
    n: 0,
    m: 1,
  });
});

Deno.test("errorsFlatCostRising() fires on months whose errors move to HIGH, while the error rate test stays silent", () => {
  const profile = getProfile("reconciliation");
  let fired = 0;
  let accuracyAlarms = 0;
  const seeds = 20;
  for (let seed = 1; seed <= seeds; seed++) {
    const tasks = suite(12_000, seed);
    // loss per decision straight from the cost matrix, independently of the ledger code
    const window = (m: SimulatedModel, s: number) => {
      const run = simulateRun(tasks, m, { seed: s });
      return {
        error: run.map((d) => (d.predClass === d.trueClass ? 0 : 1)),
        loss: run.map((d) =>
          ruleCost(
            CONSEQUENCE_MATRIX.auto[outcomeOf(d.trueClass, d.predClass)],
            profile,
            d.severity,
          )
        ),
      };
    };
    const v = errorsFlatCostRising(
      window(EVEN, 100 + seed),
      window(SHIFTED, 200 + seed),
    );
    if (v.fired) fired++;
    if (v.errorRate.drifted) accuracyAlarms++;
    assert.ok(
      v.lossPerDecision.ratio! > 1.3,
      `seed ${seed}: ${v.lossPerDecision.ratio}`,
    );
  }
  assert.equal(fired, seeds);
  assert.equal(accuracyAlarms, 0);
});

Deno.test("errorsFlatCostRising() stays silent when nothing moved, and defers to accuracy drift when the error rate moves", () => {
  const error = Array.from({ length: 4000 }, (_, i) => (i % 25 === 0 ? 1 : 0));
  const same = { error, loss: error.map((e) => e * 3) };
  assert.equal(errorsFlatCostRising(same, same).fired, false);
  const worse = error.map((_, i) => (i % 10 === 0 ? 1 : 0));
  const v = errorsFlatCostRising(same, {
    error: worse,
    loss: worse.map((e) => e * 3),
  });
  assert.deepEqual([v.errorRate.drifted, v.lossPerDecision.rising, v.fired], [
    true,
    true,
    false,
  ]);
});

Deno.test("rollingCalibration() alerts after the drift, not before, and recalibrating on the previous window brings the error back", () => {
  const rng = seededPrng(4);
  const n = 12_000;
  const risk = new Float64Array(n);
  const error = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = 0.02 + 0.2 * rng.next();
    // stated risk is right until i = 6000, then a third of the truth
    risk[i] = i < 6000 ? p : p / 3;
    error[i] = rng.next() < p ? 1 : 0;
  }
  const rows = rollingCalibration(risk, error, { window: 2000, bound: 0.03 });
  assert.deepEqual(rows.map((r) => r.alert), [
    false,
    false,
    false,
    true,
    true,
    true,
  ]);
  assert.ok(rows.slice(4).every((r) => r.eceRecalibrated! < 0.03));
  assert.throws(
    () => rollingCalibration([1.2], [1]),
    /risk 0 must be in \[0, 1\], got 1\.2/,
  );
});

Deno.test("ledgerDrift() on a recorded month: errors flat, cost rising, seen on the expected-loss distribution", () => {
  const month = simulateLedgerMonth({
    start: "2026-03-01",
    days: 20,
    casesPerDay: 800,
    mix: Object.fromEntries(MIX),
    served: (day) => (day < 10 ? EVEN : SHIFTED),
    policy: thresholdPolicy("desk", 0.5),
    profile: getProfile("reconciliation"),
  }, { seed: 2 });
  const cols = ledgerColumns(ledgerText(month.records).entries);
  const drift = ledgerDrift(cols, { split: "2026-03-11T00:00:00Z" });
  assert.equal(drift.reference.decisions, 8000);
  assert.equal(drift.current.decisions, 8000);
  assert.equal(drift.detector.fired, true);
  assert.equal(drift.detector.errorRate.drifted, false);
  assert.ok(drift.expectedLoss.ks.pValue! < 1e-6);
  assert.ok(
    drift.current.errorShare.HIGH! > 2 * drift.reference.errorShare.HIGH!,
  );
  assert.ok(
    drift.calibration.every((w) => !w.alert),
    "a calibrated model raises no calibration alert",
  );
  assert.throws(
    () => ledgerDrift(cols, { split: "March 11" }),
    /split must be an ISO 8601 UTC timestamp/,
  );
});
