import assert from "node:assert/strict";
import { keyHash, OffsetSet } from "../../../lib/runs/_offset_set.ts";

Deno.test("OffsetSet finds equal keys exactly, even when every hash collides", () => {
  const keys = Array.from({ length: 5000 }, (_, i) => `k${i % 4000}`);
  const set = new OffsetSet(4);
  const found: number[] = [];
  keys.forEach((k, offset) => {
    // hash 7 for every key: equality rests on `same` alone
    const earlier = set.insertOrFind(7, offset, (o) => keys[o] === k);
    if (earlier >= 0) found.push(offset - earlier);
  });
  assert.equal(found.length, 1000);
  assert.ok(found.every((d) => d === 4000));
});

Deno.test("keyHash() separates the key parts and the trial", () => {
  assert.notEqual(keyHash("a", "bc", "d", 0), keyHash("ab", "c", "d", 0));
  assert.notEqual(keyHash("a", "b", "c", 0), keyHash("a", "b", "c", 1));
  assert.notEqual(
    keyHash("a", "b", "c", 1),
    keyHash("a", "b", "c", 2 ** 32 + 1),
  );
  assert.equal(keyHash("r", "m", "t", 3), keyHash("r", "m", "t", 3));
});
