// Default `lossbook score` on the same 1,000,000 decisions as Parquet, CSV
// and Arrow IPC, whole process against whole process, beside DuckDB's bare
// query on the same file (process and query alone; Arrow's peer is the bare
// query on the Parquet file of the same rows, as DuckDB cannot read Arrow
// IPC here), with each side's peak RSS. And DuckDB's memory on a large
// JSONL file through `--engine duckdb`.
import {
  type CaseInfo,
  type Context,
  type Group,
  roundsOf,
  rowsOf,
} from "../_case.ts";
import { cachedInput } from "../_cache.ts";
import { cachedDecisions } from "../_decisions.ts";
import { cachedDecisionsCsv, cachedDecisionsParquet } from "../_parquet.ts";
import { maxOrNull, type Result, resultOf, rssSource } from "../_measure.ts";
import {
  CLASSES,
  duckdbBare,
  scoreProcess,
  SEED as JSONL_SEED,
} from "./jsonl.ts";
import { loadDecisionsParquet } from "../../lib/read/parquet.ts";
import { writeDecisionsArrow } from "../../lib/read/arrow.ts";

const SEED = 1;
const ROWS = 1_000_000;

const CASES: CaseInfo[] = [
  {
    name: "score-parquet",
    what: "lossbook score FILE.parquet --json (default engine), whole process",
    rows: ROWS,
    peers: ["duckdb-process-parquet", "duckdb-query-parquet"],
  },
  {
    name: "duckdb-process-parquet",
    what: "DuckDB bare read_parquet + GROUP BY, whole deno process",
    rows: ROWS,
    peers: ["duckdb-query-parquet"],
  },
  {
    name: "duckdb-query-parquet",
    what: "DuckDB bare read_parquet + GROUP BY, the query in a started process",
    rows: ROWS,
  },
  {
    name: "score-csv",
    what: "lossbook score FILE.csv --json (default engine), whole process",
    rows: ROWS,
    peers: ["duckdb-process-csv", "duckdb-query-csv"],
  },
  {
    name: "duckdb-process-csv",
    what: "DuckDB bare read_csv + GROUP BY, whole deno process",
    rows: ROWS,
    peers: ["duckdb-query-csv"],
  },
  {
    name: "duckdb-query-csv",
    what: "DuckDB bare read_csv + GROUP BY, the query in a started process",
    rows: ROWS,
  },
  {
    name: "score-arrow",
    what:
      "lossbook score FILE.arrow --json (in process), whole process, against DuckDB on the Parquet file of the same rows",
    rows: ROWS,
    peers: ["duckdb-process-parquet", "duckdb-query-parquet"],
  },
  {
    name: "score-jsonl-duckdb-large",
    what:
      "lossbook score FILE.jsonl --engine duckdb --json on 10,000,000 lines: time and peak RSS",
    rows: 10_000_000,
    peers: ["score-stream-large"],
  },
  {
    name: "score-stream-large",
    what:
      "lossbook score FILE.jsonl --engine memory --json on the same 10,000,000 lines",
    rows: 10_000_000,
  },
];

interface Taken {
  seconds: number;
  peakRssBytes: number | null;
  extra?: Record<string, unknown>;
}

// The Arrow IPC file of the rows of the cached Parquet file.
async function cachedDecisionsArrow(
  ctx: Context,
  rows: number,
): Promise<string> {
  const parquet = await cachedDecisionsParquet(
    ctx.cacheDir,
    rows,
    SEED,
    ctx.log,
  );
  const got = await cachedInput(
    ctx.cacheDir,
    "decisions-arrow",
    { rows, seed: SEED },
    rows * 64,
    async (dir) => {
      ctx.log(`writing ${rows.toLocaleString("en-US")} decisions as Arrow`);
      await writeDecisionsArrow(
        `${dir}/decisions.arrow`,
        await loadDecisionsParquet(parquet),
      );
    },
  );
  return `${got.dir}/decisions.arrow`;
}

/** The formats group: Parquet, CSV and Arrow `score` against DuckDB. */
export const formats: Group = {
  name: "formats",
  cases: CASES,
  rounds: 3,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    if (infos.length === 0) return [];
    const n = rowsOf(ctx, caseOf("score-parquet"));
    const large = rowsOf(ctx, caseOf("score-jsonl-duckdb-large"));
    const needs = (...names: string[]) => names.some((x) => selected.has(x));
    const files: Record<string, string> = {};
    if (
      needs("score-parquet", "score-arrow") ||
      needs("duckdb-process-parquet", "duckdb-query-parquet")
    ) {
      files.parquet = await cachedDecisionsParquet(
        ctx.cacheDir,
        n,
        SEED,
        ctx.log,
      );
    }
    if (needs("score-csv", "duckdb-process-csv", "duckdb-query-csv")) {
      files.csv = await cachedDecisionsCsv(ctx.cacheDir, n, SEED, ctx.log);
    }
    if (needs("score-arrow")) files.arrow = await cachedDecisionsArrow(ctx, n);
    if (needs("score-jsonl-duckdb-large", "score-stream-large")) {
      files.jsonl = await cachedDecisions(
        ctx.cacheDir,
        large,
        { seed: JSONL_SEED, classes: CLASSES },
        ctx.log,
      );
    }
    const score = async (args: string[], rows: number): Promise<Taken> => {
      const r = await scoreProcess(ctx, args, rows);
      return { seconds: r.seconds, peakRssBytes: r.peakRssBytes };
    };
    const query = async (file: string): Promise<Taken> => {
      const r = await duckdbBare(ctx, file, n);
      return {
        seconds: r.query,
        peakRssBytes: r.peakRssBytes,
        extra: { processSeconds: r.seconds },
      };
    };
    const process = async (file: string): Promise<Taken> => {
      const r = await duckdbBare(ctx, file, n);
      return {
        seconds: r.seconds,
        peakRssBytes: r.peakRssBytes,
        extra: { querySeconds: r.query },
      };
    };
    const take: Record<string, () => Promise<Taken>> = {
      "score-parquet": () => score([files.parquet], n),
      "duckdb-process-parquet": () => process(files.parquet),
      "duckdb-query-parquet": () => query(files.parquet),
      "score-csv": () => score([files.csv], n),
      "duckdb-process-csv": () => process(files.csv),
      "duckdb-query-csv": () => query(files.csv),
      "score-arrow": () => score([files.arrow], n),
      "score-jsonl-duckdb-large": () =>
        score([files.jsonl, "--engine", "duckdb"], large),
      "score-stream-large": () =>
        score([files.jsonl, "--engine", "memory"], large),
    };
    const runs = new Map<string, Taken[]>(infos.map((c) => [c.name, []]));
    const rounds = roundsOf(ctx, formats);
    for (let r = 0; r < rounds; r++) {
      for (const c of infos) {
        // the large JSONL cases take one round: they take long and measure memory
        if (r > 0 && c.rows === 10_000_000 && ctx.rounds === undefined) {
          continue;
        }
        ctx.log(`${c.name}, round ${r + 1} of ${rounds}`);
        runs.get(c.name)!.push(await take[c.name]());
      }
    }
    const source = await rssSource();
    const out: Result[] = [];
    for (const c of infos) {
      const taken = runs.get(c.name)!;
      const extras = taken.map((t) => t.extra).filter((e) => e !== undefined);
      const file = c.name.endsWith("csv")
        ? files.csv
        : c.name === "score-arrow"
        ? files.arrow
        : c.rows === 10_000_000
        ? files.jsonl
        : files.parquet;
      out.push(resultOf({
        name: c.name,
        what: c.what,
        timing: c.name.startsWith("duckdb-query") ? "in-process" : "process",
        rows: rowsOf(ctx, c),
        peakRssBytes: maxOrNull(taken.map((t) => t.peakRssBytes)),
        rssSource: c.name.startsWith("duckdb-query")
          ? `${source} (the whole DuckDB process)`
          : source,
        peers: c.peers?.filter((p) => selected.has(p)),
        extra: {
          fileBytes: (await Deno.stat(file)).size,
          ...(extras.length > 0 ? { runs: extras } : {}),
        },
      }, taken.map((t) => t.seconds)));
    }
    return out;
  },
};

function caseOf(name: string): CaseInfo {
  return CASES.find((c) => c.name === name)!;
}
