import assert from "node:assert/strict";
import { roundNumbers } from "../_helpers.ts";
import {
  DESIGNED_ERROR_RATE,
  drift,
  DRIFT_MIX,
  DRIFT_MODEL_AFTER,
  DRIFT_MODEL_BEFORE,
} from "../../analyses/drift.ts";

const result = drift();

Deno.test("drift() holds every claim: errors flat, cost rising, the detector fires and accuracy drift stays silent", () => {
  assert.deepEqual(result.claims.filter((c) => !c.holds).map((c) => c.id), []);
  const get = (id: string) =>
    result.claims.find((c) => c.id === `drift.${id}`)!;
  for (const month of ["calibrated", "stale"]) {
    assert.equal(get(`${month}.detector_fires`).actual, true);
    assert.equal(get(`${month}.accuracy_drift_silent`).actual, false);
  }
  assert.equal(get("calibrated.calibration_silent").actual, 0);
});

Deno.test("drift() scenario holds the error rate at 3.0% by construction while HIGH's share of errors goes from 20% to 50%", () => {
  const rate = (m: typeof DRIFT_MODEL_BEFORE) =>
    DRIFT_MIX.clean * m.errorRate.clean! + DRIFT_MIX.LOW * m.errorRate.LOW! +
    DRIFT_MIX.MEDIUM * m.errorRate.MEDIUM! + DRIFT_MIX.HIGH * m.errorRate.HIGH!;
  assert.ok(Math.abs(rate(DRIFT_MODEL_BEFORE) - DESIGNED_ERROR_RATE) < 1e-12);
  assert.ok(Math.abs(rate(DRIFT_MODEL_AFTER) - DESIGNED_ERROR_RATE) < 1e-12);
  const high = (m: typeof DRIFT_MODEL_BEFORE) =>
    DRIFT_MIX.HIGH * m.errorRate.HIGH! / rate(m);
  assert.ok(Math.abs(high(DRIFT_MODEL_BEFORE) - 0.2) < 1e-12);
  assert.ok(Math.abs(high(DRIFT_MODEL_AFTER) - 0.5) < 1e-12);
});

Deno.test("drift() fires on another seed too, and its accuracy test stays silent", () => {
  const other = drift({ seed: 2 });
  const failing = other.claims.filter((c) => !c.holds).map((c) => c.id);
  assert.deepEqual(failing, []);
});

Deno.test("drift() tables and chart specs match the snapshot", async (t) => {
  const round = (v: unknown): unknown => roundNumbers(v, 8);
  await t.assertSnapshot(round({
    tables: Object.fromEntries(
      Object.entries(result.tables).map(([k, v]) => [k, v.objects()]),
    ),
    charts: result.charts,
    parameters: result.parameters,
  }));
});
