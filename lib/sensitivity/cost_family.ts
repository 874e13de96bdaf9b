/**
 * One-parameter cost families: a base profile whose costs at some
 * severities are multiplied by a ratio r.
 *
 * @module
 */

import { getProfile } from "../costs/shipped.ts";
import { type CostProfile, defineProfile } from "../costs/profile.ts";
import { isSeverity, SEVERITIES, type Severity } from "../costs/severity.ts";

/**
 * A cost family K_r: K_r(s) = r × base.K(s) for the scaled severities and
 * base.K(s) for the others; the review and judge costs stay the base's. Loss
 * is linear in r along a family, so two models' loss lines cross at most
 * once.
 */
export interface CostFamily {
  /** The profile at r = 1. */
  readonly base: CostProfile;
  /** The severities whose K is multiplied by r, in ladder order. */
  readonly scaled: readonly Severity[];
}

/** Options for {@linkcode costFamily}. */
export interface CostFamilyOptions {
  /** Severities multiplied by r. Default: `["HIGH", "CRITICAL"]` (LossBench's sweep). */
  scaled?: readonly Severity[];
}

/**
 * Make a cost family from a base profile.
 *
 * The default is LossBench's K-sensitivity family: the `reconciliation`
 * profile with K(HIGH) and K(CRITICAL) multiplied by r. With the `flat` base
 * the family is LOW = MEDIUM = 1, HIGH = CRITICAL = r, whose span
 * K(CRITICAL)/K(LOW) is r itself and whose r = 1 is the flat profile.
 *
 * @param base The profile at r = 1. Default: the shipped `reconciliation`.
 * @param options Which severities are scaled.
 * @returns The family.
 * @throws {RangeError} When `scaled` is empty, repeats a severity or names an unknown one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { costFamily, familyProfile } from "./cost_family.ts";
 *
 * const family = costFamily();
 * assert.deepEqual(familyProfile(family, 10).K, { LOW: 0.2, MEDIUM: 1, HIGH: 100, CRITICAL: 500 });
 * assert.throws(() => costFamily(undefined, { scaled: [] }), RangeError);
 * ```
 */
export function costFamily(
  base: CostProfile = getProfile("reconciliation"),
  options: CostFamilyOptions = {},
): CostFamily {
  const scaled = options.scaled ?? ["HIGH", "CRITICAL"];
  if (scaled.length === 0) {
    throw new RangeError(
      `Cannot make a cost family from "${base.id}": scaled must name at least one severity, got []`,
    );
  }
  for (const s of scaled) {
    if (!isSeverity(s)) {
      throw new RangeError(
        `Cannot make a cost family from "${base.id}": scaled has unknown severity ${
          JSON.stringify(s)
        }; expected ${SEVERITIES.join(", ")}`,
      );
    }
  }
  if (new Set(scaled).size !== scaled.length) {
    throw new RangeError(
      `Cannot make a cost family from "${base.id}": scaled repeats a severity, got ${
        JSON.stringify(scaled)
      }`,
    );
  }
  return Object.freeze({
    base,
    scaled: Object.freeze(SEVERITIES.filter((s) => scaled.includes(s))),
  });
}

/**
 * The member of a family at ratio r, as a validated profile.
 *
 * @param family A cost family.
 * @param r The ratio, finite and >= 0.
 * @returns A profile with id `<base>×<r>`.
 * @throws {RangeError} When r is negative or not finite.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { costFamily, familyProfile } from "./cost_family.ts";
 *
 * const p = familyProfile(costFamily(getProfile("flat")), 250);
 * assert.deepEqual(p.K, { LOW: 1, MEDIUM: 1, HIGH: 250, CRITICAL: 250 });
 * assert.equal(p.id, "flat×250");
 * ```
 */
export function familyProfile(family: CostFamily, r: number): CostProfile {
  if (!(r >= 0) || !Number.isFinite(r)) {
    throw new RangeError(
      `Cannot take a member of the "${family.base.id}" family: r must be a finite number >= 0, got ${r}`,
    );
  }
  const K = { ...family.base.K };
  for (const s of family.scaled) K[s] = family.base.K[s] * r;
  return defineProfile({
    id: `${family.base.id}×${r}`,
    version: family.base.version,
    description: `${family.base.id} with K(${
      family.scaled.join(", ")
    }) multiplied by ${r}`,
    K,
    reviewCost: family.base.reviewCost,
    judgeCost: family.base.judgeCost,
    ...(family.base.unit === undefined ? {} : { unit: family.base.unit }),
    ...(family.base.currency === undefined
      ? {}
      : { currency: family.base.currency }),
    sources: family.base.sources,
  });
}

/** Options for {@linkcode logGrid}. */
export interface LogGridOptions {
  /** Smallest ratio, > 0. Default: 1. */
  from?: number;
  /** Largest ratio, >= `from`. Default: 100,000. */
  to?: number;
  /** Number of points, >= 1 (>= 2 when from < to). Default: 61 (twelve per decade over five decades). */
  points?: number;
}

/**
 * Ratios evenly spaced on the log scale, both ends included exactly.
 *
 * Interior points are rounded to 12 significant digits, so a grid over
 * whole decades reads 10, 100, 1000 rather than 10.000000000000002.
 *
 * @param options The range and the number of points.
 * @returns The ratios, ascending.
 * @throws {RangeError} When the range or the number of points is invalid.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { logGrid } from "./cost_family.ts";
 *
 * assert.deepEqual(logGrid({ from: 1, to: 1000, points: 4 }), [1, 10, 100, 1000]);
 * assert.equal(logGrid().length, 61);
 * ```
 */
export function logGrid(options: LogGridOptions = {}): number[] {
  const from = options.from ?? 1;
  const to = options.to ?? 100_000;
  const points = options.points ?? 61;
  if (!(from > 0) || !Number.isFinite(from)) {
    throw new RangeError(
      `Cannot make a log grid: from must be a finite number > 0, got ${from}`,
    );
  }
  if (!(to >= from) || !Number.isFinite(to)) {
    throw new RangeError(
      `Cannot make a log grid: to must be a finite number >= from (${from}), got ${to}`,
    );
  }
  if (!Number.isInteger(points) || points < 1 || (points < 2 && to > from)) {
    throw new RangeError(
      `Cannot make a log grid from ${from} to ${to}: points must be an integer >= ${
        to > from ? 2 : 1
      }, got ${points}`,
    );
  }
  if (points === 1) return [from];
  const lo = Math.log10(from);
  const step = (Math.log10(to) - lo) / (points - 1);
  return Array.from({ length: points }, (_, i) => {
    if (i === 0) return from;
    if (i === points - 1) return to;
    // Rounded to 12 significant digits, so that 10^(1.0) reads 10, not 10.000000000000002.
    return Number((10 ** (lo + i * step)).toPrecision(12));
  });
}
