// Private: the duplicate-key check of the parallel JSONL reader. Each
// segment's decision keys arrive as two 32-bit hashes, already sorted into
// partitions by the top bits of the first hash (by the WebAssembly reader,
// or partitionKeys). The main thread keeps whole segments' arrays, with no
// work per key, or past a memory budget appends each partition to its own
// file; at the end the keys of each partition go into one hash table,
// reused from partition to partition, and a key met twice is a candidate
// repeat. No line offsets are kept: a repeated pair of hashes sends the file
// to the one-thread reader, which compares the lines and names them, so a
// hash match never decides.
//
// Memory touched for the first time is dear (the system has to provide
// each page, which costs far more than writing the page again), so nothing
// here copies the keys: the segments' arrays are read in place, and the
// table is made once.

import { keysTempDir } from "./_key_spill.ts";

/** Partitions are chosen by this many top bits of h1. */
export const KEY_PARTITION_BITS = 6;

/** Keys held in memory before the check goes to disk (8 bytes each). */
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
  /** Partition p holds keys `starts[p]` to `starts[p + 1]`. */
  readonly starts: Uint32Array;
}

/**
 * Sort the first `n` keys (two hashes each) into the partitions given by
 * the top `bits` bits of h1, keeping their order within a partition (a
 * counting sort).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { partitionKeys } from "./_key_partitions.ts";
 *
 * const h1 = new Int32Array([0x7fffffff, 1, -1]);
 * const h2 = new Int32Array([5, 6, 7]);
 * const p = partitionKeys(h1, h2, 3, 1);
 * assert.deepEqual([...p.starts], [0, 2, 3]); // top bit 0, 0, 1
 * ```
 */
export function partitionKeys(
  h1: Int32Array,
  h2: Int32Array,
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
  for (let i = 0; i < n; i++) {
    const j = fill[(h1[i] >>> 1) >>> shift]++;
    keys[2 * j + HI] = h1[i];
    keys[2 * j + LO] = h2[i];
  }
  return { keys, starts };
}

/**
 * A set of keys (two 32-bit words each) that reports the ones added more
 * than once: an open-addressing table, emptied in no time between uses (its
 * slots carry the number of the use that filled them), so that one table
 * serves every partition without being made or cleared again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RepeatTable } from "./_key_partitions.ts";
 *
 * const table = new RepeatTable();
 * table.start(3);
 * table.addAll(new Uint32Array([1, 2, 3, 4, 1, 2]), 0, 3);
 * assert.deepEqual([...table.repeats()], [1, 2]);
 * table.start(1); // empty again
 * table.addAll(new Uint32Array([1, 2]), 0, 1);
 * assert.deepEqual([...table.repeats()], []);
 * ```
 */
export class RepeatTable {
  // three words a slot: the use that filled it, then the key's two words
  #slots = new Uint32Array(0);
  #mask = -1;
  #use = 0;
  #repeats: number[] = [];

  /** Empty the table for up to `n` keys. */
  start(n: number): void {
    let size = 16;
    while (size < 2 * n) size *= 2;
    if (3 * size > this.#slots.length) {
      this.#slots = new Uint32Array(3 * size);
      this.#use = 0;
    }
    this.#mask = (this.#slots.length / 3) - 1;
    if (this.#use === 0xffffffff) {
      this.#slots.fill(0);
      this.#use = 0;
    }
    this.#use++;
    this.#repeats = [];
  }

  /**
   * Add keys `from` to `to` (key indexes) of `keys`; a key already in the
   * table is noted as a repeat.
   */
  addAll(keys: Uint32Array, from: number, to: number): void {
    const slots = this.#slots;
    const mask = this.#mask;
    const use = this.#use;
    for (let i = from; i < to; i++) {
      const a = keys[2 * i];
      const b = keys[2 * i + 1];
      let j = (a ^ b) & mask;
      for (;;) {
        const s = 3 * j;
        if (slots[s] !== use) {
          slots[s] = use;
          slots[s + 1] = a;
          slots[s + 2] = b;
          break;
        }
        if (slots[s + 1] === a && slots[s + 2] === b) {
          this.#repeats.push(a, b);
          break;
        }
        j = (j + 1) & mask;
      }
    }
  }

  /** The keys added more than once since `start`, each once. */
  repeats(): Uint32Array {
    const seen = new Set<string>();
    const out: number[] = [];
    for (let k = 0; k < this.#repeats.length; k += 2) {
      const a = this.#repeats[k];
      const b = this.#repeats[k + 1];
      const id = `${a},${b}`;
      if (!seen.has(id)) {
        seen.add(id);
        out.push(a, b);
      }
    }
    return Uint32Array.from(out);
  }
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
 * const seg = (h1: number[]) =>
 *   partitionKeys(new Int32Array(h1), new Int32Array(h1.length), h1.length);
 * for (const memoryKeys of [Infinity, 1]) {
 *   using keys = new KeyPartitions({ memoryKeys });
 *   keys.add(seg([1, 2, 3]));
 *   keys.add(seg([4, 2]));
 *   assert.deepEqual([...await keys.repeats()], [0, 2]); // h2 0, h1 2
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
    this.#heldKeys += part.keys.length >>> 1;
    if (this.#heldKeys > this.#memoryKeys && this.#open()) this.#flush();
  }

  /**
   * Every key that occurs more than once, each once, as two words (in the
   * order {@linkcode PartitionedKeys} stores them), partition by partition.
   */
  async repeats(): Promise<Uint32Array> {
    const parts = 1 << this.#bits;
    const table = new RepeatTable();
    const out: number[] = [];
    for (let p = 0; p < parts; p++) {
      const spilled = this.#dir === null
        ? null
        : await readOrEmpty(this.#path(p));
      const fromFile = spilled === null
        ? null
        : new Uint32Array(aligned(spilled));
      let n = fromFile === null ? 0 : fromFile.length >>> 1;
      for (const h of this.#held) n += h.starts[p + 1] - h.starts[p];
      table.start(n);
      if (fromFile !== null) table.addAll(fromFile, 0, fromFile.length >>> 1);
      for (const h of this.#held) {
        table.addAll(h.keys, h.starts[p], h.starts[p + 1]);
      }
      out.push(...table.repeats());
    }
    return Uint32Array.from(out);
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

  #path(p: number): string {
    return `${this.#dir}/p${p.toString(16).padStart(4, "0")}.k`;
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
      let at = 0;
      for (const h of this.#held) {
        const s = h.starts[p];
        const e = h.starts[p + 1];
        keys.set(h.keys.subarray(2 * s, 2 * e), 2 * at);
        at += e - s;
      }
      Deno.writeFileSync(this.#path(p), new Uint8Array(keys.buffer), {
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
