// Private: lossPosterior's Dirichlet draws and the bootstrap's multinomial
// resamples in WebAssembly (_sampling_wasm.wat): the same generator
// sequence and the same draws, double for double, as the JavaScript in
// sampling.ts, from a generator made by seededPrng; properties compare the
// two.

import { SAMPLING_WASM_BASE64 } from "./_sampling_wasm_bytes.ts";
import { base64Bytes } from "../_base64.ts";
import { type Prng, withGeneratorState } from "./sampling.ts";

const PAGE = 65536;
const INPUTS = 0x100;

interface Sampler {
  readonly memory: WebAssembly.Memory;
  readonly dirichlet: (
    shapes: number,
    m: number,
    draws: number,
    out: number,
  ) => void;
  readonly multinomials: (
    n: number,
    weights: number,
    m: number,
    resamples: number,
    out: number,
  ) => void;
  readonly ratios: (
    counts: number,
    resamples: number,
    m: number,
    num: number,
    den: number,
    ratios: number,
    out: number,
  ) => void;
}

let sampler: Sampler | null = null;

function instance(): Sampler {
  if (sampler !== null) return sampler;
  const module = new WebAssembly.Module(
    base64Bytes(SAMPLING_WASM_BASE64),
  );
  // the engine's own functions, so that every value is the one JavaScript
  // computes
  const math = { log: Math.log, cos: Math.cos, pow: Math.pow };
  const e = new WebAssembly.Instance(module, { math }).exports;
  (e.init as () => void)();
  sampler = {
    memory: e.memory as WebAssembly.Memory,
    dirichlet: e.dirichlet as Sampler["dirichlet"],
    multinomials: e.multinomials as Sampler["multinomials"],
    ratios: e.ratios as Sampler["ratios"],
  };
  return sampler;
}

// run `draw` with the module, its memory at least `bytes` long and the
// generator's state in it; the state after goes back to the generator
function withState(
  prng: Prng,
  bytes: number,
  draw: (s: Sampler) => void,
): boolean {
  return withGeneratorState(prng, (state) => {
    const s = instance();
    const have = s.memory.buffer.byteLength;
    if (bytes > have) s.memory.grow(Math.ceil((bytes - have) / PAGE));
    // pure-rand's words (s01, s00, s11, s10) as the module's two 64-bit
    // words, low word first
    new Int32Array(s.memory.buffer, 0, 4).set([
      state[1],
      state[0],
      state[3],
      state[2],
    ]);
    draw(s);
    const after = new Int32Array(s.memory.buffer, 0, 4);
    return [after[1], after[0], after[3], after[2]];
  });
}

/**
 * `draws` Dirichlet draws over `shapes`, draw d's share of kind k at
 * `d * m + k`, as lossPosterior draws them in JavaScript (m gamma draws
 * from `prng`, each divided by their sum), and `prng` moved on as far as
 * they took it. Null, with `prng` untouched, for a generator not made by
 * seededPrng or a shape that is not a finite number > 0 (the JavaScript
 * loop draws, or refuses, those).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seededPrng } from "./sampling.ts";
 * import { dirichletDraws } from "./_sampling_wasm.ts";
 *
 * const out = dirichletDraws(seededPrng(1), [0.5, 3], 2)!;
 * assert.equal(out.length, 4);
 * assert.ok(Math.abs(out[0] + out[1] - 1) < 1e-12);
 * assert.equal(dirichletDraws({ seed: 0, next: () => 0.5 }, [1], 1), null);
 * ```
 */
export function dirichletDraws(
  prng: Prng,
  shapes: readonly number[],
  draws: number,
): Float64Array | null {
  if (!shapes.every((s) => s > 0 && Number.isFinite(s))) return null;
  const m = shapes.length;
  const at = INPUTS + 8 * m;
  const end = at + 8 * m * draws;
  let out: Float64Array | null = null;
  withState(prng, end, ({ memory, dirichlet }) => {
    new Float64Array(memory.buffer, INPUTS, m).set(shapes);
    dirichlet(INPUTS, m, draws, at);
    out = new Float64Array(memory.buffer.slice(at, end));
  });
  return out;
}

// whether sampling.ts's multinomial draws from n and weights rather than
// refusing them: n a whole number >= 0, weights finite and >= 0, not all 0
// while n > 0
function drawable(n: number, weights: readonly number[]): boolean {
  return Number.isSafeInteger(n) && n >= 0 &&
    weights.every((w) => w >= 0 && Number.isFinite(w)) &&
    (n === 0 || weights.some((w) => w > 0));
}

/**
 * `resamples` draws of `multinomial(prng, n, weights)`, resample b's count
 * of category i at `b * m + i`, as sampling.ts draws them one after another,
 * and `prng` moved on as far as they took it. Null, with `prng` untouched,
 * for a generator not made by seededPrng, an n that is not a whole number
 * >= 0, a weight that is not finite and >= 0, or weights that are all 0
 * while n > 0 (the JavaScript draws, or refuses, those).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { multinomial, seededPrng } from "./sampling.ts";
 * import { multinomialDraws } from "./_sampling_wasm.ts";
 *
 * const js = seededPrng(2);
 * const out = multinomialDraws(seededPrng(2), 100, [50, 30, 20], 2)!;
 * assert.deepEqual([...out], [...multinomial(js, 100, [50, 30, 20]), ...multinomial(js, 100, [50, 30, 20])]);
 * ```
 */
export function multinomialDraws(
  prng: Prng,
  n: number,
  weights: readonly number[],
  resamples: number,
): Float64Array | null {
  if (!drawable(n, weights)) return null;
  const m = weights.length;
  const at = INPUTS + 8 * m;
  const end = at + 8 * m * resamples;
  let out: Float64Array | null = null;
  withState(prng, end, ({ memory, multinomials }) => {
    new Float64Array(memory.buffer, INPUTS, m).set(weights);
    multinomials(n, INPUTS, m, resamples, at);
    out = new Float64Array(memory.buffer.slice(at, end));
  });
  return out;
}

/**
 * For each of `resamples` draws of `multinomial(prng, n, weights)` (as
 * {@linkcode multinomialDraws} draws them), each ratio j's value
 * Σ num[j]·count / Σ den[j]·count, summed in category order as
 * bootstrap.ts's ratioOf sums it: resample b's value of ratio j at
 * `b * ratios + j`, NaN where the denominator is 0. Null, with `prng`
 * untouched, where multinomialDraws gives null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seededPrng } from "./sampling.ts";
 * import { multinomialDraws, multinomialRatios } from "./_sampling_wasm.ts";
 *
 * const counts = multinomialDraws(seededPrng(2), 100, [50, 50], 1)!;
 * const [share] = multinomialRatios(seededPrng(2), 100, [50, 50], 1,
 *   [Float64Array.of(1, 0)], [Float64Array.of(1, 1)])!;
 * assert.equal(share, counts[0] / 100);
 * ```
 */
export function multinomialRatios(
  prng: Prng,
  n: number,
  weights: readonly number[],
  resamples: number,
  num: readonly Float64Array[],
  den: readonly Float64Array[],
): Float64Array | null {
  if (!drawable(n, weights)) return null;
  const m = weights.length;
  const k = num.length;
  if (den.length !== k || [...num, ...den].some((a) => a.length !== m)) {
    throw new RangeError(
      `multinomialRatios: ${k} numerators and ${den.length} denominators of ${m} weights each expected`,
    );
  }
  // weights, numerators, denominators, counts, values
  const numAt = INPUTS + 8 * m;
  const denAt = numAt + 8 * k * m;
  const countsAt = denAt + 8 * k * m;
  const valuesAt = countsAt + 8 * m * resamples;
  const end = valuesAt + 8 * k * resamples;
  let out: Float64Array | null = null;
  withState(prng, end, ({ memory, multinomials, ratios }) => {
    new Float64Array(memory.buffer, INPUTS, m).set(weights);
    num.forEach((a, j) =>
      new Float64Array(memory.buffer, numAt + 8 * j * m, m).set(a)
    );
    den.forEach((a, j) =>
      new Float64Array(memory.buffer, denAt + 8 * j * m, m).set(a)
    );
    multinomials(n, INPUTS, m, resamples, countsAt);
    ratios(countsAt, resamples, m, numAt, denAt, k, valuesAt);
    out = new Float64Array(memory.buffer.slice(valuesAt, end));
  });
  return out;
}
