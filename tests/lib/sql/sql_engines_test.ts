// The decision SQL run on three engines (DuckDB, a real PostgreSQL server,
// SQLite through node:sqlite): the same text, the same statistics as the
// in-memory path. The PostgreSQL tests are those of tests/_pg.ts.
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import fc from "fast-check";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import {
  canCost,
  type StatsRow,
} from "../../../lib/metrics/sufficient_stats.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import { decisionsTableSql } from "../../../lib/sql/decision_sql_export.ts";
import {
  firstInvalidDecisionsSql,
  repeatedDecisionKeysSql,
} from "../../../lib/sql/decision_sql_rows.ts";
import { withDuckDB } from "../../../lib/read/duckdb_session.ts";
import {
  CAN_COST_SQL,
  decisionCellsSql,
  decisionStatsSql,
  duplicateDecisionsSql,
  statsRowsOfSql,
} from "../../../lib/sql/duckdb_stats_sql.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
} from "../../../lib/read/load_decisions.ts";
import {
  postgresCellOptions,
  postgresDecisionStats,
} from "../../../lib/sql/postgres_stats.ts";
import { decision } from "../../_helpers.ts";
import { pgTest, withPgTable } from "../../_pg.ts";

function run(): Decision[] {
  return [
    decision({ taskId: "1", pCorrect: 0.9 }),
    decision({ taskId: "2", predClass: "MATCH", pCorrect: 0.6 }),
    decision({ taskId: "3", pCorrect: 0.5, action: "escalate" }),
    decision({ taskId: "4", pCorrect: null, parseOk: false }),
    decision({ taskId: "4", trial: 1, pCorrect: 0.3 }),
    decision({
      taskId: "5",
      severity: "LOW",
      trueClass: "MATCH",
      predClass: "DUPLICATE",
      pCorrect: 0.75,
      cost: { completeness: "unavailable", usd: null },
      pCorrectSource: "agreement@5",
    }),
    decision({
      taskId: "6",
      modelId: "a",
      severity: "CRITICAL",
      trueClass: "BENEFICIARY_MISMATCH",
      predClass: "MATCH",
      pCorrect: null,
      tokensIn: 10,
      tokensOut: 3,
      latencyMs: 3.5,
    }),
  ];
}

/** The flat row of a decision, with lower-case keys (as PostgreSQL folds them). */
function flat(d: Decision): Record<string, unknown> {
  const t = decisionTable([d]).objects()[0] as Record<string, unknown>;
  return Object.fromEntries(
    DECISION_COLUMNS.map((c) => [c.toLowerCase(), t[c] ?? null]),
  );
}

function toStats(rows: unknown[][]): StatsRow[] {
  return statsRowsOfSql(rows, Number);
}

/** The same statistics to the last bit: the sums are exact and rounded once. */
function assertSameStats(got: StatsRow[], want: StatsRow[], engine: string) {
  assert.deepEqual(got, want, engine);
}

/** What one engine says about a set of rows: stats, invalid and repeated counts, first bad and repeated keys. */
interface EngineAnswer {
  stats: StatsRow[];
  invalidRows: number;
  repeatedKeys: number;
  surplusRows: number;
  firstBadTask: string | null;
  firstRepeatedTask: string | null;
}

function answer(
  agg: unknown[][],
  dup: unknown[],
  bad: unknown[] | undefined,
  rep: unknown[] | undefined,
): EngineAnswer {
  const invalidRows = agg.reduce((s, r) => s + Number(r[9]), 0);
  return {
    // a bad severity cannot be ranked: statistics only of valid rows
    stats: invalidRows === 0 ? toStats(agg) : [],
    invalidRows,
    repeatedKeys: Number(dup[0]),
    surplusRows: Number(dup[1]),
    firstBadTask: bad === undefined ? null : String(bad[2]),
    firstRepeatedTask: rep === undefined ? null : String(rep[2]),
  };
}

const QUERIES = (t: string) => [
  decisionStatsSql(t),
  duplicateDecisionsSql(t),
  firstInvalidDecisionsSql(t, 1),
  repeatedDecisionKeysSql(t, 1),
];

async function onDuckDB(rows: Record<string, unknown>[]) {
  return await withDuckDB(async (c) => {
    await c.run(decisionsTableSql("duckdb", "decisions"));
    const app = await c.createAppender("decisions");
    for (const r of rows) {
      for (const col of DECISION_COLUMNS) {
        const v = r[col.toLowerCase()];
        if (v === null) app.appendNull();
        else if (typeof v === "boolean") app.appendBoolean(v);
        else if (typeof v === "string") app.appendVarchar(v);
        else if (["trial", "tokensIn", "tokensOut"].includes(col)) {
          app.appendBigInt(BigInt(v as number));
        } else app.appendDouble(v as number);
      }
      app.endRow();
    }
    app.closeSync();
    const [agg, dup, bad, rep] = await Promise.all(
      QUERIES("decisions").map(async (q) =>
        (await c.runAndReadAll(q)).getRows() as unknown[][]
      ),
    );
    return answer(agg, dup[0], bad[0], rep[0]);
  }, { threads: 1, memoryLimit: "256MB" });
}

/**
 * Load rows into a `decisions` table of an in-memory SQLite database, give
 * `use` a function that runs a query and returns its rows as value arrays,
 * and close the database.
 */
function withSqliteDecisions<T>(
  rows: Record<string, unknown>[],
  use: (all: (q: string) => unknown[][]) => T,
): T {
  const db = new DatabaseSync(":memory:");
  try {
    db.exec(decisionsTableSql("sqlite", "decisions"));
    const insert = db.prepare(
      `INSERT INTO decisions (${DECISION_COLUMNS.join(", ")}) VALUES (${
        DECISION_COLUMNS.map(() => "?").join(", ")
      })`,
    );
    for (const r of rows) {
      insert.run(
        ...DECISION_COLUMNS.map((c) => {
          const v = r[c.toLowerCase()];
          return typeof v === "boolean" ? (v ? 1 : 0) : v as string | number;
        }),
      );
    }
    // integers as BigInts: a sum of 1 - pCorrect in units of 2^-53 passes 2^53
    return use((q) => {
      const statement = db.prepare(q);
      statement.setReadBigInts(true);
      return statement.all().map((o) => Object.values(o as object));
    });
  } finally {
    db.close();
  }
}

function onSqlite(rows: Record<string, unknown>[]): EngineAnswer {
  return withSqliteDecisions(rows, (all) => {
    const [agg, dup, bad, rep] = QUERIES("decisions").map(all);
    return answer(agg, dup[0], bad[0], rep[0]);
  });
}

async function onPostgres(
  dsn: string,
  rows: Record<string, unknown>[],
): Promise<EngineAnswer> {
  return await withPgTable(dsn, rows, async (sql, table) => {
    const out: unknown[][][] = [];
    for (const q of QUERIES(table)) out.push(await sql.unsafe(q).values());
    return answer(out[0], out[1][0], out[2][0], out[3][0]);
  });
}

Deno.test("the decision SQL gives the in-memory statistics on DuckDB and SQLite, and agrees on bad rows and repeated keys", async () => {
  const good = run();
  const want = decisionStats(decisionTable(good));
  const rows = good.map(flat);
  for (
    const [engine, got] of [
      ["duckdb", await onDuckDB(rows)],
      ["sqlite", onSqlite(rows)],
    ] as const
  ) {
    assertSameStats(got.stats, want, engine);
    assert.deepEqual(
      [got.invalidRows, got.repeatedKeys, got.firstBadTask],
      [0, 0, null],
      engine,
    );
  }
  // one out-of-range pCorrect, one NaN latency (SQLite stores it as NULL),
  // one repeated key: every engine counts and finds the same
  const bad = [
    ...rows,
    { ...rows[0], taskid: "9", pcorrect: 1.5 },
    { ...rows[1], taskid: "8", severity: "SEVERE" },
    { ...rows[2] },
  ];
  const answers = [await onDuckDB(bad), onSqlite(bad)];
  for (const a of answers) {
    assert.deepEqual(
      [a.invalidRows, a.repeatedKeys, a.surplusRows, a.firstBadTask],
      [2, 1, 1, "8"],
    );
    assert.equal(a.firstRepeatedTask, "3");
  }
});

pgTest(
  "the decision SQL gives the in-memory statistics on a real server, and agrees on bad rows and repeated keys",
  async (dsn) => {
    const good = run();
    const want = decisionStats(decisionTable(good));
    const rows = good.map(flat);
    const got = await onPostgres(dsn, rows);
    assertSameStats(got.stats, want, "postgres");
    assert.deepEqual([got.invalidRows, got.repeatedKeys], [0, 0]);
    const bad = [
      ...rows,
      { ...rows[0], taskid: "9", pcorrect: 1.5 },
      { ...rows[1], taskid: "8", severity: "SEVERE" },
      { ...rows[2] },
    ];
    const b = await onPostgres(dsn, bad);
    assert.deepEqual(
      [b.invalidRows, b.repeatedKeys, b.surplusRows, b.firstBadTask],
      [2, 1, 1, "8"],
    );
    assert.equal(b.firstRepeatedTask, "3");
  },
);

const ARB = fc.array(
  fc.record({
    modelId: fc.constantFrom("a", "b"),
    taskId: fc.constantFrom("t1", "t2", "t3", "t4", "t5", "t6", "t7"),
    trial: fc.integer({ min: 0, max: 3 }),
    severity: fc.constantFrom(...SEVERITIES),
    trueClass: fc.constantFrom("MATCH", "AMOUNT_MISMATCH", "DUPLICATE"),
    predClass: fc.constantFrom("MATCH", "AMOUNT_MISMATCH", "DUPLICATE"),
    action: fc.constantFrom("auto" as const, "escalate" as const),
    pCorrect: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), {
      nil: null,
    }),
    parseOk: fc.boolean(),
  }),
  { maxLength: 40 },
).map((rs) => {
  // one decision per key, as every loader requires
  const seen = new Set<string>();
  return rs.filter((r) => {
    const k = `${r.modelId}/${r.taskId}/${r.trial}`;
    return seen.has(k) ? false : (seen.add(k), true);
  }).map((r) => decision(r));
});

async function property(
  seed: number,
  check: (ds: Decision[], want: StatsRow[]) => Promise<void>,
): Promise<void> {
  try {
    await fc.assert(
      fc.asyncProperty(ARB, async (ds) => {
        await check(ds, decisionStats(decisionTable(ds)));
      }),
      { seed, numRuns: 25 },
    );
  } catch (error) {
    console.error(`property failed with fast-check seed ${seed}`);
    throw error;
  }
}

Deno.test("the decision SQL equals decisionStats() on random runs on DuckDB and SQLite (property, seed 20261202)", async () => {
  await property(20261202, async (ds, want) => {
    const rows = ds.map(flat);
    assertSameStats((await onDuckDB(rows)).stats, want, "duckdb");
    assertSameStats(onSqlite(rows).stats, want, "sqlite");
  });
});

pgTest(
  "the decision SQL and postgresDecisionStats() equal decisionStats() on random runs (property, seed 20261202)",
  async (dsn) => {
    await property(20261202, async (ds, want) => {
      await withPgTable(dsn, ds.map(flat), async (_sql, table) => {
        assertSameStats(
          await postgresDecisionStats(dsn, table),
          want,
          "postgres",
        );
      });
    });
  },
);

pgTest(
  "postgresDecisionStats() refuses a bad row with the loader's message, naming the table, the row's key and the field",
  async (dsn) => {
    const rows = run().map(flat);
    await withPgTable(
      dsn,
      [...rows, { ...rows[0], taskid: "9", pcorrect: 1.5 }],
      async (_sql, table) => {
        await assert.rejects(() => postgresDecisionStats(dsn, table), {
          name: "RangeError",
          message:
            `Cannot load table ${table}: row with runId "r1", modelId "m", taskId "9", trial 0: pCorrect must be in [0, 1], got 1.5`,
        });
      },
    );
    await withPgTable(dsn, [...rows, rows[1]], async (_sql, table) => {
      await assert.rejects(() => postgresDecisionStats(dsn, table), {
        name: "RangeError",
        message:
          `Cannot load table ${table}: duplicate decision for runId "r1", modelId "m", taskId "2", trial 0 (2 rows; 1 keys repeat)`,
      });
    });
  },
);

pgTest(
  "postgresDecisionStats() reads a table without the optional columns, refuses wrong types and quoted mixed-case names, and connects by a libpq keyword DSN",
  async (dsn) => {
    const want = decisionStats(decisionTable(run()));
    await withPgTable(dsn, run().map(flat), async (sql, table) => {
      await sql.unsafe(
        `ALTER TABLE ${table} DROP COLUMN tokensin, DROP COLUMN tokensout, DROP COLUMN latencyms, DROP COLUMN pcorrectsource, DROP COLUMN answer, DROP COLUMN target`,
      );
      const host = /host=([^&]*)/.exec(dsn)![1];
      const keywords = `host=${
        decodeURIComponent(host)
      } dbname=postgres user=postgres`;
      assertSameStats(
        await postgresDecisionStats(keywords, table),
        want,
        "postgres",
      );
      await sql.unsafe(`ALTER TABLE ${table} RENAME COLUMN runid TO "runId"`);
      await assert.rejects(
        () => postgresDecisionStats(dsn, table),
        /quoted mixed-case name "runId".*create a view/,
      );
      await sql.unsafe(
        `CREATE VIEW ${table}_v AS SELECT "runId" AS runId, modelId, taskId, trial, severity, trueClass, predClass, parseOk, pCorrect, action, costCompleteness, costUsd, outcome FROM ${table}`,
      );
      try {
        assertSameStats(
          await postgresDecisionStats(dsn, `${table}_v`),
          want,
          "postgres view",
        );
      } finally {
        await sql.unsafe(`DROP VIEW ${table}_v`);
      }
      await sql.unsafe(`ALTER TABLE ${table} RENAME COLUMN "runId" TO runid`);
      await sql.unsafe(
        `ALTER TABLE ${table} ALTER COLUMN pcorrect TYPE text USING pcorrect::text`,
      );
      await assert.rejects(() => postgresDecisionStats(dsn, table), {
        name: "TypeError",
        message:
          `Cannot load table ${table}: column pCorrect must have a numeric type (integer, bigint, real, double precision, numeric), got text`,
      });
    });
    await assert.rejects(
      () => postgresDecisionStats(dsn, "no_such_table_here"),
      {
        name: "TypeError",
        message: "Cannot load table no_such_table_here: no such table or view",
      },
    );
  },
);

pgTest(
  "postgresDecisionStats(): one run and one trial per model takes the one-scan path with taskShare = n, a primary key replaces the duplicate scan, and a repeat is still refused without one",
  async (dsn) => {
    const one = Array.from({ length: 40 }, (_, i) =>
      decision({
        runId: "r",
        modelId: i % 2 === 0 ? "a" : "b",
        taskId: `t${i >> 1}`,
        severity: SEVERITIES[i % 4],
        pCorrect: i % 5 === 0 ? null : (i % 10) / 10,
      }));
    const want = decisionStats(decisionTable(one));
    await withPgTable(dsn, one.map(flat), async (sql, table) => {
      assertSameStats(await postgresDecisionStats(dsn, table), want, "no key");
      await sql.unsafe(
        `ALTER TABLE ${table} ADD PRIMARY KEY (runId, modelId, taskId, trial)`,
      );
      assertSameStats(await postgresDecisionStats(dsn, table), want, "key");
    });
    // two trials of one task: the window query gives taskShare 1/2 each
    const two = [...one, { ...one[0], trial: 1 }];
    await withPgTable(dsn, two.map(flat), async (_sql, table) => {
      assertSameStats(
        await postgresDecisionStats(dsn, table),
        decisionStats(decisionTable(two)),
        "two trials",
      );
    });
    await withPgTable(dsn, [...one, one[3]].map(flat), async (_sql, table) => {
      await assert.rejects(
        () => postgresDecisionStats(dsn, table),
        /duplicate decision for runId "r", modelId "b", taskId "t1", trial 0/,
      );
    });
  },
);

// One bad value per row check that a NOT NULL table can hold, as flat
// lower-case rows: decisionCellsSql must flag each as decisionStatsSql does.
function badVariants(row: Record<string, unknown>) {
  return [
    { runid: "" },
    { taskid: "" },
    { trial: -1 },
    { severity: "SEVERE" },
    { trueclass: "" },
    { pcorrect: 1.5 },
    { pcorrect: -0.1 },
    { action: "later" },
    { costcompleteness: "guessed" },
    { costcompleteness: "complete", costusd: -1 },
    { costcompleteness: "complete", costusd: null },
    { costcompleteness: "unavailable", costusd: 1 },
    { outcome: "lost" },
    { tokensin: -1 },
    { tokensout: -3 },
    { latencyms: -1 },
    { pcorrectsource: "agreement@0" },
    { pcorrectsource: "vibes" },
  ].map((change) => ({ ...row, ...change, taskid: change.taskid ?? "bad" }));
}

function sqliteRows(rows: Record<string, unknown>[], q: string): unknown[][] {
  return withSqliteDecisions(rows, (all) => all(q));
}

const invalidOf = (rows: unknown[][]) =>
  rows.reduce((s, r) => s + Number(r[9]), 0);

Deno.test("CAN_COST_SQL is canCost() on every action and every pair of clean, exception and verdict classes (SQLite)", () => {
  const classes = ["MATCH", "X", "Y", "verdict:correct", "verdict:incorrect"];
  const kinds = (["auto", "escalate"] as const).flatMap((action) =>
    classes.flatMap((trueClass) =>
      classes.map((predClass) => ({ action, trueClass, predClass }))
    )
  );
  const rows = kinds.map((k, i) =>
    flat(decision({ ...k, taskId: String(i).padStart(2, "0") }))
  );
  const got = sqliteRows(
    rows,
    `SELECT CASE WHEN ${CAN_COST_SQL} THEN 1 ELSE 0 END FROM decisions ORDER BY taskId`,
  ).map((r) => Number(r[0]));
  const want = kinds.map((k) => canCost(k) ? 1 : 0);
  assert.deepEqual(got, want);
  assert.ok(want.includes(0) && want.includes(1));
});

Deno.test("decisionCellsSql() gives decisionStatsSql()'s statistics on one-trial runs and flags every bad value it flags (SQLite)", () => {
  const good = run().filter((d) => d.trial === 0).map(flat);
  const cells = sqliteRows(good, decisionCellsSql());
  assertSameStats(
    toStats(cells),
    toStats(sqliteRows(good, decisionStatsSql())),
    "sqlite",
  );
  assert.equal(invalidOf(cells), 0);
  for (const bad of badVariants(good[0])) {
    const rows = [...good, bad];
    assert.ok(
      invalidOf(sqliteRows(rows, decisionStatsSql())) > 0,
      JSON.stringify(bad),
    );
    assert.ok(
      invalidOf(sqliteRows(rows, decisionCellsSql())) > 0,
      JSON.stringify(bad),
    );
  }
});

pgTest(
  "decisionCellsSql() flags every bad value decisionStatsSql() flags on a real server",
  async (dsn) => {
    const good = run().filter((d) => d.trial === 0).map(flat);
    for (const bad of badVariants(good[0])) {
      await withPgTable(dsn, [...good, bad], async (sql, table) => {
        const stats = await sql.unsafe(decisionStatsSql(table)).values();
        const cells = await sql.unsafe(decisionCellsSql(table)).values();
        assert.ok(invalidOf(stats) > 0, JSON.stringify(bad));
        assert.ok(invalidOf(cells) > 0, JSON.stringify(bad));
      });
    }
  },
);

Deno.test('decisionCellsSql() takes text least and greatest COLLATE "C" and finds an empty taskId by OCTET_LENGTH only for PostgreSQL, and leaves out only the tests its options rule out', () => {
  for (const dialect of ["duckdb", "sqlite"] as const) {
    assert.doesNotMatch(
      decisionCellsSql("d", { dialect }),
      /COLLATE|OCTET_LENGTH/,
    );
  }
  const pg = decisionCellsSql("d", { dialect: "postgres" });
  assert.match(pg, /MIN\(OCTET_LENGTH\(taskId\)\) = 0/);
  assert.match(pg, /MIN\(runLo COLLATE "C"\), MAX\(runHi COLLATE "C"\)/);
  const plain = decisionCellsSql("d");
  for (const c of ["trial", "tokensIn", "tokensOut"]) {
    assert.match(plain, new RegExp(`${c} <> ROUND\\(${c}\\)`));
  }
  const typed = decisionCellsSql("d", {
    integerColumns: ["trial"],
    notNullColumns: ["taskId", "parseOk"],
  });
  assert.doesNotMatch(typed, /trial <> ROUND|COUNT\(taskId\)|COUNT\(parseOk\)/);
  assert.match(typed, /tokensIn <> ROUND\(tokensIn\)/);
  assert.match(typed, /COUNT\(trial\) < COUNT\(\*\)/);
});

pgTest(
  "decisionCellsSql() with the options of the table's types flags every bad value, and a fractional trial or token count in a double precision column, on a real server",
  async (dsn) => {
    const good = run().filter((d) => d.trial === 0).map(flat);
    for (const bad of badVariants(good[0])) {
      await withPgTable(dsn, [...good, bad], async (sql, table) => {
        const probe = await sql.unsafe(`SELECT * FROM ${table} LIMIT 0`);
        const options = postgresCellOptions(
          probe.columns.map((c) => ({ name: c.name, type: c.type })),
          new Set(DECISION_COLUMNS.map((c) => c.toLowerCase())),
        );
        assert.deepEqual(options.integerColumns, [
          "trial",
          "tokensIn",
          "tokensOut",
        ]);
        const cells = await sql.unsafe(decisionCellsSql(table, options))
          .values();
        assert.ok(invalidOf(cells) > 0, JSON.stringify(bad));
      });
    }
    for (
      const [field, value] of [
        ["trial", 0.5],
        ["tokensIn", 1.5],
        ["tokensOut", 2.5],
      ] as const
    ) {
      await withPgTable(dsn, good, async (sql, table) => {
        const column = field.toLowerCase();
        await sql.unsafe(
          `ALTER TABLE ${table} ALTER COLUMN ${column} TYPE double precision`,
        );
        await sql.unsafe(
          `UPDATE ${table} SET ${column} = ${value} WHERE taskid = '1'`,
        );
        // the loader's own message, as for the same row in a file
        await assert.rejects(
          () => postgresDecisionStats(dsn, table),
          new RegExp(
            `row with runId "r1", modelId "m", taskId "1", trial ${
              field === "trial" ? value : 0
            }: ${field} must be .*${value}`,
          ),
        );
      });
    }
  },
);

pgTest(
  "postgresDecisionStats() on a table without a unique key: no repeat passes the hash screen, a repeat is named exactly",
  async (dsn) => {
    const rows = run().map(flat);
    await withPgTable(dsn, rows, async (_sql, table) => {
      assertSameStats(
        await postgresDecisionStats(dsn, table),
        decisionStats(decisionTable(run())),
        "no repeat",
      );
    });
    // same runId, modelId and taskId, trials 0 and 1 are distinct keys; a
    // repeat of the trial-1 row is refused
    const four = rows.filter((r) => r.taskid === "4");
    assert.equal(four.length, 2);
    await withPgTable(dsn, [...rows, four[1]], async (_sql, table) => {
      await assert.rejects(() => postgresDecisionStats(dsn, table), {
        name: "RangeError",
        message:
          `Cannot load table ${table}: duplicate decision for runId "r1", modelId "m", taskId "4", trial 1 (2 rows; 1 keys repeat)`,
      });
    });
  },
);
