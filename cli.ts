/**
 * The `lossbook` command line.
 *
 * Exit codes: 0 success, 1 a check failed (a claim, a verification), 2 bad
 * input or usage, 70 a bug in lossbook. An input error is one line naming
 * the file, line and field, never a stack trace; it is raised at the edges as
 * an input error (lib/input_error.ts), so that a `TypeError` or `RangeError`
 * from a fault in lossbook is reported as one (exit 70, one line, the full
 * trace with `LOSSBOOK_DEBUG=1`) instead of as the user's mistake.
 *
 * Each command lives in `commands/<name>.ts`; register it in `COMMANDS`.
 *
 * @module
 */

import { CheckFailed, type Command, UsageError } from "./commands/_command.ts";
import { breakevenCommand } from "./commands/breakeven.ts";
import { calibrateCommand } from "./commands/calibrate.ts";
import { escalateCommand } from "./commands/escalate.ts";
import { contaminationCommand } from "./commands/contamination.ts";
import { driftCommand } from "./commands/drift.ts";
import { generateCommand } from "./commands/generate.ts";
import { exportTasksCommand } from "./commands/export_tasks.ts";
import { exportSqlCommand } from "./commands/export_sql.ts";
import { importCommand } from "./commands/import.ts";
import { ledgerCommand } from "./commands/ledger.ts";
import { compareCommand } from "./commands/compare.ts";
import { planCommand } from "./commands/plan.ts";
import { profilesCommand } from "./commands/profiles.ts";
import { replayCommand } from "./commands/replay.ts";
import { scoreCommand } from "./commands/score.ts";
import { simulateCommand } from "./commands/simulate.ts";
import { sweepCommand } from "./commands/sweep.ts";
import { verifyCommand } from "./commands/verify.ts";
import { reproduceMain } from "./reproduce.ts";
import { commandHelp, formatHelp } from "./commands/_help.ts";
import { REPRODUCE_COMMAND } from "./commands/_reproduce_options.ts";
import { VERSION } from "./version.ts";
import { isInputError } from "./lib/input_error.ts";
import {
  terminalLine,
  terminalSafe,
  withSafeConsole,
} from "./commands/_terminal.ts";

/** Every command, by name, in the order `--help` lists them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  profiles: profilesCommand,
  score: scoreCommand,
  compare: compareCommand,
  plan: planCommand,
  sweep: sweepCommand,
  simulate: simulateCommand,
  generate: generateCommand,
  verify: verifyCommand,
  contamination: contaminationCommand,
  ledger: ledgerCommand,
  replay: replayCommand,
  drift: driftCommand,
  calibrate: calibrateCommand,
  escalate: escalateCommand,
  breakeven: breakevenCommand,
  import: importCommand,
  "export-tasks": exportTasksCommand,
  "export-sql": exportSqlCommand,
  reproduce: {
    ...REPRODUCE_COMMAND,
    ...commandHelp(REPRODUCE_COMMAND.help),
    run: (args) => reproduceMain(args),
  },
};

function help(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length));
  return `lossbook ${VERSION}: consequence-weighted evaluation of AI systems that touch money

Usage: deno task lossbook <command> [options]

Commands:
${names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n].summary}`).join("\n")}

Run 'deno task lossbook help <command>' (or '<command> --help') for a
command's options, each with its meaning and default.
Exit codes: 0 success, 1 a check failed, 2 bad input or usage, 70 a bug in
lossbook (set LOSSBOOK_DEBUG=1 for the full trace, and please report it).

Example:
  ${COMMANDS.score.example}`;
}

// Conditions of the user's files and input, not faults of lossbook
const INPUT_ERRORS = [
  UsageError,
  Deno.errors.NotFound,
  Deno.errors.PermissionDenied,
  Deno.errors.IsADirectory,
  Deno.errors.NotADirectory,
  Deno.errors.AlreadyExists,
  Deno.errors.Busy,
  Deno.errors.InvalidData,
];

/** Whether an error is the user's: an input error, a file condition, or a zod refusal at an edge. */
function isUsersError(error: unknown): boolean {
  if (isInputError(error)) return true;
  if (INPUT_ERRORS.some((E) => error instanceof E)) return true;
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
 * Run the CLI on `args` and return the exit code.
 *
 * @param args Command-line arguments, without the program name.
 * @returns 0 on success, 1 when a check fails, 2 on bad input or usage, 70
 * when lossbook itself failed.
 */
export async function main(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined) {
    console.error(help());
    return 2;
  }
  if (name === "help" && rest.length > 0) {
    const topic = COMMANDS[rest[0]];
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
    console.log(help());
    return 0;
  }
  if (name === "--version") {
    console.log(VERSION);
    return 0;
  }
  const command = COMMANDS[name];
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
      const message = (error as Error).message.split("\n")[0]
        .replace(
          /^No such file or directory \(os error 2\):? \w* ?'?(.*?)'?$/,
          "Cannot read $1: no such file",
        );
      console.error(`lossbook ${name}: ${terminalLine(message)}`);
      return 2;
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
