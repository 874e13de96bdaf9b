// export-sql --constraints: the constrained CREATE TABLE next to the
// existing output, which stays as it was.
import assert from "node:assert/strict";
import { decisionsTableSql } from "../../lib/sql/decision_sql_export.ts";
import { runCli } from "../_helpers.ts";

Deno.test("export-sql --constraints also prints the constrained CREATE TABLE, in JSON as constrainedTable after the other keys; without it the output is unchanged", async () => {
  const plain = await runCli(["export-sql", "--dialect", "postgres", "--json"]);
  const with_ = await runCli([
    "export-sql",
    "--dialect",
    "postgres",
    "--table",
    "runs.d",
    "--constraints",
    "--json",
  ]);
  assert.equal(with_.code, 0, with_.stderr);
  const a = JSON.parse(plain.stdout);
  const b = JSON.parse(with_.stdout);
  assert.deepEqual(Object.keys(b), [...Object.keys(a), "constrainedTable"]);
  assert.equal(
    b.constrainedTable,
    decisionsTableSql("postgres", "runs.d", { checks: true, primaryKey: true }),
  );
  assert.equal(b.createTable, decisionsTableSql("postgres", "runs.d"));
  const text = await runCli([
    "export-sql",
    "--dialect",
    "sqlite",
    "--constraints",
  ]);
  assert.equal(text.code, 0, text.stderr);
  assert.ok(
    text.stdout.includes(
      decisionsTableSql("sqlite", "decisions", {
        checks: true,
        primaryKey: true,
      }) + ";\n",
    ),
  );
  const without = await runCli(["export-sql", "--dialect", "sqlite"]);
  assert.doesNotMatch(without.stdout, /CHECK \(NOT/);
});

Deno.test("export-sql --dialect clickhouse prints the same queries as duckdb but for the aggregate's Int128 sum, and refuses --constraints", async () => {
  const json = async (dialect: string) => {
    const r = await runCli(["export-sql", "--dialect", dialect, "--json"]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const duck = await json("duckdb");
  const ch = await json("clickhouse");
  assert.deepEqual(Object.keys(ch), Object.keys(duck));
  for (const key of ["rowChecks", "duplicateKeys", "repeatedKeys"]) {
    assert.equal(ch[key], duck[key], key);
  }
  assert.notEqual(ch.aggregate, duck.aggregate);
  assert.equal(
    ch.aggregate,
    duck.aggregate.replace(" AS BIGINT)", " AS Nullable(Int128))"),
  );
  const refused = await runCli([
    "export-sql",
    "--dialect",
    "clickhouse",
    "--constraints",
  ]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--constraints is not available on clickhouse/);
});
