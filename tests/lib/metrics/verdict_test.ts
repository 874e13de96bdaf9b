import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/load.ts";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { possibleOutcomes } from "../../../lib/ledger/_answer_costs.ts";
import {
  CONSEQUENCE_MATRIX,
  realisedLoss,
  STRICT_MATRIX,
} from "../../../lib/metrics/loss.ts";
import {
  caughtRecallBySeverity,
  severityWeightedRecall,
} from "../../../lib/metrics/reconforge.ts";
import {
  outcomeOf,
  type StatsRow,
  summarise,
  VERDICT_CORRECT,
  VERDICT_INCORRECT,
  VERDICT_NO_ANSWER,
} from "../../../lib/metrics/sufficient_stats.ts";

const cell = (
  severity: StatsRow["severity"],
  predClass: string,
  n: number,
): StatsRow => ({
  modelId: "m",
  severity,
  trueClass: VERDICT_CORRECT,
  predClass,
  action: "auto",
  n,
  pErrorSum: 0,
  pMissing: n,
  parseFailures: predClass === VERDICT_NO_ANSWER ? n : 0,
});

Deno.test("outcomeOf() makes every wrong harness verdict a miss, never a wrong type or a false alarm", () => {
  assert.equal(outcomeOf(VERDICT_CORRECT, VERDICT_CORRECT), "correct");
  assert.equal(outcomeOf(VERDICT_CORRECT, VERDICT_INCORRECT), "missed");
  assert.equal(outcomeOf(VERDICT_CORRECT, VERDICT_NO_ANSWER), "missed");
  // even against a clean gold class a verdict prediction cannot be a false alarm
  assert.equal(outcomeOf("MATCH", VERDICT_INCORRECT), "missed");
});

Deno.test("a wrong harness answer costs K(severity) under the strict and consequence matrices, for every profile", () => {
  for (
    const id of ["flat", "reconciliation", "review_heavy", "principal_risk"]
  ) {
    const p = getProfile(id);
    for (const s of SEVERITIES) {
      const rows = [
        cell(s, VERDICT_CORRECT, 4),
        cell(s, VERDICT_INCORRECT, 3),
        cell(s, VERDICT_NO_ANSWER, 2),
      ];
      for (const matrix of [STRICT_MATRIX, CONSEQUENCE_MATRIX]) {
        assert.equal(
          realisedLoss(rows, p, { matrix }),
          5 * p.K[s],
          `${id}/${s}/${matrix.id}`,
        );
      }
    }
  }
  const sum = summarise([cell("HIGH", VERDICT_INCORRECT, 3)]);
  assert.equal(sum.missed, 3);
  assert.equal(sum.wrongType, 0);
});

Deno.test("the any-flag rule of reconforge mode never counts verdict:incorrect as caught", () => {
  const rows = [
    cell("HIGH", VERDICT_CORRECT, 1),
    cell("HIGH", VERDICT_INCORRECT, 3),
    cell("CRITICAL", VERDICT_NO_ANSWER, 2),
  ];
  const r = caughtRecallBySeverity(rows);
  assert.equal(r.HIGH.value, 0.25);
  assert.equal(r.CRITICAL.value, 0);
  // R_w has no class weight for a verdict: not defined, never inflated
  assert.equal(severityWeightedRecall(rows), null);
});

Deno.test("the ledger prices a wrong harness verdict as a miss whether or not the gold is recorded", () => {
  // codes: 0 clean, 1 verdict:correct, 2 verdict:incorrect
  const verdict = (c: number) => c === 1 || c === 2;
  const CORRECT = 1, MISSED = 2;
  assert.equal(possibleOutcomes(1, -1, 2, verdict), MISSED);
  assert.equal(possibleOutcomes(1, -1, 1, verdict), CORRECT);
  // gold unknown: the answer is right or a miss, nothing else
  assert.equal(possibleOutcomes(-1, -1, 2, verdict), CORRECT | MISSED);
  // without verdict codes the old reading stands: a wrong exception type
  assert.equal(possibleOutcomes(1, -1, 2), 4);
});
