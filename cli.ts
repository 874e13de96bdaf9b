/**
 * The `lossbook` command line.
 *
 * Exit codes: 0 success, 1 a check failed (a claim, a verification), 2 bad
 * input or usage. An input error is one line naming the file, line and field,
 * never a stack trace.
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
import { VERSION } from "./version.ts";

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
    summary: "Regenerate every table, figure and claim into out/",
    usage:
      "lossbook reproduce [--out DIR] [--only ID]... [--no-png] [--no-api] [--force] [--json]",
    example: "deno task lossbook reproduce --only divergence",
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

Run 'deno task lossbook <command> --help' for a command's options.
Exit codes: 0 success, 1 a check failed, 2 bad input or usage.

Example:
  ${COMMANDS.score.example}`;
}

const INPUT_ERRORS = [
  UsageError,
  SyntaxError,
  RangeError,
  TypeError,
  Deno.errors.NotFound,
  Deno.errors.PermissionDenied,
  Deno.errors.IsADirectory,
  Deno.errors.AlreadyExists,
];

/**
 * Run the CLI on `args` and return the exit code.
 *
 * @param args Command-line arguments, without the program name.
 * @returns 0 on success, 1 when a check fails, 2 on bad input or usage.
 */
export async function main(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined) {
    console.error(help());
    return 2;
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
    console.log(
      `${command.summary}\n\nUsage: ${command.usage}\n\nExample:\n  ${command.example}`,
    );
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof CheckFailed) {
      console.error(`lossbook ${name}: ${error.message.split("\n")[0]}`);
      return 1;
    }
    if (INPUT_ERRORS.some((E) => error instanceof E)) {
      const message = (error as Error).message.split("\n")[0]
        .replace(
          /^No such file or directory \(os error 2\):? \w* ?'?(.*?)'?$/,
          "Cannot read $1: no such file",
        );
      console.error(`lossbook ${name}: ${message}`);
      return 2;
    }
    throw error;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
