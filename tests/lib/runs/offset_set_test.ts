import assert from "node:assert/strict";
import fc from "fast-check";
import {
  keyHash,
  MAX_OFFSET,
  OffsetSet,
} from "../../../lib/runs/_offset_set.ts";
import { jsonlStats, jsonlStatsFile } from "../../../lib/runs/jsonl_stats.ts";
import { decision } from "../../_helpers.ts";

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

Deno.test("OffsetSet with a tiny hash (0 to 3 bits) gives a plain Map's verdicts: the first offset of a repeated key, -1 for a new one, offsets past 2^32 kept exactly", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 3 }),
      fc.array(
        fc.record({
          key: fc.integer({ min: 0, max: 40 }),
          gap: fc.oneof(
            fc.integer({ min: 1, max: 300 }),
            fc.integer({ min: 1, max: 2 ** 38 }),
          ),
        }),
        { maxLength: 300 },
      ),
      (bits, steps) => {
        const set = new OffsetSet(2);
        const first = new Map<string, number>();
        const keyAt = new Map<number, string>();
        let offset = 0;
        for (const { key, gap } of steps) {
          offset += gap;
          const k = `t${key}`;
          // the real hash cut to `bits` bits: most distinct keys collide
          const hash = keyHash("r", "m", k, 0) & ((1 << bits) - 1);
          keyAt.set(offset, k);
          const got = set.insertOrFind(hash, offset, (o) => keyAt.get(o) === k);
          const want = first.get(k) ?? -1;
          if (want < 0) first.set(k, offset);
          assert.equal(got, want);
        }
        assert.equal(set.size, first.size);
        assert.ok(set.size * 4 <= set.capacity * 3);
      },
    ),
    { seed: 20261201, numRuns: 300 },
  );
});

Deno.test("OffsetSet refuses an offset it cannot hold, and a capacity that is not a power of two", () => {
  const set = new OffsetSet(4);
  assert.equal(set.insertOrFind(1, MAX_OFFSET - 1, () => false), -1);
  assert.equal(
    set.insertOrFind(1, 7, (o) => o === MAX_OFFSET - 1),
    MAX_OFFSET - 1,
  );
  for (const bad of [-1, 0.5, MAX_OFFSET, Number.NaN]) {
    assert.throws(() => set.insertOrFind(2, bad, () => false), RangeError);
  }
  assert.throws(() => new OffsetSet(12), RangeError);
});

// Two decision keys whose 32-bit keyHash is equal (found by a search over
// task ids t0, t1, ...; the test checks that they still collide).
const TWIN_A = "t92899";
const TWIN_B = "t153044";

Deno.test("JSONL keys with equal hashes are not taken for a duplicate, and a true duplicate of either still names both lines", async () => {
  assert.equal(
    keyHash("r1", "m", TWIN_A, 0),
    keyHash("r1", "m", TWIN_B, 0),
  );
  const line = (taskId: string) => JSON.stringify(decision({ taskId }));
  const ok = [line("t0"), line(TWIN_A), line("t1"), line(TWIN_B)];
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, ok.join("\n") + "\n");
  assert.equal((await jsonlStatsFile(path, { chunkSize: 64 })).decisions, 4);
  assert.equal(jsonlStats(ok.join("\n")).decisions, 4);
  for (const [twin, firstLine] of [[TWIN_A, 2], [TWIN_B, 4]] as const) {
    const text = [...ok, line(twin)].join("\n") + "\n";
    await Deno.writeTextFile(path, text);
    const message =
      `Cannot load run export ${path}: line 5: duplicate decision for runId "r1", modelId "m", taskId "${twin}", trial 0 (first on line ${firstLine})`;
    await assert.rejects(() => jsonlStatsFile(path, { chunkSize: 64 }), {
      name: "RangeError",
      message,
    });
    assert.throws(() => jsonlStats(text, { path }), {
      name: "RangeError",
      message,
    });
  }
  await Deno.remove(path);
});
