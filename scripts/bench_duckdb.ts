// Score a large Decision Parquet file through DuckDB and report rows per
// second and peak memory, against peers measured in the same run.
//
// Usage (100,000,000 rows by default; files go under --dir, never the repo):
//   deno run --allow-read --allow-write --allow-env --allow-ffi --allow-sys --allow-run \
//     scripts/bench_duckdb.ts [--rows 100000000] [--dir /tmp/lossbook-bench] [--seed 1]
//     [--memory-limit 4GB] [--threads N] [--peer-rows 1000000] [--csv] [--keep]
// It checks free disk space first (the data files in --dir, DuckDB's spill in
// the temporary folder). The data files are removed at the end unless --keep
// (then a later run with the same --rows and --seed reuses them).
//
// Each measurement runs in its own child process, so that its peak resident
// memory (VmHWM from /proc/self/status, and the largest sampled
// Deno.memoryUsage().rss) is its own. DuckDB's buffer-manager memory and
// spilled bytes are sampled from duckdb_memory() during the scan.
//
// Measurements:
//   parquet    duckdbDecisionStats() on the full file, row checks on, duplicate check off
//   parquet+dup  the same with the duplicate check (the default; a second scan)
//   csv        (--csv) the same file exported to CSV, duckdbDecisionStats() on it
//   slice      on a --peer-rows slice (the same generator's first rows):
//              Arquero path = loadDecisionsParquet() + decisionStats(), and
//              DuckDB path = duckdbDecisionStats(); both results are compared.
// The peer ratio is DuckDB rows/s on the full file over Arquero rows/s on the
// slice: an extrapolation of throughput, since the Arquero path holds every
// row in memory and could not load the full file on this machine.
import { decisionStats } from "../lib/decision/decision_stats.ts";
import { sqlString, withDuckDB } from "../lib/read/duckdb_session.ts";
import {
  duckdbDecisionStats,
  type DuckDBProgress,
} from "../lib/sql/duckdb_stats.ts";
import { loadDecisionsParquet } from "../lib/read/parquet.ts";
import type { StatsRow } from "../lib/metrics/sufficient_stats.ts";
import { needDisk } from "../bench/_disk.ts";

// What the benchmark writes, bytes a row, from its own runs: the Parquet file
// 13.6 (1,000,000 rows) and the CSV export 127; DuckDB's spill 155 at
// 100,000,000 rows (14.4 GiB, in the scan without the duplicate check).
const PARQUET_BYTES_PER_ROW = 16;
const CSV_BYTES_PER_ROW = 150;
const SPILL_BYTES_PER_ROW = 160;

const CLASSES = [
  "MATCH",
  "AMOUNT_MISMATCH",
  "FX_CONVERSION_ERROR",
  "BENEFICIARY_MISMATCH",
  "COUNTERPARTY_MISMATCH",
  "VALUE_DATE_MISMATCH",
  "MISSING_MESSAGE",
  "PARTIAL_MATCH",
  "DUPLICATE",
  "FIELD_CORRUPTION",
];

/**
 * The DuckDB SQL that generates `rows` pseudo-random, valid decisions,
 * deterministic in `seed`: every column is a function of `hash(i, seed, k)`
 * (DuckDB's hash, stable for a given DuckDB version), never `random()`.
 * Three models answer each task; about 4% of pCorrect are null, 8% of
 * decisions are escalated, 0.7% fail to parse, 2% have an unavailable cost.
 *
 * @param rows Number of decisions.
 * @param seed Generator seed.
 * @returns A SELECT over `range(rows)`.
 */
export function generatorSql(rows: number, seed: number): string {
  const h = (k: number) => `hash(i, ${seed}, ${k})`;
  const task = (k: number) => `hash(i // 3, ${seed}, ${k})`;
  const classes = `[${CLASSES.map((c) => `'${c}'`).join(", ")}]`;
  return `SELECT
  'bench-${seed}' AS runId,
  'model-' || CAST(i % 3 AS VARCHAR) AS modelId,
  'task-' || CAST(i // 3 AS VARCHAR) AS taskId,
  CAST(0 AS BIGINT) AS trial,
  CASE WHEN ${task(1)} % 100 < 5 THEN 'CRITICAL' WHEN ${
    task(1)
  } % 100 < 25 THEN 'HIGH'
       WHEN ${task(1)} % 100 < 60 THEN 'MEDIUM' ELSE 'LOW' END AS severity,
  trueClass,
  CASE WHEN ${h(2)} % 100 < 88 THEN trueClass WHEN ${
    h(2)
  } % 100 < 95 THEN 'MATCH'
       ELSE ${classes}[CAST(${h(9)} % 10 AS BIGINT) + 1] END AS predClass,
  ${h(3)} % 1000 >= 7 AS parseOk,
  CASE WHEN ${h(4)} % 100 < 4 THEN NULL
       ELSE CAST(${h(5)} % 1000001 AS DOUBLE) / 1000000 END AS pCorrect,
  CASE WHEN ${h(6)} % 100 < 8 THEN 'escalate' ELSE 'auto' END AS action,
  CASE WHEN ${
    h(7)
  } % 100 < 2 THEN 'unavailable' ELSE 'complete' END AS costCompleteness,
  CASE WHEN ${h(7)} % 100 < 2 THEN NULL
       ELSE CAST(${h(8)} % 10000 AS DOUBLE) / 1000000 END AS costUsd,
  CASE WHEN ${
    h(3)
  } % 1000 >= 7 THEN 'resolved' ELSE 'model_failure' END AS outcome,
  CAST(200 + ${h(10)} % 2000 AS BIGINT) AS tokensIn,
  CAST(5 + ${h(11)} % 200 AS BIGINT) AS tokensOut,
  CAST(${h(12)} % 5000 AS DOUBLE) + 0.5 AS latencyMs
FROM (SELECT i, ${classes}[CAST(${
    task(0)
  } % 10 AS BIGINT) + 1] AS trueClass FROM range(${rows}) t(i)) g`;
}

/**
 * Write the generated decisions to a Parquet file (zstd), unless a file
 * with that many rows is already there.
 *
 * @param path Destination.
 * @param rows Number of decisions.
 * @param seed Generator seed.
 * @returns Seconds spent generating, or `null` when the file was reused.
 */
export async function generateDecisionsParquet(
  path: string,
  rows: number,
  seed: number,
): Promise<number | null> {
  return await withDuckDB(async (c) => {
    try {
      const r = await c.runAndReadAll(
        `SELECT COUNT(*) FROM read_parquet(${sqlString(path)})`,
      );
      if (Number(r.getRows()[0][0]) === rows) return null;
    } catch {
      // not there yet
    }
    const partial = `${path}.partial`;
    const t0 = performance.now();
    await c.run(
      `COPY (${generatorSql(rows, seed)}) TO ${
        sqlString(partial)
      } (FORMAT parquet, COMPRESSION zstd)`,
    );
    await Deno.rename(partial, path);
    return (performance.now() - t0) / 1000;
  }, { memoryLimit: "4GB" });
}

/**
 * Export a Parquet file to CSV with DuckDB, unless the CSV is already there
 * with the same number of rows.
 *
 * @param parquet Source.
 * @param csv Destination.
 * @param rows Expected rows.
 * @returns Seconds spent, or `null` when reused.
 */
export async function exportCsv(
  parquet: string,
  csv: string,
  rows: number,
): Promise<number | null> {
  return await withDuckDB(async (c) => {
    try {
      const r = await c.runAndReadAll(
        `SELECT COUNT(*) FROM read_csv(${sqlString(csv)}, header = true)`,
      );
      if (Number(r.getRows()[0][0]) === rows) return null;
    } catch {
      // not there yet
    }
    const t0 = performance.now();
    await c.run(
      `COPY (SELECT * FROM read_parquet(${sqlString(parquet)})) TO ${
        sqlString(`${csv}.partial`)
      } (FORMAT csv, HEADER true)`,
    );
    await Deno.rename(`${csv}.partial`, csv);
    return (performance.now() - t0) / 1000;
  }, { memoryLimit: "4GB" });
}

/**
 * Peak resident memory of this process so far (ru_maxrss from getrusage, via
 * FFI; Deno refuses to read /proc/self without --allow-all), in bytes, or
 * null where libc.so.6 is not there.
 */
function peakRss(): number | null {
  try {
    const libc = Deno.dlopen("libc.so.6", {
      getrusage: { parameters: ["i32", "buffer"], result: "i32" },
    });
    try {
      const usage = new BigInt64Array(18); // struct rusage on 64-bit Linux
      if (libc.symbols.getrusage(0, usage) !== 0) return null;
      return Number(usage[4]) * 1024; // ru_maxrss, after two timevals, in KiB
    } finally {
      libc.close();
    }
  } catch {
    return null;
  }
}

interface Measurement {
  phase: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssBytes: number | null;
  sampledRssBytes: number;
  duckdbMemoryBytes: number | null;
  duckdbSpilledBytes: number | null;
  detail?: Record<string, number>;
  stats?: StatsRow[];
}

/** Run `fn`, sampling RSS every 100 ms. */
async function measured<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; seconds: number; sampledRss: number }> {
  let sampledRss = Deno.memoryUsage().rss;
  const timer = setInterval(() => {
    sampledRss = Math.max(sampledRss, Deno.memoryUsage().rss);
  }, 100);
  const t0 = performance.now();
  try {
    const value = await fn();
    return { value, seconds: (performance.now() - t0) / 1000, sampledRss };
  } finally {
    clearInterval(timer);
    sampledRss = Math.max(sampledRss, Deno.memoryUsage().rss);
  }
}

async function childPhase(
  args: Record<string, string>,
): Promise<Measurement | { seconds: number | null }> {
  const rows = Number(args.rows);
  const file = args.file;
  if (args.phase === "generate") {
    return {
      seconds: await generateDecisionsParquet(file, rows, Number(args.seed)),
    };
  }
  if (args.phase === "export-csv") {
    return { seconds: await exportCsv(file, args.csv, rows) };
  }
  const duckdb = {
    memoryLimit: args["memory-limit"],
    threads: args.threads ? Number(args.threads) : undefined,
  };
  if (args.phase === "arquero") {
    let loadSeconds = 0;
    const { value, seconds, sampledRss } = await measured(async () => {
      const t0 = performance.now();
      const table = await loadDecisionsParquet(file, duckdb);
      loadSeconds = (performance.now() - t0) / 1000;
      return decisionStats(table);
    });
    return {
      phase: "arquero",
      rows,
      seconds,
      rowsPerSecond: rows / seconds,
      peakRssBytes: peakRss(),
      sampledRssBytes: sampledRss,
      duckdbMemoryBytes: null,
      duckdbSpilledBytes: null,
      detail: { loadSeconds, statsSeconds: seconds - loadSeconds },
      stats: value,
    };
  }
  let memory = 0, spilled = 0;
  const { value, seconds, sampledRss } = await measured(() =>
    duckdbDecisionStats(file, {
      ...duckdb,
      checkDuplicates: args.duplicates === "true",
      progressIntervalMs: 250,
      onProgress: (p: DuckDBProgress) => {
        memory = Math.max(memory, p.memoryBytes);
        spilled = Math.max(spilled, p.spilledBytes);
      },
    })
  );
  const total = value.reduce((s, r) => s + r.n, 0);
  if (total !== rows) {
    throw new Error(`counted ${total} rows, expected ${rows}`);
  }
  return {
    phase: args.phase,
    rows,
    seconds,
    rowsPerSecond: rows / seconds,
    peakRssBytes: peakRss(),
    sampledRssBytes: sampledRss,
    duckdbMemoryBytes: memory,
    duckdbSpilledBytes: spilled,
    stats: value,
  };
}

async function runChild<T = Measurement>(
  args: Record<string, string>,
): Promise<T> {
  const flags = Object.entries(args).map(([k, v]) => `--${k}=${v}`);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-ffi",
      "--allow-sys",
      new URL(import.meta.url).pathname,
      "--child",
      ...flags,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`phase ${args.phase} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
    const eq = a.indexOf("=");
    if (eq > 0) out[a.slice(2, eq)] = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) {
      out[a.slice(2)] = argv[++i];
    } else out[a.slice(2)] = "true";
  }
  return out;
}

const gb = (b: number | null) =>
  b === null ? "n/a" : `${(b / 2 ** 30).toFixed(2)} GiB`;
const mrows = (r: number) => `${(r / 1e6).toFixed(2)} M rows/s`;

function maxRelDiff(a: StatsRow[], b: StatsRow[]): number {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]];
    if (
      x.modelId !== y.modelId || x.severity !== y.severity ||
      x.trueClass !== y.trueClass || x.predClass !== y.predClass ||
      x.action !== y.action || x.n !== y.n || x.pMissing !== y.pMissing ||
      x.parseFailures !== y.parseFailures
    ) return Infinity;
    const scale = Math.max(Math.abs(x.pErrorSum), Math.abs(y.pErrorSum));
    if (scale > 0) {
      worst = Math.max(worst, Math.abs(x.pErrorSum - y.pErrorSum) / scale);
    }
  }
  return worst;
}

function report(m: Measurement): void {
  console.log(
    `${m.phase.padEnd(12)} ${String(m.rows).padStart(11)} rows  ${
      m.seconds.toFixed(2).padStart(8)
    } s  ${mrows(m.rowsPerSecond).padStart(16)}  peak RSS ${
      gb(m.peakRssBytes)
    } (sampled ${gb(m.sampledRssBytes)})  DuckDB memory ${
      gb(m.duckdbMemoryBytes)
    }, spilled ${gb(m.duckdbSpilledBytes)}${
      m.detail
        ? `  [load ${m.detail.loadSeconds.toFixed(2)} s, decisionStats ${
          m.detail.statsSeconds.toFixed(2)
        } s]`
        : ""
    }`,
  );
}

/**
 * Stop before generating anything unless there is room for the data files
 * in `dir` and for DuckDB's spill in the system's temporary folder (where
 * each measurement's session spills); both on one file system need the sum.
 */
async function checkDisk(
  dir: string,
  rows: number,
  peerRows: number,
  csv: boolean,
): Promise<void> {
  const data = (rows + peerRows) * PARQUET_BYTES_PER_ROW +
    (csv ? rows * CSV_BYTES_PER_ROW : 0);
  const spill = rows * SPILL_BYTES_PER_ROW;
  const temp = await Deno.makeTempDir({ prefix: "lossbook-bench-probe-" });
  try {
    const [d, t] = [await Deno.stat(dir), await Deno.stat(temp)];
    if (d.dev === t.dev) {
      await needDisk(dir, data + spill, "bench_duckdb (data and spill)");
    } else {
      await needDisk(dir, data, "bench_duckdb (data)");
      await needDisk(temp, spill, "bench_duckdb (DuckDB's spill)");
    }
  } finally {
    await Deno.remove(temp);
  }
}

async function main(): Promise<void> {
  const args = parseArgs(Deno.args);
  if (args.child === "true") {
    const { child: _, ...rest } = args;
    console.log(JSON.stringify(await childPhase(rest)));
    return;
  }
  const rows = Number(args.rows ?? 100_000_000);
  const peerRows = Math.min(rows, Number(args["peer-rows"] ?? 1_000_000));
  const seed = Number(args.seed ?? 1);
  const dir = args.dir ?? "/tmp/lossbook-bench";
  const memoryLimit = args["memory-limit"] ?? "4GB";
  const common: Record<string, string> = { "memory-limit": memoryLimit };
  if (args.threads) common.threads = args.threads;
  await Deno.mkdir(dir, { recursive: true });
  await checkDisk(dir, rows, peerRows, args.csv === "true");
  const big = `${dir}/decisions-${rows}-seed${seed}.parquet`;
  const slice = `${dir}/decisions-${peerRows}-seed${seed}.parquet`;

  console.log(
    `DuckDB sufficient statistics benchmark: ${rows} rows, seed ${seed}, memory_limit ${memoryLimit}, ${navigator.hardwareConcurrency} cores, ${
      gb(Deno.systemMemoryInfo().total)
    } RAM`,
  );
  // Everything heavy runs in children: a child's ru_maxrss starts at its
  // parent's RSS (it is inherited over fork and kept across exec), so the
  // launcher stays small and its RSS is printed as the floor of every peak.
  type Generated = { seconds: number | null };
  const genBig = (await runChild<Generated>({
    phase: "generate",
    file: big,
    rows: String(rows),
    seed: String(seed),
  })).seconds;
  const genSlice = (await runChild<Generated>({
    phase: "generate",
    file: slice,
    rows: String(peerRows),
    seed: String(seed),
  })).seconds;
  console.log(
    `launcher RSS ${
      gb(Deno.memoryUsage().rss)
    } (every child's peak RSS includes this floor)`,
  );
  console.log(
    `data: ${big} (${gb((await Deno.stat(big)).size)}, ${
      genBig === null ? "reused" : `generated in ${genBig.toFixed(1)} s`
    }); slice ${slice} (${
      genSlice === null ? "reused" : `generated in ${genSlice.toFixed(1)} s`
    })`,
  );

  const results: Measurement[] = [];
  const run = async (phase: string, extra: Record<string, string>) => {
    const m = await runChild({ ...common, phase, ...extra });
    report(m);
    results.push(m);
    return m;
  };
  const parquet = await run("parquet", { file: big, rows: String(rows) });
  const dup = await run("parquet+dup", {
    file: big,
    rows: String(rows),
    duplicates: "true",
  });
  let csvRun: Measurement | null = null;
  if (args.csv === "true") {
    const csv = big.replace(/\.parquet$/, ".csv");
    const s = (await runChild<Generated>({
      phase: "export-csv",
      file: big,
      csv,
      rows: String(rows),
    })).seconds;
    console.log(
      `csv: ${csv} (${gb((await Deno.stat(csv)).size)}, ${
        s === null ? "reused" : `exported in ${s.toFixed(1)} s`
      })`,
    );
    csvRun = await run("csv", { file: csv, rows: String(rows) });
    if (maxRelDiff(csvRun.stats!, parquet.stats!) > 1e-9) {
      throw new Error("CSV and Parquet statistics differ");
    }
    if (args.keep !== "true") await Deno.remove(csv);
  }
  const arquero = await run("arquero", {
    file: slice,
    rows: String(peerRows),
  });
  const duckSlice = await run("duckdb-slice", {
    file: slice,
    rows: String(peerRows),
  });
  const diff = maxRelDiff(arquero.stats!, duckSlice.stats!);
  console.log(
    `parity on the slice: ${
      diff <= 1e-9 ? "ok" : "FAILED"
    } (same cells and counts, pErrorSum max relative difference ${
      diff.toExponential(2)
    })`,
  );
  console.log(
    `ratio: DuckDB on ${rows} Parquet rows / Arquero (load + decisionStats) on ${peerRows} rows = ${
      (parquet.rowsPerSecond / arquero.rowsPerSecond).toFixed(1)
    }x rows/s; at equal size (${peerRows} rows) = ${
      (duckSlice.rowsPerSecond / arquero.rowsPerSecond).toFixed(1)
    }x`,
  );
  const statsOnly = peerRows / arquero.detail!.statsSeconds;
  console.log(
    `ratio: DuckDB on ${rows} Parquet rows / Arquero decisionStats() alone on an in-memory ${peerRows}-row table (${
      mrows(statsOnly)
    }) = ${(parquet.rowsPerSecond / statsOnly).toFixed(1)}x rows/s`,
  );
  console.log(
    `cost of the duplicate check: ${
      (dup.seconds / parquet.seconds).toFixed(2)
    }x the time of the scan without it`,
  );
  if (csvRun !== null) {
    console.log(
      `ratio: DuckDB Parquet / DuckDB CSV (same ${rows} rows) = ${
        (parquet.rowsPerSecond / csvRun.rowsPerSecond).toFixed(1)
      }x rows/s`,
    );
  }
  if (args.keep !== "true") {
    for (const f of [big, slice]) await Deno.remove(f).catch(() => {});
  }
  if (diff > 1e-9) Deno.exit(1);
}

if (import.meta.main) await main();
