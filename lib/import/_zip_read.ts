// Private to the importers: the entries of a zip archive, read from its
// central directory, and each entry's bytes decompressed by maintained
// libraries (zlib and fflate for deflate, fzstd for zstd); only the
// container index is parsed here, no decompressor. fflate's own unzipSync refuses method 93
// (zstd), and its streaming reader finds the end of an entry written with a
// data descriptor by scanning for a signature, so neither reads every
// inspect_ai log; the central directory gives every entry's exact extent.
// A deflate entry is inflated at once by zlib (node:zlib, native), told to
// stop at the size the directory states; anything else (zstd, or a deflate
// entry zlib could not inflate to exactly that size) is inflated as a stream
// (fflate's Inflate, fzstd's Decompress) fed a slice at a time, so that a
// decompression bomb is refused at its cap rather than after it has filled
// memory, and every damaged entry gets the one message the stream gives.
import zlib from "node:zlib";
// fflate's browser build: the same inflate, without the Node build's
// worker_threads (its asynchronous API's), whose loading would slow every
// CLI start
import { Inflate } from "fflate/browser";
import { Decompress as ZstdDecompress } from "fzstd";
import { InputRangeError, InputSyntaxError } from "../input_error.ts";
import {
  DEFAULT_MAX_ENTRY_BYTES,
  DEFAULT_MAX_ENTRY_RATIO,
  RATIO_FREE_BYTES,
  type ZipCaps,
} from "./_zip_caps.ts";

/** One entry of a zip archive. */
export interface ZipEntry {
  /** Entry name, `/`-separated. */
  readonly name: string;
  /** Compression method: 0 stored, 8 deflate, 93 zstd. */
  readonly method: number;
  /** CRC-32 of the uncompressed bytes. */
  readonly crc32: number;
  /** Compressed size in bytes. */
  readonly compressedSize: number;
  /** Uncompressed size in bytes. */
  readonly size: number;
  /** Offset of the entry's local header. */
  readonly offset: number;
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function fail(file: string, message: string): never {
  throw new InputSyntaxError(`Cannot read zip ${file}: ${message}`);
}

/**
 * The entries of a zip archive, by name. A name written twice (inspect_ai
 * appends a re-logged sample under the same name) resolves to its last
 * entry, as Python's `zipfile` resolves it.
 *
 * @param bytes The whole archive.
 * @param file Path for messages.
 * @returns Entries by name, in central-directory order of their last copy.
 * @throws {SyntaxError} When the bytes are not a readable zip archive.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { zipSync } from "fflate";
 * import { readZipEntries, zipEntryBytes } from "./_zip_read.ts";
 *
 * const zip = zipSync({ "a.json": new TextEncoder().encode("{}") });
 * const entries = readZipEntries(zip, "x.zip");
 * assert.equal(new TextDecoder().decode(zipEntryBytes(zip, entries.get("a.json")!, "x.zip")), "{}");
 * ```
 */
export function readZipEntries(
  bytes: Uint8Array,
  file: string,
): Map<string, ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65557); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) {
    fail(
      file,
      "no end of central directory record (not a zip archive, or truncated)",
    );
  }
  let count = view.getUint16(eocd + 10, true);
  let cdOffset = view.getUint32(eocd + 16, true);
  if (
    (count === 0xffff || cdOffset === 0xffffffff) && eocd >= 20 &&
    view.getUint32(eocd - 20, true) === EOCD64_LOCATOR
  ) {
    const at = Number(view.getBigUint64(eocd - 12, true));
    if (at + 56 > bytes.length || view.getUint32(at, true) !== EOCD64) {
      fail(file, "bad zip64 end of central directory record");
    }
    count = Number(view.getBigUint64(at + 32, true));
    cdOffset = Number(view.getBigUint64(at + 48, true));
  }
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const entries = new Map<string, ZipEntry>();
  let p = cdOffset;
  for (let k = 0; k < count; k++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== CENTRAL) {
      fail(file, `central directory entry ${k + 1} is damaged`);
    }
    const method = view.getUint16(p + 10, true);
    const crc32 = view.getUint32(p + 16, true);
    let compressedSize = view.getUint32(p + 20, true);
    let size = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    let offset = view.getUint32(p + 42, true);
    const end = p + 46 + nameLength + extraLength;
    if (end + commentLength > bytes.length) {
      fail(
        file,
        `central directory entry ${
          k + 1
        } is damaged: its name (${nameLength} bytes), extra field (${extraLength}) and comment (${commentLength}) run past the end of the file`,
      );
    }
    let name: string;
    try {
      name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLength));
    } catch {
      fail(
        file,
        `central directory entry ${k + 1} has a name that is not UTF-8`,
      );
    }
    // zip64 extended information: the 0xffffffff fields, in this order
    let e = p + 46 + nameLength;
    while (e + 4 <= end) {
      const id = view.getUint16(e, true);
      const len = view.getUint16(e + 2, true);
      const fieldEnd = e + 4 + len;
      if (fieldEnd > end) {
        fail(
          file,
          `central directory entry ${
            k + 1
          } (${name}) is damaged: extra field 0x${
            id.toString(16).padStart(4, "0")
          } of ${len} bytes runs past the end of its extra data`,
        );
      }
      if (id === 0x0001) {
        let q = e + 4;
        const next = (): number => {
          if (q + 8 > fieldEnd) {
            fail(
              file,
              `central directory entry ${
                k + 1
              } (${name}) is damaged: its zip64 field is too short`,
            );
          }
          q += 8;
          return Number(view.getBigUint64(q - 8, true));
        };
        if (size === 0xffffffff) size = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (offset === 0xffffffff) offset = next();
      }
      e = fieldEnd;
    }
    entries.delete(name);
    entries.set(name, { name, method, crc32, compressedSize, size, offset });
    p = end + commentLength;
  }
  return entries;
}

// the CRC-32 after `data`, from the CRC-32 of what came before it (0 to begin)
function crc32Update(crc: number, data: Uint8Array): number {
  return zlib.crc32(data, crc);
}

/**
 * The CRC-32 (IEEE 802.3, as zip uses it) of some bytes.
 *
 * @param data The bytes.
 * @returns The checksum, as an unsigned 32-bit integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { crc32Of } from "./_zip_read.ts";
 *
 * assert.equal(crc32Of(new TextEncoder().encode("123456789")), 0xcbf43926);
 * ```
 */
export function crc32Of(data: Uint8Array): number {
  return crc32Update(0, data);
}

// compressed bytes handed to a decompressor at a time: deflate expands at
// most about 1,032 to 1, so one slice yields at most some 16 MiB before the
// caps are checked again
const SLICE = 16 * 1024;

const MIB = 1024 * 1024;

function sizeText(n: number): string {
  return n >= MIB && n % MIB === 0 ? `${n / MIB} MiB` : `${n} bytes`;
}

/**
 * The uncompressed bytes of one entry: stored, deflate (zlib, at most the
 * size the directory states; fflate's stream for a damaged entry) or zstd
 * (fzstd, which reads the several frames inspect_ai writes for large
 * entries, as a stream). The caps are checked against the central
 * directory's sizes before inflating and against the bytes produced while
 * inflating, so an entry past a cap is refused before it fills memory; size
 * and CRC-32 are checked against the central directory.
 *
 * @param bytes The whole archive.
 * @param entry From {@linkcode readZipEntries}.
 * @param file Path for messages.
 * @param caps `maxEntryBytes` and `maxEntryRatio`.
 * @returns The entry's bytes.
 * @throws {SyntaxError} For an unknown method, a damaged entry or a checksum mismatch.
 * @throws {RangeError} For an entry past a cap, naming it and the cap's option.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { zipSync } from "fflate";
 * import { readZipEntries, zipEntryBytes } from "./_zip_read.ts";
 *
 * const zip = zipSync({ "s.txt": [new TextEncoder().encode("abc"), { level: 0 }] });
 * const entry = readZipEntries(zip, "x.zip").get("s.txt")!;
 * assert.equal(entry.method, 0);
 * assert.equal(new TextDecoder().decode(zipEntryBytes(zip, entry, "x.zip")), "abc");
 * const zeros = zipSync({ "z.bin": new Uint8Array(4 * 1024 * 1024) });
 * assert.throws(() => zipEntryBytes(zeros, readZipEntries(zeros, "z.zip").get("z.bin")!, "z.zip"),
 *   /entry z\.bin: .*--max-entry-ratio 200/);
 * ```
 */
export function zipEntryBytes(
  bytes: Uint8Array,
  entry: ZipEntry,
  file: string,
  caps: ZipCaps = {},
): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.offset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) {
    fail(file, `entry ${entry.name}: local header is damaged`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) +
    view.getUint16(at + 28, true);
  if (start + entry.compressedSize > bytes.length) {
    fail(file, `entry ${entry.name}: data runs past the end of the file`);
  }
  const raw = bytes.subarray(start, start + entry.compressedSize);
  const maxBytes = caps.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES;
  const maxRatio = caps.maxEntryRatio ?? DEFAULT_MAX_ENTRY_RATIO;
  // the most bytes the ratio lets this entry have
  const ratioBytes = Math.max(RATIO_FREE_BYTES, maxRatio * raw.length);
  // past a cap: by the directory's word (`declared`) or while inflating
  const capped = (n: number, declared: boolean): never => {
    const what = declared ? "its stated size is" : "it inflates past";
    throw new InputRangeError(
      `Cannot read zip ${file}: entry ${entry.name}: ${
        n > maxBytes
          ? `${what} ${
            sizeText(declared ? n : maxBytes)
          }, above --max-entry-bytes ${maxBytes}`
          : `${what} ${n} bytes from ${raw.length} compressed (${
            Math.floor(n / Math.max(1, raw.length))
          } to 1), above --max-entry-ratio ${maxRatio}`
      }; refused as a possible decompression bomb (raise the cap for a log you trust)`,
    );
  };
  if (entry.size > maxBytes || entry.size > ratioBytes) {
    capped(entry.size, true);
  }
  if (entry.method === 0) {
    if (raw.length !== entry.size) {
      fail(
        file,
        `entry ${entry.name}: stored with ${raw.length} bytes, the directory says ${entry.size}`,
      );
    }
    if (crc32Of(raw) !== entry.crc32) {
      fail(file, `entry ${entry.name}: CRC-32 mismatch (damaged data)`);
    }
    return raw;
  }
  if (entry.method === 8) {
    // at most the size the directory states (already within the caps);
    // an entry that is not exactly that is read again below, for its message
    let out: Uint8Array | null = null;
    try {
      // one output chunk a byte longer than the entry: no chunk to join,
      // and no buffer much larger than the entry left to the collector
      out = zlib.inflateRawSync(raw, {
        maxOutputLength: Math.max(1, entry.size),
        chunkSize: Math.max(64, entry.size + 1),
      });
    } catch {
      // damaged, or past the stated size: the stream says which
    }
    if (
      out !== null && out.length === entry.size &&
      crc32Of(out) === entry.crc32
    ) return new Uint8Array(out.buffer, out.byteOffset, out.length);
  }
  // the output goes straight into a buffer of the size the directory
  // states (already within the caps); a byte past it is damage
  const out = new Uint8Array(entry.size);
  let length = 0;
  let crc = 0;
  const take = (chunk: Uint8Array): void => {
    const n = length + chunk.length;
    if (n > maxBytes || n > ratioBytes) capped(n, false);
    if (n > entry.size) {
      fail(
        file,
        `entry ${entry.name}: inflates past the ${entry.size} bytes the directory says (damaged entry)`,
      );
    }
    out.set(chunk, length);
    crc = crc32Update(crc, chunk);
    length = n;
  };
  let push: (chunk: Uint8Array, final: boolean) => void;
  switch (entry.method) {
    case 8: {
      const inflate = new Inflate((chunk) => take(chunk));
      push = (chunk, final) => inflate.push(chunk, final);
      break;
    }
    case 93: {
      const zstd = new ZstdDecompress((chunk) => take(chunk));
      push = (chunk, final) => zstd.push(chunk, final);
      break;
    }
    default:
      fail(
        file,
        `entry ${entry.name}: compression method ${entry.method} is not supported (stored, deflate and zstd are)`,
      );
  }
  try {
    for (let i = 0; i < raw.length || i === 0; i += SLICE) {
      const end = Math.min(raw.length, i + SLICE);
      push(raw.subarray(i, end), end === raw.length);
    }
  } catch (error) {
    if (
      error instanceof InputSyntaxError || error instanceof InputRangeError
    ) throw error;
    fail(
      file,
      `entry ${entry.name}: cannot decompress: ${(error as Error).message}`,
    );
  }
  if (length !== entry.size) {
    fail(
      file,
      `entry ${entry.name}: ${length} bytes after decompression, the directory says ${entry.size}`,
    );
  }
  if (crc !== entry.crc32) {
    fail(file, `entry ${entry.name}: CRC-32 mismatch (damaged data)`);
  }
  return out;
}
