/**
 * Monte Carlo cost profiles drawn within the cost registry's ranges.
 *
 * @module
 */

import { SHIPPED_REGISTRY } from "../costs/shipped.ts";
import { type CostProfile, defineProfile } from "../costs/profile.ts";
import { type CostRegistry, getAnchor } from "../costs/registry.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { type Prng, seededPrng } from "../math/sampling.ts";

/**
 * How a cost is drawn from an anchor's [low, typical, high]:
 *
 * - `log-uniform`: log K uniform on [log low, log high]; every decade of the
 *   range equally likely, the typical value ignored;
 * - `triangular`: K triangular on [low, high] with its mode at typical, on
 *   the natural scale (for ranges spanning decades, most draws land in the
 *   top decade);
 * - `log-triangular`: log K triangular on [log low, log high] with its mode
 *   at log typical.
 */
export type DrawDistribution = "log-uniform" | "triangular" | "log-triangular";

/** The draw distributions, in a fixed order. */
export const DRAW_DISTRIBUTIONS: readonly DrawDistribution[] = [
  "log-uniform",
  "triangular",
  "log-triangular",
];

/** Which registry anchor's range each cost slot is drawn from. */
export interface AnchorMap {
  /** Anchor id per severity. */
  readonly K: Readonly<Record<Severity, string>>;
  /** Anchor id for the review cost (drawn like K), or a fixed number. */
  readonly reviewCost: string | number;
}

/**
 * The payments ladder of the shipped registry, as `deriveProfile`'s own
 * example maps it: LOW = `chargeback` ($15 to $100, a disputed card
 * payment), MEDIUM = `misposted_ach` ($500 to $50,000), HIGH =
 * `misrouted_wire` ($1M to $10M), CRITICAL = `settlement_failure` ($100k to
 * $1B); review = `false_positive_review` ($3 to $10, one analyst review).
 * The ranges of HIGH and CRITICAL overlap, so some draws price a CRITICAL
 * error below a HIGH one; draws are independent and such draws are kept.
 */
export const PAYMENTS_ANCHOR_MAP: AnchorMap = Object.freeze({
  K: Object.freeze({
    LOW: "chargeback",
    MEDIUM: "misposted_ach",
    HIGH: "misrouted_wire",
    CRITICAL: "settlement_failure",
  }),
  reviewCost: "false_positive_review",
});

/** Options for {@linkcode drawRegistryProfiles}. */
export interface RegistryDrawOptions {
  /** Number of profiles. Default: 10,000. */
  draws?: number;
  /** Distribution within each range. Default: `"log-uniform"`. */
  distribution?: DrawDistribution;
  /** Anchor per slot. Default: {@linkcode PAYMENTS_ANCHOR_MAP}. */
  mapping?: AnchorMap;
  /** The registry. Default: the shipped registry. */
  registry?: CostRegistry;
  /** Seed, used when no `prng` is given. Default: 0. */
  seed?: number;
  /** A seeded generator to draw from. Default: `seededPrng(seed)`. */
  prng?: Prng;
}

function drawOne(
  rng: Prng,
  low: number,
  mode: number,
  high: number,
  distribution: DrawDistribution,
): number {
  if (low === high) return low;
  const u = rng.next();
  const log = distribution !== "triangular";
  const [a, c, b] = log
    ? [Math.log(low), Math.log(mode), Math.log(high)]
    : [low, mode, high];
  let x: number;
  if (distribution === "log-uniform") x = a + u * (b - a);
  else {
    const cut = (c - a) / (b - a);
    x = u < cut
      ? a + Math.sqrt(u * (b - a) * (c - a))
      : b - Math.sqrt((1 - u) * (b - a) * (b - c));
  }
  const v = log ? Math.exp(x) : x;
  return Math.min(high, Math.max(low, v));
}

/**
 * Draw cost profiles within the registry's [low, high] ranges.
 *
 * Each profile draws every severity's K, and the review cost when it is
 * mapped to an anchor, independently from its anchor's range with the chosen
 * distribution. Draws are seeded: the same seed, mapping and distribution
 * give the same profiles on every machine. Profiles are named
 * `draw-00001`, ...; a draw with low = high is that value.
 *
 * @param options Number of draws, distribution, mapping, registry and seed.
 * @returns The profiles, with the mapping and the draw recorded in each description.
 * @throws {RangeError} When the number of draws is not a non-negative integer, an anchor id is unknown, or a log draw meets a range with low = 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drawRegistryProfiles } from "./registry_draws.ts";
 *
 * const draws = drawRegistryProfiles({ draws: 100, seed: 7 });
 * assert.equal(draws.length, 100);
 * assert.ok(draws.every((p) => p.K.HIGH >= 1e6 && p.K.HIGH <= 1e7 && p.K.LOW >= 15 && p.K.LOW <= 100));
 * assert.deepEqual(drawRegistryProfiles({ draws: 3, seed: 7 }), draws.slice(0, 3));
 * ```
 */
export function drawRegistryProfiles(
  options: RegistryDrawOptions = {},
): CostProfile[] {
  const draws = options.draws ?? 10_000;
  if (!Number.isInteger(draws) || draws < 0) {
    throw new RangeError(
      `Cannot draw registry profiles: draws must be an integer >= 0, got ${draws}`,
    );
  }
  const distribution = options.distribution ?? "log-uniform";
  if (!DRAW_DISTRIBUTIONS.includes(distribution)) {
    throw new RangeError(
      `Cannot draw registry profiles: distribution must be one of ${
        DRAW_DISTRIBUTIONS.join(", ")
      }, got ${JSON.stringify(distribution)}`,
    );
  }
  const mapping = options.mapping ?? PAYMENTS_ANCHOR_MAP;
  const registry = options.registry ?? SHIPPED_REGISTRY;
  const rng = options.prng ?? seededPrng(options.seed ?? 0);
  const slots = [
    ...SEVERITIES.map((s) => [s, mapping.K[s]] as const),
    ["reviewCost", mapping.reviewCost] as const,
  ];
  const ranges = slots.map(([slot, ref]) => {
    if (typeof ref === "number") return { slot, fixed: ref };
    const a = getAnchor(registry, ref);
    if (distribution !== "triangular" && a.low <= 0 && a.high > a.low) {
      throw new RangeError(
        `Cannot draw ${slot} from anchor ${
          JSON.stringify(a.id)
        } on the log scale: its low is ${a.low}; use the triangular distribution`,
      );
    }
    return { slot, anchor: a };
  });
  const describe =
    `Drawn ${distribution} within registry ${registry.version} ranges (seed ${rng.seed}): ${
      slots.map(([slot, ref]) => `${slot} from ${ref}`).join(", ")
    }`;
  const width = Math.max(5, String(draws).length);
  const out: CostProfile[] = [];
  for (let i = 0; i < draws; i++) {
    const values = ranges.map((r) =>
      "fixed" in r ? r.fixed! : drawOne(
        rng,
        r.anchor!.low,
        r.anchor!.typical,
        r.anchor!.high,
        distribution,
      )
    );
    out.push(defineProfile({
      id: `draw-${String(i + 1).padStart(width, "0")}`,
      version: `registry-${registry.version}`,
      description: describe,
      K: {
        LOW: values[0],
        MEDIUM: values[1],
        HIGH: values[2],
        CRITICAL: values[3],
      },
      reviewCost: values[4],
      unit: "USD",
    }));
  }
  return out;
}
