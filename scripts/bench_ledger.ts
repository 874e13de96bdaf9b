// Benchmark: verify a 1,000,000-record ledger against `sha256sum` over the
// same bytes, and replay it under 1,000 thresholds, with peers measured in
// the same run (the machine is shared; read the ratios):
//   - verify: lossbook's verifier (in-process, and the CLI end to end) next
//     to coreutils `sha256sum` on the same file, interleaved, page cache warm;
//   - replay: the one-sort cost curve over 1,000 thresholds next to the naive
//     way, one pass over the cases per threshold (timed on a sample of
//     thresholds and scaled), after the ledger is loaded into columns.
// Usage: deno run -A scripts/bench_ledger.ts [--n 1000000] [--file /tmp/l.jsonl] [--repeats 3]
// (an existing --file is reused when its head file says it holds --n records)
import { parseArgs } from "node:util";
import { getProfile } from "../lib/costs/load.ts";
import { ledgerColumns } from "../lib/ledger/columns.ts";
import { thresholdPolicy } from "../lib/ledger/policy.ts";
import { ledgerEntries } from "../lib/ledger/read.ts";
import type { LedgerRecord } from "../lib/ledger/record.ts";
import { costCurve, linearThresholds, replay } from "../lib/ledger/replay.ts";
import { simulateLedgerMonth } from "../lib/ledger/simulate_month.ts";
import { readHeadFile, verifyLedgerFile } from "../lib/ledger/verify.ts";
import { openLedger } from "../lib/ledger/writer.ts";
import { SIMULATED_MODELS } from "../lib/tasks/simulate.ts";

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
const file = values.file ??
  `${Deno.makeTempDirSync({ prefix: "lossbook-bench-" })}/ledger_${N}.jsonl`;
const profile = getProfile("reconciliation");
const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes: number, s: number) => bytes / 1e6 / s;

async function generate(): Promise<void> {
  // day by day, so a million records never sit in memory at once
  const perDay = 20_000;
  await using w = await openLedger(file);
  let written = 0;
  for (let day = 0; written < N; day++) {
    const start = new Date(
      Date.parse("2026-01-01T00:00:00Z") + day * 86_400_000,
    )
      .toISOString().slice(0, 10);
    const month = simulateLedgerMonth({
      start,
      days: 1,
      casesPerDay: perDay,
      mix: { clean: 0.7, LOW: 0.1, MEDIUM: 0.1, HIGH: 0.08, CRITICAL: 0.02 },
      served: SIMULATED_MODELS.small_severity_shaped,
      policy: thresholdPolicy("bench-desk", 0.15),
      profile,
    }, { seed: day });
    const records: LedgerRecord[] = month.records.slice(0, N - written);
    await w.append(records);
    written += records.length;
  }
}

async function sha256sum(): Promise<number> {
  const t = performance.now();
  const out = await new Deno.Command("sha256sum", {
    args: [file],
    stdout: "piped",
  }).output();
  if (!out.success) throw new Error("sha256sum failed");
  return (performance.now() - t) / 1000;
}

async function cliVerify(): Promise<number> {
  const t = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../cli.ts", import.meta.url).pathname,
      "ledger",
      "verify",
      file,
      "--json",
    ],
    stdout: "piped",
  }).output();
  const doc = JSON.parse(new TextDecoder().decode(out.stdout));
  if (!doc.valid || doc.records !== N) {
    throw new Error(`CLI verify: ${JSON.stringify(doc)}`);
  }
  return (performance.now() - t) / 1000;
}

let t0 = performance.now();
let exists = true;
try {
  await Deno.stat(file);
} catch {
  exists = false;
}
if (exists) {
  if ((await readHeadFile(file))?.seq !== N) {
    throw new Error(
      `${file} exists and does not hold ${N} records; remove it or pass another --file`,
    );
  }
  console.error(`reusing ${file} (its head file says ${N} records)`);
} else {
  console.error(`generating ${N.toLocaleString("en-US")} records into ${file}`);
  await generate();
  console.error(
    `written and fsynced in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}
const size = (await Deno.stat(file)).size;

// warm the page cache so both sides read from memory
await Deno.readFile(file);
const sha: number[] = [];
const ours: number[] = [];
const cli: number[] = [];
for (let r = 0; r < repeats; r++) {
  sha.push(await sha256sum());
  const t = performance.now();
  const v = await verifyLedgerFile(file);
  ours.push((performance.now() - t) / 1000);
  if (!v.valid || v.records !== N) throw new Error(`verify: ${v.reason}`);
  cli.push(await cliVerify());
}
const ratio = sha.map((s, i) => s / ours[i]);

// replay: load once, then time the curve and the naive per-threshold passes
t0 = performance.now();
const bytes = await Deno.readFile(file);
const head = await readHeadFile(file);
const cols = ledgerColumns(ledgerEntries(bytes, { path: file }), {
  path: file,
});
const loadSeconds = (performance.now() - t0) / 1000;
if (head?.seq !== N) throw new Error("head file does not match");
const grid = linearThresholds(0, 1, { count: 1000 });
const curveTimes: number[] = [];
let curve = costCurve(cols, grid, { profile });
for (let r = 0; r < 5; r++) {
  const t = performance.now();
  curve = costCurve(cols, grid, { profile });
  curveTimes.push((performance.now() - t) / 1000);
}
// naive: one full replay per threshold, on 10 of the 1,000, scaled up
const sample = [0, 111, 222, 333, 444, 555, 666, 777, 888, 999];
const t1 = performance.now();
for (const i of sample) {
  const r = replay(cols, { threshold: grid[i] }, {
    profile,
    diff: false,
    resamples: 1,
  });
  if (
    Math.abs(r.after.loss - curve.loss[i]) > 1e-6 * Math.max(1, r.after.loss) &&
    r.unevaluable.cases === curve.unevaluable[i]
  ) {
    throw new Error(`curve and replay disagree at ${grid[i]}`);
  }
}
const naivePer = (performance.now() - t1) / 1000 / sample.length;
const single: number[] = [];
for (let r = 0; r < 3; r++) {
  const t = performance.now();
  replay(cols, { threshold: 0.3 }, { profile });
  single.push((performance.now() - t) / 1000);
}

const c = median(curveTimes);
console.log(
  `ledger: ${N.toLocaleString("en-US")} records, ${
    (size / 1e6).toFixed(1)
  } MB, ${cols.cases.toLocaleString("en-US")} cases (${file})`,
);
console.log(`verify, ${repeats} interleaved runs, page cache warm (median):`);
console.log(
  `  sha256sum (coreutils)        ${median(sha).toFixed(2)} s  ${
    mb(size, median(sha)).toFixed(0)
  } MB/s`,
);
console.log(
  `  lossbook verifyLedgerFile    ${median(ours).toFixed(2)} s  ${
    mb(size, median(ours)).toFixed(0)
  } MB/s  (${(median(ratio) * 100).toFixed(0)}% of sha256sum; per run ${
    ratio.map((x) => (x * 100).toFixed(0) + "%").join(", ")
  })`,
);
console.log(
  `  lossbook ledger verify (CLI) ${median(cli).toFixed(2)} s  ${
    mb(size, median(cli)).toFixed(0)
  } MB/s  (process start included)`,
);
console.log(
  `replay (after loading the ledger into columns: ${
    loadSeconds.toFixed(1)
  } s):`,
);
console.log(
  `  cost curve, 1,000 thresholds, one sort + prefix sums: ${
    (c * 1000).toFixed(0)
  } ms (median of 5: ${
    curveTimes.map((x) => (x * 1000).toFixed(0)).join(", ")
  })`,
);
console.log(
  `  naive, one replay per threshold: ${
    (naivePer * 1000).toFixed(0)
  } ms each, ~${(naivePer * 1000).toFixed(0)} s for 1,000 (${
    (naivePer * 1000 / c).toFixed(0)
  }x the curve)`,
);
console.log(
  `  one replay at 0.3 with diff and a 1,000-resample paired CI: ${
    (median(single) * 1000).toFixed(0)
  } ms`,
);
