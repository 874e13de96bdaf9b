// Ledger records name the cost matrix of their expected loss; records
// written before they did are read as strict, and readers say so.
import assert from "node:assert/strict";
import { runCli, tempFile } from "../../_helpers.ts";
import { getProfile } from "../../../lib/costs/load.ts";
import { STRICT_MATRIX } from "../../../lib/metrics/loss.ts";
import { ledgerText } from "../../../lib/ledger/chain.ts";
import { ledgerColumns } from "../../../lib/ledger/columns.ts";
import { decisionRecord } from "../../../lib/ledger/decision_record.ts";
import { checkLedgerRecord } from "../../../lib/ledger/record.ts";
import { fastDecisionRecord } from "../../../lib/ledger/_fast_record.ts";
import { decision } from "../../_helpers.ts";

const RECON = getProfile("reconciliation"); // K(HIGH) 10, review 1
const AT = "2026-03-01T09:00:00Z";

Deno.test("decisionRecord() prices the expected loss through the matrix and stores its id", () => {
  const flagged = decision({ predClass: "AMOUNT_MISMATCH", pCorrect: 0.7 });
  const r = decisionRecord(flagged, { at: AT, profile: RECON });
  // consequence: a wrong exception type still reaches review: 0.3 x 1
  assert.ok(Math.abs(r.expectedLoss! - 0.3) < 1e-12);
  assert.equal(r.matrix, "consequence");
  const s = decisionRecord(flagged, {
    at: AT,
    profile: RECON,
    matrix: STRICT_MATRIX,
  });
  assert.ok(Math.abs(s.expectedLoss! - 3) < 1e-12); // 0.3 x K(HIGH)
  assert.equal(s.matrix, "strict");
  // no profile: no expected loss and no matrix
  const n = decisionRecord(flagged, { at: AT });
  assert.equal(n.expectedLoss, null);
  assert.equal(n.matrix, null);
});

Deno.test("records with and without a matrix id pass both checks; a bad matrix id fails both", () => {
  const r = decisionRecord(decision(), { at: AT, profile: RECON });
  const { matrix: _, ...legacy } = r;
  for (const v of [r, legacy]) {
    assert.notEqual(fastDecisionRecord(v), null);
    assert.equal(checkLedgerRecord(v, "here").kind, "decision");
  }
  const bad = { ...r, matrix: 3 };
  assert.equal(fastDecisionRecord(bad), null);
  assert.throws(() => checkLedgerRecord(bad, "ledger.jsonl: line 1"), /matrix/);
});

Deno.test("ledgerColumns() reads a record without a matrix id as strict and counts it", () => {
  const r = decisionRecord(decision(), { at: AT, profile: RECON });
  const { matrix: _, ...legacy } = decisionRecord(
    decision({ taskId: "t2" }),
    { at: AT, profile: RECON },
  );
  const cols = ledgerColumns(ledgerText([r, legacy]).entries);
  assert.deepEqual(cols.expectedLossMatrices, ["consequence", "strict"]);
  assert.equal(cols.expectedLossAssumedStrict, 1);
  const fresh = ledgerColumns(ledgerText([r]).entries);
  assert.equal(fresh.expectedLossAssumedStrict, 0);
});

Deno.test("a command reading a ledger with legacy records says they are read as strict", async () => {
  const { matrix: _, ...legacy } = decisionRecord(
    decision({ predClass: "MATCH", trueClass: "AMOUNT_MISMATCH" }),
    { at: AT, profile: RECON },
  );
  const path = await tempFile("legacy.jsonl", ledgerText([legacy]).text);
  const r = await runCli(["replay", path, "--threshold", "0.5", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /1 decision record carries an expected loss without a matrix id; read as strict \(risk × K\(severity\)\)/,
  );
});
