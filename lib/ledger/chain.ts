/**
 * The hash chain: how a record becomes a ledger line, and what a line's
 * hash covers.
 *
 * A ledger line is the canonical JSON of `{ hash, prev, record, seq }`:
 *
 * ```text
 * {"hash":"<64 hex>","prev":"<64 hex>","record":{...},"seq":17}
 * ```
 *
 * Its hash is the SHA-256 of the canonical JSON of `{ prev, record, seq }`,
 * that is the canonical record together with its position and the previous
 * line's hash — the same text with the `"hash":"…",` member left out. The
 * first line's `prev` is {@linkcode LEDGER_GENESIS}, 64 zeros. Editing any
 * byte of a record, its position or its link changes the hash; deleting or
 * moving a line breaks the next line's link.
 *
 * @module
 */

import { canonicalJson } from "./_canonical_json.ts";
import { sha256Hex } from "./_sha256.ts";
import type { LedgerEntry, LedgerRecord } from "./record.ts";

/** The `prev` of the first line of every lossbook ledger: 64 zeros. */
export const LEDGER_GENESIS: string = "0".repeat(64);

/** Where a chain stands: the last position and its hash. */
export interface LedgerHead {
  /** Position of the last line, 0 for an empty ledger. */
  readonly seq: number;
  /** Hash of the last line, {@linkcode LEDGER_GENESIS} for an empty ledger. */
  readonly hash: string;
}

/** The head of an empty ledger. */
export const EMPTY_HEAD: LedgerHead = Object.freeze({
  seq: 0,
  hash: LEDGER_GENESIS,
});

/**
 * Write one record as a ledger line chained to `head`.
 *
 * @param record The record; it is written as canonical JSON.
 * @param head The chain so far. Default: the empty ledger.
 * @returns The entry (with its hash) and its line, ending in a newline.
 * @throws {TypeError} When the record holds a value JSON cannot (a non-finite number).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { entryLine, LEDGER_GENESIS } from "./chain.ts";
 *
 * const record = { kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *   slaHours: 24, dueAt: "2026-03-02T09:00:00Z" } as const;
 * const { entry, line } = entryLine(record);
 * assert.equal(entry.seq, 1);
 * assert.equal(entry.prev, LEDGER_GENESIS);
 * assert.ok(line.startsWith(`{"hash":"${entry.hash}","prev":"${LEDGER_GENESIS}","record":{"at":`));
 * assert.ok(line.endsWith(`,"seq":1}\n`));
 * ```
 */
export function entryLine(
  record: LedgerRecord,
  head: LedgerHead = EMPTY_HEAD,
): { entry: LedgerEntry; line: string } {
  const seq = head.seq + 1;
  const body = `{"prev":"${head.hash}","record":${
    canonicalJson(record)
  },"seq":${seq}}`;
  const hash = sha256Hex(body);
  return {
    entry: { seq, prev: head.hash, hash, record },
    line: `{"hash":"${hash}",${body.slice(1)}\n`,
  };
}

/** An in-memory ledger: its text and its head. */
export interface LedgerText {
  /** The JSONL text, one line per record. */
  readonly text: string;
  /** Entries, in order. */
  readonly entries: readonly LedgerEntry[];
  /** The head after the last record. */
  readonly head: LedgerHead;
}

/**
 * Chain records into ledger text in memory, for analyses, tests and
 * notebooks; files are written by `openLedger` in writer.ts.
 *
 * @param records Records, in order.
 * @param head The chain to continue. Default: the empty ledger.
 * @returns The text, the entries and the new head. Cost is O(total size).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerText } from "./chain.ts";
 * import { verifyLedger } from "./verify.ts";
 *
 * const opened = { kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *   slaHours: 24, dueAt: "2026-03-02T09:00:00Z" } as const;
 * const ledger = ledgerText([opened, { ...opened, decisionId: "d2" }]);
 * assert.equal(ledger.head.seq, 2);
 * assert.equal(verifyLedger(new TextEncoder().encode(ledger.text)).valid, true);
 * ```
 */
export function ledgerText(
  records: Iterable<LedgerRecord>,
  head: LedgerHead = EMPTY_HEAD,
): LedgerText {
  const lines: string[] = [];
  const entries: LedgerEntry[] = [];
  let h = head;
  for (const r of records) {
    const { entry, line } = entryLine(r, h);
    lines.push(line);
    entries.push(entry);
    h = { seq: entry.seq, hash: entry.hash };
  }
  return { text: lines.join(""), entries, head: h };
}
