import assert from "node:assert/strict";
import { runReadOnly } from "../../_helpers.ts";
import fc from "fast-check";
import {
  KeyPartitions,
  partitionKeys,
  RepeatTable,
} from "../../../lib/read/_key_partitions.ts";

// a file's keys as segments of (h1, h2) pairs
const segmentsArb = fc.array(
  fc.array(
    // few distinct hashes, so that repeats are common; any 32-bit values
    fc.tuple(
      fc.oneof(fc.constantFrom(0, -1, 1 << 31, 7), fc.integer()),
      fc.constantFrom(0, 1, -5),
    ),
    { maxLength: 30 },
  ),
  { maxLength: 6 },
);

// the oracle: every (h1, h2) seen more than once, as the words of a key
// (h2 then h1 on a little-endian machine, as the keys are stored)
const HI = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 1 : 0;
function oracle(segments: Array<Array<[number, number]>>): string[] {
  const count = new Map<string, number>();
  for (const seg of segments) {
    for (const [h1, h2] of seg) {
      const words = HI === 1 ? [h2 >>> 0, h1 >>> 0] : [h1 >>> 0, h2 >>> 0];
      const k = words.join(",");
      count.set(k, (count.get(k) ?? 0) + 1);
    }
  }
  return [...count].filter(([, n]) => n > 1).map(([k]) => k).sort();
}

// repeats() as "w0,w1" strings
function pairs(words: Uint32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 2) {
    out.push(`${words[i]},${words[i + 1]}`);
  }
  return out.sort();
}

Deno.test("KeyPartitions.repeats() lists exactly the keys seen twice or more, each once, in memory or spilled, at any partition count (property)", async () => {
  await fc.assert(
    fc.asyncProperty(
      segmentsArb,
      fc.constantFrom(Infinity, 0, 1, 5),
      fc.constantFrom(0, 1, 3, 6),
      async (segments, memoryKeys, bits) => {
        using keys = new KeyPartitions({ memoryKeys, bits });
        for (const seg of segments) {
          const h1 = new Int32Array(seg.map((k) => k[0]));
          const h2 = new Int32Array(seg.map((k) => k[1]));
          keys.add(partitionKeys(h1, h2, seg.length, bits));
        }
        assert.deepEqual(pairs(await keys.repeats()), oracle(segments));
        // a second call gives the same (the table is reused)
        assert.deepEqual(pairs(await keys.repeats()), oracle(segments));
        const total = segments.reduce((s, g) => s + g.length, 0);
        assert.equal(keys.spilled, memoryKeys < total);
      },
    ),
    { seed: 20261201, numRuns: 150 },
  );
});

Deno.test("RepeatTable, reused for one set after another, reports only the keys repeated within the current one, at any load (property)", () => {
  const table = new RepeatTable();
  fc.assert(
    fc.property(
      fc.array(
        fc.array(
          fc.tuple(fc.integer({ min: 0, max: 40 }), fc.constantFrom(0, 7)),
          {
            maxLength: 300,
          },
        ),
        { maxLength: 5 },
      ),
      (sets) => {
        for (const set of sets) {
          const words = new Uint32Array(set.flat());
          table.start(set.length);
          // in two calls, as a partition's keys come from several segments
          const half = set.length >> 1;
          table.addAll(words, 0, half);
          table.addAll(words, half, set.length);
          const count = new Map<string, number>();
          for (const [a, b] of set) {
            count.set(`${a},${b}`, (count.get(`${a},${b}`) ?? 0) + 1);
          }
          const want = [...count].filter(([, n]) => n > 1).map(([k]) => k)
            .sort();
          assert.deepEqual(pairs(table.repeats()), want);
        }
      },
    ),
    { seed: 31, numRuns: 300 },
  );
});

Deno.test("partitionKeys() puts each key in the partition of its top bits and keeps the order within a partition", () => {
  const h1 = new Int32Array([-1, 5, 1 << 30, 6, -2]);
  const h2 = new Int32Array([1, 2, 3, 4, 5]);
  const p = partitionKeys(h1, h2, 5, 2);
  // top two bits: 11, 00, 01, 00, 11
  assert.deepEqual([...p.starts], [0, 2, 3, 3, 5]);
  const h2s = [...p.keys].filter((_, i) => i % 2 === 1 - HI);
  assert.deepEqual(h2s, [2, 4, 3, 1, 5]);
  // only the first n keys count
  const q = partitionKeys(h1, h2, 2, 2);
  assert.deepEqual([...q.starts], [0, 1, 1, 1, 2]);
  assert.deepEqual([...q.keys].filter((_, i) => i % 2 === 1 - HI), [2, 1]);
});

Deno.test("KeyPartitions refuses a segment made with other partition bits", () => {
  using keys = new KeyPartitions({ bits: 3 });
  const p = partitionKeys(new Int32Array(1), new Int32Array(1), 1, 2);
  assert.throws(() => keys.add(p), /4 partitions, not 8/);
});

Deno.test("KeyPartitions removes its spill folder on dispose", async () => {
  const dir = await Deno.makeTempDir();
  try {
    {
      using keys = new KeyPartitions({ memoryKeys: 0, tempDir: dir });
      keys.add(
        partitionKeys(new Int32Array([1, 1]), new Int32Array([2, 2]), 2),
      );
      assert.equal(keys.spilled, true);
      assert.equal([...Deno.readDirSync(dir)].length, 1);
      assert.deepEqual(pairs(await keys.repeats()), oracle([[[1, 2], [1, 2]]]));
    }
    assert.equal([...Deno.readDirSync(dir)].length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("without write access KeyPartitions keeps every key in memory instead of spilling, and still finds the repeat", async () => {
  const module =
    new URL("../../../lib/read/_key_partitions.ts", import.meta.url)
      .href;
  const script = `
    import { KeyPartitions, partitionKeys } from ${JSON.stringify(module)};
    using keys = new KeyPartitions({ memoryKeys: 1 });
    for (const h of [[1, 2, 3], [4, 2]]) {
      keys.add(partitionKeys(new Int32Array(h), new Int32Array(h.length), h.length));
    }
    console.log(JSON.stringify({ repeats: [...await keys.repeats()], spilled: keys.spilled }));
  `;
  assert.deepEqual(await runReadOnly(script), {
    repeats: HI === 1 ? [0, 2] : [2, 0], // h1 2, h2 0
    spilled: false,
  });
});
