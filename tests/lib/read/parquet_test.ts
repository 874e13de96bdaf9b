import assert from "node:assert/strict";
import {
  loadDecisionsParquet,
  writeDecisionsParquet,
} from "../../../lib/read/parquet.ts";
import { sqlString, withDuckDB } from "../../../lib/read/duckdb_session.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
  loadDecisionsJsonl,
} from "../../../lib/read/load_decisions.ts";
import { mixedDecisions as mixed, tempDir, tempFile } from "../../_helpers.ts";

async function goodParquet(): Promise<string> {
  const path = `${await tempDir()}/good.parquet`;
  await writeDecisionsParquet(path, decisionTable(mixed()));
  return path;
}

/** Copy a Parquet file through a DuckDB SELECT over `src`, to make a malformed one. */
async function rewrite(select: string): Promise<string> {
  const src = await goodParquet();
  const dst = src.replace("good.parquet", "bad.parquet");
  await withDuckDB(async (c) => {
    await c.run(
      `COPY (${
        select.replaceAll("src", `read_parquet(${sqlString(src)})`)
      }) TO ${sqlString(dst)} (FORMAT parquet)`,
    );
  });
  return dst;
}

Deno.test("loadDecisionsParquet() round-trips a written table to the JSONL load of the same decisions", async () => {
  const ds = mixed();
  const jsonl = await tempFile(
    "a.jsonl",
    ds.map((d) => JSON.stringify(d)).join("\n"),
  );
  const t = await loadDecisionsParquet(await goodParquet());
  assert.deepEqual(t.columnNames(), [...DECISION_COLUMNS]);
  assert.deepEqual(t.objects(), (await loadDecisionsJsonl(jsonl)).objects());
});

Deno.test("loadDecisionsParquet() accepts other numeric types and column orders without changing values", async () => {
  // as pandas writes an integer column with gaps: float64; a decimal probability
  const path = await rewrite(
    `SELECT * REPLACE (CAST(trial AS DOUBLE) AS trial, CAST(pCorrect AS DECIMAL(9, 7)) AS pCorrect,
       CAST(tokensIn AS DOUBLE) AS tokensIn, CAST(tokensOut AS INTEGER) AS tokensOut)
     FROM (SELECT ${[...DECISION_COLUMNS].reverse().join(", ")} FROM src)`,
  );
  assert.deepEqual(
    (await loadDecisionsParquet(path)).objects(),
    decisionTable(mixed()).objects(),
  );
});

Deno.test("loadDecisionsParquet() names row and field for a value out of range", async () => {
  const cases: Array<[string, RegExp]> = [
    [
      "CASE WHEN taskId = 'c' THEN 1.3 ELSE pCorrect END AS pCorrect",
      /: row 3: pCorrect must be in \[0, 1\], got 1\.3$/,
    ],
    [
      "CASE WHEN taskId = 'b' THEN 'SEVERE' ELSE severity END AS severity",
      /: row 2: severity must be one of LOW, MEDIUM, HIGH, CRITICAL, got "SEVERE"$/,
    ],
    [
      "CASE WHEN taskId = 'e' THEN 'defer' ELSE action END AS action",
      /: row 5: action must be "auto" or "escalate", got "defer"$/,
    ],
    [
      "CASE WHEN taskId = 'a' THEN -1 ELSE costUsd END AS costUsd",
      /: row 1: costUsd must be >= 0, got -1$/,
    ],
  ];
  for (const [replace, message] of cases) {
    const path = await rewrite(`SELECT * REPLACE (${replace}) FROM src`);
    await assert.rejects(() => loadDecisionsParquet(path), {
      name: "RangeError",
      message: new RegExp(
        `^Cannot load run export ${
          path.replaceAll(".", "\\.")
        }${message.source}`,
      ),
    });
  }
});

Deno.test("loadDecisionsParquet() names row and field for a null where a value is due, or a fraction where a count is", async () => {
  const half = await rewrite(
    "SELECT * REPLACE (CASE WHEN taskId = 'd' THEN 1.5 ELSE trial END AS trial) FROM src",
  );
  await assert.rejects(() => loadDecisionsParquet(half), {
    name: "TypeError",
    message:
      `Cannot load run export ${half}: row 4: trial must be int, got 1.5`,
  });
  const path = await rewrite(
    "SELECT * REPLACE (CASE WHEN taskId = 'c' THEN NULL ELSE runId END AS runId) FROM src",
  );
  await assert.rejects(() => loadDecisionsParquet(path), {
    name: "TypeError",
    message:
      `Cannot load run export ${path}: row 3: runId must be string, got null`,
  });
  const zero = await rewrite(
    "SELECT * REPLACE (CASE WHEN taskId = 'b' THEN 0 ELSE costUsd END AS costUsd) FROM src",
  );
  await assert.rejects(() => loadDecisionsParquet(zero), {
    name: "TypeError",
    message: /: row 2: costUsd must be null, got 0$/,
  });
});

Deno.test("loadDecisionsParquet() refuses a column of the wrong type before reading rows", async () => {
  const text = await rewrite(
    "SELECT * REPLACE (CAST(pCorrect AS VARCHAR) AS pCorrect) FROM src",
  );
  await assert.rejects(() => loadDecisionsParquet(text), {
    name: "TypeError",
    message:
      `Cannot load run export ${text}: column pCorrect must have a numeric type, got VARCHAR`,
  });
  const flag = await rewrite(
    "SELECT * REPLACE (CASE WHEN parseOk THEN 1 ELSE 0 END AS parseOk) FROM src",
  );
  await assert.rejects(() => loadDecisionsParquet(flag), {
    name: "TypeError",
    message: /column parseOk must have type BOOLEAN, got INTEGER$/,
  });
});

Deno.test("loadDecisionsParquet() refuses extra and missing columns", async () => {
  const extra = await rewrite("SELECT *, 0.9 AS confidence FROM src");
  await assert.rejects(() => loadDecisionsParquet(extra), {
    name: "TypeError",
    message: new RegExp(
      `^Cannot load run export .*: unknown column "confidence"`,
    ),
  });
  const missing = await rewrite("SELECT * EXCLUDE (outcome) FROM src");
  await assert.rejects(() => loadDecisionsParquet(missing), {
    name: "TypeError",
    message: /: missing column outcome$/,
  });
});

Deno.test("loadDecisionsParquet() refuses a repeated decision, a file that is not Parquet and a missing file", async () => {
  const repeated = await rewrite(
    "SELECT * FROM src UNION ALL SELECT * FROM src WHERE taskId = 'b'",
  );
  await assert.rejects(() => loadDecisionsParquet(repeated), {
    name: "RangeError",
    message:
      /: row 6: duplicate decision for runId "r1", modelId "m", taskId "b", trial 0 \(first on row 2\)$/,
  });
  const csv = await tempFile("fake.parquet", "runId,modelId\n");
  await assert.rejects(() => loadDecisionsParquet(csv), {
    name: "SyntaxError",
    message: new RegExp(
      `^Cannot load run export ${csv}: not a readable Parquet file`,
    ),
  });
  await assert.rejects(
    () => loadDecisionsParquet("/nonexistent/a.parquet"),
    Deno.errors.NotFound,
  );
});

Deno.test("writeDecisionsParquet() refuses a table without the decision columns", async () => {
  await assert.rejects(
    () =>
      writeDecisionsParquet(
        "/tmp/never.parquet",
        decisionTable(mixed()).select("runId"),
      ),
    {
      name: "TypeError",
      message: /Cannot write Parquet run export: missing columns/,
    },
  );
});
