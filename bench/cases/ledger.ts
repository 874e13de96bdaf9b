// A 1,000,000-record ledger: verified against coreutils `sha256sum` over the
// same bytes (lossbook's verifier in a started process, and the CLI end to
// end), interleaved, page cache warm; and replayed under 1,000 thresholds,
// the one-sort cost curve against the naive way, one replay per threshold
// (timed on 10 of the thresholds and scaled), after the ledger is loaded
// into columns.
import {
  type CaseInfo,
  type Children,
  DENO_RUN,
  type Group,
  roundsOf,
  rowsOf,
  worker,
} from "../_case.ts";
import { cachedInput } from "../_cache.ts";
import {
  IN_PROCESS_RSS,
  maxOrNull,
  type Result,
  resultOf,
  rssSource,
  runTimed,
  timeInProcess,
} from "../_measure.ts";

// bytes a record, from an earlier run (768 MB a million), with room
const BYTES_PER_RECORD = 800;

/** The cached ledger of `n` simulated records, day by day. */
async function cachedLedger(
  cacheDir: string,
  n: number,
  log: (m: string) => void,
): Promise<string> {
  const perDay = 20_000;
  const params = { n, perDay, start: "2026-01-01", profile: "reconciliation" };
  const got = await cachedInput(
    cacheDir,
    "ledger",
    params,
    n * BYTES_PER_RECORD,
    async (dir) => {
      log(`generating a ledger of ${n.toLocaleString("en-US")} records`);
      const { getProfile } = await import("../../lib/costs/load.ts");
      const { thresholdPolicy } = await import("../../lib/ledger/policy.ts");
      const { simulateLedgerMonth } = await import(
        "../../lib/ledger/simulate_month.ts"
      );
      const { openLedger } = await import("../../lib/ledger/writer.ts");
      const { SIMULATED_MODELS } = await import("../../lib/tasks/simulate.ts");
      const profile = getProfile("reconciliation");
      // day by day, so a million records never sit in memory at once
      await using w = await openLedger(`${dir}/ledger.jsonl`);
      let written = 0;
      for (let day = 0; written < n; day++) {
        const start = new Date(
          Date.parse(`${params.start}T00:00:00Z`) + day * 86_400_000,
        ).toISOString().slice(0, 10);
        const month = simulateLedgerMonth({
          start,
          days: 1,
          casesPerDay: perDay,
          mix: {
            clean: 0.7,
            LOW: 0.1,
            MEDIUM: 0.1,
            HIGH: 0.08,
            CRITICAL: 0.02,
          },
          served: SIMULATED_MODELS.small_severity_shaped,
          policy: thresholdPolicy("bench-desk", 0.15),
          profile,
        }, { seed: day });
        const records = month.records.slice(0, n - written);
        await w.append(records);
        written += records.length;
      }
    },
  );
  if (!got.reused) log(`generated in ${got.seconds.toFixed(1)} s: ${got.dir}`);
  return `${got.dir}/ledger.jsonl`;
}

// the thresholds (of 1,000) the naive way is timed on
const SAMPLED_THRESHOLDS = [0, 111, 222, 333, 444, 555, 666, 777, 888, 999];

interface Timed {
  seconds: number;
  peakRssBytes: number | null;
}

interface ReplayOut {
  load: Timed;
  cases: number;
  curve: Timed[];
  naivePerThreshold: number[];
  naivePeakRssBytes: number | null;
  one: Timed[];
}

/** Functions the ledger group runs in a worker. */
export const children: Children = {
  /** verifyLedgerFile once, timed. */
  async verify(args: { file: string; n: number }): Promise<Timed> {
    const { verifyLedgerFile } = await import("../../lib/ledger/verify.ts");
    const t = await timeInProcess(() => verifyLedgerFile(args.file));
    if (!t.value.valid || t.value.records !== args.n) {
      throw new Error(`verify: ${t.value.reason}`);
    }
    return { seconds: t.seconds, peakRssBytes: t.peakRssBytes };
  },
  /** Load into columns, then the curve, the naive replays and one replay. */
  async replay(
    args: { file: string; n: number; rounds: number; names: string[] },
  ): Promise<ReplayOut> {
    const { getProfile } = await import("../../lib/costs/load.ts");
    const { ledgerColumns } = await import("../../lib/ledger/columns.ts");
    const { ledgerEntries } = await import("../../lib/ledger/read.ts");
    const { costCurve, linearThresholds, replay } = await import(
      "../../lib/ledger/replay.ts"
    );
    const { readHeadFile } = await import("../../lib/ledger/verify.ts");
    const profile = getProfile("reconciliation");
    const want = new Set(args.names);
    const loaded = await timeInProcess(async () => {
      const bytes = await Deno.readFile(args.file);
      return ledgerColumns(ledgerEntries(bytes, { path: args.file }), {
        path: args.file,
      });
    });
    if ((await readHeadFile(args.file))?.seq !== args.n) {
      throw new Error("head file does not match");
    }
    const cols = loaded.value;
    const grid = linearThresholds(0, 1, { count: 1000 });
    const curveRuns: Timed[] = [];
    let curve = costCurve(cols, grid, { profile });
    for (
      let r = 0;
      r < Math.max(5, args.rounds) && want.has("ledger-curve");
      r++
    ) {
      const t = await timeInProcess(() => costCurve(cols, grid, { profile }));
      curve = t.value;
      curveRuns.push({ seconds: t.seconds, peakRssBytes: t.peakRssBytes });
    }
    // naive: one full replay per threshold, on 10 of the 1,000, each round
    const naivePerThreshold: number[] = [];
    let naivePeak: number | null = null;
    for (let r = 0; r < args.rounds && want.has("ledger-replay-naive"); r++) {
      let seconds = 0;
      for (const i of SAMPLED_THRESHOLDS) {
        const t = await timeInProcess(() =>
          replay(cols, { threshold: grid[i] }, {
            profile,
            diff: false,
            resamples: 1,
          })
        );
        const after = t.value.after.loss;
        if (
          Math.abs(after - curve.loss[i]) > 1e-6 * Math.max(1, after) &&
          t.value.unevaluable.cases === curve.unevaluable[i]
        ) {
          throw new Error(`curve and replay disagree at ${grid[i]}`);
        }
        seconds += t.seconds;
        naivePeak = maxOrNull([naivePeak, t.peakRssBytes]);
      }
      naivePerThreshold.push(seconds / SAMPLED_THRESHOLDS.length);
    }
    const one: Timed[] = [];
    for (let r = 0; r < args.rounds && want.has("ledger-replay-one"); r++) {
      const t = await timeInProcess(() =>
        replay(cols, { threshold: 0.3 }, { profile })
      );
      one.push({ seconds: t.seconds, peakRssBytes: t.peakRssBytes });
    }
    return {
      load: { seconds: loaded.seconds, peakRssBytes: loaded.peakRssBytes },
      cases: cols.cases,
      curve: curveRuns,
      naivePerThreshold,
      naivePeakRssBytes: naivePeak,
      one,
    };
  },
};

const N = 1_000_000;
const CASES: CaseInfo[] = [
  {
    name: "ledger-verify",
    what:
      "verifyLedgerFile (hash, link and position of each line), in a started process",
    rows: N,
    peers: ["ledger-sha256sum"],
  },
  {
    name: "ledger-verify-cli",
    what: "lossbook ledger verify FILE --json, whole process",
    rows: N,
    peers: ["ledger-sha256sum"],
  },
  {
    name: "ledger-sha256sum",
    what: "coreutils sha256sum over the same file, whole process",
    rows: N,
  },
  {
    name: "ledger-load",
    what: "read the ledger into columns, in a started process",
    rows: N,
  },
  {
    name: "ledger-curve",
    what: "costCurve over 1,000 thresholds: one sort and prefix sums",
    rows: N,
    peers: ["ledger-replay-naive"],
  },
  {
    name: "ledger-replay-naive",
    what:
      "one replay() per threshold, 1,000 thresholds (10 timed per run, scaled)",
    rows: N,
  },
  {
    name: "ledger-replay-one",
    what: "one replay at 0.3 with diff and a 1,000-resample paired interval",
    rows: N,
  },
];

/** The ledger group. */
export const ledger: Group = {
  name: "ledger",
  cases: CASES,
  rounds: 3,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    const n = rowsOf(ctx, CASES[0]);
    const file = await cachedLedger(ctx.cacheDir, n, ctx.log);
    const size = (await Deno.stat(file)).size;
    const rounds = roundsOf(ctx, ledger);
    const source = await rssSource();
    const out: Result[] = [];
    const verifying = infos.filter((c) =>
      ["ledger-verify", "ledger-verify-cli", "ledger-sha256sum"].includes(
        c.name,
      )
    );
    if (verifying.length > 0) {
      // warm the page cache so every side reads from memory
      await Deno.readFile(file);
      const take: Record<string, () => Promise<Timed & { whole?: number }>> = {
        "ledger-sha256sum": async () => {
          const r = await runTimed("sha256sum", [file]);
          return { seconds: r.seconds, peakRssBytes: r.peakRssBytes };
        },
        "ledger-verify": async () => {
          const { value, run } = await worker<Timed>(ctx, "ledger", "verify", {
            file,
            n,
          });
          return { ...value, whole: run.seconds };
        },
        "ledger-verify-cli": async () => {
          const r = await runTimed(Deno.execPath(), [
            ...DENO_RUN,
            ctx.cli,
            "ledger",
            "verify",
            file,
            "--json",
          ], { cwd: ctx.root });
          const doc = JSON.parse(r.stdout);
          if (!doc.valid || doc.records !== n) {
            throw new Error(`CLI verify: ${r.stdout}`);
          }
          return { seconds: r.seconds, peakRssBytes: r.peakRssBytes };
        },
      };
      const runs = new Map(verifying.map((c) => [c.name, [] as Timed[]]));
      for (let r = 0; r < rounds; r++) {
        for (const c of verifying) {
          ctx.log(`${c.name}, round ${r + 1} of ${rounds}`);
          runs.get(c.name)!.push(await take[c.name]());
        }
      }
      for (const c of verifying) {
        const taken = runs.get(c.name)!;
        out.push(resultOf({
          name: c.name,
          what: c.what,
          timing: c.name === "ledger-verify" ? "in-process" : "process",
          rows: n,
          peakRssBytes: maxOrNull(taken.map((t) => t.peakRssBytes)),
          rssSource: c.name === "ledger-verify" ? IN_PROCESS_RSS : source,
          peers: c.peers?.filter((p) => selected.has(p)),
          extra: { fileBytes: size },
        }, taken.map((t) => t.seconds)));
      }
    }
    const replaying = infos.filter((c) => !verifying.includes(c));
    if (replaying.length > 0) {
      ctx.log("loading the ledger, then the replay cases");
      const { value } = await worker<ReplayOut>(ctx, "ledger", "replay", {
        file,
        n,
        rounds,
        names: replaying.map((c) => c.name),
      });
      const base = (c: CaseInfo) => ({
        name: c.name,
        what: c.what,
        rows: n,
        rssSource: IN_PROCESS_RSS,
        peers: c.peers?.filter((p) => selected.has(p)),
        extra: { cases: value.cases },
      });
      for (const c of replaying) {
        if (c.name === "ledger-load") {
          out.push(resultOf({
            ...base(c),
            timing: "in-process",
            peakRssBytes: value.load.peakRssBytes,
          }, [value.load.seconds]));
        } else if (
          c.name === "ledger-curve" || c.name === "ledger-replay-one"
        ) {
          const taken = c.name === "ledger-curve" ? value.curve : value.one;
          out.push(resultOf({
            ...base(c),
            timing: "in-process",
            peakRssBytes: maxOrNull(taken.map((t) => t.peakRssBytes)),
          }, taken.map((t) => t.seconds)));
        } else {
          out.push(resultOf({
            ...base(c),
            timing: "extrapolated",
            peakRssBytes: value.naivePeakRssBytes,
            extra: {
              cases: value.cases,
              meanPerThresholdSeconds: value.naivePerThreshold,
              thresholdsTimed: SAMPLED_THRESHOLDS.length,
              scaledTo: 1000,
            },
          }, value.naivePerThreshold.map((s) => s * 1000)));
        }
      }
    }
    return out;
  },
};
