import assert from "node:assert/strict";
import { runReadOnly } from "../../_helpers.ts";
import fc from "fast-check";
import {
  KeyPartitions,
  partitionKeys,
  repeatedPairs,
} from "../../../lib/runs/_key_partitions.ts";

// a file's keys as segments of (h1, h2) pairs; the offset of a key is its
// position in the whole file
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

// the oracle: offsets of every (h1, h2) seen more than once
function oracle(segments: Array<Array<[number, number]>>): string[] {
  const at = new Map<string, number[]>();
  let offset = 0;
  for (const seg of segments) {
    for (const [h1, h2] of seg) {
      const k = `${h1 >>> 0},${h2 >>> 0}`;
      at.set(k, [...(at.get(k) ?? []), offset++]);
    }
  }
  return [...at.values()].filter((o) => o.length > 1).map((o) =>
    JSON.stringify(o)
  ).sort();
}

Deno.test("KeyPartitions.repeats() lists exactly the keys seen twice or more, with all their offsets, in memory or spilled, at any partition count, with half of the partitions sorted elsewhere or not (property)", async () => {
  await fc.assert(
    fc.asyncProperty(
      segmentsArb,
      fc.constantFrom(Infinity, 0, 1, 5),
      fc.constantFrom(0, 1, 3, 6),
      async (segments, memoryKeys, bits) => {
        using keys = new KeyPartitions({ memoryKeys, bits });
        let offset = 0;
        for (const seg of segments) {
          const h1 = new Int32Array(seg.map((k) => k[0]));
          const h2 = new Int32Array(seg.map((k) => k[1]));
          const offsets = new Float64Array(seg.map(() => offset++));
          keys.add(partitionKeys(h1, h2, offsets, seg.length, bits));
        }
        const got = (await keys.repeats()).map((o) => JSON.stringify(o))
          .sort();
        assert.deepEqual(got, oracle(segments));
        // half of the partitions sorted elsewhere (as a worker does)
        const split =
          (await keys.repeats((arrays) =>
            Promise.resolve(arrays.map(repeatedPairs))
          )).map(
            (o) => JSON.stringify(o),
          ).sort();
        assert.deepEqual(split, oracle(segments));
        const total = segments.reduce((s, g) => s + g.length, 0);
        assert.equal(keys.spilled, memoryKeys < total);
      },
    ),
    { seed: 20261201, numRuns: 150 },
  );
});

Deno.test("partitionKeys() puts each key in the partition of its top bits and keeps the order within a partition", () => {
  const h1 = new Int32Array([-1, 5, 1 << 30, 6, -2]);
  const h2 = new Int32Array([1, 2, 3, 4, 5]);
  const p = partitionKeys(h1, h2, new Float64Array([10, 20, 30, 40, 50]), 5, 2);
  // top two bits: 11, 00, 01, 00, 11
  assert.deepEqual([...p.starts], [0, 2, 3, 3, 5]);
  assert.deepEqual([...p.offsets], [20, 40, 30, 10, 50]);
  // only the first n keys count
  const q = partitionKeys(h1, h2, new Float64Array([10, 20, 30, 40, 50]), 2, 2);
  assert.deepEqual([...q.offsets], [20, 10]);
});

Deno.test("KeyPartitions refuses a segment made with other partition bits", () => {
  using keys = new KeyPartitions({ bits: 3 });
  const p = partitionKeys(
    new Int32Array(1),
    new Int32Array(1),
    new Float64Array(1),
    1,
    2,
  );
  assert.throws(() => keys.add(p), /4 partitions, not 8/);
});

Deno.test("KeyPartitions removes its spill folder on dispose", async () => {
  const dir = await Deno.makeTempDir();
  try {
    {
      using keys = new KeyPartitions({ memoryKeys: 0, tempDir: dir });
      keys.add(
        partitionKeys(
          new Int32Array([1, 1]),
          new Int32Array([2, 2]),
          new Float64Array([0, 9]),
          2,
        ),
      );
      assert.equal(keys.spilled, true);
      assert.equal([...Deno.readDirSync(dir)].length, 1);
      assert.deepEqual(await keys.repeats(), [[0, 9]]);
    }
    assert.equal([...Deno.readDirSync(dir)].length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("without write access KeyPartitions keeps every key in memory instead of spilling, and still finds the repeat", async () => {
  const module =
    new URL("../../../lib/runs/_key_partitions.ts", import.meta.url)
      .href;
  const script = `
    import { KeyPartitions, partitionKeys } from ${JSON.stringify(module)};
    using keys = new KeyPartitions({ memoryKeys: 1 });
    for (const [h, o] of [[[1, 2, 3], [0, 10, 20]], [[4, 2], [30, 40]]]) {
      keys.add(partitionKeys(new Int32Array(h), new Int32Array(h.length),
        new Float64Array(o), h.length));
    }
    console.log(JSON.stringify({ repeats: await keys.repeats(), spilled: keys.spilled }));
  `;
  assert.deepEqual(await runReadOnly(script), {
    repeats: [[10, 40]],
    spilled: false,
  });
});
