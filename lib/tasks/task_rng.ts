/**
 * Seeded, portable randomness for task generation, on pure-rand's
 * xoroshiro128+.
 *
 * The byte-exact recipe, so another language can reproduce a suite:
 *
 * 1. **Generator.** xoroshiro128+ (shifts 24, 16, 37) on a 128-bit state held
 *    as four signed 32-bit words `(s0hi, s0lo, s1hi, s1lo)`. Seeding with a
 *    32-bit suite seed `s` sets `s0hi = -1`, `s0lo = ~s`, `s1hi = s`,
 *    `s1lo = 0`. Each draw returns the low 32 bits of `s0 + s1` (64-bit sum)
 *    as a signed integer, then advances the state (pure-rand 8.4
 *    `xoroshiro128plus`).
 * 2. **Per-task stream.** Task `i` of suite seed `s` uses the suite generator
 *    after `i + 1` calls of `jump()` (each jump advances 2^64 draws, with the
 *    standard xoroshiro128+ jump polynomial). Streams of different tasks never
 *    overlap, and task `i` depends only on `(s, i)`: a suite of n tasks is the
 *    n-prefix of any longer suite with the same seed.
 * 3. **Integer in [min, max].** pure-rand `uniformInt`: with `r = max - min + 1`
 *    (at most 2^32), take `v = draw + 2^31` (so `v` is in [0, 2^32)); reject and
 *    redraw while `v >= floor(2^32 / r) * r` (when `r <= 2` nothing is
 *    rejected); return `min + v mod r`.
 * 4. **Chance of p/1000.** `drawInt(0, 999) < p`. Difficulty is held in
 *    thousandths, so "with probability difficulty" is exact.
 * 5. **Weighted choice.** Integer weights `w`; `x = drawInt(0, sum(w) - 1)`;
 *    the first index whose running sum exceeds `x`. A share such as 0.3 becomes
 *    the weight `round(0.3 * 1e6)`.
 * 6. **Pick from a list.** `list[drawInt(0, length - 1)]`.
 *
 * @module
 */

import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

/** A mutable 32-bit generator, as pure-rand defines it. */
export interface TaskRng {
  /** Next draw, a signed 32-bit integer. */
  next(): number;
  /** Independent copy. */
  clone(): TaskRng;
  /** Read-only view of the state words. */
  getState(): readonly number[];
}

/**
 * The largest suite seed: seeds are unsigned 32-bit integers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MAX_SEED, taskRng } from "./task_rng.ts";
 *
 * assert.equal(MAX_SEED, 2 ** 32 - 1);
 * assert.throws(() => taskRng(MAX_SEED + 1, 0), RangeError);
 * ```
 */
export const MAX_SEED = 0xffff_ffff;

function checkSeed(seed: number): void {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new RangeError(
      `Cannot seed a task stream: seed must be an integer in [0, ${MAX_SEED}], got ${seed}`,
    );
  }
}

/**
 * Yield the per-task generators of a suite, task 0 first.
 *
 * Each generator is independent (its own 2^64-long stretch of the
 * sequence). Cost is one jump (128 state steps) per task.
 *
 * @param seed Suite seed, an integer in [0, 2^32 - 1].
 * @returns An endless iterator of generators.
 * @throws {RangeError} When `seed` is not such an integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { taskRng, taskRngs } from "./task_rng.ts";
 *
 * const it = taskRngs(7);
 * it.next();
 * const second = it.next().value!;
 * assert.deepEqual(second.getState(), taskRng(7, 1).getState());
 * ```
 */
export function* taskRngs(seed: number): Generator<TaskRng, never> {
  checkSeed(seed);
  const suite = xoroshiro128plus(seed | 0);
  while (true) {
    suite.jump();
    yield suite.clone() as TaskRng;
  }
}

/**
 * Give the generator of task `index` of a suite.
 *
 * @param seed Suite seed, an integer in [0, 2^32 - 1].
 * @param index Task index, an integer >= 0. Cost is O(index) jumps.
 * @returns The task's generator.
 * @throws {RangeError} When `seed` or `index` is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drawInt, taskRng } from "./task_rng.ts";
 *
 * assert.equal(drawInt(taskRng(7, 3), 1, 6), drawInt(taskRng(7, 3), 1, 6));
 * ```
 */
export function taskRng(seed: number, index: number): TaskRng {
  if (!Number.isInteger(index) || index < 0) {
    throw new RangeError(
      `Cannot seed a task stream: index must be an integer >= 0, got ${index}`,
    );
  }
  const it = taskRngs(seed);
  for (let i = 0; i < index; i++) it.next();
  return it.next().value;
}

/**
 * Draw an integer uniformly from [min, max] (recipe step 3).
 *
 * @param rng A task generator; it advances.
 * @param min Smallest value, an integer.
 * @param max Largest value, an integer with `max - min < 2^32`.
 * @returns The integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drawInt, taskRng } from "./task_rng.ts";
 *
 * const x = drawInt(taskRng(1, 0), 10, 12);
 * assert.ok(x >= 10 && x <= 12);
 * ```
 */
export function drawInt(rng: TaskRng, min: number, max: number): number {
  // deno-lint-ignore no-explicit-any
  return uniformInt(rng as any, min, max);
}

/**
 * Draw `true` with probability `milli / 1000` (recipe step 4).
 *
 * @param rng A task generator; it advances.
 * @param milli Probability in thousandths, 0 to 1000.
 * @returns The outcome.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chance, taskRng } from "./task_rng.ts";
 *
 * assert.equal(chance(taskRng(1, 0), 0), false);
 * assert.equal(chance(taskRng(1, 0), 1000), true);
 * ```
 */
export function chance(rng: TaskRng, milli: number): boolean {
  return drawInt(rng, 0, 999) < milli;
}

/**
 * Pick one element of a non-empty list uniformly (recipe step 6).
 *
 * @param rng A task generator; it advances.
 * @param list The choices.
 * @returns One of them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pick, taskRng } from "./task_rng.ts";
 *
 * assert.ok(["a", "b"].includes(pick(taskRng(1, 0), ["a", "b"])));
 * ```
 */
export function pick<T>(rng: TaskRng, list: readonly T[]): T {
  return list[drawInt(rng, 0, list.length - 1)];
}

/**
 * Pick an index with probability proportional to integer weights (recipe
 * step 5).
 *
 * @param rng A task generator; it advances.
 * @param weights Non-negative integers with a positive sum.
 * @returns The chosen index.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pickWeighted, taskRng } from "./task_rng.ts";
 *
 * assert.equal(pickWeighted(taskRng(1, 0), [0, 5, 0]), 1);
 * ```
 */
export function pickWeighted(rng: TaskRng, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  const x = drawInt(rng, 0, total - 1);
  let run = 0;
  for (let i = 0; i < weights.length; i++) {
    run += weights[i];
    if (x < run) return i;
  }
  return weights.length - 1;
}
