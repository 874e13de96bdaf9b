/**
 * The process-level trials of the fault suite: concurrent appenders (some
 * through a symlink), `kill -9` during a large append followed by the
 * documented recovery, torn tails at seeded offsets, and a writer killed
 * while it holds the lock. Each trial runs the real CLI in child processes.
 *
 * @module
 */

import { headFilePath } from "../../lib/ledger/verify.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const AT = "2026-03-01T09:00:00Z";

/** Run `lossbook` in a child process. */
export async function cli(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await cliProcess(args, "piped").output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

function cliProcess(args: readonly string[], io: "piped" | "null") {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      `${ROOT}deno.json`,
      `${ROOT}cli.ts`,
      ...args,
    ],
    cwd: ROOT,
    stdout: io,
    stderr: io,
  });
}

/** A run export of `n` decisions of run `run`, every fifth one escalated. */
export function batch(run: string, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(JSON.stringify({
      runId: run,
      modelId: "openai/gpt-4o",
      taskId: `${run}-t${i}`,
      trial: 0,
      severity: ["LOW", "MEDIUM", "HIGH", "CRITICAL"][i % 4],
      trueClass: "AMOUNT_MISMATCH",
      predClass: i % 3 === 0 ? "MATCH" : "AMOUNT_MISMATCH",
      parseOk: true,
      pCorrect: 0.5 + (i % 50) / 100,
      action: i % 5 === 0 ? "escalate" : "auto",
      cost: { completeness: "complete", usd: 0.001 },
      outcome: i % 3 === 0 ? "model_failure" : "resolved",
    }));
  }
  return out.join("\n") + "\n";
}

/** Records `batch(run, n)` appends: n decisions and a review per escalation. */
export function batchRecords(n: number): number {
  return n + Math.ceil(n / 5);
}

// Every folder trialDir() makes, until removeTrialDirs() removes them
const trialDirs: string[] = [];

/** A fresh temporary folder for one trial, removed by {@linkcode removeTrialDirs}. */
export async function trialDir(prefix: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: `lossbook-faults-${prefix}-` });
  trialDirs.push(dir);
  return dir;
}

/** Remove every folder {@linkcode trialDir} made so far. */
export async function removeTrialDirs(): Promise<void> {
  for (const dir of trialDirs.splice(0)) {
    await Deno.remove(dir, { recursive: true }).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Verify a ledger with the CLI: sound means exit 0, valid, anchored and with
 * no unacknowledged tail; `said` is what it printed, for messages.
 */
async function verify(
  path: string,
): Promise<{ sound: boolean; records: number; said: string }> {
  const r = await cli(["ledger", "verify", path, "--json"]);
  const doc = JSON.parse(r.stdout);
  return {
    sound: r.code === 0 && doc.valid && doc.anchored &&
      doc.unacknowledged === null,
    records: doc.records,
    said: `exit ${r.code}, ${r.stdout}${r.stderr}`,
  };
}

/** What a set of trials found. */
export interface TrialFigures {
  readonly trials: number;
  readonly held: number;
  readonly failures: readonly string[];
  readonly notes: Readonly<Record<string, number>>;
}

/**
 * Pairs of writers appending at once: the same batch through the ledger's
 * path and (every other pair) through a symlink to it, then two different
 * batches the same way. The ledger must verify, hold each decision once,
 * and keep one head file.
 */
export async function concurrentAppenders(
  pairs: number,
): Promise<TrialFigures> {
  const failures: string[] = [];
  let held = 0;
  let symlinked = 0;
  for (let p = 0; p < pairs; p++) {
    const dir = await trialDir("concurrent");
    const ledger = `${dir}/l.jsonl`;
    await Deno.writeTextFile(`${dir}/base.jsonl`, batch("base", 3));
    const base = await cli([
      "ledger",
      "append",
      ledger,
      `${dir}/base.jsonl`,
      "--at",
      AT,
    ]);
    if (base.code !== 0) {
      failures.push(`pair ${p}: base append failed: ${base.stderr}`);
      continue;
    }
    const viaLink = p % 2 === 1;
    const other = viaLink ? `${dir}/alias.jsonl` : ledger;
    if (viaLink) {
      await Deno.symlink(ledger, other);
      symlinked++;
    }
    const same = p < Math.ceil(pairs / 2);
    await Deno.writeTextFile(`${dir}/a.jsonl`, batch("a", 300));
    await Deno.writeTextFile(
      `${dir}/b.jsonl`,
      same ? batch("a", 300) : batch("b", 300),
    );
    const [a, b] = await Promise.all([
      cli(["ledger", "append", ledger, `${dir}/a.jsonl`, "--at", AT, "--json"]),
      cli(["ledger", "append", other, `${dir}/b.jsonl`, "--at", AT, "--json"]),
    ]);
    const problems: string[] = [];
    if (a.code !== 0 || b.code !== 0) {
      problems.push(`exit ${a.code} and ${b.code}: ${a.stderr}${b.stderr}`);
    } else {
      const appended = [
        JSON.parse(a.stdout).appended,
        JSON.parse(b.stdout).appended,
      ];
      const want = batchRecords(300);
      const expected = same ? [0, want] : [want, want];
      if (appended.sort((x, y) => x - y).join() !== expected.join()) {
        problems.push(`appended ${appended} records, expected ${expected}`);
      }
      const v = await verify(other);
      const records = batchRecords(3) + (same ? 1 : 2) * want;
      if (!v.sound || v.records !== records) {
        problems.push(`verify: ${v.said}; expected ${records} records`);
      }
      if (viaLink && await exists(headFilePath(other))) {
        problems.push("a second head file beside the symlink");
      }
      const reviews = await cli(["ledger", "reviews", ledger, "--now", AT]);
      if (reviews.code !== 0) {
        problems.push(`reviews refuses it: ${reviews.stderr}`);
      }
    }
    if (problems.length === 0) held++;
    else {failures.push(
        `pair ${p} (${same ? "same batch" : "two batches"}${
          viaLink ? ", symlink" : ""
        }): ${problems.join("; ")}`,
      );}
  }
  return { trials: pairs, held, failures, notes: { symlinked } };
}

/**
 * Recovery with no manual step: re-run the same append (which sets aside
 * what the head file never acknowledged), then verify the ledger, which must
 * be valid, anchored and without a tail.
 */
async function recover(
  ledger: string,
  source: string,
): Promise<{ ok: boolean; setAside: boolean; why: string }> {
  const again = await cli(["ledger", "append", ledger, source, "--at", AT]);
  const setAside = /set aside to /.test(again.stderr);
  if (again.code !== 0) {
    return {
      ok: false,
      setAside,
      why: `re-run exit ${again.code}: ${again.stderr}`,
    };
  }
  const v = await verify(ledger);
  if (!v.sound) {
    return { ok: false, setAside, why: `verify after the re-run: ${v.said}` };
  }
  return { ok: true, setAside, why: "" };
}

/** A ledger of a small base batch, and the bytes of it after a large append. */
async function crashSetup(n: number): Promise<{
  dir: string;
  ledger: string;
  source: string;
  before: Uint8Array;
  after: Uint8Array;
  headBefore: string;
  ms: number;
}> {
  const dir = await trialDir("crash");
  const ledger = `${dir}/l.jsonl`;
  await Deno.writeTextFile(`${dir}/base.jsonl`, batch("base", 5));
  const base = await cli([
    "ledger",
    "append",
    ledger,
    `${dir}/base.jsonl`,
    "--at",
    AT,
  ]);
  if (base.code !== 0) throw new Error(`base append failed: ${base.stderr}`);
  const source = `${dir}/big.jsonl`;
  await Deno.writeTextFile(source, batch("big", n));
  const before = await Deno.readFile(ledger);
  const headBefore = await Deno.readTextFile(headFilePath(ledger));
  const ref = `${dir}/ref.jsonl`;
  await Deno.copyFile(ledger, ref);
  await Deno.writeTextFile(headFilePath(ref), headBefore);
  const t = performance.now();
  const r = await cli(["ledger", "append", ref, source, "--at", AT]);
  const ms = performance.now() - t;
  if (r.code !== 0) throw new Error(`reference append failed: ${r.stderr}`);
  return {
    dir,
    ledger,
    source,
    before,
    after: await Deno.readFile(ref),
    headBefore,
    ms,
  };
}

async function restore(
  s: Awaited<ReturnType<typeof crashSetup>>,
): Promise<void> {
  await Deno.writeFile(s.ledger, s.before);
  await Deno.writeTextFile(headFilePath(s.ledger), s.headBefore);
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `kill -9` during a large append of `n` decisions: a quarter of the
 * `points` at moments from a third of an uninterrupted append's duration to
 * past its end, the rest aimed at the write (as soon as the ledger grows,
 * plus 0, 1, 2, … ms). After each, the same append is simply re-run, with no
 * manual step. Recovered means it and `verify` succeed and the ledger ends
 * byte for byte as the uninterrupted append left it: no record that was
 * reported (every one before the kill) is lost.
 */
export async function killDuringAppend(
  n: number,
  points: number,
): Promise<TrialFigures> {
  const s = await crashSetup(n);
  const failures: string[] = [];
  const notes = {
    nothingWritten: 0,
    partlyWritten: 0,
    unacknowledged: 0,
    completed: 0,
  };
  let held = 0;
  for (let k = 0; k < points; k++) {
    await restore(s);
    // a quarter of the kills at moments from a third of an uninterrupted
    // append's duration to past its end (the decisions are read and checked
    // first, written last); the rest as soon as the ledger starts to grow,
    // plus 0, 1, 2, ... ms: during the write, its fsync or the head update
    const quarter = Math.ceil(points / 4);
    const timed = k < quarter;
    const child = cliProcess(
      ["ledger", "append", s.ledger, s.source, "--at", AT],
      "null",
    ).spawn();
    let delay: number;
    if (timed) {
      delay = Math.round(
        s.ms * (0.35 + (0.8 * k) / Math.max(1, quarter - 1)),
      );
      await new Promise((r) => setTimeout(r, delay));
    } else {
      const started = performance.now();
      const extra = k - quarter;
      while (performance.now() - started < 4 * s.ms) {
        const size = (await Deno.stat(s.ledger)).size;
        if (size > s.before.length) break;
        await new Promise((r) => setTimeout(r, 1));
      }
      if (extra > 0) await new Promise((r) => setTimeout(r, extra));
      delay = Math.round(performance.now() - started);
    }
    try {
      child.kill("SIGKILL");
    } catch {
      // it had finished already
    }
    const status = await child.status;
    const size = (await Deno.stat(s.ledger)).size;
    if (Deno.env.get("LOSSBOOK_FAULTS_DEBUG")) {
      console.error(
        `kill at ${delay} ms: signal ${status.signal}, size ${size} (before ${s.before.length}, after ${s.after.length})`,
      );
    }
    const r = await recover(s.ledger, s.source);
    if (size <= s.before.length) notes.nothingWritten++;
    else if (size < s.after.length) notes.partlyWritten++;
    else if (r.setAside) notes.unacknowledged++;
    else notes.completed++;
    const end = await Deno.readFile(s.ledger);
    if (r.ok && same(end, s.after)) held++;
    else {failures.push(
        `kill at ${delay} ms: ${
          r.ok ? "ledger differs from an uninterrupted append" : r.why
        }`,
      );}
  }
  return {
    trials: points,
    held,
    failures,
    notes: { ...notes, appendMs: Math.round(s.ms) },
  };
}

/**
 * Torn tails at seeded byte offsets inside a large append (what a crash in
 * the middle of the write leaves), each followed by re-running the append,
 * with no manual step; the last one repeats the previous offset.
 */
export async function tornTails(
  n: number,
  points: number,
  seed = 1,
): Promise<TrialFigures> {
  const s = await crashSetup(n);
  const failures: string[] = [];
  let held = 0;
  let x = seed >>> 0 || 1;
  const next = () => {
    // xorshift32, seeded: the same offsets on every run
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
  const span = s.after.length - s.before.length;
  let last = 0;
  for (let k = 0; k < points; k++) {
    await restore(s);
    // the last trial tears at the previous trial's offset again: the same
    // crash twice must not leave a set-aside that cannot write its side file
    const cut = k > 0 && k === points - 1
      ? last
      : s.before.length + 1 + Math.floor(next() * (span - 2));
    last = cut;
    await Deno.writeFile(s.ledger, s.after.subarray(0, cut));
    const r = await recover(s.ledger, s.source);
    const end = await Deno.readFile(s.ledger);
    if (r.ok && same(end, s.after)) held++;
    else {failures.push(
        `tear at byte ${cut}: ${r.ok ? "ledger differs" : r.why}`,
      );}
  }
  return { trials: points, held, failures, notes: {} };
}

/**
 * A writer killed while it holds the lock: the next writer gets the lock at
 * once (well within its wait), and no lock file is left to delete.
 */
export async function killedLockHolder(trials: number): Promise<TrialFigures> {
  const failures: string[] = [];
  let held = 0;
  let waitedMs = 0;
  for (let t = 0; t < trials; t++) {
    const dir = await trialDir("holder");
    const ledger = `${dir}/l.jsonl`;
    const holder = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        "--config",
        `${ROOT}deno.json`,
        `import { openLedger } from "${ROOT}lib/ledger/writer.ts";
         const w = await openLedger(${JSON.stringify(ledger)});
         console.log("held"); setInterval(() => {}, 1000);`,
      ],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = holder.stdout.getReader();
    const first = await reader.read();
    reader.releaseLock();
    if (new TextDecoder().decode(first.value).trim() !== "held") {
      failures.push(`trial ${t}: the holder did not start`);
      holder.kill("SIGKILL");
      await holder.status;
      continue;
    }
    holder.kill("SIGKILL");
    await holder.status;
    await holder.stdout.cancel();
    await Deno.writeTextFile(`${dir}/d.jsonl`, batch("after", 4));
    const started = performance.now();
    const r = await cli([
      "ledger",
      "append",
      ledger,
      `${dir}/d.jsonl`,
      "--at",
      AT,
    ]);
    const ms = performance.now() - started;
    waitedMs = Math.max(waitedMs, ms);
    const leftovers = [];
    for await (const e of Deno.readDir(dir)) {
      if (e.name.endsWith(".lock")) leftovers.push(e.name);
    }
    if (r.code === 0 && ms < 10_000 && leftovers.length === 0) held++;
    else {failures.push(
        `trial ${t}: exit ${r.code} after ${
          ms.toFixed(0)
        } ms, lock files ${leftovers}: ${r.stderr}`,
      );}
  }
  return {
    trials,
    held,
    failures,
    notes: { slowestAppendMs: Math.round(waitedMs) },
  };
}
