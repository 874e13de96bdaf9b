// Benchmark: the whole-process time of `lossbook score --json` on a small
// JSONL export (1,000 seeded decisions, two models), where starting the
// process is most of the cost, against peers measured in the same run,
// interleaved (score, peers, score, peers, ...):
//   - the same score with `--resamples 1`: start-up and reading with
//     next to no resampling (the intervals' 1,000 resamples and posterior
//     draws are the score's own work, not start-up);
//   - `deno eval 1`: a Deno process that loads nothing, the floor;
//   - `cli.ts --version`: the CLI's own start, without any command module.
// Prints each median and its ratio to `deno eval 1`, and the score's
// in-process compute time for comparison (what is left is start-up).
// Usage: deno run -A scripts/bench_startup.ts [--n 1000] [--repeats 7] [--cli PATH]
import { parseArgs } from "node:util";
import { writeBenchDecisions } from "../bench/_decisions.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    n: { type: "string", default: "1000" },
    repeats: { type: "string", default: "7" },
    cli: { type: "string" },
  },
});
const N = Number(values.n);
const repeats = Number(values.repeats);
if (
  !(Number.isInteger(N) && N > 0 && Number.isInteger(repeats) && repeats > 0)
) {
  throw new RangeError(
    `--n and --repeats must be positive integers, got ${values.n}, ${values.repeats}`,
  );
}

const CLASSES: Record<string, string[]> = {
  HIGH: ["AMOUNT_MISMATCH", "FX_CONVERSION_ERROR", "BENEFICIARY_MISMATCH"],
  MEDIUM: ["VALUE_DATE_MISMATCH", "MISSING_MESSAGE"],
  LOW: ["DUPLICATE", "FIELD_CORRUPTION"],
  CRITICAL: ["HERSTATT_EXPOSURE"],
};

const dir = await Deno.makeTempDir({ prefix: "lossbook_startup_" });
const file = `${dir}/decisions_${N}.jsonl`;
// --cli PATH times another copy of the CLI (another checkout), for before/after
const cli = values.cli ?? new URL("../cli.ts", import.meta.url).pathname;

interface Peer {
  name: string;
  args: string[];
  /** Checks the output, so that a failing run is never timed as a fast one. */
  check: (stdout: string) => void;
}

const PEERS: Peer[] = [
  {
    name: "score --json",
    args: ["run", "-A", cli, "score", file, "--json"],
    check: (out) => {
      const decisions = JSON.parse(out).decisions;
      if (decisions !== N) {
        throw new Error(`score read ${decisions} decisions, expected ${N}`);
      }
    },
  },
  {
    // the same start, reading and output, with one resample instead of
    // 1,000: what is left of the score when resampling costs nothing
    name: "score --resamples 1",
    args: ["run", "-A", cli, "score", file, "--json", "--resamples", "1"],
    check: (out) => {
      const decisions = JSON.parse(out).decisions;
      if (decisions !== N) {
        throw new Error(`score read ${decisions} decisions, expected ${N}`);
      }
    },
  },
  {
    name: "deno eval 1",
    args: ["eval", "1"],
    check: () => {},
  },
  {
    name: "cli.ts --version",
    args: ["run", "-A", cli, "--version"],
    check: (out) => {
      if (!/^\d+\.\d+\.\d+/.test(out)) {
        throw new Error(`--version printed ${out}`);
      }
    },
  },
];

async function timeOnce(peer: Peer): Promise<number> {
  const t = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: peer.args,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - t) / 1000;
  const dec = new TextDecoder();
  if (out.code !== 0) {
    throw new Error(
      `${peer.name} exited ${out.code}: ${dec.decode(out.stderr).trim()}`,
    );
  }
  peer.check(dec.decode(out.stdout));
  return seconds;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

try {
  await writeBenchDecisions(file, N, { seed: 20261201, classes: CLASSES });
  // one untimed run of each fills Deno's code cache
  for (const peer of PEERS) await timeOnce(peer);
  const times = new Map<string, number[]>(PEERS.map((p) => [p.name, []]));
  for (let r = 0; r < repeats; r++) {
    for (const peer of PEERS) times.get(peer.name)!.push(await timeOnce(peer));
  }
  // the score's own work, in a process that has already started
  const { scoreModels } = await import("../commands/score.ts");
  const { SHIPPED_PROFILES } = await import("../lib/costs/shipped.ts");
  const { jsonlStatsFile } = await import("../lib/read/jsonl_stats.ts");
  const compute: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t = performance.now();
    const { stats } = await jsonlStatsFile(file);
    scoreModels(stats, SHIPPED_PROFILES, {
      mode: "consequence",
      level: 0.95,
      seed: 0,
      resamples: 1000,
      confusion: false,
    });
    compute.push((performance.now() - t) / 1000);
  }
  const floor = median(times.get("deno eval 1")!);
  console.log(
    `Whole process, ${N} JSONL decisions, median of ${repeats} interleaved runs:`,
  );
  for (const peer of PEERS) {
    const m = median(times.get(peer.name)!);
    console.log(
      `  ${peer.name.padEnd(20)} ${m.toFixed(3)} s  ${
        (m / floor).toFixed(2)
      }x deno eval 1`,
    );
  }
  console.log(
    `  score's reading and scoring in-process (already started, warm): ${
      median(compute).toFixed(3)
    } s`,
  );
} finally {
  await Deno.remove(dir, { recursive: true });
}
