/**
 * Seeded sampling: a portable generator, exact binomial and multinomial
 * draws. Everything random in lossbook is seeded through here.
 *
 * @module
 */

import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

/** A seeded source of uniform doubles in [0, 1). */
export interface Prng {
  /** The seed it was made from, recorded with any output. */
  readonly seed: number;
  /** The next uniform double in [0, 1), with 53 random bits. */
  next(): number;
}

/**
 * A seeded generator: xoroshiro128+ from pure-rand, with uniform doubles
 * built from 53 of its bits (pure-rand's `uniformFloat64`).
 *
 * @param seed An integer seed.
 * @returns A generator; the same seed gives the same sequence on every machine.
 * @throws {RangeError} When the seed is not a safe integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seededPrng } from "./sampling.ts";
 *
 * const a = seededPrng(7);
 * const b = seededPrng(7);
 * assert.equal(a.next(), b.next());
 * ```
 */
export function seededPrng(seed: number): Prng {
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(
      `Cannot seed a generator: seed must be a safe integer, got ${seed}`,
    );
  }
  const rng = xoroshiro128plus(seed);
  return { seed, next: () => uniformFloat64(rng) };
}

// Stirling's series correction log(k!) - [(k + 1/2) log(k + 1) - (k + 1) + log(2π)/2].
const FC = [
  0.08106146679532726,
  0.04134069595540929,
  0.02767792568499834,
  0.02079067210376509,
  0.01664469118982119,
  0.01387612882307075,
  0.01189670994589177,
  0.01041126526197209,
  0.009255462182712733,
  0.008330563433362871,
];

function stirlingTail(k: number): number {
  if (k < 10) return FC[k];
  const kp1 = k + 1;
  const k2 = kp1 * kp1;
  return (1 / 12 - (1 / 360 - 1 / 1260 / k2) / k2) / kp1;
}

function binomialInversion(rng: Prng, n: number, p: number): number {
  const q = 1 - p;
  const s = p / q;
  const a = (n + 1) * s;
  for (;;) {
    let r = Math.pow(q, n);
    let u = rng.next();
    let x = 0;
    while (u > r) {
      u -= r;
      x++;
      if (x > n) break;
      r *= a / x - s;
    }
    if (x <= n) return x;
  }
}

// Hörmann (1993), BTRS: transformed rejection with squeeze, for n·p >= 10.
function binomialBtrs(rng: Prng, n: number, p: number): number {
  const q = 1 - p;
  const spq = Math.sqrt(n * p * q);
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const vr = 0.92 - 4.2 / b;
  const r = p / q;
  const alpha = (2.83 + 5.1 / b) * spq;
  const m = Math.floor((n + 1) * p);
  for (;;) {
    const u = rng.next() - 0.5;
    let v = rng.next();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor((2 * a / us + b) * u + c);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || k > n) continue;
    v = Math.log(v * alpha / (a / (us * us) + b));
    const bound = (m + 0.5) * Math.log((m + 1) / (r * (n - m + 1))) +
      (n + 1) * Math.log((n - m + 1) / (n - k + 1)) +
      (k + 0.5) * Math.log(r * (n - k + 1) / (k + 1)) +
      stirlingTail(m) + stirlingTail(n - m) - stirlingTail(k) -
      stirlingTail(n - k);
    if (v <= bound) return k;
  }
}

/**
 * An exact draw from Binomial(n, p).
 *
 * Uses inversion when n·min(p, 1-p) < 10 and Hörmann's BTRS rejection
 * algorithm ("The generation of binomial random variates", 1993) otherwise,
 * so a draw costs O(1) expected time even for n in the billions.
 *
 * @param rng A seeded generator.
 * @param n Trials, a non-negative integer.
 * @param p Success probability in [0, 1].
 * @returns The number of successes.
 * @throws {RangeError} When n is not a non-negative safe integer or p is outside [0, 1].
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { binomial, seededPrng } from "./sampling.ts";
 *
 * const rng = seededPrng(1);
 * const k = binomial(rng, 1_000_000, 0.3);
 * assert.ok(Math.abs(k - 300_000) < 5 * Math.sqrt(1e6 * 0.3 * 0.7));
 * assert.equal(binomial(rng, 10, 0), 0);
 * ```
 */
export function binomial(rng: Prng, n: number, p: number): number {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(
      `Cannot draw a binomial: n must be an integer >= 0, got ${n}`,
    );
  }
  if (!(p >= 0 && p <= 1)) {
    throw new RangeError(
      `Cannot draw a binomial: p must be in [0, 1], got ${p}`,
    );
  }
  if (n === 0 || p === 0) return 0;
  if (p === 1) return n;
  if (p > 0.5) return n - binomial(rng, n, 1 - p);
  return n * p < 10 ? binomialInversion(rng, n, p) : binomialBtrs(rng, n, p);
}

/**
 * An exact draw from Multinomial(n, weights / Σ weights), by conditional
 * binomials: category i gets Binomial(n left, wᵢ / weight left).
 *
 * @param rng A seeded generator.
 * @param n Total count.
 * @param weights Non-negative category weights (counts work as weights).
 * @returns Counts per category, summing to n.
 * @throws {RangeError} When a weight is negative or all weights are 0 while n > 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { multinomial, seededPrng } from "./sampling.ts";
 *
 * const counts = multinomial(seededPrng(3), 800, [500, 200, 100]);
 * assert.equal(counts.reduce((a, b) => a + b, 0), 800);
 * ```
 */
export function multinomial(
  rng: Prng,
  n: number,
  weights: ArrayLike<number>,
): number[] {
  let mass = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i];
    if (!(w >= 0) || !Number.isFinite(w)) {
      throw new RangeError(
        `Cannot draw a multinomial: weight ${i} must be finite and >= 0, got ${w}`,
      );
    }
    mass += w;
  }
  if (n > 0 && mass === 0) {
    throw new RangeError("Cannot draw a multinomial: every weight is 0");
  }
  const out = new Array<number>(weights.length).fill(0);
  let left = n;
  for (let i = 0; i < weights.length && left > 0; i++) {
    const w = weights[i];
    const k = i === weights.length - 1 || w >= mass
      ? left
      : binomial(rng, left, w / mass);
    out[i] = k;
    left -= k;
    mass -= w;
  }
  return out;
}

/**
 * A standard normal draw, by the Box-Muller transform (one of the pair).
 *
 * @param rng A seeded generator.
 * @returns A draw from N(0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normal, seededPrng } from "./sampling.ts";
 *
 * assert.equal(typeof normal(seededPrng(1)), "number");
 * ```
 */
export function normal(rng: Prng): number {
  let u = rng.next();
  while (u === 0) u = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/**
 * A draw from Gamma(shape, 1), by Marsaglia and Tsang's method (2000); for
 * shape < 1, Gamma(shape + 1) · U^(1/shape).
 *
 * @param rng A seeded generator.
 * @param shape Shape parameter > 0.
 * @returns A draw with mean `shape`.
 * @throws {RangeError} When the shape is not a positive finite number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gamma, seededPrng } from "./sampling.ts";
 *
 * assert.ok(gamma(seededPrng(2), 3) > 0);
 * ```
 */
export function gamma(rng: Prng, shape: number): number {
  if (!(shape > 0) || !Number.isFinite(shape)) {
    throw new RangeError(
      `Cannot draw a gamma: shape must be a finite number > 0, got ${shape}`,
    );
  }
  if (shape < 1) {
    let u = rng.next();
    while (u === 0) u = rng.next();
    return gamma(rng, shape + 1) * Math.pow(u, 1 / shape);
  }
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(rng);
    const t = 1 + c * x;
    if (t <= 0) continue;
    const v = t * t * t;
    const u = rng.next();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/**
 * A draw from Beta(a, b), as X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b).
 *
 * @param rng A seeded generator.
 * @param a First shape > 0.
 * @param b Second shape > 0.
 * @returns A draw in [0, 1] with mean a / (a + b).
 * @throws {RangeError} When a shape is not a positive finite number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { beta, seededPrng } from "./sampling.ts";
 *
 * const x = beta(seededPrng(3), 9, 1);
 * assert.ok(x >= 0 && x <= 1);
 * ```
 */
export function beta(rng: Prng, a: number, b: number): number {
  const x = gamma(rng, a);
  const y = gamma(rng, b);
  return x / (x + y);
}

/**
 * A seed for one named stream, derived from a run seed and a label: the
 * FNV-1a 32-bit hash of the text `"<seed>:<label>"`.
 *
 * Deriving each interval's seed from its own label (a profile id, a
 * statistic's name) keeps it the same whatever else is computed in the same
 * run: asking for one more profile does not move another profile's interval.
 *
 * @param seed The run seed.
 * @param label What the stream is for.
 * @returns A 32-bit unsigned seed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seedFor } from "./sampling.ts";
 *
 * assert.equal(seedFor(0, "loss/principal_risk"), seedFor(0, "loss/principal_risk"));
 * assert.notEqual(seedFor(0, "loss/flat"), seedFor(1, "loss/flat"));
 * ```
 */
export function seedFor(seed: number, label: string): number {
  const text = `${seed}:${label}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
