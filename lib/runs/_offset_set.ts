// Private: an open-addressing hash set of decision keys that stores only a
// 32-bit hash and the text offset of the line that first used the key, so
// checking a million keys for duplicates allocates no strings and no Map
// entries. A hash match is confirmed by re-reading the earlier line, so the
// check is exact.

/** FNV-1a 32-bit over the key parts, with a separator between parts. */
export function keyHash(
  runId: string,
  modelId: string,
  taskId: string,
  trial: number,
): number {
  let h = 0x811c9dc5;
  for (const part of [runId, modelId, taskId]) {
    for (let i = 0; i < part.length; i++) {
      h ^= part.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0xffff;
    h = Math.imul(h, 0x01000193);
  }
  h ^= trial & 0xffffffff;
  h = Math.imul(h, 0x01000193);
  h ^= Math.floor(trial / 2 ** 32);
  h = Math.imul(h, 0x01000193);
  return h | 0;
}

/** Offsets below this fit a slot (48 bits: 256 TiB of file). */
export const MAX_OFFSET = 0xffff * 2 ** 32;

/**
 * A set of (hash, offset) pairs; `same(offset)` decides equality on a hash
 * match. A slot is 10 bytes (a 32-bit hash, a 48-bit offset kept as 32 + 16
 * bits with 0 in the high part for an empty slot), the table at most 3/4
 * full, doubling when it would be fuller: 13 to 27 bytes per distinct key,
 * plus the old table during a doubling.
 */
export class OffsetSet {
  // slot i: pairs[2i] the hash (0 marks an empty slot; a hash of 0 is
  // stored as 1, which `same` then tells apart), pairs[2i + 1] the low 32
  // bits of the offset, side by side so a probe reads one cache line;
  // highs[i] the offset / 2^32, read only on a match or an insert
  #pairs: Int32Array;
  #highs: Uint16Array;
  #size = 0;

  constructor(capacity = 1 << 16) {
    if (!Number.isInteger(Math.log2(capacity)) || capacity < 2) {
      throw new RangeError(
        `OffsetSet capacity must be a power of two >= 2, got ${capacity}`,
      );
    }
    this.#pairs = new Int32Array(2 * capacity);
    this.#highs = new Uint16Array(capacity);
  }

  /** Keys held. */
  get size(): number {
    return this.#size;
  }

  /** Slots allocated (a power of two). */
  get capacity(): number {
    return this.#highs.length;
  }

  /**
   * Insert; returns the earlier offset when an equal key is present (as
   * decided by `same`), otherwise -1 after inserting.
   *
   * @throws {RangeError} When the offset is not a whole number below {@linkcode MAX_OFFSET}.
   */
  insertOrFind(
    hash: number,
    offset: number,
    same: (earlier: number) => boolean,
  ): number {
    if (!(Number.isSafeInteger(offset) && offset >= 0 && offset < MAX_OFFSET)) {
      throw new RangeError(
        `OffsetSet offset must be a whole number from 0 below 2^48 - 2^32, got ${offset}`,
      );
    }
    if ((this.#size + 1) * 4 > this.#highs.length * 3) this.#grow();
    const pairs = this.#pairs;
    const mask = this.#highs.length - 1;
    hash = (hash | 0) === 0 ? 1 : hash | 0;
    let i = hash & mask;
    for (;;) {
      const h = pairs[2 * i];
      if (h === 0) {
        pairs[2 * i] = hash;
        pairs[2 * i + 1] = offset % 4294967296;
        this.#highs[i] = Math.floor(offset / 4294967296);
        this.#size++;
        return -1;
      }
      if (h === hash) {
        const o = this.#highs[i] * 4294967296 + (pairs[2 * i + 1] >>> 0);
        if (same(o)) return o;
      }
      i = (i + 1) & mask;
    }
  }

  #grow(): void {
    const oldPairs = this.#pairs;
    const oldHighs = this.#highs;
    const n = oldHighs.length * 2;
    const pairs = this.#pairs = new Int32Array(2 * n);
    const highs = this.#highs = new Uint16Array(n);
    const mask = n - 1;
    for (let j = 0; j < oldHighs.length; j++) {
      const h = oldPairs[2 * j];
      if (h === 0) continue;
      let i = h & mask;
      while (pairs[2 * i] !== 0) i = (i + 1) & mask;
      pairs[2 * i] = h;
      pairs[2 * i + 1] = oldPairs[2 * j + 1];
      highs[i] = oldHighs[j];
    }
  }
}
