/**
 * The shipped cost profiles and cost registry (`data/profiles/*.json`,
 * `data/registry.json`), validated when this module loads, and finding a
 * profile by id. Reading profiles from text or files is load.ts's; this
 * module needs no YAML parser, so commands that use only the shipped
 * profiles do not load one.
 *
 * @module
 */

import type { CostProfile } from "./profile.ts";
import type { CostRegistry } from "./registry.ts";
import type { ProfileFile, RegistryFile } from "./_schema.ts";
import { firstDuplicate, profileFromFile, registryFromFile } from "./_build.ts";
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
import { InputRangeError } from "../input_error.ts";

// A shipped profile file, built without running the schema at every start
// (zod would load with it): the tests validate every shipped file through
// the schema and compare, so a file the schema refuses fails them.
function shipped(json: unknown, path: string): CostProfile {
  return profileFromFile(
    json as ProfileFile,
    `Cannot load cost profile ${path}`,
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
 * import { getProfile } from "./shipped.ts";
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
  shipped(flatJson, "data/profiles/flat.json"),
  shipped(reconciliationJson, "data/profiles/reconciliation.json"),
  shipped(reviewHeavyJson, "data/profiles/review_heavy.json"),
  shipped(principalRiskJson, "data/profiles/principal_risk.json"),
]);

/** The shipped cost registry of ten sourced anchors, from `data/registry.json`. */
export const SHIPPED_REGISTRY: CostRegistry = registryFromFile(
  registryJson as RegistryFile,
  "Cannot load cost registry data/registry.json",
);
