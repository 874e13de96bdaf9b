/**
 * Cost profiles: what an error costs at each severity, and what a review costs.
 *
 * @module
 */

import { isSeverity, SEVERITIES, type Severity } from "./severity.ts";
import { InputRangeError, InputTypeError } from "../input_error.ts";

/** Where a cost figure comes from. */
export interface CostSource {
  /** Short stable id, unique within the file that declares it. */
  readonly id: string;
  /** Title of the publication, dataset or internal document. */
  readonly title: string;
  /** Link to it, when public. */
  readonly url?: string;
  /** When it was read, as an ISO date or year-month. */
  readonly accessed?: string;
  /** What the source says that bears on the figure. */
  readonly note?: string;
}

/** The cost slots of a profile that can carry a sourcing note. */
export type CostSlot = Severity | "reviewCost" | "judgeCost";

/**
 * A cost profile: K(severity) for an automatic decision that turns out wrong,
 * plus the cost of sending a decision to human review or to a judge.
 *
 * All costs are in one unit (`unit`, and `currency` when the unit is money).
 */
export interface CostProfile {
  /** Profile id, used on the command line and in reports. */
  readonly id: string;
  /** Version of the cost figures; bump it whenever a number changes. */
  readonly version: string;
  /** One or two sentences on the setting this profile models. */
  readonly description?: string;
  /** Cost of one wrong automatic decision at each severity. */
  readonly K: Readonly<Record<Severity, number>>;
  /** Cost of escalating one decision to human review. */
  readonly reviewCost: number;
  /** Cost of one call to an automated judge. */
  readonly judgeCost: number;
  /** ISO 4217 code when costs are money, for example `"USD"`. */
  readonly currency?: string;
  /** Unit of every cost figure, for example `"analyst review units"`. */
  readonly unit?: string;
  /** Where each figure comes from, keyed by slot. */
  readonly notes?: Readonly<Partial<Record<CostSlot, string>>>;
  /** The sources the notes refer to. */
  readonly sources: readonly CostSource[];
}

/** What `defineProfile` accepts: a profile whose optional parts may be left out. */
export interface ProfileSpec {
  /** Profile id. */
  id: string;
  /** Cost of a wrong automatic decision per severity; all four are required. */
  K: Readonly<Record<Severity, number>>;
  /** Cost of one human review. */
  reviewCost: number;
  /** Cost of one judge call. Default: 0. */
  judgeCost?: number;
  /** Version of the figures. Default: `"user"`. */
  version?: string;
  /** Description of the setting. */
  description?: string;
  /** Currency code, when the unit is money. */
  currency?: string;
  /** Unit of the figures. */
  unit?: string;
  /** Sourcing note per slot. */
  notes?: Partial<Record<CostSlot, string>>;
  /** Sources. Default: none. */
  sources?: readonly CostSource[];
}

function checkCost(id: string, slot: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new InputRangeError(
      `Cannot define cost profile "${id}": ${slot} must be a finite number >= 0, got ${
        typeof value === "number" ? String(value) : JSON.stringify(value)
      }`,
    );
  }
  return value;
}

/**
 * Build a validated, frozen cost profile in code.
 *
 * This is how a researcher states their own costs without writing a file:
 * every K and the review cost must be finite and non-negative, all four
 * severities must be present and no other key may appear in `K`. Profiles
 * loaded from files go through the same checks.
 *
 * @param spec The costs; see {@linkcode ProfileSpec} for defaults.
 * @returns A frozen {@linkcode CostProfile}.
 * @throws {RangeError} When a cost is negative, not finite or not a number.
 * @throws {TypeError} When the id is empty, a severity is missing from `K`,
 * or `K` has a key that is not a severity.
 *
 * @example A profile where HIGH errors cost 40 times LOW ones
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineProfile } from "./profile.ts";
 *
 * const mine = defineProfile({
 *   id: "my_desk",
 *   K: { LOW: 5, MEDIUM: 20, HIGH: 200, CRITICAL: 5000 },
 *   reviewCost: 12,
 * });
 * assert.equal(mine.K.HIGH / mine.K.LOW, 40);
 * assert.equal(mine.judgeCost, 0);
 * assert.throws(
 *   () => defineProfile({ id: "bad", K: { ...mine.K, LOW: -1 }, reviewCost: 1 }),
 *   RangeError,
 * );
 * ```
 */
export function defineProfile(spec: ProfileSpec): CostProfile {
  const id = spec.id;
  if (typeof id !== "string" || id.trim() === "") {
    throw new InputTypeError(
      `Cannot define cost profile: id must be a non-empty string, got ${
        JSON.stringify(id)
      }`,
    );
  }
  if (spec.K === null || typeof spec.K !== "object") {
    throw new InputTypeError(
      `Cannot define cost profile "${id}": K must be an object with LOW, MEDIUM, HIGH and CRITICAL`,
    );
  }
  for (const key of Object.keys(spec.K)) {
    if (!isSeverity(key)) {
      throw new InputTypeError(
        `Cannot define cost profile "${id}": K has unknown severity ${
          JSON.stringify(key)
        }; expected ${SEVERITIES.join(", ")}`,
      );
    }
  }
  const K = {} as Record<Severity, number>;
  for (const s of SEVERITIES) {
    if (!(s in spec.K)) {
      throw new InputTypeError(
        `Cannot define cost profile "${id}": K.${s} is missing`,
      );
    }
    K[s] = checkCost(id, `K.${s}`, spec.K[s]);
  }
  const profile: CostProfile = {
    id,
    version: spec.version ?? "user",
    ...(spec.description === undefined
      ? {}
      : { description: spec.description }),
    K: Object.freeze(K),
    reviewCost: checkCost(id, "reviewCost", spec.reviewCost),
    judgeCost: checkCost(id, "judgeCost", spec.judgeCost ?? 0),
    ...(spec.currency === undefined ? {} : { currency: spec.currency }),
    ...(spec.unit === undefined ? {} : { unit: spec.unit }),
    ...(spec.notes === undefined
      ? {}
      : { notes: Object.freeze({ ...spec.notes }) }),
    sources: Object.freeze([...(spec.sources ?? [])]),
  };
  return Object.freeze(profile);
}

/**
 * The cost span of a profile: K(CRITICAL) divided by K(LOW).
 *
 * The span is the single number that says how far a profile is from the flat
 * case; `third-number` lists 1x for `flat`, 250x for `reconciliation` and
 * `review_heavy` and 100,000x for `principal_risk`.
 *
 * @param profile A cost profile.
 * @returns The ratio, or `null` when K(LOW) is 0 and the ratio is undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineProfile, profileSpan } from "./profile.ts";
 *
 * const p = defineProfile({
 *   id: "p",
 *   K: { LOW: 0.2, MEDIUM: 1, HIGH: 10, CRITICAL: 50 },
 *   reviewCost: 1,
 * });
 * assert.ok(Math.abs(profileSpan(p)! - 250) < 1e-9);
 * ```
 */
export function profileSpan(profile: CostProfile): number | null {
  return profile.K.LOW === 0 ? null : profile.K.CRITICAL / profile.K.LOW;
}

/**
 * Tell whether a profile charges every severity the same K.
 *
 * Under a flat profile the flat-cost theorem applies: ranking models by loss
 * is ranking them by accuracy (`third-number`, flat-cost theorem).
 *
 * @param profile A cost profile.
 * @returns `true` when all four K values are equal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineProfile, isFlatProfile } from "./profile.ts";
 *
 * const flat = defineProfile({
 *   id: "f",
 *   K: { LOW: 3, MEDIUM: 3, HIGH: 3, CRITICAL: 3 },
 *   reviewCost: 1,
 * });
 * assert.equal(isFlatProfile(flat), true);
 * ```
 */
export function isFlatProfile(profile: CostProfile): boolean {
  return SEVERITIES.every((s) => profile.K[s] === profile.K.LOW);
}
