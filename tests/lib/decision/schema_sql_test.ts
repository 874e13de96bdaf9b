// The SQL side of the Decision schema is derived from the field list: a
// made-up optional field added to a copy of the schema gets its column, its
// row check, its group check and its JSON types with no other edit, and
// the derived checks say on an engine (SQLite, in process) what the
// schema's own rule says in JavaScript.
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  DECISION_FIELDS,
  type DecisionField,
  satisfies,
} from "../../../lib/decision/schema.ts";
import {
  decisionChecks,
  decisionColumnsSql,
  sqlNullType,
} from "../../../lib/decision/schema_sql.ts";
import {
  DECISION_CHECKS,
  decisionCellChecks,
  decisionCellGroup,
} from "../../../lib/sql/duckdb_stats_sql.ts";
import { decisionJsonFields } from "../../../lib/sql/duckdb_jsonl.ts";

// Two optional fields no Decision has: a count and a small vocabulary.
const MADE_UP: readonly DecisionField[] = [
  {
    key: "retries",
    column: "retries",
    rule: { kind: "count" },
    required: false,
    nulls: { reads: "absent" },
    doc: "How often the harness retried the call, when known.",
  },
  {
    key: "channel",
    column: "channel",
    rule: { kind: "enum", values: ["api", "batch"] },
    required: false,
    nulls: { reads: "absent" },
    doc: "How the model was called, when known.",
  },
];
const EXTENDED: readonly DecisionField[] = [...DECISION_FIELDS, ...MADE_UP];

Deno.test("a made-up optional field gets a row check; the schema's own checks are DECISION_CHECKS", () => {
  const checks = decisionChecks(EXTENDED);
  assert.deepEqual(checks.slice(0, DECISION_FIELDS.length), DECISION_CHECKS);
  assert.deepEqual(checks.slice(DECISION_FIELDS.length), [
    {
      field: "retries",
      rule: "a whole number >= 0 or null",
      sql:
        "retries IS NOT NULL AND (NOT (retries BETWEEN 0 AND 9007199254740991) OR retries <> ROUND(retries))",
    },
    {
      field: "channel",
      rule: "one of api, batch or null",
      sql: "channel IS NOT NULL AND channel NOT IN ('api', 'batch')",
    },
  ]);
});

Deno.test("a made-up optional field gets a nullable column of its kind's type, and a NULL of it when a file lacks it", () => {
  const n = DECISION_FIELDS.length;
  assert.deepEqual(decisionColumnsSql("duckdb", EXTENDED).slice(n), [
    "retries BIGINT",
    "channel VARCHAR",
  ]);
  assert.deepEqual(decisionColumnsSql("postgres", EXTENDED).slice(n), [
    "retries bigint",
    "channel text",
  ]);
  assert.deepEqual(decisionColumnsSql("sqlite", EXTENDED).slice(n), [
    "retries INTEGER",
    "channel TEXT",
  ]);
  assert.deepEqual(
    decisionColumnsSql("sqlite", EXTENDED).slice(0, n),
    decisionColumnsSql("sqlite"),
  );
  assert.deepEqual(MADE_UP.map((f) => sqlNullType(f, "duckdb")), [
    "DOUBLE",
    "VARCHAR",
  ]);
});

Deno.test("a made-up optional field gets a group check; one of a small vocabulary is grouped and checked as it is", () => {
  const group = decisionCellGroup(EXTENDED);
  assert.deepEqual(group, [...decisionCellGroup(), "channel"]);
  const checks = decisionCellChecks({}, EXTENDED);
  const n = DECISION_FIELDS.length;
  assert.deepEqual(checks.slice(0, n), decisionCellChecks());
  assert.deepEqual(checks.slice(n), [
    "(MIN(retries) IS NOT NULL AND (NOT (MIN(retries) BETWEEN 0 AND 9007199254740991) OR NOT (MAX(retries) BETWEEN 0 AND 9007199254740991) OR SUM(CASE WHEN retries <> ROUND(retries) THEN 1 ELSE 0 END) > 0))",
    "(channel IS NOT NULL AND channel NOT IN ('api', 'batch'))",
  ]);
  // an integer column holds no fraction: the whole-number test goes
  assert.doesNotMatch(
    decisionCellChecks({ integerColumns: ["retries" as never] }, EXTENDED)[n],
    /ROUND/,
  );
});

Deno.test("a made-up optional field gets its JSON types: a number or a string, never null, the key optional", () => {
  const json = decisionJsonFields(EXTENDED);
  assert.deepEqual(json.fields.slice(-2), [
    ["retries", ["NUMBER"], false],
    ["channel", ["VARCHAR"], false],
  ]);
  assert.deepEqual(json.columns.slice(-2), ["retries", "channel"]);
  assert.deepEqual(json.objectFields, decisionJsonFields().objectFields);
});

// Values of each kind, good and bad, as SQLite binds them (no booleans).
const SAMPLES: Record<string, readonly unknown[]> = {
  id: ["a", ""],
  text: ["", "x"],
  count: [0, 3, -1, 2.5, 2 ** 53],
  amount: [0, 1.5, -1, Infinity],
  probability: [0, 1, 0.5, -0.1, 1.1],
  boolean: [true, false],
  enum: [],
  "pcorrect-source": [
    "stated",
    "agreement@5",
    "agreement@10",
    "agreement@0",
    "agreement@",
    "agreement@x",
    "score-metadata:k",
    "score-metadata:",
    "guess",
  ],
};

const GOOD: Record<string, unknown> = {
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
};

// The fields whose rule a row breaks, by the schema's own rule
// (`satisfies`) and null rule. A `when` null's field is flagged only while
// its condition column holds a known value: otherwise that column's own
// check flags the row.
function refused(row: Record<string, unknown>): string[] {
  return EXTENDED.filter((f) => {
    const v = row[f.column] ?? null;
    const n = f.nulls;
    if (n.reads !== "when") {
      return v === null ? n.reads === "never" : !satisfies(f.rule, v);
    }
    const on = EXTENDED.find((g) => g.column === n.column)!.rule;
    const at = row[n.column] as string;
    const known = on.kind === "enum" && on.values.includes(at);
    const nullNow = n.values.includes(at);
    return known &&
      (v === null ? !nullNow : !satisfies(f.rule, v) || nullNow);
  }).map((f) => f.column);
}

Deno.test("on SQLite the derived row checks flag exactly the fields whose rule a row breaks, null included", () => {
  const db = new DatabaseSync(":memory:");
  const checks = decisionChecks(EXTENDED);
  const bind = (v: unknown) => typeof v === "boolean" ? Number(v) : v ?? null;
  const select = EXTENDED.map((f) => `? AS ${f.column}`).join(", ");
  const flags = checks.map((c, i) =>
    `CASE WHEN ${c.sql} THEN 1 ELSE 0 END AS check${i}`
  );
  const query = db.prepare(
    `SELECT ${flags.join(", ")} FROM (SELECT ${select}) t`,
  );
  const failing = (row: Record<string, unknown>) => {
    const found = query.all(
      ...EXTENDED.map((f) => bind(row[f.column])) as never[],
    )[0];
    return checks.flatMap((c, i) =>
      (found as Record<string, unknown>)[`check${i}`] === 1 ? [c.field] : []
    );
  };
  try {
    assert.deepEqual(failing(GOOD), []);
    for (const f of EXTENDED) {
      const values = f.rule.kind === "enum"
        ? [...f.rule.values, "zzz"]
        : SAMPLES[f.rule.kind];
      for (const v of [...values, null]) {
        const row = { ...GOOD, [f.column]: v };
        assert.deepEqual(failing(row), refused(row), `${f.column} = ${v}`);
      }
    }
    // an amount must be null when its condition column says so
    const unknown = { ...GOOD, costCompleteness: "unavailable" };
    assert.deepEqual(failing({ ...unknown, costUsd: null }), []);
    assert.deepEqual(failing({ ...unknown, costUsd: 1 }), ["costUsd"]);
  } finally {
    db.close();
  }
});
