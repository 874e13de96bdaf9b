// decisionsTableSql() with the row checks as CHECK constraints and the
// decision key as primary key: each of the three engines creates the table,
// stores a valid row and refuses a bad one and a repeated key. The
// PostgreSQL test is one of tests/_pg.ts.
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import type postgres from "postgres";
import {
  decisionsTableSql,
  SQL_DIALECTS,
} from "../../../lib/sql/decision_sql_export.ts";
import { withDuckDB } from "../../../lib/read/duckdb_session.ts";
import { DECISION_CHECKS } from "../../../lib/sql/duckdb_stats_sql.ts";
import { DECISION_COLUMNS } from "../../../lib/read/load_decisions.ts";
import { connectPg, pgTest } from "../../_pg.ts";

// A valid row, and changes that break it: one per kind of check, and a
// repeated key.
const GOOD: Record<string, string | number | boolean | null> = {
  runId: "r",
  modelId: "m",
  taskId: "t",
  trial: 0,
  severity: "HIGH",
  trueClass: "X",
  predClass: "X",
  parseOk: true,
  pCorrect: 0.5,
  action: "auto",
  costCompleteness: "complete",
  costUsd: 0.01,
  outcome: "resolved",
  tokensIn: null,
  tokensOut: null,
  latencyMs: null,
  pCorrectSource: "agreement@5",
  answer: null,
  target: null,
  cluster: null,
};
const BAD = [
  { taskId: "" },
  { pCorrect: 1.5 },
  { severity: "SEVERE" },
  { costCompleteness: "unavailable" },
  { tokensIn: -1 },
  { pCorrectSource: "agreement@0" },
  { cluster: "" },
];

function values(row: Record<string, unknown>): unknown[] {
  return DECISION_COLUMNS.map((c) => row[c]);
}

const INSERT = `(${DECISION_COLUMNS.join(", ")}) VALUES (${
  DECISION_COLUMNS.map((_, i) => `$${i + 1}`).join(", ")
})`;

/** Insert each row into a fresh constrained table: whether it was stored. */
type Store = (rows: Record<string, unknown>[]) => Promise<boolean[]>;

async function assertRefusesBadRows(engine: string, store: Store) {
  assert.deepEqual(await store([GOOD]), [true], engine);
  for (const change of BAD) {
    const row = { ...GOOD, taskId: "u", ...change };
    assert.deepEqual(
      await store([GOOD, row]),
      [true, false],
      `${engine} ${JSON.stringify(change)}`,
    );
  }
  assert.deepEqual(
    await store([GOOD, { ...GOOD, pCorrect: 0.1 }]),
    [true, false],
    `${engine} repeated key`,
  );
}

Deno.test("decisionsTableSql() without options is the plain layout; checks add one CHECK (NOT (check)) per row check, primaryKey the decision key", () => {
  for (const dialect of SQL_DIALECTS.filter((d) => d !== "clickhouse")) {
    const plain = decisionsTableSql(dialect, "d");
    assert.doesNotMatch(plain, /CHECK|PRIMARY KEY/);
    assert.equal(decisionsTableSql(dialect, "d", {}), plain);
    const checked = decisionsTableSql(dialect, "d", { checks: true });
    assert.equal(
      checked,
      plain.replace(
        /\n\)$/,
        DECISION_CHECKS.map((c) => `,\n  CHECK (NOT (${c.sql}))`).join("") +
          "\n)",
      ),
    );
    assert.equal(
      decisionsTableSql(dialect, "d", { checks: true, primaryKey: true }),
      checked.replace(
        /\n\)$/,
        ",\n  PRIMARY KEY (runId, modelId, taskId, trial)\n)",
      ),
    );
    assert.doesNotMatch(checked, /"/);
  }
});

Deno.test("the constrained decisions table is accepted by SQLite and DuckDB, which store a valid row and refuse a bad value or a repeated key", async () => {
  await assertRefusesBadRows("sqlite", (rows) => {
    const db = new DatabaseSync(":memory:");
    try {
      db.exec(decisionsTableSql("sqlite", "d", {
        checks: true,
        primaryKey: true,
      }));
      const insert = db.prepare(
        `INSERT INTO d ${INSERT.replace(/\$\d+/g, "?")}`,
      );
      return Promise.resolve(rows.map((r) => {
        try {
          insert.run(
            ...values(r).map((v) =>
              typeof v === "boolean" ? (v ? 1 : 0) : v as string | number
            ),
          );
          return true;
        } catch (error) {
          assert.match(
            String(error),
            /CHECK constraint failed|UNIQUE constraint failed/,
          );
          return false;
        }
      }));
    } finally {
      db.close();
    }
  });
  await assertRefusesBadRows("duckdb", (rows) =>
    withDuckDB(async (c) => {
      await c.run(decisionsTableSql("duckdb", "d", {
        checks: true,
        primaryKey: true,
      }));
      const out: boolean[] = [];
      for (const r of rows) {
        const literal = values(r).map((v) =>
          v === null ? "NULL" : typeof v === "string" ? `'${v}'` : String(v)
        ).join(", ");
        try {
          await c.run(`INSERT INTO d VALUES (${literal})`);
          out.push(true);
        } catch (error) {
          assert.match(
            String(error),
            /CHECK constraint|PRIMARY KEY|Duplicate key/i,
          );
          out.push(false);
        }
      }
      return out;
    }, { threads: 1, memoryLimit: "256MB" }));
});

pgTest(
  "the constrained decisions table is accepted by a real server, which stores a valid row and refuses a bad value or a repeated key",
  async (dsn) => {
    const sql = connectPg(dsn);
    const table = `lbtest_${crypto.randomUUID().replaceAll("-", "")}`;
    try {
      await assertRefusesBadRows("postgres", async (rows) => {
        await sql.unsafe(`DROP TABLE IF EXISTS ${table}`);
        await sql.unsafe(decisionsTableSql("postgres", table, {
          checks: true,
          primaryKey: true,
        }));
        const out: boolean[] = [];
        for (const r of rows) {
          try {
            await sql.unsafe(
              `INSERT INTO ${table} ${INSERT}`,
              values(r) as postgres.ParameterOrJSON<never>[],
            );
            out.push(true);
          } catch (error) {
            // check_violation, unique_violation
            assert.ok(
              ["23514", "23505"].includes((error as { code: string }).code),
              String(error),
            );
            out.push(false);
          }
        }
        return out;
      });
    } finally {
      await sql.unsafe(`DROP TABLE IF EXISTS ${table}`);
      await sql.end({ timeout: 5 });
    }
  },
);

Deno.test("decisionsTableSql() on ClickHouse declares Nullable exactly the columns that are not NOT NULL elsewhere, orders a MergeTree by the decision key, and refuses constraints", () => {
  const duck = decisionsTableSql("duckdb", "d").split("\n").slice(1, -1);
  const ch = decisionsTableSql("clickhouse", "d").split("\n");
  assert.deepEqual(ch.slice(-2), [
    "ENGINE = MergeTree",
    "ORDER BY (runId, modelId, taskId, trial)",
  ]);
  const cols = ch.slice(1, -3);
  assert.equal(cols.length, duck.length);
  for (const [i, line] of cols.entries()) {
    assert.equal(
      line.includes("Nullable("),
      !duck[i].includes("NOT NULL"),
      line,
    );
  }
  for (const options of [{ checks: true }, { primaryKey: true }]) {
    assert.throws(
      () => decisionsTableSql("clickhouse", "d", options),
      /Cannot constrain a ClickHouse decisions table/,
    );
  }
});
