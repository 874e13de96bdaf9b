// Shared test helpers: temporary folders that clean themselves up, temporary
// files, and a decision factory.
import type { Decision } from "../lib/decision/decision.ts";

// Every folder tempDir() makes, removed after the last test of the file
// that made it (each test file runs in its own worker, with its own list)
const tempDirs: string[] = [];

Deno.test.afterAll(removeTempDirs);

/** Remove every folder {@linkcode tempDir} made so far; a folder already gone is fine. */
export async function removeTempDirs(): Promise<void> {
  for (const dir of tempDirs.splice(0)) {
    await Deno.remove(dir, { recursive: true }).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
}

/**
 * A fresh temporary folder (`lossbook-test-*` unless `prefix` says
 * otherwise), removed with everything in it after the test file's last test.
 */
export async function tempDir(prefix = "lossbook-test-"): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix });
  tempDirs.push(dir);
  return dir;
}

/** A path named `name` in a fresh temporary folder (see {@linkcode tempDir}); nothing is written. */
export async function tempPath(name: string): Promise<string> {
  return `${await tempDir()}/${name}`;
}

/** Write `text` to a fresh temporary file named `name` and return its path. */
export async function tempFile(name: string, text: string): Promise<string> {
  const path = await tempPath(name);
  await Deno.writeTextFile(path, text);
  return path;
}

/** A valid decision, with fields overridden by `patch`. */
export function decision(patch: Partial<Decision> = {}): Decision {
  return {
    runId: "r1",
    modelId: "m",
    taskId: "t1",
    trial: 0,
    severity: "HIGH",
    trueClass: "AMOUNT_MISMATCH",
    predClass: "AMOUNT_MISMATCH",
    parseOk: true,
    pCorrect: 0.9,
    action: "auto",
    cost: { completeness: "complete", usd: 0.001 },
    outcome: "resolved",
    ...patch,
  };
}

/** Options for {@linkcode runCli}. */
export interface RunCliOptions {
  /**
   * Run `deno run cli.ts` as a child process instead of calling the CLI's
   * `main` in this process: for what only a process shows (its exit code
   * from Deno.exit, what it loads at start-up, signals, a clean stderr when
   * an error escapes). Default: `false`.
   */
  process?: boolean;
}

/** The CLI's output in this process: console.log and console.error, captured. */
let queue: Promise<unknown> = Promise.resolve();

function captured(args: unknown[]): string {
  return args.map((a) => typeof a === "string" ? a : Deno.inspect(a)).join(
    " ",
  ) + "\n";
}

/**
 * Run the CLI and return exit code, stdout and stderr. By default it calls
 * the CLI's `main` in this process (one command at a time, with the console
 * captured), which spares a process start per call; `{ process: true }`
 * runs it as a child process.
 */
export async function runCli(
  args: readonly string[],
  options: RunCliOptions = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const root = new URL("../", import.meta.url).pathname;
  if (options.process !== true && Deno.cwd() + "/" === root) {
    const run = queue.then(async () => {
      const { main } = await import("../cli.ts");
      const out: string[] = [];
      const err: string[] = [];
      const saved = {
        log: console.log,
        error: console.error,
        warn: console.warn,
        info: console.info,
      };
      console.log = console.info = (...a: unknown[]) => out.push(captured(a));
      console.error = console.warn = (...a: unknown[]) => err.push(captured(a));
      try {
        const code = await main(args);
        return { code, stdout: out.join(""), stderr: err.join("") };
      } finally {
        Object.assign(console, saved);
      }
    });
    queue = run.catch(() => {});
    return await run;
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-ffi",
      "--allow-sys",
      "--allow-run",
      "--allow-net",
      `${root}cli.ts`,
      ...args,
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return commandText(out);
}

/** A finished command's exit code and what it printed, as text. */
export interface CommandText {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Decode a finished command's piped standard output and error. */
export function commandText(out: Deno.CommandOutput): CommandText {
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

/**
 * A copy of `value` with every number rounded to `digits` significant digits,
 * for snapshots of analysis tables and chart specs (CONVENTIONS 19: numbers
 * are rounded before serialising).
 */
export function roundNumbers(value: unknown, digits: number): unknown {
  if (typeof value === "number") return Number(value.toPrecision(digits));
  if (Array.isArray(value)) return value.map((v) => roundNumbers(v, digits));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, roundNumbers(v, digits)]),
    );
  }
  return value;
}

/**
 * Decisions that exercise every column of a decision table: nulls,
 * escalations, parse failures, all four cost states and the optional fields.
 * The columnar round-trip tests (CSV, Arrow, Parquet) share it.
 */
export function mixedDecisions(): Decision[] {
  return [
    decision({ taskId: "a", tokensIn: 120, tokensOut: 7, latencyMs: 812.5 }),
    decision({
      taskId: "b",
      predClass: "MATCH",
      pCorrect: null,
      parseOk: false,
      cost: { completeness: "unavailable", usd: null },
      outcome: "model_failure",
    }),
    decision({
      taskId: "c",
      action: "escalate",
      pCorrect: 0.3,
      cost: { completeness: "partial", usd: 0.25 },
    }),
    decision({
      taskId: "d",
      severity: "LOW",
      trueClass: "MATCH",
      predClass: "DUPLICATE",
      pCorrect: 1e-7,
      cost: { completeness: "not_applicable", usd: null },
    }),
    decision({
      taskId: "e",
      modelId: "other",
      severity: "CRITICAL",
      trial: 3,
      pCorrect: 0,
      cost: { completeness: "complete", usd: 0 },
    }),
  ];
}

/**
 * Run a TypeScript `script` in a child Deno with read access to the
 * repository only (no write, no temporary folder) and give back the JSON it
 * prints; fails with the child's stderr when it does not succeed.
 */
export async function runReadOnly(script: string): Promise<unknown> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-lock",
      `--allow-read=${new URL("../", import.meta.url).pathname}`,
      "-",
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const { success, stdout, stderr } = await child.output();
  if (!success) throw new Error(new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}
