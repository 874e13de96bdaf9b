/**
 * The Decision schema (lib/decision/schema.ts) in SQL terms: each field's
 * column type per engine, the type of the NULL that stands for a missing
 * optional column, and the row checks, one ANSI SQL predicate per field.
 * All of it follows from a field's rule kind and null rule, so a field
 * added to the schema gets its column, its NULL and its check here without
 * naming it; every function takes the field list (default: the schema's)
 * so that an extended list can be tried without editing the schema.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionChecks, sqlColumnType } from "./schema_sql.ts";
 * import { fieldOfColumn } from "./schema.ts";
 *
 * assert.equal(sqlColumnType(fieldOfColumn("trial"), "postgres"), "bigint");
 * assert.equal(decisionChecks()[0].sql, "runId IS NULL OR runId = ''");
 * ```
 *
 * @module
 */

import {
  DECISION_FIELDS,
  type DecisionColumn,
  type DecisionField,
  type FieldRule,
  kindOfRule,
  ruleInWords,
} from "./schema.ts";
import { PCORRECT_SOURCE_ERROR, PCORRECT_SOURCES } from "./pcorrect_source.ts";

/**
 * The SQL type a rule's column is declared with, before the engine names
 * it: counts are integers, amounts and probabilities reals, booleans
 * booleans, everything else text.
 */
export type SqlTypeClass = "text" | "integer" | "real" | "boolean";

/**
 * A rule's {@linkcode SqlTypeClass}.
 *
 * @param rule A field's rule.
 * @returns `"text"`, `"integer"`, `"real"` or `"boolean"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sqlTypeClass } from "./schema_sql.ts";
 *
 * assert.equal(sqlTypeClass({ kind: "count" }), "integer");
 * assert.equal(sqlTypeClass({ kind: "probability" }), "real");
 * assert.equal(sqlTypeClass({ kind: "enum", values: ["a"] }), "text");
 * ```
 */
export function sqlTypeClass(rule: FieldRule): SqlTypeClass {
  const kind = kindOfRule(rule);
  return kind === "number"
    ? (rule.kind === "count" ? "integer" : "real")
    : kind;
}

/**
 * The type names of each engine the decision SQL runs on. SQLite has no
 * boolean: a boolean column there holds 1 or 0. A ClickHouse column holds
 * no NULL unless its type is wrapped in `Nullable(...)`, which
 * {@linkcode decisionColumnsSql} and {@linkcode sqlNullType} add.
 */
export const SQL_TYPE_NAMES: {
  readonly [E in "duckdb" | "postgres" | "sqlite" | "clickhouse"]: Readonly<
    Record<SqlTypeClass, string>
  >;
} = {
  duckdb: {
    text: "VARCHAR",
    integer: "BIGINT",
    real: "DOUBLE",
    boolean: "BOOLEAN",
  },
  postgres: {
    text: "text",
    integer: "bigint",
    real: "double precision",
    boolean: "boolean",
  },
  sqlite: {
    text: "TEXT",
    integer: "INTEGER",
    real: "REAL",
    boolean: "INTEGER",
  },
  clickhouse: {
    text: "String",
    integer: "Int64",
    real: "Float64",
    boolean: "Bool",
  },
};

/** An engine of {@linkcode SQL_TYPE_NAMES}. */
export type SqlEngine = keyof typeof SQL_TYPE_NAMES;

/**
 * The type a field's column is declared with on an engine.
 *
 * @param field A field.
 * @param engine The engine.
 * @returns The type name, e.g. `BIGINT` for a count on DuckDB.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sqlColumnType } from "./schema_sql.ts";
 * import { fieldOfColumn } from "./schema.ts";
 *
 * assert.equal(sqlColumnType(fieldOfColumn("latencyMs"), "duckdb"), "DOUBLE");
 * assert.equal(sqlColumnType(fieldOfColumn("parseOk"), "sqlite"), "INTEGER");
 * ```
 */
export function sqlColumnType(field: DecisionField, engine: SqlEngine): string {
  return SQL_TYPE_NAMES[engine][sqlTypeClass(field.rule)];
}

/**
 * The type of the NULL that stands for a missing optional column of a
 * field: a text or boolean NULL for a text or boolean field, and for a
 * number a NULL of the engine's real type, which compares with any numeric
 * column a file may hold.
 *
 * @param field A field.
 * @param engine The engine.
 * @returns The type name for `CAST(NULL AS <type>)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sqlNullType } from "./schema_sql.ts";
 * import { fieldOfColumn } from "./schema.ts";
 *
 * assert.equal(sqlNullType(fieldOfColumn("tokensIn"), "duckdb"), "DOUBLE");
 * assert.equal(sqlNullType(fieldOfColumn("answer"), "postgres"), "text");
 * assert.equal(sqlNullType(fieldOfColumn("answer"), "clickhouse"), "Nullable(String)");
 * ```
 */
export function sqlNullType(field: DecisionField, engine: SqlEngine): string {
  const kind = kindOfRule(field.rule);
  const name = SQL_TYPE_NAMES[engine][kind === "number" ? "real" : kind];
  return engine === "clickhouse" ? `Nullable(${name})` : name;
}

/**
 * Whether a field's column is declared `NOT NULL`: when its null reads
 * `never` (every other null rule lets some row hold a null).
 *
 * @param field A field.
 * @returns `true` for a column that never holds a null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sqlNotNull } from "./schema_sql.ts";
 * import { fieldOfColumn } from "./schema.ts";
 *
 * assert.equal(sqlNotNull(fieldOfColumn("runId")), true);
 * assert.equal(sqlNotNull(fieldOfColumn("costUsd")), false);
 * ```
 */
export function sqlNotNull(field: DecisionField): boolean {
  return field.nulls.reads === "never";
}

/**
 * The column definitions of a decisions table, one per field in order:
 * `<column> <type>`, with ` NOT NULL` where {@linkcode sqlNotNull}; on
 * ClickHouse, whose columns are not nullable unless declared so, the type
 * of every other column is `Nullable(<type>)` instead.
 *
 * @param engine The engine whose type names to use.
 * @param fields The fields. Default: the schema's.
 * @returns One definition per field, without indentation or comma.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionColumnsSql } from "./schema_sql.ts";
 *
 * const cols = decisionColumnsSql("postgres");
 * assert.equal(cols[0], "runId text NOT NULL");
 * assert.ok(cols.includes("pCorrect double precision"));
 * assert.ok(decisionColumnsSql("clickhouse").includes("pCorrect Nullable(Float64)"));
 * ```
 */
export function decisionColumnsSql(
  engine: SqlEngine,
  fields: readonly DecisionField[] = DECISION_FIELDS,
): string[] {
  return fields.map((f) => {
    const type = sqlColumnType(f, engine);
    if (sqlNotNull(f)) return `${f.column} ${type} NOT NULL`;
    return `${f.column} ${
      engine === "clickhouse" ? `Nullable(${type})` : type
    }`;
  });
}

/** The largest whole number a count may be (`Number.MAX_SAFE_INTEGER`). */
const MAX_SAFE = "9007199254740991";
/** The largest finite double: an amount above it is an infinity. */
const MAX_DOUBLE = "1.7976931348623157E308";

/**
 * The range a numeric rule allows, as SQL literals, and whether a value
 * must be whole; `null` for a rule that is not a number.
 *
 * @param rule A field's rule.
 * @returns `{ lo, hi, whole }`, or `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sqlBounds } from "./schema_sql.ts";
 *
 * assert.deepEqual(sqlBounds({ kind: "probability" }), { lo: "0", hi: "1", whole: false });
 * assert.equal(sqlBounds({ kind: "count" })?.whole, true);
 * assert.equal(sqlBounds({ kind: "text" }), null);
 * ```
 */
export function sqlBounds(
  rule: FieldRule,
): { lo: string; hi: string; whole: boolean } | null {
  switch (rule.kind) {
    case "count":
      return { lo: "0", hi: MAX_SAFE, whole: true };
    // BETWEEN 0 AND the largest double refuses NaN and the infinities too
    case "amount":
      return { lo: "0", hi: MAX_DOUBLE, whole: false };
    case "probability":
      return { lo: "0", hi: "1", whole: false };
    default:
      return null;
  }
}

// `'a', 'b'`: string literals for an IN list
function sqlList(values: readonly string[]): string {
  return values.map((v) => `'${v}'`).join(", ");
}

/**
 * The two conditions of a field whose null reads `when`: `valued`, under
 * which it must hold a value (its condition column holds one of the values
 * the rule does not list), and `nulled`, under which it must be null.
 * Both are written as `IN` lists, so a NULL condition column makes neither
 * true (that column's own check flags the row).
 *
 * @param field A field whose null reads `when`.
 * @param fields The fields, among them the condition column's, which must
 * be an `enum`. Default: the schema's.
 * @returns The two ANSI SQL conditions and the values of each.
 * @throws {TypeError} When the field's null does not read `when`, or the
 * condition column is not an `enum` of `fields`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sqlNullWhen } from "./schema_sql.ts";
 * import { fieldOfColumn } from "./schema.ts";
 *
 * const w = sqlNullWhen(fieldOfColumn("costUsd"));
 * assert.equal(w.valued, "costCompleteness IN ('complete', 'partial')");
 * assert.deepEqual(w.nullValues, ["unavailable", "not_applicable"]);
 * ```
 */
export function sqlNullWhen(
  field: DecisionField,
  fields: readonly DecisionField[] = DECISION_FIELDS,
): {
  valued: string;
  nulled: string;
  valueValues: readonly string[];
  nullValues: readonly string[];
} {
  const n = field.nulls;
  if (n.reads !== "when") {
    throw new TypeError(`${field.column}: its null does not read "when"`);
  }
  const on = fields.find((f) => f.column === n.column)?.rule;
  if (on?.kind !== "enum") {
    throw new TypeError(
      `${field.column}: null when ${n.column}, which is not an enum field`,
    );
  }
  const valueValues = on.values.filter((v) => !n.values.includes(v));
  return {
    valued: `${n.column} IN (${sqlList(valueValues)})`,
    nulled: `${n.column} IN (${sqlList(n.values)})`,
    valueValues,
    nullValues: n.values,
  };
}

/**
 * ANSI SQL that is TRUE when `column` holds a pCorrect source: one of
 * {@linkcode PCORRECT_SOURCES}, `agreement@K` (K digits without a leading
 * zero: with the digits removed nothing is left) or `score-metadata:` with
 * a key. SUBSTR, LENGTH and REPLACE work the same on DuckDB, PostgreSQL
 * and SQLite.
 *
 * @param column The column.
 * @returns The predicate (NULL for a NULL column).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pCorrectSourceSql } from "./schema_sql.ts";
 *
 * assert.match(pCorrectSourceSql("s"), /^s IN \('stated', /);
 * ```
 */
export function pCorrectSourceSql(column: string): string {
  const tail = `SUBSTR(${column}, 11)`;
  let digitsRemoved = tail;
  for (let d = 0; d <= 9; d++) {
    digitsRemoved = `REPLACE(${digitsRemoved}, '${d}', '')`;
  }
  return `${column} IN (${sqlList(PCORRECT_SOURCES)}) OR ` +
    `(SUBSTR(${column}, 1, 10) = 'agreement@' AND LENGTH(${column}) > 10 ` +
    `AND SUBSTR(${column}, 11, 1) <> '0' AND ${digitsRemoved} = '') OR ` +
    `(SUBSTR(${column}, 1, 15) = 'score-metadata:' AND LENGTH(${column}) > 15)`;
}

/**
 * What makes a non-NULL value of a field bad, as ANSI SQL disjuncts (none
 * for a rule every value of the column's type meets: text, boolean).
 * Whole numbers are tested with `ROUND`, not `FLOOR`, which SQLite builds
 * without math functions lack.
 */
function badValueSql(field: DecisionField): string[] {
  const c = field.column;
  const r = field.rule;
  const bounds = sqlBounds(r);
  if (bounds !== null) {
    const range = `NOT (${c} BETWEEN ${bounds.lo} AND ${bounds.hi})`;
    return bounds.whole ? [range, `${c} <> ROUND(${c})`] : [range];
  }
  switch (r.kind) {
    case "id":
      return [`${c} = ''`];
    case "enum":
      return [`${c} NOT IN (${sqlList(r.values)})`];
    case "pcorrect-source":
      return [`NOT (${pCorrectSourceSql(c)})`];
    default:
      return [];
  }
}

/** One row check: the field it is about and a predicate true for bad rows. */
export interface DecisionCheck {
  /** The flat column the check is about. */
  readonly field: DecisionColumn;
  /** What a good value is, in words. */
  readonly rule: string;
  /**
   * ANSI SQL predicate, TRUE for a bad row. For a good row it is FALSE, or
   * NULL only where another check already flags the row (the `costUsd`
   * check when `costCompleteness` is NULL).
   */
  readonly sql: string;
}

// A field's rule in words, as the row checks state it: the schema's words,
// except that a `when` null names the condition column's values on both
// sides, and the pCorrect source vocabulary is listed as its own error
// message lists it
function checkWords(
  field: DecisionField,
  fields: readonly DecisionField[],
): string {
  if (field.nulls.reads === "when") {
    const w = sqlNullWhen(field, fields);
    return `${ruleInWords({ ...field, nulls: { reads: "never" } })} when ${
      w.valueValues.join(" or ")
    }, null when ${w.nullValues.join(" or ")}`;
  }
  if (field.rule.kind === "pcorrect-source" && field.nulls.reads !== "never") {
    return PCORRECT_SOURCE_ERROR.replace(/^must be /, "");
  }
  return ruleInWords(field);
}

/**
 * The row check of one field: TRUE when the row's value breaks the field's
 * rule or its null rule. A `never` null makes NULL bad; a `value` or
 * `absent` null lets NULL pass (and a field that any value of its type
 * meets then has the check `1 = 0`: no row fails it); a `when` null
 * requires a value under one condition and NULL under the other.
 *
 * @param field A field.
 * @param fields The fields (for a `when` null's condition column). Default:
 * the schema's.
 * @returns The check.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionCheck } from "./schema_sql.ts";
 * import { fieldOfColumn } from "./schema.ts";
 *
 * const c = decisionCheck(fieldOfColumn("tokensIn"));
 * assert.equal(c.rule, "a whole number >= 0 or null");
 * assert.match(c.sql, /^tokensIn IS NOT NULL AND \(NOT \(tokensIn BETWEEN 0 AND /);
 * assert.equal(decisionCheck(fieldOfColumn("answer")).sql, "1 = 0");
 * ```
 */
export function decisionCheck(
  field: DecisionField,
  fields: readonly DecisionField[] = DECISION_FIELDS,
): DecisionCheck {
  const c = field.column;
  const bad = badValueSql(field);
  const orNull = [`${c} IS NULL`, ...bad].join(" OR ");
  let sql: string;
  switch (field.nulls.reads) {
    case "never":
      sql = orNull;
      break;
    case "value":
    case "absent":
      sql = bad.length === 0
        ? "1 = 0"
        : `${c} IS NOT NULL AND ${
          bad.length === 1 ? bad[0] : `(${bad.join(" OR ")})`
        }`;
      break;
    case "when": {
      const w = sqlNullWhen(field, fields);
      sql =
        `(${w.valued} AND (${orNull})) OR (${w.nulled} AND ${c} IS NOT NULL)`;
    }
  }
  return {
    field: c as DecisionColumn,
    rule: checkWords(field, fields),
    sql,
  };
}

/**
 * The row checks, one per field in the order of the fields: together they
 * refuse what the Decision schema refuses (empty ids, negative or
 * fractional counts, a probability outside [0, 1], a value outside an
 * enum, a missing value where one is due, a value where none may be, NaN
 * and infinities).
 *
 * @param fields The fields. Default: the schema's.
 * @returns One {@linkcode decisionCheck} per field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionChecks } from "./schema_sql.ts";
 * import { DECISION_COLUMNS } from "./schema.ts";
 *
 * assert.deepEqual(decisionChecks().map((c) => c.field), DECISION_COLUMNS);
 * ```
 */
export function decisionChecks(
  fields: readonly DecisionField[] = DECISION_FIELDS,
): DecisionCheck[] {
  return fields.map((f) => decisionCheck(f, fields));
}
