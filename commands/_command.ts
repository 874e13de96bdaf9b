// Private to the CLI: the command contract, usage errors and flag parsing.
import { parseArgs } from "node:util";
import { formatQuantity } from "./_format.ts";

/** Raised for bad usage; the CLI maps it to exit code 2. */
export class UsageError extends Error {}

/** Raised when a check fails (a claim, a verification); the CLI maps it to exit code 1. */
export class CheckFailed extends Error {}

/** One `lossbook` sub-command. */
export interface Command {
  /** One line for the command list. */
  readonly summary: string;
  /** The usage line, for `--help`. */
  readonly usage: string;
  /** A runnable example, for `--help`. */
  readonly example: string;
  /** Run with the arguments after the command name; resolve to the exit code. */
  run(args: string[]): Promise<number>;
}

type FlagSpec = Record<
  string,
  { type: "string" | "boolean"; multiple?: boolean; short?: string }
>;

/** Parse flags strictly; an unknown flag or a missing value is a usage error. */
export function parseFlags<T extends FlagSpec>(
  _command: string,
  args: string[],
  options: T,
) {
  try {
    return parseArgs({
      args,
      options: { ...options, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Left-align the first column and right-align the rest. */
export function alignRows(rows: readonly string[][]): string {
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

/** An integer flag with a lower bound and a default. */
export function intFlag(
  name: string,
  value: string | undefined,
  options: { min: number; fallback: number },
): number {
  const n = value === undefined ? options.fallback : Number(value);
  if (!Number.isInteger(n) || n < options.min) {
    throw new UsageError(
      `--${name} must be an integer >= ${options.min}, got ${value}`,
    );
  }
  return n;
}
