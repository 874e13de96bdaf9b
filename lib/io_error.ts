/**
 * Device errors: what the operating system reports when the device or file
 * system fails lossbook (no space left, a read-only file system, an I/O
 * error, a quota exceeded, a deadline passed), as opposed to a wrong input
 * or a fault in lossbook. The command line maps them to exit 74 (BSD
 * sysexits EX_IOERR) with one line naming the path and the system's error.
 *
 * An error about a missing, unreadable or wrong-kind input (not found,
 * permission denied, is or is not a directory, already exists, busy, invalid
 * data, a symlink loop) is not one: it is the user's to fix, exit 2.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDeviceError } from "./io_error.ts";
 *
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * assert.equal(isDeviceError(full), true);
 * assert.equal(isDeviceError(new Deno.errors.TimedOut("db:5432 did not answer")), true);
 * assert.equal(isDeviceError(new Deno.errors.NotFound("gone")), false);
 * ```
 *
 * @module
 */

// Conditions of the user's files, exit 2: each class is a wrong input
const INPUT_CONDITIONS = [
  Deno.errors.NotFound,
  Deno.errors.PermissionDenied,
  Deno.errors.IsADirectory,
  Deno.errors.NotADirectory,
  Deno.errors.AlreadyExists,
  Deno.errors.Busy,
  Deno.errors.InvalidData,
  Deno.errors.FilesystemLoop,
];

/**
 * Whether an error is a condition of the user's files (not found,
 * permission denied, is or is not a directory, already exists, busy,
 * invalid data, a symlink loop) rather than of the device.
 *
 * @param error Anything thrown.
 * @returns `true` for those classes of `Deno.errors`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isFileCondition } from "./io_error.ts";
 *
 * assert.equal(isFileCondition(new Deno.errors.IsADirectory("a folder")), true);
 * assert.equal(isFileCondition(new Error("No space left on device")), false);
 * ```
 */
export function isFileCondition(error: unknown): boolean {
  return INPUT_CONDITIONS.some((E) => error instanceof E);
}

/** The operating system's error code (`ENOSPC`, `EROFS`, …) of an error or its cause, or `null`. */
function osCode(error: unknown): string | null {
  for (let e = error, depth = 0; depth < 4; depth++) {
    if (typeof e !== "object" || e === null) return null;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z0-9]+$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Whether an error is the device's or file system's: an operating-system
 * error (it carries a code such as `ENOSPC`, `EROFS`, `EIO` or `EDQUOT`)
 * that is not a condition of the user's files, or a deadline passed
 * (`Deno.errors.TimedOut`, `ETIMEDOUT`).
 *
 * @param error Anything thrown.
 * @returns `true` when the command line should exit 74.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDeviceError } from "./io_error.ts";
 *
 * const ro = Object.assign(new Error("Read-only file system (os error 30)"), { code: "EROFS" });
 * assert.equal(isDeviceError(ro), true);
 * assert.equal(isDeviceError(new RangeError("a bug")), false);
 * ```
 */
export function isDeviceError(error: unknown): boolean {
  if (isFileCondition(error)) return false;
  if (error instanceof Deno.errors.TimedOut) return true;
  return osCode(error) !== null;
}

/**
 * Name the file a device error happened on: a message that starts with
 * `what` (for example `Cannot append to ledger l.jsonl`) and goes on with
 * the system's error, keeping its code and the error as the cause. Any
 * other error is returned as it is.
 *
 * @param error Anything thrown.
 * @param what What was attempted, naming the path.
 * @returns The error to throw.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDeviceError, onPath } from "./io_error.ts";
 *
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * const e = onPath(full, "Cannot write out.json");
 * assert.equal(e.message, "Cannot write out.json: No space left on device (os error 28)");
 * assert.ok(isDeviceError(e));
 * ```
 */
export function onPath(error: unknown, what: string): Error {
  if (!isDeviceError(error)) {
    return error instanceof Error ? error : new Error(String(error));
  }
  const message = error instanceof Error ? error.message : String(error);
  return Object.assign(
    new Error(`${what}: ${message.split("\n")[0]}`, { cause: error }),
    { code: osCode(error) ?? "ETIMEDOUT" },
  );
}

// what the system's message says was being done, as a verb
const OS_VERBS: Readonly<Record<string, string>> = {
  open: "open",
  writefile: "write",
  readfile: "read",
  mkdir: "create the folder",
  rename: "rename to",
  remove: "remove",
  copy: "copy to",
  stat: "read",
  lstat: "read",
  realpath: "read",
  truncate: "truncate",
};

/**
 * One line for a system error that names its path: Deno's
 * `<error> (os error N): <op> '<path>'` as `Cannot <verb> <path>: <error>
 * (os error N)`; any other message as it is.
 *
 * @param message The first line of the error's message.
 * @returns The line to print.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { osErrorLine } from "./io_error.ts";
 *
 * assert.equal(
 *   osErrorLine("No space left on device (os error 28): writefile '/mnt/out.json'"),
 *   "Cannot write /mnt/out.json: No space left on device (os error 28)",
 * );
 * assert.equal(osErrorLine("Cannot append to ledger l.jsonl: I/O error"), "Cannot append to ledger l.jsonl: I/O error");
 * ```
 */
export function osErrorLine(message: string): string {
  const m = /^(.+? \(os error \d+\)):? (\w+) '(.*?)'(?: -> '(.*?)')?$/.exec(
    message,
  );
  if (m === null) return message;
  const [, what, op, from, to] = m;
  return `Cannot ${OS_VERBS[op] ?? op} ${to ?? from}: ${what}`;
}
