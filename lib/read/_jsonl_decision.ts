// Private: one JSONL line to one Decision, with every check the line
// loaders make: JSON syntax, a JSON object, no repeated key (JSON.parse
// would keep the last one silently), the Decision schema. Errors name the
// line and the field.

import { describeIssue } from "../_zod_issue.ts";
import { type Decision, decisionSchema } from "../decision/decision.ts";
import { fastDecision } from "../decision/_fast_decision.ts";
import { refuseDuplicateKeys } from "../_json.ts";
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
} from "../input_error.ts";

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
    throw new InputSyntaxError(`${where}: invalid JSON: ${detail}`, {
      cause: error,
    });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InputSyntaxError(
      `${where}: expected a JSON object, got ${
        Array.isArray(value) ? "an array" : JSON.stringify(value)
      }`,
    );
  }
  refuseDuplicateKeys(line, value, () => where);
  return decisionFromValue(value, where);
}

/**
 * Check one value (a parsed line, or a decision held in memory) as a
 * Decision.
 *
 * @param value The value.
 * @param where Error prefix naming where it came from.
 * @throws {SyntaxError} When it is not an object.
 * @throws {TypeError | RangeError} As the Decision schema.
 */
export function decisionFromValue(value: unknown, where: string): Decision {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InputSyntaxError(
      `${where}: expected an object, got ${
        Array.isArray(value) ? "an array" : JSON.stringify(value)
      }`,
    );
  }
  const d = fastDecision(value);
  if (d !== null) return d;
  const parsed = decisionSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = `${where}: ${describeIssue(issue, value)}`;
    throw issue.code === "invalid_type" || issue.code === "unrecognized_keys"
      ? new InputTypeError(message, { cause: parsed.error })
      : new InputRangeError(message, { cause: parsed.error });
  }
  return parsed.data as unknown as Decision;
}
