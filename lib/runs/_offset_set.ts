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
  #hashes: Int32Array;
  #lows: Uint32Array;
  // offset / 2^32 + 1; 0 marks an empty slot
  #highs: Uint16Array;
  #size = 0;

  constructor(capacity = 1 << 16) {
    if (!Number.isInteger(Math.log2(capacity)) || capacity < 2) {
      throw new RangeError(
        `OffsetSet capacity must be a power of two >= 2, got ${capacity}`,
      );
    }
    this.#hashes = new Int32Array(capacity);
    this.#lows = new Uint32Array(capacity);
    this.#highs = new Uint16Array(capacity);
  }

  /** Keys held. */
  get size(): number {
    return this.#size;
  }

  /** Slots allocated (a power of two). */
  get capacity(): number {
    return this.#hashes.length;
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
    if ((this.#size + 1) * 4 > this.#hashes.length * 3) this.#grow();
    const hashes = this.#hashes;
    const highs = this.#highs;
    const lows = this.#lows;
    const mask = hashes.length - 1;
    hash |= 0;
    let i = hash & mask;
    for (;;) {
      const hi = highs[i];
      if (hi === 0) {
        hashes[i] = hash;
        lows[i] = offset % 4294967296;
        highs[i] = Math.floor(offset / 4294967296) + 1;
        this.#size++;
        return -1;
      }
      if (hashes[i] === hash) {
        const o = (hi - 1) * 4294967296 + lows[i];
        if (same(o)) return o;
      }
      i = (i + 1) & mask;
    }
  }

  #grow(): void {
    const oldH = this.#hashes;
    const oldL = this.#lows;
    const oldU = this.#highs;
    const n = oldH.length * 2;
    const hashes = this.#hashes = new Int32Array(n);
    const lows = this.#lows = new Uint32Array(n);
    const highs = this.#highs = new Uint16Array(n);
    const mask = n - 1;
    for (let j = 0; j < oldH.length; j++) {
      if (oldU[j] === 0) continue;
      let i = oldH[j] & mask;
      while (highs[i] !== 0) i = (i + 1) & mask;
      hashes[i] = oldH[j];
      lows[i] = oldL[j];
      highs[i] = oldU[j];
    }
  }
}
