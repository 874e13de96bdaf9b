// Private to the benchmark runner: what a case and a group of cases are, and
// how a group runs work in a child process of its own (bench/_child.ts).
// Cases that are compared run in the same group, interleaved round by round
// (ours, peer, ours, peer, ...), so that a busy moment of the shared machine
// hits both sides; the runner then reads their ratio.
import { type ChildRun, runTimed } from "./_measure.ts";
import type { Result } from "./_measure.ts";

/** One case: a name for `--only`, a description and its peers. */
export interface CaseInfo {
  /** Name, unique across groups. */
  name: string;
  /** What it measures, one line. */
  what: string;
  /** Default input size (rows, decisions, records, keys, tasks), if any. */
  rows?: number;
  /** Cases it is compared with; the first is its peer. They run with it. */
  peers?: string[];
  /** Left out of a run of everything (too big by default); `--only` runs it. */
  optIn?: boolean;
}

/** What a group is given to run its cases. */
export interface Context {
  /** The repository's folder, absolute, with a trailing slash. */
  root: string;
  /** The CLI a process case runs (`cli.ts`, or `--cli PATH`). */
  cli: string;
  /** The cache folder for generated inputs (and scratch space). */
  cacheDir: string;
  /** `--rows`: every selected case's size, instead of its default. */
  rows?: number;
  /** `--rounds`: runs of each case, instead of the group's default. */
  rounds?: number;
  /** Progress, to standard error. */
  log(message: string): void;
  /** Record that cases were not run, and why. */
  skip(names: readonly string[], reason: string): void;
}

/** A group of cases measured together. */
export interface Group {
  /** Name, accepted by `--only` for all its cases. */
  name: string;
  /** Its cases. */
  cases: CaseInfo[];
  /** Runs of each case by default. */
  rounds: number;
  /** Run the selected cases (a subset of `cases`, peers included). */
  run(ctx: Context, selected: ReadonlySet<string>): Promise<Result[]>;
}

/** A case's size under `ctx`: `--rows`, else its default. */
export function rowsOf(ctx: Context, info: CaseInfo): number {
  return ctx.rows ?? info.rows ?? 0;
}

/** A group's runs under `ctx`: `--rounds`, else its default. */
export function roundsOf(ctx: Context, group: { rounds: number }): number {
  return ctx.rounds ?? group.rounds;
}

/** The case named `name` of `cases` (it must be there). */
export function caseNamed(cases: readonly CaseInfo[], name: string): CaseInfo {
  const found = cases.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no case ${name}`);
  return found;
}

/** `deno run -A` with the runner's Deno. */
export const DENO_RUN = ["run", "-A"];

/** A child's last line of standard output, parsed as JSON. */
export function lastJson<T>(stdout: string): T {
  const line = stdout.trim().split("\n").at(-1);
  if (line === undefined || line === "") throw new Error("no output");
  return JSON.parse(line) as T;
}

/**
 * Run `fn` of a case module (its `children` export) in a child process of
 * its own, so that its peak memory is its own and the runner stays small.
 *
 * @param ctx The run's context.
 * @param module The module under bench/cases/, without `.ts`.
 * @param fn The key of its `children` export.
 * @param args JSON-able arguments.
 * @param denoFlags Extra flags for `deno run` (V8 flags).
 * @returns What the function returned, and the child's time and peak RSS.
 */
export async function worker<T>(
  ctx: Context,
  module: string,
  fn: string,
  args: unknown,
  denoFlags: readonly string[] = [],
): Promise<{ value: T; run: ChildRun }> {
  const run = await runTimed(Deno.execPath(), [
    ...DENO_RUN,
    ...denoFlags,
    `${ctx.root}bench/_child.ts`,
    module,
    fn,
    JSON.stringify(args),
  ], { cwd: ctx.root });
  return { value: lastJson<T>(run.stdout), run };
}

/** A case module's functions that run in a child (bench/_child.ts). */
export type Children = Record<
  string,
  // deno-lint-ignore no-explicit-any
  (args: any) => Promise<unknown>
>;
