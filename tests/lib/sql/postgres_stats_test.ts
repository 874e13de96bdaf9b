// When a PostgreSQL table's validated CHECK constraints are the row checks,
// postgresDecisionStats() leaves the checks to the database. These tests
// hold up the claim the shortcut rests on (a constrained table stores a row
// exactly when the row checks and the file loaders accept it), the
// statistics it gives, and the tables it must not trust. They run on the
// real server of tests/_pg.ts.
import assert from "node:assert/strict";
import fc from "fast-check";
import type postgres from "postgres";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import type { StatsRow } from "../../../lib/metrics/sufficient_stats.ts";
import { type DecisionColumn, flatDecision } from "../../../lib/read/arrow.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import {
  type DecisionsTableOptions,
  decisionsTableSql,
} from "../../../lib/sql/decision_sql_export.ts";
import { firstInvalidDecisionsSql } from "../../../lib/sql/decision_sql_rows.ts";
import {
  decisionCellsSql,
  decisionCellsWithoutChecksSql,
  invalidDecisionSql,
  singleTrialCells,
  statsRowsOfSql,
} from "../../../lib/sql/duckdb_stats_sql.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
} from "../../../lib/read/load_decisions.ts";
import { PCORRECT_SOURCES } from "../../../lib/decision/pcorrect_source.ts";
import {
  DECISION_FIELDS,
  type DecisionField,
  fieldOfColumn,
  kindOfRule,
} from "../../../lib/decision/schema.ts";
import {
  type ChecksGuarantee,
  pgFlatRow,
  postgresChecksGuaranteed,
  postgresDecisionStats,
} from "../../../lib/sql/postgres_stats.ts";
import { decision } from "../../_helpers.ts";
import { connectPg, pgTest } from "../../_pg.ts";

// The PostgreSQL type of each column in decisionsTableSql's layout: counts
// are bigint, other numbers double precision.
function pgType(c: DecisionColumn): string {
  const rule = fieldOfColumn(c).rule;
  const kind = kindOfRule(rule);
  return kind === "text"
    ? "text"
    : kind === "boolean"
    ? "boolean"
    : rule.kind === "count"
    ? "bigint"
    : "double precision";
}

/** Make a decisions table (unquoted names) with the given layout options, run `fn`, drop it. */
async function withTable<T>(
  dsn: string,
  options: DecisionsTableOptions,
  fn: (sql: postgres.Sql, table: string) => Promise<T>,
): Promise<T> {
  const sql = connectPg(dsn);
  const table = `lbtest_${crypto.randomUUID().replaceAll("-", "")}`;
  try {
    await sql.unsafe(decisionsTableSql("postgres", table, options));
    return await fn(sql, table);
  } finally {
    await sql.unsafe(`DROP TABLE IF EXISTS ${table} CASCADE`);
    await sql.end({ timeout: 5 });
  }
}

/** The flat row of a decision, with lower-case keys (as PostgreSQL folds them). */
function flat(d: Decision): Record<string, unknown> {
  const t = decisionTable([d]).objects()[0] as Record<string, unknown>;
  return Object.fromEntries(
    DECISION_COLUMNS.map((c) => [c.toLowerCase(), t[c] ?? null]),
  );
}

async function insertRows(
  sql: postgres.Sql,
  table: string,
  rows: Record<string, unknown>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    if (chunk.length > 0) await sql`INSERT INTO ${sql(table)} ${sql(chunk)}`;
  }
}

/** The same statistics to the last bit: the sums are exact and rounded once. */
function assertSameStats(got: StatsRow[], want: StatsRow[], what: string) {
  assert.deepEqual(got, want, what);
}

/** postgresDecisionStats() and whether it left the checks to the database. */
async function statsAndPath(
  dsn: string,
  table: string,
): Promise<{ stats: StatsRow[]; guarantee: ChecksGuarantee; scan: string }> {
  let guarantee: ChecksGuarantee | null = null;
  let scan = "";
  const stats = await postgresDecisionStats(dsn, table, {
    onChecks: (g) => guarantee = g,
    onScan: (s) => {
      scan = s;
    },
  });
  assert.ok(guarantee !== null, "onChecks was not called");
  assert.notEqual(scan, "", "onScan was not called");
  return { stats, guarantee, scan };
}

// ---------------------------------------------------------------------------
// Soundness: a constrained table stores a row exactly when the row checks
// and the loaders accept it.

// A value of each column as text (null for NULL), cast to the column's type
// on the server, so that NaN, infinities and integers past 2^53 arrive as
// such. Valid values first, then values each check refuses (and edge
// values it must not). Both are made from each field's rule and null rule
// in DECISION_FIELDS, so that a field added there is tried here too.
const text = fc.string({ maxLength: 6 }).filter((s) => !s.includes("\0"));
const id = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("r", "m1", "t 1", "X") },
  { weight: 2, arbitrary: text },
  { weight: 1, arbitrary: fc.constantFrom("", null) },
);
const num = (xs: readonly (number | string)[]) =>
  fc.constantFrom(...xs.map(String));
const COUNTS_OK = [0, 1, 7, 9007199254740991];
const COUNTS_BAD = [
  -1,
  9007199254740992,
  "9007199254740993",
  "-9223372036854775808",
];
const REALS_BAD = [-1, -1e-300, "NaN", "Infinity", "-Infinity"];

/** A non-null value the field's rule allows. */
function validValue(f: DecisionField): fc.Arbitrary<string> {
  const r = f.rule;
  switch (r.kind) {
    case "id":
      return fc.constantFrom("r", "m", "t1", "MATCH", "DUPLICATE");
    case "text":
      return text;
    case "count":
      return num(COUNTS_OK);
    case "amount":
      return num([0, 0.004, 3.5, "-0", 1.7976931348623157e308]);
    case "probability":
      return fc.oneof(
        num([0, 1, 0.5, "-0", 5e-324]),
        fc.double({ min: 0, max: 1, noNaN: true }).map(String),
      );
    case "boolean":
      return fc.constantFrom("true", "false");
    case "enum":
      return fc.constantFrom(...r.values);
    case "pcorrect-source":
      return fc.constantFrom(
        ...PCORRECT_SOURCES,
        "agreement@5",
        "agreement@10",
        "score-metadata:conf",
      );
  }
}

/** A value the field's rule refuses, or an edge value it must not (null aside). */
function changedValue(f: DecisionField): fc.Arbitrary<string | null> {
  const r = f.rule;
  switch (r.kind) {
    case "id":
      return id;
    case "text":
      return text;
    case "count":
      return num([...COUNTS_OK, ...COUNTS_BAD]);
    case "amount":
      return num([0, 0.01, ...REALS_BAD]);
    case "probability":
      return num([1.0000000000000002, 1.5, ...REALS_BAD]);
    case "boolean":
      // any other text fails the cast to boolean, before any check
      return fc.constant(null);
    case "enum": {
      const v = r.values[0];
      const other = v === v.toUpperCase() ? v.toLowerCase() : v.toUpperCase();
      return fc.constantFrom(other, "", ` ${v}`, "later");
    }
    case "pcorrect-source":
      return fc.oneof(
        fc.constantFrom(
          "",
          "vibes",
          "Stated",
          "agreement@",
          "agreement@0",
          "agreement@05",
          "agreement@1a",
          "agreement@5\n",
          "score-metadata:",
          "score-metadata:\n",
          "score-metadata:a\nb",
          "score-metadata:\u2028",
          "score-metadata:\r",
          "score-metadata: ",
        ),
        text.map((s) => `score-metadata:${s}`),
        text.map((s) => `agreement@${s}`),
      );
  }
}

const FIELDS: readonly DecisionField[] = DECISION_FIELDS;

// A valid row: each field a value its rule allows, or null where its null
// rule reads value or absent; a field whose null reads "when" is null
// exactly when its column says so (the cost's amount and completeness).
const VALID = fc.record(
  Object.fromEntries(FIELDS.map((f) => {
    const v = validValue(f);
    const n = f.nulls.reads;
    return [f.column, n === "value" || n === "absent" ? fc.option(v) : v];
  })) as Record<string, fc.Arbitrary<string | null>>,
).map((row) => {
  for (const f of FIELDS) {
    const n = f.nulls;
    if (n.reads === "when" && n.values.includes(row[n.column] as string)) {
      row[f.column] = null;
    }
  }
  return row;
});
// The changes made to a valid row: one column (or null in it), or a field
// whose null reads "when" together with the column it reads.
const CHANGES: fc.Arbitrary<Record<string, string | null>> = fc.oneof(
  ...FIELDS.map((f) =>
    fc.oneof(changedValue(f), fc.constant(null)).map((v) => ({
      [f.column]: v,
    }))
  ),
  ...FIELDS.flatMap((f) => {
    const n = f.nulls;
    if (n.reads !== "when") return [];
    const g = fieldOfColumn(n.column);
    return [
      fc.tuple(
        fc.oneof(validValue(g), changedValue(g), fc.constant(null)),
        fc.oneof(validValue(f), changedValue(f), fc.constant(null)),
      ).map(([a, b]) => ({ [g.column]: a, [f.column]: b })),
    ];
  }),
);
const ROW = fc.tuple(VALID, fc.array(CHANGES, { maxLength: 2 }))
  .map(([valid, changes]) => {
    const row: Record<string, string | null> = { ...valid };
    for (const change of changes) Object.assign(row, change);
    return row;
  });

// The row as a one-row relation with the layout's column types.
function oneRow(): string {
  return `(SELECT ${
    DECISION_COLUMNS.map((c, i) => `CAST($${i + 1} AS ${pgType(c)}) AS ${c}`)
      .join(", ")
  }) AS decisions`;
}

/** What the three judges say of one row: the row checks, the loader, the constrained table. */
async function judge(
  sql: postgres.Sql,
  table: string,
  row: Record<string, string | null>,
): Promise<{ checks: boolean; loader: boolean; stored: boolean }> {
  // an undefined parameter would not fail cleanly: postgres.js leaves the
  // next query with one waiting for ever
  const missing = DECISION_COLUMNS.filter((c) => row[c] === undefined);
  if (missing.length > 0) {
    throw new Error(
      `the generated row has no value for ${missing.join(", ")}`,
    );
  }
  const params = DECISION_COLUMNS.map((c) => row[c]) as string[];
  const relation = oneRow();
  const [found] = await sql.unsafe(
    `SELECT *, CASE WHEN ${invalidDecisionSql()} THEN 0 ELSE 1 END AS valid FROM ${relation}`,
    params,
  );
  const failing = await sql.unsafe(
    firstInvalidDecisionsSql(relation, 1),
    params,
  );
  const checks = found.valid === 1;
  assert.equal(
    failing.length === 0,
    checks,
    "the two row-check queries disagree",
  );
  let loader = true;
  try {
    flatDecision(pgFlatRow(found), "row");
  } catch (error) {
    assert.ok(
      error instanceof RangeError || error instanceof TypeError,
      String(error),
    );
    loader = false;
  }
  let stored = true;
  try {
    await sql.unsafe(
      `INSERT INTO ${table} (${DECISION_COLUMNS.join(", ")}) SELECT ${
        DECISION_COLUMNS.join(", ")
      } FROM ${relation}`,
      params,
    );
    await sql.unsafe(`DELETE FROM ${table}`);
  } catch (error) {
    // check_violation, not_null_violation: anything else is a test fault
    const code = (error as { code?: string }).code;
    if (code !== "23514" && code !== "23502") throw error;
    stored = false;
  }
  return { checks, loader, stored };
}

const SOUNDNESS_SEED = 20261201;

/** The property: the loader and the constrained table agree with the row checks; counts the valid and invalid rows tried. */
function soundness(
  sql: postgres.Sql,
  table: string,
  seen = { valid: 0, invalid: 0 },
) {
  return fc.asyncProperty(ROW, async (row) => {
    const { checks, loader, stored } = await judge(sql, table, row);
    seen[checks ? "valid" : "invalid"]++;
    assert.equal(stored, checks, `stored ${stored}, row checks ${checks}`);
    assert.equal(loader, checks, `loader ${loader}, row checks ${checks}`);
  });
}

pgTest(
  `a table made by decisionsTableSql(..., { checks: true }) stores a row exactly when the row checks and the loaders accept it (property, seed ${SOUNDNESS_SEED}), and without one of its constraints it does not`,
  async (dsn) => {
    await withTable(
      dsn,
      { checks: true, primaryKey: true },
      async (sql, table) => {
        const seen = { valid: 0, invalid: 0 };
        try {
          await fc.assert(soundness(sql, table, seen), {
            seed: SOUNDNESS_SEED,
            numRuns: 600,
          });
        } catch (error) {
          console.error(
            `property failed with fast-check seed ${SOUNDNESS_SEED}`,
          );
          throw error;
        }
        // both kinds of rows were tried, many times
        assert.ok(seen.valid > 100 && seen.invalid > 100, JSON.stringify(seen));
        // the property can fail: without the pCorrect constraint the table
        // stores a pCorrect of 1.5, which the checks and the loader refuse
        await sql.unsafe(
          `ALTER TABLE ${table} DROP CONSTRAINT ${table}_pcorrect_check`,
        );
        const broken = await fc.check(soundness(sql, table), {
          seed: SOUNDNESS_SEED,
          numRuns: 600,
        });
        assert.equal(
          broken.failed,
          true,
          "no counterexample without the pCorrect constraint",
        );
      },
    );
  },
);

// ---------------------------------------------------------------------------
// The statistics of the shortcut, and the tables it must not trust.

const DECISIONS = fc.array(
  fc.record({
    runId: fc.constantFrom("r1", "r2"),
    modelId: fc.constantFrom("a", "b"),
    taskId: fc.constantFrom("t1", "t2", "t3", "t4", "t5"),
    trial: fc.integer({ min: 0, max: 2 }),
    severity: fc.constantFrom(...SEVERITIES),
    trueClass: fc.constantFrom("MATCH", "DUPLICATE"),
    predClass: fc.constantFrom("MATCH", "DUPLICATE"),
    action: fc.constantFrom("auto" as const, "escalate" as const),
    pCorrect: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), {
      nil: null,
    }),
    parseOk: fc.boolean(),
  }),
  { minLength: 1, maxLength: 30 },
).map((rs) => {
  // one decision per key, as every loader requires
  const seen = new Set<string>();
  return rs.filter((r) => {
    const k = `${r.runId}/${r.modelId}/${r.taskId}/${r.trial}`;
    return seen.has(k) ? false : (seen.add(k), true);
  }).map((r) => decision(r));
});
// one run and one trial: the one-scan path with taskShare = n
const ONE_TRIAL = DECISIONS.map((ds) => {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const k = `${d.modelId}/${d.taskId}`;
    return seen.has(k) ? false : (seen.add(k), true);
  }).map((d) => ({ ...d, runId: "r1", trial: 0 }));
});

// decisionCellsSql's and decisionCellsWithoutChecksSql's rows, by cell.
function byCell(rows: unknown[][]): unknown[][] {
  const text = new Set([0, 1, 2, 3, 4, 11, 12]);
  return rows.map((r) => r.map((v, i) => text.has(i) ? String(v) : Number(v)))
    .sort((a, b) => a.slice(0, 5).join("|") < b.slice(0, 5).join("|") ? -1 : 1);
}

pgTest(
  "a constrained table gives the statistics of the in-memory path and of an unconstrained table with the same rows, with and without several trials per task, and the lean query gives decisionCellsSql's rows (property, seed 20261203)",
  async (dsn) => {
    for (
      const [what, arb] of [["one trial", ONE_TRIAL], [
        "trials",
        DECISIONS,
      ]] as const
    ) {
      await fc.assert(
        fc.asyncProperty(arb, async (ds) => {
          const want = decisionStats(decisionTable(ds));
          const rows = ds.map(flat);
          const [plain, checked] = await Promise.all([
            withTable(dsn, {}, async (sql, table) => {
              await insertRows(sql, table, rows);
              return await statsAndPath(dsn, table);
            }),
            withTable(
              dsn,
              { checks: true, primaryKey: true },
              async (sql, table) => {
                await insertRows(sql, table, rows);
                const cells = byCell(
                  await sql.unsafe(
                    decisionCellsSql(table, { dialect: "postgres" }),
                  ).values(),
                );
                const lean = byCell(
                  await sql.unsafe(
                    decisionCellsWithoutChecksSql(table, {
                      dialect: "postgres",
                    }),
                  ).values(),
                );
                assert.deepEqual(
                  lean.map((r) => [...r.slice(0, 6), ...r.slice(7)]),
                  cells.map((r) => [...r.slice(0, 6), ...r.slice(7)]),
                );
                assert.equal(singleTrialCells(lean), singleTrialCells(cells));
                assertSameStats(
                  statsRowsOfSql(lean, Number),
                  statsRowsOfSql(cells, Number),
                  `${what} lean`,
                );
                return await statsAndPath(dsn, table);
              },
            ),
          ]);
          assert.equal(
            plain.guarantee.guaranteed,
            false,
            plain.guarantee.reason,
          );
          assert.equal(
            checked.guarantee.guaranteed,
            true,
            checked.guarantee.reason,
          );
          // the primary key (runId, modelId, ...) gives each model's runIds
          assert.equal(checked.scan, "by-key");
          assert.equal(plain.scan, "checked");
          assertSameStats(checked.stats, want, `${what} constrained`);
          assertSameStats(plain.stats, want, `${what} unconstrained`);
          assertSameStats(checked.stats, plain.stats, `${what} both`);
        }),
        { seed: 20261203, numRuns: 12 },
      );
    }
  },
);

pgTest(
  "a constrained table reads each model's runIds from an index only when its first two key columns are runId and modelId, and from at most 1,000 pairs; otherwise the lean scan groups by runId; the statistics are the in-memory path's either way",
  async (dsn) => {
    // two runs of model a on the same tasks (trials across runs), one of b
    const ds = [
      ...["t1", "t2", "t3"].flatMap((taskId, i) => [
        decision({ runId: "r1", modelId: "a", taskId, pCorrect: i / 4 }),
        decision({ runId: "r2", modelId: "a", taskId, pCorrect: 0.5 }),
        decision({ runId: "r1", modelId: "b", taskId, pCorrect: null }),
      ]),
    ];
    const oneRun = ds.filter((d) => d.runId === "r1");
    const withTrial = [...oneRun, decision({ modelId: "b", trial: 2 })];
    const many = Array.from(
      { length: 1001 },
      (_, i) => decision({ runId: `r${i}`, modelId: "a", taskId: `t${i}` }),
    );
    const cases: Array<[string, Decision[], string | null, string]> = [
      ["two runs", ds, null, "by-key"],
      ["one run", oneRun, null, "by-key"],
      ["a second trial", withTrial, null, "by-key"],
      ["(modelId, runId, ...)", ds, "modelId, runId, taskId, trial", "by-key"],
      ["(taskId, trial, ...)", ds, "taskId, trial, runId, modelId", "lean"],
      ["1,001 runs", many, null, "lean"],
    ];
    for (const [what, rows, key, scan] of cases) {
      await withTable(
        dsn,
        { checks: true, primaryKey: true },
        async (sql, table) => {
          if (key !== null) {
            await sql.unsafe(
              `ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD PRIMARY KEY (${key})`,
            );
          }
          await insertRows(sql, table, rows.map(flat));
          const got = await statsAndPath(dsn, table);
          assert.equal(got.guarantee.guaranteed, true, what);
          assert.equal(got.scan, scan, what);
          assertSameStats(got.stats, decisionStats(decisionTable(rows)), what);
        },
      );
    }
  },
);

pgTest(
  "the by-key scan reads the runIds and the cells in one snapshot: a row committed by another session between its two queries is in neither",
  async (dsn) => {
    const before = ["t1", "t2"].map((taskId) => decision({ taskId }));
    const late = [
      decision({ modelId: "late", taskId: "t1" }),
      decision({ runId: "r2", taskId: "t1" }),
    ];
    for (const row of late) {
      await withTable(
        dsn,
        { checks: true, primaryKey: true },
        async (sql, table) => {
          await insertRows(sql, table, before.map(flat));
          let scan = "";
          const stats = await postgresDecisionStats(dsn, table, {
            onScan: async (s) => {
              scan = s;
              // another session commits a row now
              const other = connectPg(dsn);
              try {
                await insertRows(other, table, [flat(row)]);
              } finally {
                await other.end({ timeout: 5 });
              }
            },
          });
          assert.equal(scan, "by-key");
          assertSameStats(
            stats,
            decisionStats(decisionTable(before)),
            row.modelId,
          );
          // and the next read sees it
          const after = await postgresDecisionStats(dsn, table);
          assertSameStats(
            after,
            decisionStats(decisionTable([...before, row])),
            `${row.modelId} after`,
          );
        },
      );
    }
  },
);

// Rows whose pCorrect a real column holds exactly.
const EXACT = Array.from({ length: 12 }, (_, i) =>
  decision({
    taskId: `t${i}`,
    modelId: i % 2 === 0 ? "a" : "b",
    severity: SEVERITIES[i % 4],
    pCorrect: i % 3 === 0 ? null : (i % 4) / 4,
  }));

/** A constrained table of EXACT, changed by `change`: the decision, and the statistics it gives (or its error). */
async function afterChange(
  dsn: string,
  change: (sql: postgres.Sql, table: string) => Promise<string | void>,
): Promise<
  { guarantee: ChecksGuarantee; stats: StatsRow[] | Error; table: string }
> {
  return await withTable(
    dsn,
    { checks: true, primaryKey: true },
    async (sql, table) => {
      await insertRows(sql, table, EXACT.map(flat));
      const target = (await change(sql, table)) ?? table;
      const direct = await postgresChecksGuaranteed(dsn, target);
      let stats: StatsRow[] | Error;
      try {
        const got = await statsAndPath(dsn, target);
        assert.deepEqual(got.guarantee, direct);
        stats = got.stats;
      } catch (error) {
        stats = error as Error;
      }
      return { guarantee: direct, stats, table: target };
    },
  );
}

pgTest(
  "the checks are left to the database only when every row check is a validated CHECK constraint on columns of the layout's types: not without one, not for a NOT VALID one (whose bad row is still refused), another column type, a view, an inheriting table, or a read-only session",
  async (dsn) => {
    const want = decisionStats(decisionTable(EXACT));
    const intact = await afterChange(dsn, async () => {});
    assert.equal(intact.guarantee.guaranteed, true, intact.guarantee.reason);
    assertSameStats(intact.stats as StatsRow[], want, "intact");

    const dropped = await afterChange(dsn, async (sql, t) => {
      await sql.unsafe(`ALTER TABLE ${t} DROP CONSTRAINT ${t}_severity_check`);
    });
    assert.equal(dropped.guarantee.guaranteed, false);
    assert.match(
      dropped.guarantee.reason,
      /^no constraint: CHECK \(\(NOT \(\(severity IS NULL\)/,
    );
    assertSameStats(dropped.stats as StatsRow[], want, "one dropped");

    // a NOT VALID constraint does not vouch for the row already there
    const notValid = await afterChange(dsn, async (sql, t) => {
      await sql.unsafe(`ALTER TABLE ${t} DROP CONSTRAINT ${t}_pcorrect_check`);
      await insertRows(sql, t, [{
        ...flat(EXACT[0]),
        taskid: "9",
        pcorrect: 1.5,
      }]);
      await sql.unsafe(
        `ALTER TABLE ${t} ADD CONSTRAINT lb_pcorrect CHECK (NOT (pCorrect IS NOT NULL AND NOT (pCorrect BETWEEN 0 AND 1))) NOT VALID`,
      );
    });
    assert.equal(notValid.guarantee.guaranteed, false);
    assert.match(notValid.guarantee.reason, /^not validated: CHECK .*pcorrect/);
    assert.ok(notValid.stats instanceof RangeError, String(notValid.stats));
    assert.equal(
      notValid.stats.message,
      `Cannot load table ${notValid.table}: row with runId "r1", modelId "a", taskId "9", trial 0: pCorrect must be in [0, 1], got 1.5`,
    );
    // the same constraint validated (the bad row gone) is trusted
    const validated = await afterChange(dsn, async (sql, t) => {
      await sql.unsafe(`ALTER TABLE ${t} DROP CONSTRAINT ${t}_pcorrect_check`);
      await sql.unsafe(
        `ALTER TABLE ${t} ADD CONSTRAINT lb_pcorrect CHECK (NOT (pCorrect IS NOT NULL AND NOT (pCorrect BETWEEN 0 AND 1))) NOT VALID`,
      );
      await sql.unsafe(`ALTER TABLE ${t} VALIDATE CONSTRAINT lb_pcorrect`);
    });
    assert.equal(
      validated.guarantee.guaranteed,
      true,
      validated.guarantee.reason,
    );

    const real = await afterChange(dsn, async (sql, t) => {
      await sql.unsafe(`ALTER TABLE ${t} ALTER COLUMN pcorrect TYPE real`);
    });
    assert.deepEqual(real.guarantee, {
      guaranteed: false,
      reason: "column pcorrect is real, not double precision",
    });
    assertSameStats(real.stats as StatsRow[], want, "real pCorrect");

    const view = await afterChange(dsn, async (sql, t) => {
      await sql.unsafe(`CREATE VIEW ${t}_v AS SELECT * FROM ${t}`);
      return `${t}_v`;
    });
    assert.equal(view.guarantee.guaranteed, false);
    assert.match(view.guarantee.reason, /relkind v\): a view never qualifies/);
    assertSameStats(view.stats as StatsRow[], want, "view");

    const inherited = await afterChange(dsn, async (sql, t) => {
      await sql.unsafe(`CREATE TABLE ${t}_c () INHERITS (${t})`);
    });
    assert.equal(inherited.guarantee.guaranteed, false);
    assert.match(inherited.guarantee.reason, /inherit/);
    assertSameStats(inherited.stats as StatsRow[], want, "inherited");

    // a session that may not create the probe table runs the checks
    const role = `lbtest_ro_${crypto.randomUUID().slice(0, 8)}`;
    await withTable(dsn, { checks: true }, async (sql, t) => {
      await insertRows(sql, t, EXACT.map(flat));
      await sql.unsafe(`CREATE ROLE ${role} LOGIN`);
      try {
        await sql.unsafe(
          `ALTER ROLE ${role} SET default_transaction_read_only = on`,
        );
        await sql.unsafe(`GRANT SELECT ON ${t} TO ${role}`);
        const readOnly = dsn.replace(
          /^postgresql:\/\/[^@]*@/,
          `postgresql://${role}@`,
        );
        assert.notEqual(readOnly, dsn);
        const got = await statsAndPath(readOnly, t);
        assert.equal(got.guarantee.guaranteed, false);
        assert.match(
          got.guarantee.reason,
          /^the probe table could not be created \(.*read-only transaction/,
        );
        assertSameStats(got.stats, want, "read-only session");
      } finally {
        await sql.unsafe(`REVOKE ALL ON ${t} FROM ${role}`);
        await sql.unsafe(`DROP ROLE ${role}`);
      }
    });
  },
);
