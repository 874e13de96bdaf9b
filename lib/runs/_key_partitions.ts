// Private: the duplicate-key check of the parallel JSONL reader. Each
// segment's decision keys arrive as two 32-bit hashes and a line offset,
// already sorted into partitions by the top bits of the first hash
// (partitionKeys, run by the worker that read the segment). The main thread
// keeps whole segments' arrays, with no work per key, or past a memory
// budget appends each partition to its own files; at the end each partition
// is sorted as 64-bit keys (h1, h2) by the engine's native typed-array sort,
// and keys that occur twice are candidates: the caller compares their lines,
// since a hash match never decides.

import { keysTempDir } from "./_key_spill.ts";

/** Partitions are chosen by this many top bits of h1. */
export const KEY_PARTITION_BITS = 6;

/** Keys held in memory before the check goes to disk (16 bytes each). */
export const KEY_MEMORY = 1 << 20;

// a little-endian 64-bit view of (low word, high word) orders by the high
// word first: so a key is stored as (h2, h1) there, (h1, h2) elsewhere
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const HI = LITTLE_ENDIAN ? 1 : 0;
const LO = 1 - HI;

/** One segment's keys, sorted into partitions. */
export interface PartitionedKeys {
  /** Two words a key: h1 and h2, in the order that sorts as 64 bits. */
  readonly keys: Uint32Array;
  /** The line offset of each key. */
  readonly offsets: Float64Array;
  /** Partition p holds keys `starts[p]` to `starts[p + 1]`. */
  readonly starts: Uint32Array;
}

/**
 * Sort the first `n` keys (two hashes and an offset each) into the
 * partitions given by the top `bits` bits of h1, keeping their order within
 * a partition (a counting sort).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { partitionKeys } from "./_key_partitions.ts";
 *
 * const h1 = new Int32Array([0x7fffffff, 1, -1]);
 * const h2 = new Int32Array([5, 6, 7]);
 * const p = partitionKeys(h1, h2, new Float64Array([0, 10, 20]), 3, 1);
 * assert.deepEqual([...p.offsets], [0, 10, 20]); // top bit 0, 0, 1
 * assert.deepEqual([...p.starts], [0, 2, 3]);
 * ```
 */
export function partitionKeys(
  h1: Int32Array,
  h2: Int32Array,
  offsets: Float64Array,
  n: number,
  bits: number = KEY_PARTITION_BITS,
): PartitionedKeys {
  checkBits(bits);
  const parts = 1 << bits;
  // the top `bits` bits in two shifts: a shift by 32 is a shift by 0 in JS
  const shift = 31 - bits;
  const starts = new Uint32Array(parts + 1);
  for (let i = 0; i < n; i++) starts[((h1[i] >>> 1) >>> shift) + 1]++;
  for (let p = 0; p < parts; p++) starts[p + 1] += starts[p];
  const fill = starts.slice(0, parts);
  const keys = new Uint32Array(2 * n);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const j = fill[(h1[i] >>> 1) >>> shift]++;
    keys[2 * j + HI] = h1[i];
    keys[2 * j + LO] = h2[i];
    out[j] = offsets[i];
  }
  return { keys, offsets: out, starts };
}

/**
 * The keys (two words each, as {@linkcode partitionKeys} stores them) that
 * occur more than once, each once, by the engine's native sort of a copy
 * as 64-bit words.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { repeatedPairs } from "./_key_partitions.ts";
 *
 * const keys = new Uint32Array([1, 2, 3, 4, 1, 2, 1, 2, 5, 6]);
 * assert.deepEqual([...repeatedPairs(keys)], [1, 2]);
 * assert.deepEqual([...repeatedPairs(new Uint32Array([1, 2]))], []);
 * ```
 */
export function repeatedPairs(keys: Uint32Array): Uint32Array {
  const total = keys.length;
  if (total < 4) return new Uint32Array(0);
  const sorted = keys.slice();
  new BigUint64Array(sorted.buffer, 0, total >>> 1).sort();
  const out: number[] = [];
  for (let i = 2; i < total; i += 2) {
    if (sorted[i] === sorted[i - 2] && sorted[i + 1] === sorted[i - 1]) {
      const n = out.length;
      if (n === 0 || out[n - 2] !== sorted[i] || out[n - 1] !== sorted[i + 1]) {
        out.push(sorted[i], sorted[i + 1]);
      }
    }
  }
  return Uint32Array.from(out);
}

/** Options of {@linkcode KeyPartitions}. */
export interface KeyPartitionsOptions {
  /** Keys held in memory before the check goes to disk. Default {@linkcode KEY_MEMORY}. */
  memoryKeys?: number;
  /** Folder in which the spill folder is made. Default: the system's. */
  tempDir?: string;
  /** Partition bits, as given to {@linkcode partitionKeys}. Default {@linkcode KEY_PARTITION_BITS}. */
  bits?: number;
}

/**
 * The keys of a whole file, segment by segment, and the keys among them
 * that occur more than once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KeyPartitions, partitionKeys } from "./_key_partitions.ts";
 *
 * const seg = (h1: number[], off: number[]) =>
 *   partitionKeys(new Int32Array(h1), new Int32Array(h1.length), new Float64Array(off), h1.length);
 * for (const memoryKeys of [Infinity, 1]) {
 *   using keys = new KeyPartitions({ memoryKeys });
 *   keys.add(seg([1, 2, 3], [0, 10, 20]));
 *   keys.add(seg([4, 2], [30, 40]));
 *   assert.deepEqual(await keys.repeats(), [[10, 40]]);
 * }
 * ```
 */
export class KeyPartitions implements Disposable {
  readonly #bits: number;
  readonly #tempDir: string | undefined;
  #memoryKeys: number;
  #held: PartitionedKeys[] = [];
  #heldKeys = 0;
  #dir: string | null = null;

  constructor(options: KeyPartitionsOptions = {}) {
    this.#memoryKeys = options.memoryKeys ?? KEY_MEMORY;
    this.#tempDir = options.tempDir;
    this.#bits = checkBits(options.bits ?? KEY_PARTITION_BITS);
  }

  /** Whether keys went to disk. */
  get spilled(): boolean {
    return this.#dir !== null;
  }

  /** Add one segment's keys (made with the same partition bits). */
  add(part: PartitionedKeys): void {
    if (part.starts.length !== (1 << this.#bits) + 1) {
      throw new RangeError(
        `KeyPartitions: a segment has ${
          part.starts.length - 1
        } partitions, not ${1 << this.#bits}`,
      );
    }
    this.#held.push(part);
    this.#heldKeys += part.offsets.length;
    if (this.#heldKeys > this.#memoryKeys && this.#open()) this.#flush();
  }

  /**
   * Every key that occurs more than once: the offsets of its lines, in
   * ascending order, one list per key (in no particular order). With
   * `elsewhere`, the upper half of the partitions is sorted by it (another
   * thread: it gets each partition's keys and gives back
   * {@linkcode repeatedPairs} of each) while this thread sorts the rest.
   */
  async repeats(
    elsewhere?: (keys: Uint32Array[]) => Promise<Uint32Array[]>,
  ): Promise<number[][]> {
    const parts = 1 << this.#bits;
    const split = elsewhere === undefined || parts < 2 ? parts : parts >> 1;
    let remote: Promise<Uint32Array[]> | null = null;
    if (split < parts) {
      const arrays: Uint32Array[] = [];
      for (let p = split; p < parts; p++) arrays.push(await this.#keysOf(p));
      remote = elsewhere!(arrays);
    }
    const out: number[][] = [];
    for (let p = 0; p < split; p++) {
      const keys = await this.#keysOf(p);
      const pairs = repeatedPairs(keys);
      if (pairs.length > 0) out.push(...await this.#linesOf(p, keys, pairs));
    }
    if (remote !== null) {
      const found = await remote;
      for (let p = split; p < parts; p++) {
        const pairs = found[p - split];
        if (pairs.length === 0) continue;
        out.push(...await this.#linesOf(p, await this.#keysOf(p), pairs));
      }
    }
    return out;
  }

  // partition p's keys (its file's, then the held arrays'), in one array
  async #keysOf(p: number): Promise<Uint32Array> {
    const spilled = this.#dir === null
      ? null
      : await readOrEmpty(this.#path(p, "k"));
    let total = spilled === null ? 0 : spilled.byteLength >>> 2;
    for (const h of this.#held) total += 2 * (h.starts[p + 1] - h.starts[p]);
    const all = new Uint32Array(total);
    let at = 0;
    if (spilled !== null) {
      all.set(new Uint32Array(aligned(spilled)));
      at = spilled.byteLength >>> 2;
    }
    for (const h of this.#held) {
      all.set(h.keys.subarray(2 * h.starts[p], 2 * h.starts[p + 1]), at);
      at += 2 * (h.starts[p + 1] - h.starts[p]);
    }
    return all;
  }

  // the sorted line offsets of each of `pairs` among partition p's keys
  async #linesOf(
    p: number,
    keys: Uint32Array,
    pairs: Uint32Array,
  ): Promise<number[][]> {
    const offsets = new Float64Array(keys.length >>> 1);
    let o = 0;
    if (this.#dir !== null) {
      const f = await readOrEmpty(this.#path(p, "o"));
      if (f !== null) {
        offsets.set(new Float64Array(aligned(f)));
        o = f.byteLength >>> 3;
      }
    }
    for (const h of this.#held) {
      offsets.set(h.offsets.subarray(h.starts[p], h.starts[p + 1]), o);
      o += h.starts[p + 1] - h.starts[p];
    }
    const out: number[][] = [];
    for (let j = 0; j < pairs.length; j += 2) {
      const lines: number[] = [];
      for (let i = 0; i < keys.length; i += 2) {
        if (keys[i] === pairs[j] && keys[i + 1] === pairs[j + 1]) {
          lines.push(offsets[i >>> 1]);
        }
      }
      out.push(lines.sort((x, y) => x - y));
    }
    return out;
  }

  /** Remove the spill folder; safe to call twice. */
  [Symbol.dispose](): void {
    this.#held = [];
    const dir = this.#dir;
    if (dir === null) return;
    this.#dir = null;
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }

  #path(p: number, kind: "k" | "o"): string {
    return `${this.#dir}/p${p.toString(16).padStart(4, "0")}.${kind}`;
  }

  // false when the program may not write a temporary folder (a run with
  // read access only): then every key stays in memory
  #open(): boolean {
    if (this.#dir !== null) return true;
    this.#dir = keysTempDir(this.#tempDir);
    if (this.#dir !== null) return true;
    this.#memoryKeys = Infinity;
    return false;
  }

  // append every held segment's partitions to the partition files
  #flush(): void {
    const parts = 1 << this.#bits;
    for (let p = 0; p < parts; p++) {
      let n = 0;
      for (const h of this.#held) n += h.starts[p + 1] - h.starts[p];
      if (n === 0) continue;
      const keys = new Uint32Array(2 * n);
      const offsets = new Float64Array(n);
      let at = 0;
      for (const h of this.#held) {
        const s = h.starts[p];
        const e = h.starts[p + 1];
        keys.set(h.keys.subarray(2 * s, 2 * e), 2 * at);
        offsets.set(h.offsets.subarray(s, e), at);
        at += e - s;
      }
      Deno.writeFileSync(this.#path(p, "k"), new Uint8Array(keys.buffer), {
        append: true,
      });
      Deno.writeFileSync(this.#path(p, "o"), new Uint8Array(offsets.buffer), {
        append: true,
      });
    }
    this.#held = [];
    this.#heldKeys = 0;
  }
}

function checkBits(bits: number): number {
  if (!(Number.isInteger(bits) && bits >= 0 && bits <= 16)) {
    throw new RangeError(
      `KeyPartitions bits must be a whole number from 0 to 16, got ${bits}`,
    );
  }
  return bits;
}

// the bytes as a whole buffer of their own (so any typed view fits)
function aligned(b: Uint8Array): ArrayBuffer {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength
    ? b.buffer as ArrayBuffer
    : b.slice().buffer;
}

async function readOrEmpty(path: string): Promise<Uint8Array | null> {
  try {
    return await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}
