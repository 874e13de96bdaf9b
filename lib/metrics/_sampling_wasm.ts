// Private: lossPosterior's Dirichlet draws in WebAssembly
// (_sampling_wasm.wat): the same generator sequence, the same gamma draws
// and the same shares, double for double, as the JavaScript loop, from a
// generator made by seededPrng; a property test compares the two.

import { SAMPLING_WASM_BASE64 } from "./_sampling_wasm_bytes.ts";
import { type Prng, withGeneratorState } from "./sampling.ts";

const PAGE = 65536;
const SHAPES = 0x10;

interface Sampler {
  readonly memory: WebAssembly.Memory;
  readonly dirichlet: (
    shapes: number,
    m: number,
    draws: number,
    out: number,
  ) => void;
}

let sampler: Sampler | null = null;

function instance(): Sampler {
  if (sampler !== null) return sampler;
  const module = new WebAssembly.Module(
    Uint8Array.from(atob(SAMPLING_WASM_BASE64), (c) => c.charCodeAt(0)),
  );
  // the engine's own functions, so that every value is the one JavaScript
  // computes
  const math = { log: Math.log, cos: Math.cos, pow: Math.pow };
  const e = new WebAssembly.Instance(module, { math }).exports;
  sampler = {
    memory: e.memory as WebAssembly.Memory,
    dirichlet: e.dirichlet as Sampler["dirichlet"],
  };
  return sampler;
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
  let out: Float64Array | null = null;
  withGeneratorState(prng, (state) => {
    const { memory, dirichlet } = instance();
    const at = SHAPES + 8 * m;
    const need = at + 8 * m * draws;
    if (need > memory.buffer.byteLength) {
      memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
    }
    // pure-rand's words (s01, s00, s11, s10) as the module's two 64-bit
    // words, low word first
    const words = new Int32Array(memory.buffer, 0, 4);
    words.set([state[1], state[0], state[3], state[2]]);
    new Float64Array(memory.buffer, SHAPES, m).set(shapes);
    dirichlet(SHAPES, m, draws, at);
    out = new Float64Array(memory.buffer.slice(at, need));
    const after = new Int32Array(memory.buffer, 0, 4);
    return [after[1], after[0], after[3], after[2]];
  });
  return out;
}
