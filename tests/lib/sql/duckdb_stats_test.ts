import assert from "node:assert/strict";
import fc from "fast-check";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import type { StatsRow } from "../../../lib/metrics/sufficient_stats.ts";
import {
  decisionsToCsv,
  loadDecisionsCsv,
  readCsvHeader,
  writeDecisionsCsv,
} from "../../../lib/read/csv.ts";
import {
  csvRecordStarts,
  readCsvRecordAt,
} from "../../../lib/read/_csv_records.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import { sqlString, withDuckDB } from "../../../lib/read/duckdb_session.ts";
import {
  duckdbCsvRelation,
  duckdbDecisionStats,
  type DuckDBProgress,
} from "../../../lib/sql/duckdb_stats.ts";
import {
  DECISION_CHECKS,
  decisionStatsSql,
  duplicateDecisionsSql,
} from "../../../lib/sql/duckdb_stats_sql.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
} from "../../../lib/read/load_decisions.ts";
import {
  loadDecisionsParquet,
  writeDecisionsParquet,
} from "../../../lib/read/parquet.ts";
import { decision, tempDir } from "../../_helpers.ts";

// A run with every case the statistics must keep apart: stated and missing
// pCorrect, escalations, parse failures, two models, all four severities.
function run(): Decision[] {
  return [
    decision({ taskId: "1", pCorrect: 0.9 }),
    decision({ taskId: "2", predClass: "MATCH", pCorrect: 0.6 }),
    decision({
      taskId: "3",
      predClass: "MATCH",
      pCorrect: 0.5,
      action: "escalate",
    }),
    decision({ taskId: "4", pCorrect: null, parseOk: false }),
    decision({ taskId: "4b", pCorrect: null }),
    decision({
      taskId: "5",
      severity: "LOW",
      trueClass: "MATCH",
      predClass: "DUPLICATE",
      pCorrect: 0.75,
      cost: { completeness: "unavailable", usd: null },
    }),
    decision({
      taskId: "6",
      severity: "CRITICAL",
      trueClass: "BENEFICIARY_MISMATCH",
      predClass: "MATCH",
      pCorrect: null,
      parseOk: false,
      action: "escalate",
      cost: { completeness: "not_applicable", usd: null },
    }),
    decision({
      taskId: "1",
      modelId: "a",
      severity: "MEDIUM",
      trueClass: "PARTIAL_MATCH",
      predClass: "PARTIAL_MATCH",
      pCorrect: 1,
      tokensIn: 10,
      latencyMs: 3.5,
    }),
  ];
}

/** The same statistics to the last bit: the sums are exact and rounded once. */
function assertSameStats(got: StatsRow[], want: StatsRow[]): void {
  assert.deepEqual(got, want);
}

async function files(ds: Decision[]): Promise<[string, string]> {
  const dir = await tempDir("lossbook-test-");
  const table = decisionTable(ds);
  await writeDecisionsParquet(`${dir}/run.parquet`, table, { threads: 1 });
  await writeDecisionsCsv(`${dir}/run.csv`, table);
  return [`${dir}/run.parquet`, `${dir}/run.csv`];
}

/** The loader's error for a file, to compare with the SQL path's. */
async function loaderError(path: string): Promise<Error> {
  try {
    await (path.endsWith(".csv")
      ? loadDecisionsCsv(path)
      : loadDecisionsParquet(path));
  } catch (error) {
    return error as Error;
  }
  throw new Error(`${path} loaded without error`);
}

async function sameError(path: string): Promise<Error> {
  const want = await loaderError(path);
  await assert.rejects(() => duckdbDecisionStats(path, { threads: 2 }), {
    name: want.name,
    message: want.message,
  });
  return want;
}

Deno.test("duckdbDecisionStats() equals decisionStats() on the same Parquet and CSV file, nulls, escalations and parse failures included", async () => {
  const [parquet, csv] = await files(run());
  const want = decisionStats(await loadDecisionsParquet(parquet));
  assertSameStats(await duckdbDecisionStats(parquet), want);
  assertSameStats(await duckdbDecisionStats(csv), want);
  assertSameStats(decisionStats(await loadDecisionsCsv(csv)), want);
  // the hand count: HIGH AMOUNT_MISMATCH right/auto has pCorrect .9 and two nulls, one parse failure
  const cell = want.find((r) =>
    r.modelId === "m" && r.severity === "HIGH" &&
    r.predClass === "AMOUNT_MISMATCH"
  )!;
  assert.deepEqual([cell.n, cell.pMissing, cell.parseFailures], [3, 2, 1]);
  // 1 - 0.9 in binary64
  assert.equal(cell.pErrorSum, 1 - 0.9);
});

Deno.test("duckdbDecisionStats() of a file with a header and no rows is empty", async () => {
  const [parquet, csv] = await files([]);
  assert.deepEqual(await duckdbDecisionStats(parquet), []);
  assert.deepEqual(await duckdbDecisionStats(csv), []);
});

Deno.test("duckdbDecisionStats() equals decisionStats() on random runs (property, seed 20261201)", async () => {
  const classes = ["MATCH", "AMOUNT_MISMATCH", "DUPLICATE"];
  const arb = fc.array(
    fc.record({
      modelId: fc.constantFrom("a", "b"),
      severity: fc.constantFrom(...SEVERITIES),
      trueClass: fc.constantFrom(...classes),
      predClass: fc.constantFrom(...classes),
      action: fc.constantFrom("auto" as const, "escalate" as const),
      pCorrect: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), {
        nil: null,
      }),
      parseOk: fc.boolean(),
    }),
    { maxLength: 40 },
  );
  const seed = 20261201;
  try {
    await fc.assert(
      fc.asyncProperty(arb, async (rows) => {
        const ds = rows.map((r, i) => decision({ ...r, taskId: `t${i}` }));
        const want = decisionStats(decisionTable(ds));
        const [parquet, csv] = await files(ds);
        assertSameStats(
          await duckdbDecisionStats(parquet, { threads: 1 }),
          want,
        );
        assertSameStats(await duckdbDecisionStats(csv, { threads: 1 }), want);
      }),
      { seed, numRuns: 25 },
    );
  } catch (error) {
    console.error(`property failed with fast-check seed ${seed}`);
    throw error;
  }
});

/** Copy the run's Parquet file through a DuckDB SELECT over `src`. */
async function badParquet(select: string): Promise<string> {
  const [src] = await files(run());
  const dst = src.replace("run.parquet", "bad.parquet");
  await withDuckDB(async (c) => {
    await c.run(
      `COPY (${
        select.replaceAll("src", `read_parquet(${sqlString(src)})`)
      }) TO ${sqlString(dst)} (FORMAT parquet)`,
    );
  });
  return dst;
}

/** The run's CSV text with one cell of one task replaced. */
async function badCsv(
  taskId: string,
  column: string,
  text: string,
): Promise<string> {
  const [, src] = await files(run());
  const lines = (await Deno.readTextFile(src)).split("\n");
  const k = DECISION_COLUMNS.indexOf(column as typeof DECISION_COLUMNS[number]);
  const i = lines.findIndex((l) => l.split(",")[2] === taskId);
  const cells = lines[i].split(",");
  cells[k] = text;
  lines[i] = cells.join(",");
  const dst = src.replace("run.csv", "bad.csv");
  await Deno.writeTextFile(dst, lines.join("\n"));
  return dst;
}

Deno.test("duckdbDecisionStats() refuses out-of-range values in Parquet with the loader's message naming row and field", async () => {
  const cases: Array<[string, RegExp]> = [
    [
      "CASE WHEN taskId IN ('3', '5') THEN 1.3 ELSE pCorrect END AS pCorrect",
      /: row 3: pCorrect must be in \[0, 1\], got 1\.3$/,
    ],
    [
      "CASE WHEN taskId = '2' THEN 'SEVERE' ELSE severity END AS severity",
      /: row 2: severity must be one of LOW, MEDIUM, HIGH, CRITICAL, got "SEVERE"$/,
    ],
    [
      "CASE WHEN taskId = '4' THEN 'defer' ELSE action END AS action",
      /: row 4: action must be "auto" or "escalate", got "defer"$/,
    ],
    [
      "CASE WHEN taskId = '1' AND modelId = 'a' THEN -2 ELSE costUsd END AS costUsd",
      /: row 8: costUsd must be >= 0, got -2$/,
    ],
    [
      "CASE WHEN taskId = '3' THEN 'NaN'::DOUBLE ELSE pCorrect END AS pCorrect",
      /: row 3: pCorrect must be a finite number, got NaN$/,
    ],
    [
      "CASE WHEN taskId = '1' AND modelId = 'a' THEN 'infinity'::DOUBLE ELSE latencyMs END AS latencyMs",
      /: row 8: latencyMs must be a finite number, got Infinity$/,
    ],
    [
      "CASE WHEN taskId = '5' THEN 0 ELSE costUsd END AS costUsd",
      /: row 6: costUsd must be null, got 0$/,
    ],
    [
      "CASE WHEN taskId = '6' THEN '' ELSE modelId END AS modelId",
      /: row 7: modelId must not be empty, got ""$/,
    ],
  ];
  for (const [replace, message] of cases) {
    const path = await badParquet(`SELECT * REPLACE (${replace}) FROM src`);
    const error = await sameError(path);
    assert.match(error.message, message);
    assert.ok(error.message.startsWith(`Cannot load run export ${path}: `));
  }
});

Deno.test("duckdbDecisionStats() refuses bad CSV cells with the loader's message naming line and field", async () => {
  const cases: Array<[string, string, string, RegExp]> = [
    [
      "3",
      "pCorrect",
      "1.3",
      /: line 4: pCorrect must be in \[0, 1\], got 1\.3$/,
    ],
    ["2", "pCorrect", "abc", /: line 3: pCorrect must be number, got "abc"$/],
    ["2", "pCorrect", "NaN", /: line 3: pCorrect must be number, got "NaN"$/],
    ["5", "severity", "SEVERE", /: line 7: severity must be one of/],
    ["4", "action", "defer", /: line 5: action must be "auto" or "escalate"/],
    ["1", "costUsd", "-0.5", /: line 2: costUsd must be >= 0, got -0\.5$/],
    ["4", "parseOk", "yes", /: line 5: parseOk must be boolean, got "yes"$/],
    ["6", "trial", "1.5", /: line 8: trial must be int, got 1\.5$/],
    ["6", "trial", "", /: line 8: trial must be number, got null$/],
    ["4b", "taskId", "", /: line 6: taskId must not be empty, got ""$/],
  ];
  for (const [taskId, column, text, message] of cases) {
    const path = await badCsv(taskId, column, text);
    const error = await sameError(path);
    assert.match(error.message, message, `${column}=${text}`);
  }
});

Deno.test("duckdbDecisionStats() refuses malformed CSV and wrong columns with the loader's message", async () => {
  const [, src] = await files(run());
  const text = await Deno.readTextFile(src);
  const dir = await tempDir();
  const write = async (name: string, body: string) => {
    await Deno.writeTextFile(`${dir}/${name}`, body);
    return `${dir}/${name}`;
  };
  const lines = text.split("\n");
  const short = await write(
    "short.csv",
    [...lines.slice(0, 3), "r1,m,t9", ...lines.slice(3)].join("\n"),
  );
  assert.match(
    (await sameError(short)).message,
    /line 4: expected 20 fields, got 3$/,
  );
  const quote = await write(
    "quote.csv",
    [...lines.slice(0, 2), `"r1,${lines[2]}`].join("\n"),
  );
  assert.match(
    (await sameError(quote)).message,
    /line 3: unterminated quoted field$/,
  );
  const extra = await write(
    "extra.csv",
    lines.map((l, i) => l === "" ? l : `${l},${i === 0 ? "confidence" : "0.9"}`)
      .join("\n"),
  );
  assert.match(
    (await sameError(extra)).message,
    /line 1: header: unknown column "confidence"/,
  );
  const missing = await write(
    "missing.csv",
    lines.map((l) => l.split(",").slice(0, 12).join(",")).join("\n"),
  );
  assert.match(
    (await sameError(missing)).message,
    /line 1: header: missing column outcome$/,
  );
});

// A CSV run export of n decisions in which every 97th task id holds a
// quoted line break (LF or CRLF) and a doubled quote, with a blank line
// after every 101st record and `end` ending each record; `patch` changes
// the decision of one index, `copy` repeats one record at the end.
async function multiLineCsv(
  n: number,
  end: "\n" | "\r\n",
  patch: [number, Partial<Record<string, string>>] | null,
  copy: number | null = null,
): Promise<string> {
  const header = decisionsToCsv(decisionTable([])).trimEnd();
  const records = Array.from({ length: n }, (_, i) => {
    const taskId = i % 97 === 3
      ? `t${i}${i % 2 === 0 ? "\n" : "\r\n"}with "quotes", and lines`
      : `t${i}`;
    const text = decisionsToCsv(
      decisionTable([decision({ taskId, pCorrect: (i % 10) / 10 })]),
    ).slice(header.length + 1, -1);
    if (patch === null || patch[0] !== i) return text;
    const cells = text.split(",");
    for (const [column, value] of Object.entries(patch[1])) {
      cells[
        DECISION_COLUMNS.indexOf(column as typeof DECISION_COLUMNS[number])
      ] = value!;
    }
    return cells.join(",");
  });
  if (copy !== null) records.push(records[copy]);
  const body = records.map((r, i) => i % 101 === 100 ? `${r}${end}` : r);
  const dir = await tempDir();
  const path = `${dir}/multi.csv`;
  await Deno.writeTextFile(path, [header, ...body].join(end) + end);
  return path;
}

Deno.test("duckdbDecisionStats() names the CSV reader's line for a bad or repeated row near the end of a file with quoted line breaks and blank lines, LF or CRLF", async () => {
  for (const end of ["\n", "\r\n"] as const) {
    const bad = await multiLineCsv(3000, end, [2990, { pCorrect: "1.3" }]);
    // 2990 records after the header, 31 of them over two lines, 29 blank lines
    assert.match(
      (await sameError(bad)).message,
      /: line 3052: pCorrect must be in \[0, 1\], got 1\.3$/,
    );
    const text = await multiLineCsv(3000, end, [2996, { outcome: "lost" }]);
    assert.match(
      (await sameError(text)).message,
      /: line 3058: outcome must be one of /,
    );
    // the copy of the record on lines 301-302 (t294, two lines) ends the file
    const repeated = await multiLineCsv(3000, end, null, 294);
    assert.match(
      (await sameError(repeated)).message,
      /: line 3062: duplicate decision for runId "r1", modelId "m", taskId "t294\\nwith \\"quotes\\", and lines", trial 0 \(first on line 301\)$/,
    );
  }
});

Deno.test("DuckDB numbers a CSV file's rows in one thread as csvRecordStarts() counts its records, across quoted line breaks and blank lines", async () => {
  for (const end of ["\n", "\r\n"] as const) {
    const path = await multiLineCsv(3000, end, null);
    const relation = duckdbCsvRelation(path, await readCsvHeader(path));
    const rows = await withDuckDB(async (c) =>
      (await c.runAndReadAll(
        `SELECT n, taskId FROM (SELECT row_number() OVER () AS n, taskId FROM ${relation}) WHERE n % 97 IN (0, 4, 50) OR n > 2990`,
      )).getRowsJS(), { threads: 2 });
    const indices = rows.map(([n]) => Number(n));
    const starts = await csvRecordStarts(path, indices);
    assert.equal(starts.length, rows.length);
    for (let i = 0; i < rows.length; i++) {
      const record = await readCsvRecordAt(path, "p", starts[i]);
      assert.equal(record?.fields[2], rows[i][1], `row ${indices[i]}`);
    }
  }
});

Deno.test("duckdbDecisionStats() refuses wrong Parquet column sets and types before scanning", async () => {
  const text = await badParquet(
    "SELECT * REPLACE (CAST(pCorrect AS VARCHAR) AS pCorrect) FROM src",
  );
  assert.match(
    (await sameError(text)).message,
    /column pCorrect must have a numeric type, got VARCHAR$/,
  );
  const extra = await badParquet("SELECT *, 1 AS confidence FROM src");
  assert.match(
    (await sameError(extra)).message,
    /unknown column "confidence"/,
  );
});

Deno.test("duckdbDecisionStats() refuses repeated decisions unless told not to check", async () => {
  const parquet = await badParquet(
    "SELECT * FROM src UNION ALL SELECT * FROM src WHERE taskId = '2'",
  );
  assert.match(
    (await sameError(parquet)).message,
    /row 9: duplicate decision for runId "r1", modelId "m", taskId "2", trial 0 \(first on row 2\)$/,
  );
  const [, src] = await files(run());
  const lines = (await Deno.readTextFile(src)).trimEnd().split("\n");
  const csv = src.replace("run.csv", "dup.csv");
  await Deno.writeTextFile(csv, [...lines, lines[3]].join("\n") + "\n");
  assert.match(
    (await sameError(csv)).message,
    /line 10: duplicate decision for runId "r1", modelId "m", taskId "3", trial 0 \(first on line 4\)$/,
  );
  // trial -0 and trial 0 are one key to the loaders: a copy that differs
  // only so repeats, although the two are different doubles
  const negative = src.replace("run.csv", "negative_zero.csv");
  const header = lines[0].split(",");
  const copy = lines[3].split(",");
  copy[header.indexOf("trial")] = "-0";
  await Deno.writeTextFile(
    negative,
    [...lines, copy.join(",")].join("\n") + "\n",
  );
  assert.match(
    (await sameError(negative)).message,
    /line 10: duplicate decision for runId "r1", modelId "m", taskId "3", trial 0 \(first on line 4\)$/,
  );
  // without the check, both copies are counted
  const stats = await duckdbDecisionStats(parquet, { checkDuplicates: false });
  assert.equal(stats.reduce((s, r) => s + r.n, 0), run().length + 1);
});

Deno.test("duckdbDecisionStats() picks the format by extension, refuses unknown ones, and accepts an explicit format", async () => {
  const [parquet] = await files(run());
  const renamed = parquet.replace("run.parquet", "run.dat");
  await Deno.copyFile(parquet, renamed);
  await assert.rejects(() => duckdbDecisionStats(renamed), {
    name: "TypeError",
    message: /run\.dat: unknown extension/,
  });
  assertSameStats(
    await duckdbDecisionStats(renamed, { format: "parquet" }),
    await duckdbDecisionStats(parquet),
  );
  await assert.rejects(
    () => duckdbDecisionStats("/nonexistent/a.parquet"),
    Deno.errors.NotFound,
  );
});

Deno.test("duckdbDecisionStats() reports progress samples without changing the result", async () => {
  const [parquet] = await files(run());
  const samples: DuckDBProgress[] = [];
  const stats = await duckdbDecisionStats(parquet, {
    onProgress: (p) => samples.push(p),
    progressIntervalMs: 1,
    memoryLimit: "512MB",
  });
  assertSameStats(stats, await duckdbDecisionStats(parquet));
  for (const s of samples) {
    assert.ok(s.fraction === null || (s.fraction >= 0 && s.fraction <= 1));
    assert.ok(s.memoryBytes >= 0 && s.spilledBytes >= 0);
  }
});

Deno.test("decisionStatsSql() and duplicateDecisionsSql() use only portable SQL words", () => {
  // Words that DuckDB, Spark SQL and Trino all read the same way; anything
  // engine-specific (LIMIT, ::, double-quoted names, regexp, read_parquet) fails here.
  const allowed = new Set([
    "SELECT",
    "FROM",
    "GROUP",
    "BY",
    "HAVING",
    "AS",
    "COUNT",
    "SUM",
    "COALESCE",
    "CASE",
    "WHEN",
    "THEN",
    "ELSE",
    "END",
    "AND",
    "OR",
    "NOT",
    "IS",
    "NULL",
    "IN",
    "BETWEEN",
    "ROUND",
    // string functions that DuckDB, Spark SQL, Trino, PostgreSQL and SQLite share
    "SUBSTR",
    "LENGTH",
    "REPLACE",
    "E308",
    "E0",
    "OVER",
    "PARTITION",
    "taskTrials".toUpperCase(),
    "unitCostly".toUpperCase(),
    "withTrials".toUpperCase(),
    "CAST",
    "BIGINT",
    "9007199254740992",
    ...DECISION_COLUMNS.map((c) => c.toUpperCase()),
    ...["n", "pErrorUnits", "pMissing", "parseFailures", "invalidRows"].map((
      c,
    ) => c.toUpperCase()),
    ...["repeatedKeys", "surplusRows", "copies", "repeated", "decisions"].map((
      c,
    ) => c.toUpperCase()),
  ]);
  for (const sql of [decisionStatsSql(), duplicateDecisionsSql()]) {
    assert.ok(!/["`;]|::|\[/.test(sql), sql);
    const words = sql.replace(/'[^']*'/g, " ").match(
      /[A-Za-z_][A-Za-z_0-9]*/g,
    )!;
    for (const w of words) assert.ok(allowed.has(w.toUpperCase()), w);
  }
  // every Decision field has a check
  assert.deepEqual(
    [...new Set(DECISION_CHECKS.map((c) => c.field))].sort(),
    [...DECISION_COLUMNS].sort(),
  );
});
