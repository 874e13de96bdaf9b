// Sufficient statistics of a large Decision Parquet file through DuckDB
// (100,000,000 rows by default), each measurement in a worker of its own so
// that its peak RSS is its own, with DuckDB's buffer-manager memory and
// spilled bytes sampled from duckdb_memory() during the scan:
//   duckdb-parquet      duckdbDecisionStats(), row checks on, duplicate check off
//   duckdb-parquet-dup  the same with the duplicate check (the default; a second scan)
//   duckdb-csv          (opt-in: a 15 GB export) the same rows as CSV
//   arquero-slice       loadDecisionsParquet() + decisionStats() on a
//                       1,000,000-row slice (the same generator's first rows)
//   arquero-stats-slice decisionStats() alone, in that same run
//   duckdb-slice        duckdbDecisionStats() on the slice; its statistics
//                       must equal Arquero's
// duckdb-parquet's ratio to arquero-slice is per row: an extrapolation of
// throughput, since the Arquero path holds every row in memory and could
// not load the full file.
import {
  type CaseInfo,
  type Children,
  type Group,
  roundsOf,
  rowsOf,
  worker,
} from "../_case.ts";
import { needDisk } from "../_disk.ts";
import {
  cachedDecisionsCsv,
  cachedDecisionsParquet,
  CSV_BYTES_PER_ROW,
  PARQUET_BYTES_PER_ROW,
} from "../_parquet.ts";
import { maxOrNull, type Result, resultOf, rssSource } from "../_measure.ts";
import type { StatsRow } from "../../lib/metrics/sufficient_stats.ts";

// DuckDB's spill, bytes a row, from an earlier run: 155 at 100,000,000
// rows (14.4 GiB, in the scan without the duplicate check)
const SPILL_BYTES_PER_ROW = 160;
const SEED = 1;
const MEMORY_LIMIT = "4GB";

interface PhaseOut {
  seconds: number;
  statsSeconds?: number;
  duckdbMemoryBytes: number | null;
  duckdbSpilledBytes: number | null;
  stats: StatsRow[];
}

/** Functions the duckdb group runs in a worker. */
export const children: Children = {
  async phase(
    args: {
      phase: "duckdb" | "arquero";
      file: string;
      rows: number;
      duplicates: boolean;
    },
  ): Promise<PhaseOut> {
    const duckdb = { memoryLimit: MEMORY_LIMIT };
    if (args.phase === "arquero") {
      const { decisionStats } = await import(
        "../../lib/decision/decision_stats.ts"
      );
      const { loadDecisionsParquet } = await import(
        "../../lib/read/parquet.ts"
      );
      const t0 = performance.now();
      const table = await loadDecisionsParquet(args.file, duckdb);
      const t1 = performance.now();
      const stats = decisionStats(table);
      const t2 = performance.now();
      return {
        seconds: (t2 - t0) / 1000,
        statsSeconds: (t2 - t1) / 1000,
        duckdbMemoryBytes: null,
        duckdbSpilledBytes: null,
        stats,
      };
    }
    const { duckdbDecisionStats } = await import(
      "../../lib/sql/duckdb_stats.ts"
    );
    let memory = 0, spilled = 0;
    const t0 = performance.now();
    const stats = await duckdbDecisionStats(args.file, {
      ...duckdb,
      checkDuplicates: args.duplicates,
      progressIntervalMs: 250,
      onProgress: (p) => {
        memory = Math.max(memory, p.memoryBytes);
        spilled = Math.max(spilled, p.spilledBytes);
      },
    });
    const seconds = (performance.now() - t0) / 1000;
    const total = stats.reduce((s, r) => s + r.n, 0);
    if (total !== args.rows) {
      throw new Error(`counted ${total} rows, expected ${args.rows}`);
    }
    return {
      seconds,
      duckdbMemoryBytes: memory,
      duckdbSpilledBytes: spilled,
      stats,
    };
  },
};

/** The largest relative difference of pErrorSum, Infinity when cells differ. */
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

const ROWS = 100_000_000;
const SLICE = 1_000_000;
const CASES: CaseInfo[] = [
  {
    name: "duckdb-parquet",
    what: "duckdbDecisionStats() on Parquet, duplicate check off",
    rows: ROWS,
    peers: ["arquero-slice"],
  },
  {
    name: "duckdb-parquet-dup",
    what: "duckdbDecisionStats() on Parquet, duplicate check on",
    rows: ROWS,
    peers: ["duckdb-parquet"],
  },
  {
    name: "duckdb-csv",
    what: "duckdbDecisionStats() on the same rows as CSV",
    rows: ROWS,
    peers: ["duckdb-parquet"],
    optIn: true,
  },
  {
    name: "arquero-slice",
    what: "loadDecisionsParquet() + decisionStats() (Arquero)",
    rows: SLICE,
  },
  {
    name: "arquero-stats-slice",
    what: "decisionStats() alone on the loaded table (same run)",
    rows: SLICE,
    peers: ["arquero-slice"],
  },
  {
    name: "duckdb-slice",
    what: "duckdbDecisionStats() on the slice, duplicate check on",
    rows: SLICE,
    peers: ["arquero-slice"],
  },
];

/** The DuckDB Parquet group: one worker per run. */
export const duckdb: Group = {
  name: "duckdb",
  cases: CASES,
  rounds: 1,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    const rows = rowsOf(ctx, CASES[0]);
    const slice = Math.min(rows, rowsOf(ctx, CASES[3]));
    const wantCsv = selected.has("duckdb-csv");
    const big = infos.some((c) => c.rows === ROWS);
    const wantSlice = infos.some((c) => c.rows === SLICE);
    // the data in the cache folder, DuckDB's spill in the temporary folder
    // (where each session spills); both on one file system need the sum
    const data = (big ? rows * PARQUET_BYTES_PER_ROW : 0) +
      (wantSlice ? slice * PARQUET_BYTES_PER_ROW : 0) +
      (wantCsv ? rows * CSV_BYTES_PER_ROW : 0);
    const spill = (big ? rows : slice) * SPILL_BYTES_PER_ROW;
    await Deno.mkdir(ctx.cacheDir, { recursive: true });
    const temp = await Deno.makeTempDir({ prefix: "lossbook-bench-probe-" });
    try {
      const [d, t] = [await Deno.stat(ctx.cacheDir), await Deno.stat(temp)];
      if (d.dev === t.dev) {
        await needDisk(ctx.cacheDir, data + spill, "duckdb (data and spill)");
      } else {
        await needDisk(ctx.cacheDir, data, "duckdb (data)");
        await needDisk(temp, spill, "duckdb (DuckDB's spill)");
      }
    } finally {
      await Deno.remove(temp);
    }
    const files: Record<string, string> = {};
    if (big) {
      files.parquet = await cachedDecisionsParquet(
        ctx.cacheDir,
        rows,
        SEED,
        ctx.log,
      );
    }
    if (wantCsv) {
      files.csv = await cachedDecisionsCsv(ctx.cacheDir, rows, SEED, ctx.log);
    }
    if (wantSlice) {
      files.slice = await cachedDecisionsParquet(
        ctx.cacheDir,
        slice,
        SEED,
        ctx.log,
      );
    }
    const plan: Record<
      string,
      {
        phase: "duckdb" | "arquero";
        file: string;
        duplicates: boolean;
        n: number;
      }
    > = {
      "duckdb-parquet": {
        phase: "duckdb",
        file: files.parquet,
        duplicates: false,
        n: rows,
      },
      "duckdb-parquet-dup": {
        phase: "duckdb",
        file: files.parquet,
        duplicates: true,
        n: rows,
      },
      "duckdb-csv": {
        phase: "duckdb",
        file: files.csv,
        duplicates: false,
        n: rows,
      },
      "arquero-slice": {
        phase: "arquero",
        file: files.slice,
        duplicates: true,
        n: slice,
      },
      "duckdb-slice": {
        phase: "duckdb",
        file: files.slice,
        duplicates: true,
        n: slice,
      },
    };
    const runs = new Map<string, (PhaseOut & { rss: number | null })[]>();
    const rounds = roundsOf(ctx, duckdb);
    for (let r = 0; r < rounds; r++) {
      for (const c of infos) {
        const p = plan[c.name];
        if (p === undefined) continue; // arquero-stats-slice: from arquero-slice
        ctx.log(`${c.name}, round ${r + 1} of ${rounds}`);
        const { value, run } = await worker<PhaseOut>(ctx, "duckdb", "phase", {
          phase: p.phase,
          file: p.file,
          rows: p.n,
          duplicates: p.duplicates,
        });
        if (!runs.has(c.name)) runs.set(c.name, []);
        runs.get(c.name)!.push({ ...value, rss: run.peakRssBytes });
      }
    }
    const first = (name: string) => runs.get(name)?.[0]?.stats;
    const checks: Record<string, number> = {};
    if (first("arquero-slice") && first("duckdb-slice")) {
      checks.sliceMaxRelativeDifference = maxRelDiff(
        first("arquero-slice")!,
        first("duckdb-slice")!,
      );
    }
    if (first("duckdb-csv") && first("duckdb-parquet")) {
      checks.csvMaxRelativeDifference = maxRelDiff(
        first("duckdb-csv")!,
        first("duckdb-parquet")!,
      );
    }
    for (const [what, diff] of Object.entries(checks)) {
      if (!(diff <= 1e-9)) {
        throw new Error(`${what}: ${diff}, statistics differ`);
      }
    }
    const source = `${await rssSource()} (the worker process)`;
    return infos.map((c): Result => {
      const stats = c.name === "arquero-stats-slice";
      const taken = runs.get(stats ? "arquero-slice" : c.name)!;
      return resultOf({
        name: c.name,
        what: c.what,
        timing: "in-process",
        rows: c.rows === SLICE ? slice : rows,
        peakRssBytes: stats ? null : maxOrNull(taken.map((t) => t.rss)),
        rssSource: stats ? null : source,
        peers: c.peers?.filter((p) => selected.has(p)),
        extra: {
          memoryLimit: MEMORY_LIMIT,
          ...(c.name.startsWith("duckdb")
            ? {
              duckdbMemoryBytes: maxOrNull(
                taken.map((t) => t.duckdbMemoryBytes),
              ),
              duckdbSpilledBytes: maxOrNull(
                taken.map((t) => t.duckdbSpilledBytes),
              ),
            }
            : {}),
          ...(c.name === "duckdb-slice" || c.name === "duckdb-csv"
            ? checks
            : {}),
        },
      }, taken.map((t) => stats ? t.statsSeconds! : t.seconds));
    });
  },
};
