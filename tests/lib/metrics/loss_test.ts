// costIfWrong(): the one place that decides what an error costs.
import assert from "node:assert/strict";
import fc from "fast-check";
import { getProfile, SHIPPED_PROFILES } from "../../../lib/costs/load.ts";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import {
  CONSEQUENCE_MATRIX,
  costIfWrong,
  defineCostMatrix,
  expectedLoss,
  realisedLoss,
  STRICT_MATRIX,
} from "../../../lib/metrics/loss.ts";
import type { StatsRow } from "../../../lib/metrics/sufficient_stats.ts";

Deno.test("costIfWrong() charges a predicted clean item a miss and a predicted exception what the matrix charges a wrong type or false alarm", () => {
  const profile = getProfile("principal_risk"); // K 1/10/1,000/100,000, review 1
  for (const s of SEVERITIES) {
    assert.equal(costIfWrong("MATCH", s, { profile }), profile.K[s]);
    assert.equal(costIfWrong("DUPLICATE", s, { profile }), 1);
    assert.equal(
      costIfWrong("DUPLICATE", s, { profile, matrix: STRICT_MATRIX }),
      profile.K[s],
    );
    assert.equal(costIfWrong("MATCH", s, { profile, action: "escalate" }), 1);
  }
  // another clean class
  assert.equal(
    costIfWrong("CLEAN", "HIGH", { profile, cleanClass: "CLEAN" }),
    1000,
  );
  assert.equal(
    costIfWrong("MATCH", "HIGH", { profile, cleanClass: "CLEAN" }),
    1,
  );
});

Deno.test("costIfWrong() treats the reserved verdict: classes as a miss under every matrix", () => {
  const profile = getProfile("reconciliation");
  for (const m of [CONSEQUENCE_MATRIX, STRICT_MATRIX]) {
    for (
      const c of ["verdict:correct", "verdict:incorrect", "verdict:no_answer"]
    ) {
      assert.equal(costIfWrong(c, "CRITICAL", { profile, matrix: m }), 50);
    }
  }
});

Deno.test("costIfWrong() of a predicted exception is the larger of the matrix's wrongType and falseAlarm costs", () => {
  const m = defineCostMatrix({
    ...CONSEQUENCE_MATRIX,
    id: "uneven",
    auto: {
      ...CONSEQUENCE_MATRIX.auto,
      wrongType: { of: "K", times: 0.5 },
      falseAlarm: { of: "review", times: 3 },
    },
  });
  const profile = getProfile("reconciliation"); // K(HIGH) 10, K(LOW) 0.2, review 1
  assert.equal(costIfWrong("DUPLICATE", "HIGH", { profile, matrix: m }), 5);
  assert.equal(costIfWrong("DUPLICATE", "LOW", { profile, matrix: m }), 3);
});

Deno.test("expectedLoss() equals realisedLoss() when every stated probability is exactly right (property, seed 15)", () => {
  // with P(error) 1 on the wrong decisions and 0 on the right ones, the
  // expected loss under a matrix is the realised loss under the same matrix
  const classes = ["MATCH", "AMOUNT_MISMATCH", "DUPLICATE"];
  const arbRow = fc.record({
    severity: fc.constantFrom(...SEVERITIES),
    trueClass: fc.constantFrom(...classes),
    predClass: fc.constantFrom(...classes),
    action: fc.constantFrom("auto", "escalate"),
    n: fc.integer({ min: 1, max: 50 }),
  });
  fc.assert(
    fc.property(
      fc.array(arbRow, { minLength: 1, maxLength: 10 }),
      fc.constantFrom(...SHIPPED_PROFILES),
      fc.constantFrom(CONSEQUENCE_MATRIX, STRICT_MATRIX),
      (rows, profile, matrix) => {
        const stats: StatsRow[] = rows.map((r) => ({
          modelId: "m",
          ...r,
          pErrorSum: r.trueClass === r.predClass ? 0 : r.n,
          pMissing: 0,
          parseFailures: 0,
        }));
        const e = expectedLoss(stats, profile, { matrix })!;
        const l = realisedLoss(stats, profile, { matrix })!;
        return Math.abs(e - l) <= 1e-9 * Math.max(1, l);
      },
    ),
    { seed: 15, numRuns: 300 },
  );
});
