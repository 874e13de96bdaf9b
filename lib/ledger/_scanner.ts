// Private: the streaming line scanner behind ledger verification. It walks a
// ledger's bytes line by line, checks each line's framing, position, hash and
// link through a line format (lossbook's or LossBench's), and stops at the
// first bad record; it then reads on only as far as needed to tell a deleted
// line from a moved one. Bytes come in chunks of any size, so a file of any
// length is verified in constant memory.
import { bytesEqual } from "./_sha256.ts";
import { ledgerFileInfo } from "./_ledger_file.ts";

import type { LedgerProblem, UnacknowledgedTail } from "./verify.ts";

/** A line's parts, as a format reads them. */
export interface Frame {
  /** The line's sequence number. */
  seq: number;
  /** Offset and length of the line's `prev` value. */
  prevAt: number;
  prevLen: number;
  /** Offset of the line's own 64-hex hash. */
  hashAt: number;
}

/** How one ledger format frames and hashes a line. */
export interface LineFormat {
  /** Name used in messages: "lossbook" or "LossBench". */
  readonly name: string;
  /** The first line's prev, as bytes. */
  readonly genesis: Uint8Array;
  /**
   * Read a line's framing into `out` and return `null`, or return why it is
   * not a line of this format. (`out` is reused line after line: the hot
   * loop allocates nothing per line.)
   */
  frame(buf: Uint8Array, s: number, e: number, out: Frame): string | null;
  /** Whether the line's stored hash equals the hash of its content. */
  hashMatches(buf: Uint8Array, s: number, e: number, frame: Frame): boolean;
}

/** The result of scanning. */
export interface ScanResult {
  readonly valid: boolean;
  readonly records: number;
  readonly head: string;
  readonly firstBadSeq: number | null;
  readonly problem: LedgerProblem | null;
  readonly reason: string | null;
  readonly bytes: number;
  readonly goodBytes: number;
  readonly unacknowledged: UnacknowledgedTail | null;
}

const SEQ_TAIL = new TextEncoder().encode(',"seq":');

/** The sequence number at the end of a line `...,"seq":N}`, or null. */
export function seqAtEnd(buf: Uint8Array, s: number, e: number): number | null {
  if (e - s < 9 || buf[e - 1] !== 125) return null;
  let i = e - 2;
  let value = 0;
  let scale = 1;
  while (i >= s && buf[i] >= 48 && buf[i] <= 57) {
    value += (buf[i] - 48) * scale;
    scale *= 10;
    i--;
  }
  const digits = e - 2 - i;
  if (digits === 0 || digits > 15) return null;
  if (digits > 1 && buf[i + 1] === 48) return null;
  if (i - 6 < s || !bytesEqual(buf, i - 6, SEQ_TAIL, 0, 7)) return null;
  return value;
}

/** Offset of `,"seq":` at the end of a line (valid when seqAtEnd is not null). */
export function seqTailAt(buf: Uint8Array, s: number, e: number): number {
  let i = e - 2;
  while (i >= s && buf[i] >= 48 && buf[i] <= 57) i--;
  return i - 6;
}

const decoder = new TextDecoder();
const ascii = (buf: Uint8Array, at: number, n: number) =>
  decoder.decode(buf.subarray(at, at + n));

interface Failure {
  problem: LedgerProblem;
  firstBadSeq: number;
  reason: string;
  /** For a position mismatch: the seq found, and whether to look ahead. */
  found?: number;
}

/** Streaming scanner; feed chunks with push(), then call finish(). */
export class LedgerScanner {
  #format: LineFormat;
  #path: string;
  #anchor: { seq: number; hash: string } | null;
  #expected = 1;
  // the previous line's hash and the one before it, in two reused buffers
  #prev = new Uint8Array(64);
  #prevLen = 0;
  #prevPrev = new Uint8Array(64);
  #prevPrevLen = 0;
  #frame: Frame = { seq: 0, prevAt: 0, prevLen: 0, hashAt: 0 };
  #goodEnd = 0;
  #prevGoodEnd = 0;
  #offset = 0;
  #line = 0;
  #carry: Uint8Array | null = null;
  #failure: Failure | null = null;
  #lookFor: number | null = null;
  #foundLater = false;
  #done = false;
  #anchorHash: string | null = null;
  // where the anchored record ends, once it has verified
  #anchorEnd: number | null = null;

  constructor(
    format: LineFormat,
    path: string,
    anchor: { seq: number; hash: string } | null,
  ) {
    this.#format = format;
    this.#path = path;
    this.#anchor = anchor;
    this.#prev.set(format.genesis);
    this.#prevLen = format.genesis.length;
    this.#prevPrev.set(format.genesis);
    this.#prevPrevLen = format.genesis.length;
  }

  /** Whether the scanner needs no more bytes. */
  get done(): boolean {
    return this.#done;
  }

  /** Scan a chunk. The scanner reads but never writes `chunk`. */
  push(chunk: Uint8Array): void {
    if (this.#done) return;
    let pos = 0;
    if (this.#carry !== null) {
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        const joined = new Uint8Array(this.#carry.length + chunk.length);
        joined.set(this.#carry);
        joined.set(chunk, this.#carry.length);
        this.#carry = joined;
        return;
      }
      const line = new Uint8Array(this.#carry.length + nl + 1);
      line.set(this.#carry);
      line.set(chunk.subarray(0, nl + 1), this.#carry.length);
      this.#carry = null;
      this.#lineAt(line, 0, line.length - 1);
      pos = nl + 1;
    }
    while (!this.#done) {
      const nl = chunk.indexOf(10, pos);
      if (nl < 0) {
        if (pos < chunk.length) this.#carry = chunk.slice(pos);
        return;
      }
      this.#lineAt(chunk, pos, nl);
      pos = nl + 1;
    }
  }

  #lineAt(buf: Uint8Array, s: number, e: number): void {
    this.#line++;
    const lineStart = this.#offset;
    this.#offset += e - s + 1;
    if (this.#failure !== null) {
      if (seqAtEnd(buf, s, e) === this.#lookFor) {
        this.#foundLater = true;
        this.#done = true;
      }
      return;
    }
    const k = this.#expected;
    const where = `line ${this.#line}`;
    const frame = this.#frame;
    const bad = this.#format.frame(buf, s, e, frame);
    if (bad !== null) {
      this.#fail({
        problem: "malformed",
        firstBadSeq: k,
        reason:
          `record ${k} (${where}) is not a ${this.#format.name} ledger line: ${bad}`,
      });
      return;
    }
    if (frame.seq !== k) {
      if (frame.seq > k) {
        this.#lookFor = k;
        this.#failure = {
          problem: "deleted",
          firstBadSeq: k,
          reason: "",
          found: frame.seq,
        };
      } else {
        this.#fail({
          problem: "duplicated",
          firstBadSeq: k,
          reason:
            `${where} holds record ${frame.seq} again where record ${k} was expected: a duplicated line`,
        });
      }
      return;
    }
    if (!this.#format.hashMatches(buf, s, e, frame)) {
      this.#fail({
        problem: "edited",
        firstBadSeq: k,
        reason:
          `record ${k} (${where}) does not match its hash: the line was edited after it was written`,
      });
      return;
    }
    const prev = this.#prev;
    const prevLen = this.#prevLen;
    if (
      frame.prevLen !== prevLen ||
      !bytesEqual(buf, frame.prevAt, prev, 0, prevLen)
    ) {
      const firstBad = k === 1 ? 1 : k - 1;
      const shown = ascii(prev, 0, Math.min(prevLen, 16));
      if (k > 1) {
        // record k-1 can no longer be trusted: step the good prefix back
        this.#goodEnd = this.#prevGoodEnd;
        [this.#prev, this.#prevPrev] = [this.#prevPrev, this.#prev];
        this.#prevLen = this.#prevPrevLen;
        this.#expected = k - 1;
      }
      this.#fail({
        problem: "edited",
        firstBadSeq: firstBad,
        reason: k === 1
          ? `record 1 (${where}) does not start the chain: its prev is ${
            JSON.stringify(ascii(buf, frame.prevAt, frame.prevLen))
          }, not the genesis value`
          : `record ${k} (${where}) does not chain to record ${
            k - 1
          }: it links to ${
            ascii(buf, frame.prevAt, Math.min(frame.prevLen, 16))
          }…, but record ${k - 1} hashes to ${shown}…; record ${
            k - 1
          } was rewritten or line ${this.#line} replaced`,
      });
      return;
    }
    // rotate: the current hash becomes prev, prev becomes prevPrev
    const next = this.#prevPrev;
    next.set(buf.subarray(frame.hashAt, frame.hashAt + 64));
    this.#prevPrev = prev;
    this.#prevPrevLen = prevLen;
    this.#prev = next;
    this.#prevLen = 64;
    this.#prevGoodEnd = this.#goodEnd;
    this.#goodEnd = lineStart + (e - s + 1);
    this.#expected = k + 1;
    if (this.#anchor !== null && k === this.#anchor.seq) {
      this.#anchorHash = ascii(next, 0, 64);
      this.#anchorEnd = this.#goodEnd;
    }
  }

  #fail(f: Failure): void {
    this.#failure = f;
    this.#done = true;
  }

  /**
   * Finish the scan and report. `size`, the whole length of the input, is
   * needed only to measure an unacknowledged tail when the scan stopped early.
   */
  finish(size?: number): ScanResult {
    const torn = this.#carry === null ? 0 : this.#carry.length;
    const bytes = this.#offset + torn;
    const tail = this.#unacknowledged(Math.max(size ?? 0, bytes));
    if (tail !== null) {
      // the anchor vouches for its records; what follows was never
      // acknowledged, whatever it holds (records, a torn line, damage)
      return {
        valid: true,
        records: this.#anchor!.seq,
        head: this.#anchor!.seq === 0
          ? ascii(this.#format.genesis, 0, this.#format.genesis.length)
          : this.#anchor!.hash,
        firstBadSeq: null,
        problem: null,
        reason: null,
        bytes,
        goodBytes: tail.offset,
        unacknowledged: tail,
      };
    }
    let f = this.#failure;
    if (f !== null && f.found !== undefined) {
      const k = f.firstBadSeq;
      f = this.#foundLater
        ? {
          problem: "reordered",
          firstBadSeq: k,
          reason:
            `record ${k} is out of place: line ${k} holds record ${f.found} and record ${k} comes later (reordered lines)`,
        }
        : {
          problem: "deleted",
          firstBadSeq: k,
          reason: f.found === k + 1
            ? `record ${k} is missing: line ${k} holds record ${f.found} (a deleted line)`
            : `records ${k} to ${
              f.found - 1
            } are missing: line ${k} holds record ${f.found} (deleted lines)`,
        };
    }
    const records = this.#expected - 1;
    const anchor = this.#anchor;
    if (
      (f === null) && anchor !== null && anchor.seq > records
    ) {
      f = {
        problem: "truncated",
        firstBadSeq: records + 1,
        reason:
          `the ledger is truncated: its head file records record ${anchor.seq} (hash ${
            anchor.hash.slice(0, 16)
          }…), but the file ends ${
            torn > 0 ? `with a torn line ` : ""
          }after record ${records}`,
      };
    } else if (f === null && torn > 0) {
      f = {
        problem: "torn",
        firstBadSeq: records + 1,
        reason: `record ${
          records + 1
        } is torn: the file ends with ${torn} bytes that are not a complete line (an interrupted append); 'lossbook ledger repair' moves them to a side file`,
      };
    } else if (
      f === null && anchor !== null && anchor.seq > 0 &&
      this.#anchorHash !== anchor.hash
    ) {
      f = {
        problem: "edited",
        firstBadSeq: anchor.seq,
        reason: `record ${anchor.seq} hashes to ${
          (this.#anchorHash ?? "").slice(0, 16)
        }…, not to the ${
          anchor.hash.slice(0, 16)
        }… its head file recorded: the ledger was rewritten at or before record ${anchor.seq}`,
      };
    }
    const path = this.#path;
    return {
      valid: f === null,
      records,
      head: ascii(this.#prev, 0, this.#prevLen),
      firstBadSeq: f === null ? null : f.firstBadSeq,
      problem: f === null ? null : f.problem,
      reason: f === null ? null : `${path}: ${f.reason}`,
      bytes,
      goodBytes: this.#goodEnd,
      unacknowledged: null,
    };
  }

  /** The bytes past the anchored record, when the anchor verified and there are some. */
  #unacknowledged(size: number): UnacknowledgedTail | null {
    const anchor = this.#anchor;
    if (anchor === null) return null;
    const end = anchor.seq === 0
      ? 0
      : this.#anchorHash === anchor.hash
      ? this.#anchorEnd
      : null;
    if (end === null || size <= end) return null;
    // records that verified past the anchor, up to a failure if there was one
    const verified = this.#failure === null || this.#failure.found !== undefined
      ? this.#expected - 1
      : this.#failure.firstBadSeq - 1;
    return {
      offset: end,
      bytes: size - end,
      records: Math.max(0, verified - anchor.seq),
    };
  }
}

/** Scan bytes held in memory. */
export function scanBytes(
  format: LineFormat,
  bytes: Uint8Array,
  path: string,
  anchor: { seq: number; hash: string } | null,
): ScanResult {
  const scanner = new LedgerScanner(format, path, anchor);
  scanner.push(bytes);
  return scanner.finish(bytes.length);
}

/** Stream a file through a scanner, `chunkBytes` at a time. */
export async function scanFile(
  format: LineFormat,
  path: string,
  anchor: { seq: number; hash: string } | null,
  chunkBytes: number,
): Promise<ScanResult> {
  const scanner = new LedgerScanner(format, path, anchor);
  await ledgerFileInfo(path, `Cannot read ledger ${path}`);
  using file = await Deno.open(path, { read: true });
  const size = (await file.stat()).size;
  for (;;) {
    const buf = new Uint8Array(chunkBytes);
    let filled = 0;
    while (filled < chunkBytes) {
      const n = await file.read(buf.subarray(filled));
      if (n === null) break;
      filled += n;
    }
    if (filled > 0) scanner.push(buf.subarray(0, filled));
    if (filled < chunkBytes || scanner.done) break;
  }
  return scanner.finish(size);
}
