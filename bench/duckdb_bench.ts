// DuckDB sufficient statistics, against peers measured in the same run, so
// the summary reads as ratios.
//   deno task bench --only bench-duckdb
//   (or: deno bench --allow-read --allow-write --allow-env --allow-ffi --allow-sys bench/duckdb_bench.ts)
// Size: LOSSBOOK_BENCH_ROWS (default 10,000,000). The data is generated with
// DuckDB SQL (seeded, deterministic) into the benchmark cache folder
// (LOSSBOOK_BENCH_DIR, which the runner sets, else
// $XDG_CACHE_HOME/lossbook/bench or ~/.cache/lossbook/bench) and kept there
// for the next run; it is never written into the repository. The
// 100,000,000-row measurement with peak memory is the runner's duckdb group
// (deno task bench --only duckdb).
// DuckDB is a native addon: without --allow-ffi these benchmarks are skipped.
import { decisionStats } from "../lib/decision/decision_stats.ts";
import { duckdbDecisionStats } from "../lib/sql/duckdb_stats.ts";
import { loadDecisionsParquet } from "../lib/read/parquet.ts";
import { defaultCacheDir } from "./_cache.ts";
import { cachedDecisionsCsv, cachedDecisionsParquet } from "./_parquet.ts";

const ROWS = Number(Deno.env.get("LOSSBOOK_BENCH_ROWS") ?? 10_000_000);
const SLICE = Math.min(ROWS, 1_000_000);
const SEED = 1;
const ffi = Deno.permissions.querySync({ name: "ffi" }).state === "granted";
let parquet = "", csv = "", slice = "";

if (ffi) {
  const dir = Deno.env.get("LOSSBOOK_BENCH_DIR") ?? defaultCacheDir();
  const log = (m: string) => console.error(m);
  parquet = await cachedDecisionsParquet(dir, ROWS, SEED, log);
  slice = await cachedDecisionsParquet(dir, SLICE, SEED, log);
  csv = await cachedDecisionsCsv(dir, ROWS, SEED, log);
} else {
  console.warn(
    "bench/duckdb_bench.ts: skipped, DuckDB needs --allow-ffi --allow-sys",
  );
}

const common = { ignore: !ffi, n: 2, warmup: 0 };

Deno.bench({
  ...common,
  name: `duckdbDecisionStats() on ${ROWS} Parquet rows`,
  group: "duckdb",
  baseline: true,
  async fn() {
    await duckdbDecisionStats(parquet, { checkDuplicates: false });
  },
});

Deno.bench({
  ...common,
  name: `duckdbDecisionStats() on the same ${ROWS} rows as CSV`,
  group: "duckdb",
  async fn() {
    await duckdbDecisionStats(csv, { checkDuplicates: false });
  },
});

Deno.bench({
  ...common,
  name:
    `duckdbDecisionStats() on ${ROWS} Parquet rows with the duplicate check`,
  group: "duckdb",
  async fn() {
    await duckdbDecisionStats(parquet);
  },
});

Deno.bench({
  ...common,
  name:
    `loadDecisionsParquet() + decisionStats() (Arquero) on ${SLICE} Parquet rows`,
  group: "slice",
  baseline: true,
  async fn() {
    decisionStats(await loadDecisionsParquet(slice));
  },
});

Deno.bench({
  ...common,
  name:
    `duckdbDecisionStats() on the same ${SLICE} Parquet rows (duplicate check on, as the loader)`,
  group: "slice",
  async fn() {
    await duckdbDecisionStats(slice);
  },
});
