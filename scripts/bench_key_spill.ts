// Benchmark: the duplicate-key check of the streaming JSONL reader on N
// distinct synthetic keys (no duplicate, so `same` is never needed; the
// child counts its calls), three ways, each in its own child process so
// peak RSS (VmHWM from /proc/self/status) is the check's alone:
//   - spill: DecisionKeySet with its default memoryKeys (1 << 20), keys past
//     that go to partition files and firstDuplicate() searches them;
//   - unlimited: DecisionKeySet with memoryKeys = Infinity (all in memory).
// A child with N = 0 gives the runtime's own RSS. Runs are interleaved
// (spill, unlimited, per repeat) since the machine is shared;
// read the ratios. Keys: a counter i mixed by two different 32-bit
// finalisers; line offsets i * 300, as a file of 300-byte lines gives.
// Checks free disk first (16 bytes a key) and removes what it writes.
// Usage: deno run -A scripts/bench_key_spill.ts [--n 2000000,10000000] [--repeats 1]
import { parseArgs } from "node:util";
import { DecisionKeySet } from "../lib/read/_key_spill.ts";
import { needDisk } from "../bench/_disk.ts";

const MODES = ["spill", "unlimited"] as const;
type Mode = typeof MODES[number];
const LINE_BYTES = 300;

interface Result {
  mode: Mode | "baseline";
  n: number;
  addSeconds: number;
  searchSeconds: number;
  keysPerSecond: number;
  peakRssMB: number;
  spillBytes: number;
  sameCalls: number;
  duplicate: boolean;
}

/** MurmurHash3's 32-bit finaliser of i. */
function fmixA(i: number): number {
  let h = i ^ 0x5bd1e995;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** A different finaliser (lowbias32, by Chris Wellons) of i. */
function fmixB(i: number): number {
  let h = i ^ 0x27d4eb2f;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h | 0;
}

function peakRssMB(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]);
  return kb / 1024;
}

function bytesUnder(dir: string): number {
  let sum = 0;
  for (const e of Deno.readDirSync(dir)) {
    const p = `${dir}/${e.name}`;
    sum += e.isDirectory ? bytesUnder(p) : Deno.statSync(p).size;
  }
  return sum;
}

async function child(mode: Mode | "baseline", n: number, dir: string) {
  let sameCalls = 0;
  const same = () => {
    sameCalls++;
    return false;
  };
  let duplicate = false;
  let spillBytes = 0;
  const t0 = performance.now();
  let t1 = t0;
  if (mode !== "baseline") {
    using set = new DecisionKeySet({
      memoryKeys: mode === "unlimited" ? Infinity : undefined,
      tempDir: dir,
    });
    for (let i = 0; i < n; i++) {
      if (set.add(fmixA(i), fmixB(i), i * LINE_BYTES, same) >= 0) {
        duplicate = true;
      }
    }
    t1 = performance.now();
    if (await set.firstDuplicate(Infinity, same) !== null) duplicate = true;
    spillBytes = bytesUnder(dir);
  }
  const t2 = performance.now();
  const left = [...Deno.readDirSync(dir)].length;
  if (left !== 0) throw new Error(`${left} spill entries left in ${dir}`);
  const result: Result = {
    mode,
    n,
    addSeconds: (t1 - t0) / 1000,
    searchSeconds: (t2 - t1) / 1000,
    keysPerSecond: n / ((t2 - t0) / 1000),
    peakRssMB: peakRssMB(),
    spillBytes,
    sameCalls,
    duplicate,
  };
  console.log(JSON.stringify(result));
}

async function run(
  mode: Mode | "baseline",
  n: number,
  dir: string,
): Promise<Result> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL(import.meta.url).pathname,
      "--child",
      mode,
      "--n",
      String(n),
      "--dir",
      dir,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`child ${mode} n=${n} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim());
}

const { values } = parseArgs({
  args: Deno.args,
  options: {
    n: { type: "string", default: "2000000,10000000" },
    repeats: { type: "string", default: "1" },
    child: { type: "string" },
    dir: { type: "string" },
  },
});

if (values.child !== undefined) {
  await child(values.child as Mode, Number(values.n), values.dir!);
} else {
  const sizes = values.n.split(",").map(Number);
  const repeats = Number(values.repeats);
  const dir = await Deno.makeTempDir({ prefix: "lossbook-bench-keys-" });
  try {
    const need = 16 * Math.max(...sizes);
    const free = await needDisk(dir, need, "bench_key_spill");
    console.log(
      `free disk in ${dir}: ${(free / 1e9).toFixed(1)} GB, need ${
        (need / 1e9).toFixed(2)
      } GB`,
    );
    const base = await run("baseline", 0, dir);
    console.log(
      `runtime alone (N = 0): peak RSS ${base.peakRssMB.toFixed(0)} MB`,
    );
    console.log(
      "| N | mode | keys/s | add s | search s | peak RSS MB | spill MB | same() calls |",
    );
    console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const n of sizes) {
      const byMode = new Map<Mode, Result[]>();
      for (let r = 0; r < repeats; r++) {
        for (const mode of MODES) {
          const res = await run(mode, n, dir);
          if (res.duplicate) throw new Error(`${mode}: a false duplicate`);
          byMode.set(mode, [...(byMode.get(mode) ?? []), res]);
          console.log(
            `| ${n.toLocaleString("en")} | ${mode} | ${
              Math.round(res.keysPerSecond).toLocaleString("en")
            } | ${res.addSeconds.toFixed(2)} | ${
              res.searchSeconds.toFixed(2)
            } | ${res.peakRssMB.toFixed(0)} | ${
              (res.spillBytes / 1e6).toFixed(0)
            } | ${res.sameCalls} |`,
          );
        }
      }
      const median = (xs: number[]) =>
        [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const rate = (m: Mode) =>
        median(byMode.get(m)!.map((x) => x.keysPerSecond));
      const rss = (m: Mode) => median(byMode.get(m)!.map((x) => x.peakRssMB));
      console.log(
        `N = ${n.toLocaleString("en")}: spill/unlimited time ${
          (rate("unlimited") / rate("spill")).toFixed(2)
        }x; peak RSS above the runtime's: spill ${
          (rss("spill") - base.peakRssMB).toFixed(0)
        } MB, unlimited ${(rss("unlimited") - base.peakRssMB).toFixed(0)} MB`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
