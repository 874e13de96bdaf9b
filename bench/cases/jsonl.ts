// `lossbook score` on a JSONL file, whole process, against DuckDB on the
// same file: DuckDB's bare read_json + GROUP BY timed inside a started
// process (duckdb-query: the bound score is held to) and as a whole process
// (duckdb-process), against score through its DuckDB engine, and against
// pandas (Debian's /usr/bin/python3, read_json(lines=True) + groupby) when
// it is installed. And the streaming reader's memory on larger files.
import {
  type CaseInfo,
  type Context,
  DENO_RUN,
  type Group,
  lastJson,
  roundsOf,
  rowsOf,
} from "../_case.ts";
import { cachedDecisions } from "../_decisions.ts";
import {
  type ChildRun,
  maxOrNull,
  type Result,
  resultOf,
  rssSource,
  runTimed,
} from "../_measure.ts";

/** The classes of the seeded decisions (seed 20261201). */
export const CLASSES: Record<string, string[]> = {
  HIGH: ["AMOUNT_MISMATCH", "FX_CONVERSION_ERROR", "BENEFICIARY_MISMATCH"],
  MEDIUM: ["VALUE_DATE_MISMATCH", "MISSING_MESSAGE", "PARTIAL_MATCH"],
  LOW: ["DUPLICATE", "FIELD_CORRUPTION"],
  CRITICAL: ["HERSTATT_EXPOSURE"],
};
export const SEED = 20261201;

const PANDAS = `
import sys, time, json
import pandas as pd
t = time.perf_counter()
df = pd.read_json(sys.argv[1], lines=True)
df["pErr"] = 1 - df["pCorrect"]
g = df.groupby(["modelId", "severity", "trueClass", "predClass", "action"]).agg(n=("runId", "size"), pErrorSum=("pErr", "sum"))
print(json.dumps({"seconds": time.perf_counter() - t, "cells": len(g), "n": int(g["n"].sum())}))
`;

/** Whether Debian's python3 can import pandas. */
export async function hasPandas(): Promise<boolean> {
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", "import pandas"],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => ({ success: false }));
  return out.success;
}

/** `deno run -A CLI score ARGS --json`, timed; checks the decision count. */
export async function scoreProcess(
  ctx: Context,
  args: readonly string[],
  expected: number,
): Promise<ChildRun> {
  const run = await runTimed(Deno.execPath(), [
    ...DENO_RUN,
    ctx.cli,
    "score",
    ...args,
    "--json",
  ], { cwd: ctx.root });
  const decisions = JSON.parse(run.stdout).decisions;
  if (decisions !== expected) {
    throw new Error(`score read ${decisions} decisions, expected ${expected}`);
  }
  return run;
}

/**
 * DuckDB's bare query on `file` (bench/_duckdb_query.ts), timed as a whole
 * process, with the query's own seconds; checks the decision count.
 */
export async function duckdbBare(
  ctx: Context,
  file: string,
  expected: number,
): Promise<ChildRun & { query: number }> {
  const run = await runTimed(Deno.execPath(), [
    ...DENO_RUN,
    `${ctx.root}bench/_duckdb_query.ts`,
    file,
  ], { cwd: ctx.root });
  const got = lastJson<{ seconds: number; n: number }>(run.stdout);
  if (got.n !== expected) {
    throw new Error(`DuckDB counted ${got.n} of ${expected}`);
  }
  return { ...run, query: got.seconds };
}

const CASES: CaseInfo[] = [
  {
    name: "score-jsonl",
    what: "lossbook score FILE --json, whole process (deno run -A cli.ts)",
    rows: 1_000_000,
    peers: ["duckdb-query", "duckdb-process"],
  },
  {
    name: "duckdb-query",
    what:
      "DuckDB bare read_json + GROUP BY, the query alone in a started process",
    rows: 1_000_000,
  },
  {
    name: "duckdb-process",
    what: "DuckDB bare read_json + GROUP BY, whole deno process",
    rows: 1_000_000,
    peers: ["duckdb-query"],
  },
  {
    name: "score-jsonl-duckdb",
    what: "lossbook score FILE --engine duckdb --json, whole process",
    rows: 1_000_000,
    peers: ["duckdb-query", "duckdb-process"],
  },
  {
    name: "pandas-jsonl",
    what:
      "pandas read_json(lines=True) + groupby, whole /usr/bin/python3 process",
    rows: 1_000_000,
    peers: ["score-jsonl"],
  },
];

interface Taken {
  seconds: number;
  peakRssBytes: number | null;
  extra?: Record<string, unknown>;
}

/** The JSONL group: score-jsonl and its peers, interleaved round by round. */
export const jsonl: Group = {
  name: "jsonl",
  cases: CASES,
  rounds: 3,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    if (selected.has("pandas-jsonl") && !(await hasPandas())) {
      ctx.skip(
        ["pandas-jsonl"],
        "no pandas for /usr/bin/python3 (apt-get install python3-pandas)",
      );
      infos.splice(infos.findIndex((c) => c.name === "pandas-jsonl"), 1);
    }
    if (infos.length === 0) return [];
    const n = rowsOf(ctx, infos[0]);
    const file = await cachedDecisions(
      ctx.cacheDir,
      n,
      { seed: SEED, classes: CLASSES },
      ctx.log,
    );
    const duck = () => duckdbBare(ctx, file, n);
    const take: Record<string, () => Promise<Taken>> = {
      "score-jsonl": async () => {
        const r = await scoreProcess(ctx, [file], n);
        return { seconds: r.seconds, peakRssBytes: r.peakRssBytes };
      },
      "duckdb-query": async () => {
        const r = await duck();
        return {
          seconds: r.query,
          peakRssBytes: r.peakRssBytes,
          extra: { processSeconds: r.seconds },
        };
      },
      "duckdb-process": async () => {
        const r = await duck();
        return {
          seconds: r.seconds,
          peakRssBytes: r.peakRssBytes,
          extra: { querySeconds: r.query },
        };
      },
      "score-jsonl-duckdb": async () => {
        const r = await scoreProcess(ctx, [file, "--engine", "duckdb"], n);
        return { seconds: r.seconds, peakRssBytes: r.peakRssBytes };
      },
      "pandas-jsonl": async () => {
        const r = await runTimed("/usr/bin/python3", ["-c", PANDAS, file]);
        const got = JSON.parse(r.stdout);
        if (got.n !== n) throw new Error(`pandas counted ${got.n} of ${n}`);
        return {
          seconds: r.seconds,
          peakRssBytes: r.peakRssBytes,
          extra: { pandasOwnSeconds: got.seconds },
        };
      },
    };
    const runs = new Map<string, Taken[]>(infos.map((c) => [c.name, []]));
    const rounds = roundsOf(ctx, jsonl);
    for (let r = 0; r < rounds; r++) {
      for (const c of infos) {
        ctx.log(`${c.name}, round ${r + 1} of ${rounds}`);
        runs.get(c.name)!.push(await take[c.name]());
      }
    }
    const source = await rssSource();
    const bytes = (await Deno.stat(file)).size;
    return infos.map((c) => {
      const taken = runs.get(c.name)!;
      const extras = taken.map((t) => t.extra).filter((e) => e !== undefined);
      return resultOf({
        name: c.name,
        what: c.what,
        timing: c.name === "duckdb-query" ? "in-process" : "process",
        rows: n,
        peakRssBytes: maxOrNull(taken.map((t) => t.peakRssBytes)),
        rssSource: c.name === "duckdb-query"
          ? `${source} (the whole DuckDB process)`
          : source,
        peers: c.peers?.filter((p) => selected.has(p)),
        extra: {
          fileBytes: bytes,
          ...(extras.length > 0 ? { runs: extras } : {}),
        },
      }, taken.map((t) => t.seconds));
    });
  },
};

const STREAM_CASES: CaseInfo[] = [
  {
    name: "score-stream-2m",
    what: "lossbook score FILE --engine memory --json, whole process",
    rows: 2_000_000,
  },
  {
    name: "score-stream-10m",
    what: "lossbook score FILE --engine memory --json, whole process",
    rows: 10_000_000,
    peers: ["score-stream-2m"],
  },
];

/** The streaming reader on larger files: its time per row and peak RSS. */
export const stream: Group = {
  name: "stream",
  cases: STREAM_CASES,
  rounds: 1,
  async run(ctx, selected) {
    const out: Result[] = [];
    for (const c of STREAM_CASES.filter((c) => selected.has(c.name))) {
      const n = rowsOf(ctx, c);
      const file = await cachedDecisions(
        ctx.cacheDir,
        n,
        { seed: SEED, classes: CLASSES },
        ctx.log,
      );
      const taken: ChildRun[] = [];
      for (let r = 0; r < roundsOf(ctx, stream); r++) {
        ctx.log(`${c.name}, round ${r + 1}`);
        taken.push(await scoreProcess(ctx, [file, "--engine", "memory"], n));
      }
      out.push(resultOf({
        name: c.name,
        what: c.what,
        timing: "process",
        rows: n,
        peakRssBytes: maxOrNull(taken.map((t) => t.peakRssBytes)),
        rssSource: await rssSource(),
        peers: c.peers?.filter((p) => selected.has(p)),
        extra: { fileBytes: (await Deno.stat(file)).size },
      }, taken.map((t) => t.seconds)));
    }
    return out;
  },
};
