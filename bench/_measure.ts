// Private to the benchmark runner: timing child processes with their peak
// resident memory, the result of a case, and its summary statistics.
//
// Peak RSS of a child comes from GNU time (`/usr/bin/time -f %M`, the
// kernel's ru_maxrss of the child as wait4 returns it) when it is installed;
// otherwise from the child's VmHWM in /proc/<pid>/status, read every 10 ms
// while it runs (a lower bound: growth in its last moments can be missed).
// The runner calls /usr/bin/time rather than reading its own getrusage: a
// process started by vfork and exec keeps its parent's high-water mark, so
// a child of a large runner would report the runner's peak as its own.

/** How a case's time was taken. */
export type Timing =
  /** the whole child process, wall clock, start to exit */
  | "process"
  /** inside a started process, around the measured work only */
  | "in-process"
  /** the database server's own execution time (EXPLAIN ANALYZE) */
  | "server"
  /** a per-unit time measured on a sample of the work, scaled to all of it */
  | "extrapolated"
  /** one Deno.bench entry of a bench/*_bench.ts file */
  | "deno bench";

/** One measured case. */
export interface Result {
  /** Case name (for `deno bench` entries, the file's case and the bench's name). */
  name: string;
  /** What was measured, one line. */
  what: string;
  /** How the time was taken. */
  timing: Timing;
  /** Input size (rows, decisions, records, keys, tasks), when there is one. */
  rows?: number;
  /** Every run's seconds, in order. */
  samples: number[];
  /** Fastest run, seconds. */
  best: number;
  /** Median run, seconds (null for `deno bench`, which reports the mean). */
  median: number | null;
  /** Mean, seconds (`deno bench` entries only). */
  avg?: number;
  /** Peak resident memory in bytes, or null when not measured. */
  peakRssBytes: number | null;
  /** Where the peak RSS came from. */
  rssSource: string | null;
  /** Cases this one is compared with; the first is its peer. */
  peers?: string[];
  /** This case's time over each peer's (per row when their sizes differ). */
  ratios?: Record<string, number>;
  /** Case-specific figures and checks. */
  extra?: Record<string, unknown>;
}

/** The fastest of `xs`. */
export function best(xs: readonly number[]): number {
  return Math.min(...xs);
}

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The largest of `xs` that are not null, or null. */
export function maxOrNull(xs: readonly (number | null)[]): number | null {
  const ok = xs.filter((x): x is number => x !== null);
  return ok.length === 0 ? null : Math.max(...ok);
}

/**
 * A result from its runs' seconds.
 *
 * @param fields Everything but the statistics.
 * @param samples Every run's seconds.
 * @returns The result with best and median filled in.
 */
export function resultOf(
  fields: Omit<Result, "samples" | "best" | "median">,
  samples: number[],
): Result {
  return { ...fields, samples, best: best(samples), median: median(samples) };
}

let gnuTime: boolean | undefined;

/** Whether GNU time is at /usr/bin/time (checked once). */
export async function hasGnuTime(): Promise<boolean> {
  if (gnuTime === undefined) {
    const out = await new Deno.Command("/usr/bin/time", {
      args: ["-f", "%M", "-o", "/dev/null", "true"],
      stdout: "null",
      stderr: "null",
    }).output().catch(() => ({ success: false }));
    gnuTime = out.success;
  }
  return gnuTime;
}

/** Where the runner reads peak RSS from, for the output. */
export async function rssSource(): Promise<string> {
  return await hasGnuTime()
    ? "/usr/bin/time"
    : "VmHWM sampled from /proc/<pid>/status";
}

/** A finished child process. */
export interface ChildRun {
  /** Wall seconds from spawn to exit. */
  seconds: number;
  /** Peak resident memory, bytes, or null when it could not be read. */
  peakRssBytes: number | null;
  /** Its standard output. */
  stdout: string;
  /** Its standard error. */
  stderr: string;
}

/** Options for {@linkcode runTimed}. */
export interface RunOptions {
  /** Working folder. */
  cwd?: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
}

const decoder = new TextDecoder();

/**
 * Run `cmd args` to completion: its wall time, peak RSS and output. A
 * non-zero exit throws, so that a failing run is never timed as a fast one.
 *
 * @param cmd Program.
 * @param args Its arguments.
 * @param options Working folder and environment.
 * @returns Time, peak RSS and output.
 */
export async function runTimed(
  cmd: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<ChildRun> {
  const common = {
    cwd: options.cwd,
    env: options.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  } as const;
  let seconds: number;
  let peakRssBytes: number | null = null;
  let out: Deno.CommandOutput;
  if (await hasGnuTime()) {
    const rssFile = await Deno.makeTempFile({ prefix: "lossbook-bench-rss-" });
    try {
      const t = performance.now();
      out = await new Deno.Command("/usr/bin/time", {
        ...common,
        args: ["-o", rssFile, "-f", "%M", cmd, ...args],
      }).output();
      seconds = (performance.now() - t) / 1000;
      const last = (await Deno.readTextFile(rssFile)).trim().split("\n").at(
        -1,
      );
      const kb = Number(last);
      if (Number.isFinite(kb) && kb > 0) peakRssBytes = kb * 1024;
    } finally {
      await Deno.remove(rssFile).catch(() => {});
    }
  } else {
    const t = performance.now();
    const child = new Deno.Command(cmd, { ...common, args: [...args] })
      .spawn();
    let done = false;
    const sampler = (async () => {
      while (!done) {
        try {
          const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
          const m = /VmHWM:\s+(\d+) kB/.exec(status);
          if (m) {
            peakRssBytes = Math.max(peakRssBytes ?? 0, Number(m[1]) * 1024);
          }
        } catch {
          // gone, or no /proc
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    out = await child.output();
    seconds = (performance.now() - t) / 1000;
    done = true;
    await sampler;
  }
  const stdout = decoder.decode(out.stdout);
  const stderr = decoder.decode(out.stderr);
  if (!out.success) {
    throw new Error(
      `${cmd} ${args.join(" ")} exited ${out.code}:\n${stderr.trim()}`,
    );
  }
  return { seconds, peakRssBytes, stdout, stderr };
}

/** Seconds as s, ms or µs with three significant digits. */
export function formatSeconds(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s)) return "n/a";
  if (s >= 1000) return `${Math.round(s).toLocaleString("en-US")} s`;
  if (s >= 1) return `${s.toPrecision(3)} s`;
  if (s >= 1e-3) return `${(s * 1e3).toPrecision(3)} ms`;
  return `${(s * 1e6).toPrecision(3)} µs`;
}

/** Bytes as MiB (no decimals) or GiB (two decimals). */
export function formatBytes(b: number | null | undefined): string {
  if (b === null || b === undefined) return "n/a";
  return b >= 2 ** 30
    ? `${(b / 2 ** 30).toFixed(2)} GiB`
    : `${Math.round(b / 2 ** 20)} MiB`;
}

/** A ratio with three significant digits. */
export function formatRatio(r: number): string {
  return `${r >= 100 ? Math.round(r) : r.toPrecision(3)}x`;
}

/**
 * This process's peak resident memory so far (VmHWM), bytes, or null
 * without /proc.
 */
export function peakRssNow(): number | null {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const m = /VmHWM:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Reset this process's peak resident memory to its current resident memory
 * (`5` into /proc/self/clear_refs, Linux 4.0 and later), so that the next
 * {@linkcode peakRssNow} is the peak of what ran in between; false when it
 * cannot be reset.
 */
export function resetPeakRss(): boolean {
  try {
    Deno.writeTextFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

/** Where an in-process case's peak RSS comes from, for the output. */
export const IN_PROCESS_RSS =
  "VmHWM of the worker, reset before each run (includes what it already held)";

/**
 * Time `fn` in this process, with its peak resident memory (the process's
 * high-water mark, reset before `fn` starts).
 *
 * @param fn The measured work.
 * @returns Its value, seconds and peak RSS (null without /proc).
 */
export async function timeInProcess<T>(
  fn: () => T | Promise<T>,
): Promise<{ value: T; seconds: number; peakRssBytes: number | null }> {
  const reset = resetPeakRss();
  const t = performance.now();
  const value = await fn();
  const seconds = (performance.now() - t) / 1000;
  return { value, seconds, peakRssBytes: reset ? peakRssNow() : null };
}
