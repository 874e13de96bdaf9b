// `lossbook score --engine postgres` on a table of 10,000,000 rows, whole
// process, against `psql` running the bare aggregate (GROUP BY with the
// counts and sums, no row checks, no duplicate scan): on a plain table, then
// with a primary key on the decision key (which replaces score's duplicate
// scan), then on a table made with the row checks as CHECK constraints and
// the primary key, on which score leaves the checks to the database. And
// EXPLAIN (ANALYZE, BUFFERS) on 2,000,000 rows of a constrained table: the
// server's own execution time of the bare aggregate and of each query score
// builds (the checked one for a table without the constraints, the lean one
// for a constrained table, the by-key one used with a (runId, modelId)
// index), under score's session settings.
//
// The server is LOSSBOOK_TEST_PG_DSN, else a throwaway one started with
// scripts/pg_throwaway.sh; without psql or a server the cases are skipped.
// The rows are made by the server (every column a function of the row
// number) and dropped at the end; nothing is cached, the server is not.
import {
  type CaseInfo,
  type Context,
  type Group,
  roundsOf,
  rowsOf,
} from "../_case.ts";
import { needDisk } from "../_disk.ts";
import {
  type ChildRun,
  maxOrNull,
  type Result,
  resultOf,
  rssSource,
  runTimed,
} from "../_measure.ts";
import { SEVERITIES } from "../../lib/costs/severity.ts";
import { decisionsTableSql } from "../../lib/sql/decision_sql_export.ts";
import {
  decisionCellsByKeySql,
  decisionCellsSql,
  decisionCellsWithoutChecksSql,
} from "../../lib/sql/duckdb_stats_sql.ts";
import { postgresCellOptions } from "../../lib/sql/postgres_stats.ts";
import { BARE_GROUP } from "../_duckdb_query.ts";
import { scoreProcess } from "./jsonl.ts";

// bytes a row on the server, with its index, from earlier runs
const BYTES_PER_ROW = 250;

/** The server of LOSSBOOK_TEST_PG_DSN, or a throwaway one; null when neither. */
async function pgServer(
  ctx: Context,
): Promise<{ dsn: string; stop: () => Promise<void> } | string> {
  const psql = await new Deno.Command("psql", { args: ["--version"] }).output()
    .catch(() => null);
  if (psql === null || !psql.success) return "no psql on PATH";
  const dsn = Deno.env.get("LOSSBOOK_TEST_PG_DSN");
  if (dsn !== undefined) return { dsn, stop: () => Promise.resolve() };
  const script = `${ctx.root}scripts/pg_throwaway.sh`;
  const out = await new Deno.Command("bash", { args: [script, "start"] })
    .output();
  if (!out.success) {
    return `LOSSBOOK_TEST_PG_DSN is not set and scripts/pg_throwaway.sh could not start a server: ${
      new TextDecoder().decode(out.stderr).trim()
    }`;
  }
  const env = new TextDecoder().decode(out.stdout);
  const started = /LOSSBOOK_PG_DIR=([^;]+);/.exec(env)![1];
  ctx.log(`started a throwaway PostgreSQL server in ${started}`);
  return {
    dsn: /LOSSBOOK_TEST_PG_DSN='([^']+)'/.exec(env)![1],
    stop: async () => {
      await new Deno.Command("bash", { args: [script, "stop", started] })
        .output();
    },
  };
}

/** `psql DSN -c SQL`, timed, quiet, stopping on the first error. */
function psqlOn(dsn: string, sql: string): Promise<ChildRun> {
  return runTimed("psql", [
    dsn,
    "-X",
    "-q",
    "-t",
    "-A",
    "-v",
    "ON_ERROR_STOP=1",
    "-c",
    sql,
  ]);
}

// seeded rows made by the server: every column a function of i
function benchRowsSql(table: string, n: number): string {
  const pick = (list: string[], expr: string) =>
    `(ARRAY[${
      list.map((s) => `'${s}'`).join(",")
    }])[1 + (${expr}) % ${list.length}]`;
  return `INSERT INTO ${table} SELECT 'bench',
  CASE WHEN i % 2 = 0 THEN 'frontier' ELSE 'small' END,
  'task-' || (i / 2), 0,
  ${pick([...SEVERITIES], "(i * 7919) % 1000")},
  ${
    pick(
      ["MATCH", "MATCH", "AMOUNT_MISMATCH", "DUPLICATE"],
      "(i * 104729) % 997",
    )
  },
  ${
    pick(
      ["MATCH", "MATCH", "MATCH", "AMOUNT_MISMATCH"],
      "(i * 1299709) % 991",
    )
  },
  true, ((i * 31337) % 1000) / 1000.0, CASE WHEN i % 20 = 0 THEN 'escalate' ELSE 'auto' END,
  'complete', 0.0004, 'resolved', NULL, NULL, NULL, NULL, NULL, NULL
FROM generate_series(1::bigint, ${n}::bigint) AS s(i)`;
}

/** Create `table` (with the layout options), fill it with `n` rows, VACUUM ANALYZE. */
async function benchTable(
  dsn: string,
  table: string,
  n: number,
  options: { checks?: boolean; primaryKey?: boolean } = {},
): Promise<void> {
  await psqlOn(dsn, decisionsTableSql("postgres", table, options));
  await psqlOn(dsn, benchRowsSql(table, n));
  await psqlOn(dsn, `VACUUM ANALYZE ${table}`);
}

const bareAggregateSql = (table: string) =>
  `${BARE_GROUP} FROM ${table} GROUP BY modelId, severity, trueClass, predClass, action`;

const N = 10_000_000;
const LAYOUTS = [
  { suffix: "", layout: "a plain table" },
  { suffix: "-pk", layout: "the same table with a primary key" },
  {
    suffix: "-checked",
    layout:
      "a table with the row checks as CHECK constraints and a primary key",
  },
] as const;
const CASES: CaseInfo[] = LAYOUTS.flatMap(({ suffix, layout }) => [
  {
    name: `score-pg${suffix}`,
    what: `lossbook score --engine postgres, whole process, on ${layout}`,
    rows: N,
    peers: [`psql-bare${suffix}`],
  },
  {
    name: `psql-bare${suffix}`,
    what: `psql -c the bare aggregate, whole process, on ${layout}`,
    rows: N,
  },
]);

/** The PostgreSQL group: score against psql, three table layouts. */
export const postgres: Group = {
  name: "pg",
  cases: CASES,
  rounds: 2,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    const n = rowsOf(ctx, CASES[0]);
    const server = await pgServer(ctx);
    if (typeof server === "string") {
      ctx.skip(infos.map((c) => c.name), server);
      return [];
    }
    const table = `lbbench_${Date.now()}`;
    const constrained = `${table}_checked`;
    const dsn = server.dsn;
    const source =
      `${await rssSource()} (the client process; the server's memory is not counted)`;
    const out: Result[] = [];
    try {
      // a throwaway server keeps its data under /tmp
      await needDisk("/tmp", n * BYTES_PER_ROW, "pg (the server's table)");
      const interleaved = async (t: string, suffix: string) => {
        const mine = infos.filter((c) =>
          c.name === `score-pg${suffix}` || c.name === `psql-bare${suffix}`
        );
        const runs = new Map(mine.map((c) => [c.name, [] as ChildRun[]]));
        const rounds = roundsOf(ctx, postgres);
        // peer, ours, peer, ours, ...
        for (let r = 0; r < rounds; r++) {
          for (const c of [...mine].reverse()) {
            ctx.log(`${c.name}, round ${r + 1} of ${rounds}`);
            runs.get(c.name)!.push(
              c.name.startsWith("psql")
                ? await psqlOn(dsn, bareAggregateSql(t))
                : await scoreProcess(
                  ctx,
                  ["--engine", "postgres", "--dsn", dsn, "--table", t],
                  n,
                ),
            );
          }
        }
        for (const c of mine) {
          const taken = runs.get(c.name)!;
          out.push(resultOf({
            name: c.name,
            what: c.what,
            timing: "process",
            rows: n,
            peakRssBytes: maxOrNull(taken.map((x) => x.peakRssBytes)),
            rssSource: source,
            peers: c.peers?.filter((p) => selected.has(p)),
          }, taken.map((x) => x.seconds)));
        }
      };
      const wants = (suffix: string) =>
        infos.some((c) =>
          c.name.endsWith(`pg${suffix}`) || c.name.endsWith(`bare${suffix}`)
        );
      if (wants("") || wants("-pk")) {
        ctx.log(`filling ${table} with ${n.toLocaleString("en-US")} rows`);
        await benchTable(dsn, table, n);
        if (wants("")) await interleaved(table, "");
        if (wants("-pk")) {
          // with a primary key on the decision key, the duplicate scan is not needed
          await psqlOn(
            dsn,
            `ALTER TABLE ${table} ADD PRIMARY KEY (runId, modelId, taskId, trial)`,
          );
          await interleaved(table, "-pk");
        }
        await psqlOn(dsn, `DROP TABLE ${table}`);
      }
      if (wants("-checked")) {
        // one table on disk at a time
        ctx.log(
          `filling ${constrained} with ${n.toLocaleString("en-US")} rows`,
        );
        await benchTable(dsn, constrained, n, {
          checks: true,
          primaryKey: true,
        });
        await interleaved(constrained, "-checked");
      }
    } finally {
      await psqlOn(dsn, `DROP TABLE IF EXISTS ${table}`).catch(() => {});
      await psqlOn(dsn, `DROP TABLE IF EXISTS ${constrained}`).catch(() => {});
      await server.stop();
    }
    return out;
  },
};

const EXPLAIN_N = 2_000_000;
const EXPLAIN_CASES: CaseInfo[] = [
  {
    name: "explain-bare",
    what: "server execution time: the bare aggregate",
    rows: EXPLAIN_N,
  },
  {
    name: "explain-checked",
    what: "server execution time: score's checked cells (decisionCellsSql)",
    rows: EXPLAIN_N,
    peers: ["explain-bare"],
  },
  {
    name: "explain-lean",
    what:
      "server execution time: score's cells without checks, no (runId, modelId) index",
    rows: EXPLAIN_N,
    peers: ["explain-bare"],
  },
  {
    name: "explain-bykey",
    what: "server execution time: score's by-key cells (decisionCellsByKeySql)",
    rows: EXPLAIN_N,
    peers: ["explain-bare"],
  },
];

/** The EXPLAIN group: the server's own times of score's queries. */
export const explain: Group = {
  name: "pg-explain",
  cases: EXPLAIN_CASES,
  rounds: 3,
  async run(ctx, selected) {
    const infos = EXPLAIN_CASES.filter((c) => selected.has(c.name));
    const n = rowsOf(ctx, EXPLAIN_CASES[0]);
    const server = await pgServer(ctx);
    if (typeof server === "string") {
      ctx.skip(infos.map((c) => c.name), server);
      return [];
    }
    const table = `lbexplain_${Date.now()}`;
    try {
      await needDisk(
        "/tmp",
        n * BYTES_PER_ROW,
        "pg-explain (the server's table)",
      );
      ctx.log(`filling ${table} with ${n.toLocaleString("en-US")} rows`);
      await benchTable(server.dsn, table, n, {
        checks: true,
        primaryKey: true,
      });
      // the checked query as score builds it for this table (its column
      // types and NOT NULL columns, read from the catalog as score reads them)
      const catalog = (await psqlOn(
        server.dsn,
        `SELECT attname, atttypid, attnotnull FROM pg_attribute WHERE attrelid = '${table}'::regclass AND attnum > 0 AND NOT attisdropped`,
      )).stdout.trim().split("\n").map((l) => l.split("|"));
      const options = postgresCellOptions(
        catalog.map(([name, type]) => ({ name, type: Number(type) })),
        new Set(catalog.filter((c) => c[2] === "t").map((c) => c[0])),
      );
      const queries: Record<string, string> = {
        "explain-bare": bareAggregateSql(table),
        "explain-checked": decisionCellsSql(table, options),
        "explain-lean": decisionCellsWithoutChecksSql(table, {
          dialect: "postgres",
        }),
        "explain-bykey": decisionCellsByKeySql(table),
      };
      // score's session settings (postgres_stats.ts), then the plan's times
      const explainOnce = async (sql: string) => {
        const got = await psqlOn(
          server.dsn,
          `SET jit_inline_above_cost = -1; SET jit_optimize_above_cost = -1; EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
        );
        const ms = Number(/Execution Time: ([0-9.]+) ms/.exec(got.stdout)?.[1]);
        if (!Number.isFinite(ms)) {
          throw new Error(
            `no execution time in EXPLAIN's output:\n${got.stdout}`,
          );
        }
        return {
          seconds: ms / 1000,
          buffers: /Buffers: (.*)/.exec(got.stdout)?.[1] ?? null,
        };
      };
      const rounds = roundsOf(ctx, explain);
      const times = new Map(infos.map((c) => [c.name, [] as number[]]));
      const buffers = new Map<string, string | null>();
      for (let r = 0; r < rounds; r++) {
        for (const c of infos) {
          ctx.log(`${c.name}, round ${r + 1} of ${rounds}`);
          const got = await explainOnce(queries[c.name]);
          times.get(c.name)!.push(got.seconds);
          buffers.set(c.name, got.buffers);
        }
      }
      return infos.map((c) =>
        resultOf({
          name: c.name,
          what: c.what,
          timing: "server",
          rows: n,
          peakRssBytes: null,
          rssSource: null,
          peers: c.peers?.filter((p) => selected.has(p)),
          extra: { topBuffers: buffers.get(c.name) },
        }, times.get(c.name)!)
      );
    } finally {
      await psqlOn(server.dsn, `DROP TABLE IF EXISTS ${table}`).catch(() => {});
      await server.stop();
    }
  },
};
