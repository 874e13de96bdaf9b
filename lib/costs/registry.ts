/**
 * The cost registry: sourced empirical anchors for what errors cost, each a
 * [low, typical, high] range, and the documented mapping from anchors to a
 * cost profile.
 *
 * @module
 */

import { type CostProfile, type CostSource, defineProfile } from "./profile.ts";
import { SEVERITIES, type Severity } from "./severity.ts";
import { InputRangeError } from "../input_error.ts";

/** How much weight an anchor's source can bear. */
export type Confidence = "low" | "medium" | "high";

/** One empirical cost anchor, for example a misrouted wire. */
export interface CostAnchor {
  /** Stable id, for example `"misrouted_wire"`. */
  readonly id: string;
  /** Business domain: payments, aml, insurance, healthcare, settlement. */
  readonly domain: string;
  /** Low end of the plausible range. */
  readonly low: number;
  /** The typical value; `low <= typical <= high`. */
  readonly typical: number;
  /** High end of the plausible range. */
  readonly high: number;
  /** Unit of the three figures, for example `"USD per incident"`. */
  readonly unit: string;
  /** The sources behind the figures. */
  readonly sources: readonly CostSource[];
  /** How far the figures can be trusted. */
  readonly confidence: Confidence;
  /** What the figure covers and how it was derived. */
  readonly note: string;
}

/** A versioned set of cost anchors. */
export interface CostRegistry {
  /** Version of the registry's figures. */
  readonly version: string;
  /** What the registry is for. */
  readonly description?: string;
  /** The anchors, in file order; ids are unique. */
  readonly anchors: readonly CostAnchor[];
}

/** A point of an anchor's range. */
export type AnchorPoint = "low" | "typical" | "high" | "logmid";

/** One cost slot of a derived profile: which anchor, at which point, times what. */
export interface AnchorRef {
  /** Anchor id in the registry. */
  anchor: string;
  /**
   * Which point of its range: `low`, `typical`, `high`, or `logmid`, the
   * geometric mean of `low` and `typical`. Default: `"typical"`.
   */
  at?: AnchorPoint;
  /** Multiplier applied to the figure, for example an exposure. Default: 1. */
  scale?: number;
}

/** A documented mapping from registry anchors to every slot of a profile. */
export interface ProfileMapping {
  /** Id of the derived profile. */
  id: string;
  /** Anchor reference for each severity. */
  K: Readonly<Record<Severity, AnchorRef>>;
  /** Anchor reference, or a plain number, for the review cost. */
  reviewCost: AnchorRef | number;
  /** Anchor reference, or a plain number, for the judge cost. Default: 0. */
  judgeCost?: AnchorRef | number;
  /** Description of the derived profile. */
  description?: string;
}

/**
 * Find an anchor by id.
 *
 * @param registry A cost registry.
 * @param id The anchor id.
 * @returns The anchor.
 * @throws {RangeError} When no anchor has that id; the message lists the ids.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getAnchor, SHIPPED_REGISTRY } from "./mod.ts";
 *
 * assert.equal(getAnchor(SHIPPED_REGISTRY, "misposted_ach").typical, 3881);
 * ```
 */
export function getAnchor(registry: CostRegistry, id: string): CostAnchor {
  const anchor = registry.anchors.find((a) => a.id === id);
  if (anchor === undefined) {
    throw new InputRangeError(
      `Cannot find cost anchor ${JSON.stringify(id)}: the registry has ${
        registry.anchors.map((a) => a.id).join(", ")
      }`,
    );
  }
  return anchor;
}

/**
 * The figure at one point of an anchor's range.
 *
 * `logmid` is the geometric mean of `low` and `typical`: the midpoint on the
 * log scale on which cost ranges are spread.
 *
 * @param anchor A cost anchor.
 * @param at Which point. Default: `"typical"`.
 * @returns The figure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { anchorValue, getAnchor, SHIPPED_REGISTRY } from "./mod.ts";
 *
 * const wire = getAnchor(SHIPPED_REGISTRY, "misrouted_wire");
 * assert.equal(anchorValue(wire, "high"), 10_000_000);
 * assert.ok(Math.abs(anchorValue(wire, "logmid") - Math.sqrt(1e6 * 5e6)) < 1e-6);
 * ```
 */
export function anchorValue(
  anchor: CostAnchor,
  at: AnchorPoint = "typical",
): number {
  switch (at) {
    case "low":
      return anchor.low;
    case "typical":
      return anchor.typical;
    case "high":
      return anchor.high;
    case "logmid":
      return Math.sqrt(anchor.low * anchor.typical);
  }
}

function resolve(
  registry: CostRegistry,
  ref: AnchorRef | number,
  slot: string,
  used: Map<string, CostSource>,
): { value: number; note: string; unit: string | null } {
  if (typeof ref === "number") {
    return {
      value: ref,
      note: "Stated directly in the mapping, not from the registry.",
      unit: null,
    };
  }
  const anchor = getAnchor(registry, ref.anchor);
  const at = ref.at ?? "typical";
  const scale = ref.scale ?? 1;
  if (!Number.isFinite(scale) || scale < 0) {
    throw new InputRangeError(
      `Cannot derive ${slot}: scale must be a finite number >= 0, got ${scale}`,
    );
  }
  for (const s of anchor.sources) used.set(s.id, s);
  const base = anchorValue(anchor, at);
  return {
    value: base * scale,
    note:
      `Registry ${registry.version} anchor ${anchor.id} at ${at} (${base} ${anchor.unit})${
        scale === 1 ? "" : ` x ${scale}`
      }; confidence ${anchor.confidence}.`,
    unit: anchor.unit,
  };
}

/**
 * Derive a cost profile from registry anchors by an explicit mapping.
 *
 * Each slot of the profile names the anchor it comes from and the point of
 * that anchor's range, so the profile's notes say exactly which sourced figure
 * each K is, and its sources are the anchors' sources. The result is validated
 * like any other profile.
 *
 * @param registry The registry to read anchors from.
 * @param mapping Which anchor and point feeds each slot.
 * @returns A cost profile with a note per slot.
 * @throws {RangeError} When an anchor id is unknown or a scale is negative.
 *
 * @example A payments profile from four anchors
 * ```ts
 * import assert from "node:assert/strict";
 * import { deriveProfile, SHIPPED_REGISTRY } from "./mod.ts";
 *
 * const payments = deriveProfile(SHIPPED_REGISTRY, {
 *   id: "payments_usd",
 *   K: {
 *     LOW: { anchor: "chargeback" },
 *     MEDIUM: { anchor: "misposted_ach" },
 *     HIGH: { anchor: "misrouted_wire", at: "low" },
 *     CRITICAL: { anchor: "settlement_failure" },
 *   },
 *   reviewCost: { anchor: "false_positive_review" },
 * });
 * assert.deepEqual(payments.K, { LOW: 40, MEDIUM: 3881, HIGH: 1e6, CRITICAL: 1e6 });
 * assert.equal(payments.reviewCost, 6.5);
 * ```
 */
export function deriveProfile(
  registry: CostRegistry,
  mapping: ProfileMapping,
): CostProfile {
  const used = new Map<string, CostSource>();
  const K = {} as Record<Severity, number>;
  const notes: Partial<Record<Severity | "reviewCost" | "judgeCost", string>> =
    {};
  const units = new Set<string>();
  for (const s of SEVERITIES) {
    const r = resolve(registry, mapping.K[s], `K.${s}`, used);
    K[s] = r.value;
    notes[s] = r.note;
    if (r.unit !== null) units.add(r.unit);
  }
  const review = resolve(registry, mapping.reviewCost, "reviewCost", used);
  notes.reviewCost = review.note;
  const judge = resolve(registry, mapping.judgeCost ?? 0, "judgeCost", used);
  notes.judgeCost = judge.note;
  return defineProfile({
    id: mapping.id,
    version: `registry-${registry.version}`,
    description: mapping.description ??
      `Derived from cost registry ${registry.version} by an explicit anchor mapping.`,
    K,
    reviewCost: review.value,
    judgeCost: judge.value,
    unit: units.size === 1 ? [...units][0] : "mixed units (see notes)",
    notes,
    sources: [...used.values()],
  });
}

/** Options for {@linkcode profileFromAnchor}. */
export interface ProfileFromAnchorOptions {
  /** Review cost, an anchor reference or a number. Required: a review is never free by default. */
  reviewCost: AnchorRef | number;
  /** Judge cost. Default: 0. */
  judgeCost?: AnchorRef | number;
  /** Id of the derived profile. Default: `"<anchor>_ladder"`. */
  id?: string;
}

/**
 * Derive a cost profile from a single registry anchor with the range ladder.
 *
 * The ladder maps one incident type's cost range onto the four severities:
 * LOW is the anchor's `low`, MEDIUM the geometric mean of `low` and
 * `typical`, HIGH its `typical` and CRITICAL its `high`. A LOW-severity
 * misposted ACH then costs what the cheap end of misposted ACHs costs, and a
 * CRITICAL one what the expensive end costs. K is non-decreasing in severity
 * because the registry guarantees `low <= typical <= high`.
 *
 * @param registry The registry.
 * @param anchorId The anchor to spread over the ladder.
 * @param options Review and judge cost, and the profile id.
 * @returns The derived profile, whose span is `high / low` of the anchor.
 * @throws {RangeError} When the anchor id is unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { profileFromAnchor, profileSpan, SHIPPED_REGISTRY } from "./mod.ts";
 *
 * const ach = profileFromAnchor(SHIPPED_REGISTRY, "misposted_ach", {
 *   reviewCost: { anchor: "false_positive_review" },
 * });
 * assert.equal(ach.K.LOW, 500);
 * assert.equal(ach.K.HIGH, 3881);
 * assert.equal(profileSpan(ach), 100);
 * ```
 */
export function profileFromAnchor(
  registry: CostRegistry,
  anchorId: string,
  options: ProfileFromAnchorOptions,
): CostProfile {
  const anchor = getAnchor(registry, anchorId);
  return deriveProfile(registry, {
    id: options.id ?? `${anchor.id}_ladder`,
    description:
      `Range ladder of registry anchor ${anchor.id} (${anchor.unit}): LOW = low, MEDIUM = sqrt(low x typical), HIGH = typical, CRITICAL = high.`,
    K: {
      LOW: { anchor: anchor.id, at: "low" },
      MEDIUM: { anchor: anchor.id, at: "logmid" },
      HIGH: { anchor: anchor.id, at: "typical" },
      CRITICAL: { anchor: anchor.id, at: "high" },
    },
    reviewCost: options.reviewCost,
    ...(options.judgeCost === undefined
      ? {}
      : { judgeCost: options.judgeCost }),
  });
}
