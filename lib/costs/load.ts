/**
 * Reading cost profiles and the cost registry from JSON or YAML, with errors
 * that name the file, the entry and the field; and the shipped data.
 *
 * @module
 */

import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { describeIssue } from "../_zod_issue.ts";
import { type CostProfile, type CostSource, defineProfile } from "./profile.ts";
import type { CostAnchor, CostRegistry } from "./registry.ts";
import { SEVERITIES } from "./severity.ts";
import {
  type ProfileFile,
  profileFileSchema,
  registryFileSchema,
  SEVERITY_LIST,
} from "./_schema.ts";
import flatJson from "../../data/profiles/flat.json" with { type: "json" };
import reconciliationJson from "../../data/profiles/reconciliation.json" with {
  type: "json",
};
import reviewHeavyJson from "../../data/profiles/review_heavy.json" with {
  type: "json",
};
import principalRiskJson from "../../data/profiles/principal_risk.json" with {
  type: "json",
};
import registryJson from "../../data/registry.json" with { type: "json" };
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
} from "../input_error.ts";
import { isInputError } from "../input_error.ts";
import { readUtf8File, stripBom } from "../runs/_utf8.ts";
import { parseJsonNoDuplicates } from "../_json_keys.ts";

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

function slot(
  value: ProfileFile["reviewCost"],
): { value: number; note?: string } {
  return typeof value === "number" ? { value } : value;
}

function entryName(input: unknown): string {
  const id = (input as { id?: unknown } | null)?.id;
  return typeof id === "string"
    ? `entry ${JSON.stringify(id)}`
    : "entry (no id)";
}

function profileFromObject(input: unknown, path: string): CostProfile {
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
  const f = parsed.data;
  const known = new Set(f.sources.map((s) => s.id));
  const notes: Record<string, string> = {};
  for (const key of [...SEVERITIES, "reviewCost", "judgeCost"] as const) {
    const raw = key === "reviewCost" || key === "judgeCost" ? f[key] : f.K[key];
    if (raw === undefined || typeof raw === "number") continue;
    for (const ref of raw.sources ?? []) {
      if (!known.has(ref)) {
        throw new InputRangeError(
          `${where}: entry ${JSON.stringify(f.id)}: ${
            key === "reviewCost" || key === "judgeCost" ? key : `K.${key}`
          }.sources names unknown source ${JSON.stringify(ref)}`,
        );
      }
    }
    notes[key] = raw.note;
  }
  const dup = firstDuplicate(f.sources.map((s) => s.id));
  if (dup !== null) {
    throw new InputRangeError(
      `${where}: entry ${JSON.stringify(f.id)}: sources has duplicate id ${
        JSON.stringify(dup)
      }`,
    );
  }
  return defineProfile({
    id: f.id,
    version: f.version,
    ...(f.description === undefined ? {} : { description: f.description }),
    ...(f.currency == null ? {} : { currency: f.currency }),
    ...(f.unit === undefined ? {} : { unit: f.unit }),
    K: {
      LOW: slot(f.K.LOW).value,
      MEDIUM: slot(f.K.MEDIUM).value,
      HIGH: slot(f.K.HIGH).value,
      CRITICAL: slot(f.K.CRITICAL).value,
    },
    reviewCost: slot(f.reviewCost).value,
    judgeCost: f.judgeCost === undefined ? 0 : slot(f.judgeCost).value,
    notes,
    sources: f.sources as CostSource[],
  });
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

function firstDuplicate(ids: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return null;
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

function registryFromObject(input: unknown, path: string): CostRegistry {
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
  const f = parsed.data;
  const seen = new Set<string>();
  const anchors: CostAnchor[] = [];
  for (const e of f.entries) {
    const at = `${where}: entry ${JSON.stringify(e.id)}`;
    if (seen.has(e.id)) throw new InputRangeError(`${at}: id is a duplicate`);
    seen.add(e.id);
    if (e.low > e.typical) {
      throw new InputRangeError(
        `${at}: low must be <= typical, got low ${e.low} > typical ${e.typical}`,
      );
    }
    if (e.typical > e.high) {
      throw new InputRangeError(
        `${at}: typical must be <= high, got typical ${e.typical} > high ${e.high}`,
      );
    }
    const sources = e.sources.map((id) => {
      const s = f.sources[id];
      if (s === undefined) {
        throw new InputRangeError(
          `${at}: sources names unknown source ${JSON.stringify(id)}`,
        );
      }
      return Object.freeze({ id, ...s });
    });
    anchors.push(Object.freeze({ ...e, sources: Object.freeze(sources) }));
  }
  return Object.freeze({
    version: f.version,
    ...(f.description === undefined ? {} : { description: f.description }),
    anchors: Object.freeze(anchors),
  });
}

/**
 * Read a cost profile file (`.json`, `.yaml` or `.yml`).
 *
 * @param path Path of the file.
 * @returns The validated profile.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | RangeError | TypeError} As {@linkcode parseProfile}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadProfileFile } from "./load.ts";
 *
 * const p = await loadProfileFile(
 *   new URL("../../data/profiles/reconciliation.json", import.meta.url).pathname,
 * );
 * assert.equal(p.K.HIGH, 10);
 * ```
 */
export async function loadProfileFile(
  path: string,
  options: Omit<ParseProfileOptions, "path"> = {},
): Promise<CostProfile> {
  return parseProfile(
    await readUtf8File(path, `Cannot load cost profile ${path}`),
    { ...options, path },
  );
}

/**
 * Read a cost registry file (`.json`, `.yaml` or `.yml`).
 *
 * @param path Path of the file.
 * @returns The validated registry.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | RangeError | TypeError} As {@linkcode parseRegistry}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRegistryFile } from "./load.ts";
 *
 * const r = await loadRegistryFile(
 *   new URL("../../data/registry.json", import.meta.url).pathname,
 * );
 * assert.equal(r.anchors.length, 10);
 * ```
 */
export async function loadRegistryFile(path: string): Promise<CostRegistry> {
  return parseRegistry(
    await readUtf8File(path, `Cannot load cost registry ${path}`),
    { path },
  );
}

/**
 * Combine profiles into one list, refusing two profiles with the same id.
 *
 * @param profiles Profiles in the order they should be reported.
 * @returns The same profiles, frozen.
 * @throws {RangeError} When two profiles share an id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { combineProfiles, SHIPPED_PROFILES } from "./mod.ts";
 *
 * assert.throws(() => combineProfiles([...SHIPPED_PROFILES, SHIPPED_PROFILES[0]]), /duplicate/);
 * ```
 */
export function combineProfiles(
  profiles: readonly CostProfile[],
): readonly CostProfile[] {
  const dup = firstDuplicate(profiles.map((p) => p.id));
  if (dup !== null) {
    throw new InputRangeError(
      `Cannot combine cost profiles: duplicate id ${JSON.stringify(dup)}`,
    );
  }
  return Object.freeze([...profiles]);
}

/**
 * Find a profile by id.
 *
 * @param id Profile id.
 * @param profiles Where to look. Default: {@linkcode SHIPPED_PROFILES}.
 * @returns The profile.
 * @throws {RangeError} When no profile has that id; the message lists the ids.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "./load.ts";
 *
 * assert.equal(getProfile("principal_risk").K.CRITICAL, 100_000);
 * assert.throws(() => getProfile("nope"), /flat, reconciliation, review_heavy, principal_risk/);
 * ```
 */
export function getProfile(
  id: string,
  profiles: readonly CostProfile[] = SHIPPED_PROFILES,
): CostProfile {
  const found = profiles.find((p) => p.id === id);
  if (found === undefined) {
    throw new InputRangeError(
      `Unknown cost profile ${JSON.stringify(id)}: known profiles are ${
        profiles.map((p) => p.id).join(", ")
      }`,
    );
  }
  return found;
}

/**
 * The four shipped profiles of `third-number`, in order of span: `flat` (1x),
 * `reconciliation` (250x), `review_heavy` (250x, review 25) and
 * `principal_risk` (100,000x). Read from `data/profiles/*.json` and validated
 * when this module loads.
 */
export const SHIPPED_PROFILES: readonly CostProfile[] = combineProfiles([
  profileFromObject(flatJson, "data/profiles/flat.json"),
  profileFromObject(reconciliationJson, "data/profiles/reconciliation.json"),
  profileFromObject(reviewHeavyJson, "data/profiles/review_heavy.json"),
  profileFromObject(principalRiskJson, "data/profiles/principal_risk.json"),
]);

/** The shipped cost registry of ten sourced anchors, from `data/registry.json`. */
export const SHIPPED_REGISTRY: CostRegistry = registryFromObject(
  registryJson,
  "data/registry.json",
);
