import assert from "node:assert/strict";
import { loadDecisionsCsv, writeDecisionsCsv } from "../../../lib/read/csv.ts";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import { sqlString, withDuckDB } from "../../../lib/read/duckdb_session.ts";
import { duckdbDecisionStats } from "../../../lib/sql/duckdb_stats.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
} from "../../../lib/read/load_decisions.ts";
import {
  loadDecisionsParquet,
  writeDecisionsParquet,
} from "../../../lib/read/parquet.ts";
import { decision, tempDir } from "../../_helpers.ts";

const DROPPED = ["tokensIn", "tokensOut", "latencyMs", "pCorrectSource"];

// Files written by our own code, then rewritten without the optional
// columns: the in-memory readers and DuckDB must read them as all null.
async function withoutOptional(): Promise<{ csv: string; parquet: string }> {
  const dir = await tempDir("lossbook-test-");
  const table = decisionTable([
    decision({ taskId: "1" }),
    decision({ taskId: "2", pCorrect: null, predClass: "MATCH" }),
  ]);
  await writeDecisionsCsv(`${dir}/full.csv`, table);
  const keep = DECISION_COLUMNS.filter((c) => !DROPPED.includes(c));
  const lines = (await Deno.readTextFile(`${dir}/full.csv`)).trimEnd().split(
    "\n",
  );
  const header = lines[0].split(",");
  const idx = keep.map((c) => header.indexOf(c));
  const csv = `${dir}/lean.csv`;
  await Deno.writeTextFile(
    csv,
    lines.map((l) => {
      const cells = l.split(",");
      return idx.map((i) => cells[i]).join(",");
    }).join("\n") + "\n",
  );
  await writeDecisionsParquet(`${dir}/full.parquet`, table, { threads: 1 });
  const parquet = `${dir}/lean.parquet`;
  await withDuckDB(async (c) => {
    await c.run(
      `COPY (SELECT ${keep.map((k) => `"${k}"`).join(", ")} FROM read_parquet(${
        sqlString(`${dir}/full.parquet`)
      })) TO ${sqlString(parquet)} (FORMAT parquet)`,
    );
  });
  return { csv, parquet };
}

Deno.test("CSV and Parquet exports without tokensIn, tokensOut, latencyMs and pCorrectSource read those fields as null, in memory and through DuckDB", async () => {
  const { csv, parquet } = await withoutOptional();
  const fromCsv = await loadDecisionsCsv(csv);
  const fromParquet = await loadDecisionsParquet(parquet);
  for (const t of [fromCsv, fromParquet]) {
    assert.equal(t.numRows(), 2);
    for (const c of ["tokensIn", "tokensOut", "latencyMs"]) {
      assert.deepEqual(t.array(c), [null, null], c);
    }
  }
  const want = decisionStats(fromCsv);
  assert.deepEqual(
    (await duckdbDecisionStats(csv)).map((r) => [r.n, r.pMissing]),
    want.map((r) => [r.n, r.pMissing]),
  );
  assert.deepEqual(
    (await duckdbDecisionStats(parquet)).map((r) => [r.n, r.pMissing]),
    want.map((r) => [r.n, r.pMissing]),
  );
});
