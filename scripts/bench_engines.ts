// Benchmark: the engines of `score`, each peer measured in the same run.
//
//   1. `lossbook score --json` on N valid JSONL decisions (default 1,000,000),
//      whole process, in-process streaming reader and `--engine duckdb`
//      (DuckDB with lossbook's checks), against DuckDB's bare `read_json` +
//      `GROUP BY` over the same
//      fields in this already-started process (the query's own time), and
//      against pandas (`/usr/bin/python3`: `read_json(lines=True)` + groupby).
//   2. `lossbook score --engine postgres` on PG_N rows (default 10,000,000)
//      in a table, whole process, against `psql` running the bare aggregate
//      (`GROUP BY` with the counts and sums, no row checks, no duplicate
//      scan). The server is LOSSBOOK_TEST_PG_DSN, or a throwaway one started
//      with scripts/pg_throwaway.sh. Then again with a primary key on the
//      decision key, which replaces score's duplicate scan, and on a table
//      made with the row checks as CHECK constraints and the primary key
//      (`decisionsTableSql(..., { checks: true, primaryKey: true })`, same
//      rows), on which score leaves the checks to the database. Each pair
//      runs PG_ROUNDS times interleaved (psql, score, psql, score); the
//      fastest run of each is reported.
//   2b. EXPLAIN (ANALYZE, BUFFERS) on PG_EXPLAIN_N rows (default 2,000,000)
//      of a constrained table: the bare aggregate, the checked aggregate
//      score runs on a table without the constraints (decisionCellsSql) and
//      the lean one it runs on a constrained table without an index on
//      (runId, modelId) (decisionCellsWithoutChecksSql) and the one it runs
//      with one (decisionCellsByKeySql), under score's session settings,
//      interleaved PG_ROUNDS + 1 times: the server's execution times.
//   3. 2,000,000- and 10,000,000-line JSONL through `score --engine memory`
//      (the streaming reader): peak RSS and rows/s.
//
// Each part checks free disk first and removes what it writes. Prints one
// JSON document. Usage:
//   deno run -A scripts/bench_engines.ts [--n 1000000] [--pg-n 10000000] [--pg-rounds 2]
//     [--pg-explain-n 2000000] [--stream 2000000,10000000]
//     [--skip jsonl,pg,pg-explain,stream] [--dir /tmp]
//     [--repeat 3]   (JSONL: score and DuckDB's query, interleaved, best and median)
import { parseArgs } from "node:util";
import { SEVERITIES } from "../lib/costs/severity.ts";
import { writeBenchDecisions } from "../bench/_decisions.ts";
import { needDisk } from "../bench/_disk.ts";
import { withDuckDB } from "../lib/read/duckdb_session.ts";
import { duckdbFileLiteral } from "../lib/read/duckdb_session.ts";
import { decisionsTableSql } from "../lib/sql/decision_sql_export.ts";
import {
  decisionCellsByKeySql,
  decisionCellsSql,
  decisionCellsWithoutChecksSql,
} from "../lib/sql/duckdb_stats_sql.ts";
import { postgresCellOptions } from "../lib/sql/postgres_stats.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    n: { type: "string", default: "1000000" },
    "pg-n": { type: "string", default: "10000000" },
    "pg-rounds": { type: "string", default: "2" },
    "pg-explain-n": { type: "string", default: "2000000" },
    stream: { type: "string", default: "2000000,10000000" },
    skip: { type: "string", default: "" },
    dir: { type: "string", default: "/tmp" },
    repeat: { type: "string", default: "3" },
  },
});
const repeat = Number(values.repeat);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1
    ? s[(s.length - 1) / 2]
    : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
const skip = new Set(values.skip.split(",").filter((s) => s !== ""));
const root = new URL("../", import.meta.url).pathname;
const BYTES_PER_LINE = 280;

const CLASSES: Record<string, string[]> = {
  HIGH: ["AMOUNT_MISMATCH", "FX_CONVERSION_ERROR", "BENEFICIARY_MISMATCH"],
  MEDIUM: ["VALUE_DATE_MISMATCH", "MISSING_MESSAGE", "PARTIAL_MATCH"],
  LOW: ["DUPLICATE", "FIELD_CORRUPTION"],
  CRITICAL: ["HERSTATT_EXPOSURE"],
};

/** Seeded valid decisions, two models, one trial per task. */
async function generate(file: string, n: number): Promise<void> {
  await writeBenchDecisions(file, n, { seed: 20261201, classes: CLASSES });
}

interface Timed {
  seconds: number;
  peakRssMB: number;
  stdout: string;
}

/** Run a command under /usr/bin/time: wall seconds and peak RSS. */
async function timed(cmd: string, args: string[], env = {}): Promise<Timed> {
  const t = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%M", cmd, ...args],
    cwd: root,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - t) / 1000;
  const stderr = new TextDecoder().decode(out.stderr).trim();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${stderr}`);
  const kb = Number(stderr.split("\n").at(-1));
  return {
    seconds,
    peakRssMB: kb / 1024,
    stdout: new TextDecoder().decode(out.stdout),
  };
}

const LOSSBOOK = [
  "run",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-ffi",
  "--allow-sys",
  "--allow-run",
  "--allow-net",
  `${root}cli.ts`,
];

/** `lossbook score ARGS --json`, timed, in a process of its own. */
function scoreJson(args: string[]): Promise<Timed> {
  return timed(Deno.execPath(), [...LOSSBOOK, "score", ...args, "--json"]);
}

/**
 * Generate `n` seeded decisions as JSONL in a temporary folder (after
 * checking free disk), run `measure` on the file and its size, and remove
 * the folder whatever happens.
 */
async function withBenchJsonl<T>(
  n: number,
  what: string,
  measure: (file: string, size: number) => Promise<T>,
): Promise<T> {
  await needDisk(values.dir, n * BYTES_PER_LINE, what);
  const dir = await Deno.makeTempDir({ dir: values.dir, prefix: "lbbench-" });
  const file = `${dir}/decisions.jsonl`;
  try {
    await generate(file, n);
    return await measure(file, (await Deno.stat(file)).size);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const PANDAS = `
import sys, time, json
import pandas as pd
t = time.perf_counter()
df = pd.read_json(sys.argv[1], lines=True)
df["pErr"] = 1 - df["pCorrect"]
g = df.groupby(["modelId", "severity", "trueClass", "predClass", "action"]).agg(n=("runId", "size"), pErrorSum=("pErr", "sum"))
print(json.dumps({"seconds": time.perf_counter() - t, "cells": len(g), "n": int(g["n"].sum())}))
`;

const BARE_GROUP = `SELECT modelId, severity, trueClass, predClass, action,
  COUNT(*) AS n, SUM(1.0E0 - pCorrect) AS pErrorSum,
  COUNT(*) - COUNT(pCorrect) AS pMissing,
  SUM(CASE WHEN parseOk THEN 0 ELSE 1 END) AS parseFailures`;

const report: Record<string, unknown> = {
  loadAverage: (await Deno.readTextFile("/proc/loadavg")).trim(),
  cores: navigator.hardwareConcurrency,
};

/** Stop with what to install when the pandas peer is missing, before any work. */
async function needPandas(): Promise<void> {
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", "import pandas"],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => ({ success: false }));
  if (!out.success) {
    throw new Error(
      "the JSONL benchmark runs pandas as a peer: install Debian's python3-pandas (apt-get install python3-pandas), or pass --skip jsonl",
    );
  }
}

if (!skip.has("jsonl")) {
  await needPandas();
  await withBenchJsonl(
    Number(values.n),
    "JSONL benchmark",
    async (file, size) => {
      // DuckDB's bare typed reader and GROUP BY, in this started process
      const duckQuery = () =>
        withDuckDB(async (c) => {
          await c.run("SELECT 1");
          const t = performance.now();
          const rows = (await c.runAndReadAll(
            `${BARE_GROUP} FROM read_json(${
              duckdbFileLiteral(file)
            }, format = 'newline_delimited', columns = {modelId: 'VARCHAR', severity: 'VARCHAR', trueClass: 'VARCHAR', predClass: 'VARCHAR', action: 'VARCHAR', pCorrect: 'DOUBLE', parseOk: 'BOOLEAN'}) GROUP BY ALL`,
          )).getRows();
          return {
            seconds: (performance.now() - t) / 1000,
            n: rows.reduce((s, r) => s + Number(r[5]), 0),
          };
        });
      // interleaved, so that a busy moment hits both: ours, peer, ours, ...
      const scores: Timed[] = [];
      const ducks: Array<{ seconds: number; n: number }> = [];
      for (let r = 0; r < repeat; r++) {
        scores.push(await scoreJson([file]));
        ducks.push(await duckQuery());
      }
      const score = scores.reduce((a, b) => a.seconds <= b.seconds ? a : b);
      const duck = ducks.reduce((a, b) => a.seconds <= b.seconds ? a : b);
      const viaDuckdb = await scoreJson([file, "--engine", "duckdb"]);
      const decisions = JSON.parse(score.stdout).decisions;
      const pandasRun = await timed("/usr/bin/python3", ["-c", PANDAS, file]);
      const pandas = JSON.parse(pandasRun.stdout);
      if (duck.n !== decisions || pandas.n !== decisions) {
        throw new Error(
          `peers disagree: score ${decisions}, duckdb ${duck.n}, pandas ${pandas.n}`,
        );
      }
      report.jsonl = {
        decisions,
        megabytes: Math.round(size / 1e6),
        repeat,
        scoreSeconds: score.seconds,
        scoreSecondsMedian: median(scores.map((t) => t.seconds)),
        scorePeakRssMB: score.peakRssMB,
        scoreDuckdbEngineSeconds: viaDuckdb.seconds,
        scoreDuckdbEnginePeakRssMB: viaDuckdb.peakRssMB,
        ratioScoreDuckdbEngineToDuckdb: viaDuckdb.seconds / duck.seconds,
        duckdbBareQuerySeconds: duck.seconds,
        duckdbBareQuerySecondsMedian: median(ducks.map((t) => t.seconds)),
        pandasSeconds: pandas.seconds,
        pandasProcessSeconds: pandasRun.seconds,
        ratioScoreToDuckdb: score.seconds / duck.seconds,
        ratioScoreToDuckdbMedian: median(scores.map((t) => t.seconds)) /
          median(ducks.map((t) => t.seconds)),
        ratioPandasToScore: pandasRun.seconds / score.seconds,
      };
      console.error(JSON.stringify(report.jsonl));
    },
  );
}

/** The server of LOSSBOOK_TEST_PG_DSN, or a throwaway one: its DSN and how to stop it. */
async function pgServer(): Promise<{ dsn: string; stop: () => Promise<void> }> {
  const dsn = Deno.env.get("LOSSBOOK_TEST_PG_DSN");
  if (dsn !== undefined) return { dsn, stop: () => Promise.resolve() };
  const out = await new Deno.Command("bash", {
    args: [`${root}scripts/pg_throwaway.sh`, "start"],
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const env = new TextDecoder().decode(out.stdout);
  const started = /LOSSBOOK_PG_DIR=([^;]+);/.exec(env)![1];
  return {
    dsn: /LOSSBOOK_TEST_PG_DSN='([^']+)'/.exec(env)![1],
    stop: async () => {
      await new Deno.Command("bash", {
        args: [`${root}scripts/pg_throwaway.sh`, "stop", started],
      }).output();
    },
  };
}

/** `psql DSN -c SQL`, timed, quiet, stopping on the first error. */
function psqlOn(dsn: string, sql: string): Promise<Timed> {
  return timed("psql", [
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

/** Create `table` (with the layout options), fill it with `n` bench rows, VACUUM ANALYZE. */
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

if (!skip.has("pg")) {
  const n = Number(values["pg-n"]);
  await needDisk(values.dir, n * 250, "PostgreSQL benchmark");
  const server = await pgServer();
  const dsn = server.dsn;
  const table = `lbbench_${Date.now()}`;
  const constrained = `${table}_checked`;
  const psql = (sql: string) => psqlOn(dsn, sql);
  try {
    await benchTable(dsn, table, n);
    const scorePostgres = (t: string) =>
      scoreJson(["--engine", "postgres", "--dsn", dsn, "--table", t]);
    // interleaved (peer, ours, peer, ours, ...): the fastest of each
    const rounds = Number(values["pg-rounds"]);
    const interleaved = async (t: string) => {
      const [bare, score]: number[][] = [[], []];
      for (let r = 0; r < rounds; r++) {
        bare.push((await psql(bareAggregateSql(t))).seconds);
        const run = await scorePostgres(t);
        const decisions = JSON.parse(run.stdout).decisions;
        if (decisions !== n) throw new Error(`score read ${decisions} of ${n}`);
        score.push(run.seconds);
      }
      return { bare: Math.min(...bare), score: Math.min(...score) };
    };
    const plain = await interleaved(table);
    // with a primary key on the decision key, the duplicate scan is not needed
    await psql(
      `ALTER TABLE ${table} ADD PRIMARY KEY (runId, modelId, taskId, trial)`,
    );
    const keyed = await interleaved(table);
    // the same rows in a table whose CHECK constraints are the row checks:
    // score leaves the checks to the database (one table on disk at a time)
    await psql(`DROP TABLE ${table}`);
    await benchTable(dsn, constrained, n, { checks: true, primaryKey: true });
    const checked = await interleaved(constrained);
    report.postgres = {
      rows: n,
      rounds,
      scoreSeconds: plain.score,
      psqlBareAggregateSeconds: plain.bare,
      ratioScoreToPsql: plain.score / plain.bare,
      scorePrimaryKeySeconds: keyed.score,
      psqlBareAggregateAgainSeconds: keyed.bare,
      ratioScorePrimaryKeyToPsql: keyed.score / keyed.bare,
      scoreConstrainedSeconds: checked.score,
      psqlBareAggregateConstrainedSeconds: checked.bare,
      ratioScoreConstrainedToPsql: checked.score / checked.bare,
    };
    console.error(JSON.stringify(report.postgres));
  } finally {
    await psql(`DROP TABLE IF EXISTS ${table}`).catch(() => {});
    await psql(`DROP TABLE IF EXISTS ${constrained}`).catch(() => {});
    await server.stop();
  }
}

if (!skip.has("pg-explain")) {
  const n = Number(values["pg-explain-n"]);
  await needDisk(values.dir, n * 250, "PostgreSQL EXPLAIN benchmark");
  const server = await pgServer();
  const table = `lbexplain_${Date.now()}`;
  try {
    await benchTable(server.dsn, table, n, { checks: true, primaryKey: true });
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
      bareAggregate: bareAggregateSql(table),
      checkedCells: decisionCellsSql(table, options),
      leanCells: decisionCellsWithoutChecksSql(table, { dialect: "postgres" }),
      byKeyCells: decisionCellsByKeySql(table),
    };
    // score's session settings (postgres_stats.ts), then the plan's times
    const explain = async (sql: string) => {
      const out = await psqlOn(
        server.dsn,
        `SET jit_inline_above_cost = -1; SET jit_optimize_above_cost = -1; EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
      );
      const ms = (label: string) =>
        Number(new RegExp(`${label}: ([0-9.]+) ms`).exec(out.stdout)?.[1]);
      const buffers = /Buffers: (.*)/.exec(out.stdout)?.[1] ?? null;
      return { executionMs: ms("Execution Time"), buffers };
    };
    const rounds = Number(values["pg-rounds"]) + 1;
    const times: Record<string, number[]> = {};
    const buffers: Record<string, string | null> = {};
    for (let r = 0; r < rounds; r++) {
      for (const [name, sql] of Object.entries(queries)) {
        const got = await explain(sql);
        (times[name] ??= []).push(got.executionMs);
        buffers[name] = got.buffers;
      }
    }
    const best = (name: string) => Math.min(...times[name]);
    report.postgresExplain = {
      rows: n,
      rounds,
      executionMs: times,
      bestExecutionMs: Object.fromEntries(
        Object.keys(queries).map((k) => [k, best(k)]),
      ),
      ratioCheckedToBare: best("checkedCells") / best("bareAggregate"),
      ratioLeanToBare: best("leanCells") / best("bareAggregate"),
      ratioByKeyToBare: best("byKeyCells") / best("bareAggregate"),
      topBuffers: buffers,
    };
    console.error(JSON.stringify(report.postgresExplain));
  } finally {
    await psqlOn(server.dsn, `DROP TABLE IF EXISTS ${table}`).catch(() => {});
    await server.stop();
  }
}

if (!skip.has("stream")) {
  const out: unknown[] = [];
  for (const n of values.stream.split(",").map(Number)) {
    await withBenchJsonl(n, `streaming ${n}`, async (file, size) => {
      const r = await scoreJson([file, "--engine", "memory"]);
      const decisions = JSON.parse(r.stdout).decisions;
      out.push({
        lines: n,
        megabytes: Math.round(size / 1e6),
        decisions,
        seconds: r.seconds,
        rowsPerSecond: Math.round(decisions / r.seconds),
        peakRssMB: Math.round(r.peakRssMB),
      });
      console.error(JSON.stringify(out.at(-1)));
    });
  }
  report.streaming = out;
}

report.loadAverageAfter = (await Deno.readTextFile("/proc/loadavg")).trim();
console.log(JSON.stringify(report, null, 2));
