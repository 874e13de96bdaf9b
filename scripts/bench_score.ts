// Benchmark: score a 1,000,000-decision JSONL export under the four shipped
// profiles, with per-severity recall and 1,000-resample bootstrap intervals,
// against two peers measured in the same run on the same file:
//   - the same score with the old loss intervals (--interval bootstrap), to
//     show the default ones (Fay-Feuer, plus 1,000 posterior draws per model
//     for pBest) cost at most 1.1x;
//   - the floor: a bare loop that reads the file and JSON-parses every line;
//   - pandas (Debian's python3-pandas): read_json(lines=True) plus a groupby
//     computing the same loss under the four profiles and the same recall.
// Usage: deno run -A scripts/bench_score.ts [--n 1000000] [--file /tmp/x.jsonl] [--repeats 3]
import { parseArgs } from "node:util";
import { SHIPPED_PROFILES } from "../lib/costs/load.ts";
import { SEVERITIES } from "../lib/costs/severity.ts";
import { writeBenchDecisions } from "../bench/_decisions.ts";
import { jsonlStats } from "../lib/read/jsonl_text_stats.ts";
import { scoreModels } from "../commands/score.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    n: { type: "string", default: "1000000" },
    file: { type: "string" },
    repeats: { type: "string", default: "3" },
  },
});
const N = Number(values.n);
const repeats = Number(values.repeats);
const file = values.file ?? `${Deno.makeTempDirSync()}/decisions_${N}.jsonl`;

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

async function generate(): Promise<void> {
  await writeBenchDecisions(file, N, { seed: 20261129, classes: CLASSES });
}

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

function peakSampler(): { stop: () => number } {
  let peak = Deno.memoryUsage().rss;
  const id = setInterval(
    () => (peak = Math.max(peak, Deno.memoryUsage().rss)),
    20,
  );
  return {
    stop: () => {
      clearInterval(id);
      return Math.max(peak, Deno.memoryUsage().rss);
    },
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

console.error(
  `generating ${
    N.toLocaleString("en-US")
  } decisions into ${file} (seed 20261129)`,
);
await generate();
const bytes = (await Deno.stat(file)).size;
console.error(`file: ${(bytes / 1e6).toFixed(0)} MB`);

const bare: number[] = [];
const ours: number[] = [];
const old: number[] = [];
let lossbookPeak = 0;
let lastScore: ReturnType<typeof scoreModels> = [];
for (let r = 0; r < repeats; r++) {
  let t = performance.now();
  const text = await Deno.readTextFile(file);
  let trials = 0;
  for (const line of text.split("\n")) {
    if (line.length > 0) trials += JSON.parse(line).trial;
  }
  bare.push((performance.now() - t) / 1000);
  if (trials !== 0) throw new Error("unexpected");

  // The default intervals and the old ones, in alternating order so that
  // neither always runs on a warmer machine.
  const runs = r % 2 === 0
    ? (["auto", "bootstrap"] as const)
    : (["bootstrap", "auto"] as const);
  for (const interval of runs) {
    const sampler = peakSampler();
    t = performance.now();
    const { stats } = jsonlStats(await Deno.readTextFile(file), {
      path: file,
    });
    const score = scoreModels(stats, SHIPPED_PROFILES, {
      mode: "consequence",
      level: 0.95,
      seed: 0,
      resamples: 1000,
      confusion: false,
      interval,
    });
    const seconds = (performance.now() - t) / 1000;
    if (interval === "auto") {
      ours.push(seconds);
      lastScore = score;
      lossbookPeak = Math.max(lossbookPeak, sampler.stop());
    } else {
      old.push(seconds);
      sampler.stop();
    }
  }
}

// The intervals alone, on the same statistics, alternating: the part that
// differs between the two, without the (shared) JSONL scan and its noise.
const { stats: benchStats } = jsonlStats(await Deno.readTextFile(file), {
  path: file,
});
const scoreOnly: Record<"auto" | "bootstrap", number[]> = {
  auto: [],
  bootstrap: [],
};
for (let r = 0; r < 10; r++) {
  for (
    const interval of r % 2 === 0
      ? ["auto", "bootstrap"] as const
      : ["bootstrap", "auto"] as const
  ) {
    const t = performance.now();
    scoreModels(benchStats, SHIPPED_PROFILES, {
      mode: "consequence",
      level: 0.95,
      seed: 0,
      resamples: 1000,
      confusion: false,
      interval,
    });
    scoreOnly[interval].push((performance.now() - t) / 1000);
  }
}

const profiles = Object.fromEntries(
  SHIPPED_PROFILES.map((p) => [p.id, { K: p.K, reviewCost: p.reviewCost }]),
);
const py = await new Deno.Command("/usr/bin/python3", {
  args: ["-c", PANDAS, file, JSON.stringify(profiles)],
  stdout: "piped",
  stderr: "piped",
}).output();
if (!py.success) throw new Error(new TextDecoder().decode(py.stderr));
const pandas = JSON.parse(new TextDecoder().decode(py.stdout));

// The two implementations must agree before their speeds are compared.
for (const m of lastScore) {
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
      theirs !== undefined && Math.abs(theirs - m.recallBySeverity[s]!) > 1e-12
    ) {
      throw new Error(
        `pandas and lossbook disagree on recall ${m.modelId} ${s}`,
      );
    }
  }
}

const b = median(bare);
const o = median(ours);
const ob = median(old);
console.log(
  `decisions: ${N.toLocaleString("en-US")} (${
    (bytes / 1e6).toFixed(0)
  } MB JSONL), ${repeats} repeats, medians`,
);
console.log(`bare read + JSON.parse loop (floor):        ${b.toFixed(2)} s`);
console.log(
  `lossbook score (4 profiles, recall, Fay-Feuer loss CIs, pBest from 1,000 draws, bootstrap R_w): ${
    o.toFixed(2)
  } s, ${(N / o / 1e6).toFixed(2)} M decisions/s, peak RSS ${
    (lossbookPeak / 2 ** 20).toFixed(0)
  } MiB`,
);
console.log(
  `lossbook score, old loss intervals (--interval bootstrap):        ${
    ob.toFixed(2)
  } s`,
);
console.log(
  `  each run, new: ${ours.map((x) => x.toFixed(2)).join(", ")} s; old: ${
    old.map((x) => x.toFixed(2)).join(", ")
  } s`,
);
console.log(
  `ratio new intervals / old intervals: ${(o / ob).toFixed(3)}x (goal <= 1.1x)`,
);
console.log(
  `scoreModels alone on the statistics, 10 alternating runs, medians: new ${
    median(scoreOnly.auto).toFixed(3)
  } s, old ${median(scoreOnly.bootstrap).toFixed(3)} s, ratio ${
    (median(scoreOnly.auto) / median(scoreOnly.bootstrap)).toFixed(3)
  }x`,
);
console.log(
  `pandas read_json(lines=True) + groupby (loss, recall, no CIs): ${
    pandas.seconds.toFixed(2)
  } s`,
);
console.log(`ratio lossbook / floor: ${(o / b).toFixed(2)}x (goal <= 1.5x)`);
console.log(
  `ratio pandas / lossbook: ${
    (pandas.seconds / o).toFixed(1)
  }x faster (goal >= 5x)`,
);
console.log(
  `results agree: loss under 4 profiles and recall per severity, both models`,
);
await Deno.remove(file);
