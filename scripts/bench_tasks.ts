// Benchmark: generate + verify a large reconciliation suite, streamed to disk
// with bounded memory, against a naive peer that builds the whole suite in
// memory first. Each variant runs in its own process so its peak memory is
// its own. Prints tasks per second, peak RSS and the ratios.
//
// Usage:
//   deno run -A scripts/bench_tasks.ts [--n 1000000] [--naive-n 200000] [--domain reconciliation] [--json]
// The naive peer holds the whole suite, its lines and the file read back in
// memory (about 19 KiB per reconciliation task), so by default it runs at
// n = 200,000 and the ratios compare both variants at that n.
// (one variant, used by the parent:
//   deno run -A scripts/bench_tasks.ts --variant stream|naive --n N --dir DIR)
import { parseArgs } from "node:util";
import { generateSuite, generateTasks } from "../lib/tasks/generate.ts";
import { parseTasksJsonl, streamTasksJsonl } from "../lib/tasks/load_tasks.ts";
import { taskLine } from "../lib/tasks/signature.ts";
import { type Domain, isDomain } from "../lib/tasks/task.ts";
import { checkTask } from "../lib/tasks/verify.ts";
import { writeTasksJsonl } from "../lib/tasks/write_tasks.ts";

/** What one variant reports. */
interface VariantResult {
  variant: string;
  domain: string;
  n: number;
  bytes: number;
  generateSeconds: number;
  verifySeconds: number;
  generatePerSecond: number;
  verifyPerSecond: number;
  totalPerSecond: number;
  peakRssBytes: number;
  peakRssSource: string;
  disagreements: number;
}

let sampledPeak = 0;
function sample(): void {
  const rss = Deno.memoryUsage().rss;
  if (rss > sampledPeak) sampledPeak = rss;
}

/** Peak resident set size: the kernel's high-water mark where there is one, else the sampled maximum. */
function peakRss(): { bytes: number; source: string } {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const m = /VmHWM:\s+(\d+) kB/.exec(status);
    if (m) return { bytes: Number(m[1]) * 1024, source: "VmHWM" };
  } catch {
    // not Linux
  }
  return { bytes: sampledPeak, source: "sampled Deno.memoryUsage().rss" };
}

async function streamVariant(
  domain: Domain,
  n: number,
  path: string,
): Promise<VariantResult> {
  const t0 = performance.now();
  const written = await writeTasksJsonl(
    path,
    generateTasks(domain, { seed: 7, n }),
    {
      force: true,
      onProgress: sample,
      progressEvery: 10_000,
    },
  );
  const t1 = performance.now();
  let bad = 0;
  let k = 0;
  for await (const task of streamTasksJsonl(path)) {
    if (checkTask(task).problems.length > 0) bad++;
    if (++k % 10_000 === 0) sample();
  }
  const t2 = performance.now();
  sample();
  return result("stream", domain, n, written.bytes, t0, t1, t2, bad);
}

async function naiveVariant(
  domain: Domain,
  n: number,
  path: string,
): Promise<VariantResult> {
  // Everything in memory at each stage: the whole suite, all its lines, then
  // the whole file read back and parsed before any task is checked.
  const t0 = performance.now();
  const { tasks } = generateSuite(domain, { seed: 7, n });
  sample();
  const lines = tasks.map((t) => taskLine(t) + "\n");
  sample();
  const enc = new TextEncoder();
  const chunks = lines.map((l) => enc.encode(l));
  let bytes = 0;
  for (const c of chunks) bytes += c.length;
  const all = new Uint8Array(bytes);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.length;
  }
  sample();
  await Deno.writeFile(path, all);
  const t1 = performance.now();
  const read = await Deno.readFile(path);
  const dec = new TextDecoder();
  const parsed = [];
  let start = 0;
  let lineNo = 0;
  while (start < read.length) {
    let end = read.indexOf(10, start);
    if (end < 0) end = read.length;
    lineNo++;
    parsed.push(
      parseTasksJsonl(dec.decode(read.subarray(start, end)), {
        path: `${path}:${lineNo}`,
      })[0],
    );
    start = end + 1;
  }
  sample();
  let bad = 0;
  for (const t of parsed) if (checkTask(t).problems.length > 0) bad++;
  const t2 = performance.now();
  sample();
  return result("naive", domain, n, bytes, t0, t1, t2, bad);
}

function result(
  variant: string,
  domain: string,
  n: number,
  bytes: number,
  t0: number,
  t1: number,
  t2: number,
  bad: number,
): VariantResult {
  const peak = peakRss();
  return {
    variant,
    domain,
    n,
    bytes,
    generateSeconds: (t1 - t0) / 1000,
    verifySeconds: (t2 - t1) / 1000,
    generatePerSecond: n / ((t1 - t0) / 1000),
    verifyPerSecond: n / ((t2 - t1) / 1000),
    totalPerSecond: n / ((t2 - t0) / 1000),
    peakRssBytes: peak.bytes,
    peakRssSource: peak.source,
    disagreements: bad,
  };
}

async function child(
  variant: string,
  domain: Domain,
  n: number,
  dir: string,
): Promise<VariantResult> {
  const self = new URL(import.meta.url).pathname;
  const args = ["run", "-A"];
  // the naive peer holds the whole suite in memory: give it room to finish
  if (variant === "naive") args.push("--v8-flags=--max-old-space-size=16384");
  args.push(
    self,
    "--variant",
    variant,
    "--n",
    String(n),
    "--domain",
    domain,
    "--dir",
    dir,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) {
    throw new Error(
      `the ${variant} variant at n = ${n} failed with exit code ${out.code}`,
    );
  }
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const rate = (x: number) => `${Math.round(x).toLocaleString("en-US")}/s`;

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      n: { type: "string", default: "1000000" },
      "naive-n": { type: "string" },
      domain: { type: "string", default: "reconciliation" },
      variant: { type: "string" },
      dir: { type: "string" },
      json: { type: "boolean" },
    },
  });
  const n = Number(values.n);
  const domain = values.domain!;
  if (!isDomain(domain)) {
    throw new RangeError(`--domain must be a task domain, got ${domain}`);
  }
  if (values.variant !== undefined) {
    const path = `${values.dir}/${values.variant}.jsonl`;
    const r = values.variant === "stream"
      ? await streamVariant(domain, n, path)
      : await naiveVariant(domain, n, path);
    await Deno.remove(path);
    console.log(JSON.stringify(r));
  } else {
    const naiveN = Number(values["naive-n"] ?? Math.min(n, 200_000));
    const dir = await Deno.makeTempDir({ prefix: "lossbook-bench-tasks-" });
    try {
      const stream = await child("stream", domain, n, dir);
      const naive = await child("naive", domain, naiveN, dir);
      const sameN = naiveN === n
        ? stream
        : await child("stream", domain, naiveN, dir);
      const report = {
        stream,
        naive,
        ratios: {
          n: naiveN,
          throughput: sameN.totalPerSecond / naive.totalPerSecond,
          peakRss: naive.peakRssBytes / sameN.peakRssBytes,
        },
      };
      if (values.json) console.log(JSON.stringify(report, null, 2));
      else {
        const row = (r: VariantResult) =>
          `${r.variant.padEnd(6)} n=${r.n.toLocaleString("en-US")}: generate ${
            rate(r.generatePerSecond)
          }, verify ${rate(r.verifyPerSecond)}, both ${
            rate(r.totalPerSecond)
          } (${(r.generateSeconds + r.verifySeconds).toFixed(1)} s), file ${
            mb(r.bytes)
          }, peak RSS ${
            mb(r.peakRssBytes)
          } (${r.peakRssSource}), disagreements ${r.disagreements}`;
        console.log(
          `${domain} tasks, generate + verify, streamed to disk vs naive in-memory peer`,
        );
        console.log(row(stream));
        if (sameN !== stream) console.log(row(sameN));
        console.log(row(naive));
        console.log(
          `at n=${naiveN.toLocaleString("en-US")}: streaming throughput ${
            report.ratios.throughput.toFixed(2)
          }x the naive peer's; naive peak RSS ${
            report.ratios.peakRss.toFixed(1)
          }x streaming's`,
        );
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
}
