import assert from "node:assert/strict";
import {
  NULL_REASONS,
  nullReason,
  UNKNOWN_NULL,
} from "../../../lib/report/mod.ts";

Deno.test("nullReason() says unknown for a cost nobody reported and n/a for one that does not apply", () => {
  // yylo-benchmark: unavailable and not_applicable are counted, never summed
  assert.equal(
    nullReason("costUsd", { costCompleteness: "unavailable", costUsd: null })
      ?.label,
    "unknown",
  );
  assert.equal(
    nullReason("costUsd", { costCompleteness: "not_applicable", costUsd: null })
      ?.label,
    "n/a",
  );
  assert.equal(
    nullReason("costUsd", { costCompleteness: "complete" }),
    undefined,
  );
});

Deno.test("nullReason() answers only where the row says why", () => {
  assert.match(nullReason("gap", { n: 0 })!.why, /^empty bin/);
  assert.equal(nullReason("gap", { n: 12 }), undefined);
  assert.match(
    nullReason("successRate", { rateDenominator: 0 })!.why,
    /^empty denominator/,
  );
  assert.equal(nullReason("successRate", { rateDenominator: 3 }), undefined);
  assert.match(
    nullReason("costPerSuccessUsd", { costPerSuccessLabel: "incomplete" })!
      .why,
    /^incomplete/,
  );
  assert.equal(nullReason("threshold", { escalatedShare: 0.2 }), undefined);
  // the consequence card: P(best) is withheld only above a shrinkage of 1/2,
  // calibration is n/a only for a model that states no probability
  assert.match(
    nullReason("pBest", { pBestShrinkage: 0.51 })!.why,
    /^not stated/,
  );
  assert.equal(nullReason("pBest", { pBestShrinkage: 0.5 }), undefined);
  assert.match(nullReason("ece", { pCorrectStated: 0 })!.why, /^no decision/);
  assert.equal(nullReason("ece", { pCorrectStated: 300 }), undefined);
  assert.equal(nullReason("better", { toldApart: true }), undefined);
  assert.equal(nullReason("no_such_column", {}), undefined);
  assert.equal(nullReason("toString", {}), undefined);
});

Deno.test("every null reason is a sentence with a label", () => {
  const rows = [
    { exit: "clean" },
    { exit: "failed" },
    { outcome: null },
    { outcome: "harness_failure" },
    { costCompleteness: "unavailable" },
    { costCompleteness: "not_applicable" },
    { completeCount: 0, partialCount: 0, rateDenominator: 0 },
    { costPerSuccessLabel: "incomplete" },
    { costPerSuccessLabel: "not_computable" },
    { window: 0, n: 0, escalatedShare: 0, excess: 0, policy: "frontier only" },
    { statistic: "recall CRITICAL", n: 60, profile: null },
    {
      severityWeightedRecallLo: null,
      pBestShrinkage: 0.6,
      pCorrectStated: 0,
      fromExact: null,
      toExact: null,
      toldApart: false,
    },
  ];
  let answered = 0;
  for (const [column, rule] of Object.entries(NULL_REASONS)) {
    for (const row of rows) {
      const reason = rule(row);
      if (reason === undefined) continue;
      answered++;
      assert.ok(["unknown", "n/a"].includes(reason.label), column);
      assert.ok(reason.why.length > 20 && !reason.why.endsWith("."), column);
    }
  }
  assert.ok(answered >= Object.keys(NULL_REASONS).length);
  assert.equal(UNKNOWN_NULL.label, "unknown");
});
