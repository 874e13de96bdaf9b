// Private to lib/costs: a profile or registry file that has passed the
// schema (_schema.ts), built into a profile or a registry. The checks the
// schema cannot make (a source that is named but not listed, a repeated id,
// low > typical > high) are made here. This module does not load zod: the
// shipped profiles and registry are built through it when lossbook starts,
// and a test checks that validating them first gives the same values.
import type { ProfileFile, RegistryFile } from "./_schema.ts";
import { type CostProfile, type CostSource, defineProfile } from "./profile.ts";
import type { CostAnchor, CostRegistry } from "./registry.ts";
import { SEVERITIES } from "./severity.ts";
import { InputRangeError } from "../input_error.ts";

function slot(
  value: ProfileFile["reviewCost"],
): { value: number; note?: string } {
  return typeof value === "number" ? { value } : value;
}

/**
 * The first id that occurs twice, or `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstDuplicate } from "./_build.ts";
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
 * Build a profile from a file that has passed `profileFileSchema`.
 *
 * @param f The validated file.
 * @param where Error prefix naming the file.
 * @returns The profile.
 * @throws {RangeError} For a dangling source reference or a repeated source id.
 */
export function profileFromFile(f: ProfileFile, where: string): CostProfile {
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
    // copies: the file's objects stay the file's (an imported JSON module)
    sources: f.sources.map((x) => ({ ...x })) as CostSource[],
  });
}

/**
 * Build a registry from a file that has passed `registryFileSchema`.
 *
 * @param f The validated file.
 * @param where Error prefix naming the file.
 * @returns The registry, frozen.
 * @throws {RangeError} For a repeated id, an unordered range or a dangling source.
 */
export function registryFromFile(f: RegistryFile, where: string): CostRegistry {
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
      // an own key only: "constructor" names no source
      const s = Object.hasOwn(f.sources, id) ? f.sources[id] : undefined;
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
