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
//      decision key, which replaces score's duplicate scan. Each pair runs
//      PG_ROUNDS times interleaved (psql, score, psql, score); the fastest
//      run of each is reported.
//   3. 2,000,000- and 10,000,000-line JSONL through `score --engine memory`
//      (the streaming reader): peak RSS and rows/s.
//
// Each part checks free disk first and removes what it writes. Prints one
// JSON document. Usage:
//   deno run -A scripts/bench_engines.ts [--n 1000000] [--pg-n 10000000] [--pg-rounds 2]
//     [--stream 2000000,10000000] [--skip jsonl,pg,stream] [--dir /tmp]
//     [--repeat 3]   (JSONL: score and DuckDB's query, interleaved, best and median)
import { parseArgs } from "node:util";
import { SEVERITIES } from "../lib/costs/severity.ts";
import { writeBenchDecisions } from "./_bench_decisions.ts";
import { withDuckDB } from "../lib/runs/duckdb_session.ts";
import { duckdbFileLiteral } from "../lib/runs/duckdb_session.ts";
import { decisionsTableSql } from "../lib/runs/decision_sql_export.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    n: { type: "string", default: "1000000" },
    "pg-n": { type: "string", default: "10000000" },
    "pg-rounds": { type: "string", default: "2" },
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

async function freeBytes(dir: string): Promise<number> {
  const out = await new Deno.Command("df", { args: ["-Pk", dir] }).output();
  const line = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!;
  return Number(line.split(/\s+/)[3]) * 1024;
}

async function needDisk(dir: string, bytes: number, what: string) {
  const free = await freeBytes(dir);
  if (free < bytes * 1.5) {
    throw new Error(
      `${what}: needs ${(bytes / 1e9).toFixed(1)} GB (x1.5) in ${dir}, ${
        (free / 1e9).toFixed(1)
      } GB free`,
    );
  }
}

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

if (!skip.has("jsonl")) {
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

if (!skip.has("pg")) {
  const n = Number(values["pg-n"]);
  await needDisk(values.dir, n * 250, "PostgreSQL benchmark");
  let dsn = Deno.env.get("LOSSBOOK_TEST_PG_DSN");
  let started: string | null = null;
  if (dsn === undefined) {
    const out = await new Deno.Command("bash", {
      args: [`${root}scripts/pg_throwaway.sh`, "start"],
    }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    const env = new TextDecoder().decode(out.stdout);
    started = /LOSSBOOK_PG_DIR=([^;]+);/.exec(env)![1];
    dsn = /LOSSBOOK_TEST_PG_DSN='([^']+)'/.exec(env)![1];
  }
  const table = `lbbench_${Date.now()}`;
  const psql = (sql: string) =>
    timed("psql", [
      dsn!,
      "-X",
      "-q",
      "-t",
      "-A",
      "-v",
      "ON_ERROR_STOP=1",
      "-c",
      sql,
    ]);
  try {
    await psql(decisionsTableSql("postgres", table));
    // seeded rows made by the server: every column a function of i
    const pick = (list: string[], expr: string) =>
      `(ARRAY[${
        list.map((s) => `'${s}'`).join(",")
      }])[1 + (${expr}) % ${list.length}]`;
    await psql(`INSERT INTO ${table} SELECT 'bench',
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
FROM generate_series(1::bigint, ${n}::bigint) AS s(i)`);
    await psql(`VACUUM ANALYZE ${table}`);
    const scorePostgres = () =>
      scoreJson(["--engine", "postgres", "--dsn", dsn!, "--table", table]);
    const bareAggregate = () =>
      psql(
        `${BARE_GROUP} FROM ${table} GROUP BY modelId, severity, trueClass, predClass, action`,
      );
    // interleaved (peer, ours, peer, ours, ...): the fastest of each
    const rounds = Number(values["pg-rounds"]);
    const interleaved = async () => {
      const [bare, score]: number[][] = [[], []];
      for (let r = 0; r < rounds; r++) {
        bare.push((await bareAggregate()).seconds);
        const run = await scorePostgres();
        const decisions = JSON.parse(run.stdout).decisions;
        if (decisions !== n) throw new Error(`score read ${decisions} of ${n}`);
        score.push(run.seconds);
      }
      return { bare: Math.min(...bare), score: Math.min(...score) };
    };
    const plain = await interleaved();
    // with a primary key on the decision key, the duplicate scan is not needed
    await psql(
      `ALTER TABLE ${table} ADD PRIMARY KEY (runId, modelId, taskId, trial)`,
    );
    const keyed = await interleaved();
    report.postgres = {
      rows: n,
      rounds,
      scoreSeconds: plain.score,
      psqlBareAggregateSeconds: plain.bare,
      ratioScoreToPsql: plain.score / plain.bare,
      scorePrimaryKeySeconds: keyed.score,
      psqlBareAggregateAgainSeconds: keyed.bare,
      ratioScorePrimaryKeyToPsql: keyed.score / keyed.bare,
    };
    console.error(JSON.stringify(report.postgres));
  } finally {
    await psql(`DROP TABLE IF EXISTS ${table}`).catch(() => {});
    if (started !== null) {
      await new Deno.Command("bash", {
        args: [`${root}scripts/pg_throwaway.sh`, "stop", started],
      }).output();
    }
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
