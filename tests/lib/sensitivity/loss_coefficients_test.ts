import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/load.ts";
import { realisedLoss, STRICT_MATRIX } from "../../../lib/metrics/loss.ts";
import { forModel } from "../../../lib/metrics/sufficient_stats.ts";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import { decisionTable } from "../../../lib/read/load_decisions.ts";
import { scenarioDecisions } from "../../../analyses/divergence.ts";
import {
  coefficientLoss,
  lossCoefficients,
} from "../../../lib/sensitivity/loss_coefficients.ts";

Deno.test("lossCoefficients() of the Third Number's month reproduces realisedLoss() under every shipped profile", () => {
  const stats = decisionStats(decisionTable(scenarioDecisions()));
  const coefficients = lossCoefficients(stats);
  assert.deepEqual(coefficients.map((c) => [c.modelId, c.n, c.correct]), [[
    "A",
    10_000,
    9_984,
  ], ["B", 10_000, 9_938]]);
  // the-third-number: A loses 104.4 and B 64.0 under reconciliation
  const recon = getProfile("reconciliation");
  assert.ok(
    Math.abs(coefficientLoss(coefficients[0], recon, { per: "run" })! - 104.4) <
      1e-9,
  );
  assert.ok(
    Math.abs(coefficientLoss(coefficients[1], recon, { per: "run" })! - 64) <
      1e-9,
  );
  for (
    const profile of ["flat", "review_heavy", "principal_risk"].map((id) =>
      getProfile(id)
    )
  ) {
    for (const c of coefficients) {
      for (const matrix of [undefined, STRICT_MATRIX]) {
        const expected = realisedLoss(forModel(stats, c.modelId), profile, {
          matrix,
        })!;
        const got = coefficientLoss(
          lossCoefficients(stats, { matrix })[c.modelId === "A" ? 0 : 1],
          profile,
          { per: "run" },
        )!;
        assert.ok(Math.abs(got - expected) < 1e-9 * Math.max(1, expected));
      }
    }
  }
  assert.equal(coefficientLoss({ ...coefficients[0], n: 0 }, recon), null);
  assert.deepEqual(lossCoefficients([]), []);
});
