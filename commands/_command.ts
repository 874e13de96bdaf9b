// Private, shared by the library functions (api/) and the commands: the command contract, usage errors and flag parsing.
import { parseArgs } from "node:util";
import { terminalSafe } from "./_terminal.ts";
import { formatQuantity } from "./_format.ts";
import { type CommandHelp, type OptionTable, parseSpec } from "./_help.ts";

import { UsageError } from "./_errors.ts";

export { CheckFailed, UsageError } from "./_errors.ts";
export { refuseInputAsOutput } from "./_out_file.ts";

/**
 * Raised when flags do not parse (an unknown flag, a missing value); it
 * carries the flags the command accepts, so a test can hold them against
 * the command's help.
 */
export class FlagParseError extends UsageError {
  /** The long flags the command accepts, without `--`. */
  readonly accepted: readonly string[];
  constructor(message: string, accepted: readonly string[]) {
    super(message);
    this.accepted = accepted;
  }
}

/** One `lossbook` sub-command. */
export interface Command {
  /** One line for the command list. */
  readonly summary: string;
  /** The usage lines, for `--help`, generated from {@linkcode Command.help}. */
  readonly usage: string;
  /** A runnable example, for `--help`. */
  readonly example: string;
  /** Its forms with their option tables, and notes: what `--help` prints. */
  readonly help: CommandHelp;
  /** Run with the arguments after the command name; resolve to the exit code. */
  run(args: string[]): Promise<number>;
}

/**
 * Parse flags strictly with the command's option table (the same table its
 * `--help` lists); an unknown flag or a missing value is a usage error.
 */
export function parseFlags<T extends OptionTable>(
  _command: string,
  args: string[],
  options: T,
) {
  type Config = {
    args: string[];
    options: T & { help: { type: "boolean"; short: "h" } };
    strict: true;
    allowPositionals: true;
  };
  try {
    // typed as util.parseArgs types what it returns for this table
    return parseArgs({
      args,
      options: { ...parseSpec(options), help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: true,
    }) as unknown as ReturnType<typeof parseArgs<Config>>;
  } catch (error) {
    throw new FlagParseError(
      (error as Error).message,
      [...Object.keys(options), "help"],
    );
  }
}

/** Left-align the first column and right-align the rest; cells are escaped for the terminal. */
export function alignRows(rows: readonly string[][]): string {
  rows = rows.map((r) => r.map((c) => terminalSafe(c)));
  const widths = rows[0].map((_, i) =>
    Math.max(...rows.map((r) => r[i].length))
  );
  return rows.map((r) =>
    r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join(
      "  ",
    )
  ).join("\n");
}

/**
 * Format a measured quantity for a terminal table: `digits` significant
 * digits, but every integer digit kept (see `_format.ts`); `null` reads "n/a".
 */
export function formatNumber(value: number | null, digits = 6): string {
  return formatQuantity(value, digits);
}

/** `--seed`: a safe integer, 0 when absent. */
export function seedFlag(value: string | undefined): number {
  const seed = value === undefined ? 0 : Number(value);
  if (!Number.isSafeInteger(seed)) {
    throw new UsageError(`--seed must be an integer, got ${value}`);
  }
  return seed;
}

/** An integer flag with a lower bound, an optional upper bound and a default. */
export function intFlag(
  name: string,
  value: string | undefined,
  options: { min: number; max?: number; fallback: number },
): number {
  const n = value === undefined ? options.fallback : Number(value);
  const max = options.max ?? Infinity;
  if (!Number.isInteger(n) || n < options.min || n > max) {
    throw new UsageError(
      `--${name} must be an integer >= ${options.min}${
        max === Infinity ? "" : ` and <= ${max.toLocaleString("en-US")}`
      }, got ${value}`,
    );
  }
  return n;
}

/** Most bootstrap resamples a command takes. */
export const MAX_RESAMPLES = 1_000_000;

/**
 * Call a library function on values the user gave on the command line: its
 * `TypeError` or `RangeError` is then about those values, a usage error
 * (exit 2), not a fault of lossbook.
 */
export function withUserValues<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) {
      throw new UsageError(error.message, { cause: error });
    }
    throw error;
  }
}
