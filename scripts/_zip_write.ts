// Private to the scripts and tests that write zip archives (inspect_ai `.eval`
// logs): entries already compressed by the caller, laid out with local
// headers, a central directory and its end record. Hand-written because the
// archives must hold what no zip library writes: zstd entries (method 93),
// sizes the caller states, and fields damaged on purpose.

import { crc32Of } from "../lib/import/_zip_read.ts";

/** One entry, its bytes already compressed. */
export interface RawZipEntry {
  /** Entry name, `/`-separated. */
  readonly name: string;
  /** 0 stored, 8 deflate, 93 zstd. */
  readonly method: 0 | 8 | 93;
  /** The compressed bytes. */
  readonly packed: Uint8Array;
  /** CRC-32 of the uncompressed bytes. */
  readonly crc: number;
  /** Uncompressed size, as the headers state it. */
  readonly size: number;
}

/**
 * A stored (uncompressed) entry holding a text.
 *
 * @param name Entry name.
 * @param text Its content, written as UTF-8.
 * @returns The entry, with its CRC-32 and size.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { storedEntry } from "./_zip_write.ts";
 *
 * assert.equal(storedEntry("a.json", "{}").size, 2);
 * ```
 */
export function storedEntry(name: string, text: string): RawZipEntry {
  const data = new TextEncoder().encode(text);
  return {
    name,
    method: 0,
    packed: data,
    crc: crc32Of(data),
    size: data.length,
  };
}

// 2026-11-30 10:00:00 in MS-DOS time and date
const DOS_TIME = 10 << 11;
const DOS_DATE = ((2026 - 1980) << 9) | (11 << 5) | 30;

/**
 * The bytes of a zip archive, in order, as the entries come: each entry's
 * local header and data, then the central directory and its end record,
 * so that an archive larger than memory can be written as it is made.
 *
 * @param entries The entries, in order (any iterable, read once).
 * @returns The archive's parts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { zipParts } from "./_zip_write.ts";
 *
 * // an archive with no entries is its end record alone
 * assert.deepEqual([...zipParts([])].map((p) => p.length), [0, 22]);
 * ```
 */
export function* zipParts(
  entries: Iterable<RawZipEntry>,
): Generator<Uint8Array> {
  const enc = new TextEncoder();
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const { name, method, packed, crc, size } of entries) {
    const nameBytes = enc.encode(name);
    const version = method === 93 ? 63 : 20;
    // the fields a local header and its central-directory entry share, in
    // the same order, from version needed to the name's length
    const common = (v: DataView, at: number): void => {
      v.setUint16(at, version, true);
      v.setUint16(at + 2, 0x0800, true); // UTF-8 names
      v.setUint16(at + 4, method, true);
      v.setUint16(at + 6, DOS_TIME, true);
      v.setUint16(at + 8, DOS_DATE, true);
      v.setUint32(at + 10, crc, true);
      v.setUint32(at + 14, packed.length, true);
      v.setUint32(at + 18, size, true);
      v.setUint16(at + 22, nameBytes.length, true);
    };
    const local = new Uint8Array(30 + nameBytes.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    common(lv, 4);
    local.set(nameBytes, 30);
    const cd = new Uint8Array(46 + nameBytes.length);
    const cv = new DataView(cd.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, (3 << 8) | version, true); // made by Unix
    common(cv, 6);
    cv.setUint32(38, (0o100644 << 16) >>> 0, true);
    cv.setUint32(42, offset, true);
    cd.set(nameBytes, 46);
    yield local;
    yield packed;
    central.push(cd);
    offset += local.length + packed.length;
  }
  const directory = concat(central);
  yield directory;
  // past 65,535 entries the count needs the zip64 end records, as Python's
  // zipfile writes them (offsets stay below 4 GiB here)
  const zip64 = central.length > 0xffff;
  if (zip64) {
    const z = new Uint8Array(56 + 20);
    const zv = new DataView(z.buffer);
    zv.setUint32(0, 0x06064b50, true);
    zv.setBigUint64(4, 44n, true);
    zv.setUint16(12, 45, true);
    zv.setUint16(14, 45, true);
    zv.setBigUint64(24, BigInt(central.length), true);
    zv.setBigUint64(32, BigInt(central.length), true);
    zv.setBigUint64(40, BigInt(directory.length), true);
    zv.setBigUint64(48, BigInt(offset), true);
    zv.setUint32(56, 0x07064b50, true);
    zv.setBigUint64(64, BigInt(offset + directory.length), true);
    zv.setUint32(72, 1, true);
    yield z;
  }
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, zip64 ? 0xffff : central.length, true);
  ev.setUint16(10, zip64 ? 0xffff : central.length, true);
  ev.setUint32(12, directory.length, true);
  ev.setUint32(16, offset, true);
  yield end;
}

/**
 * A zip archive of entries compressed by the caller, in memory.
 *
 * @param entries The entries, in order.
 * @returns The archive's bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { zipArchive } from "./_zip_write.ts";
 * import { crc32Of, readZipEntries, zipEntryBytes } from "../lib/import/_zip_read.ts";
 *
 * const data = new TextEncoder().encode("{}");
 * const zip = zipArchive([{ name: "a.json", method: 0, packed: data, crc: crc32Of(data), size: 2 }]);
 * assert.equal(zipEntryBytes(zip, readZipEntries(zip, "a.zip").get("a.json")!, "a.zip").length, 2);
 * ```
 */
export function zipArchive(entries: Iterable<RawZipEntry>): Uint8Array {
  return concat([...zipParts(entries)]);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
