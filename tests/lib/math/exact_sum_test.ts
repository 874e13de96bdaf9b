import assert from "node:assert/strict";
import fc from "fast-check";
import {
  ComplementSum,
  complementUnits,
  DoubleSum,
  reciprocalSum,
  roundRational,
  roundUnits,
} from "../../../lib/math/exact_sum.ts";

const SEED = 20261203;

// x = mantissa * 2^exponent exactly, for a finite non-negative binary64
function exactParts(x: number): [bigint, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  return e === 0 ? [frac, -1074] : [frac | (1n << 52n), e - 1075];
}

// x * 2^1074 as an exact integer (every binary64 is a multiple of 2^-1074)
function scaled(x: number): bigint {
  const [m, e] = exactParts(x);
  return m << BigInt(e + 1074);
}

function neighbour(x: number, up: boolean): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + (up ? 1n : -1n));
  return view.getFloat64(0);
}

// whether r is the binary64 nearest to num / den, ties to an even mantissa:
// compared as rationals, with r and its neighbours scaled by 2^1074
function isNearest(r: number, num: bigint, den: bigint): boolean {
  const target = num << 1074n; // num / den * 2^1074 * den
  const dist = (x: number) => {
    const d = scaled(x) * den - target;
    return d < 0n ? -d : d;
  };
  const here = dist(r);
  for (const other of [neighbour(r, true), neighbour(r, false)]) {
    if (!(other >= 0)) continue;
    const there = dist(other);
    if (there < here) return false;
    if (there === here && (exactParts(r)[0] & 1n) === 1n) return false;
  }
  return true;
}

// probabilities whose float sums of complements depend on the order: tenths,
// sevenths, complements near 1e-17 and arbitrary doubles
const probability = fc.oneof(
  fc.constantFrom(0.1, 0.7, 0.9, 0.3, 1 / 3, 1, 0, 0.5),
  fc.integer({ min: 1, max: 2 ** 20 }).map((k) => 1 - k * 2 ** -53),
  fc.double({ min: 0, max: 1, noNaN: true }),
);

Deno.test("ComplementSum gives the correctly rounded exact sum of 1 - p, the same in every order (property, seed 20261203)", () => {
  fc.assert(
    fc.property(
      fc.array(probability, { minLength: 1, maxLength: 200 }),
      fc.integer(),
      (ps, salt) => {
        // the exact sum of each binary64 1 - p (as every engine computes
        // it), from its bits, with no claim about units of 2^-53
        let exact = 0n;
        for (const p of ps) exact += scaled(1 - p);
        const forward = new ComplementSum();
        for (const p of ps) forward.add(p);
        // a permutation, and a split into two sums joined by their units
        const shuffled = ps.map((p, i) => [p, (i * 2654435761 + salt) >>> 0])
          .sort((a, b) => a[1] - b[1]).map(([p]) => p);
        const half = Math.floor(shuffled.length / 2);
        const a = new ComplementSum();
        const b = new ComplementSum();
        for (const p of shuffled.slice(0, half)) a.add(p);
        for (const p of shuffled.slice(half)) b.add(p);
        b.addUnits(a.units);
        assert.equal(forward.units << (1074n - 53n), exact);
        assert.equal(b.units, forward.units);
        assert.ok(isNearest(forward.value(), exact, 1n << 1074n));
        assert.equal(Object.is(forward.value(), b.value()), true);
      },
    ),
    { seed: SEED, numRuns: 300 },
  );
});

Deno.test("ComplementSum stays exact past the point where its limbs are folded into the BigInt", () => {
  const s = new ComplementSum();
  const terms = 2 ** 25 + 3;
  for (let i = 0; i < terms; i++) s.add(0);
  assert.equal(s.units, BigInt(terms) * 2n ** 53n);
  s.add(1 - 2 ** -53);
  assert.equal(s.units, BigInt(terms) * 2n ** 53n + 1n);
});

Deno.test("roundUnits() rounds half-way sums to an even mantissa", () => {
  // 2^54 + 1 lies half-way between 2^54 and 2^54 + 2 (the spacing there)
  assert.equal(roundUnits(2n ** 54n + 1n), 2);
  assert.equal(roundUnits(2n ** 54n + 3n), (2 ** 54 + 4) / 2 ** 53);
});

Deno.test("reciprocalSum() gives the correctly rounded exact sum of count / k, whatever the order of the pairs (property, seed 20261203)", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          fc.integer({ min: 1, max: 5000 }),
          fc.integer({ min: 0, max: 1_000_000 }),
        ),
        { minLength: 1, maxLength: 30 },
      ),
      (pairs) => {
        let num = 0n;
        let den = 1n;
        for (const [k, c] of pairs) {
          // num / den + c / k, not reduced
          num = num * BigInt(k) + BigInt(c) * den;
          den *= BigInt(k);
        }
        const r = reciprocalSum(pairs);
        assert.ok(isNearest(r, num, den), `${r} for ${JSON.stringify(pairs)}`);
        assert.equal(reciprocalSum(pairs.toReversed()), r);
      },
    ),
    { seed: SEED, numRuns: 300 },
  );
});

Deno.test("roundRational() breaks a tie by the sticky bit only when the remainder is zero", () => {
  // (2^53 + 1) / 2 is half-way between two binary64 values: even wins
  assert.equal(roundRational(2n ** 53n + 1n, 2n), 2 ** 52);
  // a hair above half-way rounds up
  assert.equal(
    roundRational((2n ** 53n + 1n) * 3n ** 40n + 1n, 2n * 3n ** 40n),
    2 ** 52 + 1,
  );
  assert.throws(() => roundRational(1n, 0n), RangeError);
});

Deno.test("complementUnits() is a whole number for every p in [0, 1] and refuses others", () => {
  fc.assert(
    fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (p) => {
      assert.ok(Number.isInteger(complementUnits(p)));
    }),
    { seed: SEED },
  );
  assert.throws(() => complementUnits(1.5), RangeError);
  assert.throws(() => complementUnits(NaN), RangeError);
});

// a signed double as an exact multiple of 2^-1074
function signedScaled(x: number): bigint {
  return x < 0 ? -scaled(-x) : scaled(x);
}

Deno.test("DoubleSum is the exact sum of finite doubles, rounded once, whatever their order (property, seed 20261203)", () => {
  const value = fc.oneof(
    fc.double({
      noNaN: true,
      noDefaultInfinity: true,
      min: -1e300,
      max: 1e300,
    }),
    fc.double({ noNaN: true, min: -1e-300, max: 1e-300 }),
    fc.constantFrom(0.1, 0.2, 0.3, -0.1, 1e16, -1e16, 2 ** -1074, 5e-324),
  );
  fc.assert(
    fc.property(
      fc.array(value, { maxLength: 40 }),
      fc.integer(),
      (xs, seed) => {
        const s = new DoubleSum();
        for (const x of xs) s.add(x);
        const total = xs.reduce((a, x) => a + signedScaled(x), 0n);
        const r = s.value;
        // the nearest double to total * 2^-1074, compared as rationals
        if (total === 0n) return r === 0;
        const magnitude = total < 0n ? -total : total;
        if ((total < 0n) !== (r < 0)) return false;
        if (!isNearest(Math.abs(r), magnitude, 1n << 1074n)) return false;
        // another order, the same bits
        const order = xs.map((_, i) => i).sort((a, b) =>
          ((Math.imul(seed, a + 1) ^ Math.imul(seed, b + 7)) & 2) - 1
        );
        const t = new DoubleSum();
        for (const i of order.reverse()) t.add(xs[i]);
        return Object.is(t.value, r);
      },
    ),
    { seed: SEED, numRuns: 500 },
  );
  assert.throws(() => new DoubleSum().add(Infinity), /finite/);
});
