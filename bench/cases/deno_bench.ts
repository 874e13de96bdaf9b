// The bench/*_bench.ts files, each a case run with `deno bench --json` in a
// child process: one result per Deno.bench entry, with its fastest and mean
// iteration and its mean over its group baseline's mean (the ratio
// `deno bench` itself prints in its summary). Their peak RSS is the whole
// `deno bench` process's, shared by every entry of the file.
import type { CaseInfo, Context, Group } from "../_case.ts";
import { scratch } from "../_cache.ts";
import { type Result, rssSource, runTimed } from "../_measure.ts";

// bytes on disk a reconciliation task (tasks_bench.ts's large case)
const BYTES_PER_TASK = 5_000;

const FILES: { name: string; file: string; what: string }[] = [
  {
    name: "bench-scoring",
    file: "scoring_bench.ts",
    what: "deno bench: loss under many profiles, JSONL reading, bootstraps",
  },
  {
    name: "bench-ledger",
    file: "ledger_bench.ts",
    what: "deno bench: ledger verify vs one SHA-256, cost curve vs replays",
  },
  {
    name: "bench-policy",
    file: "policy_bench.ts",
    what: "deno bench: risk-coverage and ECE bootstrap vs naive",
  },
  {
    name: "bench-sweep",
    file: "sweep_bench.ts",
    what: "deno bench: sweep from coefficients vs re-scans",
  },
  {
    name: "bench-tasks",
    file: "tasks_bench.ts",
    what:
      "deno bench: task generation and verification (1,000,000 streamed, 4.6 GiB)",
  },
  {
    name: "bench-duckdb",
    file: "duckdb_bench.ts",
    what: "deno bench: DuckDB statistics on 10,000,000 rows vs Arquero",
  },
];

const CASES: CaseInfo[] = FILES.map((f) => ({ name: f.name, what: f.what }));

interface BenchJson {
  benches: {
    group: string | null;
    name: string;
    baseline: boolean;
    results: {
      ok?: { n: number; min: number; avg: number };
      failed?: unknown;
    }[];
  }[];
}

/** Run one bench file and read its entries. */
async function benchFile(
  ctx: Context,
  name: string,
  file: string,
): Promise<Result[]> {
  const env: Record<string, string> = { LOSSBOOK_BENCH_DIR: ctx.cacheDir };
  let cleanup = () => Promise.resolve();
  if (name === "bench-tasks") {
    const tasks = ctx.rows ?? 1_000_000;
    env.LOSSBOOK_BENCH_TASKS = String(tasks);
    // its files go to a scratch folder of the cache, after a disk check
    const space = await scratch(ctx.cacheDir, tasks * BYTES_PER_TASK, name);
    env.TMPDIR = space.dir;
    cleanup = space.remove;
  }
  if (name === "bench-duckdb" && ctx.rows !== undefined) {
    env.LOSSBOOK_BENCH_ROWS = String(ctx.rows);
  }
  try {
    const run = await runTimed(Deno.execPath(), [
      "bench",
      "-A",
      "--json",
      `${ctx.root}bench/${file}`,
    ], { cwd: ctx.root, env });
    const doc = JSON.parse(run.stdout) as BenchJson;
    const source = `${await rssSource()} (the whole deno bench process)`;
    const results: Result[] = [];
    const baselines = new Map<string, { name: string; avg: number }>();
    for (const b of doc.benches) {
      const ok = b.results[0]?.ok;
      if (ok === undefined) {
        throw new Error(
          `${file}: ${b.name} failed: ${JSON.stringify(b.results)}`,
        );
      }
      const key = `${name}: ${b.name}`;
      if (b.baseline && b.group !== null) {
        baselines.set(b.group, { name: key, avg: ok.avg / 1e9 });
      }
      results.push({
        name: key,
        what: b.group ?? "",
        timing: "deno bench",
        samples: [ok.min / 1e9],
        best: ok.min / 1e9,
        median: null,
        avg: ok.avg / 1e9,
        peakRssBytes: run.peakRssBytes,
        rssSource: source,
        extra: { group: b.group, iterations: ok.n, baseline: b.baseline },
      });
    }
    for (const r of results) {
      const group = r.extra!.group as string | null;
      const base = group === null ? undefined : baselines.get(group);
      if (base !== undefined && base.name !== r.name) {
        r.peers = [base.name];
        r.ratios = { [base.name]: r.avg! / base.avg };
      } else {
        r.ratios = {};
      }
    }
    return results;
  } finally {
    await cleanup();
  }
}

/** The deno bench group: one case per bench file. */
export const denoBench: Group = {
  name: "deno-bench",
  cases: CASES,
  rounds: 1,
  async run(ctx, selected) {
    const out: Result[] = [];
    for (const f of FILES.filter((f) => selected.has(f.name))) {
      ctx.log(`deno bench bench/${f.file}`);
      out.push(...await benchFile(ctx, f.name, f.file));
    }
    return out;
  },
};
