// Scoring a 1,000,000-decision JSONL export inside a started process, under
// the four shipped profiles with per-severity recall and 1,000-resample
// intervals, against peers measured in the same run on the same file:
//   - the same score with the bootstrap loss intervals (--interval
//     bootstrap), the default ones' (Fay-Feuer, plus 1,000 posterior draws
//     per model for pBest) cost;
//   - the floor: a bare loop that reads the file and JSON-parses each line;
//   - scoreModels alone on the statistics, both interval methods: the part
//     that differs between them, without the shared scan and its noise;
//   - pandas (Debian's python3-pandas): read_json(lines=True) plus a groupby
//     computing the same loss under the four profiles and the same recall,
//     timed by python after its imports. The two must agree before their
//     times are compared.
import {
  type CaseInfo,
  type Children,
  type Group,
  roundsOf,
  rowsOf,
  worker,
} from "../_case.ts";
import { cachedDecisions } from "../_decisions.ts";
import {
  IN_PROCESS_RSS,
  maxOrNull,
  type Result,
  resultOf,
  rssSource,
  runTimed,
  timeInProcess,
} from "../_measure.ts";
import { hasPandas } from "./jsonl.ts";

const CLASSES: Record<string, string[]> = {
  HIGH: [
    "AMOUNT_MISMATCH",
    "FX_CONVERSION_ERROR",
    "BENEFICIARY_MISMATCH",
    "COUNTERPARTY_MISMATCH",
  ],
  MEDIUM: ["VALUE_DATE_MISMATCH", "MISSING_MESSAGE", "PARTIAL_MATCH"],
  LOW: ["DUPLICATE", "FIELD_CORRUPTION"],
  CRITICAL: ["HERSTATT_EXPOSURE"],
};
const SEED = 20261129;

const PANDAS = `
import sys, time, json
import pandas as pd
t = time.perf_counter()
df = pd.read_json(sys.argv[1], lines=True)
profiles = json.loads(sys.argv[2])
esc = df["action"] == "escalate"
wrong = df["predClass"] != df["trueClass"]
missed = (~esc) & wrong & (df["trueClass"] != "MATCH") & (df["predClass"] == "MATCH")
review = esc | ((~esc) & wrong & ~missed)
out = {}
for pid, p in profiles.items():
    k = df["severity"].map(p["K"])
    cost = missed * k + review * p["reviewCost"]
    out[pid] = cost.groupby(df["modelId"]).sum().to_dict()
exc = df[df["trueClass"] != "MATCH"]
recall = (exc["predClass"] == exc["trueClass"]).groupby([exc["modelId"], exc["severity"]]).mean().to_dict()
print(json.dumps({"seconds": time.perf_counter() - t, "loss": out, "recall": {f"{a}|{b}": v for (a, b), v in recall.items()}}))
`;

const CASES: CaseInfo[] = [
  {
    name: "score-inprocess",
    what:
      "jsonlStats + scoreModels, 4 profiles, recall, default intervals, in a started process",
    rows: 1_000_000,
    peers: ["parse-floor", "score-inprocess-bootstrap"],
  },
  {
    name: "score-inprocess-bootstrap",
    what: "the same with --interval bootstrap",
    rows: 1_000_000,
  },
  {
    name: "parse-floor",
    what: "read the file and JSON.parse every line (the floor)",
    rows: 1_000_000,
  },
  {
    name: "intervals",
    what: "scoreModels alone on the statistics, default intervals",
    rows: 1_000_000,
    peers: ["intervals-bootstrap"],
  },
  {
    name: "intervals-bootstrap",
    what: "scoreModels alone on the statistics, --interval bootstrap",
    rows: 1_000_000,
  },
  {
    name: "pandas-score",
    what:
      "pandas read_json + loss under 4 profiles and recall, timed inside python",
    rows: 1_000_000,
    peers: ["score-inprocess"],
  },
];

interface Timed {
  seconds: number;
  peakRssBytes: number | null;
}

interface InProcessOut {
  runs: Record<string, Timed[]>;
  /** loss per profile and recall per severity of each model, for pandas */
  models: {
    modelId: string;
    loss: Record<string, number | null>;
    recall: Record<string, number | null>;
  }[];
}

/** Functions the score group runs in a worker. */
export const children: Children = {
  /** The in-process cases, interleaved as before. */
  async inprocess(
    args: {
      file: string;
      rounds: number;
      intervalRounds: number;
      names: string[];
    },
  ): Promise<InProcessOut> {
    const { SHIPPED_PROFILES } = await import("../../lib/costs/load.ts");
    const { jsonlStats } = await import("../../lib/read/jsonl_text_stats.ts");
    const { scoreModels } = await import("../../api/score.ts");
    const want = new Set(args.names);
    const runs: Record<string, Timed[]> = {};
    const keep = (name: string, t: Timed) => (runs[name] ??= []).push(t);
    const options = (interval: "auto" | "bootstrap") => ({
      mode: "consequence" as const,
      level: 0.95,
      seed: 0,
      resamples: 1000,
      confusion: false,
      interval,
    });
    let last: ReturnType<typeof scoreModels> = [];
    for (let r = 0; r < args.rounds; r++) {
      if (want.has("parse-floor")) {
        const t = await timeInProcess(async () => {
          const text = await Deno.readTextFile(args.file);
          let trials = 0;
          for (const line of text.split("\n")) {
            if (line.length > 0) trials += JSON.parse(line).trial;
          }
          if (trials !== 0) throw new Error("unexpected");
        });
        keep("parse-floor", t);
      }
      // alternating, so that neither always runs on a warmer machine
      const order = r % 2 === 0
        ? (["auto", "bootstrap"] as const)
        : (["bootstrap", "auto"] as const);
      for (const interval of order) {
        const name = interval === "auto"
          ? "score-inprocess"
          : "score-inprocess-bootstrap";
        if (!want.has(name)) continue;
        const t = await timeInProcess(async () => {
          const { stats } = jsonlStats(await Deno.readTextFile(args.file), {
            path: args.file,
          });
          return scoreModels(stats, SHIPPED_PROFILES, options(interval));
        });
        keep(name, t);
        if (interval === "auto") last = t.value;
      }
    }
    if (want.has("intervals") || want.has("intervals-bootstrap")) {
      const { stats } = jsonlStats(await Deno.readTextFile(args.file), {
        path: args.file,
      });
      for (let r = 0; r < args.intervalRounds; r++) {
        for (
          const interval of r % 2 === 0
            ? ["auto", "bootstrap"] as const
            : ["bootstrap", "auto"] as const
        ) {
          const name = interval === "auto"
            ? "intervals"
            : "intervals-bootstrap";
          if (!want.has(name)) continue;
          keep(
            name,
            await timeInProcess(() =>
              scoreModels(stats, SHIPPED_PROFILES, options(interval))
            ),
          );
        }
      }
    }
    const strip = (t: Timed) => ({
      seconds: t.seconds,
      peakRssBytes: t.peakRssBytes,
    });
    return {
      runs: Object.fromEntries(
        Object.entries(runs).map(([k, v]) => [k, v.map(strip)]),
      ),
      models: last.map((m) => ({
        modelId: m.modelId,
        loss: m.loss,
        recall: m.recallBySeverity,
      })),
    };
  },
};

/** The in-process score group and its pandas peer. */
export const score: Group = {
  name: "score",
  cases: CASES,
  rounds: 3,
  async run(ctx, selected) {
    const names = CASES.map((c) => c.name).filter((n) => selected.has(n));
    const withPandas = names.includes("pandas-score");
    if (withPandas && !(await hasPandas())) {
      ctx.skip(
        ["pandas-score"],
        "no pandas for /usr/bin/python3 (apt-get install python3-pandas)",
      );
      names.splice(names.indexOf("pandas-score"), 1);
    }
    if (names.length === 0) return [];
    const n = rowsOf(ctx, CASES[0]);
    const file = await cachedDecisions(
      ctx.cacheDir,
      n,
      { seed: SEED, classes: CLASSES },
      ctx.log,
    );
    const rounds = roundsOf(ctx, score);
    ctx.log(`in-process cases, ${rounds} rounds`);
    const { value } = await worker<InProcessOut>(ctx, "score", "inprocess", {
      file,
      rounds,
      intervalRounds: ctx.rounds ?? 10,
      names,
    });
    const out: Result[] = [];
    for (const c of CASES) {
      const taken = value.runs[c.name];
      if (taken === undefined) continue;
      out.push(resultOf({
        name: c.name,
        what: c.what,
        timing: "in-process",
        rows: n,
        peakRssBytes: maxOrNull(taken.map((t) => t.peakRssBytes)),
        rssSource: IN_PROCESS_RSS,
        peers: c.peers?.filter((p) => selected.has(p)),
      }, taken.map((t) => t.seconds)));
    }
    if (names.includes("pandas-score")) {
      const { SHIPPED_PROFILES } = await import("../../lib/costs/load.ts");
      const { SEVERITIES } = await import("../../lib/costs/severity.ts");
      const profiles = Object.fromEntries(
        SHIPPED_PROFILES.map((
          p,
        ) => [p.id, { K: p.K, reviewCost: p.reviewCost }]),
      );
      const own: number[] = [];
      const whole: number[] = [];
      const rss: (number | null)[] = [];
      for (let r = 0; r < rounds; r++) {
        ctx.log(`pandas-score, round ${r + 1} of ${rounds}`);
        const run = await runTimed("/usr/bin/python3", [
          "-c",
          PANDAS,
          file,
          JSON.stringify(profiles),
        ]);
        const pandas = JSON.parse(run.stdout);
        // the two implementations must agree before their speeds are compared
        for (const m of value.models) {
          for (const p of SHIPPED_PROFILES) {
            const theirs = pandas.loss[p.id][m.modelId];
            if (Math.abs(theirs - m.loss[p.id]!) > 1e-6 * Math.max(1, theirs)) {
              throw new Error(
                `pandas and lossbook disagree on ${m.modelId} ${p.id}: ${theirs} vs ${
                  m.loss[p.id]
                }`,
              );
            }
          }
          for (const s of SEVERITIES) {
            const theirs = pandas.recall[`${m.modelId}|${s}`];
            if (
              theirs !== undefined && Math.abs(theirs - m.recall[s]!) > 1e-12
            ) {
              throw new Error(
                `pandas and lossbook disagree on recall ${m.modelId} ${s}`,
              );
            }
          }
        }
        own.push(pandas.seconds);
        whole.push(run.seconds);
        rss.push(run.peakRssBytes);
      }
      out.push(resultOf({
        name: "pandas-score",
        what: CASES.at(-1)!.what,
        timing: "in-process",
        rows: n,
        peakRssBytes: maxOrNull(rss),
        rssSource: `${await rssSource()} (the whole python process)`,
        peers: ["score-inprocess"],
        extra: {
          processSeconds: whole,
          agreement:
            "loss under the 4 shipped profiles and recall per severity, every model",
        },
      }, own));
    }
    return out;
  },
};
