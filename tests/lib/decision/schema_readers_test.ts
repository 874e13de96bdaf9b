// One property for every reader and engine: each accepts exactly the rows the
// Decision schema (lib/decision/schema.ts) accepts, with the same values. The
// rows are drawn field by field from the schema itself (valid values, values
// just outside each rule, nulls), so a field added to the schema is drawn,
// written and read here without editing this test.
import assert from "node:assert/strict";
import fc from "fast-check";
import * as aq from "arquero";
import { DuckDBInstance } from "@duckdb/node-api";
import {
  DECISION_COLUMNS,
  DECISION_FIELDS,
  type DecisionField,
  flattenRecord,
  isValidFlatRow,
  kindOfRule,
  unflattenRow,
} from "../../../lib/decision/schema.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import { decisionTable, parseDecisionsJsonl } from "../../../lib/read/mod.ts";
import { parseDecisionsCsv } from "../../../lib/read/csv.ts";
import {
  decisionsToArrow,
  flatDecision,
  type FlatDecisionRow,
  parseDecisionsArrow,
} from "../../../lib/read/arrow.ts";
import { jsonlStatsFile } from "../../../lib/read/jsonl_stats.ts";
import { invalidDecisionSql } from "../../../lib/sql/duckdb_stats_sql.ts";
import { loadDecisionsParquet } from "../../../lib/read/parquet.ts";
import { tempDir } from "../../_helpers.ts";
import { connectPg, pgTest } from "../../_pg.ts";

type Row = Record<string, unknown>;

/** Values of a field: valid ones, ones just outside its rule, and null. */
function valuesOf(f: DecisionField): fc.Arbitrary<unknown> {
  const r = f.rule;
  const base: fc.Arbitrary<unknown> = (() => {
    switch (r.kind) {
      case "id":
        return fc.constantFrom("", "a", "MATCH", "r,1", 'q"x', "é");
      case "text":
        return fc.constantFrom("", "x", "two words", "a,b");
      case "count":
        return fc.constantFrom(0, 1, 7, -1, 1.5, 2 ** 53);
      case "amount":
        return fc.constantFrom(0, 0.25, 3, 1e300, -0.5);
      case "probability":
        return fc.constantFrom(0, 0.5, 1, 0.875, -0.1, 1.25);
      case "boolean":
        return fc.boolean();
      case "enum":
        return fc.constantFrom(...r.values, "BOGUS");
      case "pcorrect-source":
        return fc.constantFrom(
          "stated",
          "agreement@3",
          "score-metadata:conf",
          "agreement@0",
          "score-metadata:",
          "guess",
        );
    }
  })();
  // values of another type than the rule's (a JSON line can hold any)
  const k = kindOfRule(r);
  const other = fc.constantFrom<unknown>(
    ...(k === "number"
      ? ["0.5", true, []]
      : k === "boolean"
      ? ["true", 1, {}]
      : [1, true, [], {}]),
  );
  // mostly valid-looking rows, so that accepted rows are common
  return fc.oneof(
    { arbitrary: base, weight: 18 },
    { arbitrary: fc.constant(null), weight: 2 },
    { arbitrary: other, weight: 1 },
  );
}

/** Whether every value has its column's type (or is null): what a typed file can hold. */
function typed(row: Row): boolean {
  return DECISION_FIELDS.every((f) => {
    const v = row[f.column];
    const k = kindOfRule(f.rule);
    return v === null ||
      typeof v ===
        (k === "number" ? "number" : k === "boolean" ? "boolean" : "string");
  });
}

const rowArb: fc.Arbitrary<Row> = fc.record(
  Object.fromEntries(DECISION_FIELDS.map((f) => [f.column, valuesOf(f)])),
);

/** A valid row to start from, so that one bad field decides a case. */
function validBase(i: number): Row {
  return {
    runId: "r",
    modelId: "m",
    taskId: `t${i}`,
    trial: 0,
    severity: "HIGH",
    trueClass: "MATCH",
    predClass: "MATCH",
    parseOk: true,
    pCorrect: 0.5,
    action: "auto",
    costCompleteness: "complete",
    costUsd: 0.25,
    outcome: "resolved",
  };
}

/** Rows with unique keys: each a valid row with some fields redrawn. */
function rowsArb(n: number): fc.Arbitrary<Row[]> {
  return fc.array(
    fc.tuple(rowArb, fc.subarray([...DECISION_COLUMNS], { maxLength: 3 })),
    { minLength: n, maxLength: n },
  ).map((pairs) =>
    pairs.map(([drawn, columns], i) => {
      const row: Row = { ...validBase(i) };
      for (const f of DECISION_FIELDS) if (!f.required) row[f.column] = null;
      for (const c of columns) row[c] = drawn[c];
      // the key stays unique (a repeated key is another check)
      if (typeof row.taskId === "string" && row.taskId !== "") {
        row.taskId = `${row.taskId}#${i}`;
      }
      return row;
    })
  );
}

/** The row a valid Decision reads as: its flat values, an absent field null. */
function expected(row: Row): Row {
  return flattenRecord(unflattenRow(row));
}

function outcome(read: () => Decision): Row | Error {
  try {
    return flattenRecord(read() as unknown as Row);
  } catch (e) {
    return e as Error;
  }
}

/** JSON text of a row, int64 cells written as 7n. */
function show(row: Row): string {
  return JSON.stringify(
    row,
    (_, v) => typeof v === "bigint" ? `${v}n` : v,
  );
}

function check(
  name: string,
  row: Row,
  got: Row | Error,
  want: Row = expected(row),
): void {
  const valid = isValidFlatRow(row);
  if (got instanceof Error) {
    assert.ok(
      !valid,
      `${name} refused a row the schema accepts: ${got.message}\n${show(row)}`,
    );
    assert.ok(
      got.name === "TypeError" || got.name === "RangeError" ||
        got.name === "SyntaxError",
      `${name}: ${got.name} ${got.message}`,
    );
  } else {
    assert.ok(
      valid,
      `${name} accepted a row the schema refuses: ${show(row)}`,
    );
    assert.deepEqual(got, want, name);
  }
}

function csvCell(v: unknown): string {
  if (v === null) return "";
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

Deno.test("every in-memory reader accepts exactly the rows the Decision schema accepts, with the same values (property, seed 29)", () => {
  fc.assert(
    fc.property(rowsArb(1), ([row]) => {
      // JSONL: one line, as a run export holds it
      const line = JSON.stringify(unflattenRow(row));
      check("JSONL", row, outcome(() => parseDecisionsJsonl(line)[0]));
      // a flat row as the columnar readers hand it over
      check(
        "flat row",
        row,
        outcome(() => flatDecision(row as FlatDecisionRow, "x")),
      );
      if (!typed(row)) return; // the typed formats below cannot hold it
      // CSV: the flat columns; an empty cell of a text column reads as null
      const csv = `${DECISION_COLUMNS.join(",")}\n${
        DECISION_COLUMNS.map((c) => csvCell(row[c])).join(",")
      }\n`;
      const csvRow: Row = Object.fromEntries(
        Object.entries(row).map((
          [c, v],
        ) => [
          c,
          v === "" &&
            !DECISION_FIELDS.find((f) => f.column === c)!.required
            ? null
            : v,
        ]),
      );
      check(
        "CSV",
        csvRow,
        outcome(() => parseDecisionsCsv(csv)[0]),
        expected(csvRow),
      );
      // Arrow: written with the layout's column types where they can hold the value
      const fitsArrow = DECISION_FIELDS.every((f) =>
        f.rule.kind !== "count" || row[f.column] === null ||
        Number.isSafeInteger(row[f.column])
      );
      if (fitsArrow) {
        const table = aq.table(
          Object.fromEntries(DECISION_COLUMNS.map((c) => [c, [row[c]]])),
        );
        check(
          "Arrow",
          row,
          outcome(() => parseDecisionsArrow(decisionsToArrow(table))[0]),
        );
      }
    }),
    { seed: 29, numRuns: 1500 },
  );
});

Deno.test("a columnar row's int64 cells read as numbers when safe, and non-finite numbers are refused, as the schema decides (property, seed 33)", () => {
  const numeric = DECISION_FIELDS.filter((f) =>
    kindOfRule(f.rule) === "number"
  );
  const cell = fc.constantFrom<unknown>(
    0n,
    7n,
    -1n,
    2n ** 60n,
    NaN,
    Infinity,
    -Infinity,
  );
  fc.assert(
    fc.property(
      rowsArb(1),
      fc.constantFrom(...numeric),
      cell,
      ([row], f, v) => {
        const cells = { ...row, [f.column]: v };
        // what the schema sees: a safe int64 is that number; anything else as it is
        const asNumber = typeof v === "bigint" &&
            v <= BigInt(Number.MAX_SAFE_INTEGER) &&
            v >= BigInt(Number.MIN_SAFE_INTEGER)
          ? Number(v)
          : v;
        const seen = { ...row, [f.column]: asNumber };
        check(
          "flat row",
          seen,
          outcome(() => flatDecision(cells as FlatDecisionRow, "x")),
        );
      },
    ),
    { seed: 33, numRuns: 500 },
  );
});

Deno.test("the JSONL file reader behind score accepts exactly the rows the Decision schema and the cluster rules accept, with the same statistics (property, seed 30)", async () => {
  const dir = await tempDir();
  let n = 0;
  await fc.assert(
    fc.asyncProperty(rowsArb(3), async (rows) => {
      const path = `${dir}/run${n++}.jsonl`;
      await Deno.writeTextFile(
        path,
        rows.map((r) => JSON.stringify(unflattenRow(r))).join("\n") + "\n",
      );
      // each row valid alone, and (every task being its own) a cluster on
      // every row or on none
      const named = rows.filter((r) => r.cluster != null).length;
      const valid = rows.every(isValidFlatRow) &&
        (named === 0 || named === rows.length);
      let stats;
      try {
        stats = (await jsonlStatsFile(path)).stats;
      } catch (e) {
        assert.ok(!valid, `refused valid rows: ${(e as Error).message}`);
        return;
      }
      assert.ok(valid, `accepted ${JSON.stringify(rows)}`);
      const decisions = rows.map((r) => unflattenRow(r) as unknown as Decision);
      assert.deepEqual(stats, decisionStats(decisionTable(decisions)));
    }),
    { seed: 30, numRuns: 150 },
  );
});

/** SQL column type of a rule's values. */
function sqlType(f: DecisionField): string {
  const k = kindOfRule(f.rule);
  return k === "number" ? "DOUBLE" : k === "boolean" ? "BOOLEAN" : "VARCHAR";
}

function sqlLiteral(v: unknown): string {
  if (v === null) return "NULL";
  if (typeof v === "string") return `'${v.replaceAll("'", "''")}'`;
  if (typeof v === "number") return `${v}::DOUBLE`;
  return String(v);
}

Deno.test("the SQL row checks refuse exactly the rows the Decision schema refuses, on DuckDB (property, seed 31)", async () => {
  const rows = fc.sample(rowsArb(500), { seed: 31, numRuns: 1 })[0].filter(
    typed,
  );
  const instance = await DuckDBInstance.create(":memory:");
  const db = await instance.connect();
  try {
    await db.run(
      `CREATE TABLE decisions (i INTEGER, ${
        DECISION_FIELDS.map((f) => `${f.column} ${sqlType(f)}`).join(", ")
      })`,
    );
    await db.run(
      `INSERT INTO decisions VALUES ${
        rows.map((r, i) =>
          `(${i}, ${DECISION_COLUMNS.map((c) => sqlLiteral(r[c])).join(", ")})`
        ).join(", ")
      }`,
    );
    const bad = new Set(
      (await (await db.runAndReadAll(
        `SELECT i FROM decisions WHERE ${invalidDecisionSql()}`,
      )).getRowObjects()).map((r) => Number(r.i)),
    );
    const mismatched = rows.flatMap((r, i) =>
      bad.has(i) === !isValidFlatRow(r) ? [] : [JSON.stringify(r)]
    );
    assert.deepEqual(mismatched, []);
    assert.ok(bad.size > 20 && bad.size < rows.length - 20, `${bad.size} bad`);
    // the Parquet reader, on one file per row for the first 80 rows
    const dir = await tempDir();
    for (const [i, row] of rows.slice(0, 80).entries()) {
      const path = `${dir}/row${i}.parquet`;
      await db.run(
        `COPY (SELECT * EXCLUDE (i) FROM decisions WHERE i = ${i}) TO '${path}' (FORMAT parquet)`,
      );
      let got: Row | Error;
      try {
        const t = await loadDecisionsParquet(path);
        got = flattenRecord(
          unflattenRow(t.objects()[0] as Row),
        );
      } catch (e) {
        got = e as Error;
      }
      check("Parquet", row, got);
    }
  } finally {
    db.closeSync();
    instance.closeSync();
  }
});

pgTest(
  "the SQL row checks refuse exactly the rows the Decision schema refuses, on PostgreSQL (property, seed 32)",
  async (dsn) => {
    const rows = fc.sample(rowsArb(400), { seed: 32, numRuns: 1 })[0].filter(
      typed,
    );
    const sql = connectPg(dsn);
    const table = `schema_rows_${Date.now()}`;
    const pgType = (f: DecisionField) => {
      const k = kindOfRule(f.rule);
      return k === "number"
        ? "double precision"
        : k === "boolean"
        ? "boolean"
        : "text";
    };
    try {
      await sql.unsafe(
        `CREATE TABLE ${table} (i integer, ${
          DECISION_FIELDS.map((f) => `${f.column} ${pgType(f)}`).join(", ")
        })`,
      );
      const literal = (v: unknown) =>
        v === null
          ? "NULL"
          : typeof v === "string"
          ? `'${v.replaceAll("'", "''")}'`
          : typeof v === "number"
          ? `${v}::double precision`
          : String(v);
      await sql.unsafe(
        `INSERT INTO ${table} VALUES ${
          rows.map((r, i) =>
            `(${i}, ${DECISION_COLUMNS.map((c) => literal(r[c])).join(", ")})`
          ).join(", ")
        }`,
      );
      const bad = new Set(
        (await sql.unsafe(
          `SELECT i FROM ${table} WHERE ${invalidDecisionSql()}`,
        )).map((r) => Number(r.i)),
      );
      const mismatched = rows.flatMap((r, i) =>
        bad.has(i) === !isValidFlatRow(r) ? [] : [JSON.stringify(r)]
      );
      assert.deepEqual(mismatched, []);
    } finally {
      await sql.unsafe(`DROP TABLE IF EXISTS ${table}`);
      await sql.end();
    }
  },
);
