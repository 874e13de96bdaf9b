// Private to lib/costs: a parsed cost profile or registry (plain JSON-like
// values) validated into a profile or a registry, with errors that name the
// file, the entry and the field. Text parsing (JSON or YAML) is load.ts's;
// building the validated file into a profile is _build.ts's.
import type { z } from "zod";
import { describeIssue } from "../_zod_issue.ts";
import type { CostProfile } from "./profile.ts";
import type { CostRegistry } from "./registry.ts";
import { SEVERITIES } from "./severity.ts";
import {
  profileFileSchema,
  registryFileSchema,
  SEVERITY_LIST,
} from "./_schema.ts";
import { profileFromFile, registryFromFile } from "./_build.ts";
import { InputRangeError, InputTypeError } from "../input_error.ts";

function entryName(input: unknown): string {
  const id = (input as { id?: unknown } | null)?.id;
  return typeof id === "string"
    ? `entry ${JSON.stringify(id)}`
    : "entry (no id)";
}

/**
 * Validate a parsed profile; errors name `path`, the entry and the field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { profileFromObject } from "./_from_object.ts";
 *
 * const p = { id: "p", version: "1", K: { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 }, reviewCost: 1 };
 * assert.equal(profileFromObject(p, "p.json").K.CRITICAL, 4);
 * assert.throws(() => profileFromObject({ ...p, reviewCost: -1 }, "p.json"), /p\.json: entry "p": reviewCost/);
 * ```
 */
export function profileFromObject(input: unknown, path: string): CostProfile {
  const where = `Cannot load cost profile ${path}`;
  if (input !== null && typeof input === "object" && "K" in input) {
    const K = (input as { K: unknown }).K;
    if (K !== null && typeof K === "object") {
      const unknown = Object.keys(K).filter((k) =>
        !(SEVERITIES as readonly string[]).includes(k)
      );
      if (unknown.length > 0) {
        throw new InputRangeError(
          `${where}: ${entryName(input)}: K has unknown severity ${
            JSON.stringify(unknown[0])
          }; expected ${SEVERITY_LIST}`,
        );
      }
    }
  }
  const parsed = profileFileSchema.safeParse(input);
  if (!parsed.success) {
    throw failure(
      where,
      entryName(input),
      parsed.error.issues[0],
      input,
      parsed.error,
    );
  }
  return profileFromFile(parsed.data, where);
}

function failure(
  where: string,
  entry: string,
  issue: z.core.$ZodIssue,
  input: unknown,
  cause: z.ZodError,
): Error {
  const message = `${where}: ${entry}: ${describeIssue(issue, input)}`;
  const isRange = issue.code === "too_small" || issue.code === "too_big" ||
    issue.code === "custom" || issue.code === "invalid_value";
  return isRange
    ? new InputRangeError(message, { cause })
    : new InputTypeError(message, { cause });
}

/**
 * Validate a parsed registry; errors name `path`, the entry and the field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { registryFromObject } from "./_from_object.ts";
 *
 * assert.equal(registryFromObject({ version: "t", sources: {}, entries: [] }, "r.json").anchors.length, 0);
 * assert.throws(() => registryFromObject({ version: "t" }, "r.json"), /r\.json: registry/);
 * ```
 */
export function registryFromObject(input: unknown, path: string): CostRegistry {
  const where = `Cannot load cost registry ${path}`;
  const parsed = registryFileSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const [top, index] = issue.path;
    const entries = (input as { entries?: unknown[] } | null)?.entries;
    if (
      top === "entries" && typeof index === "number" && Array.isArray(entries)
    ) {
      const sub = { ...issue, path: issue.path.slice(2) } as typeof issue;
      throw failure(
        where,
        entryName(entries[index]),
        sub,
        entries[index],
        parsed.error,
      );
    }
    throw failure(where, "registry", issue, input, parsed.error);
  }
  return registryFromFile(parsed.data, where);
}
