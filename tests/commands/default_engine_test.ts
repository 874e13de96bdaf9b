// score and sweep pick the engine of a Parquet or CSV file by its size: from
// 1 MiB on, without --engine, they aggregate it with DuckDB SQL. The bytes
// they print, and the error for a bad row (file, row or line, field), are
// those of --engine memory; commands that need the rows read them in memory.
// An Arrow file's statistics come straight from its columns.
import assert from "node:assert/strict";
import type { Decision } from "../../lib/decision/decision.ts";
import { decisionTable } from "../../lib/read/load_decisions.ts";
import { writeDecisionsParquet } from "../../lib/read/parquet.ts";
import { writeDecisionsCsv } from "../../lib/read/csv.ts";
import { writeDecisionsArrow } from "../../lib/read/arrow.ts";
import { defaultEngine } from "../../commands/_input.ts";
import { decision, runCli, tempDir } from "../_helpers.ts";

const SEVERITY = ["LOW", "MEDIUM", "HIGH", "CRITICAL"] as const;
const P = [0.1, 0.7, 1 - 2 ** -53, 0.9, 1 / 3, 0.3, null];

// `n` decisions of one trial each, spread over cells; `bad` (a row index)
// gets a pCorrect outside [0, 1]
function rows(n: number, bad?: number): Decision[] {
  return Array.from({ length: n }, (_, i) =>
    decision({
      modelId: i % 3 === 0 ? "b" : "a",
      taskId: `task-${i}-${(i * 2654435761) % 4294967296}`,
      severity: SEVERITY[i % 4],
      predClass: i % 5 === 0 ? "MATCH" : "AMOUNT_MISMATCH",
      pCorrect: i === bad ? 1.3 : P[(i * 7) % P.length],
      action: i % 9 === 0 ? "escalate" : "auto",
      cost: { completeness: "complete", usd: (i % 13) / 1000 },
    }));
}

async function files(
  name: string,
  n: number,
  bad?: number,
): Promise<{ parquet: string; csv: string }> {
  const dir = await tempDir();
  const table = decisionTable(rows(n, bad));
  const parquet = `${dir}/${name}.parquet`;
  const csv = `${dir}/${name}.csv`;
  await writeDecisionsParquet(parquet, table);
  await writeDecisionsCsv(csv, table);
  for (const f of [parquet, csv]) {
    const format = f.endsWith(".csv") ? "csv" : "parquet";
    // the files are large enough for the default to be DuckDB
    assert.equal(
      defaultEngine(format, (await Deno.stat(f)).size, false),
      "duckdb",
    );
  }
  return { parquet, csv };
}

const N = 120_000;

Deno.test("score and sweep print the bytes of --engine memory on a Parquet or CSV file routed to DuckDB", async () => {
  const { parquet, csv } = await files("good", N);
  for (const file of [parquet, csv]) {
    for (const command of ["score", "sweep"]) {
      const routed = await runCli([command, file, "--json"]);
      const memory = await runCli([
        command,
        file,
        "--json",
        "--engine",
        "memory",
      ]);
      assert.equal(routed.code, 0, routed.stderr);
      assert.equal(routed.stdout, memory.stdout, `${command} ${file}`);
      assert.equal(JSON.parse(routed.stdout).decisions, N);
      assert.doesNotMatch(routed.stdout, /duckdb|engine/i);
      assert.equal(routed.stderr, memory.stderr);
    }
  }
});

Deno.test("a bad row of a Parquet or CSV file routed to DuckDB is refused with the message of --engine memory", async () => {
  const { parquet, csv } = await files("bad", N, 97_531);
  for (const file of [parquet, csv]) {
    const routed = await runCli(["score", file, "--json"]);
    const memory = await runCli([
      "score",
      file,
      "--json",
      "--engine",
      "memory",
    ]);
    assert.notEqual(routed.code, 0);
    assert.equal(routed.code, memory.code);
    assert.equal(routed.stderr, memory.stderr);
    // Parquet rows count from 1; a CSV line 1 is the header
    assert.match(
      routed.stderr,
      file.endsWith(".csv")
        ? /line 97533: pCorrect must be in \[0, 1\], got 1\.3/
        : /row 97532: pCorrect must be in \[0, 1\], got 1\.3/,
    );
  }
});

Deno.test("defaultEngine() routes only large Parquet and CSV files read for statistics", () => {
  assert.equal(defaultEngine("parquet", 2 ** 20, false), "duckdb");
  assert.equal(defaultEngine("csv", 2 ** 20, false), "duckdb");
  assert.equal(defaultEngine("parquet", 2 ** 20 - 1, false), "memory");
  assert.equal(defaultEngine("csv", 2 ** 30, true), "memory");
  assert.equal(defaultEngine("arrow", 2 ** 30, false), "memory");
  assert.equal(defaultEngine("jsonl", 2 ** 30, false), "memory");
});

Deno.test("score and sweep print the same statistics for an Arrow file, read from its columns, as for the Parquet file of the same rows", async () => {
  const dir = await tempDir();
  const table = decisionTable(rows(5_000));
  const parquet = `${dir}/same.parquet`;
  const arrow = `${dir}/same.arrow`;
  await writeDecisionsParquet(parquet, table);
  await writeDecisionsArrow(arrow, table);
  for (const command of ["score", "sweep"]) {
    const [a, p] = await Promise.all(
      [arrow, parquet].map((f) => runCli([command, f, "--json"])),
    );
    assert.equal(a.code, 0, a.stderr);
    const { file: _a, ...fromArrow } = JSON.parse(a.stdout);
    const { file: _p, ...fromParquet } = JSON.parse(p.stdout);
    assert.deepEqual(fromArrow, fromParquet);
  }
});
