import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/load.ts";
import {
  bayesEscalationRate,
  fitGlobalThreshold,
  fitSeverityThresholds,
} from "../../../lib/sensitivity/escalation_rate.ts";

const recon = getProfile("reconciliation");

Deno.test("fitGlobalThreshold() escalates whole groups of equal P(error) and reports the threshold it uses", () => {
  const data = {
    severity: ["HIGH", "HIGH", "HIGH", "HIGH"],
    pError: [0.5, 0.5, 0.2, 0.2],
    wrong: [1, 0, 1, 0],
  } as const;
  // Escalating the 0.5 pair: 2 reviews + 1 miss x 10 = 12; all four: 4; none: 20.
  const fit = fitGlobalThreshold(data, recon);
  assert.deepEqual([fit.escalated, fit.loss, fit.threshold], [4, 4, -Infinity]);
  const cheap = fitGlobalThreshold(data, { ...recon, reviewCost: 100 });
  assert.deepEqual([cheap.escalated, cheap.threshold, cheap.rate], [0, 0.5, 0]);
});

Deno.test("fitSeverityThresholds() leaves a severity with no decisions unfitted and counts nothing there", () => {
  const fit = fitSeverityThresholds({
    severity: ["HIGH"],
    pError: [0.9],
    wrong: [1],
  }, recon);
  assert.deepEqual(fit.bySeverity.LOW, {
    threshold: null,
    escalated: 0,
    loss: 0,
  });
  assert.deepEqual([fit.escalated, fit.rate], [1, 1]);
  assert.equal(
    fitSeverityThresholds({ severity: [], pError: [], wrong: [] }, recon).rate,
    null,
  );
  assert.equal(
    bayesEscalationRate({ severity: [], pError: [], wrong: [] }, recon),
    null,
  );
});

Deno.test("escalation rates refuse ragged columns, P(error) outside [0, 1] and unknown severities", () => {
  assert.throws(
    () =>
      bayesEscalationRate({
        severity: ["HIGH"],
        pError: [0.1, 0.2],
        wrong: [0],
      }, recon),
    /columns have different lengths \(severity 1, pError 2, wrong 1\)/,
  );
  assert.throws(
    () =>
      fitSeverityThresholds(
        { severity: ["HIGH"], pError: [1.3], wrong: [0] },
        recon,
      ),
    /pError of decision 0 must be in \[0, 1\], got 1.3/,
  );
  assert.throws(
    () =>
      fitGlobalThreshold({
        severity: ["high" as "HIGH"],
        pError: [0.1],
        wrong: [0],
      }, recon),
    /severity of decision 0 must be one of LOW, MEDIUM, HIGH, CRITICAL, got "high"/,
  );
  assert.throws(
    () =>
      fitGlobalThreshold({ severity: [], pError: [], wrong: [] }, recon, {
        score: "p" as "pError",
      }),
    /score must be "pError" or "expectedLoss", got "p"/,
  );
});
