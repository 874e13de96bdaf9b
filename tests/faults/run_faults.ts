/**
 * The fault suite: `deno task faults`. Runs the malformed-input corpus in
 * process, then the process-level trials (concurrent and symlinked
 * appenders, kill -9 aimed at the write of a large append and recovery by
 * re-running it, torn tails, a killed lock holder), prints its figures, and exits 1 when
 * anything did not hold. `--quick` runs the small version `deno task test`
 * runs.
 *
 * @module
 */

import { runCase, writeCorpus } from "./_corpus.ts";
import {
  concurrentAppenders,
  killDuringAppend,
  killedLockHolder,
  removeTrialDirs,
  tornTails,
  trialDir,
  type TrialFigures,
} from "./_trials.ts";

/** Sizes of a fault-suite run. */
export interface FaultSuiteSize {
  readonly pairs: number;
  readonly crashDecisions: number;
  readonly kills: number;
  readonly tears: number;
  readonly holders: number;
}

/** The full suite, as `deno task faults` runs it. */
export const FULL: FaultSuiteSize = {
  pairs: 4,
  crashDecisions: 20_000,
  // 21 of them aimed at the write, 7 at moments across the whole append
  kills: 28,
  tears: 4,
  holders: 2,
};

/** The subset `deno task test` runs. */
export const QUICK: FaultSuiteSize = {
  pairs: 2,
  crashDecisions: 2_000,
  kills: 2,
  tears: 2,
  holders: 1,
};

/**
 * Run the suite; return its printed lines and whether everything held. The
 * temporary folders of its trials are removed when it ends.
 */
export async function runFaultSuite(
  size: FaultSuiteSize,
): Promise<{ lines: string[]; ok: boolean; failures: string[] }> {
  try {
    return await runSuite(size);
  } finally {
    await removeTrialDirs();
  }
}

async function runSuite(
  size: FaultSuiteSize,
): Promise<{ lines: string[]; ok: boolean; failures: string[] }> {
  const lines: string[] = [];
  const failures: string[] = [];
  const dir = await trialDir("corpus");
  const cases = await writeCorpus(dir);
  const results = [];
  for (const c of cases) results.push(await runCase(c));
  const refused = results.filter((r) => r.ok && r.expect !== 0).length;
  const accepted = results.filter((r) => r.ok && r.expect === 0).length;
  const wrong = results.filter((r) => !r.ok);
  failures.push(...wrong.map((r) => `input "${r.name}": ${r.why}`));
  lines.push(
    `malformed-input corpus: ${cases.length} inputs tried, ${refused} refused as expected, ${accepted} accepted as expected (valid inputs: a BOM, --lenient, ids with control characters, sound ledgers), ${wrong.length} not as expected`,
  );
  const figure = (name: string, f: TrialFigures, extra = "") => {
    failures.push(...f.failures.map((x) => `${name}: ${x}`));
    lines.push(`${name}: ${f.trials} trials, ${f.held} held${extra}`);
  };
  const c = await concurrentAppenders(size.pairs);
  figure(
    "concurrent appenders",
    c,
    ` (${c.notes.symlinked} through a symlink; same batch twice and two batches at once)`,
  );
  const k = await killDuringAppend(size.crashDecisions, size.kills);
  figure(
    `kill -9 during an append of ${
      size.crashDecisions.toLocaleString("en-US")
    } decisions`,
    k,
    `, recovered by re-running the append with no manual step, then verify (${k.notes.nothingWritten} before any write, ${k.notes.partlyWritten} mid-write, ${k.notes.unacknowledged} written but not yet in the head file, ${k.notes.completed} after the append completed; every tail the kill left was set aside by the re-run)`,
  );
  const t = await tornTails(size.crashDecisions, size.tears);
  figure(
    "torn tails at seeded offsets",
    t,
    ", recovered byte for byte by re-running the append",
  );
  const h = await killedLockHolder(size.holders);
  figure(
    "writer killed while holding the lock",
    h,
    ` (next writer appended in at most ${h.notes.slowestAppendMs} ms; no lock file)`,
  );
  const crashTrials = k.trials + t.trials + h.trials;
  const recovered = k.held + t.held + h.held;
  lines.push(`crash trials: ${crashTrials}, recovered: ${recovered}`);
  return { lines, ok: failures.length === 0, failures };
}

if (import.meta.main) {
  const started = performance.now();
  const quick = Deno.args.includes("--quick");
  const { lines, ok, failures } = await runFaultSuite(quick ? QUICK : FULL);
  for (const l of lines) console.log(l);
  for (const f of failures) console.error(`FAILED ${f}`);
  console.log(
    `fault suite ${ok ? "passed" : "FAILED"} in ${
      ((performance.now() - started) / 1000).toFixed(0)
    } s`,
  );
  Deno.exit(ok ? 0 : 1);
}
