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
//
// Every field is read by its rule in the Decision schema (schema.ts): its
// kind says how its value is read, its null rule whether null is a value,
// its key where it sits (a dotted key is a field of a nested object). So a
// field added to the schema is read here, and by the WebAssembly reader
// that follows the same tables (_scan_wasm.ts), with no change to either.
// Only the fields the statistics are made of are named, looked up by key.

import {
  DECISION_FIELDS,
  type DecisionField,
  type FieldKind,
  keyPath,
} from "../decision/schema.ts";
import {
  isPCorrectSource,
  PCORRECT_SOURCES,
} from "../decision/pcorrect_source.ts";

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const LBRACE = 123;
const RBRACE = 125;

const encoder = new TextEncoder();
const bytesOf = (s: string) => encoder.encode(s);

const FIELDS: readonly DecisionField[] = DECISION_FIELDS;
const N = FIELDS.length;

/**
 * How a value is read, by its rule's kind: the kinds below
 * {@linkcode STRING_KINDS} are JSON strings, the others a number or a
 * literal. The WebAssembly reader uses the same codes.
 */
const KIND = {
  id: 0,
  text: 1,
  enum: 2,
  "pcorrect-source": 3,
  count: 4,
  amount: 5,
  probability: 6,
  boolean: 7,
} as const satisfies Record<FieldKind, number>;
const STRING_KINDS = 4;

/** The kind code of each field. */
const KIND_OF = Int32Array.from(FIELDS, (f) => KIND[f.rule.kind]);
/** 1 where null is a value of the field (JSON has no absent cell). */
const NULLABLE = Uint8Array.from(
  FIELDS,
  (f) => f.nulls.reads === "value" || f.nulls.reads === "when" ? 1 : 0,
);
/**
 * 1 where a line template holds the text between the quotes of the value
 * (a string that is never null), the quotes being part of the literals
 * around it; any other value is a slot of its own, read whole.
 */
const QUOTED = Uint8Array.from(
  FIELDS,
  (_, f) => KIND_OF[f] < STRING_KINDS && NULLABLE[f] === 0 ? 1 : 0,
);
/** The words of each enum field, as bytes, in the schema's order (its codes). */
const WORDS: ReadonlyArray<readonly Uint8Array[]> = FIELDS.map((f) =>
  f.rule.kind === "enum" ? f.rule.values.map(bytesOf) : []
);

/**
 * A `when` null rule: the field is null exactly when the enum field
 * `column` holds one of the words flagged in `nullFor` (by code).
 */
interface WhenRule {
  readonly field: number;
  readonly column: number;
  readonly nullFor: Uint8Array;
}

const whenRules: WhenRule[] = [];
/** 1 for a field this scanner leaves to the caller whenever a line has it. */
const LEFT = new Uint8Array(N);
for (const [field, f] of FIELDS.entries()) {
  const n = f.nulls;
  if (n.reads !== "when") continue;
  const column = FIELDS.findIndex((c) => c.column === n.column);
  const rule = FIELDS[column]?.rule;
  if (rule?.kind !== "enum") {
    // a condition on anything but an enum is decided by decisionFromLine
    LEFT[field] = 1;
    continue;
  }
  whenRules.push({
    field,
    column,
    nullFor: Uint8Array.from(rule.values, (v) => n.values.includes(v) ? 1 : 0),
  });
}
const WHEN: readonly WhenRule[] = whenRules;
/**
 * The optional field the statistics read when a line has it: the cluster,
 * whose value groups decisions into units (lib/decision/cluster.ts).
 */
const CLUSTER = (() => {
  const f = FIELDS.findIndex((x) => x.key === "cluster");
  if (f < 0 || FIELDS[f].rule.kind !== "id" || FIELDS[f].required) {
    throw new Error(
      "the JSONL reader reads cluster: an optional id field of the Decision schema",
    );
  }
  return f;
})();

/**
 * The fields whose presence is kept per line: those a `when` rule reads,
 * and the cluster.
 */
const WHEN_FIELDS = Int32Array.from(
  new Set([...WHEN.flatMap((r) => [r.field, r.column]), CLUSTER]),
);

/**
 * A top-level key of a line: one field, or (`inner` not empty) an object
 * whose keys are exactly the inner keys of its fields (`cost`).
 */
interface TopKey {
  readonly name: string;
  required: boolean;
  /** The field, or -1 for an object. */
  readonly field: number;
  /** An object's keys: bytes and field. */
  readonly inner: Array<readonly [Uint8Array, number]>;
}

const TOP_KEYS: TopKey[] = [];
for (const [field, f] of FIELDS.entries()) {
  const { head: name, member } = keyPath(f.key);
  let top = TOP_KEYS.find((k) => k.name === name);
  if (top === undefined) {
    top = {
      name,
      required: false,
      field: member === null ? field : -1,
      inner: [],
    };
    TOP_KEYS.push(top);
  }
  if (f.required) top.required = true;
  if (member !== null) top.inner.push([bytesOf(member), field]);
}
// keys by length: [bytes, index into TOP_KEYS]; a key with a field this
// scanner leaves is not one it knows
const KEYS_BY_LENGTH: Array<Array<[Uint8Array, number]>> = [];
for (const [k, top] of TOP_KEYS.entries()) {
  const left = top.field >= 0
    ? LEFT[top.field] === 1
    : top.inner.some(([, f]) => LEFT[f] === 1);
  if (!left) {
    (KEYS_BY_LENGTH[top.name.length] ??= []).push([bytesOf(top.name), k]);
  }
}
const REQUIRED_TOP = TOP_KEYS.filter((k) => k.required).length;
const MAX_SLOTS = N;

/** The field of `key`, which the statistics read: it must have the rule they expect. */
function fieldFor(key: string, kind: FieldKind, nullable: boolean): number {
  const f = FIELDS.findIndex((x) => x.key === key);
  if (
    f < 0 || FIELDS[f].rule.kind !== kind || !FIELDS[f].required ||
    NULLABLE[f] !== (nullable ? 1 : 0)
  ) {
    throw new Error(
      `the JSONL reader counts ${key}: a required ${kind} field${
        nullable ? " that may be null" : ""
      } of the Decision schema`,
    );
  }
  return f;
}

/**
 * The fields the statistics are made of, by their place in
 * `DECISION_FIELDS`, in the order the WebAssembly reader numbers them
 * (0-4 the key's ids and the two classes, whose byte spans it hashes).
 */
export const SCAN_ROLES = {
  run: fieldFor("runId", "id", false),
  model: fieldFor("modelId", "id", false),
  task: fieldFor("taskId", "id", false),
  trueClass: fieldFor("trueClass", "id", false),
  predClass: fieldFor("predClass", "id", false),
  trial: fieldFor("trial", "count", false),
  severity: fieldFor("severity", "enum", false),
  action: fieldFor("action", "enum", false),
  parseOk: fieldFor("parseOk", "boolean", false),
  pCorrect: fieldFor("pCorrect", "probability", true),
} as const;

const RUN = SCAN_ROLES.run;
const MODEL = SCAN_ROLES.model;
const TASK = SCAN_ROLES.task;
const TRUE = SCAN_ROLES.trueClass;
const PRED = SCAN_ROLES.predClass;
const TRIAL = SCAN_ROLES.trial;
const SEVERITY = SCAN_ROLES.severity;
const ACTION = SCAN_ROLES.action;
const PARSE_OK = SCAN_ROLES.parseOk;
const P_CORRECT = SCAN_ROLES.pCorrect;

/**
 * The words behind the codes of {@linkcode DecisionScan.severity} and
 * {@linkcode DecisionScan.action}: the schema's values of those fields.
 */
export const ROLE_WORDS: {
  readonly severity: readonly string[];
  readonly action: readonly string[];
} = {
  severity: (FIELDS[SEVERITY].rule as { values: readonly string[] }).values,
  action: (FIELDS[ACTION].rule as { values: readonly string[] }).values,
};

const TRUE_BYTES = bytesOf("true");
const FALSE_BYTES = bytesOf("false");
const NULL_BYTES = bytesOf("null");

// in a string: 1 for the closing quote, 2 for what the fast path leaves
// (an escape, a control character, a byte of a multi-byte character)
const STOP = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  STOP[c] = c === QUOTE ? 1 : c === BACKSLASH || c < 32 || c > 127 ? 2 : 0;
}

const POW10: number[] = [];
for (let e = 0, p = 1; e <= 22; e++, p *= 10) POW10.push(p);

// the WebAssembly reader's vocabularies: each enum field's words, then the
// pCorrect sources that carry no parameter (its others are left to this
// scanner)
const VOCABULARIES: Uint8Array[][] = [];
const VOCABULARY_OF = FIELDS.map((f, i) => {
  if (f.rule.kind === "enum") return VOCABULARIES.push([...WORDS[i]]) - 1;
  return -1;
});
if (FIELDS.some((f) => f.rule.kind === "pcorrect-source")) {
  const v = VOCABULARIES.push(PCORRECT_SOURCES.map(bytesOf)) - 1;
  FIELDS.forEach((f, i) => {
    if (f.rule.kind === "pcorrect-source") VOCABULARY_OF[i] = v;
  });
}

/**
 * How the WebAssembly reader reads each field (by its place in
 * `DECISION_FIELDS`): bits 0-3 its kind code (0 id, 1 text, 2 enum, 3
 * pCorrect source, 4 count, 5 amount, 6 probability, 7 boolean), bit 4 set
 * when null is a value, bit 5 when a template slot holds the text between
 * the quotes, bits 8-15 its vocabulary (an enum's or the pCorrect
 * sources', {@linkcode WASM_TABLES}), bits 16 and up the field.
 */
export const WASM_OPS: readonly number[] = FIELDS.map((_, f) =>
  KIND_OF[f] | NULLABLE[f] << 4 | QUOTED[f] << 5 |
  (VOCABULARY_OF[f] & 0xff) << 8 | f << 16
);

/**
 * The tables the WebAssembly reader shares with this scanner: the string
 * stop bytes, the powers of ten, the vocabularies ({@linkcode WASM_OPS}
 * names each field's), the fields of {@linkcode SCAN_ROLES} in its order,
 * the `when` null rules as (field, column, a mask of the column's codes
 * that mean null, or null when it has more than 32 words), and the number
 * of fields.
 */
export const WASM_TABLES = {
  stop: STOP,
  pow10: Float64Array.from(POW10),
  vocabularies: VOCABULARIES,
  roles: Int32Array.from(Object.values(SCAN_ROLES)),
  when: WHEN.map((r): [number, number, number | null] => [
    r.field,
    r.column,
    r.nullFor.length > 32
      ? null
      : r.nullFor.reduce((mask, v, code) => mask | v << code, 0),
  ]),
  fields: N,
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
  /** Index into the severity field's values ({@linkcode ROLE_WORDS}). */
  severity = 0;
  /** Index into the action field's values: 0 for auto, 1 for escalate. */
  action = 0;
  parseOk = false;
  /** P(correct), or null. */
  pCorrect: number | null = null;
  /** The cluster's byte range, or -1 and -1 when the line names none. */
  clusterStart = -1;
  clusterEnd = -1;
  // the last string's content range and the last number's value
  #s = 0;
  #e = 0;
  #n = 0;

  // each field's value in the line being read: a string's content range,
  // an enum's code (true is 1), a number, whether it was null, and (for
  // the fields of a `when` rule) whether the line had it
  #start = new Int32Array(N);
  #end = new Int32Array(N);
  #code = new Int32Array(N);
  #num = new Float64Array(N);
  #isNull = new Uint8Array(N);
  #present = new Uint8Array(N);
  #seen = new Uint8Array(TOP_KEYS.length);

  // the slots of the line being scanned: field, value start and end
  #spans = 0;
  #spanField = new Int32Array(MAX_SLOTS);
  #spanStart = new Int32Array(MAX_SLOTS);
  #spanEnd = new Int32Array(MAX_SLOTS);
  // the template: the bytes between the slots of the last line read by
  // the general scan (literal k precedes slot k; the last one ends the line)
  #slots = 0;
  #slotField = new Int32Array(MAX_SLOTS);
  #litStart = new Int32Array(MAX_SLOTS + 2);
  #lits = new Uint8Array(0);
  #words = new Int32Array(0);
  #wordStart = new Int32Array(MAX_SLOTS + 2);
  #view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  #viewOf: Uint8Array | null = null;

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
    const fields = this.#slotField;
    this.#newLine();
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
      if (k === slots) return this.#done() ? i : -1;
      const f = fields[k];
      if (QUOTED[f] === 0) {
        i = this.#value(f, b, i, limit);
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
      if (!this.#text(f, b, s, i)) return -1;
    }
  }

  // a line starts: the fields of the `when` rules are not present yet
  #newLine(): void {
    for (let j = 0; j < WHEN_FIELDS.length; j++) {
      this.#present[WHEN_FIELDS[j]] = 0;
    }
  }

  // the line's fields are read: check the `when` rules, and set the fields
  // the statistics read
  #done(): boolean {
    const present = this.#present;
    for (const r of WHEN) {
      if (present[r.field] === 0) continue;
      const code = present[r.column] === 1 ? this.#code[r.column] : -1;
      const nullHere = code >= 0 && r.nullFor[code] === 1;
      if ((this.#isNull[r.field] === 1) !== nullHere) return false;
    }
    const start = this.#start;
    const end = this.#end;
    this.runStart = start[RUN];
    this.runEnd = end[RUN];
    this.modelStart = start[MODEL];
    this.modelEnd = end[MODEL];
    this.taskStart = start[TASK];
    this.taskEnd = end[TASK];
    this.trueStart = start[TRUE];
    this.trueEnd = end[TRUE];
    this.predStart = start[PRED];
    this.predEnd = end[PRED];
    this.trial = this.#num[TRIAL];
    this.severity = this.#code[SEVERITY];
    this.action = this.#code[ACTION];
    this.parseOk = this.#code[PARSE_OK] === 1;
    this.pCorrect = this.#isNull[P_CORRECT] === 1 ? null : this.#num[P_CORRECT];
    const named = present[CLUSTER] === 1;
    this.clusterStart = named ? start[CLUSTER] : -1;
    this.clusterEnd = named ? end[CLUSTER] : -1;
    return true;
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
        this.#slotField[k] = this.#spanField[k];
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
      ops: Int32Array.from(this.#slotField.subarray(0, n), (f) => WASM_OPS[f]),
    };
  }

  #span(field: number, s: number, e: number): void {
    const k = this.#spans++;
    this.#spanField[k] = field;
    this.#spanStart[k] = s;
    this.#spanEnd[k] = e;
  }

  #scanFields(b: Uint8Array, start: number, end: number): boolean {
    this.#spans = 0;
    this.#newLine();
    const seen = this.#seen;
    seen.fill(0);
    let required = 0;
    let i = ws(b, start, end);
    if (i >= end || b[i] !== LBRACE) return false;
    i = ws(b, i + 1, end);
    for (;;) {
      if (i >= end || b[i] !== QUOTE) return false;
      const k = this.#string(b, i, end);
      if (k < 0) return false;
      const key = keyId(b, this.#s, this.#e);
      if (key < 0 || seen[key] === 1) return false; // unknown, or repeated
      seen[key] = 1;
      const top = TOP_KEYS[key];
      if (top.required) required++;
      i = ws(b, k, end);
      if (i >= end || b[i] !== COLON) return false;
      i = ws(b, i + 1, end);
      const v = top.field < 0
        ? this.#object(top, b, i, end)
        : this.#field(top.field, b, i, end);
      if (v < 0) return false;
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
    if (required !== REQUIRED_TOP) return false;
    return ws(b, i, end) === end && this.#done();
  }

  // the value of a field at b[i], as a slot of the template: the index
  // after it, or -1
  #field(f: number, b: Uint8Array, i: number, end: number): number {
    const v = this.#value(f, b, i, end);
    if (v < 0) return -1;
    if (QUOTED[f] === 1) this.#span(f, i + 1, v - 1);
    else this.#span(f, i, v);
    return v;
  }

  // {"inner": ..., ...} at b[i]: exactly the object's keys, each once
  #object(top: TopKey, b: Uint8Array, i: number, end: number): number {
    if (i >= end || b[i] !== LBRACE) return -1;
    i = ws(b, i + 1, end);
    const inner = top.inner;
    let seen = 0; // a bit per inner key
    for (;;) {
      if (i >= end || b[i] !== QUOTE) return -1;
      const k = this.#string(b, i, end);
      if (k < 0) return -1;
      let j = 0;
      while (j < inner.length && !equalAt(b, this.#s, this.#e, inner[j][0])) {
        j++;
      }
      if (j === inner.length || (seen & 1 << j) !== 0) return -1;
      seen |= 1 << j;
      i = ws(b, k, end);
      if (i >= end || b[i] !== COLON) return -1;
      i = ws(b, i + 1, end);
      const v = this.#field(inner[j][1], b, i, end);
      if (v < 0) return -1;
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
    return seen === (1 << inner.length) - 1 ? i : -1;
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

  // A JSON number at b[i] in #n: the index after it, or -1 (not a number,
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
    this.#n = neg ? -v : v;
    return i;
  }

  #literal(b: Uint8Array, i: number, end: number, w: Uint8Array): number {
    const e = i + w.length;
    return e <= end && equalAt(b, i, e, w) ? e : -1;
  }

  // the text b[s, e) of string field f, by its kind: whether it is a value
  // of the field (then kept)
  #text(f: number, b: Uint8Array, s: number, e: number): boolean {
    this.#start[f] = s;
    this.#end[f] = e;
    this.#isNull[f] = 0;
    this.#present[f] = 1;
    switch (KIND_OF[f]) {
      case KIND.id:
        return e > s;
      case KIND.enum: {
        const code = indexIn(b, s, e, WORDS[f]);
        this.#code[f] = code;
        return code >= 0;
      }
      case KIND["pcorrect-source"]:
        return isPCorrectSource(ascii(b, s, e));
      default: // text
        return true;
    }
  }

  // The value of field f at b[i], by its kind and null rule: the index
  // after it, or -1.
  #value(f: number, b: Uint8Array, i: number, end: number): number {
    if (i >= end) return -1;
    const kind = KIND_OF[f];
    if (b[i] === 110) {
      if (NULLABLE[f] === 0) return -1;
      this.#isNull[f] = 1;
      this.#present[f] = 1;
      return this.#literal(b, i, end, NULL_BYTES);
    }
    if (kind < STRING_KINDS) {
      if (b[i] !== QUOTE) return -1;
      const k = this.#string(b, i, end);
      return k >= 0 && this.#text(f, b, this.#s, this.#e) ? k : -1;
    }
    this.#isNull[f] = 0;
    this.#present[f] = 1;
    if (kind === KIND.boolean) {
      let k = this.#literal(b, i, end, TRUE_BYTES);
      this.#code[f] = k >= 0 ? 1 : 0;
      if (k < 0) k = this.#literal(b, i, end, FALSE_BYTES);
      return k;
    }
    const k = this.#number(b, i, end);
    const v = this.#n;
    this.#num[f] = v;
    if (k < 0 || !(v >= 0)) return -1;
    if (kind === KIND.count) return Number.isSafeInteger(v) ? k : -1;
    if (kind === KIND.probability) return v <= 1 ? k : -1;
    return k; // an amount: finite, as every number read here is
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
