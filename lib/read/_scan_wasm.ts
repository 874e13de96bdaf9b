// Private: the WebAssembly reader of template lines (_scan_wasm.wat) as a
// class. It reads, in its own memory, the lines of a buffer that match the
// template the JavaScript scanner learned, counts them into its cells and
// logs their decision keys; everything else (a line that does not match, a
// new cell, the first line of a segment) comes back to JavaScript, which
// reads that line as it always has. A property test compares it with
// DecisionScan.matchAt line by line. It reads each field by the op and the
// tables the scanner derives from the Decision schema (WASM_OPS,
// WASM_TABLES); when they do not fit its memory, it reads nothing and
// JavaScript reads every line.

import { SCAN_WASM_BASE64 } from "./_scan_wasm_bytes.ts";
import type { KeyLog } from "./_stats_builder.ts";
import type { PartitionedKeys } from "./_key_partitions.ts";
import { type DecisionScan, WASM_TABLES } from "./_decision_scan.ts";

let compiled: WebAssembly.Module | null = null;

function scanModule(): WebAssembly.Module {
  return compiled ??= new WebAssembly.Module(
    Uint8Array.fromBase64(SCAN_WASM_BASE64),
  );
}

// addresses of the module's memory map (see _scan_wasm.wat), as word indexes
const POS = 0x100 >> 2;
const LINES = 0x104 >> 2;
const REPEATED = 0x108 >> 2;
const CELLS = 0x10c >> 2;
const LOG_COUNT = 0x110 >> 2;
const LOG_CAP = 0x114 >> 2;
const LOG_BASE = 0x118 >> 2;
const FIRST_LEN = 0x11c >> 2;
const SLOTS = 0x17c >> 2;
const WHEN_COUNT = 0x188 >> 2;
const POW10 = 0x200 >> 3;
const LIT_START = 0x300 >> 2;
const OPS = 0x400 >> 2;
const MAX_OPS = 0x100 >> 2; // the room for litStart: two more than the slots
const LITS = 0x500;
const LITS_END = 0x1000;
const VOCAB = 0x1000;
const VOCABULARIES = 8; // of 256 bytes: a count, then (length, address) pairs
const VOCAB_BYTES = 0x1800;
const VOCAB_BYTES_END = 0x2000;
const FIRST_RUN = 0x2000;
const FIRST_RUN_END = 0x2400;
const CELL_BASE = 0xa400;
const CELL_SIZE = 56;
const ROLES = 0x36400 >> 2;
const WHEN = 0x36440 >> 2;
const WHEN_RULES = 16;
const SPAN = 0x36800 >> 2;
const CODE = 0x36a00 >> 2;
const FIELDS = 64; // the room of each field array
/** The role numbers of the module's span and code reads (see WASM_TABLES.roles). */
const SEVERITY_ROLE = 6;
const ACTION_ROLE = 7;
const LOG_AT = 0x40000;
/**
 * Keys the module's log holds: those of a whole 16 MiB segment of lines of
 * 128 bytes or more, so that a segment's keys are sorted into partitions
 * here (the log is emptied into JavaScript when it fills).
 */
export const WASM_LOG_ENTRIES = 1 << 17;
const LOG_ENTRIES = WASM_LOG_ENTRIES;
const BUFFER = LOG_AT + 8 * LOG_ENTRIES;
const PAGE = 65536;
const SLACK = 64;

// the module's partition(bits, starts, fill, keys): addresses
type PartitionExport = (
  bits: number,
  starts: number,
  fill: number,
  keys: number,
) => void;

// the module's run(b, filled, eof): addresses and a status
type RunExport = (b: number, filled: number, eof: number) => number;

/** What {@linkcode WasmScan.run} stopped at. */
export const WASM_STATUS = {
  /** Every finished line of the buffer was read. */
  done: 0,
  /** The line at `pos` is JavaScript's to read. */
  javascript: 1,
  /** The line at `pos` has a new cell: call `addCell`. */
  newCell: 2,
  /** The key log is full: call `drainLog`. */
  logFull: 3,
} as const;

/** The counts of one WebAssembly cell. */
export interface WasmCellCounts {
  readonly n: number;
  /** The exact sum of 1 - pCorrect, in units of 2^-53 (see lib/math/exact_sum.ts). */
  readonly pErrorUnits: bigint;
  readonly pMissing: number;
  readonly parseFailures: number;
}

/**
 * One instance of the module, with its memory and the buffer in it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DecisionScan } from "./_decision_scan.ts";
 * import { WASM_STATUS, WasmScan } from "./_scan_wasm.ts";
 *
 * const line = (t: string, p: number) =>
 *   `{"runId":"r","modelId":"m","taskId":"${t}","trial":0,"severity":"LOW","trueClass":"MATCH","predClass":"MATCH","parseOk":true,"pCorrect":${p},"action":"auto","cost":{"completeness":"complete","usd":0},"outcome":"resolved"}`;
 * const first = new TextEncoder().encode(line("t0", 0.5));
 * const scan = new DecisionScan();
 * assert.ok(scan.scan(first, 0, first.length)); // the template
 * const wasm = new WasmScan();
 * wasm.reset();
 * assert.ok(wasm.follow(scan));
 * wasm.setFirstRun(new TextEncoder().encode("r"));
 * const bytes = new TextEncoder().encode(`${line("t1", 0.25)}\n${line("t2", 2)}\n`);
 * wasm.buffer(bytes.length).set(bytes);
 * assert.equal(wasm.run(0, bytes.length, true), WASM_STATUS.newCell);
 * assert.ok(wasm.addCell());
 * // t1 is read; t2's pCorrect of 2 is JavaScript's to refuse
 * assert.equal(wasm.run(0, bytes.length, true), WASM_STATUS.javascript);
 * assert.equal(wasm.lines, 1);
 * assert.deepEqual(wasm.counts(0), { n: 1, pErrorUnits: 3n * 2n ** 51n, pMissing: 0, parseFailures: 0 });
 * ```
 */
export class WasmScan {
  readonly #memory: WebAssembly.Memory;
  readonly #run: RunExport;
  readonly #addCell: () => number;
  readonly #reset: () => void;
  readonly #partition: PartitionExport;
  #buffer: ArrayBufferLike | null = null;
  #i32: Int32Array<ArrayBufferLike> = new Int32Array(0);
  #f64: Float64Array<ArrayBufferLike> = new Float64Array(0);
  #u8: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  #templates = -1;
  /** Whether the scanner's tables fit the module's memory. */
  readonly #fits: boolean;

  constructor() {
    const instance = new WebAssembly.Instance(scanModule(), {});
    const e = instance.exports as Record<string, unknown>;
    this.#memory = e.memory as WebAssembly.Memory;
    this.#run = e.run as RunExport;
    this.#addCell = e.addCell as () => number;
    this.#reset = e.reset as () => void;
    this.#partition = e.partition as PartitionExport;
    this.#views();
    this.#u8.set(WASM_TABLES.stop, 0);
    this.#f64.set(WASM_TABLES.pow10, POW10);
    this.#fits = this.#tables();
    this.#i32[LOG_BASE] = LOG_AT;
    this.#i32[LOG_CAP] = LOG_ENTRIES;
    this.#reset();
  }

  // the vocabularies, roles and `when` rules into the module's memory:
  // false when they do not fit
  #tables(): boolean {
    const t = WASM_TABLES;
    const { vocabularies, when } = t;
    if (
      t.fields > FIELDS || t.fields + 2 > MAX_OPS ||
      vocabularies.length > VOCABULARIES || when.length > WHEN_RULES ||
      when.some(([, , mask]) => mask === null)
    ) return false;
    let at = VOCAB_BYTES;
    for (const [v, words] of vocabularies.entries()) {
      const base = (VOCAB + 256 * v) >> 2;
      if (1 + 2 * words.length > 256 >> 2) return false;
      this.#i32[base] = words.length;
      for (const [k, w] of words.entries()) {
        if (at + w.length > VOCAB_BYTES_END) return false;
        this.#i32[base + 1 + 2 * k] = w.length;
        this.#i32[base + 2 + 2 * k] = at;
        this.#u8.set(w, at);
        at += w.length;
      }
    }
    this.#i32.set(t.roles, ROLES);
    when.forEach(([field, column, mask], r) => {
      this.#i32.set([field, column, mask ?? 0], WHEN + 3 * r);
    });
    this.#i32[WHEN_COUNT] = when.length;
    return true;
  }

  #views(): void {
    const buffer = this.#memory.buffer;
    if (this.#buffer === buffer) return;
    this.#buffer = buffer;
    this.#i32 = new Int32Array(buffer);
    this.#f64 = new Float64Array(buffer);
    this.#u8 = new Uint8Array(buffer);
  }

  /**
   * A read buffer of at least `size` bytes inside the module's memory (its
   * bytes kept when it grows), with room after it for the module's 16-byte
   * loads.
   */
  buffer(size: number): Uint8Array<ArrayBufferLike> {
    const need = BUFFER + size + SLACK;
    const have = this.#memory.buffer.byteLength;
    if (need > have) this.#memory.grow(Math.ceil((need - have) / PAGE));
    this.#views();
    return new Uint8Array(this.#buffer!, BUFFER, size);
  }

  /** Start a segment: no cells, no keys, no template, no first run. */
  reset(): void {
    this.#reset();
    this.#templates = -1;
  }

  /**
   * Take the scanner's template when it changed; false when there is none
   * or it does not fit (then `run` hands every line to JavaScript).
   */
  follow(scan: DecisionScan): boolean {
    if (scan.templates === this.#templates) return this.#i32[SLOTS] > 0;
    this.#templates = scan.templates;
    this.#i32[SLOTS] = 0;
    const t = scan.template();
    if (!this.#fits || t === null || LITS + t.lits.length > LITS_END) {
      return false;
    }
    this.#u8.set(t.lits, LITS);
    this.#i32.set(t.litStart, LIT_START);
    this.#i32.set(t.ops, OPS);
    this.#i32[SLOTS] = t.ops.length;
    return true;
  }

  /** Whether the segment's first runId is set. */
  get hasFirstRun(): boolean {
    return this.#i32[FIRST_LEN] >= 0;
  }

  /** Set the segment's first runId (its UTF-8 bytes); false when too long. */
  setFirstRun(bytes: Uint8Array): boolean {
    if (FIRST_RUN + bytes.length > FIRST_RUN_END) return false;
    this.#u8.set(bytes, FIRST_RUN);
    this.#i32[FIRST_LEN] = bytes.length;
    return true;
  }

  /**
   * Read the buffer's lines from `pos` while they match, up to `filled`
   * (`eof`: the file ends there). Returns a {@linkcode WASM_STATUS}; `pos`
   * and `lines` tell where it stopped and how many lines it read.
   */
  run(pos: number, filled: number, eof: boolean): number {
    const status = this.#run(BUFFER + pos, BUFFER + filled, eof ? 1 : 0);
    this.#views();
    return status;
  }

  /** Where the last `run` stopped, in the buffer. */
  get pos(): number {
    return this.#i32[POS] - BUFFER;
  }

  /** Lines the last `run` read. */
  get lines(): number {
    return this.#i32[LINES];
  }

  /** Whether some line read here had a trial other than 0 or another runId. */
  get repeated(): boolean {
    return this.#i32[REPEATED] !== 0;
  }

  /** The span `part` (0 run, 1 model, 2 task, 3 gold, 4 predicted) of the line `run` stopped at, in the buffer. */
  span(part: number): [number, number] {
    const at = SPAN + 2 * this.#i32[ROLES + part];
    return [this.#i32[at] - BUFFER, this.#i32[at + 1] - BUFFER];
  }

  /** Severity and action codes (as DecisionScan's) of the line `run` stopped at. */
  get code(): [number, number] {
    return [
      this.#i32[CODE + this.#i32[ROLES + SEVERITY_ROLE]],
      this.#i32[CODE + this.#i32[ROLES + ACTION_ROLE]],
    ];
  }

  /** Add the cell of the line `run` stopped at with `newCell`; false when the table is full. */
  addCell(): boolean {
    return this.#addCell() === 1;
  }

  /** Cells added. */
  get cells(): number {
    return this.#i32[CELLS];
  }

  /** The counts of cell `i`. */
  counts(i: number): WasmCellCounts {
    const at = (CELL_BASE + CELL_SIZE * i) >> 3;
    const word = at * 2;
    // a 64-bit sum and its carries past 2^64
    const units = BigInt(this.#i32[word + 8] >>> 0) +
      (BigInt(this.#i32[word + 9] >>> 0) << 32n) +
      (BigInt(this.#i32[word + 5] >>> 0) << 64n);
    return {
      n: this.#f64[at + 3],
      pErrorUnits: units,
      pMissing: this.#f64[at + 5],
      parseFailures: this.#f64[at + 6],
    };
  }

  /**
   * Append each logged key (h1, h2) to `log`, in order, and empty the log:
   * one loop over the module's memory, with no call per key.
   */
  drainLog(log: KeyLog): void {
    const n = this.#i32[LOG_COUNT];
    log.appendPairs(this.#i32, LOG_AT >> 2, n);
    this.#i32[LOG_COUNT] = 0;
  }

  /**
   * How many keys the log takes before `run` stops with `logFull`: from 1
   * to {@linkcode WASM_LOG_ENTRIES}, which it is until set (tests make it
   * small, to drain often).
   */
  set logCapacity(n: number) {
    if (!(Number.isInteger(n) && n >= 1 && n <= LOG_ENTRIES)) {
      throw new RangeError(
        `WasmScan log capacity must be a whole number from 1 to ${LOG_ENTRIES}, got ${n}`,
      );
    }
    this.#i32[LOG_CAP] = n;
  }

  /**
   * The keys of the log and those of `more` (the keys read in JavaScript),
   * sorted into partitions by the top `bits` bits of h1 as `partitionKeys`
   * sorts them, in the module (within a partition, the log's keys come
   * first, then those of `more`, each in its order); the log is emptied.
   * Null, and nothing changed, when the two do not fit in the log together
   * (its capacity): then drain the log into `more` and use `partitionKeys`.
   * The read buffer is overwritten.
   */
  partitionLog(more: KeyLog, bits: number): PartitionedKeys | null {
    if (!(Number.isInteger(bits) && bits >= 0 && bits <= 16)) {
      throw new RangeError(
        `WasmScan partition bits must be a whole number from 0 to 16, got ${bits}`,
      );
    }
    const logged = this.#i32[LOG_COUNT];
    const n = logged + more.size;
    if (n > this.#i32[LOG_CAP]) return null;
    const i32 = this.#i32;
    for (let k = 0, w = (LOG_AT >> 2) + 2 * logged; k < more.size; k++) {
      i32[w++] = more.h1[k];
      i32[w++] = more.h2[k];
    }
    i32[LOG_COUNT] = n;
    // in the read buffer: starts, fill, then the keys
    const parts = 1 << bits;
    const starts = BUFFER;
    const fill = starts + 4 * (parts + 1);
    const keys = (fill + 4 * parts + 7) & ~7;
    this.buffer(keys + 8 * n - BUFFER);
    this.#partition(bits, starts, fill, keys);
    const memory = this.#memory.buffer;
    return {
      keys: new Uint32Array(memory.slice(keys, keys + 8 * n)),
      starts: new Uint32Array(memory.slice(starts, starts + 4 * (parts + 1))),
    };
  }
}

const pool: WasmScan[] = [];

/**
 * Run `f` with an instance of this thread's pool (one is made when none is free).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withWasmScan } from "./_scan_wasm.ts";
 *
 * assert.equal(await withWasmScan(async (w) => w.cells), 0);
 * ```
 */
export async function withWasmScan<T>(
  f: (w: WasmScan) => Promise<T>,
): Promise<T> {
  const w = pool.pop() ?? new WasmScan();
  try {
    return await f(w);
  } finally {
    pool.push(w);
  }
}
