// Private: one JSONL line to one Decision, with every check the line
// loaders make: JSON syntax, a JSON object, no repeated key (JSON.parse
// would keep the last one silently), the Decision schema. Errors name the
// line and the field.

import { describeIssue } from "../_zod_issue.ts";
import { type Decision, decisionSchema } from "./decision.ts";
import { fastDecision } from "./_fast_decision.ts";
import { parseJsonStrict } from "./_json_strict.ts";

/**
 * The number of object keys in a JSON text, at every depth: each string
 * followed (after white space) by `:`. Valid JSON only.
 */
export function countJsonKeys(text: string): number {
  let keys = 0;
  let i = text.indexOf('"');
  const len = text.length;
  while (i >= 0) {
    // find the closing quote of the string that opens at i
    let j = text.indexOf('"', i + 1);
    while (j > 0) {
      let backslashes = 0;
      for (let k = j - 1; text.charCodeAt(k) === 92; k--) backslashes++;
      if (backslashes % 2 === 0) break;
      j = text.indexOf('"', j + 1);
    }
    if (j < 0) return keys;
    let k = j + 1;
    let c = text.charCodeAt(k);
    while (c === 32 || c === 9 || c === 10 || c === 13) {
      c = text.charCodeAt(++k);
    }
    if (c === 58) keys++;
    i = k < len ? text.indexOf('"', k) : -1;
  }
  return keys;
}

function keysIn(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  if (Array.isArray(value)) return value.reduce((s, v) => s + keysIn(v), 0);
  let n = 0;
  for (const v of Object.values(value)) n += 1 + keysIn(v);
  return n;
}

const SPACE_BEFORE_COLON = /"\s+:/;

/** Whether a parsed line has fewer keys than its text: a key repeats. */
function repeatsKey(line: string, value: object): boolean {
  // Fast exact test for the usual line: when no key is followed by white
  // space, every key contributes one '":' to the text (strings may add
  // more), so as many '":' as parsed keys proves that no key repeats.
  const cost = (value as { cost?: unknown }).cost;
  let parsed = Object.keys(value).length;
  if (cost !== null && typeof cost === "object" && !Array.isArray(cost)) {
    parsed += Object.keys(cost).length;
  }
  let colons = 0;
  for (let i = line.indexOf('":'); i >= 0; i = line.indexOf('":', i + 2)) {
    colons++;
  }
  if (colons === parsed && !SPACE_BEFORE_COLON.test(line)) return false;
  return countJsonKeys(line) !== keysIn(value);
}

function repeatedKeyError(line: string, where: string): SyntaxError {
  try {
    parseJsonStrict(line, { file: where });
  } catch (error) {
    const m = /duplicate key \$\.?(\S*)/.exec((error as Error).message);
    if (m !== null) {
      return new SyntaxError(`${where}: duplicate key ${m[1] || "$"}`, {
        cause: error,
      });
    }
  }
  return new SyntaxError(`${where}: a key repeats`);
}

/**
 * Parse and check one non-blank JSONL line as a Decision.
 *
 * @param line The line's text.
 * @param where Error prefix naming file and line.
 * @throws {SyntaxError} On invalid JSON, a non-object, a repeated key.
 * @throws {TypeError | RangeError} As the Decision schema.
 */
export function decisionFromLine(line: string, where: string): Decision {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new SyntaxError(`${where}: invalid JSON: ${detail}`, {
      cause: error,
    });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new SyntaxError(
      `${where}: expected a JSON object, got ${
        Array.isArray(value) ? "an array" : JSON.stringify(value)
      }`,
    );
  }
  if (repeatsKey(line, value)) throw repeatedKeyError(line, where);
  const d = fastDecision(value);
  if (d !== null) return d;
  const parsed = decisionSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = `${where}: ${describeIssue(issue, value)}`;
    throw issue.code === "invalid_type" || issue.code === "unrecognized_keys"
      ? new TypeError(message, { cause: parsed.error })
      : new RangeError(message, { cause: parsed.error });
  }
  return parsed.data as Decision;
}
