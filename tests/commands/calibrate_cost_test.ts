// calibrate's cost-weighted calibration error is the expected loss the
// stated probabilities misstate: two 2-decision runs whose bins have the
// same exposure and the same gap misstate very different amounts.
import assert from "node:assert/strict";
import { decision, runCli, tempFile } from "../_helpers.ts";
import { decisionsToJsonl } from "../../lib/tasks/simulate.ts";

Deno.test("calibrate --json costWeightedEce tells apart two runs whose bins share exposure and gap", async () => {
  // both decisions predict MATCH at pCorrect 0.9; under reconciliation (consequence) a wrong
  // MATCH is a miss, so the exposures are K(HIGH) = 10 and K(LOW) = 0.2
  const high = { severity: "HIGH", predClass: "MATCH", pCorrect: 0.9 } as const;
  const low = { severity: "LOW", predClass: "MATCH", pCorrect: 0.9 } as const;
  // A: the HIGH one is a miss. Stated expected loss 0.1 × 10 + 0.1 × 0.2 = 1.02, realised 10
  const a = [
    decision({ ...high, taskId: "a1", trueClass: "AMOUNT_MISMATCH" }),
    decision({ ...low, taskId: "a2", trueClass: "MATCH" }),
  ];
  // B: the LOW one is a miss. Realised 0.2
  const b = [
    decision({ ...high, taskId: "b1", trueClass: "MATCH" }),
    decision({ ...low, taskId: "b2", trueClass: "DUPLICATE" }),
  ];
  const run = async (ds: typeof a) => {
    const path = await tempFile("two.jsonl", decisionsToJsonl(ds));
    const r = await runCli(["calibrate", path, "--json", "--resamples", "10"]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const da = await run(a);
  const db = await run(b);
  // |10 × 0.9 + 0.2 × (0.9 − 1)| = 8.98 and |10 × (0.9 − 1) + 0.2 × 0.9| = 0.82;
  // Σ_b E_b × gap_b would give 10.2 × 0.4 = 4.08 for both
  assert.ok(Math.abs(da.costWeightedTotal - 8.98) < 1e-9);
  assert.ok(Math.abs(db.costWeightedTotal - 0.82) < 1e-9);
  assert.ok(Math.abs(da.costWeightedEce - 4.49) < 1e-9);
  assert.ok(Math.abs(db.costWeightedEce - 0.41) < 1e-9);
  assert.equal(da.ece, db.ece);
});
