// Private: a byte-level scanner for one JSONL decision line, for the hot path
// of the streaming reader. It reads the line's bytes in place (no string, no
// object per line) and accepts only what `decisionFromLine` accepts, with the
// same values: an object whose keys are the Decision's (none repeated, the
// required ones present), ASCII strings without escapes, numbers that convert
// exactly (Clinger's fast path: at most 15 significant digits and a decimal
// exponent within 22, where one IEEE multiplication or division by an exact
// power of ten is the correctly rounded value, as JSON.parse gives), and the
// schema's vocabularies and ranges. Anything else (an escape, a non-ASCII
// byte, a longer number, an unknown key, any error) is left to the caller,
// which decodes the line and runs `decisionFromLine` for the value or the
// precise error. A property test pins that whatever the scanner accepts,
// `decisionFromLine` accepts with the same fields.

import {
  isPCorrectSource,
  PCORRECT_SOURCES,
} from "../decision/pcorrect_source.ts";
import { SEVERITIES } from "../costs/severity.ts";
import {
  COST_COMPLETENESS,
  FAILURE_CLASSES,
} from "../evidence/cost_evidence.ts";

import { DECISION_KEYS, REQUIRED_KEYS } from "../decision/decision.ts";
const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const LBRACE = 123;
const RBRACE = 125;

const KEY_NAMES = DECISION_KEYS;
// field ids: indexes into KEY_NAMES
const RUN = 0;
const MODEL = 1;
const TASK = 2;
const TRIAL = 3;
const SEVERITY = 4;
const TRUE = 5;
const PRED = 6;
const PARSE_OK = 7;
const P_CORRECT = 8;
const ACTION = 9;
const COST = 10;
const OUTCOME = 11;
const TOKENS_IN = 12;
const TOKENS_OUT = 13;
const LATENCY = 14;
const P_SOURCE = 15;
const ANSWER = 16;
const TARGET = 17;

const REQUIRED_MASK = (1 << REQUIRED_KEYS) - 1; // runId .. outcome
// the fields of `cost`, as slots of a line template
const COMPLETENESS = 18;
const USD = 19;
// fields whose value is a non-null string: a template slot holds the text
// between the quotes (the quotes belong to the literals around it)
const TEXT_SLOTS = new Set([
  RUN,
  MODEL,
  TASK,
  SEVERITY,
  TRUE,
  PRED,
  ACTION,
  OUTCOME,
  ANSWER,
  TARGET,
  COMPLETENESS,
]);
const MAX_SLOTS = KEY_NAMES.length + 2;
// how a template slot is read: ids and text in place, vocabularies by
// their words, every other value (numbers, literals, nullable) as the
// general scan reads it
const ID_RUN = 0;
const ID_MODEL = 1;
const ID_TASK = 2;
const ID_TRUE = 3;
const ID_PRED = 4;
const TEXT = 5;
const WORD = 6;
const TOKEN = 7;
function kindOf(key: number): number {
  if (key === RUN) return ID_RUN;
  if (key === MODEL) return ID_MODEL;
  if (key === TASK) return ID_TASK;
  if (key === TRUE) return ID_TRUE;
  if (key === PRED) return ID_PRED;
  if (key === ANSWER || key === TARGET) return TEXT;
  if (TEXT_SLOTS.has(key)) return WORD;
  return TOKEN;
}

const encoder = new TextEncoder();
const bytesOf = (s: string) => encoder.encode(s);

// keys by length: [bytes, id]
const KEYS_BY_LENGTH: Array<Array<[Uint8Array, number]>> = [];
for (const [id, name] of KEY_NAMES.entries()) {
  (KEYS_BY_LENGTH[name.length] ??= []).push([bytesOf(name), id]);
}

const SEVERITY_BYTES = SEVERITIES.map(bytesOf);
const ACTION_BYTES = ["auto", "escalate"].map(bytesOf);
const OUTCOME_BYTES = FAILURE_CLASSES.map(bytesOf);
// complete and partial (indexes 0 and 1) carry an amount
const COMPLETENESS_BYTES = COST_COMPLETENESS.map(bytesOf);
const TRUE_BYTES = bytesOf("true");
const FALSE_BYTES = bytesOf("false");
const NULL_BYTES = bytesOf("null");
const COMPLETENESS_KEY = bytesOf("completeness");
const USD_KEY = bytesOf("usd");

// in a string: 1 for the closing quote, 2 for what the fast path leaves
// (an escape, a control character, a byte of a multi-byte character)
const STOP = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  STOP[c] = c === QUOTE ? 1 : c === BACKSLASH || c < 32 || c > 127 ? 2 : 0;
}

const POW10: number[] = [];
for (let e = 0, p = 1; e <= 22; e++, p *= 10) POW10.push(p);

/**
 * How the WebAssembly reader reads a template slot, by field id: 0-4 the
 * ids (run, model, task, gold, predicted), 5 free text, 6-9 the
 * vocabularies (severity, action, outcome, cost completeness), 10 the
 * trial, 11 a token count, 12 latency, 13 parseOk, 14 pCorrect, 15
 * pCorrectSource, 16 the cost's usd.
 */
export const WASM_OPS: readonly number[] = (() => {
  const ops: number[] = [];
  ops[RUN] = 0;
  ops[MODEL] = 1;
  ops[TASK] = 2;
  ops[TRUE] = 3;
  ops[PRED] = 4;
  ops[ANSWER] = 5;
  ops[TARGET] = 5;
  ops[SEVERITY] = 6;
  ops[ACTION] = 7;
  ops[OUTCOME] = 8;
  ops[COMPLETENESS] = 9;
  ops[TRIAL] = 10;
  ops[TOKENS_IN] = 11;
  ops[TOKENS_OUT] = 11;
  ops[LATENCY] = 12;
  ops[PARSE_OK] = 13;
  ops[P_CORRECT] = 14;
  ops[P_SOURCE] = 15;
  ops[USD] = 16;
  return ops;
})();

/**
 * The tables the WebAssembly reader shares with this scanner: the string
 * stop bytes, the powers of ten, and the vocabularies in its order
 * (severity, action, outcome, completeness, and the fixed pCorrect sources).
 */
export const WASM_TABLES = {
  stop: STOP,
  pow10: Float64Array.from(POW10),
  vocabularies: [
    SEVERITY_BYTES,
    ACTION_BYTES,
    OUTCOME_BYTES,
    COMPLETENESS_BYTES,
    PCORRECT_SOURCES.map(bytesOf),
  ],
} as const;

/** Whether `b[s, e)` holds the bytes of `w`. */
export function equalAt(
  b: Uint8Array,
  s: number,
  e: number,
  w: Uint8Array,
): boolean {
  if (e - s !== w.length) return false;
  for (let i = 0; i < w.length; i++) if (b[s + i] !== w[i]) return false;
  return true;
}

function indexIn(
  b: Uint8Array,
  s: number,
  e: number,
  words: readonly Uint8Array[],
): number {
  for (let i = 0; i < words.length; i++) {
    if (equalAt(b, s, e, words[i])) return i;
  }
  return -1;
}

function keyId(b: Uint8Array, s: number, e: number): number {
  const candidates = KEYS_BY_LENGTH[e - s];
  if (candidates === undefined) return -1;
  for (const [w, id] of candidates) if (equalAt(b, s, e, w)) return id;
  return -1;
}

// JSON whitespace within a line (a line has no LF)
function ws(b: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = b[i];
    if (c !== 32 && c !== 9 && c !== 13) break;
    i++;
  }
  return i;
}

/** The ASCII bytes `b[s, e)` as a string. */
export function ascii(b: Uint8Array, s: number, e: number): string {
  let out = "";
  for (let i = s; i < e; i++) out += String.fromCharCode(b[i]);
  return out;
}

/**
 * The fields of the last line {@linkcode DecisionScan.scan} accepted: byte
 * ranges into the line's buffer for the ids, codes for the enums.
 */
export class DecisionScan {
  runStart = 0;
  runEnd = 0;
  modelStart = 0;
  modelEnd = 0;
  taskStart = 0;
  taskEnd = 0;
  trueStart = 0;
  trueEnd = 0;
  predStart = 0;
  predEnd = 0;
  trial = 0;
  /** Index into SEVERITIES. */
  severity = 0;
  /** 0 for auto, 1 for escalate. */
  action = 0;
  parseOk = false;
  /** P(correct), or null. */
  pCorrect: number | null = null;
  // the last string's content range and the last number's value
  #s = 0;
  #e = 0;
  #num = 0;

  // the slots of the line being scanned: field, value start and end
  #spans = 0;
  #spanKey = new Int32Array(MAX_SLOTS);
  #spanStart = new Int32Array(MAX_SLOTS);
  #spanEnd = new Int32Array(MAX_SLOTS);
  // the template: the bytes between the slots of the last line read by
  // the general scan (literal k precedes slot k; the last one ends the line)
  #slots = 0;
  #slotKey = new Int32Array(MAX_SLOTS);
  #litStart = new Int32Array(MAX_SLOTS + 2);
  #lits = new Uint8Array(0);
  #words = new Int32Array(0);
  #wordStart = new Int32Array(MAX_SLOTS + 2);
  #slotKind = new Int32Array(MAX_SLOTS);
  #view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  #viewOf: Uint8Array | null = null;
  #completeness = -1;
  #usd: number | null | undefined = undefined;

  /**
   * Scan `b[start, end)` (one line, no LF, no trailing CR). `true` when the
   * line is a Decision this scanner can read exactly (fields set); `false`
   * means "decode the line and let decisionFromLine decide".
   *
   * A writer puts the same bytes between the values of every line (keys,
   * quotes, separators, in its order), so a line is first matched against
   * the template of the last line read field by field: its literal bytes
   * compared, its values read as the general scan reads them. A line that
   * does not match is scanned field by field and becomes the template.
   */
  scan(b: Uint8Array, start: number, end: number): boolean {
    if (this.matchAt(b, start, end) === end) return true;
    if (!this.#scanFields(b, start, end)) return false;
    this.#learn(b, start, end);
    return true;
  }

  /**
   * Read from `b` next (a reader calls this once per buffer, so that the
   * per-line methods never take their rarely-run buffer change, which the
   * engine would compile without type feedback and throw away).
   */
  use(b: Uint8Array): void {
    this.#view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.#viewOf = b;
  }

  /**
   * Match the template at `b[start]`, reading no further than `limit`:
   * the index just after the line's last byte when the line's bytes match
   * (fields set; the caller checks that a line end follows), else -1.
   */
  matchAt(b: Uint8Array, start: number, limit: number): number {
    if (this.#slots === 0) return -1;
    if (b !== this.#viewOf) this.use(b);
    const view = this.#view;
    const lits = this.#lits;
    const words = this.#words;
    const litStart = this.#litStart;
    const slots = this.#slots;
    const kinds = this.#slotKind;
    this.#completeness = -1;
    this.#usd = undefined;
    let i = start;
    for (let k = 0;; k++) {
      // literal k: whole 32-bit words, then the remaining bytes
      let l = litStart[k];
      const l1 = litStart[k + 1];
      if (i + (l1 - l) > limit) return -1;
      let w = this.#wordStart[k];
      const w1 = this.#wordStart[k + 1];
      for (; w < w1; w++, i += 4, l += 4) {
        if (view.getInt32(i, true) !== words[w]) return -1;
      }
      for (; l < l1; l++, i++) if (b[i] !== lits[l]) return -1;
      if (k === slots) return this.#costOk() ? i : -1;
      const kind = kinds[k];
      if (kind >= TOKEN) {
        i = this.#value(this.#slotKey[k], b, i, limit);
        if (i < 0) return -1;
        continue;
      }
      // a string's text: up to the quote that starts the next literal
      const s = i;
      for (;;) {
        if (i >= limit) return -1;
        const t = STOP[b[i]];
        if (t !== 0) {
          if (t === 1) break;
          return -1;
        }
        i++;
      }
      switch (kind) {
        case ID_RUN:
          if (i === s) return -1;
          this.runStart = s;
          this.runEnd = i;
          break;
        case ID_MODEL:
          if (i === s) return -1;
          this.modelStart = s;
          this.modelEnd = i;
          break;
        case ID_TASK:
          if (i === s) return -1;
          this.taskStart = s;
          this.taskEnd = i;
          break;
        case ID_TRUE:
          if (i === s) return -1;
          this.trueStart = s;
          this.trueEnd = i;
          break;
        case ID_PRED:
          if (i === s) return -1;
          this.predStart = s;
          this.predEnd = i;
          break;
        case TEXT:
          break;
        default: {
          // a vocabulary: severity, action, outcome, completeness
          const key = this.#slotKey[k];
          if (key === SEVERITY) {
            this.severity = indexIn(b, s, i, SEVERITY_BYTES);
            if (this.severity < 0) return -1;
          } else if (key === ACTION) {
            this.action = indexIn(b, s, i, ACTION_BYTES);
            if (this.action < 0) return -1;
          } else if (key === OUTCOME) {
            if (indexIn(b, s, i, OUTCOME_BYTES) < 0) return -1;
          } else {
            this.#completeness = indexIn(b, s, i, COMPLETENESS_BYTES);
            if (this.#completeness < 0) return -1;
          }
        }
      }
    }
  }

  #costOk(): boolean {
    const usd = this.#usd;
    if (this.#completeness < 0 || usd === undefined) return false;
    return this.#completeness <= 1 ? usd !== null && usd >= 0 : usd === null;
  }

  #learn(b: Uint8Array, start: number, end: number): void {
    const n = this.#spans;
    let size = 0;
    let at = start;
    for (let k = 0; k < n; k++) {
      size += this.#spanStart[k] - at;
      at = this.#spanEnd[k];
    }
    size += end - at;
    const lits = new Uint8Array(size);
    let o = 0;
    at = start;
    for (let k = 0; k <= n; k++) {
      const stop = k < n ? this.#spanStart[k] : end;
      this.#litStart[k] = o;
      lits.set(b.subarray(at, stop), o);
      o += stop - at;
      if (k < n) {
        this.#slotKey[k] = this.#spanKey[k];
        at = this.#spanEnd[k];
      }
    }
    this.#litStart[n + 1] = o;
    this.#lits = lits;
    this.#slots = n;
    // each literal's whole 32-bit little-endian words
    const words: number[] = [];
    const dv = new DataView(lits.buffer);
    for (let k = 0; k <= n; k++) {
      this.#wordStart[k] = words.length;
      const l0 = this.#litStart[k];
      for (let l = l0; l + 4 <= this.#litStart[k + 1]; l += 4) {
        words.push(dv.getInt32(l, true));
      }
    }
    this.#wordStart[n + 1] = words.length;
    this.#words = Int32Array.from(words);
    for (let k = 0; k < n; k++) this.#slotKind[k] = kindOf(this.#slotKey[k]);
    this.#templates++;
  }

  #templates = 0;

  /** How many templates this scanner has learned (a new one replaces the last). */
  get templates(): number {
    return this.#templates;
  }

  /**
   * The current template for the WebAssembly reader (`_scan_wasm.ts`): the
   * literal bytes, where each literal starts (one more than the slots, the
   * last one the end), and how each slot is read ({@linkcode WASM_OPS}); or
   * null before any line was learned.
   */
  template():
    | { lits: Uint8Array; litStart: Int32Array; ops: Int32Array }
    | null {
    const n = this.#slots;
    if (n === 0) return null;
    return {
      lits: this.#lits,
      litStart: this.#litStart.slice(0, n + 2),
      ops: Int32Array.from(this.#slotKey.subarray(0, n), (k) => WASM_OPS[k]),
    };
  }

  #span(key: number, s: number, e: number): void {
    const k = this.#spans++;
    this.#spanKey[k] = key;
    this.#spanStart[k] = s;
    this.#spanEnd[k] = e;
  }

  #scanFields(b: Uint8Array, start: number, end: number): boolean {
    this.#spans = 0;
    let i = ws(b, start, end);
    if (i >= end || b[i] !== LBRACE) return false;
    i = ws(b, i + 1, end);
    let seen = 0;
    for (;;) {
      if (i >= end || b[i] !== QUOTE) return false;
      const k = this.#string(b, i, end);
      if (k < 0) return false;
      const key = keyId(b, this.#s, this.#e);
      if (key < 0) return false;
      const bit = 1 << key;
      if ((seen & bit) !== 0) return false;
      seen |= bit;
      i = ws(b, k, end);
      if (i >= end || b[i] !== COLON) return false;
      i = ws(b, i + 1, end);
      const v = key === COST
        ? this.#cost(b, i, end)
        : this.#value(key, b, i, end);
      if (v < 0) return false;
      if (key !== COST) {
        if (TEXT_SLOTS.has(key)) this.#span(key, i + 1, v - 1);
        else this.#span(key, i, v);
      }
      i = ws(b, v, end);
      if (i >= end) return false;
      const c = b[i];
      if (c === COMMA) {
        i = ws(b, i + 1, end);
        continue;
      }
      if (c !== RBRACE) return false;
      i++;
      break;
    }
    if ((seen & REQUIRED_MASK) !== REQUIRED_MASK) return false;
    return ws(b, i, end) === end;
  }

  // A string at b[i] === '"': its content range in #s/#e, the index after
  // it; -1 for an escape, a control or non-ASCII byte, or no closing quote.
  #string(b: Uint8Array, i: number, end: number): number {
    const s = ++i;
    while (i < end) {
      const t = STOP[b[i]];
      if (t !== 0) {
        if (t === 2) return -1;
        this.#s = s;
        this.#e = i;
        return i + 1;
      }
      i++;
    }
    return -1;
  }

  // A non-empty string (an id): the index after it, or -1.
  #id(b: Uint8Array, i: number, end: number): number {
    if (i >= end || b[i] !== QUOTE) return -1;
    const k = this.#string(b, i, end);
    return k >= 0 && this.#e > this.#s ? k : -1;
  }

  // A JSON number at b[i] in #num: the index after it, or -1 (not a number,
  // or one outside the exact fast path).
  #number(b: Uint8Array, i: number, end: number): number {
    let neg = false;
    if (i < end && b[i] === 45) {
      neg = true;
      i++;
    }
    if (i >= end) return -1;
    let m = 0;
    let digits = 0; // significant digits in m
    let c = b[i];
    if (c === 48) {
      i++;
      if (i < end && b[i] >= 48 && b[i] <= 57) return -1; // a leading zero
    } else if (c >= 49 && c <= 57) {
      while (i < end && (c = b[i]) >= 48 && c <= 57) {
        m = m * 10 + (c - 48);
        digits++;
        i++;
      }
    } else return -1;
    let exp = 0;
    if (i < end && b[i] === 46) {
      i++;
      const f = i;
      while (i < end && (c = b[i]) >= 48 && c <= 57) {
        if (m !== 0 || c !== 48) {
          m = m * 10 + (c - 48);
          digits++;
        }
        i++;
      }
      if (i === f) return -1;
      exp -= i - f;
    }
    if (i < end && (b[i] === 101 || b[i] === 69)) {
      i++;
      let eneg = false;
      if (i < end && (b[i] === 43 || b[i] === 45)) {
        eneg = b[i] === 45;
        i++;
      }
      const f = i;
      let e = 0;
      while (i < end && (c = b[i]) >= 48 && c <= 57) {
        if (e < 10000) e = e * 10 + (c - 48);
        i++;
      }
      if (i === f) return -1;
      exp += eneg ? -e : e;
    }
    if (digits > 15) return -1;
    let v: number;
    if (m === 0) v = 0;
    else if (exp >= 0 && exp <= 22) v = m * POW10[exp];
    else if (exp < 0 && exp >= -22) v = m / POW10[-exp];
    else return -1;
    this.#num = neg ? -v : v;
    return i;
  }

  #literal(b: Uint8Array, i: number, end: number, w: Uint8Array): number {
    const e = i + w.length;
    return e <= end && equalAt(b, i, e, w) ? e : -1;
  }

  #count(b: Uint8Array, i: number, end: number): number {
    const k = this.#number(b, i, end);
    return k >= 0 && Number.isSafeInteger(this.#num) && this.#num >= 0 ? k : -1;
  }

  #value(key: number, b: Uint8Array, i: number, end: number): number {
    if (i >= end) return -1;
    switch (key) {
      case RUN: {
        const k = this.#id(b, i, end);
        this.runStart = this.#s;
        this.runEnd = this.#e;
        return k;
      }
      case MODEL: {
        const k = this.#id(b, i, end);
        this.modelStart = this.#s;
        this.modelEnd = this.#e;
        return k;
      }
      case TASK: {
        const k = this.#id(b, i, end);
        this.taskStart = this.#s;
        this.taskEnd = this.#e;
        return k;
      }
      case TRUE: {
        const k = this.#id(b, i, end);
        this.trueStart = this.#s;
        this.trueEnd = this.#e;
        return k;
      }
      case PRED: {
        const k = this.#id(b, i, end);
        this.predStart = this.#s;
        this.predEnd = this.#e;
        return k;
      }
      case TRIAL: {
        const k = this.#count(b, i, end);
        this.trial = this.#num;
        return k;
      }
      case TOKENS_IN:
      case TOKENS_OUT:
        return this.#count(b, i, end);
      case LATENCY: {
        const k = this.#number(b, i, end);
        return k >= 0 && this.#num >= 0 ? k : -1;
      }
      case SEVERITY: {
        if (b[i] !== QUOTE) return -1;
        const k = this.#string(b, i, end);
        if (k < 0) return -1;
        this.severity = indexIn(b, this.#s, this.#e, SEVERITY_BYTES);
        return this.severity < 0 ? -1 : k;
      }
      case ACTION: {
        if (b[i] !== QUOTE) return -1;
        const k = this.#string(b, i, end);
        if (k < 0) return -1;
        this.action = indexIn(b, this.#s, this.#e, ACTION_BYTES);
        return this.action < 0 ? -1 : k;
      }
      case OUTCOME: {
        if (b[i] !== QUOTE) return -1;
        const k = this.#string(b, i, end);
        return k >= 0 && indexIn(b, this.#s, this.#e, OUTCOME_BYTES) >= 0
          ? k
          : -1;
      }
      case PARSE_OK: {
        let k = this.#literal(b, i, end, TRUE_BYTES);
        this.parseOk = k >= 0;
        if (k < 0) k = this.#literal(b, i, end, FALSE_BYTES);
        return k;
      }
      case P_CORRECT: {
        if (b[i] === 110) {
          this.pCorrect = null;
          return this.#literal(b, i, end, NULL_BYTES);
        }
        const k = this.#number(b, i, end);
        this.pCorrect = this.#num;
        return k >= 0 && this.#num >= 0 && this.#num <= 1 ? k : -1;
      }
      case P_SOURCE: {
        if (b[i] === 110) return this.#literal(b, i, end, NULL_BYTES);
        if (b[i] !== QUOTE) return -1;
        const k = this.#string(b, i, end);
        return k >= 0 && isPCorrectSource(ascii(b, this.#s, this.#e)) ? k : -1;
      }
      case ANSWER:
      case TARGET:
        return b[i] === QUOTE ? this.#string(b, i, end) : -1;
      case COMPLETENESS: {
        if (b[i] !== QUOTE) return -1;
        const k = this.#string(b, i, end);
        if (k < 0) return -1;
        this.#completeness = indexIn(b, this.#s, this.#e, COMPLETENESS_BYTES);
        return this.#completeness < 0 ? -1 : k;
      }
      case USD: {
        if (b[i] === 110) {
          this.#usd = null;
          return this.#literal(b, i, end, NULL_BYTES);
        }
        const k = this.#number(b, i, end);
        this.#usd = this.#num;
        return k;
      }
    }
    return -1;
  }

  // {"completeness": ..., "usd": ...}: complete/partial with a finite usd
  // >= 0, unavailable/not_applicable with usd null, no other key.
  #cost(b: Uint8Array, i: number, end: number): number {
    if (b[i] !== LBRACE) return -1;
    i = ws(b, i + 1, end);
    this.#completeness = -1;
    this.#usd = undefined;
    for (;;) {
      if (i >= end || b[i] !== QUOTE) return -1;
      const k = this.#string(b, i, end);
      if (k < 0) return -1;
      const key = equalAt(b, this.#s, this.#e, COMPLETENESS_KEY)
        ? COMPLETENESS
        : equalAt(b, this.#s, this.#e, USD_KEY)
        ? USD
        : -1;
      if (key < 0) return -1;
      if (
        key === COMPLETENESS ? this.#completeness >= 0 : this.#usd !== undefined
      ) {
        return -1; // a repeated key
      }
      i = ws(b, k, end);
      if (i >= end || b[i] !== COLON) return -1;
      i = ws(b, i + 1, end);
      const v = this.#value(key, b, i, end);
      if (v < 0) return -1;
      if (key === COMPLETENESS) this.#span(key, i + 1, v - 1);
      else this.#span(key, i, v);
      i = ws(b, v, end);
      if (i >= end) return -1;
      if (b[i] === COMMA) {
        i = ws(b, i + 1, end);
        continue;
      }
      if (b[i] !== RBRACE) return -1;
      i++;
      break;
    }
    return this.#costOk() ? i : -1;
  }
}

/**
 * Two independent 32-bit hashes of a decision key (runId, modelId, taskId,
 * trial), from the UTF-8 bytes of the three ids, each delimited by its
 * length, and the trial's two 32-bit halves.
 */
export class KeyHasher {
  h1 = 0;
  h2 = 0;
  #scratch = new Uint8Array(256);
  #view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  #viewOf: Uint8Array | null = null;

  /**
   * Read from `b` next (a reader calls this once per buffer, so that the
   * per-line methods never take their rarely-run buffer change, which the
   * engine would compile without type feedback and throw away).
   */
  use(b: Uint8Array): void {
    this.#view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.#viewOf = b;
  }

  /** Hash byte ranges of a buffer (the scanner's fields). */
  ofBytes(
    b: Uint8Array,
    r0: number,
    r1: number,
    m0: number,
    m1: number,
    t0: number,
    t1: number,
    trial: number,
  ): void {
    if (b !== this.#viewOf) this.use(b);
    const view = this.#view;
    // murmur3's block step on 4 bytes at a time, two seeds
    let h1 = 0x9747b28c;
    let h2 = 0x2545f491;
    for (let part = 0; part < 3; part++) {
      const s = part === 0 ? r0 : part === 1 ? m0 : t0;
      const e = part === 0 ? r1 : part === 1 ? m1 : t1;
      let i = s;
      for (; i + 4 <= e; i += 4) {
        let k = Math.imul(view.getInt32(i, true), 0xcc9e2d51);
        k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
        h1 ^= k;
        h1 = (Math.imul((h1 << 13) | (h1 >>> 19), 5) + 0xe6546b64) | 0;
        h2 ^= k;
        h2 = (Math.imul((h2 << 13) | (h2 >>> 19), 5) + 0xe6546b64) | 0;
      }
      let k = e - s; // the length ends the part
      for (let shift = 8; i < e; i++, shift += 8) k ^= b[i] << shift;
      k = Math.imul(k, 0xcc9e2d51);
      k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
      h1 ^= k;
      h1 = (Math.imul((h1 << 13) | (h1 >>> 19), 5) + 0xe6546b64) | 0;
      h2 ^= k;
      h2 = (Math.imul((h2 << 13) | (h2 >>> 19), 5) + 0xe6546b64) | 0;
    }
    const lo = trial % 4294967296;
    const hi = Math.floor(trial / 4294967296);
    h1 = Math.imul(h1 ^ lo, 0x5bd1e995);
    h1 = Math.imul(h1 ^ hi, 0x5bd1e995);
    h2 = Math.imul(h2 ^ lo, 0x27d4eb2d);
    h2 = Math.imul(h2 ^ hi, 0x27d4eb2d);
    this.h1 = fmix(h1);
    this.h2 = fmix(h2 ^ 0x85ebca6b);
  }

  /** Hash the key of a Decision: equal to {@linkcode ofBytes} on its UTF-8. */
  ofStrings(runId: string, modelId: string, taskId: string, trial: number) {
    const need = 3 * (runId.length + modelId.length + taskId.length);
    if (this.#scratch.length < need) this.#scratch = new Uint8Array(need * 2);
    const b = this.#scratch;
    const r = encoder.encodeInto(runId, b).written;
    const m = r + encoder.encodeInto(modelId, b.subarray(r)).written;
    const t = m + encoder.encodeInto(taskId, b.subarray(m)).written;
    this.ofBytes(b, 0, r, r, m, m, t, trial);
  }
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/**
 * Strings to small ids, looked up by their UTF-8 bytes in place (no string
 * is made for a value already seen) or by the string itself.
 */
export class Interner {
  readonly strings: string[] = [];
  #byString = new Map<string, number>();
  // open addressing over byte hashes: slot -> id + 1
  #slots = new Int32Array(64);
  #hashes = new Int32Array(64);
  #bytes: (Uint8Array | null)[] = [];

  /** The id of the ASCII value `b[s, e)`. */
  ofBytes(b: Uint8Array, s: number, e: number): number {
    const h = byteHash(b, s, e);
    const mask = this.#slots.length - 1;
    for (let i = h & mask;; i = (i + 1) & mask) {
      const slot = this.#slots[i];
      if (slot === 0) break;
      if (this.#hashes[i] === h && equalAt(b, s, e, this.#bytes[slot - 1]!)) {
        return slot - 1;
      }
    }
    return this.ofString(ascii(b, s, e));
  }

  /** The id of a string. */
  ofString(s: string): number {
    let id = this.#byString.get(s);
    if (id !== undefined) return id;
    if ((this.strings.length + 1) * 2 > this.#slots.length) this.#grow();
    id = this.strings.length;
    this.strings.push(s);
    this.#byString.set(s, id);
    // ASCII strings are found by their bytes too (the scanner reads only ASCII)
    // deno-lint-ignore no-control-regex
    const b = /^[\x00-\x7f]*$/.test(s) ? bytesOf(s) : null;
    this.#bytes.push(b);
    if (b !== null) this.#insert(b, id);
    return id;
  }

  #insert(b: Uint8Array, id: number): void {
    const h = byteHash(b, 0, b.length);
    const mask = this.#slots.length - 1;
    let i = h & mask;
    while (this.#slots[i] !== 0) i = (i + 1) & mask;
    this.#slots[i] = id + 1;
    this.#hashes[i] = h;
  }

  #grow(): void {
    const n = this.#slots.length * 2;
    this.#slots = new Int32Array(n);
    this.#hashes = new Int32Array(n);
    for (const [id, b] of this.#bytes.entries()) {
      if (b !== null) this.#insert(b, id);
    }
  }
}

function byteHash(b: Uint8Array, s: number, e: number): number {
  let h = 0x811c9dc5;
  for (let i = s; i < e; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return fmix(h);
}
