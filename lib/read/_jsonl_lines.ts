// Private: the lines of a JSONL file, streamed as bytes so that a file of
// any size short of the disk is read without one string of it all (V8 caps
// a string near 2^29 characters). Lines are cut at byte 0x0A, which never
// occurs inside a multi-byte UTF-8 sequence, so a character split across
// read chunks is whole in its line; each line is decoded strictly (invalid
// UTF-8 is an error naming the line, never a replacement character) and a
// trailing CR is dropped (CRLF files).

import { InputSyntaxError } from "../input_error.ts";
import { invalidUtf8At } from "./_utf8.ts";
import { openInput, regularFile } from "./_regular_file.ts";

/** One line of a JSONL file. */
export interface JsonlLine {
  /** The line's text, without its newline (and without a trailing CR). */
  readonly text: string;
  /** 1-based line number. */
  readonly line: number;
  /** Byte offset of the line's first byte in the file. */
  readonly offset: number;
}

/** Options for {@linkcode jsonlLines}. */
/** A part of a file: `start` inclusive, `end` exclusive (bytes). */
export interface ByteRange {
  /** First byte. Default: 0 (a leading BOM is skipped only there). */
  start?: number;
  /** Byte after the last. Default: the end of the file. */
  end?: number;
}

/** Options of the JSONL line reader. */
export interface JsonlLinesOptions {
  /** Bytes per read. Default: 1 MiB (tests use a few bytes to split lines and characters). */
  chunkSize?: number;
}

const fatal = new TextDecoder("utf-8", { fatal: true });
const plain = new TextDecoder("utf-8");

// A chunk's (or a line's) text, or null where it is not valid UTF-8. The
// plain decoder is the faster, and an invalid sequence decodes as U+FFFD, so
// only text holding one is decoded again, strictly.
function decodeChunk(bytes: Uint8Array): string | null {
  const text = plain.decode(bytes);
  if (!text.includes("\uFFFD")) return text;
  try {
    return fatal.decode(bytes);
  } catch {
    return null;
  }
}

export function decodeLine(
  bytes: Uint8Array,
  where: string,
  line: number,
  offset: number,
): string {
  const text = decodeChunk(bytes);
  if (text !== null) return text;
  const bad = Math.max(0, invalidUtf8At(bytes));
  throw new InputSyntaxError(
    `${where}: line ${line}: not valid UTF-8 at byte ${offset + bad} (0x${
      (bytes[bad] ?? 0).toString(16).padStart(2, "0")
    })`,
  );
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * The lines of a file, streamed, in batches (one per read chunk: a
 * generator step per line would cost more than the lines).
 *
 * @param path The file.
 * @param where Error prefix, e.g. `Cannot load run export a.jsonl`.
 * @param options Chunk size.
 */
export async function* jsonlLines(
  path: string,
  where: string,
  options: JsonlLinesOptions = {},
): AsyncGenerator<JsonlLine[]> {
  const size = options.chunkSize ?? 1 << 20;
  await regularFile(path, where);
  using file = await openInput(path);
  let carry: Uint8Array = new Uint8Array(0);
  let carryOffset = 0; // file offset of carry[0]
  let line = 0;
  const buf = new Uint8Array(size);
  let eof = false;
  let first = true;
  while (!eof) {
    const n = await file.read(buf);
    let bytes: Uint8Array;
    if (n === null) {
      eof = true;
      bytes = carry;
    } else {
      bytes = concat(carry, buf.slice(0, n));
    }
    let pos = 0;
    if (
      first && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb &&
      bytes[2] === 0xbf
    ) pos = 3; // a leading BOM
    if (bytes.length >= 3 || eof) first = false;
    const last = eof ? bytes.length : bytes.lastIndexOf(10) + 1;
    const batch: JsonlLine[] = [];
    if (last > pos) {
      const part = bytes.subarray(pos, last);
      // invalid UTF-8 is found line by line below
      const text = decodeChunk(part);
      if (text !== null && text.length === part.length) {
        // ASCII: character offsets are byte offsets
        let start = 0;
        while (start < text.length) {
          let nl = text.indexOf("\n", start);
          if (nl < 0) nl = text.length;
          line++;
          const end = nl > start && text.charCodeAt(nl - 1) === 13
            ? nl - 1
            : nl;
          batch.push({
            text: text.slice(start, end),
            line,
            offset: carryOffset + pos + start,
          });
          start = nl + 1;
        }
      } else {
        let p = pos;
        while (p < last) {
          let nl = bytes.indexOf(10, p);
          if (nl < 0 || nl >= last) nl = last;
          line++;
          let end = nl;
          if (end > p && bytes[end - 1] === 13) end--;
          batch.push({
            text: decodeLine(
              bytes.subarray(p, end),
              where,
              line,
              carryOffset + p,
            ),
            line,
            offset: carryOffset + p,
          });
          p = nl + 1;
        }
      }
      pos = last;
    }
    if (batch.length > 0) yield batch;
    carryOffset += pos;
    carry = bytes.slice(pos);
  }
}

/**
 * The line that starts at a byte offset, read back from the file (for the
 * rare confirmation of a repeated key), and its line number when wanted.
 */
export class LineReader implements Disposable {
  #file: Deno.FsFile;
  #where: string;

  constructor(path: string, where: string) {
    this.#file = Deno.openSync(path, { read: true });
    this.#where = where;
  }

  /** The text of the line starting at `offset`. */
  textAt(offset: number): string {
    this.#file.seekSync(offset, Deno.SeekMode.Start);
    let out: Uint8Array = new Uint8Array(0);
    const buf = new Uint8Array(4096);
    for (;;) {
      const n = this.#file.readSync(buf);
      if (n === null) break;
      const nl = buf.subarray(0, n).indexOf(10);
      if (nl >= 0) {
        out = concat(out, buf.slice(0, nl));
        break;
      }
      out = concat(out, buf.slice(0, n));
    }
    let end = out.length;
    if (end > 0 && out[end - 1] === 13) end--;
    return decodeLine(out.subarray(0, end), this.#where, 0, 0);
  }

  /** The 1-based line number of a byte offset (counts newlines before it). */
  lineOf(offset: number): number {
    this.#file.seekSync(0, Deno.SeekMode.Start);
    const buf = new Uint8Array(1 << 16);
    let line = 1;
    let read = 0;
    while (read < offset) {
      const n = this.#file.readSync(buf);
      if (n === null) break;
      const upto = Math.min(n, offset - read);
      for (let i = 0; i < upto; i++) if (buf[i] === 10) line++;
      read += n;
    }
    return line;
  }

  [Symbol.dispose](): void {
    this.#file.close();
  }
}

/**
 * Whether `b[s, e)` is blank as `String.prototype.trim` sees ASCII: only
 * tab, LF, VT, FF, CR and space. (A line with other bytes may still trim to
 * nothing, through Unicode spaces: decode it to know.)
 */
export function isBlank(b: Uint8Array, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const c = b[i];
    if (c !== 32 && (c < 9 || c > 13)) return false;
  }
  return true;
}

/**
 * Call `onLine(bytes, start, end, line, offset)` for each line of a file:
 * `bytes[start, end)` is the line without its LF (and without a trailing
 * CR), `line` its 1-based number, `offset` the file offset of its first
 * byte. The bytes are valid only during the call. With `matchLine`, each
 * line is first offered to it: it returns where the line's content ends
 * when it read the line (then `matched` is true), or -1; this spares the
 * search for the line end of lines the matcher reads whole. A leading UTF-8 BOM is
 * skipped. Reads `chunkSize` bytes at a time (default 4 MiB) into one
 * buffer that grows only for a line longer than itself: no size limit
 * short of the disk, and no string is made. With `range`, reads only
 * those bytes, numbering lines from 1 at `range.start`.
 */
type OnLine = (
  bytes: Uint8Array,
  start: number,
  end: number,
  line: number,
  offset: number,
  matched: boolean,
) => void;
type MatchLine = (bytes: Uint8Array, start: number, limit: number) => number;

// The lines of one buffer from `pos`, each given to onLine; returns where
// the unfinished last line starts (all of them are finished at eof). A
// synchronous function of its own, so that the engine optimizes the hot
// loop once, not the async reader around it at every chunk.
function linesOf(
  view: Uint8Array,
  pos: number,
  eof: boolean,
  base: number,
  cursor: { line: number },
  onLine: OnLine,
  matchLine: MatchLine | undefined,
): number {
  const filled = view.length;
  let line = cursor.line;
  for (;;) {
    if (matchLine !== undefined && pos < filled) {
      // a line the matcher reads to its end, where a line end follows
      const end = matchLine(view, pos, filled);
      if (end >= 0) {
        const nl = end < filled && view[end] === 10
          ? end
          : end + 1 < filled && view[end] === 13 && view[end + 1] === 10
          ? end + 1
          : eof && end === filled
          ? end
          : -1;
        if (nl >= 0) {
          line++;
          onLine(view, pos, end, line, base + pos, true);
          pos = nl + 1;
          continue;
        }
      }
    }
    const nl = lineBreak(view, pos, eof);
    if (nl < 0) break;
    line++;
    onLine(view, pos, contentEnd(view, pos, nl), line, base + pos, false);
    pos = nl + 1;
  }
  cursor.line = line;
  return pos;
}

/**
 * Where the line that starts at `pos` of `view` breaks: its LF, or, at the
 * end of the file, the end of the bytes for a last line without one; -1
 * when the line is not all in `view` yet, or no line starts there.
 */
export function lineBreak(view: Uint8Array, pos: number, eof: boolean): number {
  const nl = view.indexOf(10, pos);
  if (nl >= 0) return nl;
  return eof && pos < view.length ? view.length : -1;
}

/** Where the content of the line `[pos, nl)` ends: before a trailing CR. */
export function contentEnd(view: Uint8Array, pos: number, nl: number): number {
  return nl > pos && view[nl - 1] === 13 ? nl - 1 : nl;
}

export async function jsonlByteLines(
  path: string,
  options: JsonlLinesOptions,
  onLine: OnLine,
  matchLine?: MatchLine,
  range: ByteRange = {},
  onBuffer?: (bytes: Uint8Array) => void,
): Promise<void> {
  const cursor = { line: 0 };
  await jsonlChunks(
    path,
    options,
    range,
    SPARE_BUFFERS,
    (view, pos, eof, base) => {
      onBuffer?.(view);
      return linesOf(view, pos, eof, base, cursor, onLine, matchLine);
    },
  );
}

/** Where {@linkcode jsonlChunks} reads into. */
export interface ChunkBuffers {
  /**
   * A buffer of at least `size` bytes whose first `keep` bytes are those of
   * `old` (null for the first buffer of a read).
   */
  next(old: Uint8Array | null, size: number, keep: number): Uint8Array;
  /** The read is over; `last` was its buffer. */
  release?(last: Uint8Array): void;
}

// one read buffer kept between reads (a worker reads segment after
// segment), grown by copying for a line longer than itself
let spare: Uint8Array | null = null;
const SPARE_BUFFERS: ChunkBuffers = {
  next(old, size, keep) {
    if (old === null) {
      const b = spare !== null && spare.length >= size
        ? spare
        : new Uint8Array(size);
      spare = null; // this read's own until it is released
      return b;
    }
    const bigger = new Uint8Array(size);
    bigger.set(old.subarray(0, keep));
    return bigger;
  },
  release(last) {
    spare = last;
  },
};

/**
 * Read a file (or `range` of it) `chunkSize` bytes at a time (default 4
 * MiB) and give `onChunk` the bytes held so far after each read: the view,
 * where its first line starts (past a leading UTF-8 BOM), whether the file
 * (or range) ends there, and the file offset of the view's first byte.
 * `onChunk` returns where the unfinished last line starts (the view's end
 * at the end of the file); those bytes are kept at the front for the next
 * read, in a buffer that grows only for a line longer than itself. The
 * bytes live in `buffers`.
 */
export async function jsonlChunks(
  path: string,
  options: JsonlLinesOptions,
  range: ByteRange,
  buffers: ChunkBuffers,
  onChunk: (
    view: Uint8Array,
    start: number,
    eof: boolean,
    base: number,
  ) => number,
): Promise<void> {
  const chunk = options.chunkSize ?? 1 << 22;
  using file = await Deno.open(path, { read: true });
  const from = range.start ?? 0;
  let left = range.end === undefined ? Infinity : range.end - from;
  if (from > 0) await file.seek(from, Deno.SeekMode.Start);
  let buf = buffers.next(null, Math.max(Math.min(chunk, left), 1 << 16), 0);
  let filled = 0; // bytes held in buf
  let base = from; // file offset of buf[0]
  let eof = false;
  let start = from === 0 ? -1 : 0; // -1 until the BOM check is done
  try {
    while (!eof) {
      const want = Math.min(chunk, left);
      if (buf.length - filled < want) {
        buf = buffers.next(
          buf,
          Math.max(buf.length * 2, filled + want),
          filled,
        );
      }
      const n = want === 0
        ? null
        : await file.read(buf.subarray(filled, filled + want));
      if (n === null) eof = true;
      else {
        filled += n;
        left -= n;
      }
      if (start < 0) {
        if (filled < 3 && !eof) continue;
        start = filled >= 3 && buf[0] === 0xef && buf[1] === 0xbb &&
            buf[2] === 0xbf
          ? 3
          : 0;
      }
      const pos = onChunk(buf.subarray(0, filled), start, eof, base);
      if (eof) break;
      // keep the unfinished line at the front
      buf.copyWithin(0, pos, filled);
      base += pos;
      filled -= pos;
      start = 0;
    }
  } finally {
    buffers.release?.(buf);
  }
}
