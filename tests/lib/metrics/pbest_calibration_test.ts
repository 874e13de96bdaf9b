// The calibration of P(best) on design (P), the truth drawn afresh in every
// replication: a lighter run of scripts/pbest_calibration.ts (whose figures
// docs/method.md quotes).
import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/shipped.ts";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import {
  calibrationTable,
  DESIGN_P,
  formatTable,
  independentMethod,
  statedMethod,
  worstExcess,
} from "./_pbest_design.ts";

const PROFILES = ["flat", "reconciliation", "principal_risk"].map((p) =>
  getProfile(p)
);
const REPS = 400;
const DRAWS = 300;
const SEED = 20260602;

Deno.test("P(best) as score states it is calibrated on design (P): every bin of >= 60 cases within max(0.1, 2 SE), flat stated in most replications", () => {
  const table = calibrationTable(
    statedMethod(DRAWS),
    DESIGN_P,
    PROFILES,
    REPS,
    SEED,
  );
  assert.ok(worstExcess(table) <= 0, formatTable(table));
  // not vacuous: flat, whose loss its cheap, well-observed cells carry, is
  // stated in most replications and fills several bins
  assert.ok(table.flat.stated >= 0.6 * REPS, formatTable(table));
  assert.ok(
    table.flat.bins.filter((b) => b.n >= 60).length >= 4,
    formatTable(table),
  );
  // the costly cells hold about one error per model: there the pooling, not
  // the counts, would carry the comparison, and P(best) is mostly not stated
  for (const id of ["reconciliation", "principal_risk"]) {
    assert.ok(table[id].stated <= 0.2 * REPS, formatTable(table));
  }
});

Deno.test("independent Jeffreys draws (earlier versions) are over-confident on design (P) under reconciliation and principal_risk", () => {
  const table = calibrationTable(
    independentMethod(DRAWS),
    DESIGN_P,
    PROFILES,
    REPS,
    SEED,
  );
  assert.ok(worstExcess(table) > 0, formatTable(table));
  const overconfident = (id: string) =>
    table[id].bins.some((b) =>
      b.n >= 60 && b.stated! > 0.6 && b.stated! - b.share! > b.bound!
    );
  assert.ok(overconfident("reconciliation"), formatTable(table));
  assert.ok(overconfident("principal_risk"), formatTable(table));
});

Deno.test("with ten times the tasks the costly cells hold a few errors per model: P(best) is stated under every profile in many replications, and calibrated", () => {
  const design = {
    ...DESIGN_P,
    tasks: Object.fromEntries(
      SEVERITIES.map((s) => [s, 10 * DESIGN_P.tasks[s]]),
    ) as typeof DESIGN_P.tasks,
  };
  const reps = 300;
  const table = calibrationTable(
    statedMethod(DRAWS),
    design,
    PROFILES,
    reps,
    SEED,
  );
  assert.ok(worstExcess(table) <= 0, formatTable(table));
  for (const id of ["flat", "reconciliation", "principal_risk"]) {
    assert.ok(table[id].stated >= 0.3 * reps, formatTable(table));
  }
});
