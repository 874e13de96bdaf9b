import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/load.ts";
import { decisionRecord } from "../../../lib/ledger/decision_record.ts";
import { thresholdPolicy } from "../../../lib/ledger/policy.ts";
import { checkLedgerRecord } from "../../../lib/ledger/record.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import { duckdbDecisionStats } from "../../../lib/sql/duckdb_stats.ts";
import { jsonlStats } from "../../../lib/read/jsonl_text_stats.ts";
import { loadDecisions, writeDecisions } from "../../../lib/read/load_any.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
  parseDecisionsJsonl,
} from "../../../lib/read/load_decisions.ts";
import { decision, tempDir } from "../../_helpers.ts";

function harnessDecisions(): Decision[] {
  return [
    decision({
      taskId: "1",
      trueClass: "verdict:correct",
      predClass: "verdict:correct",
      pCorrect: 0.8,
      pCorrectSource: "agreement@5",
      answer: 'No, it is "late", really',
      target: "No",
    }),
    decision({
      taskId: "2",
      trueClass: "verdict:correct",
      predClass: "verdict:incorrect",
      pCorrect: 0.3,
      pCorrectSource: "score-metadata:confidence",
      answer: "Yes\nwith a line break",
      target: "No",
      outcome: "model_failure",
    }),
    decision({
      taskId: "3",
      trueClass: "verdict:correct",
      predClass: "verdict:no_answer",
      parseOk: false,
      pCorrect: null,
      pCorrectSource: null,
      outcome: "model_failure",
    }),
    // an older decision without any of the new fields
    decision({ taskId: "4" }),
  ];
}

Deno.test("pCorrectSource, answer and target survive JSONL, CSV, Arrow and Parquet unchanged", async () => {
  const dir = await tempDir();
  const table = decisionTable(harnessDecisions());
  for (const ext of ["jsonl", "csv", "arrow", "parquet"]) {
    const path = `${dir}/d.${ext}`;
    await writeDecisions(path, table);
    const back = await loadDecisions(path);
    assert.deepEqual(back.objects(), table.objects(), ext);
    assert.equal(back.get("pCorrectSource", 0), "agreement@5", ext);
    assert.equal(back.get("answer", 1), "Yes\nwith a line break", ext);
    assert.equal(back.get("pCorrectSource", 3), null, ext);
  }
});

Deno.test("exports written before the optional columns existed still load, with the new fields null", async () => {
  const dir = await tempDir();
  const old = decisionTable([decision()]).select(
    // the sixteen original columns: all but the four added last
    ...DECISION_COLUMNS.filter((c) =>
      !["pCorrectSource", "answer", "target", "cluster"].includes(c)
    ),
  );
  // CSV and Parquet with the sixteen original columns
  const csvPath = `${dir}/old.csv`;
  const header = old.columnNames().join(",");
  const d = decision();
  await Deno.writeTextFile(
    csvPath,
    `${header}\nr1,m,t1,0,HIGH,AMOUNT_MISMATCH,AMOUNT_MISMATCH,true,0.9,auto,complete,0.001,resolved,,,\n`,
  );
  const csv = await loadDecisions(csvPath);
  assert.equal(csv.get("pCorrectSource", 0), null);
  assert.equal(csv.get("taskId", 0), d.taskId);
  const stats = await duckdbDecisionStats(csvPath);
  assert.deepEqual(stats, decisionStats(csv));
  const parquetPath = `${dir}/new.parquet`;
  await writeDecisions(parquetPath, decisionTable([d]));
  assert.equal((await loadDecisions(parquetPath)).get("answer", 0), null);
});

Deno.test("an unknown pCorrectSource is refused by every reader, naming the field", async () => {
  const bad = { ...decision(), pCorrectSource: "vibes" };
  const line = JSON.stringify(bad);
  assert.throws(
    () => parseDecisionsJsonl(line, { path: "a.jsonl" }),
    /a\.jsonl: line 1: pCorrectSource must be one of stated/,
  );
  assert.throws(
    () => jsonlStats(line, { path: "a.jsonl" }),
    /line 1: pCorrectSource/,
  );
  for (
    const v of ["agreement@0", "agreement@", "score-metadata:", "agreement@3x"]
  ) {
    assert.throws(
      () =>
        parseDecisionsJsonl(
          JSON.stringify({ ...decision(), pCorrectSource: v }),
        ),
      /pCorrectSource/,
      v,
    );
  }
  const dir = await tempDir();
  const table = decisionTable([decision()]).derive({
    pCorrectSource: () => "agreement@01",
  });
  const csvPath = `${dir}/bad.csv`;
  await writeDecisions(csvPath, table);
  await assert.rejects(() => loadDecisions(csvPath), /line 2: pCorrectSource/);
  await assert.rejects(
    () => duckdbDecisionStats(csvPath),
    /line 2: pCorrectSource/,
  );
  const parquetPath = `${dir}/bad.parquet`;
  await writeDecisions(parquetPath, table);
  await assert.rejects(
    () => loadDecisions(parquetPath),
    /row 1: pCorrectSource/,
  );
  await assert.rejects(
    () => duckdbDecisionStats(parquetPath),
    /row 1: pCorrectSource/,
  );
  const arrowPath = `${dir}/bad.arrow`;
  await writeDecisions(arrowPath, table);
  await assert.rejects(() => loadDecisions(arrowPath), /row 1: pCorrectSource/);
});

Deno.test("the Decision schema stays closed: an unknown field is refused", () => {
  assert.throws(
    () =>
      parseDecisionsJsonl(JSON.stringify({ ...decision(), answerText: "x" })),
    /answerText/,
  );
});

Deno.test("a ledger decision record keeps pCorrectSource, answer and target", () => {
  const d = harnessDecisions()[1];
  const record = decisionRecord(d, {
    at: "2026-03-01T09:00:00Z",
    profile: getProfile("reconciliation"),
    policy: thresholdPolicy("desk", 0.9),
    goldKnown: true,
  });
  const back = checkLedgerRecord(
    JSON.parse(JSON.stringify(record)),
    "ledger.jsonl: line 1",
  );
  assert.equal(back.kind, "decision");
  const got = (back as typeof record).decision;
  assert.equal(got.pCorrectSource, "score-metadata:confidence");
  assert.equal(got.answer, "Yes\nwith a line break");
  assert.equal(got.target, "No");
  assert.throws(
    () =>
      checkLedgerRecord(
        { ...record, decision: { ...record.decision, pCorrectSource: "x" } },
        "ledger.jsonl: line 2",
      ),
    /line 2: .*pCorrectSource/,
  );
});
