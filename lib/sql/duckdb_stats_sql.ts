/**
 * The SQL that builds sufficient statistics from a decision relation, and
 * the row checks that keep bad rows out of them. Plain ANSI SQL: the same
 * text is run in lossbook's tests on DuckDB (`duckdbDecisionStats`), on a
 * PostgreSQL 15 server (`postgresDecisionStats`) and on SQLite
 * (`node:sqlite`), with the in-memory statistics as the reference. It is
 * written for Spark SQL and Trino too (see the notes below), but has not been
 * run on them: treat those two as untested.
 *
 * Only the relation differs per engine, and it is kept out of these
 * queries: each function takes the relation as text. The relation must have
 * the flat columns of `DECISION_COLUMNS` with text columns as strings,
 * numeric columns as numbers (any integer, float or decimal type) and
 * `parseOk` as a boolean.
 *
 * Referencing the file, per engine (not part of the portable query):
 *
 * | engine | relation |
 * | --- | --- |
 * | DuckDB | `read_parquet('runs/a.parquet')`; CSV through the typed view of `duckdbCsvRelation` |
 * | Spark SQL | `parquet.\`s3://bucket/runs/\``, or `CREATE TEMPORARY VIEW decisions USING parquet OPTIONS (path 's3://bucket/runs/')` (CSV: `USING csv OPTIONS (header 'true')` with an explicit schema) |
 * | Trino | a Hive or Iceberg table over the files, e.g. `CREATE TABLE hive.runs.decisions (...) WITH (external_location = 's3://bucket/runs/', format = 'PARQUET')`, then `hive.runs.decisions` |
 *
 * Dialect caveats:
 * - Numbers are made floating point by arithmetic with a float literal
 *   (`1.0E0 - pCorrect`), never by a cast: type names differ (PostgreSQL has
 *   no `DOUBLE`). Whole numbers are checked with `ROUND`, not `FLOOR`, which
 *   SQLite builds without math functions lack.
 * - PostgreSQL folds unquoted identifiers to lower case, so a table created
 *   with unquoted names matches; a table with quoted mixed-case names
 *   (`"runId"`) is reached through a view with unquoted names. SQLite has no
 *   boolean type: `parseOk` holds 1 or 0.
 * - Identifiers are unquoted camelCase. DuckDB and Spark match them without
 *   regard to case; Trino folds them to lower case (as Hive stores column
 *   names), so they match there too, but Trino returns result columns in
 *   lower case (`perrorsum`): read results by position, as
 *   `duckdbDecisionStats` does. Do not quote with `"`: Spark reads `"x"` as a
 *   string unless `spark.sql.ansi.doubleQuotedIdentifiers` is set.
 * - `SUM` of integers is HUGEINT in DuckDB and BIGINT in Spark and Trino.
 * - NaN: DuckDB and Spark order NaN above every number, Trino makes every
 *   comparison with NaN false. The checks are written `NOT (x BETWEEN lo AND
 *   hi)`, which flags NaN on all three.
 * - No float is summed: floating-point sums depend on the order of
 *   addition, which differs between engines and between runs with several
 *   threads. Each 1 - pCorrect is a whole number of units of 2^-53 (see
 *   lib/math/exact_sum.ts), cast to BIGINT and summed as an integer
 *   (HUGEINT in DuckDB, `numeric` in PostgreSQL, exact in both; a 64-bit
 *   integer in SQLite, Spark and Trino, which holds the sum of 1,024
 *   probabilities of 0 and more of larger ones, and overflows with an
 *   error past it). `taskShare` comes back as counts per number of trials.
 *   {@linkcode statsRowsOfSql} rounds each sum once, so every engine gives
 *   the same statistics to the last bit.
 *
 * @module
 */

import type { Severity } from "../costs/severity.ts";
import {
  type Action,
  canCost,
  sortStats,
  type StatsRow,
} from "../metrics/sufficient_stats.ts";
import {
  DECISION_FIELDS,
  type DecisionColumn,
  type DecisionField,
} from "../decision/schema.ts";
import {
  type DecisionCheck,
  decisionChecks,
  sqlBounds,
  sqlNullWhen,
} from "../decision/schema_sql.ts";
import type { SqlDialect } from "./decision_sql_export.ts";
import { reciprocalSum, roundUnits, trialsSum } from "../math/exact_sum.ts";
import type { DecisionUnit } from "../decision/cluster.ts";

export type { DecisionCheck };

/**
 * The row checks, one per Decision field in the order of the fields (see
 * `decisionChecks` in lib/decision/schema_sql.ts, which derives them from
 * the Decision schema): together they refuse what the Decision schema
 * refuses (empty ids, negative or fractional counts, a pCorrect outside
 * [0, 1], an unknown severity, action, completeness or outcome, a negative
 * or missing cost where one is due, a cost where none may be, NaN and
 * infinities).
 */
export const DECISION_CHECKS: readonly DecisionCheck[] = decisionChecks();

/**
 * The ANSI SQL sum of 1 - pCorrect over rows that state it, in units of
 * 2^-53: each term is a whole number in [0, 2^53] (see
 * lib/math/exact_sum.ts), so the cast to BIGINT is exact and so is the
 * integer sum; 0 when no row states pCorrect. On ClickHouse the integer is
 * an Int128. A pCorrect outside [0, 1]
 * adds nothing (its row fails a row check).
 *
 * @returns The aggregate expression.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pErrorUnitsSql } from "./duckdb_stats_sql.ts";
 *
 * assert.match(pErrorUnitsSql(), /CAST\(\(1\.0E0 - pCorrect\) \* 9007199254740992\.0E0 AS BIGINT\)/);
 * assert.match(pErrorUnitsSql("clickhouse"), / AS Nullable\(Int128\)\)/);
 * ```
 */
export function pErrorUnitsSql(dialect: SqlDialect = "duckdb"): string {
  // a pCorrect outside [0, 1] (NaN included) fails a row check, which
  // refuses the result; here it adds nothing, rather than fail the cast.
  // ClickHouse sums an Int64 into an Int64 that wraps around without an
  // error, so there each term is an Int128, and so is the sum
  const integer = dialect === "clickhouse" ? "Nullable(Int128)" : "BIGINT";
  return `COALESCE(SUM(CASE WHEN pCorrect BETWEEN 0 AND 1 THEN CAST((1.0E0 - pCorrect) * 9007199254740992.0E0 AS ${integer}) END), 0)`;
}

/**
 * One ANSI SQL predicate that is TRUE for a row failing any of
 * {@linkcode DECISION_CHECKS}.
 *
 * @returns The predicate, each check in parentheses, joined with `OR`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { invalidDecisionSql } from "./duckdb_stats_sql.ts";
 *
 * assert.match(invalidDecisionSql(), /\(pCorrect IS NOT NULL AND NOT \(pCorrect BETWEEN 0 AND 1\)\)/);
 * ```
 */
export function invalidDecisionSql(): string {
  return DECISION_CHECKS.map((c) => `(${c.sql})`).join("\n    OR ");
}

/**
 * The SQL predicate of `canCost` over a decision's columns: TRUE for a
 * decision that can carry a cost, every one but an automatic correct one
 * (escalated, or its predicted class is not its gold class). The costly
 * decisions of a unit that `unitCostPairs` counts, in every SQL engine;
 * a test checks it against `canCost` on every kind of decision.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CAN_COST_SQL } from "./duckdb_stats_sql.ts";
 *
 * assert.equal(CAN_COST_SQL, "action = 'escalate' OR predClass <> trueClass");
 * ```
 */
export const CAN_COST_SQL = "action = 'escalate' OR predClass <> trueClass";

/**
 * The ANSI SQL query for sufficient statistics, with a count of bad rows.
 *
 * One scan of the relation, grouped by (modelId, severity, trueClass,
 * predClass, action) and by `taskTrials`, the rows of the same modelId and
 * unit (a window count: the unit is `taskId`, or `cluster`, which then
 * groups the window), and `unitCostly`, the rows of that unit that can
 * cost ({@linkcode CAN_COST_SQL}, a window sum); per group: `n` = count(*), `pErrorUnits` = the
 * sum of 1 - pCorrect over rows that state it, in units of 2^-53
 * ({@linkcode pErrorUnitsSql}), `pMissing` = rows with null pCorrect,
 * `parseFailures` = rows whose output did not parse, `invalidRows` = rows
 * failing {@linkcode DECISION_CHECKS}, `taskTrials` and `unitCostly`. A caller must
 * refuse the result when any `invalidRows` is not 0. A cell's groups add up
 * to the table `decisionStats` builds with Arquero, its `taskShare` being
 * the sum of n / taskTrials over them, so a task's trials count as one
 * task, its `unitCostPairs` the sum of n · unitCostly: {@linkcode statsRowsOfSql} adds them exactly (columns in this
 * order; read them by position, see the module notes on Trino).
 *
 * @param relation The relation to scan: a table or view name, or a table
 * function call such as `read_parquet('a.parquet')`. Default: `decisions`.
 * @param dialect The engine, which changes only the integer type of the
 * sum ({@linkcode pErrorUnitsSql}). Default: `duckdb`.
 * @param unit The column of the unit: `taskId` or `cluster`. Default: `taskId`.
 * @returns The query text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionStatsSql } from "./duckdb_stats_sql.ts";
 *
 * const sql = decisionStatsSql("read_parquet('a.parquet')");
 * assert.match(sql, /GROUP BY modelId, severity, trueClass, predClass, action, taskTrials, unitCostly/);
 * assert.match(sql, /FROM read_parquet\('a\.parquet'\)/);
 * assert.match(decisionStatsSql("d", "duckdb", "cluster"), /PARTITION BY modelId, cluster\)/);
 * ```
 */
export function decisionStatsSql(
  relation = "decisions",
  dialect: SqlDialect = "duckdb",
  unit: DecisionUnit = "taskId",
): string {
  return `SELECT
  modelId, severity, trueClass, predClass, action,
  COUNT(*) AS n,
  ${pErrorUnitsSql(dialect)} AS pErrorUnits,
  COUNT(*) - COUNT(pCorrect) AS pMissing,
  SUM(CASE WHEN parseOk THEN 0 ELSE 1 END) AS parseFailures,
  SUM(CASE WHEN ${invalidDecisionSql()}
    THEN 1 ELSE 0 END) AS invalidRows,
  taskTrials,
  unitCostly
FROM (
  SELECT *, COUNT(*) OVER (PARTITION BY modelId, ${unit}) AS taskTrials,
    SUM(CASE WHEN ${CAN_COST_SQL} THEN 1 ELSE 0 END)
      OVER (PARTITION BY modelId, ${unit}) AS unitCostly
  FROM ${relation}
) withTrials
GROUP BY modelId, severity, trueClass, predClass, action, taskTrials, unitCostly`;
}

/**
 * The sufficient statistics in a result of {@linkcode decisionStatsSql} or
 * of the cell queries, read by its column order (every engine returns the
 * same columns; their numeric types differ, so a number reader is given).
 *
 * The rows of one cell (one per number of trials of its tasks) are added
 * up exactly: the counts as numbers, `pErrorUnits` as a BigInt, and
 * `taskShare` as the rational sum of n / taskTrials, `taskTrialsSum` as the
 * integer sum of n · taskTrials, `unitCostPairs` as the integer sum of
 * n · unitCostly (column 11, read only where taskTrials is above 1: a unit
 * of one decision has one costly decision where its cell can cost
 * (`canCost`) and none elsewhere, so the single-trial cell queries, whose
 * taskTrials is 1, need not carry it); each non-integer sum is then
 * rounded once (see lib/math/exact_sum.ts), so the result does not depend
 * on the engine, its threads or the order of the rows.
 *
 * @param rows The result rows, as arrays in the query's column order.
 * @param num Reads one count (a BigInt, a numeric string, a number).
 * @returns The statistics rows, sorted as {@linkcode sortStats} sorts them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statsRowsOfSql } from "./duckdb_stats_sql.ts";
 *
 * // one cell: a decision of a task with one trial (1 - pCorrect = 0.5), and
 * // two of tasks with three trials (0.25 each), as 2^-53 units
 * const [row] = statsRowsOfSql([
 *   ["m", "HIGH", "X", "MATCH", "auto", 1n, 2n ** 52n, 0n, 0n, 0n, 1n, 1n],
 *   ["m", "HIGH", "X", "MATCH", "auto", 2n, "4503599627370496", 0n, 0n, 0n, 3n, 2n],
 * ], Number);
 * assert.equal(row.n, 3);
 * assert.equal(row.pErrorSum, 1);
 * assert.equal(row.taskShare, 1.6666666666666667); // 1 + 2/3, rounded once
 * assert.equal(row.taskTrialsSum, 7); // 1 · 1 + 2 · 3
 * assert.equal(row.unitCostPairs, 5); // 1 · 1 + 2 · 2: two of the three trials missed
 * ```
 */
export function statsRowsOfSql(
  rows: readonly (readonly unknown[])[],
  num: (v: unknown) => number,
): StatsRow[] {
  const cells = new Map<string, {
    key: readonly unknown[];
    n: number;
    units: bigint;
    pMissing: number;
    parseFailures: number;
    trials: Map<number, number>;
    costly: Map<number, number>;
  }>();
  for (const r of rows) {
    const key = r.slice(0, 5).map(String);
    const id = JSON.stringify(key);
    let c = cells.get(id);
    if (c === undefined) {
      c = {
        key,
        n: 0,
        units: 0n,
        pMissing: 0,
        parseFailures: 0,
        trials: new Map(),
        costly: new Map(),
      };
      cells.set(id, c);
    }
    const n = num(r[5]);
    c.n += n;
    c.units += BigInt(String(r[6]));
    c.pMissing += num(r[7]);
    c.parseFailures += num(r[8]);
    const k = num(r[10]);
    c.trials.set(k, (c.trials.get(k) ?? 0) + n);
    const costly = k > 1 ? num(r[11]) : canCost({
        trueClass: key[2],
        predClass: key[3],
        action: key[4] as Action,
      })
      ? 1
      : 0;
    if (costly > 0) c.costly.set(costly, (c.costly.get(costly) ?? 0) + n);
  }
  return sortStats([...cells.values()].map((c) => ({
    modelId: String(c.key[0]),
    severity: String(c.key[1]) as Severity,
    trueClass: String(c.key[2]),
    predClass: String(c.key[3]),
    action: String(c.key[4]) as Action,
    n: c.n,
    pErrorSum: roundUnits(c.units),
    pMissing: c.pMissing,
    parseFailures: c.parseFailures,
    taskShare: reciprocalSum(c.trials),
    taskTrialsSum: trialsSum(c.trials),
    unitCostPairs: trialsSum(c.costly),
  })));
}

/**
 * The ANSI SQL query that counts repeated decisions: keys (runId, modelId,
 * taskId, trial) that occur more than once, and the surplus rows.
 *
 * This is a second scan with one hash-table entry per distinct key, so it
 * costs memory in proportion to the number of decisions (DuckDB spills to
 * disk above its memory limit).
 *
 * @param relation The relation to scan. Default: `decisions`.
 * @returns A query giving one row: `repeatedKeys`, `surplusRows`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duplicateDecisionsSql } from "./duckdb_stats_sql.ts";
 *
 * assert.match(duplicateDecisionsSql(), /HAVING COUNT\(\*\) > 1/);
 * ```
 */
export function duplicateDecisionsSql(relation = "decisions"): string {
  return `SELECT COUNT(*) AS repeatedKeys, COALESCE(SUM(copies - 1), 0) AS surplusRows
FROM (
  SELECT COUNT(*) AS copies
  FROM ${relation}
  GROUP BY runId, modelId, taskId, trial
  HAVING COUNT(*) > 1
) repeated`;
}

/**
 * The ANSI SQL query for sufficient statistics without the window of
 * {@linkcode decisionStatsSql}: one scan and one `GROUP BY` (over the cell
 * keys, runId and the small-vocabulary columns: costCompleteness, outcome,
 * pCorrectSource), with the row checks of `DECISION_CHECKS` applied to each
 * group's values and aggregates (least, greatest, counts) instead of to
 * every row, so a group's `invalidRows` is its size when any of its rows
 * fails a check. The same columns in the same order as `decisionStatsSql`
 * except that `taskTrials` is 1 (read as: `taskShare` = `n`), with one row
 * per cell, followed by the least and greatest `runId`
 * and `trial` of each cell (runId is grouped, not aggregated: the least
 * and greatest of a text column per row cost PostgreSQL more than one
 * more key to hash), then the count of its rows that name a cluster
 * (column 15, see {@linkcode namedClusters}).
 * When, for every model, those are one runId and one trial value (one run,
 * one trial: the common case) and no decision repeats, every (modelId,
 * taskId) has one row, so `taskShare` = `n` is exact; otherwise run
 * {@linkcode decisionStatsSql}. {@linkcode singleTrialCells} decides.
 *
 * What the relation's column types rule out can be left out of the query
 * (`options`): an integer column cannot hold a fraction, a NOT NULL column
 * a null. On PostgreSQL the least and greatest runId are taken in byte
 * order (`COLLATE "C"`), which is all the checks need (least equals
 * greatest only when all are equal) and spares the database collation's
 * comparisons, and an empty taskId shows as a least `OCTET_LENGTH` of 0;
 * DuckDB and SQLite compare text by bytes already.
 *
 * @param relation The relation to scan. Default: `decisions`.
 * @param options The engine, and the columns of integer or NOT NULL type.
 * @returns The query text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionCellsSql } from "./duckdb_stats_sql.ts";
 *
 * const sql = decisionCellsSql("d");
 * assert.match(sql, /MIN\(runLo\), MAX\(runHi\), MIN\(trialLo\), MAX\(trialHi\)/);
 * assert.doesNotMatch(sql, /OVER/);
 * assert.match(sql, /trial <> ROUND\(trial\)/);
 * const pg = decisionCellsSql("d", {
 *   dialect: "postgres",
 *   integerColumns: ["trial"],
 *   notNullColumns: ["runId"],
 * });
 * assert.match(pg, /MIN\(runLo COLLATE "C"\)/);
 * assert.match(pg, /MIN\(OCTET_LENGTH\(taskId\)\) = 0/);
 * assert.doesNotMatch(pg, /trial <> ROUND\(trial\)|COUNT\(runId\)/);
 * ```
 */
export function decisionCellsSql(
  relation = "decisions",
  options: CellSqlOptions = {},
): string {
  return cellsQuery(
    relation,
    options.dialect,
    decisionCellChecks(options).join("\n      OR "),
    CELL_GROUP,
  );
}

/**
 * The query of {@linkcode decisionCellsSql} without its row checks, for a
 * relation whose rows are known to pass them (a table whose validated CHECK
 * constraints are `DECISION_CHECKS`, see `decisionsTableSql`): one scan,
 * grouped by the cell keys and runId only, with the same columns in the
 * same order, `invalidRows` 0 in every cell. Its result gives the same
 * `statsRowsOfSql` and `singleTrialCells` as `decisionCellsSql` on rows
 * that pass the checks; on other rows it says nothing about them, so run it
 * only where the database guarantees them.
 *
 * @param relation The relation to scan. Default: `decisions`.
 * @param options The engine (`postgres` takes the least and greatest runId
 * `COLLATE "C"`); the other options of `decisionCellsSql` do not apply.
 * @returns The query text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionCellsWithoutChecksSql } from "./duckdb_stats_sql.ts";
 *
 * const sql = decisionCellsWithoutChecksSql("d", { dialect: "postgres" });
 * assert.match(sql, /0 AS invalidRows/);
 * assert.match(sql, /GROUP BY runId, modelId, severity, trueClass, predClass, action\n/);
 * assert.match(sql, /MIN\(runLo COLLATE "C"\)/);
 * assert.doesNotMatch(sql, /NOT \(pCorrect BETWEEN|OVER/);
 * ```
 */
export function decisionCellsWithoutChecksSql(
  relation = "decisions",
  options: Pick<CellSqlOptions, "dialect"> = {},
): string {
  return cellsQuery(relation, options.dialect, null, CELL_KEY_GROUP);
}

/**
 * The cell query of a relation whose rows are known to pass the row checks
 * and whose runIds per model are known from elsewhere (an index): one
 * `GROUP BY` on the cell key, the bare aggregate and the greatest `trial`,
 * in the column order of {@linkcode decisionCellsWithoutChecksSql} up to
 * `taskTrials` (1: `taskShare` = `n`), then `MAX(trial)` as column 11 and
 * the rows that name a cluster as column 12. With the rows'
 * `trial` >= 0, a greatest trial of 0 in every cell means one trial value.
 *
 * @param relation The relation to scan. Default: `decisions`.
 * @returns The query text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionCellsByKeySql } from "./duckdb_stats_sql.ts";
 *
 * const sql = decisionCellsByKeySql("t");
 * assert.match(sql, /MAX\(trial\) AS trialHi,\n  COUNT\(cluster\) AS clustered\nFROM t\nGROUP BY modelId, severity, trueClass, predClass, action$/);
 * assert.doesNotMatch(sql, /runId|OVER/);
 * ```
 */
export function decisionCellsByKeySql(relation = "decisions"): string {
  return `SELECT
  modelId, severity, trueClass, predClass, action,
  COUNT(*) AS n,
  ${pErrorUnitsSql()} AS pErrorUnits,
  COUNT(*) - COUNT(pCorrect) AS pMissing,
  SUM(CASE WHEN parseOk THEN 0 ELSE 1 END) AS parseFailures,
  0 AS invalidRows,
  1 AS taskTrials,
  MAX(trial) AS trialHi,
  COUNT(cluster) AS clustered
FROM ${relation}
GROUP BY modelId, severity, trueClass, predClass, action`;
}

// The one-scan cell query of both: the finer groups of `group` summed into
// cells, with each group's invalidRows from the checks `bad` (its size when
// any row fails one) or 0 (null: the rows are known to pass them).
function cellsQuery(
  relation: string,
  dialect: SqlDialect | undefined,
  bad: string | null,
  group: readonly string[],
): string {
  const text = textOrder(dialect ?? "duckdb");
  const invalid = bad === null
    ? ""
    : `    CASE WHEN ${bad}\n      THEN COUNT(*) ELSE 0 END AS invalidRows,\n`;
  return `SELECT
  modelId, severity, trueClass, predClass, action,
  SUM(n) AS n, SUM(pErrorUnits) AS pErrorUnits, SUM(pMissing) AS pMissing,
  SUM(parseFailures) AS parseFailures, ${
    bad === null ? "0" : "SUM(invalidRows)"
  } AS invalidRows,
  1 AS taskTrials,
  MIN(runLo${text}), MAX(runHi${text}), MIN(trialLo), MAX(trialHi),
  SUM(clustered) AS clustered
FROM (
  SELECT modelId, severity, trueClass, predClass, action,
    COUNT(*) AS n,
    ${pErrorUnitsSql()} AS pErrorUnits,
    COUNT(*) - COUNT(pCorrect) AS pMissing,
    SUM(CASE WHEN parseOk THEN 0 ELSE 1 END) AS parseFailures,
${invalid}    runId AS runLo, runId AS runHi,
    MIN(trial) AS trialLo, MAX(trial) AS trialHi,
    COUNT(cluster) AS clustered
  FROM ${relation}
  GROUP BY ${group.join(", ")}
) cells
GROUP BY modelId, severity, trueClass, predClass, action`;
}

// The finer groups of decisionCellsWithoutChecksSql: runId and the cell keys.
const CELL_KEY_GROUP: readonly DecisionColumn[] = [
  "runId",
  "modelId",
  "severity",
  "trueClass",
  "predClass",
  "action",
];

/**
 * The columns {@linkcode decisionCellsSql} groups by before it sums the
 * groups into cells: runId and the cell keys, then each field with a small
 * vocabulary (an `enum` or a pCorrect source) in the order of the fields,
 * so that its check applies to the group's one value.
 *
 * @param fields The Decision fields. Default: the schema's.
 * @returns The column names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionCellGroup } from "./duckdb_stats_sql.ts";
 *
 * assert.deepEqual(decisionCellGroup().slice(6), ["costCompleteness", "outcome", "pCorrectSource"]);
 * ```
 */
export function decisionCellGroup(
  fields: readonly DecisionField[] = DECISION_FIELDS,
): string[] {
  const group: string[] = [...CELL_KEY_GROUP];
  for (const f of fields) {
    const small = f.rule.kind === "enum" || f.rule.kind === "pcorrect-source";
    if (small && !group.includes(f.column)) group.push(f.column);
  }
  return group;
}

const CELL_GROUP: readonly string[] = decisionCellGroup();

/** What {@linkcode decisionCellsSql} may leave out or spell per engine. */
export interface CellSqlOptions {
  /**
   * The engine the query is for: on `postgres` the least and greatest text
   * are taken `COLLATE "C"` and an empty taskId is found by its
   * `OCTET_LENGTH`. Default: `duckdb` (as `sqlite`).
   */
  readonly dialect?: SqlDialect;
  /**
   * Columns of an integer type (a count's column as bigint or integer):
   * their per-row whole-number test is left out. Leave out a column of a
   * real or numeric type. Default: none.
   */
  readonly integerColumns?: readonly DecisionColumn[];
  /**
   * Columns declared NOT NULL: their null count is left out. Default: none.
   */
  readonly notNullColumns?: readonly DecisionColumn[];
}

// The collation clause that makes MIN and MAX of text compare bytes.
function textOrder(dialect: SqlDialect): string {
  return dialect === "postgres" ? ' COLLATE "C"' : "";
}

// "Some text of the group is empty", over a group: the least text is ''
// (it sorts first), or on PostgreSQL the least byte length is 0: a MIN over
// an integer, which the server computes with less CPU than a MIN over text,
// even in byte order (MIN(taskId COLLATE "C")); DuckDB has no OCTET_LENGTH of
// text).
function emptyText(c: string, dialect: SqlDialect): string {
  return dialect === "postgres"
    ? `MIN(OCTET_LENGTH(${c})) = 0`
    : `MIN(${c}) = ''`;
}

/**
 * Each row check of `decisionChecks(fields)` as a predicate over a group of
 * `decisionCellGroup(fields)`, TRUE when some row of the group fails it,
 * each in parentheses: a grouped column's check as it is; a range check on
 * the least and greatest value (NaN sorts above every number in DuckDB and
 * PostgreSQL, so the greatest shows it); a required value by counts (not
 * for a NOT NULL column); an empty id by the least text ('' sorts first)
 * or, on PostgreSQL, its least byte length; whole numbers row by row (not
 * for an integer column). {@linkcode decisionCellsSql} joins them with `OR`.
 *
 * @param options The engine, and the columns of integer or NOT NULL type.
 * @param fields The Decision fields. Default: the schema's.
 * @returns One predicate per field, in the order of the fields.
 * @throws {Error} For a field of a small vocabulary that is not grouped,
 * or a `when` null whose condition column is not grouped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionCellChecks } from "./duckdb_stats_sql.ts";
 *
 * const checks = decisionCellChecks({ integerColumns: ["tokensIn"] });
 * assert.ok(checks.includes("(MIN(latencyMs) IS NOT NULL AND (NOT (MIN(latencyMs) BETWEEN 0 AND 1.7976931348623157E308) OR NOT (MAX(latencyMs) BETWEEN 0 AND 1.7976931348623157E308)))"));
 * assert.ok(checks.some((c) => c.startsWith("(MIN(tokensIn) IS NOT NULL") && !c.includes("ROUND")));
 * ```
 */
export function decisionCellChecks(
  options: CellSqlOptions = {},
  fields: readonly DecisionField[] = DECISION_FIELDS,
): string[] {
  const dialect = options.dialect ?? "duckdb";
  const integer = new Set<string>(options.integerColumns ?? []);
  const notNull = new Set<string>(options.notNullColumns ?? []);
  const group = decisionCellGroup(fields);
  const checks = decisionChecks(fields);
  const range = (c: string, lo: string, hi: string) =>
    `NOT (MIN(${c}) BETWEEN ${lo} AND ${hi}) OR NOT (MAX(${c}) BETWEEN ${lo} AND ${hi})`;
  const whole = (c: string) =>
    integer.has(c)
      ? ""
      : ` OR SUM(CASE WHEN ${c} <> ROUND(${c}) THEN 1 ELSE 0 END) > 0`;
  const present = (c: string, rest: string) =>
    notNull.has(c)
      ? rest === "" ? "1 = 0" : rest
      : `COUNT(${c}) < COUNT(*)${rest === "" ? "" : ` OR ${rest}`}`;
  // what makes some non-NULL value of the group bad ("": none can be)
  const bad = (f: DecisionField): string => {
    const c = f.column;
    const bounds = sqlBounds(f.rule);
    if (bounds !== null) {
      return `${range(c, bounds.lo, bounds.hi)}${bounds.whole ? whole(c) : ""}`;
    }
    if (f.rule.kind === "id") return emptyText(c, dialect);
    if (f.rule.kind === "text" || f.rule.kind === "boolean") return "";
    throw new Error(`no group form for ${c}: it is not grouped`);
  };
  return fields.map((f, i) => {
    const c = f.column;
    if (group.includes(c)) return `(${checks[i].sql})`;
    const n = f.nulls;
    const rest = bad(f);
    switch (n.reads) {
      case "never":
        return `(${present(c, rest)})`;
      case "value":
      case "absent":
        return rest === ""
          ? "(1 = 0)"
          : `(MIN(${c}) IS NOT NULL AND (${rest}))`;
      case "when": {
        if (!group.includes(n.column)) {
          throw new Error(`no group form for ${c}: ${n.column} is not grouped`);
        }
        const w = sqlNullWhen(f, fields);
        return `((${w.valued} AND (COUNT(${c}) < COUNT(*)${
          rest === "" ? "" : ` OR ${rest}`
        })) OR (${w.nulled} AND COUNT(${c}) > 0))`;
      }
    }
  });
}

/**
 * How many rows of a result of {@linkcode decisionCellsSql} (or of the
 * other cell queries) name a cluster, and how many rows there are: when the
 * first is neither 0 nor the second, some row breaks the rule that a run's
 * decisions name a cluster all or none, and when it is not 0,
 * {@linkcode clusterSplitTasksSql} looks for a task in two clusters.
 *
 * @param rows The result rows, in the query's column order.
 * @returns The rows naming a cluster, and all the rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { namedClusters } from "./duckdb_stats_sql.ts";
 *
 * const cell = (n: number, named: number) => ["m", "LOW", "X", "X", "auto", n, 0, 0, 0, 0, 1, "r", "r", 0, 0, named];
 * assert.deepEqual(namedClusters([cell(3, 3), cell(2, 0)]), { named: 3, rows: 5 });
 * ```
 */
export function namedClusters(
  rows: readonly (readonly unknown[])[],
): { named: number; rows: number } {
  let named = 0;
  let all = 0;
  for (const r of rows) {
    named += Number(r[15]);
    all += Number(r[5]);
  }
  return { named, rows: all };
}

/**
 * The ANSI SQL query that counts the tasks whose decisions name more than
 * one cluster: 0 when every task keeps to one.
 *
 * @param relation The relation to scan. Default: `decisions`.
 * @returns A query giving one row: `splitTasks`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusterSplitTasksSql } from "./duckdb_stats_sql.ts";
 *
 * assert.match(clusterSplitTasksSql("d"), /HAVING COUNT\(DISTINCT cluster\) > 1/);
 * ```
 */
export function clusterSplitTasksSql(relation = "decisions"): string {
  return `SELECT COUNT(*) AS splitTasks FROM (
  SELECT taskId FROM ${relation}
  WHERE cluster IS NOT NULL
  GROUP BY taskId
  HAVING COUNT(DISTINCT cluster) > 1
) split`;
}

/**
 * The ANSI SQL query that finds the first row, in the order `order` gives,
 * that breaks a cluster rule, as `ClusterCheck` finds it reading the rows
 * in that order: one that names a cluster while the first row names none
 * (or the other way round), or one whose cluster differs from that of the
 * first row of its task that names one. It gives at most one row: the row
 * (`rowNumber`, its key, `cluster`), then the row it disagrees with
 * (`earlierRow`, its key, `earlierCluster`).
 *
 * @param relation The relation to scan, with the decision columns.
 * @param order An expression numbering the rows in reading order (`file_row_number + 1`).
 * @returns The query text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstClusterBreakSql } from "./duckdb_stats_sql.ts";
 *
 * const sql = firstClusterBreakSql("d", "file_row_number + 1");
 * assert.match(sql, /SELECT file_row_number \+ 1 AS rowNumber/);
 * assert.match(sql, /ORDER BY rowNumber\nLIMIT 1$/);
 * ```
 */
export function firstClusterBreakSql(relation: string, order: string): string {
  const pair = (n: string, e: string) =>
    `${n}.rowNumber, ${n}.runId, ${n}.modelId, ${n}.taskId, ${n}.trial, ${n}.cluster,
    ${e}.rowNumber AS earlierRow, ${e}.runId AS earlierRunId, ${e}.modelId AS earlierModelId,
    ${e}.taskId AS earlierTaskId, ${e}.trial AS earlierTrial, ${e}.cluster AS earlierCluster`;
  return `WITH numbered AS (
  SELECT ${order} AS rowNumber, runId, modelId, taskId, trial, cluster
  FROM ${relation}
), firstRow AS (
  SELECT * FROM numbered ORDER BY rowNumber LIMIT 1
), taskFirst AS (
  SELECT taskId, MIN(rowNumber) AS firstNumber FROM numbered
  WHERE cluster IS NOT NULL GROUP BY taskId
), taskEarlier AS (
  SELECT numbered.* FROM numbered JOIN taskFirst
    ON numbered.taskId = taskFirst.taskId
    AND numbered.rowNumber = taskFirst.firstNumber
)
SELECT * FROM (
  SELECT ${pair("n", "f")}
  FROM numbered n CROSS JOIN firstRow f
  WHERE (CASE WHEN n.cluster IS NULL THEN 1 ELSE 0 END) <>
    (CASE WHEN f.cluster IS NULL THEN 1 ELSE 0 END)
  UNION ALL
  SELECT ${pair("n", "e")}
  FROM numbered n JOIN taskEarlier e ON n.taskId = e.taskId
  WHERE n.cluster <> e.cluster
) breaks
ORDER BY rowNumber
LIMIT 1`;
}

/**
 * Whether a result of {@linkcode decisionCellsSql} shows one runId and one
 * trial value per model, so that (with no repeated decision) its
 * `taskShare` = `n` is exact.
 *
 * @param rows The result rows, in the query's column order.
 * @returns `true` when each model has one runId and one trial value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { singleTrialCells } from "./duckdb_stats_sql.ts";
 *
 * const cell = (m: string, r0: string, r1: string, t: number) => [m, "LOW", "X", "X", "auto", 1, 0, 0, 0, 0, 1, r0, r1, t, t];
 * assert.equal(singleTrialCells([cell("a", "r", "r", 0), cell("a", "r", "r", 0)]), true);
 * assert.equal(singleTrialCells([cell("a", "r", "r", 0), cell("a", "r", "r", 1)]), false);
 * assert.equal(singleTrialCells([cell("a", "r", "s", 0)]), false);
 * ```
 */
export function singleTrialCells(
  rows: readonly (readonly unknown[])[],
): boolean {
  const seen = new Map<string, [string, string]>();
  for (const r of rows) {
    const [runLo, runHi, trialLo, trialHi] = r.slice(11, 15).map(String);
    if (runLo !== runHi || trialLo !== trialHi) return false;
    const model = String(r[0]);
    const before = seen.get(model);
    if (before === undefined) seen.set(model, [runLo, trialLo]);
    else if (before[0] !== runLo || before[1] !== trialLo) return false;
  }
  return true;
}
