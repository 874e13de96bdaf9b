// `lossbook export-sql`: the decision SQL for someone else's warehouse.
import {
  decisionSqlExport,
  decisionsTableSql,
  SQL_DIALECTS,
  type SqlDialect,
} from "../lib/sql/decision_sql_export.ts";
import { checkTableName } from "../lib/sql/postgres_stats.ts";
import { type Command, parseFlags, UsageError } from "./_command.ts";
import { commandHelp } from "./_help.ts";
import { CLUSTER_OPTION, JSON_OPTION } from "./_options.ts";
import { parseUnit } from "../lib/decision/cluster.ts";

/** The options of `export-sql`, as `--help` lists them and `parseFlags` reads them. */
const EXPORT_SQL_OPTIONS = {
  dialect: {
    type: "string",
    value: "duckdb|postgres|sqlite|clickhouse",
    doc: "the SQL dialect to print",
    required: true,
  },
  table: {
    type: "string",
    value: "NAME",
    doc: "name of the decisions table in the SQL",
    byDefault: "decisions",
  },
  cluster: {
    ...CLUSTER_OPTION,
    value: "taskId|cluster",
    doc:
      "the unit the aggregate counts: taskId (its window partitioned by modelId, taskId) or cluster (by modelId, cluster, with the query counting tasks that name two clusters, which must be 0)",
    byDefault: "taskId",
  },
  constraints: {
    type: "boolean",
    doc:
      "also print the table layout with the row checks as CHECK constraints and PRIMARY KEY (runId, modelId, taskId, trial); with --json as constrainedTable (not on clickhouse, whose primary key does not refuse a repeated key)",
  },
  json: JSON_OPTION,
} as const;

/** The `export-sql` command. */
export const exportSqlCommand: Command = {
  summary:
    "Print the decision table layout, aggregate, row-check and duplicate-key SQL for DuckDB, PostgreSQL, SQLite or ClickHouse",
  ...commandHelp({
    forms: [{ command: "export-sql", options: EXPORT_SQL_OPTIONS }],
  }),
  example: "deno task lossbook export-sql --dialect postgres --table decisions",
  run(args) {
    const { values, positionals } = parseFlags(
      "export-sql",
      args,
      EXPORT_SQL_OPTIONS,
    );
    if (positionals.length > 0) {
      throw new UsageError(
        `export-sql takes no files, got ${positionals.join(", ")}`,
      );
    }
    const dialect = values.dialect as SqlDialect;
    if (!SQL_DIALECTS.includes(dialect)) {
      throw new UsageError(
        `--dialect must be one of ${SQL_DIALECTS.join(", ")}, got ${
          values.dialect === undefined
            ? "nothing"
            : JSON.stringify(values.dialect)
        }`,
      );
    }
    let table: string;
    try {
      table = checkTableName(values.table ?? "decisions");
    } catch (error) {
      throw new UsageError(`--table: ${(error as Error).message}`);
    }
    if (values.constraints && dialect === "clickhouse") {
      throw new UsageError(
        "--constraints is not available on clickhouse: its primary key does not refuse a repeated key; the repeatedKeys query finds them",
      );
    }
    let unit;
    try {
      unit = parseUnit(values.cluster) ?? "taskId";
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const sql = decisionSqlExport(dialect, table, unit);
    const constrained = values.constraints
      ? decisionsTableSql(dialect, table, { checks: true, primaryKey: true })
      : null;
    if (values.json) {
      console.log(JSON.stringify(
        constrained === null ? sql : { ...sql, constrainedTable: constrained },
        null,
        2,
      ));
      return Promise.resolve(0);
    }
    const part = (title: string, text: string) => `-- ${title}\n${text};\n`;
    console.log([
      `-- lossbook decision SQL for ${dialect}, table ${table}. The queries are the`,
      "-- same text on DuckDB, PostgreSQL and SQLite, and on ClickHouse but for the",
      "-- aggregate's Int128 sum (all four run in lossbook's tests, ClickHouse as",
      "-- chdb); identifiers are unquoted. Refuse the statistics when any",
      "-- invalidRows is not 0 or repeatedKeys is not 0.",
      "",
      part("the table layout the queries read", sql.createTable),
      ...(constrained === null ? [] : [
        part(
          "the same layout, constrained: the row checks as CHECK constraints (a row they\n-- refuse cannot be stored), the decision key as primary key",
          constrained,
        ),
      ]),
      part(
        `sufficient statistics per (modelId, severity, trueClass, predClass, action), with invalidRows${
          unit === "cluster"
            ? "; taskTrials and unitCostly count each model's rows per cluster"
            : ""
        }`,
        sql.aggregate,
      ),
      ...(sql.clusterSplitTasks === undefined ? [] : [
        part(
          "tasks whose rows name two clusters: refuse the statistics unless 0 (and unless every row names a cluster)",
          sql.clusterSplitTasks,
        ),
      ]),
      part(
        "the first rows failing a row check (checkN = 1: the row fails check N)",
        sql.rowChecks,
      ),
      part("decision keys that repeat, and surplus rows", sql.duplicateKeys),
      part("the first repeated keys", sql.repeatedKeys),
    ].join("\n"));
    return Promise.resolve(0);
  },
};
