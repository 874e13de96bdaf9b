/**
 * Reading a large JSONL run export ahead: a command line's file starts
 * being read by workers while the command's own modules load, and
 * `jsonlStatsFile` takes those workers, with what they read, when it is
 * asked for that file. It changes when the reading starts, never what is
 * read: a read-ahead that nobody takes is stopped, and a file that changed
 * meanwhile is read again.
 *
 * This module loads nothing else of the reader, so that a program may
 * import it before anything else without paying for the reader's modules
 * at start-up.
 *
 * @module
 */

import {
  readAheadPath,
  startReadAhead,
  stopReadAhead as stopWorkersAhead,
} from "./_jsonl_read_ahead.ts";

/**
 * Start reading ahead the JSONL run export a `score` or `sweep` command line
 * names: exactly one argument ending in `.jsonl` that is not an option, no
 * `--format`, and no engine other than memory. Workers start only for a
 * file of two segments (16 MiB each) or more and when the machine has a
 * core to spare; otherwise, or when the file cannot be read (the command
 * itself reports that), nothing happens.
 *
 * @param args The command's arguments, after its name.
 * @returns Whether workers were started.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { startReadAheadFor, stopReadAhead } from "./read_ahead.ts";
 *
 * // two files, or another engine: nothing to read ahead
 * assert.equal(startReadAheadFor(["a.jsonl", "b.jsonl"]), false);
 * assert.equal(startReadAheadFor(["run.jsonl", "--engine", "duckdb"]), false);
 * stopReadAhead();
 * ```
 */
export function startReadAheadFor(args: readonly string[]): boolean {
  const path = readAheadPath(args);
  return path !== null && startReadAhead(path);
}

/**
 * Stop a read-ahead that no reader took (a command that failed before
 * reading, or read another file). Does nothing when there is none.
 *
 * @example
 * ```ts
 * import { stopReadAhead } from "./read_ahead.ts";
 *
 * stopReadAhead();
 * ```
 */
export function stopReadAhead(): void {
  stopWorkersAhead();
}
