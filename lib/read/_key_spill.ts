// Private: an exact duplicate check of decision keys whose memory does not
// grow with the number of keys. Up to `memoryKeys` keys live in an
// open-addressing table of (two 32-bit hashes, line offset) and a duplicate
// is answered at once; past that, every key goes to disk
// as a 16-byte (h1, h2, offset) record in one of a few partition files
// chosen by bits of h2, and the first duplicate is found later, one
// partition at a time, by sorting the records on (h1, h2) and confirming
// equal-hash runs by re-reading the lines. A hash match never decides: the
// caller's `same` does.

/** Offsets below this are accepted (48 bits: 256 TiB of file). */
export const MAX_SPILL_OFFSET = 2 ** 48;

const TWO_32 = 4294967296;

/** Options of {@linkcode DecisionKeySet}. */
export interface KeySpillOptions {
  /**
   * Keys held in memory before spilling to disk: a whole number, or
   * `Infinity` to never spill (then memory grows with the keys). Default
   * `1 << 16` (a table of at most 2^17 slots of 16 bytes: 2 MiB, which
   * stays in the cache; past it, appending records to partition buffers
   * and sorting them at the end is cheaper than probing a table larger
   * than the cache, about a quarter of the one-thread reader's time on
   * 1,000,000 keys).
   */
  memoryKeys?: number;
  /**
   * Folder in which the spill folder is made (default: the system's
   * temporary folder). The spill folder, made only when keys go to disk, is
   * removed on dispose; this folder itself is left alone.
   */
  tempDir?: string;
  /** Partition files, a power of two from 1 to 65536. Default 256. */
  partitions?: number;
  /**
   * Bytes buffered per partition before a write, a multiple of 16 (one
   * record). Default 32768: 8 MiB of buffers for 256 partitions.
   */
  bufferBytes?: number;
}

/**
 * A new temporary folder for spilled keys (in `tempDir`, or the system's),
 * or null when the program may not write one (a run with read access only:
 * then the caller keeps its keys in memory rather than failing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keysTempDir } from "./_key_spill.ts";
 *
 * const dir = keysTempDir(undefined);
 * assert.ok(dir !== null && Deno.statSync(dir).isDirectory);
 * Deno.removeSync(dir);
 * ```
 */
export function keysTempDir(tempDir: string | undefined): string | null {
  try {
    return Deno.makeTempDirSync({ dir: tempDir, prefix: "lossbook-keys-" });
  } catch (e) {
    if (
      e instanceof Deno.errors.NotCapable ||
      e instanceof Deno.errors.PermissionDenied
    ) return null;
    throw e;
  }
}

/** A duplicate key: the line at `offset` repeats the key first seen at `earlier`. */
export interface KeyDuplicate {
  /** Offset of the line that repeats a key. */
  readonly offset: number;
  /** Offset of the first line with that key. */
  readonly earlier: number;
}

/** `same(a, b)`: whether the lines at offsets a and b have equal keys. */
export type SameKey = (a: number, b: number) => boolean;

function positiveWhole(name: string, value: number, min: number): void {
  if (!(Number.isSafeInteger(value) && value >= min)) {
    throw new RangeError(
      `DecisionKeySet ${name} must be a whole number >= ${min}, got ${value}`,
    );
  }
}

/**
 * The set of decision keys of one file, checked for duplicates exactly in
 * bounded memory.
 *
 * Below `memoryKeys` distinct keys it is an open-addressing table of two
 * 32-bit hashes and the offset of the line that first used each key, at
 * most 3/4 full, and {@linkcode DecisionKeySet.add} answers at once with
 * the first earlier line of an equal key. When one more key would pass
 * `memoryKeys`, the table and every later key go to partition files as
 * (h1, h2, offset) records (16 bytes each, on disk), `add` answers -1, and
 * {@linkcode DecisionKeySet.firstDuplicate} finds the first duplicate by
 * reading one partition at a time. Memory: the table (16 bytes a slot, a
 * power of two at most 8/3 slots per `memoryKeys`, half as much again while
 * it doubles: 32 MiB, 48 MiB at the doubling, for the default), the write
 * buffers once spilled (`partitions × bufferBytes`), and while searching
 * one partition, 24 bytes per record in it (1/partitions of the keys).
 * Disk: 16 bytes per key.
 * `same` is called only when both hashes match, and decides.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DecisionKeySet } from "./_key_spill.ts";
 *
 * const keys = ["a", "b", "c", "b", "a"]; // the key of the line at offset i
 * const same = (x: number, y: number) => keys[x] === keys[y];
 * const hash = (k: string) => k.charCodeAt(0);
 * {
 *   using set = new DecisionKeySet();
 *   const answers = keys.map((k, i) => set.add(hash(k), 7, i, same));
 *   assert.deepEqual(answers, [-1, -1, -1, 1, 0]);
 * }
 * using spilling = new DecisionKeySet({ memoryKeys: 1, partitions: 2 });
 * keys.forEach((k, i) => spilling.add(hash(k), 7, i, same));
 * assert.equal(spilling.spilled, true);
 * assert.deepEqual(await spilling.firstDuplicate(Infinity, same), {
 *   offset: 3,
 *   earlier: 1,
 * });
 * assert.equal(await spilling.firstDuplicate(3, same), null);
 * ```
 */
export class DecisionKeySet implements Disposable {
  #memoryKeys: number;
  readonly #tempDir: string | undefined;
  readonly #partitions: number;
  readonly #bufferRecords: number;
  // the in-memory table, 4 words a slot side by side (one cache line per
  // probe): h1, h2, the offset's low and high 32 bits; a high word of -1
  // marks an empty slot
  #table = new Int32Array(4 * 16).fill(-1);
  #size = 0;
  #last = -1;
  // the first duplicate known (from add, or found by firstDuplicate): no
  // later line can be a smaller duplicate, so it stays the answer
  #found: KeyDuplicate | null = null;
  // spill state
  #dir: string | null = null;
  #buffer: Uint32Array | null = null;
  #fill: Uint32Array | null = null;
  #spilledKeys = 0;
  #disposed = false;

  /**
   * @throws {RangeError} When an option is out of range.
   */
  constructor(options: KeySpillOptions = {}) {
    const memoryKeys = options.memoryKeys ?? 1 << 16;
    if (memoryKeys !== Infinity) positiveWhole("memoryKeys", memoryKeys, 0);
    const partitions = options.partitions ?? 256;
    if (
      !(Number.isInteger(Math.log2(partitions)) && partitions <= 65536)
    ) {
      throw new RangeError(
        `DecisionKeySet partitions must be a power of two from 1 to 65536, got ${partitions}`,
      );
    }
    const bufferBytes = options.bufferBytes ?? 32768;
    positiveWhole("bufferBytes", bufferBytes, 16);
    if (bufferBytes % 16 !== 0) {
      throw new RangeError(
        `DecisionKeySet bufferBytes must be a multiple of 16, got ${bufferBytes}`,
      );
    }
    this.#memoryKeys = memoryKeys;
    this.#tempDir = options.tempDir;
    this.#partitions = partitions;
    this.#bufferRecords = bufferBytes / 16;
  }

  /** Whether keys went to disk. */
  get spilled(): boolean {
    return this.#dir !== null;
  }

  /** Keys held: distinct keys in memory, or every key added once spilled. */
  get size(): number {
    return this.#dir === null ? this.#size : this.#spilledKeys;
  }

  /**
   * Add the key of the line at `offset`, given two independent 32-bit
   * hashes of it (the JSONL readers' `KeyHasher` gives both).
   *
   * @param h1 The first hash (any 32-bit integer, signed or not).
   * @param h2 The second hash.
   * @param offset The line's offset, greater than the previous call's.
   * @param same Whether the lines at two offsets have equal keys; called
   *   only when both hashes match.
   * @returns The offset of the first earlier line with an equal key when
   *   that is known now (before spilling), else -1. A repeated key is not
   *   added again.
   * @throws {RangeError} When the offset is not a whole number below 2^48
   *   greater than the last one.
   * @throws {TypeError} After dispose.
   */
  add(h1: number, h2: number, offset: number, same: SameKey): number {
    if (this.#disposed) throw new TypeError("DecisionKeySet is disposed");
    if (
      !(Number.isSafeInteger(offset) && offset > this.#last &&
        offset < MAX_SPILL_OFFSET)
    ) {
      throw new RangeError(
        `DecisionKeySet offset must be a whole number below 2^48 greater than the previous one (${this.#last}), got ${offset}`,
      );
    }
    this.#last = offset;
    h1 |= 0;
    h2 |= 0;
    if (this.#dir !== null) {
      this.#append(h1, h2, offset);
      this.#spilledKeys++;
      return -1;
    }
    const table = this.#table;
    const mask = (table.length >> 2) - 1;
    let i = h1 & mask;
    for (;;) {
      const hi = table[4 * i + 3];
      if (hi < 0) break;
      if (table[4 * i] === h1 && table[4 * i + 1] === h2) {
        const o = hi * TWO_32 + (table[4 * i + 2] >>> 0);
        if (same(o, offset)) {
          this.#found ??= { offset, earlier: o };
          return o;
        }
      }
      i = (i + 1) & mask;
    }
    if (this.#size + 1 > this.#memoryKeys && this.#spill()) {
      this.#append(h1, h2, offset);
      this.#spilledKeys++;
      return -1;
    }
    if ((this.#size + 1) * 4 > (table.length >> 2) * 3) {
      this.#grow();
      this.#insert(h1, h2, offset);
    } else this.#put(i, h1, h2, offset);
    this.#size++;
    return -1;
  }

  /**
   * The first duplicate among the lines with offset below `limit`: the
   * smallest offset whose key equals an earlier line's, and the first line
   * with that key; or null. Exact (`same` confirms every hash match). Once
   * spilled it reads every partition file, so it costs a pass over 16 bytes
   * per key; call it at the end of the file, and before reporting any other
   * error at offset L (with limit L), so errors come out in the order the
   * in-memory check gives.
   *
   * @param limit Only lines with offset below this count (`Infinity`: all).
   * @param same Whether the lines at two offsets have equal keys.
   * @returns The first duplicate, or null.
   * @throws {RangeError} When the limit is not a number >= 0.
   * @throws {TypeError} After dispose.
   */
  async firstDuplicate(
    limit: number,
    same: SameKey,
  ): Promise<KeyDuplicate | null> {
    if (this.#disposed) throw new TypeError("DecisionKeySet is disposed");
    if (!(limit >= 0)) {
      throw new RangeError(
        `DecisionKeySet limit must be a number >= 0, got ${limit}`,
      );
    }
    const known = this.#found;
    if (known !== null) return known.offset < limit ? known : null;
    if (this.#dir === null) return null;
    this.#flushAll();
    let best: KeyDuplicate | null = null;
    const scratch = new Scratch();
    for (let p = 0; p < this.#partitions; p++) {
      let file: Deno.FsFile;
      try {
        file = await Deno.open(this.#partitionPath(p));
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) continue;
        throw e;
      }
      let records: Uint32Array;
      try {
        records = await scratch.read(file);
      } finally {
        file.close();
      }
      const found = searchPartition(
        records,
        best?.offset ?? limit,
        same,
        scratch,
      );
      if (found !== null) best = found;
    }
    if (best !== null) this.#found = best;
    return best;
  }

  /** Remove the spill folder and its files; safe to call twice. */
  [Symbol.dispose](): void {
    this.#disposed = true;
    this.#buffer = null;
    this.#table = new Int32Array(0);
    const dir = this.#dir;
    if (dir === null) return;
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }

  #put(i: number, h1: number, h2: number, offset: number): void {
    const table = this.#table;
    table[4 * i] = h1;
    table[4 * i + 1] = h2;
    table[4 * i + 2] = offset % TWO_32;
    table[4 * i + 3] = Math.floor(offset / TWO_32);
  }

  #offsetAt(j: number): number {
    const hi = this.#table[4 * j + 3];
    return hi < 0 ? -1 : hi * TWO_32 + (this.#table[4 * j + 2] >>> 0);
  }

  #insert(h1: number, h2: number, offset: number): void {
    const table = this.#table;
    const mask = (table.length >> 2) - 1;
    let i = h1 & mask;
    while (table[4 * i + 3] >= 0) i = (i + 1) & mask;
    this.#put(i, h1, h2, offset);
  }

  #grow(): void {
    const old = this.#table;
    this.#table = new Int32Array(old.length * 2).fill(-1);
    for (let j = 0; j < old.length >> 2; j++) {
      if (old[4 * j + 3] >= 0) {
        this.#insert(
          old[4 * j],
          old[4 * j + 1],
          old[4 * j + 3] * TWO_32 + (old[4 * j + 2] >>> 0),
        );
      }
    }
  }

  // false when the program may not write a temporary folder (a run with
  // read access only): then every key stays in memory, as before spilling
  // existed, rather than the read failing
  #spill(): boolean {
    this.#dir = keysTempDir(this.#tempDir);
    if (this.#dir === null) {
      this.#memoryKeys = Infinity;
      return false;
    }
    this.#buffer = new Uint32Array(this.#partitions * this.#bufferRecords * 4);
    this.#fill = new Uint32Array(this.#partitions);
    const table = this.#table;
    for (let j = 0; j < table.length >> 2; j++) {
      const o = this.#offsetAt(j);
      if (o >= 0) this.#append(table[4 * j], table[4 * j + 1], o);
    }
    this.#spilledKeys = this.#size;
    this.#table = new Int32Array(0);
    return true;
  }

  #append(h1: number, h2: number, offset: number): void {
    const p = h2 & (this.#partitions - 1);
    const fill = this.#fill!;
    let k = fill[p];
    if (k === this.#bufferRecords) {
      this.#flush(p);
      k = 0;
    }
    const at = (p * this.#bufferRecords + k) * 4;
    const buffer = this.#buffer!;
    buffer[at] = h1;
    buffer[at + 1] = h2;
    buffer[at + 2] = offset % TWO_32;
    buffer[at + 3] = Math.floor(offset / TWO_32);
    fill[p] = k + 1;
  }

  #partitionPath(p: number): string {
    return `${this.#dir}/p${p.toString(16).padStart(4, "0")}.keys`;
  }

  #flush(p: number): void {
    const n = this.#fill![p];
    if (n === 0) return;
    const buffer = this.#buffer!;
    Deno.writeFileSync(
      this.#partitionPath(p),
      new Uint8Array(
        buffer.buffer,
        buffer.byteOffset + p * this.#bufferRecords * 16,
        n * 16,
      ),
      { append: true },
    );
    this.#fill![p] = 0;
  }

  #flushAll(): void {
    for (let p = 0; p < this.#partitions; p++) this.#flush(p);
  }
}

/** Buffers reused from one partition to the next, grown by doubling. */
class Scratch {
  bytes = new Uint8Array(0);
  idx = new Uint32Array(0);
  tmp = new Uint32Array(0);

  /** The file's records (4 words each), in the reused byte buffer. */
  async read(file: Deno.FsFile): Promise<Uint32Array> {
    const size = (await file.stat()).size;
    if (size % 16 !== 0) {
      throw new RangeError(
        `DecisionKeySet partition file holds ${size} bytes, not whole 16-byte records`,
      );
    }
    if (this.bytes.length < size) {
      this.bytes = new Uint8Array(Math.max(size, 2 * this.bytes.length));
    }
    for (let at = 0; at < size;) {
      const n = await file.read(this.bytes.subarray(at, size));
      if (n === null) {
        throw new RangeError(
          `DecisionKeySet partition file ended at ${at} of ${size} bytes`,
        );
      }
      at += n;
    }
    return new Uint32Array(this.bytes.buffer, 0, size >>> 2);
  }

  /** Two index arrays of at least n entries. */
  indices(n: number): [Uint32Array, Uint32Array] {
    if (this.idx.length < n) {
      const m = Math.max(n, 2 * this.idx.length);
      this.idx = new Uint32Array(m);
      this.tmp = new Uint32Array(m);
    }
    return [this.idx, this.tmp];
  }
}

/**
 * The first duplicate with offset below `bound` among one partition's
 * records: an LSD radix sort of the record indices by h1 (11, 11 and 10
 * bits a pass; a pass where every record has the same digit is skipped),
 * then each run of equal h1 sorted by (h2, offset), and in each run of equal
 * (h1, h2) every record compared with the first line of each distinct key
 * already seen in that run, in offset order.
 */
function searchPartition(
  rec: Uint32Array,
  bound: number,
  same: SameKey,
  scratch: Scratch,
): KeyDuplicate | null {
  const total = rec.length >>> 2;
  const offsetOf = (i: number) => rec[4 * i + 3] * TWO_32 + rec[4 * i + 2];
  let [idx, tmp] = scratch.indices(total);
  let n = 0;
  for (let i = 0; i < total; i++) if (offsetOf(i) < bound) idx[n++] = i;
  if (n < 2) return null;
  const counts = new Uint32Array(3 * 2048);
  for (let j = 0; j < n; j++) {
    const a = rec[4 * idx[j]];
    counts[a & 2047]++;
    counts[2048 + ((a >>> 11) & 2047)]++;
    counts[4096 + (a >>> 22)]++;
  }
  for (let d = 0; d < 3; d++) {
    const c = counts.subarray(d * 2048, d * 2048 + 2048);
    if (c.some((x) => x === n)) continue;
    let sum = 0;
    for (let v = 0; v < 2048; v++) {
      const x = c[v];
      c[v] = sum;
      sum += x;
    }
    const shift = 11 * d;
    for (let j = 0; j < n; j++) {
      const i = idx[j];
      tmp[c[(rec[4 * i] >>> shift) & 2047]++] = i;
    }
    [idx, tmp] = [tmp, idx];
  }
  let best: KeyDuplicate | null = null;
  for (let s = 0; s < n;) {
    const a = rec[4 * idx[s]];
    let e = s + 1;
    while (e < n && rec[4 * idx[e]] === a) e++;
    if (e - s > 1) {
      const run = Array.from(
        idx.subarray(s, e),
        (i) => [rec[4 * i + 1], offsetOf(i)] as const,
      ).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      const firsts: number[] = [];
      for (let k = 0; k < run.length; k++) {
        if (k > 0 && run[k][0] !== run[k - 1][0]) firsts.length = 0;
        const o = run[k][1];
        if (o >= (best?.offset ?? bound)) continue;
        const f = firsts.find((f) => same(f, o));
        if (f !== undefined) best = { offset: o, earlier: f };
        else firsts.push(o);
      }
    }
    s = e;
  }
  return best;
}
