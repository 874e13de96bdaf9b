// The entry points of the package (deno.json `exports`), and the values
// the sub-entries that curate lib/ export. Changing a list is an API change:
// update it on purpose, in the same diff. Types are left out: each entry
// exports those its functions take and return, as `deno doc --lint`
// requires (.ci/run runs it on every entry).
import assert from "node:assert/strict";
import * as stats from "../stats.ts";
import * as sql from "../sql.ts";
import * as ledger from "../ledger.ts";

const ROOT = new URL("../", import.meta.url);
const config = JSON.parse(
  await Deno.readTextFile(new URL("deno.json", ROOT)),
) as { exports: Record<string, string> };

Deno.test("deno.json exports the root, display, cli, analyses, sql, stats and ledger entries", () => {
  assert.deepEqual(config.exports, {
    ".": "./mod.ts",
    "./display": "./display.ts",
    "./cli": "./cli.ts",
    "./analyses": "./analyses/mod.ts",
    "./sql": "./sql.ts",
    "./stats": "./stats.ts",
    "./ledger": "./ledger.ts",
  });
});

Deno.test("every entry point opens with a module doc that holds a runnable example", async () => {
  for (const [name, path] of Object.entries(config.exports)) {
    const text = await Deno.readTextFile(new URL(path, ROOT));
    const doc = /^\/\*\*\n([\s\S]*?)\*\//.exec(text)?.[1] ?? "";
    assert.match(doc, /@module/, name);
    assert.match(
      doc,
      /```ts\n[\s\S]*import assert from "node:assert\/strict";/,
      name,
    );
  }
});

Deno.test("stats.ts exports the curated statistics", () => {
  assert.deepEqual(Object.keys(stats).sort(), [
    "CONSEQUENCE_MATRIX",
    "INTERVAL_METHODS",
    "SEVERITIES",
    "STRICT_MATRIX",
    "accuracy",
    "applyCalibrator",
    "bayesEscalation",
    "binEdges",
    "bootstrapInterval",
    "breakEven",
    "brierDecomposition",
    "brierScore",
    "certifiedThreshold",
    "clopperPearsonInterval",
    "cltInterval",
    "coefficientDraws",
    "coefficientLoss",
    "cohensKappa",
    "comparisonShrinkage",
    "conformalEscalationThreshold",
    "confusionMatrix",
    "costFamily",
    "costWeightedCalibrationError",
    "crossoverInterval",
    "crossoverRatio",
    "debiasedCalibrationError",
    "drawRegistryProfiles",
    "eceInterval",
    "eceNoiseFloor",
    "errorsBySeverity",
    "expectedCalibrationError",
    "expectedLoss",
    "fitCalibrator",
    "kendallTauB",
    "lossBySeverity",
    "lossCoefficients",
    "lossDifferenceInterval",
    "lossInterval",
    "lossOptimalRoute",
    "lossPosterior",
    "maxCalibrationError",
    "newcombePairedInterval",
    "optimalThreshold",
    "pairedLossTest",
    "planClusterSampleSize",
    "planSampleSize",
    "policyCost",
    "policyRegret",
    "pooledLossDraws",
    "pooledLossPosterior",
    "pooledProbabilityBest",
    "posteriorLossDraws",
    "probabilityBest",
    "rankReversalDistance",
    "realisedLoss",
    "recallBySeverity",
    "reliabilityDiagram",
    "riskCoverage",
    "seededPrng",
    "severityWeightedRecall",
    "signFlipTest",
    "signTest",
    "sweepFamily",
    "sweepProfiles",
    "weightedRecallInterval",
    "wilsonInterval",
  ]);
});

Deno.test("sql.ts exports the engines and the decision SQL", () => {
  assert.deepEqual(Object.keys(sql).sort(), [
    "SEVERITIES",
    "SQL_DIALECTS",
    "decisionSqlExport",
    "decisionsTableSql",
    "duckdbDecisionStats",
    "duckdbJsonlStats",
    "postgresChecksGuaranteed",
    "postgresDecisionStats",
    "statsRowsOfSql",
  ]);
});

Deno.test("ledger.ts exports writing, verifying, replay and drift", () => {
  assert.deepEqual(Object.keys(ledger).sort(), [
    "DECISION_FIELDS",
    "LedgerDamagedError",
    "SEVERITIES",
    "costCurve",
    "decisionRecord",
    "errorsFlatCostRising",
    "ksTest",
    "ledgerColumns",
    "ledgerDrift",
    "ledgerEntriesFile",
    "loadLedger",
    "lossByDay",
    "openLedger",
    "openReview",
    "overdueReviews",
    "policyRecord",
    "populationStabilityIndex",
    "refitPolicy",
    "repairTornTail",
    "replay",
    "resolveReview",
    "reviewSummary",
    "rollingCalibration",
    "simulateLedgerMonth",
    "thresholdPolicy",
    "verifyLedger",
    "verifyLedgerFile",
    "verifyLossbenchLedgerFile",
  ]);
});
