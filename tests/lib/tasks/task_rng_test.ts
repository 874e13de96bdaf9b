import assert from "node:assert/strict";
import {
  chance,
  drawInt,
  pick,
  pickWeighted,
  taskRng,
  taskRngs,
} from "../../../lib/tasks/mod.ts";

// A from-scratch 64-bit xoroshiro128+ written from the recipe in task_rng.ts,
// with BigInt arithmetic: what another language would write.
const MASK = (1n << 64n) - 1n;
const rotl = (x: bigint, k: bigint) => ((x << k) | (x >> (64n - k))) & MASK;
class Reference {
  s0: bigint;
  s1: bigint;
  constructor(seed: number) {
    const lo = BigInt((~seed) >>> 0);
    this.s0 = (0xffff_ffffn << 32n) | lo;
    this.s1 = BigInt(seed >>> 0) << 32n;
  }
  next(): number {
    const out = Number(BigInt.asIntN(32, (this.s0 + this.s1) & 0xffff_ffffn));
    const s1 = this.s1 ^ this.s0;
    this.s0 = rotl(this.s0, 24n) ^ s1 ^ ((s1 << 16n) & MASK);
    this.s1 = rotl(s1, 37n);
    return out;
  }
  jump(): void {
    let t0 = 0n;
    let t1 = 0n;
    for (const word of [0xdf900294d8f554a5n, 0x170865df4b3201fcn]) {
      for (let b = 0n; b < 64n; b++) {
        if ((word >> b) & 1n) {
          t0 ^= this.s0;
          t1 ^= this.s1;
        }
        this.next();
      }
    }
    this.s0 = t0;
    this.s1 = t1;
  }
  /** Recipe step 3. */
  int(min: number, max: number): number {
    const r = max - min + 1;
    const limit = r > 2 ? Math.floor(2 ** 32 / r) * r : 2 ** 32;
    let v = this.next() + 2 ** 31;
    while (v >= limit) v = this.next() + 2 ** 31;
    return min + (v % r);
  }
}

Deno.test("taskRng() follows the documented recipe bit for bit (independent BigInt xoroshiro128+)", () => {
  for (
    const [seed, index] of [[7, 0], [7, 3], [0, 0], [4_294_967_295, 2], [
      2026,
      10,
    ]]
  ) {
    const ref = new Reference(seed);
    for (let i = 0; i <= index; i++) ref.jump();
    const rng = taskRng(seed, index);
    for (let k = 0; k < 50; k++) {
      assert.equal(
        rng.next(),
        ref.next(),
        `seed ${seed} index ${index} draw ${k}`,
      );
    }
    for (
      const [lo, hi] of [[0, 999], [1, 6], [10, 10], [0, 1], [-5, 5], [
        0,
        2 ** 32 - 1,
      ]]
    ) {
      assert.equal(
        drawInt(rng, lo, hi),
        ref.int(lo, hi),
        `drawInt(${lo}, ${hi})`,
      );
    }
  }
});

Deno.test("taskRng() pins the first draws of seed 7, task 0", () => {
  const rng = taskRng(7, 0);
  assert.deepEqual(rng.getState(), [
    -106841878,
    1348844384,
    -2137308517,
    -754255003,
  ]);
  assert.deepEqual([rng.next(), rng.next(), rng.next()], [
    594589381,
    -890032147,
    881604065,
  ]);
});

Deno.test("taskRngs() yields the same streams as taskRng() for each index", () => {
  const it = taskRngs(11);
  for (let i = 0; i < 20; i++) {
    assert.deepEqual(it.next().value.getState(), taskRng(11, i).getState());
  }
});

Deno.test("taskRng() refuses seeds and indices outside their ranges", () => {
  assert.throws(() => taskRng(-1, 0), {
    name: "RangeError",
    message: /seed must be an integer in \[0, 4294967295\], got -1/,
  });
  assert.throws(() => taskRng(2 ** 32, 0), RangeError);
  assert.throws(() => taskRng(1.5, 0), RangeError);
  assert.throws(() => taskRng(1, -1), {
    name: "RangeError",
    message: /index must be an integer >= 0, got -1/,
  });
});

Deno.test("chance(), pick() and pickWeighted() map draws as documented", () => {
  const ref = new Reference(5);
  ref.jump();
  const rng = taskRng(5, 0);
  assert.equal(chance(rng, 300), ref.int(0, 999) < 300);
  assert.equal(pick(rng, ["a", "b", "c"]), ["a", "b", "c"][ref.int(0, 2)]);
  const x = ref.int(0, 9);
  assert.equal(pickWeighted(rng, [2, 3, 5]), x < 2 ? 0 : x < 5 ? 1 : 2);
  // frequencies follow the weights
  const counts = [0, 0, 0];
  const r = taskRng(6, 0);
  for (let i = 0; i < 20_000; i++) counts[pickWeighted(r, [1, 0, 3])]++;
  assert.equal(counts[1], 0);
  assert.ok(Math.abs(counts[2] / 20_000 - 0.75) < 0.02);
});
