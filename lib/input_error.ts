/**
 * Input errors: what lossbook raises when the user's input (a file, a flag,
 * a value read at the edge) is wrong, as opposed to a fault in lossbook.
 *
 * Each class subclasses the built-in error of its meaning, so a library
 * caller that catches `TypeError`, `RangeError` or `SyntaxError` still
 * catches it; {@linkcode isInputError} tells them apart from the same
 * built-in raised by a bug. The command line maps input errors to exit 2 and
 * anything else to exit 70 ("this is a bug in lossbook").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InputRangeError, isInputError } from "./input_error.ts";
 *
 * const e = new InputRangeError("Cannot load run.jsonl: line 3: pCorrect must be in [0, 1], got 1.3");
 * assert.ok(e instanceof RangeError && isInputError(e));
 * assert.equal(isInputError(new RangeError("a bug")), false);
 * ```
 *
 * @module
 */

const INPUT = Symbol.for("lossbook.inputError");

/** A value of the wrong shape in the user's input (a `TypeError`). */
export class InputTypeError extends TypeError {
  /**
   * Build the error.
   *
   * @param message The message, naming file, line and field.
   * @param options The cause.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "TypeError";
  }
  /** Brand read by {@linkcode isInputError}. */
  get [INPUT](): true {
    return true;
  }
}

/** A value out of range in the user's input (a `RangeError`). */
export class InputRangeError extends RangeError {
  /**
   * Build the error.
   *
   * @param message The message, naming file, line and field.
   * @param options The cause.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "RangeError";
  }
  /** Brand read by {@linkcode isInputError}. */
  get [INPUT](): true {
    return true;
  }
}

/** Unparseable text in the user's input (a `SyntaxError`). */
export class InputSyntaxError extends SyntaxError {
  /**
   * Build the error.
   *
   * @param message The message, naming file, line and field.
   * @param options The cause.
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "SyntaxError";
  }
  /** Brand read by {@linkcode isInputError}. */
  get [INPUT](): true {
    return true;
  }
}

/**
 * Whether an error is about the user's input rather than a fault in lossbook.
 *
 * @param error Anything thrown.
 * @returns `true` for {@linkcode InputTypeError}, {@linkcode InputRangeError}
 * and {@linkcode InputSyntaxError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InputTypeError, isInputError } from "./input_error.ts";
 *
 * assert.equal(isInputError(new InputTypeError("Cannot load x.jsonl: line 1: trial must be a number")), true);
 * assert.equal(isInputError(new TypeError("undefined is not a function")), false);
 * ```
 */
export function isInputError(error: unknown): boolean {
  return typeof error === "object" && error !== null &&
    (error as Record<symbol, unknown>)[INPUT] === true;
}
