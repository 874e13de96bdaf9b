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

/** A set of (hash, offset) pairs; `same(offset)` decides equality on a hash match. */
export class OffsetSet {
  #hashes: Int32Array;
  #offsets: Float64Array;
  #size = 0;

  constructor(capacity = 1 << 16) {
    this.#hashes = new Int32Array(capacity);
    this.#offsets = new Float64Array(capacity).fill(-1);
  }

  /**
   * Insert; returns the earlier offset when an equal key is present (as
   * decided by `same`), otherwise -1 after inserting.
   */
  insertOrFind(
    hash: number,
    offset: number,
    same: (earlier: number) => boolean,
  ): number {
    if ((this.#size + 1) * 2 > this.#hashes.length) this.#grow();
    const mask = this.#hashes.length - 1;
    let i = hash & mask;
    for (;;) {
      const o = this.#offsets[i];
      if (o < 0) {
        this.#hashes[i] = hash;
        this.#offsets[i] = offset;
        this.#size++;
        return -1;
      }
      if (this.#hashes[i] === hash && same(o)) return o;
      i = (i + 1) & mask;
    }
  }

  #grow(): void {
    const oldH = this.#hashes;
    const oldO = this.#offsets;
    this.#hashes = new Int32Array(oldH.length * 2);
    this.#offsets = new Float64Array(oldH.length * 2).fill(-1);
    const mask = this.#hashes.length - 1;
    for (let j = 0; j < oldH.length; j++) {
      if (oldO[j] < 0) continue;
      let i = oldH[j] & mask;
      while (this.#offsets[i] >= 0) i = (i + 1) & mask;
      this.#hashes[i] = oldH[j];
      this.#offsets[i] = oldO[j];
    }
  }
}
