/**
 * Chain verification of LossBench ledger exports.
 *
 * LossBench hashes each event as `sha256(json.dumps(event, sort_keys=True,
 * separators=(",", ":")) + "|" + prev_hash)`, starting from the genesis
 * value `"GENESIS"`. Python writes floats as `0.0` and escapes non-ASCII
 * characters, which JavaScript cannot re-create from a parsed value; but an
 * export line is itself compact, key-sorted JSON, so the event's canonical
 * text is a byte range of the line. Verification hashes that range as it
 * stands and never re-serialises. A line in any other layout (pretty-printed,
 * keys reordered) is reported as malformed rather than guessed at.
 *
 * Reading the decisions out of an export is `parseLossbenchLedger` in
 * lib/import, which requires saying what `calibrated_probability` means.
 *
 * @module
 */

import { createHash } from "node:crypto";
import {
  type Frame,
  type LineFormat,
  scanBytes,
  scanFile,
  seqAtEnd,
  seqTailAt,
} from "./_scanner.ts";
import { bytesEqual, hexEquals } from "./_sha256.ts";
import type { LedgerVerification } from "./verify.ts";

/** The `prev_hash` of the first event of a LossBench ledger. */
export const LOSSBENCH_GENESIS = "GENESIS";

const enc = new TextEncoder();
const P_CHAIN = enc.encode('{"chain_hash":"');
const P_EVENT = enc.encode('","event":');
const P_PREV = enc.encode(',"prev_hash":"');
const BAR = enc.encode("|");
const EVENT_AT = P_CHAIN.length + 64 + P_EVENT.length;

function lastIndexOf(
  buf: Uint8Array,
  lit: Uint8Array,
  from: number,
  s: number,
): number {
  for (let i = from; i >= s; i--) {
    if (buf[i] === lit[0] && bytesEqual(buf, i, lit, 0, lit.length)) return i;
  }
  return -1;
}

const LOSSBENCH: LineFormat = {
  name: "LossBench",
  genesis: enc.encode(LOSSBENCH_GENESIS),
  frame(buf: Uint8Array, s: number, e: number, out: Frame): string | null {
    if (e - s < EVENT_AT + 20) return "too short";
    if (!bytesEqual(buf, s, P_CHAIN, 0, P_CHAIN.length)) {
      return 'it does not start with {"chain_hash":" (not compact key-sorted JSON)';
    }
    if (!bytesEqual(buf, s + 79, P_EVENT, 0, P_EVENT.length)) {
      return "event does not follow chain_hash (not compact key-sorted JSON)";
    }
    const seq = seqAtEnd(buf, s, e);
    if (seq === null) return 'it does not end with ,"seq":<number>}';
    const tail = seqTailAt(buf, s, e);
    // the prev_hash string ends just before ,"seq":
    if (buf[tail - 1] !== 34) return "prev_hash is not a string";
    const p = lastIndexOf(buf, P_PREV, tail - 1 - P_PREV.length, s + EVENT_AT);
    if (p < 0) return "prev_hash does not follow event";
    const prevAt = p + P_PREV.length;
    const prevLen = tail - 1 - prevAt;
    if (buf[s + EVENT_AT] !== 123 || buf[p - 1] !== 125) {
      return "event is not a JSON object";
    }
    out.seq = seq;
    out.prevAt = prevAt;
    out.prevLen = prevLen;
    out.hashAt = s + 15;
    return null;
  },
  hashMatches(buf: Uint8Array, s: number, _e: number, frame: Frame): boolean {
    const eventEnd = frame.prevAt - P_PREV.length;
    const hex = createHash("sha256")
      .update(buf.subarray(s + EVENT_AT, eventEnd))
      .update(BAR)
      .update(buf.subarray(frame.prevAt, frame.prevAt + frame.prevLen))
      .digest("hex");
    return hexEquals(hex, buf, frame.hashAt);
  },
};

/**
 * Verify the hash chain of a LossBench ledger export held in memory.
 *
 * @param bytes The export's bytes.
 * @param options The path to name in reasons. Default: `"<inline>"`.
 * @returns What verification found, in the same shape as for lossbook
 * ledgers; `head` is the last `chain_hash` (`"GENESIS"` for an empty file).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifyLossbenchLedger } from "./lossbench_chain.ts";
 *
 * const bytes = await Deno.readFile("data/examples/lossbench_ledger.jsonl");
 * const v = verifyLossbenchLedger(bytes);
 * assert.deepEqual([v.valid, v.records], [true, 10]);
 * const i = bytes.indexOf(0x39); // the first "9" in the file, inside record 1
 * bytes[i] = 0x38;
 * assert.equal(verifyLossbenchLedger(bytes).firstBadSeq, 1);
 * ```
 */
export function verifyLossbenchLedger(
  bytes: Uint8Array,
  options: { path?: string } = {},
): LedgerVerification {
  return scanBytes(LOSSBENCH, bytes, options.path ?? "<inline>", null);
}

/**
 * Verify a LossBench ledger export file in constant memory.
 *
 * @param path Path of the export.
 * @returns What verification found.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifyLossbenchLedgerFile } from "./lossbench_chain.ts";
 *
 * const v = await verifyLossbenchLedgerFile("data/examples/lossbench_ledger.jsonl");
 * assert.equal(v.valid, true);
 * assert.equal(v.head.length, 64);
 * ```
 */
export async function verifyLossbenchLedgerFile(
  path: string,
): Promise<LedgerVerification> {
  return await scanFile(LOSSBENCH, path, null, 8 << 20);
}
