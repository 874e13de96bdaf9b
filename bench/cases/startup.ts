// The whole-process time of `lossbook score --json` on a small JSONL export
// (1,000 seeded decisions, two models), where starting the process is most
// of the cost, against the same score with one resample (start-up and
// reading with next to no resampling), `deno eval 1` (a Deno process that
// loads nothing, the floor), `cli.ts --version` (the CLI's own start,
// without any command module), and the score's reading and scoring inside a
// started process (what is left of the process time is start-up). One
// untimed run of each fills Deno's code cache first.
import {
  type CaseInfo,
  type Children,
  DENO_RUN,
  type Group,
  roundsOf,
  rowsOf,
  worker,
} from "../_case.ts";
import { cachedDecisions } from "../_decisions.ts";
import {
  IN_PROCESS_RSS,
  maxOrNull,
  resultOf,
  rssSource,
  runTimed,
  timeInProcess,
} from "../_measure.ts";

const CLASSES: Record<string, string[]> = {
  HIGH: ["AMOUNT_MISMATCH", "FX_CONVERSION_ERROR", "BENEFICIARY_MISMATCH"],
  MEDIUM: ["VALUE_DATE_MISMATCH", "MISSING_MESSAGE"],
  LOW: ["DUPLICATE", "FIELD_CORRUPTION"],
  CRITICAL: ["HERSTATT_EXPOSURE"],
};
const SEED = 20261201;

const CASES: CaseInfo[] = [
  {
    name: "startup-score",
    what: "lossbook score FILE --json on a small file, whole process",
    rows: 1000,
    peers: ["startup-deno-eval", "startup-compute"],
  },
  {
    name: "startup-score-r1",
    what: "the same with --resamples 1, whole process",
    rows: 1000,
    peers: ["startup-deno-eval"],
  },
  {
    name: "startup-version",
    what: "cli.ts --version, whole process",
    peers: ["startup-deno-eval"],
  },
  {
    name: "startup-deno-eval",
    what: "deno eval 1, whole process (the floor)",
  },
  {
    name: "startup-compute",
    what:
      "jsonlStatsFile + scoreModels on the small file, in a started process",
    rows: 1000,
  },
];

/** Functions the startup group runs in a worker. */
export const children: Children = {
  /** The score's own reading and scoring, `rounds` times, warm. */
  async compute(args: { file: string; rounds: number; n: number }) {
    const { scoreModels } = await import("../../api/score.ts");
    const { SHIPPED_PROFILES } = await import("../../lib/costs/shipped.ts");
    const { jsonlStatsFile } = await import("../../lib/read/jsonl_stats.ts");
    const runs = [];
    for (let r = 0; r < args.rounds; r++) {
      runs.push(
        await timeInProcess(async () => {
          const { stats, decisions } = await jsonlStatsFile(args.file);
          if (decisions !== args.n) throw new Error(`read ${decisions}`);
          scoreModels(stats, SHIPPED_PROFILES, {
            mode: "consequence",
            level: 0.95,
            seed: 0,
            resamples: 1000,
            confusion: false,
          });
        }),
      );
    }
    return runs.map(({ seconds, peakRssBytes }) => ({ seconds, peakRssBytes }));
  },
};

/** The start-up group: small whole processes and their floor. */
export const startup: Group = {
  name: "startup",
  cases: CASES,
  rounds: 7,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    const n = rowsOf(ctx, CASES[0]);
    const file = await cachedDecisions(
      ctx.cacheDir,
      n,
      { seed: SEED, classes: CLASSES },
      ctx.log,
    );
    const check = (out: string) => {
      const decisions = JSON.parse(out).decisions;
      if (decisions !== n) {
        throw new Error(`score read ${decisions} decisions, expected ${n}`);
      }
    };
    const processes: Record<string, [string[], (out: string) => void]> = {
      "startup-score": [[...DENO_RUN, ctx.cli, "score", file, "--json"], check],
      "startup-score-r1": [
        [...DENO_RUN, ctx.cli, "score", file, "--json", "--resamples", "1"],
        check,
      ],
      "startup-version": [[...DENO_RUN, ctx.cli, "--version"], (out) => {
        if (!/^\d+\.\d+\.\d+/.test(out)) {
          throw new Error(`--version printed ${out}`);
        }
      }],
      "startup-deno-eval": [["eval", "1"], () => {}],
    };
    const timed = infos.filter((c) => c.name in processes);
    const once = async (name: string) => {
      const [args, checkOut] = processes[name];
      const run = await runTimed(Deno.execPath(), args, { cwd: ctx.root });
      checkOut(run.stdout);
      return run;
    };
    for (const c of timed) await once(c.name);
    const rounds = roundsOf(ctx, startup);
    const runs = new Map(
      timed.map((c) => [c.name, [] as Awaited<ReturnType<typeof once>>[]]),
    );
    for (let r = 0; r < rounds; r++) {
      ctx.log(`round ${r + 1} of ${rounds}`);
      for (const c of timed) runs.get(c.name)!.push(await once(c.name));
    }
    const source = await rssSource();
    const out = timed.map((c) => {
      const taken = runs.get(c.name)!;
      return resultOf({
        name: c.name,
        what: c.what,
        timing: "process",
        rows: c.rows === undefined ? undefined : n,
        peakRssBytes: maxOrNull(taken.map((t) => t.peakRssBytes)),
        rssSource: source,
        peers: c.peers?.filter((p) => selected.has(p)),
      }, taken.map((t) => t.seconds));
    });
    if (selected.has("startup-compute")) {
      ctx.log("startup-compute");
      const { value } = await worker<
        { seconds: number; peakRssBytes: number | null }[]
      >(ctx, "startup", "compute", { file, rounds, n });
      out.push(resultOf({
        name: "startup-compute",
        what: caseWhat("startup-compute"),
        timing: "in-process",
        rows: n,
        peakRssBytes: maxOrNull(value.map((v) => v.peakRssBytes)),
        rssSource: IN_PROCESS_RSS,
      }, value.map((v) => v.seconds)));
    }
    return out;
  },
};

function caseWhat(name: string): string {
  return CASES.find((c) => c.name === name)!.what;
}
