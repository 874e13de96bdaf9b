import assert from "node:assert/strict";
import { runReadOnly } from "../../_helpers.ts";
import fc from "fast-check";
import {
  DecisionKeySet,
  type KeyDuplicate,
  MAX_SPILL_OFFSET,
} from "../../../lib/read/_key_spill.ts";
import { KeyHasher } from "../../../lib/read/_decision_scan.ts";

// the two key hashes the JSONL readers give the set
const hasher = new KeyHasher();
function keyHash(r: string, m: string, t: string, trial: number): number {
  hasher.ofStrings(r, m, t, trial);
  return hasher.h1;
}
function keyHash2(r: string, m: string, t: string, trial: number): number {
  hasher.ofStrings(r, m, t, trial);
  return hasher.h2;
}

const SEED = 20261201;

const mask = (bits: number[]) => bits.reduce((m, b) => m | (1 << b), 0);

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names;
}

Deno.test("DecisionKeySet with tiny memory and 0-3 bit hashes gives a plain Map's first duplicate, in add before spilling and in firstDuplicate(limit) after, and leaves no file behind", async () => {
  const parent = await Deno.makeTempDir({ prefix: "key-spill-test-" });
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          // 0 to 3 hash bits kept, anywhere in the word, so the radix
          // sort's every digit matters and most distinct keys collide
          bits1: fc.uniqueArray(fc.integer({ min: 0, max: 31 }), {
            maxLength: 3,
          }),
          bits2: fc.uniqueArray(fc.integer({ min: 0, max: 31 }), {
            maxLength: 3,
          }),
          memoryKeys: fc.oneof(
            fc.integer({ min: 0, max: 8 }),
            fc.constant(Infinity),
          ),
          partitions: fc.constantFrom(1, 2, 4, 16),
          bufferRecords: fc.integer({ min: 1, max: 4 }),
          steps: fc.array(
            fc.record({
              key: fc.integer({ min: 0, max: 30 }),
              gap: fc.oneof(
                fc.integer({ min: 1, max: 300 }),
                fc.integer({ min: 1, max: 2 ** 38 }),
              ),
              // ask for the first duplicate before this line, as a reader
              // does before it reports another error on the line
              check: fc.boolean(),
            }),
            { maxLength: 120 },
          ),
          limits: fc.array(fc.double({ min: 0, max: 2 ** 46, noNaN: true }), {
            maxLength: 3,
          }),
        }),
        async (c) => {
          const keyAt = new Map<number, string>();
          const hashes = (k: string) =>
            [
              keyHash("r", "m", k, 0) & mask(c.bits1),
              keyHash2("r", "m", k, 0) & mask(c.bits2),
            ] as const;
          const same = (a: number, b: number) => {
            const ka = keyAt.get(a);
            const kb = keyAt.get(b);
            assert.ok(ka !== undefined && kb !== undefined, "same() of a line");
            assert.deepEqual(hashes(ka), hashes(kb), "same() on a hash match");
            return ka === kb;
          };
          const first = new Map<string, number>();
          // the oracle: the first line whose key was seen before
          let want: KeyDuplicate | null = null;
          const upTo = (limit: number) =>
            want !== null && want.offset < limit ? want : null;
          {
            using set = new DecisionKeySet({
              memoryKeys: c.memoryKeys,
              partitions: c.partitions,
              bufferBytes: 16 * c.bufferRecords,
              tempDir: parent,
            });
            let offset = 0;
            for (const { key, gap, check } of c.steps) {
              offset += gap;
              if (check) {
                assert.deepEqual(
                  await set.firstDuplicate(offset, same),
                  upTo(offset),
                );
              }
              const k = `t${key}`;
              keyAt.set(offset, k);
              const [h1, h2] = hashes(k);
              const got = set.add(h1, h2, offset, same);
              const earlier = first.get(k) ?? -1;
              if (earlier < 0) first.set(k, offset);
              else want ??= { offset, earlier };
              // before spilling add answers as the Map does; after, never
              assert.equal(got, set.spilled ? -1 : earlier);
              assert.equal(
                set.spilled,
                c.memoryKeys < first.size,
                "spilled exactly when the distinct keys pass memoryKeys",
              );
            }
            for (const limit of [...c.limits, offset, offset + 1, Infinity]) {
              assert.deepEqual(
                await set.firstDuplicate(limit, same),
                upTo(limit),
              );
            }
          }
          assert.deepEqual(await entries(parent), []);
        },
      ),
      { seed: SEED, numRuns: 250 },
    );
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("DecisionKeySet firstDuplicate() separates distinct keys that share a 64-bit hash run, and takes the smallest repeating offset across partitions", async () => {
  // keys at offsets 0..9; a, b, c share one hash, d another partition
  const keys = ["a", "b", "c", "d", "x", "c", "b", "d", "a", "y"];
  const hashes: Record<string, [number, number]> = {
    a: [5, 1],
    b: [5, 1],
    c: [5, 1],
    d: [9, 2],
    x: [1, 3],
    y: [1, 3],
  };
  const calls: Array<[number, number]> = [];
  const same = (p: number, q: number) => {
    calls.push([p, q]);
    return keys[p] === keys[q];
  };
  using set = new DecisionKeySet({ memoryKeys: 0, partitions: 4 });
  keys.forEach((k, i) => assert.equal(set.add(...hashes[k], i, same), -1));
  assert.equal(calls.length, 0);
  assert.deepEqual(await set.firstDuplicate(Infinity, same), {
    offset: 5,
    earlier: 2,
  });
  // only equal-hash lines were compared
  for (const [p, q] of calls) {
    assert.deepEqual(hashes[keys[p]], hashes[keys[q]]);
  }
  assert.deepEqual(await set.firstDuplicate(5, same), null);
  // one h1, two h2: the later-sorted h2 holds the earlier duplicate
  const twins = ["p", "q", "q", "p", "p"];
  const twinHash: Record<string, [number, number]> = { p: [5, 1], q: [5, 2] };
  const twinSame = (a: number, b: number) => twins[a] === twins[b];
  using both = new DecisionKeySet({ memoryKeys: 1, partitions: 1 });
  twins.forEach((k, i) => both.add(...twinHash[k], i, twinSame));
  assert.deepEqual(await both.firstDuplicate(Infinity, twinSame), {
    offset: 2,
    earlier: 1,
  });
});

Deno.test("DecisionKeySet with default partitions spills past memoryKeys and finds the one duplicate among 20,000 keys, offsets past 2^32 kept exactly", async () => {
  const parent = await Deno.makeTempDir({ prefix: "key-spill-test-" });
  try {
    const n = 20_000;
    const step = 2 ** 33 + 7;
    // key i at offset i * step; line 15,000 repeats the key of line 1,234
    const keyOf = (offset: number) => {
      const i = offset / step;
      return i === 15_000 ? 1_234 : i;
    };
    const same = (a: number, b: number) => keyOf(a) === keyOf(b);
    {
      using set = new DecisionKeySet({ memoryKeys: 1000, tempDir: parent });
      for (let i = 0; i < n; i++) {
        const k = keyOf(i * step);
        const h1 = keyHash("r", "m", `t${k}`, 0);
        const h2 = keyHash2("r", "m", `t${k}`, 0);
        assert.equal(set.add(h1, h2, i * step, same), -1);
      }
      assert.equal(set.spilled, true);
      assert.equal(set.size, n);
      assert.deepEqual(await set.firstDuplicate(Infinity, same), {
        offset: 15_000 * step,
        earlier: 1_234 * step,
      });
      assert.equal(await set.firstDuplicate(15_000 * step, same), null);
      // the records spread over the 256 partition files by bits of h2
      const [dir] = await entries(parent);
      assert.equal((await entries(`${parent}/${dir}`)).length, 256);
    }
    assert.deepEqual(await entries(parent), []);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("DecisionKeySet re-reads real JSONL lines with `same` and finds the first duplicate decision of a file, hashes cut to 6 bits", async () => {
  const parent = await Deno.makeTempDir({ prefix: "key-spill-test-" });
  try {
    const path = `${parent}/decisions.jsonl`;
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) {
      lines.push(JSON.stringify({
        runId: `r${i % 3}`,
        modelId: "m",
        taskId: `t${Math.floor(i / 3)}`,
        trial: i % 2,
      }));
    }
    // line 2,500 (0-based 2,499) repeats line 1,000's key, and so does 2,800
    lines[2499] = lines[999];
    lines[2799] = lines[999];
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    using file = await Deno.open(path);
    const lineAt = (offset: number): string => {
      const buf = new Uint8Array(256);
      file.seekSync(offset, Deno.SeekMode.Start);
      const n = file.readSync(buf) ?? 0;
      const text = new TextDecoder().decode(buf.subarray(0, n));
      return text.slice(0, text.indexOf("\n"));
    };
    const keyOf = (offset: number) => {
      const d = JSON.parse(lineAt(offset));
      return [d.runId, d.modelId, d.taskId, d.trial] as const;
    };
    const same = (a: number, b: number) =>
      keyOf(a).every((v, i) => v === keyOf(b)[i]);
    const offsets: number[] = [];
    let at = 0;
    for (const line of lines) {
      offsets.push(at);
      at += new TextEncoder().encode(line).length + 1;
    }
    for (const memoryKeys of [Infinity, 500]) {
      using set = new DecisionKeySet({ memoryKeys, tempDir: parent });
      let inAdd = -1;
      for (const [i, offset] of offsets.entries()) {
        const [r, m, t, trial] = keyOf(offset);
        const got = set.add(
          keyHash(r, m, t, trial) & 63,
          keyHash2(r, m, t, trial) & 63,
          offset,
          same,
        );
        if (got >= 0) {
          inAdd = i;
          assert.equal(got, offsets[999]);
          break;
        }
      }
      const dup = await set.firstDuplicate(Infinity, same);
      assert.deepEqual(dup, { offset: offsets[2499], earlier: offsets[999] });
      assert.equal(inAdd, set.spilled ? -1 : 2499);
      assert.equal(set.spilled, memoryKeys === 500);
    }
    assert.deepEqual(await entries(parent), ["decisions.jsonl"]);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("DecisionKeySet removes its spill files on dispose when `same` throws during the search", async () => {
  const parent = await Deno.makeTempDir({ prefix: "key-spill-test-" });
  try {
    const search = async () => {
      using set = new DecisionKeySet({ memoryKeys: 1, tempDir: parent });
      for (let i = 0; i < 10; i++) set.add(1, 1, i, () => false);
      assert.equal((await entries(parent)).length, 1);
      await set.firstDuplicate(Infinity, () => {
        throw new Error("line unreadable");
      });
    };
    await assert.rejects(search, { message: "line unreadable" });
    assert.deepEqual(await entries(parent), []);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("DecisionKeySet refuses offsets that do not increase or pass 2^48, bad options, and use after dispose", async () => {
  const set = new DecisionKeySet({ memoryKeys: 2 });
  assert.equal(set.add(0, 0, 10, () => false), -1);
  for (const bad of [10, 9, -1, 10.5, Number.NaN, MAX_SPILL_OFFSET]) {
    assert.throws(() => set.add(0, 0, bad, () => false), RangeError);
  }
  assert.equal(set.add(0, 1, MAX_SPILL_OFFSET - 1, () => false), -1);
  await assert.rejects(() => set.firstDuplicate(-1, () => false), RangeError);
  set[Symbol.dispose]();
  set[Symbol.dispose]();
  assert.throws(() => set.add(0, 0, 2 ** 49, () => false), TypeError);
  await assert.rejects(() => set.firstDuplicate(1, () => false), TypeError);
  for (
    const options of [
      { memoryKeys: -1 },
      { memoryKeys: 1.5 },
      { partitions: 3 },
      { partitions: 2 ** 17 },
      { bufferBytes: 24 },
      { bufferBytes: 0 },
    ]
  ) {
    assert.throws(() => new DecisionKeySet(options), RangeError);
  }
});

Deno.test("the readers' two key hashes separate the key parts and the trial, and give 100,000 keys distinct 64-bit hashes", () => {
  assert.notEqual(keyHash2("a", "bc", "d", 0), keyHash2("ab", "c", "d", 0));
  assert.notEqual(keyHash("a", "bc", "d", 0), keyHash("ab", "c", "d", 0));
  assert.notEqual(keyHash2("a", "b", "c", 0), keyHash2("a", "b", "c", 1));
  assert.notEqual(
    keyHash2("a", "b", "c", 1),
    keyHash2("a", "b", "c", 2 ** 32 + 1),
  );
  const seen = new Set<string>();
  for (let i = 0; i < 100_000; i++) {
    const t = `task-${i}`;
    seen.add(`${keyHash("run", "m", t, 0)},${keyHash2("run", "m", t, 0)}`);
  }
  assert.equal(seen.size, 100_000);
});

Deno.test("without write access DecisionKeySet keeps every key in memory instead of spilling, and still finds the repeat", async () => {
  const module = new URL("../../../lib/read/_key_spill.ts", import.meta.url)
    .href;
  const script = `
    import { DecisionKeySet } from ${JSON.stringify(module)};
    using set = new DecisionKeySet({ memoryKeys: 2 });
    const keys = [1, 2, 3, 4, 5, 3];
    const same = (a, b) => keys[a] === keys[b];
    const found = keys.map((k, i) => set.add(k, k * 7, i, same));
    console.log(JSON.stringify({ found, spilled: set.spilled, size: set.size }));
  `;
  assert.deepEqual(await runReadOnly(script), {
    found: [-1, -1, -1, -1, -1, 2],
    spilled: false,
    size: 5,
  });
});
