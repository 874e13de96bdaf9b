// `lossbook score --engine chdb` on 1,000,000 decisions as JSONL, Parquet
// and CSV, each whole process against chdb's own bare query on the same file
// (bench/_chdb_query.ts, also a whole deno process loading libchdb.so), with
// the peak RSS of each. Skipped with a message when chdb is not installed
// (`deno task lossbook engine install chdb`).
import {
  type CaseInfo,
  DENO_RUN,
  type Group,
  lastJson,
  roundsOf,
  rowsOf,
} from "../_case.ts";
import { cachedDecisions } from "../_decisions.ts";
import { cachedDecisionsCsv, cachedDecisionsParquet } from "../_parquet.ts";
import {
  maxOrNull,
  type Result,
  resultOf,
  rssSource,
  runTimed,
} from "../_measure.ts";
import { CLASSES, scoreProcess, SEED } from "./jsonl.ts";
import { installedChdb } from "../../lib/sql/chdb_install.ts";

const FORMATS = ["jsonl", "parquet", "csv"] as const;
type Format = typeof FORMATS[number];

const CASES: CaseInfo[] = FORMATS.flatMap((f) => [
  {
    name: `chdb-score-${f}`,
    what:
      `lossbook score FILE.${f} --engine chdb --json, whole process (deno run -A cli.ts)`,
    rows: 1_000_000,
    peers: [`chdb-process-${f}`],
  },
  {
    name: `chdb-process-${f}`,
    what:
      `chdb's bare typed file() read + GROUP BY on the .${f}, whole deno process`,
    rows: 1_000_000,
  },
]);

/** The chdb group: score --engine chdb against chdb's own query, per format. */
export const chdb: Group = {
  name: "chdb",
  cases: CASES,
  rounds: 3,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    if (infos.length === 0) return [];
    if (installedChdb() === null) {
      ctx.skip(
        infos.map((c) => c.name),
        "chdb is not installed (deno task lossbook engine install chdb)",
      );
      return [];
    }
    const n = rowsOf(ctx, infos[0]);
    const files: Partial<Record<Format, string>> = {};
    const fileOf = async (f: Format): Promise<string> => {
      files[f] ??= f === "jsonl"
        ? await cachedDecisions(
          ctx.cacheDir,
          n,
          { seed: SEED, classes: CLASSES },
          ctx.log,
        )
        : f === "parquet"
        ? await cachedDecisionsParquet(ctx.cacheDir, n, SEED, ctx.log)
        : await cachedDecisionsCsv(ctx.cacheDir, n, SEED, ctx.log);
      return files[f]!;
    };
    const runs = new Map<string, { seconds: number; rss: number | null }[]>(
      infos.map((c) => [c.name, []]),
    );
    const querySeconds = new Map<string, number[]>();
    const rounds = roundsOf(ctx, chdb);
    for (let r = 0; r < rounds; r++) {
      for (const c of infos) {
        ctx.log(`${c.name}, round ${r + 1} of ${rounds}`);
        const format = c.name.slice(c.name.lastIndexOf("-") + 1) as Format;
        const file = await fileOf(format);
        if (c.name.startsWith("chdb-score-")) {
          const run = await scoreProcess(ctx, [file, "--engine", "chdb"], n);
          runs.get(c.name)!.push({
            seconds: run.seconds,
            rss: run.peakRssBytes,
          });
        } else {
          const run = await runTimed(Deno.execPath(), [
            ...DENO_RUN,
            `${ctx.root}bench/_chdb_query.ts`,
            file,
          ], { cwd: ctx.root });
          const got = lastJson<{ seconds: number; n: number }>(run.stdout);
          if (got.n !== n) throw new Error(`chdb counted ${got.n} of ${n}`);
          runs.get(c.name)!.push({
            seconds: run.seconds,
            rss: run.peakRssBytes,
          });
          querySeconds.set(c.name, [
            ...querySeconds.get(c.name) ?? [],
            got.seconds,
          ]);
        }
      }
    }
    const source = await rssSource();
    const out: Result[] = [];
    for (const c of infos) {
      const format = c.name.slice(c.name.lastIndexOf("-") + 1) as Format;
      const taken = runs.get(c.name)!;
      const query = querySeconds.get(c.name);
      out.push(resultOf({
        name: c.name,
        what: c.what,
        timing: "process",
        rows: n,
        peakRssBytes: maxOrNull(taken.map((t) => t.rss)),
        rssSource: source,
        peers: c.peers?.filter((p) => selected.has(p)),
        extra: {
          fileBytes: (await Deno.stat(files[format]!)).size,
          ...(query === undefined ? {} : { querySeconds: query }),
        },
      }, taken.map((t) => t.seconds)));
    }
    return out;
  },
};
