/**
 * Parsing cost profiles and the cost registry from JSON or YAML text, with
 * errors that name the file, the entry and the field; and the shipped data
 * (from shipped.ts, re-exported here). Reading them from files is
 * lib/read/cost_files.ts.
 *
 * @module
 */

import { parse as parseYaml } from "yaml";
import type { CostProfile } from "./profile.ts";
import type { CostRegistry } from "./registry.ts";
import { profileFileSchema } from "./_schema.ts";
import { profileFromObject, registryFromObject } from "./_from_object.ts";
import { InputSyntaxError } from "../input_error.ts";
import { isInputError } from "../input_error.ts";
import { stripBom } from "../_bom.ts";
import { parseJsonNoDuplicates } from "../_json.ts";

export {
  combineProfiles,
  getProfile,
  SHIPPED_PROFILES,
  SHIPPED_REGISTRY,
} from "./shipped.ts";

/** Options naming where parsed text came from, for error messages. */
export interface ParseSourceOptions {
  /**
   * File path shown in errors. Its extension also picks the syntax: `.json`
   * is parsed as strict JSON, anything else as YAML (a superset of JSON).
   * Default: `"<inline>"`, parsed as YAML.
   */
  path?: string;
}

/** Options for {@linkcode parseProfile} and {@linkcode loadProfileFile}. */
export interface ParseProfileOptions extends ParseSourceOptions {
  /**
   * Skip keys the profile format does not define instead of refusing them,
   * reporting each through `onUnknownKeys`. Unknown severities in `K` are
   * refused all the same. Default: `false`.
   */
  lenient?: boolean;
  /** Receives one line per skipped key in lenient mode. */
  onUnknownKeys?: (line: string) => void;
}

// Lenient mode: remove the keys zod reports as unrecognised, one report per
// key, until none is left (unknown severities in K stay, to be refused).
function withoutUnknownKeys(
  input: unknown,
  where: string,
  options: ParseProfileOptions,
): unknown {
  if (input === null || typeof input !== "object") return input;
  const copy = structuredClone(input) as Record<PropertyKey, unknown>;
  for (let round = 0; round < 1000; round++) {
    const r = profileFileSchema.safeParse(copy);
    if (r.success) break;
    const issue = r.error.issues.find((i) =>
      i.code === "unrecognized_keys" &&
      !(i.path.length === 1 && i.path[0] === "K")
    );
    if (issue === undefined || issue.code !== "unrecognized_keys") break;
    let o = copy;
    for (const k of issue.path) o = o[k] as Record<PropertyKey, unknown>;
    for (const k of issue.keys) {
      delete o[k];
      options.onUnknownKeys?.(
        `${where}: skipped unknown key ${
          [...issue.path.map(String), k].join(".")
        }`,
      );
    }
  }
  return copy;
}

function parseText(text: string, what: string, path: string): unknown {
  try {
    text = stripBom(text);
    return path.toLowerCase().endsWith(".json")
      ? parseJsonNoDuplicates(text, () => `Cannot load ${what} ${path}`)
      : parseYaml(text, { prettyErrors: true });
  } catch (error) {
    if (isInputError(error)) throw error; // a repeated key, already named
    const detail = error instanceof Error
      ? error.message.split("\n")[0]
      : String(error);
    throw new InputSyntaxError(`Cannot load ${what} ${path}: ${detail}`, {
      cause: error,
    });
  }
}

/**
 * Parse one cost profile from JSON or YAML text.
 *
 * A profile file holds `id`, `version`, the four K values, `reviewCost`,
 * optional `judgeCost`, `currency`, `unit`, `description` and `sources`. Each
 * cost is a number or `{ value, note, sources }`; the shipped profiles use the
 * second form so every figure says where it comes from.
 *
 * @param text The file's text.
 * @param options Where the text came from, and whether unknown keys are skipped (lenient).
 * @returns The validated profile.
 * @throws {SyntaxError} When the text is not valid JSON or YAML.
 * @throws {RangeError} When a cost is negative, a severity is unknown or a
 * source reference dangles; the message names file, entry and field.
 * @throws {TypeError} When a field is missing or has the wrong type.
 *
 * @example A user profile in YAML
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseProfile } from "./load.ts";
 *
 * const yaml = [
 *   "id: my_desk",
 *   "version: '2026-11'",
 *   "K: { LOW: 2, MEDIUM: 8, HIGH: 400, CRITICAL: 9000 }",
 *   "reviewCost: 15",
 * ].join("\n");
 * assert.equal(parseProfile(yaml, { path: "my_desk.yaml" }).K.HIGH, 400);
 * assert.throws(
 *   () => parseProfile(yaml.replace("HIGH: 400", "HIGH: -4"), { path: "my_desk.yaml" }),
 *   /my_desk\.yaml: entry "my_desk": K\.HIGH/,
 * );
 * ```
 */
export function parseProfile(
  text: string,
  options: ParseProfileOptions = {},
): CostProfile {
  const path = options.path ?? "<inline>";
  const input = parseText(text, "cost profile", path);
  return profileFromObject(
    options.lenient
      ? withoutUnknownKeys(input, `Cannot load cost profile ${path}`, options)
      : input,
    path,
  );
}

/**
 * Parse a cost registry from JSON or YAML text.
 *
 * The registry holds a `sources` map and a list of `entries`, each with `id`,
 * `domain`, `low`, `typical`, `high`, `unit`, `sources`, `confidence` and
 * `note`. Ids must be unique, figures non-negative with
 * `low <= typical <= high`, and every source reference must resolve.
 *
 * @param text The file's text.
 * @param options Where the text came from.
 * @returns The validated registry, with sources resolved on each anchor.
 * @throws {SyntaxError} When the text is not valid JSON or YAML.
 * @throws {RangeError} On a negative figure, `low > typical`, `typical >
 * high`, a duplicate id or an unknown source; the message names file, entry
 * and field.
 * @throws {TypeError} When a field is missing or has the wrong type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRegistry } from "./load.ts";
 *
 * const text = JSON.stringify({
 *   version: "t",
 *   sources: { s: { title: "A study" } },
 *   entries: [{
 *     id: "x", domain: "payments", low: 10, typical: 5, high: 20,
 *     unit: "USD", sources: ["s"], confidence: "low", note: "n",
 *   }],
 * });
 * assert.throws(
 *   () => parseRegistry(text, { path: "r.json" }),
 *   /r\.json: entry "x": low must be <= typical, got low 10 > typical 5/,
 * );
 * ```
 */
export function parseRegistry(
  text: string,
  options: ParseSourceOptions = {},
): CostRegistry {
  const path = options.path ?? "<inline>";
  return registryFromObject(parseText(text, "cost registry", path), path);
}
