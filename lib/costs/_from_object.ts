// Private to lib/costs: a parsed cost profile or registry (plain JSON-like
// values) validated into a profile or a registry, with errors that name the
// file, the entry and the field. Text parsing (JSON or YAML) is load.ts's.
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
import { InputRangeError, InputTypeError } from "../input_error.ts";

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

/**
 * The first id that occurs twice, or `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstDuplicate } from "./_from_object.ts";
 *
 * assert.equal(firstDuplicate(["a", "b", "a"]), "a");
 * assert.equal(firstDuplicate(["a", "b"]), null);
 * ```
 */
export function firstDuplicate(ids: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return null;
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
