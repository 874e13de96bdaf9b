// lossbook's benchmarks, one entry: `deno task bench` (deno run -A bench/run.ts).
//
//   deno task bench                       every case but the opt-in ones
//   deno task bench --list                the cases, their peers and sizes
//   deno task bench --only score-jsonl    one case (with the peers it is compared with)
//   deno task bench --only jsonl,ledger   whole groups, or several cases
//   options: --rows N (every selected case's size), --rounds N (runs of each),
//     --dir DIR (cache folder), --cli PATH (another cli.ts, for before/after),
//     --json (one JSON document on standard output; progress stays on stderr)
//
// Two kinds of case. Whole-process cases run as child processes, timed from
// spawn to exit, with the child's peak RSS: lossbook's CLI against its peers
// (DuckDB, pandas through Debian's /usr/bin/python3, psql, sha256sum). Work
// timed inside a process (a query, a function) runs in a worker process of
// its own (bench/_child.ts) that times only that work and reads its own peak
// RSS (VmHWM, reset before each run). The bench/*_bench.ts files run under
// `deno bench` as cases too (bench-scoring, ...), each group in them with a
// baseline, one line per entry.
//
// Peak RSS of a child: GNU time's %M (`/usr/bin/time`, apt-get install
// time) when installed, else VmHWM read from /proc/<pid>/status every 10 ms
// while the child runs (a lower bound). The header says which.
//
// Compared cases run interleaved, round by round (ours, peer, ours, peer),
// and each line gives the best and the median of its runs and its best
// over its peer's best (per row when their sizes differ): the machine may
// be shared, and a ratio measured in one run survives that better than a
// time does. Speed is never asserted by a test.
//
// Generated inputs (JSONL decisions, a ledger, Parquet files) are kept in
// the cache folder, --dir or $XDG_CACHE_HOME/lossbook/bench or
// ~/.cache/lossbook/bench, one folder per input named by its generator and
// a hash of its parameters, and reused; free disk is checked before
// anything is written. Remove the folder to reclaim the space.
//
// The PostgreSQL cases use the server of LOSSBOOK_TEST_PG_DSN, else start a
// throwaway one (scripts/pg_throwaway.sh); without psql or a server they are
// skipped with a message, as pandas' cases are without pandas, and the chdb
// cases without chdb (deno task lossbook engine install chdb).
import { parseArgs } from "node:util";
import { defaultCacheDir } from "./_cache.ts";
import type { CaseInfo, Context, Group } from "./_case.ts";
import {
  formatBytes,
  formatRatio,
  formatSeconds,
  type Result,
  rssSource,
} from "./_measure.ts";
import { chdb } from "./cases/chdb.ts";
import { denoBench } from "./cases/deno_bench.ts";
import { duckdb } from "./cases/duckdb.ts";
import { formats } from "./cases/formats.ts";
import { harness } from "./cases/harness.ts";
import { jsonl, stream } from "./cases/jsonl.ts";
import { keys } from "./cases/keys.ts";
import { ledger } from "./cases/ledger.ts";
import { policy } from "./cases/policy.ts";
import { explain, postgres } from "./cases/postgres.ts";
import { score } from "./cases/score.ts";
import { startup } from "./cases/startup.ts";
import { sweep } from "./cases/sweep.ts";
import { tasks } from "./cases/tasks.ts";

/** Every group, in the order a full run takes them. */
export const GROUPS: readonly Group[] = [
  jsonl,
  formats,
  startup,
  score,
  stream,
  keys,
  ledger,
  policy,
  sweep,
  tasks,
  harness,
  duckdb,
  postgres,
  explain,
  chdb,
  denoBench,
];

/** What the command line asked for. */
export interface RunArgs {
  /** `--only`: case or group names; undefined for every default case. */
  only?: string[];
  /** `--list`. */
  list: boolean;
  /** `--json`. */
  json: boolean;
  /** `--help`. */
  help: boolean;
  /** `--rows`. */
  rows?: number;
  /** `--rounds`. */
  rounds?: number;
  /** `--dir`. */
  dir?: string;
  /** `--cli`. */
  cli?: string;
}

/** A command-line mistake: the runner prints it with the usage. */
export class UsageError extends Error {
  override name = "UsageError";
}

export const USAGE =
  `usage: deno task bench [--list] [--only NAME[,NAME...]] [--rows N] [--rounds N]
                       [--dir DIR] [--cli PATH] [--json]
  --list      the cases (NAME), their groups, peers and default sizes
  --only      these cases (with the peers they are compared with), or groups
  --rows      every selected case's input size instead of its default
              (of the deno bench files, bench-tasks and bench-duckdb take it)
  --rounds    runs of each case instead of its group's default
              (deno bench picks its own iterations)
  --dir       cache folder for generated inputs
              (default $XDG_CACHE_HOME/lossbook/bench or ~/.cache/lossbook/bench)
  --cli       the cli.ts the process cases run (default this checkout's)
  --json      one JSON document on standard output`;

function positiveInteger(flag: string, text: string | undefined) {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!(/^[0-9]+$/.test(text) && Number.isSafeInteger(n) && n > 0)) {
    throw new UsageError(`${flag} must be a positive integer, got ${text}`);
  }
  return n;
}

/**
 * Read the runner's command line.
 *
 * @param argv The arguments after `bench/run.ts`.
 * @returns What they ask for.
 * @throws {UsageError} For an unknown option, a stray argument or a bad number.
 */
export function parseRunArgs(argv: readonly string[]): RunArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        only: { type: "string", multiple: true },
        list: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
        rows: { type: "string" },
        rounds: { type: "string" },
        dir: { type: "string" },
        cli: { type: "string" },
      },
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const v = parsed.values;
  const only = v.only?.flatMap((s) => s.split(",")).map((s) => s.trim())
    .filter((s) => s !== "");
  if (v.only !== undefined && only!.length === 0) {
    throw new UsageError("--only needs a case or group name");
  }
  return {
    only,
    list: v.list!,
    json: v.json!,
    help: v.help!,
    rows: positiveInteger("--rows", v.rows),
    rounds: positiveInteger("--rounds", v.rounds),
    dir: v.dir,
    cli: v.cli,
  };
}

/** Every case, with its group. */
export function allCases(
  groups: readonly Group[] = GROUPS,
): { group: Group; info: CaseInfo }[] {
  return groups.flatMap((group) =>
    group.cases.map((info) => ({ group, info }))
  );
}

/**
 * The cases to run: those named (and, for a group name, its cases), with
 * the peers they are compared with, or every case that is not opt-in.
 *
 * @param only Names from `--only`, or undefined.
 * @param groups The groups.
 * @returns Selected case names.
 * @throws {UsageError} For a name that is neither a case nor a group.
 */
export function selectCases(
  only: readonly string[] | undefined,
  groups: readonly Group[] = GROUPS,
): Set<string> {
  const cases = allCases(groups);
  const byName = new Map(cases.map((c) => [c.info.name, c.info]));
  const selected = new Set<string>();
  const add = (name: string) => {
    if (selected.has(name)) return;
    selected.add(name);
    for (const p of byName.get(name)!.peers ?? []) add(p);
  };
  if (only === undefined) {
    for (const c of cases) if (!c.info.optIn) add(c.info.name);
    return selected;
  }
  for (const name of only) {
    const group = groups.find((g) => g.name === name);
    if (group !== undefined) {
      for (const c of group.cases) if (!c.optIn) add(c.name);
    } else if (byName.has(name)) add(name);
    else {
      throw new UsageError(
        `no case or group named ${name} (deno task bench --list shows them)`,
      );
    }
  }
  return selected;
}

/** The `--list` table: one line per case. */
export function listText(groups: readonly Group[] = GROUPS): string {
  const rows = allCases(groups).map(({ group, info }) => [
    info.name,
    group.name,
    info.rows === undefined ? "" : info.rows.toLocaleString("en-US"),
    (info.peers ?? []).join(","),
    `${info.optIn ? "(opt-in) " : ""}${info.what}`,
  ]);
  const head = ["case", "group", "size", "peers", "what"];
  const width = head.map((h, i) =>
    Math.max(h.length, ...rows.slice().map((r) => r[i].length))
  );
  return [head, ...rows].map((r) =>
    r.map((cell, i) => i === r.length - 1 ? cell : cell.padEnd(width[i])).join(
      "  ",
    )
  ).join("\n");
}

/**
 * Fill in each result's ratio to its peers: its best over the peer's best,
 * per row when their sizes differ; and, in `extra`, the same of medians and
 * its peak RSS over theirs. A `deno bench` result comes with its ratio (mean
 * over its group baseline's mean).
 *
 * @param results The run's results (changed in place).
 */
export function addRatios(results: Result[]): void {
  const byName = new Map(results.map((r) => [r.name, r]));
  for (const r of results) {
    if (r.ratios !== undefined || r.peers === undefined) continue;
    const ratios: Record<string, number> = {};
    const medians: Record<string, number> = {};
    for (const p of r.peers) {
      const peer = byName.get(p);
      if (peer === undefined) continue;
      const scale = r.rows !== undefined && peer.rows !== undefined &&
          r.rows !== peer.rows && r.rows > 0
        ? peer.rows / r.rows
        : 1;
      ratios[p] = (r.best / peer.best) * scale;
      if (r.median !== null && peer.median !== null) {
        medians[p] = (r.median / peer.median) * scale;
      }
    }
    r.ratios = ratios;
    if (Object.keys(medians).length > 0) {
      r.extra = { ...r.extra, ratiosOfMedians: medians };
    }
    const rss: Record<string, number> = {};
    for (const p of r.peers) {
      const theirs = byName.get(p)?.peakRssBytes;
      if (r.peakRssBytes !== null && theirs) {
        rss[p] = r.peakRssBytes / theirs;
      }
    }
    if (Object.keys(rss).length > 0) {
      r.extra = { ...r.extra, peakRssRatios: rss };
    }
  }
}

/** One output line for a result. */
export function resultLine(r: Result): string {
  const bench = r.timing === "deno bench";
  // a deno bench entry: its file's case, then the entry after the figures
  const [name, entry] = bench
    ? [
      r.name.slice(0, r.name.indexOf(": ")),
      r.name.slice(r.name.indexOf(": ") + 2),
    ]
    : [r.name, ""];
  const ratios = Object.entries(r.ratios ?? {}).map(([p, x]) =>
    `${formatRatio(x)} ${bench ? "its group's baseline" : p}`
  ).join(", ");
  const middle = r.median !== null
    ? `median ${formatSeconds(r.median)}`
    : `mean ${formatSeconds(r.avg)}`;
  const runs = bench
    ? `deno bench${r.extra?.baseline ? ", baseline" : ""}: ${entry}`
    : `${r.timing}, ${r.samples.length} run${
      r.samples.length === 1 ? "" : "s"
    }`;
  const size = r.rows === undefined
    ? ""
    : `${r.rows.toLocaleString("en-US")} rows, `;
  return `${name.padEnd(26)} best ${formatSeconds(r.best).padStart(9)}  ${
    middle.padEnd(17)
  } peak RSS ${formatBytes(r.peakRssBytes).padStart(9)}  ${
    ratios === "" ? "-" : ratios
  }  (${size}${runs})`;
}

async function loadAverage(): Promise<string | null> {
  try {
    return (await Deno.readTextFile("/proc/loadavg")).trim();
  } catch {
    return null;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  let args: RunArgs;
  let selected: Set<string>;
  try {
    args = parseRunArgs(argv);
    selected = selectCases(args.only);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`bench/run.ts: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (args.list) {
    console.log(listText());
    return 0;
  }
  const root = new URL("../", import.meta.url).pathname;
  const cacheDir = args.dir === undefined
    ? defaultCacheDir()
    : args.dir.startsWith("/")
    ? args.dir
    : `${Deno.cwd()}/${args.dir}`;
  const skipped: { cases: string[]; reason: string }[] = [];
  const failed: { group: string; error: string }[] = [];
  const say = (line: string) =>
    args.json ? console.error(line) : console.log(line);
  const ctx: Context = {
    root,
    cli: args.cli === undefined
      ? `${root}cli.ts`
      : args.cli.startsWith("/")
      ? args.cli
      : `${Deno.cwd()}/${args.cli}`,
    cacheDir,
    rows: args.rows,
    rounds: args.rounds,
    log: (m) => console.error(`  .. ${m}`),
    skip: (cases, reason) => {
      skipped.push({ cases: [...cases], reason });
      say(`${cases.join(", ")}: skipped, ${reason}`);
    },
  };
  const header = {
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    cores: navigator.hardwareConcurrency,
    loadAverage: await loadAverage(),
    rssSource: await rssSource(),
    cacheDir,
  };
  say(
    `lossbook benchmarks: deno ${header.deno}, ${header.cores} cores, load ${header.loadAverage}, peak RSS from ${header.rssSource}, cache ${cacheDir}`,
  );
  const results: Result[] = [];
  for (const group of GROUPS) {
    const mine = new Set(
      group.cases.map((c) => c.name).filter((n) => selected.has(n)),
    );
    if (mine.size === 0) continue;
    console.error(`== ${group.name}: ${[...mine].join(", ")}`);
    try {
      const got = await group.run(ctx, mine);
      addRatios(got);
      for (const r of got) say(resultLine(r));
      results.push(...got);
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      failed.push({ group: group.name, error });
      say(`${group.name}: FAILED: ${error}`);
    }
  }
  const loadAfter = await loadAverage();
  say(`load average after: ${loadAfter}`);
  if (args.json) {
    console.log(JSON.stringify(
      {
        ...header,
        loadAverageAfter: loadAfter,
        results,
        skipped,
        failed,
      },
      null,
      2,
    ));
  }
  return failed.length > 0 ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
