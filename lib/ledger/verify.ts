/**
 * Ledger verification: walk the chain and name the first bad record.
 *
 * Each line is checked for its framing, its position (`seq` counts 1, 2, …),
 * its hash (SHA-256 of its canonical content, see chain.ts) and its link
 * (`prev` equals the previous line's hash). The first failure is reported
 * with the record it makes untrustworthy and what it looks like: an edited
 * field, a deleted line, reordered or duplicated lines, a torn last line (an
 * append interrupted by a crash) or a truncated file. A truncation that ends
 * on a line boundary leaves a valid chain, so it is caught only against an
 * anchor: the head file the writer keeps next to the ledger, or a head
 * recorded elsewhere. Against an anchor, the bytes past the anchored record
 * are an unacknowledged tail (an append cut short before it updated the head
 * file), reported apart from the verdict: the ledger is valid up to the
 * anchor. A tear or a gap before the anchored record stays damage.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { hexEquals } from "./_sha256.ts";
import {
  type Frame,
  type LineFormat,
  scanBytes,
  scanFile,
  seqAtEnd,
  seqTailAt,
} from "./_scanner.ts";
import { LEDGER_GENESIS, type LedgerHead } from "./chain.ts";
import { InputSyntaxError } from "../input_error.ts";
import { ledgerFileInfo } from "./_ledger_file.ts";

/**
 * What makes a record untrustworthy: `edited` (its content or a link no
 * longer matches), `deleted` (missing lines), `reordered` (a record out of
 * place), `duplicated` (a record repeated), `truncated` (the file ends before
 * its anchored head), `torn` (an incomplete last line) or `malformed` (a
 * line that is not a ledger line).
 */
export type LedgerProblem =
  | "edited"
  | "deleted"
  | "reordered"
  | "duplicated"
  | "truncated"
  | "torn"
  | "malformed";

/** What verification found. */
export interface LedgerVerification {
  /** Whether every record checked out. */
  readonly valid: boolean;
  /** Records verified, in order from 1, before the first bad one. */
  readonly records: number;
  /** Hash of the last verified record; the genesis value when there is none. */
  readonly head: string;
  /** The first record that cannot be trusted, or `null` when valid. */
  readonly firstBadSeq: number | null;
  /** What went wrong, or `null` when valid. */
  readonly problem: LedgerProblem | null;
  /** One sentence naming the file, the record and the problem, or `null`. */
  readonly reason: string | null;
  /** Bytes read. */
  readonly bytes: number;
  /** Length of the verified prefix in bytes: where a repair would cut. */
  readonly goodBytes: number;
  /**
   * What follows the record the anchor acknowledges, or `null`: the bytes of
   * an append interrupted before it updated the head file, never reported to
   * anyone. The ledger is valid up to the anchor; `records`, `head` and
   * `goodBytes` describe it there.
   */
  readonly unacknowledged: UnacknowledgedTail | null;
}

/**
 * Bytes past the last record an anchor acknowledges: what an append that was
 * interrupted before it updated the head file leaves behind (complete
 * records, a torn line), never reported to anyone.
 */
export interface UnacknowledgedTail {
  /** Offset where the tail starts: the end of the acknowledged record. */
  readonly offset: number;
  /** Length of the tail in bytes. */
  readonly bytes: number;
  /** Complete records in it that chain on from the acknowledged head. */
  readonly records: number;
}

/** Options for verification. */
export interface VerifyOptions {
  /**
   * A head recorded elsewhere (the writer's head file, a report, a
   * regulator's copy): the ledger must reach `anchor.seq` and hash to
   * `anchor.hash` there. Default: `null`, no anchor.
   */
  anchor?: LedgerHead | null;
  /** File path shown in reasons. Default: `"<inline>"`. */
  path?: string;
}

const enc = new TextEncoder();
const P_HASH = enc.encode('{"hash":"');
const P_PREV = enc.encode('","prev":"');
const P_RECORD = enc.encode('","record":');
const OPEN = enc.encode("{");

function startsWith(
  buf: Uint8Array,
  at: number,
  lit: Uint8Array,
): boolean {
  for (let i = 0; i < lit.length; i++) if (buf[at + i] !== lit[i]) return false;
  return true;
}

// SHA-256 state after "{": each line's body is hashed from a copy of it
const OPEN_STATE = createHash("sha256").update(OPEN);

const LOSSBOOK: LineFormat = {
  name: "lossbook",
  genesis: enc.encode(LEDGER_GENESIS),
  frame(buf: Uint8Array, s: number, e: number, out: Frame): string | null {
    // The hashes are not checked for hex here: a stored hash that is not
    // the hex digest fails the hash comparison, and a prev that is not the
    // previous hash fails the link, which is all the hot loop needs.
    if (e - s < 170) return "too short";
    if (!startsWith(buf, s, P_HASH)) return 'it does not start with {"hash":"';
    if (!startsWith(buf, s + 73, P_PREV)) return "prev does not follow hash";
    if (!startsWith(buf, s + 147, P_RECORD)) {
      return "record does not follow prev";
    }
    const seq = seqAtEnd(buf, s, e);
    if (seq === null) return 'it does not end with ,"seq":<number>}';
    const tail = seqTailAt(buf, s, e);
    if (buf[s + 158] !== 123 || buf[tail - 1] !== 125) {
      return "record is not a JSON object";
    }
    out.seq = seq;
    out.prevAt = s + 83;
    out.prevLen = 64;
    out.hashAt = s + 9;
    return null;
  },
  hashMatches(buf: Uint8Array, s: number, e: number): boolean {
    const hex = OPEN_STATE.copy().update(buf.subarray(s + 75, e)).digest(
      "hex",
    );
    return hexEquals(hex, buf, s + 9);
  },
};

/**
 * Verify a lossbook ledger held in memory.
 *
 * @param bytes The ledger's bytes.
 * @param options An anchor and the path to name in reasons.
 * @returns What verification found. Cost is O(size): one SHA-256 per line.
 *
 * @example One edited byte is named by record
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerText } from "./chain.ts";
 * import { verifyLedger } from "./verify.ts";
 *
 * const r = { kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *   slaHours: 24, dueAt: "2026-03-02T09:00:00Z" } as const;
 * const { text } = ledgerText([r, { ...r, decisionId: "d2" }, { ...r, decisionId: "d3" }]);
 * const bytes = new TextEncoder().encode(text.replace('"d2"', '"d9"'));
 * const v = verifyLedger(bytes, { path: "l.jsonl" });
 * assert.deepEqual([v.valid, v.records, v.firstBadSeq, v.problem], [false, 1, 2, "edited"]);
 * assert.match(v.reason!, /^l\.jsonl: record 2 \(line 2\) does not match its hash/);
 * ```
 */
export function verifyLedger(
  bytes: Uint8Array,
  options: VerifyOptions = {},
): LedgerVerification {
  return scanBytes(
    LOSSBOOK,
    bytes,
    options.path ?? "<inline>",
    options.anchor ?? null,
  );
}

/**
 * The head file the writer keeps next to a ledger: `<ledger>.head`.
 *
 * @param path Path of the ledger.
 * @returns Path of its head file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headFilePath } from "./verify.ts";
 *
 * assert.equal(headFilePath("month.jsonl"), "month.jsonl.head");
 * ```
 */
export function headFilePath(path: string): string {
  return `${path}.head`;
}

/**
 * How a ledger without a head file was adopted: the chain as it stood when a
 * writer was told (`ledger append --adopt`) to trust it and anchor it.
 */
export interface LedgerAdoption {
  /** When it was adopted (ISO 8601, UTC). */
  readonly at: string;
  /** Records in the ledger then. */
  readonly seq: number;
  /** Hash of its last record then. */
  readonly hash: string;
}

/** A head file's content: the head, and the adoption when there was one. */
export interface HeadFile extends LedgerHead {
  /** Present when the head was created for an existing unanchored ledger. */
  readonly adopted?: LedgerAdoption;
}

const HEAD_PATTERN = /^\{"hash":"([0-9a-f]{64})","seq":(0|[1-9]\d{0,14})\}\n?$/;
const ADOPTED_PATTERN =
  /^\{"adopted":\{"at":"([^"\\]{1,40})","hash":"([0-9a-f]{64})","seq":(0|[1-9]\d{0,14})\},"hash":"([0-9a-f]{64})","seq":(0|[1-9]\d{0,14})\}\n?$/;

/**
 * The text of a head file: `{"hash":"<64 hex>","seq":N}`, with the adoption
 * first when there is one.
 *
 * @param head The head and its adoption.
 * @returns One line, ending in a newline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headFileText } from "./verify.ts";
 *
 * assert.equal(headFileText({ seq: 2, hash: "a".repeat(64) }), `{"hash":"${"a".repeat(64)}","seq":2}\n`);
 * ```
 */
export function headFileText(head: HeadFile): string {
  const a = head.adopted;
  return `{${
    a === undefined
      ? ""
      : `"adopted":{"at":"${a.at}","hash":"${a.hash}","seq":${a.seq}},`
  }"hash":"${head.hash}","seq":${head.seq}}\n`;
}

async function realLedgerPath(path: string): Promise<string> {
  if (
    (await ledgerFileInfo(path, `Cannot read ledger ${path}`, true)) === null
  ) {
    return path;
  }
  return await Deno.realPath(path);
}

/**
 * Read a ledger's head file, if there is one. The head file sits next to the
 * ledger's real path, so a ledger reached through a symlink has one head.
 *
 * @param path Path of the ledger (not of the head file).
 * @returns The recorded head (and its adoption), or `null` when there is no head file.
 * @throws {SyntaxError} When the head file is not `{"hash":"<64 hex>","seq":N}`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readHeadFile } from "./verify.ts";
 *
 * assert.equal(await readHeadFile("/nonexistent/ledger.jsonl"), null);
 * ```
 */
export async function readHeadFile(path: string): Promise<HeadFile | null> {
  const file = headFilePath(await realLedgerPath(path));
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  const m = HEAD_PATTERN.exec(text);
  if (m !== null) return { seq: Number(m[2]), hash: m[1] };
  const a = ADOPTED_PATTERN.exec(text);
  if (a !== null) {
    return {
      seq: Number(a[5]),
      hash: a[4],
      adopted: { at: a[1], hash: a[2], seq: Number(a[3]) },
    };
  }
  throw new InputSyntaxError(
    `Cannot read head file ${file}: expected {"hash":"<64 hex>","seq":<n>}, got ${
      JSON.stringify(text.slice(0, 80))
    }`,
  );
}

/** Options for {@linkcode verifyLedgerFile}. */
export interface VerifyFileOptions {
  /**
   * The anchor: a head, `null` for none, or `"head-file"` to use the
   * writer's head file when it exists. Default: `"head-file"`.
   */
  anchor?: LedgerHead | null | "head-file";
  /** Bytes read at a time. Default: 8 MiB. */
  chunkBytes?: number;
}

/**
 * Verify a ledger file in constant memory, against its head file by default.
 *
 * @param path Path of the ledger.
 * @param options The anchor and the read size.
 * @returns What verification found.
 * @throws {Deno.errors.NotFound} When the ledger does not exist.
 * @throws {SyntaxError} When the head file is malformed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openLedger } from "./writer.ts";
 * import { verifyLedgerFile } from "./verify.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/l.jsonl`;
 * {
 *   await using w = await openLedger(path);
 *   await w.append([{ kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *     slaHours: 24, dueAt: "2026-03-02T09:00:00Z" }]);
 * }
 * assert.equal((await verifyLedgerFile(path)).valid, true);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function verifyLedgerFile(
  path: string,
  options: VerifyFileOptions = {},
): Promise<LedgerVerification> {
  const anchor = options.anchor === undefined ? "head-file" : options.anchor;
  return await scanFile(
    LOSSBOOK,
    path,
    anchor === "head-file" ? await readHeadFile(path) : anchor,
    options.chunkBytes ?? 8 << 20,
  );
}
