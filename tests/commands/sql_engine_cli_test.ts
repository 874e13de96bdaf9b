// score and sweep with --engine postgres print what they print for the same
// rows in a file, `table` in place of `file`; export-sql prints SQL that
// runs. The PostgreSQL tests are those of tests/_pg.ts.
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { loadDecisionsJsonl } from "../../lib/read/load_decisions.ts";
import { DECISION_COLUMNS } from "../../lib/read/load_decisions.ts";
import { runCli, tempDir } from "../_helpers.ts";
import { pgTest, withPgTable } from "../_pg.ts";

const EXAMPLE = "data/examples/model_ab.jsonl";

async function exampleRows(): Promise<Record<string, unknown>[]> {
  const t = await loadDecisionsJsonl(EXAMPLE);
  return (t.objects() as Record<string, unknown>[]).map((r) =>
    Object.fromEntries(
      DECISION_COLUMNS.map((c) => [c.toLowerCase(), r[c] ?? null]),
    )
  );
}

pgTest(
  "score and sweep --engine postgres print the file's output for the same rows, with table in place of file",
  async (dsn) => {
    await withPgTable(dsn, await exampleRows(), async (_sql, table) => {
      for (const command of ["score", "sweep"]) {
        const extra = command === "score"
          ? ["--profile", "reconciliation", "--resamples", "200"]
          : ["--points", "7"];
        const file = await runCli([command, EXAMPLE, ...extra, "--json"]);
        assert.equal(file.code, 0, file.stderr);
        const db = await runCli([
          command,
          "--engine",
          "postgres",
          "--dsn",
          dsn,
          "--table",
          table,
          ...extra,
          "--json",
        ]);
        assert.equal(db.code, 0, db.stderr);
        const a = JSON.parse(file.stdout);
        const b = JSON.parse(db.stdout);
        assert.equal(b.table, table);
        assert.equal(a.file, EXAMPLE);
        delete a.file;
        delete b.table;
        assert.deepEqual(b, a, command);
        const human = await runCli([
          command,
          "--engine",
          "postgres",
          "--dsn",
          dsn,
          "--table",
          table,
          ...extra,
        ]);
        const fromFile = await runCli([command, EXAMPLE, ...extra]);
        assert.equal(
          human.stdout.replace(`table ${table}`, EXAMPLE),
          fromFile.stdout,
        );
      }
    });
  },
);

pgTest(
  "score --engine postgres exits 2 with one line naming the table, the row's key and the field",
  async (dsn) => {
    const rows = await exampleRows();
    rows[3] = { ...rows[3], pcorrect: 2 };
    await withPgTable(dsn, rows, async (_sql, table) => {
      const r = await runCli([
        "score",
        "--engine",
        "postgres",
        "--dsn",
        dsn,
        "--table",
        table,
      ]);
      assert.equal(r.code, 2);
      const lines = r.stderr.trim().split("\n");
      assert.equal(lines.length, 1, r.stderr);
      assert.equal(
        lines[0],
        `lossbook score: Cannot load table ${table}: row with runId ${
          JSON.stringify(rows[3].runid)
        }, modelId ${JSON.stringify(rows[3].modelid)}, taskId ${
          JSON.stringify(rows[3].taskid)
        }, trial ${rows[3].trial}: pCorrect must be in [0, 1], got 2`,
      );
    });
  },
);

Deno.test("score --engine postgres refuses files, a missing --dsn or --table, and an unreachable server, exit 2 with one line", async () => {
  const cases: [string[], RegExp][] = [
    [
      ["--engine", "postgres", "--dsn", "host=/tmp", "--table", "t", EXAMPLE],
      /reads --table, not files/,
    ],
    [["--engine", "postgres", "--table", "t"], /needs --dsn URL/],
    [["--engine", "postgres", "--dsn", "host=/tmp"], /needs --table NAME/],
    [
      ["--engine", "postgres", "--dsn", "host=/tmp", "--table", "a;b"],
      /table name must be an unquoted identifier/,
    ],
    [[
      "--engine",
      "postgres",
      "--dsn",
      "host=/nonexistent/lossbook port=1",
      "--table",
      "t",
    ], /Cannot reach PostgreSQL at host \/nonexistent\/lossbook port 1/],
    [[EXAMPLE, "--table", "t"], /--dsn and --table go with --engine postgres/],
  ];
  for (const [args, want] of cases) {
    const r = await runCli(["score", ...args]);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, want);
  }
  const compare = await runCli([
    "compare",
    "--engine",
    "postgres",
    "--dsn",
    "host=/tmp",
    "--table",
    "t",
    "--a",
    "x",
    "--b",
    "y",
  ]);
  assert.equal(compare.code, 2, compare.stderr);
});

Deno.test("export-sql prints SQL that SQLite runs unchanged on a table made from its own CREATE TABLE, giving score's decision count", async () => {
  const r = await runCli(["export-sql", "--dialect", "sqlite", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const sql = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(sql), [
    "dialect",
    "table",
    "createTable",
    "aggregate",
    "rowChecks",
    "duplicateKeys",
    "repeatedKeys",
  ]);
  const db = new DatabaseSync(":memory:");
  try {
    db.exec(sql.createTable);
    const insert = db.prepare(
      `INSERT INTO decisions VALUES (${
        DECISION_COLUMNS.map(() => "?").join(", ")
      })`,
    );
    const rows = await exampleRows();
    for (const row of rows) {
      insert.run(
        ...DECISION_COLUMNS.map((c) => {
          const v = row[c.toLowerCase()];
          return typeof v === "boolean" ? (v ? 1 : 0) : v as string | number;
        }),
      );
    }
    const agg = db.prepare(sql.aggregate).all() as Record<string, number>[];
    const score = JSON.parse(
      (await runCli(["score", EXAMPLE, "--resamples", "10", "--json"])).stdout,
    );
    assert.equal(agg.reduce((s, a) => s + a.n, 0), score.decisions);
    assert.equal(agg.reduce((s, a) => s + a.invalidRows, 0), 0);
    assert.deepEqual(db.prepare(sql.rowChecks).all(), []);
    assert.deepEqual(
      Object.values(db.prepare(sql.duplicateKeys).get() as object),
      [0, 0],
    );
  } finally {
    db.close();
  }
  const text = await runCli([
    "export-sql",
    "--dialect",
    "postgres",
    "--table",
    "runs.decisions",
  ]);
  assert.equal(text.code, 0);
  assert.match(
    text.stdout,
    /CREATE TABLE runs\.decisions \(\n {2}runId text NOT NULL,/,
  );
  assert.match(
    text.stdout,
    /FROM runs\.decisions\n\) withTrials\nGROUP BY modelId/,
  );
  const bad = await runCli(["export-sql", "--dialect", "oracle"]);
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    /^lossbook export-sql: --dialect must be one of duckdb, postgres, sqlite, clickhouse, got "oracle"\n$/,
  );
});

Deno.test("score and sweep --engine duckdb on JSONL print what --engine memory prints; a bad line still exits 2 naming file, line and field", async () => {
  for (
    const [command, extra] of [
      ["score", ["--resamples", "100"]],
      ["sweep", ["--points", "5"]],
    ] as const
  ) {
    const mem = await runCli([
      command,
      EXAMPLE,
      "--engine",
      "memory",
      ...extra,
      "--json",
    ]);
    const duck = await runCli([
      command,
      EXAMPLE,
      "--engine",
      "duckdb",
      ...extra,
      "--json",
    ]);
    assert.equal(duck.code, 0, duck.stderr);
    // exact sums, rounded once: the same bytes
    assert.equal(duck.stdout, mem.stdout, command);
  }
  const dir = await tempDir("lossbook-test-");
  const text = await Deno.readTextFile(EXAMPLE);
  const bad = text.replace('"pCorrect":null', '"pCorrect":"0.5"');
  await Deno.writeTextFile(`${dir}/bad.jsonl`, bad);
  const r = await runCli(["score", `${dir}/bad.jsonl`, "--engine", "duckdb"]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `lossbook score: Cannot load run export ${dir}/bad.jsonl: line 1: pCorrect must be number, got "0.5"\n`,
  );
  const d = await runCli(["score", dir, "--engine", "duckdb"]);
  assert.equal(d.code, 2, d.stderr);
});
