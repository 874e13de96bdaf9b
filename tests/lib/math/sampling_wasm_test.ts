// lossPosterior's Dirichlet draws and the bootstrap's multinomial
// resamples in WebAssembly are the JavaScript draws, double for double: the
// same generator sequence, gamma draws (with shapes below 1, near 1 and
// large), binomials (by inversion and by BTRS, p on both sides of 1/2),
// and the generator where each leaves it.
import assert from "node:assert/strict";
import fc from "fast-check";
import { gamma, multinomial, seededPrng } from "../../../lib/math/sampling.ts";
import {
  dirichletDraws,
  multinomialDraws,
  multinomialRatios,
} from "../../../lib/math/_sampling_wasm.ts";

// the loop of lossPosterior, in JavaScript
function dirichletJs(
  prng: ReturnType<typeof seededPrng>,
  shapes: number[],
  draws: number,
): Float64Array {
  const m = shapes.length;
  const out = new Float64Array(draws * m);
  for (let d = 0; d < draws; d++) {
    let total = 0;
    for (let k = 0; k < m; k++) {
      const g = gamma(prng, shapes[k]);
      out[d * m + k] = g;
      total += g;
    }
    for (let k = 0; k < m; k++) out[d * m + k] /= total;
  }
  return out;
}

const shapeArb = fc.oneof(
  fc.constantFrom(0.5, 1, 1.5, 2, 0.001, 1e5, 1 - 2 ** -52, 1 + 2 ** -52),
  fc.double({ min: 1e-6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: 0, max: 3000 }).map((n) => n + 0.5),
);

Deno.test("WebAssembly Dirichlet draws equal the JavaScript ones bit for bit, and leave the generator where they do (property, seed 61)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      fc.array(shapeArb, { maxLength: 12 }),
      fc.integer({ min: 1, max: 40 }),
      (seed, shapes, draws) => {
        const js = seededPrng(seed);
        const wasm = seededPrng(seed);
        const want = dirichletJs(js, shapes, draws);
        const got = dirichletDraws(wasm, shapes, draws);
        assert.ok(got !== null);
        assert.equal(got.length, want.length);
        for (let i = 0; i < want.length; i++) {
          assert.ok(
            Object.is(got[i], want[i]),
            `draw ${i}: ${got[i]} vs ${want[i]}`,
          );
        }
        assert.equal(wasm.next(), js.next());
      },
    ),
    { seed: 61, numRuns: 400 },
  );
});

Deno.test("dirichletDraws() leaves a shape that is not a finite number > 0, and a generator not made by seededPrng, to the JavaScript loop", () => {
  const prng = seededPrng(3);
  const before = seededPrng(3);
  for (const bad of [[0], [-1], [Infinity], [NaN], [1, 0]]) {
    assert.equal(dirichletDraws(prng, bad, 2), null);
  }
  assert.equal(prng.next(), before.next()); // untouched
  assert.equal(dirichletDraws({ seed: 0, next: () => 0.5 }, [1, 2], 3), null);
});

const weightArb = fc.oneof(
  fc.integer({ min: 0, max: 2_000_000 }),
  fc.constantFrom(0, 1, 9, 10, 11, 19, 20, 21),
  fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true }),
);

Deno.test("WebAssembly multinomial resamples equal sampling.ts's multinomial draws bit for bit, and leave the generator where they do (property, seed 67)", () => {
  let btrs = 0;
  fc.assert(
    fc.property(
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      fc.oneof(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.constantFrom(0, 10, 20, 1_000_000_000),
      ),
      fc.array(weightArb, { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 1, max: 12 }),
      (seed, n, weights, resamples) => {
        if (n > 0 && !weights.some((w) => w > 0)) return;
        const js = seededPrng(seed);
        const wasm = seededPrng(seed);
        const got = multinomialDraws(wasm, n, weights, resamples);
        assert.ok(got !== null);
        const m = weights.length;
        for (let b = 0; b < resamples; b++) {
          const want = multinomial(js, n, weights);
          for (let i = 0; i < m; i++) {
            assert.ok(
              Object.is(got[b * m + i], want[i]),
              `resample ${b}, category ${i}: ${got[b * m + i]} vs ${want[i]}`,
            );
            if (want[i] >= 10) btrs++;
          }
        }
        assert.equal(wasm.next(), js.next());
      },
    ),
    { seed: 67, numRuns: 600 },
  );
  assert.ok(btrs > 1000, `${btrs} large counts`);
});

Deno.test("multinomialDraws() leaves what the JavaScript refuses to it: a count that is not whole, a bad weight, all weights 0", () => {
  const prng = seededPrng(4);
  const before = seededPrng(4);
  assert.equal(multinomialDraws(prng, 2.5, [1, 1], 2), null);
  assert.equal(multinomialDraws(prng, -1, [1, 1], 2), null);
  assert.equal(multinomialDraws(prng, 5, [1, -1], 2), null);
  assert.equal(multinomialDraws(prng, 5, [1, NaN], 2), null);
  assert.equal(multinomialDraws(prng, 5, [0, 0], 2), null);
  assert.equal(prng.next(), before.next());
  assert.deepEqual([...multinomialDraws(prng, 0, [0, 0], 2)!], [0, 0, 0, 0]);
});

Deno.test("WebAssembly bootstrap ratios equal the sums of bootstrap.ts over sampling.ts's resamples bit for bit, NaN where a denominator is 0 (property, seed 73)", () => {
  let undefinedRatios = 0;
  fc.assert(
    fc.property(
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      fc.integer({ min: 1, max: 100_000 }),
      fc.array(fc.integer({ min: 0, max: 5000 }), {
        minLength: 1,
        maxLength: 8,
      })
        .filter((w) => w.some((x) => x > 0)),
      fc.integer({ min: 1, max: 10 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer(),
      (seed, n, weights, resamples, k, salt) => {
        const m = weights.length;
        // 0/1 weights, as the counts of accuracy and recall are, and some
        // fractional ones; a denominator of zeros now and then
        const pick = (j: number, i: number, den: boolean) => {
          const h = Math.imul(salt ^ (j * 31 + i), 0x9e3779b1) >>> 0;
          if (den && j === 1) return 0;
          return h % 5 === 0 ? (h % 7) / 3 : h % 2;
        };
        const num = Array.from(
          { length: k },
          (_, j) =>
            Float64Array.from({ length: m }, (_, i) => pick(j, i, false)),
        );
        const den = Array.from(
          { length: k },
          (_, j) =>
            Float64Array.from({ length: m }, (_, i) => pick(j, i, true)),
        );
        const js = seededPrng(seed);
        const got = multinomialRatios(
          seededPrng(seed),
          n,
          weights,
          resamples,
          num,
          den,
        );
        assert.ok(got !== null);
        for (let b = 0; b < resamples; b++) {
          const counts = multinomial(js, n, weights);
          for (let j = 0; j < k; j++) {
            let a = 0;
            let d = 0;
            for (let i = 0; i < m; i++) {
              a += num[j][i] * counts[i];
              d += den[j][i] * counts[i];
            }
            const want = d === 0 ? NaN : a / d;
            if (d === 0) undefinedRatios++;
            assert.ok(
              Object.is(got[b * k + j], want),
              `${b}/${j}: ${got[b * k + j]} vs ${want}`,
            );
          }
        }
      },
    ),
    { seed: 73, numRuns: 300 },
  );
  assert.ok(undefinedRatios > 50, `${undefinedRatios} ratios over 0`);
});
