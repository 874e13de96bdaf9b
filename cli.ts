/**
 * The `lossbook` command line: `score`, `compare`, `calibrate`, `escalate`,
 * `sweep`, `plan`, the ledger commands and the rest, each with `--help`.
 *
 * Run as a program, this module is the command: from a clone,
 * `deno task lossbook <command>`; installed as a command (once the package
 * is published), `deno install -g -A -n lossbook jsr:@lossbook/lossbook/cli`.
 * Imported, it gives {@linkcode main}, which runs a command line and returns
 * its exit code, and the commands themselves.
 *
 * Exit codes: 0 success, 1 a check failed (a claim, a verification), 2 bad
 * input or usage, 70 a bug in lossbook, 74 an error of the device or file
 * system (no space, read-only, I/O error, quota, a deadline passed), one
 * line naming the path and the system's error. An input error is one line naming
 * the file, line and field, never a stack trace; it is raised at the edges as
 * an input error (lib/input_error.ts), so that a `TypeError` or `RangeError`
 * from a fault in lossbook is reported as one (exit 70, one line, the full
 * trace with `LOSSBOOK_DEBUG=1`) instead of as the user's mistake.
 *
 * Start-up stays small: the process loads the module of the command it
 * runs, and that module loads a format's reader or an engine only when the
 * input needs it (`lib/_late_import.ts`).
 *
 * Each command lives in `commands/<name>.ts`; register it in
 * `commands/_registry.ts` and in `LOADERS` here.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { COMMAND_NAMES, EXIT_BUG, main } from "./cli.ts";
 *
 * assert.ok(COMMAND_NAMES.includes("score"));
 * assert.equal(await main(["--version"]), 0); // prints the version
 * assert.equal(await main(["no-such-command"]), 2);
 * assert.equal(EXIT_BUG, 70);
 * ```
 *
 * @module
 */

import type { Command } from "./commands/_command.ts";
import { CheckFailed, UsageError } from "./commands/_errors.ts";
import { formatHelp } from "./commands/_help.ts";
import { VERSION } from "./version.ts";
import { isInputError } from "./lib/input_error.ts";
import { isDeviceError, isFileCondition, osErrorLine } from "./lib/io_error.ts";
import { importLater } from "./lib/_late_import.ts";
import { startReadAheadFor, stopReadAhead } from "./lib/read/read_ahead.ts";
import {
  terminalLine,
  terminalSafe,
  withSafeConsole,
} from "./commands/_terminal.ts";

// the types of the commands below
export type { Command } from "./commands/_command.ts";
export type {
  CommandHelp,
  HelpForm,
  OptionDoc,
  OptionTable,
} from "./commands/_help.ts";

/** A loader of the command `name` exports from the module at `path`. */
function commandIn(path: string, name: string): () => Promise<Command> {
  const url = new URL(path, import.meta.url);
  return async () => (await importLater<Record<string, Command>>(url))[name];
}

/**
 * Load one command's module, and only it: running a command loads what that
 * command needs, not every command's libraries (through importLater, since
 * Deno would load the target of a literal `import()` before starting). The
 * names and their order are those of the registry (commands/_registry.ts),
 * as a test checks.
 */
const LOADERS: Readonly<Record<string, () => Promise<Command>>> = {
  profiles: commandIn("./commands/profiles.ts", "profilesCommand"),
  score: commandIn("./commands/score.ts", "scoreCommand"),
  compare: commandIn("./commands/compare.ts", "compareCommand"),
  plan: commandIn("./commands/plan.ts", "planCommand"),
  sweep: commandIn("./commands/sweep.ts", "sweepCommand"),
  board: commandIn("./commands/board.ts", "boardCommand"),
  simulate: commandIn("./commands/simulate.ts", "simulateCommand"),
  generate: commandIn("./commands/generate.ts", "generateCommand"),
  verify: commandIn("./commands/verify.ts", "verifyCommand"),
  contamination: commandIn(
    "./commands/contamination.ts",
    "contaminationCommand",
  ),
  ledger: commandIn("./commands/ledger.ts", "ledgerCommand"),
  replay: commandIn("./commands/replay.ts", "replayCommand"),
  drift: commandIn("./commands/drift.ts", "driftCommand"),
  calibrate: commandIn("./commands/calibrate.ts", "calibrateCommand"),
  escalate: commandIn("./commands/escalate.ts", "escalateCommand"),
  card: commandIn("./commands/card.ts", "cardCommand"),
  breakeven: commandIn("./commands/breakeven.ts", "breakevenCommand"),
  import: commandIn("./commands/import.ts", "importCommand"),
  "severity-template": commandIn(
    "./commands/severity_template.ts",
    "severityTemplateCommand",
  ),
  "export-tasks": commandIn("./commands/export_tasks.ts", "exportTasksCommand"),
  "export-sql": commandIn("./commands/export_sql.ts", "exportSqlCommand"),
  engine: commandIn("./commands/engine.ts", "engineCommand"),
  reproduce: commandIn("./commands/_reproduce_command.ts", "reproduceCommand"),
};

/** The eager registry of every command (commands/_registry.ts). */
async function loadRegistry(): Promise<Readonly<Record<string, Command>>> {
  type Registry = typeof import("./commands/_registry.ts");
  return (await importLater<Registry>(
    new URL("./commands/_registry.ts", import.meta.url),
  )).COMMANDS;
}

/**
 * Every command, by name, in the order `--help` lists them. Importing this
 * module loads them all (the registry); the CLI process itself (this file
 * run as the main module) leaves it empty and loads only the command it
 * runs, or the registry for `--help` and names it does not know.
 */
export const COMMANDS: Readonly<Record<string, Command>> = import.meta.main
  ? Object.freeze({})
  : await loadRegistry();

/** The registry: {@linkcode COMMANDS}, or loaded now in the CLI process. */
async function registry(): Promise<Readonly<Record<string, Command>>> {
  return import.meta.main ? await loadRegistry() : COMMANDS;
}

/**
 * Load the command called `name` by importing its module alone (not the
 * registry, nor any other command's module).
 *
 * @param name A command name, as on the command line.
 * @returns The command, the same object as in {@linkcode COMMANDS}; or
 * `undefined` when no command has that name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { COMMANDS, loadCommand } from "./cli.ts";
 *
 * assert.equal(await loadCommand("score"), COMMANDS.score);
 * assert.equal(await loadCommand("toString"), undefined);
 * ```
 */
export async function loadCommand(name: string): Promise<Command | undefined> {
  return Object.hasOwn(LOADERS, name) ? await LOADERS[name]() : undefined;
}

/**
 * The names {@linkcode loadCommand} loads, in its order; a test holds them
 * to the keys of {@linkcode COMMANDS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { COMMAND_NAMES } from "./cli.ts";
 *
 * assert.equal(COMMAND_NAMES[1], "score");
 * ```
 */
export const COMMAND_NAMES: readonly string[] = Object.keys(LOADERS);

/** The command called `name`, looked up as in the registry, loading only its module where it can. */
async function findCommand(name: string): Promise<Command | undefined> {
  if (import.meta.main && Object.hasOwn(LOADERS, name)) {
    return await loadCommand(name);
  }
  return (await registry())[name];
}

function help(commands: Readonly<Record<string, Command>>): string {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((n) => n.length));
  return `lossbook ${VERSION}: consequence-weighted evaluation of AI systems that touch money

Usage: deno task lossbook <command> [options]

Commands:
${names.map((n) => `  ${n.padEnd(width)}  ${commands[n].summary}`).join("\n")}

Run 'deno task lossbook help <command>' (or '<command> --help') for a
command's options, each with its meaning and default.
Exit codes: 0 success, 1 a check failed, 2 bad input or usage, 70 a bug in
lossbook (set LOSSBOOK_DEBUG=1 for the full trace, and please report it),
74 an error of the device or file system (no space, read-only, I/O error).

Example:
  ${commands.score.example}`;
}

/** Whether an error is the user's: an input error, a file condition, or a zod refusal at an edge. */
function isUsersError(error: unknown): boolean {
  if (isInputError(error) || error instanceof UsageError) return true;
  if (isFileCondition(error)) return true;
  // zod validates at the edges only: its refusals are about input
  const cause = (error as { cause?: unknown } | null)?.cause;
  return error instanceof Error && cause instanceof Error &&
    cause.name === "ZodError";
}

function debugRequested(): boolean {
  try {
    return Deno.env.get("LOSSBOOK_DEBUG") === "1";
  } catch {
    return false; // no --allow-env
  }
}

/** Exit code for a bug in lossbook (BSD sysexits EX_SOFTWARE). */
export const EXIT_BUG = 70;

/**
 * Exit code for an error of the device or file system: no space left, a
 * read-only file system, an I/O error, a quota exceeded, a deadline passed
 * (BSD sysexits EX_IOERR).
 */
export const EXIT_IO = 74;

/**
 * Run the CLI on `args` and return the exit code.
 *
 * @param args Command-line arguments, without the program name.
 * @returns 0 on success, 1 when a check fails, 2 on bad input or usage, 70
 * when lossbook itself failed, 74 on an error of the device or file system.
 */
export async function main(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined) {
    console.error(help(await registry()));
    return 2;
  }
  if (name === "help" && rest.length > 0) {
    const topic = (await registry())[rest[0]];
    if (topic === undefined || rest.length > 1) {
      console.error(
        `lossbook help: unknown command ${
          JSON.stringify(rest.join(" "))
        }; try 'lossbook help'`,
      );
      return 2;
    }
    console.log(formatHelp(topic));
    return 0;
  }
  if (name === "help" || name === "--help" || name === "-h") {
    console.log(help(await registry()));
    return 0;
  }
  if (name === "--version") {
    console.log(VERSION);
    return 0;
  }
  // a large JSONL run export starts being read while the command loads
  if (
    (name === "score" || name === "sweep") &&
    !rest.includes("--help") && !rest.includes("-h")
  ) startReadAheadFor(rest);
  try {
    return await runCommand(name, rest);
  } finally {
    stopReadAhead();
  }
}

async function runCommand(name: string, rest: string[]): Promise<number> {
  const command = await findCommand(name);
  if (command === undefined) {
    console.error(
      `lossbook: unknown command ${
        JSON.stringify(name)
      }; try 'lossbook --help'`,
    );
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(formatHelp(command));
    return 0;
  }
  try {
    return await withSafeConsole(() => command.run(rest));
  } catch (error) {
    if (error instanceof CheckFailed) {
      console.error(
        `lossbook ${name}: ${terminalLine(error.message.split("\n")[0])}`,
      );
      return 1;
    }
    if (isUsersError(error)) {
      const first = (error as Error).message.split("\n")[0];
      const message = error instanceof Deno.errors.FilesystemLoop
        ? osErrorLine(first)
        : first.replace(
          /^No such file or directory \(os error 2\):? \w* ?'?(.*?)'?$/,
          "Cannot read $1: no such file",
        );
      console.error(`lossbook ${name}: ${terminalLine(message)}`);
      return 2;
    }
    if (isDeviceError(error)) {
      const message = osErrorLine(
        String((error as Error).message ?? error).split("\n")[0],
      );
      console.error(`lossbook ${name}: ${terminalLine(message)}`);
      return EXIT_IO;
    }
    const e = error instanceof Error ? error : new Error(String(error));
    console.error(
      `lossbook ${name}: internal error: ${e.name}: ${
        terminalLine(e.message.split("\n")[0])
      }; this is a bug in lossbook; please report it`,
    );
    if (debugRequested()) {
      console.error(terminalSafe(e.stack ?? String(e), { keepNewlines: true }));
    }
    return EXIT_BUG;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
