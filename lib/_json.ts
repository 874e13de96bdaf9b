// Private: lossbook's one strict JSON reader.
//
// JSON.parse resolves a repeated key last-wins (`"severity":"CRITICAL",
// "severity":"LOW"` reads as LOW); every lossbook loader refuses it instead,
// as YAML does, naming the key. Python's json module writes bare NaN,
// Infinity and -Infinity (inspect_ai, lm-evaluation-harness): the tokenizer
// reads them, outside strings only, and each caller says whether it takes
// them (the harness importers do; JSON.parse, and so a Decision line,
// refuses them). Syntax errors name the file, line and column.
//
// Two entries. `parseJsonStrict` reads a whole text (harness logs, severity
// maps). `refuseDuplicateKeys` checks text JSON.parse has already read (a
// JSONL line, a cost profile). Both keep the common case cheap: the keys
// JSON.parse returned are counted and compared with the key markers in the
// text (a `:` whose previous non-blank character is a quote). Every key is
// followed by such a marker, so markers >= keys written >= keys returned,
// with equality only when no key repeats and no string value holds a
// marker. Only a text where the counts differ goes through the tokenizer,
// which names the key; `parseJsonStrict` tokenizes too a text JSON.parse
// refuses (bare NaN, a syntax error, whose line and column it names) or
// nests deeper than the tokenizer reads.

import { InputSyntaxError } from "./input_error.ts";

/** Options for {@linkcode parseJsonStrict}. */
export interface JsonStrictOptions {
  /** File path shown in errors. Default: `"<inline>"`. */
  file?: string;
  /**
   * Read bare `NaN`, `Infinity` and `-Infinity` outside strings as numbers
   * (as Python's json module writes them); refused as not JSON otherwise.
   * Default: false.
   */
  nonFinite?: boolean;
}

/** Where a repeated key is: the key and the path of its object. */
export interface DuplicateKey {
  /** The key, decoded. */
  readonly key: string;
  /** Keys and array indices from the top value down to the key's object. */
  readonly path: readonly (string | number)[];
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// deno-lint-ignore no-control-regex -- JSON forbids raw control characters in strings
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

// `$.a[0]["b c"]`, the form of parseJsonStrict's messages
function jsonPath(path: readonly (string | number)[]): string {
  return "$" +
    path.map((k) =>
      typeof k === "number"
        ? `[${k}]`
        : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k)
        ? `.${k}`
        : `[${JSON.stringify(k)}]`
    ).join("");
}

// `a[0].b c`, the form of refuseDuplicateKeys' messages
function dottedPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const k of path) {
    out = typeof k === "number"
      ? `${out}[${k}]`
      : out === ""
      ? k
      : `${out}.${k}`;
  }
  return out;
}

// The deepest nesting read: well past what Python's json module writes (its
// default recursion limit is 1,000) and well short of exhausting the stack,
// so a hostile document is refused, naming its place, not a crash.
const MAX_DEPTH = 2000;

// thrown by the tokenizer to findDuplicateKey, which catches it
class Repeated {
  constructor(readonly found: DuplicateKey) {}
}

class Parser {
  i = 0;
  depth = 0;
  readonly path: (string | number)[] = [];
  constructor(
    readonly text: string,
    readonly file: string,
    readonly nonFinite: boolean,
    // a repeated key: thrown as a Repeated (for findDuplicateKey) rather
    // than as an error naming it
    readonly report: boolean,
  ) {}

  fail(message: string, at = this.i): never {
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < at && k < this.text.length; k++) {
      if (this.text.charCodeAt(k) === 0x0a) {
        line++;
        lineStart = k + 1;
      }
    }
    throw new InputSyntaxError(
      `Cannot parse JSON ${this.file}: line ${line} column ${
        at - lineStart + 1
      }: ${message}`,
    );
  }

  ws(): void {
    const t = this.text;
    let c = t.charCodeAt(this.i);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      c = t.charCodeAt(++this.i);
    }
  }

  found(): string {
    if (this.i >= this.text.length) return "end of input";
    return JSON.stringify(this.text.slice(this.i, this.i + 12));
  }

  literal(word: string, value: unknown): unknown {
    if (this.text.startsWith(word, this.i)) {
      this.i += word.length;
      return value;
    }
    return this.fail(`unexpected ${this.found()}`);
  }

  // NaN, Infinity or -Infinity, where the caller takes them
  nonFiniteLiteral(word: string, value: number): number {
    if (!this.text.startsWith(word, this.i)) {
      return this.fail(`unexpected ${this.found()}`);
    }
    if (!this.nonFinite) return this.fail(`${word} is not JSON`);
    this.i += word.length;
    return value;
  }

  // a string; its text, or "" when `decode` is false (a value findDuplicateKey
  // passes over)
  string(decode = true): string {
    const t = this.text;
    const start = this.i;
    // the body up to a quote, a backslash or a control character (NaN past
    // the end stops it too)
    let k = start + 1;
    let c = t.charCodeAt(k);
    while (c !== 0x22 && c !== 0x5c && c >= 0x20) c = t.charCodeAt(++k);
    if (c === 0x22) {
      this.i = k + 1;
      // a copy (JSON.parse of the literal), not a slice of the text, which
      // would keep the whole text alive as long as the value is kept
      return decode ? JSON.parse(t.slice(start, k + 1)) : "";
    }
    STRING.lastIndex = start;
    const m = STRING.exec(t);
    if (m === null) {
      while (k < t.length) {
        const c = t.charCodeAt(k);
        if (c === 0x22) break;
        if (c < 0x20) return this.fail("control character in string", k);
        if (c === 0x5c) {
          if (!/^\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(t.slice(k, k + 6))) {
            return this.fail("invalid escape in string", k);
          }
          k += t.charCodeAt(k + 1) === 0x75 ? 6 : 2;
        } else k++;
      }
      return this.fail("unterminated string", start);
    }
    this.i = STRING.lastIndex;
    return decode ? JSON.parse(m[0]) : "";
  }

  number(): number {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.text);
    if (m === null) return this.fail(`unexpected ${this.found()}`);
    this.i = NUMBER.lastIndex;
    return Number(m[0]);
  }

  // an object or array, one level deeper
  nested<T>(read: () => T): T {
    if (++this.depth > MAX_DEPTH) {
      this.fail(
        `nested more than ${MAX_DEPTH} levels deep (at ${jsonPath(this.path)})`,
      );
    }
    const v = read();
    this.depth--;
    return v;
  }

  value(): unknown {
    this.ws();
    const c = this.text.charCodeAt(this.i);
    switch (c) {
      case 0x7b: // {
        return this.nested(() => this.object());
      case 0x5b: // [
        return this.nested(() => this.array());
      case 0x22: // "
        return this.string(!this.report);
      case 0x74: // t
        return this.literal("true", true);
      case 0x66: // f
        return this.literal("false", false);
      case 0x6e: // n
        return this.literal("null", null);
      case 0x4e: // N
        return this.nonFiniteLiteral("NaN", NaN);
      case 0x49: // I
        return this.nonFiniteLiteral("Infinity", Infinity);
      case 0x2d: // -
        if (this.text.startsWith("-Infinity", this.i)) {
          return this.nonFiniteLiteral("-Infinity", -Infinity);
        }
        return this.number();
      default:
        if (c >= 0x30 && c <= 0x39) return this.number();
        return this.fail(`unexpected ${this.found()}`);
    }
  }

  object(): Record<string, unknown> {
    this.i++;
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    this.ws();
    if (this.text.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.text.charCodeAt(this.i) !== 0x22) {
        return this.fail(`expected a property name, got ${this.found()}`);
      }
      const keyAt = this.i;
      const key = this.string();
      if (seen.has(key)) {
        if (this.report) throw new Repeated({ key, path: [...this.path] });
        this.path.push(key);
        const where = jsonPath(this.path);
        this.path.pop();
        return this.fail(`duplicate key ${where}`, keyAt);
      }
      seen.add(key);
      this.ws();
      if (this.text.charCodeAt(this.i) !== 0x3a) {
        return this.fail(`expected ":", got ${this.found()}`);
      }
      this.i++;
      this.path.push(key);
      const v = this.value();
      this.path.pop();
      if (this.report) {
        // findDuplicateKey builds no value
      } else if (key === "__proto__") {
        Object.defineProperty(out, key, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else out[key] = v;
      this.ws();
      const c = this.text.charCodeAt(this.i);
      if (c === 0x2c) {
        this.i++;
        continue;
      }
      if (c === 0x7d) {
        this.i++;
        return out;
      }
      return this.fail(`expected "," or "}", got ${this.found()}`);
    }
  }

  array(): unknown[] {
    this.i++;
    const out: unknown[] = [];
    this.ws();
    if (this.text.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return out;
    }
    for (;;) {
      this.path.push(out.length);
      out.push(this.value());
      this.path.pop();
      this.ws();
      const c = this.text.charCodeAt(this.i);
      if (c === 0x2c) {
        this.i++;
        continue;
      }
      if (c === 0x5d) {
        this.i++;
        return out;
      }
      return this.fail(`expected "," or "]", got ${this.found()}`);
    }
  }
}

/**
 * Parse JSON text, refusing a repeated key in one object and, unless
 * `nonFinite` is set, bare `NaN`, `Infinity` and `-Infinity`. On valid JSON
 * (without repeated keys) the result equals `JSON.parse(text)`.
 *
 * @param text The text; a leading BOM is skipped.
 * @param options `file` for messages; `nonFinite` to read the bare constants.
 * @returns The value.
 * @throws {SyntaxError} Naming file, line and column, and for a repeated key its path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonStrict } from "./_json.ts";
 *
 * assert.deepEqual(parseJsonStrict('{"a": NaN, "b": [-Infinity]}', { nonFinite: true }), { a: NaN, b: [-Infinity] });
 * assert.throws(() => parseJsonStrict('{"a": NaN}', { file: "x.json" }), /x\.json: line 1 column 7: NaN is not JSON/);
 * assert.equal(parseJsonStrict('"NaN"'), "NaN");
 * assert.throws(() => parseJsonStrict('{"a": {"b": 1, "b": 2}}', { file: "x.json" }), /x\.json: line 1 column 16: duplicate key \$\.a\.b/);
 * assert.throws(() => parseJsonStrict("[".repeat(5000) + "]".repeat(5000), { file: "d.json" }),
 *   /d\.json: line 1 column 2001: nested more than 2000 levels deep/);
 * ```
 */
export function parseJsonStrict(
  text: string,
  options: JsonStrictOptions = {},
): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // JSON.parse, where it reads the text as the tokenizer would: no key
  // repeated (the counts agree, or the tokenizer finds none), no deeper
  // than the tokenizer reads
  let parsed: unknown;
  let read = true;
  try {
    parsed = JSON.parse(body);
  } catch {
    read = false;
  }
  if (read) {
    const keys = countKeys(parsed, MAX_DEPTH);
    if (
      keys >= 0 &&
      (keys === countMarkers(body) || findDuplicateKey(body) === null)
    ) return parsed;
  }
  const p = new Parser(
    body,
    options.file ?? "<inline>",
    options.nonFinite ?? false,
    false,
  );
  const value = p.value();
  p.ws();
  if (p.i < p.text.length) p.fail(`unexpected ${p.found()} after the value`);
  return value;
}

/**
 * The first repeated key of valid JSON text, in text order, or `null`.
 *
 * @param text Text JSON.parse reads.
 * @returns The key and the path of its object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findDuplicateKey } from "./_json.ts";
 *
 * assert.deepEqual(findDuplicateKey('[{"a": {"b": 1, "b": 2}}]'), { key: "b", path: [0, "a"] });
 * assert.equal(findDuplicateKey('{"a": "\\":", "b": 1}'), null);
 * ```
 */
export function findDuplicateKey(text: string): DuplicateKey | null {
  try {
    new Parser(text, "<inline>", true, true).value();
    return null;
  } catch (error) {
    if (error instanceof Repeated) return error.found;
    throw error;
  }
}

// the keys of every object in a value, or -1 when objects and arrays nest
// more than `maxDepth` deep; with a stack of its own, not the call stack,
// as JSON.parse reads nesting deeper than recursion could follow
function countKeys(value: unknown, maxDepth = Infinity): number {
  let n = 0;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const x = stack.pop();
    const depth = depths.pop()!;
    if (x === null || typeof x !== "object") continue;
    if (depth > maxDepth) return -1;
    if (Array.isArray(x)) {
      for (const v of x) {
        if (v !== null && typeof v === "object") {
          stack.push(v);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const k in x as Record<string, unknown>) {
      n++;
      const v = (x as Record<string, unknown>)[k];
      if (v !== null && typeof v === "object") {
        stack.push(v);
        depths.push(depth + 1);
      }
    }
  }
  return n;
}

function countMarkers(text: string): number {
  let n = 0;
  let i = text.indexOf(":");
  while (i >= 0) {
    let j = i - 1;
    let c = text.charCodeAt(j);
    while (c === 32 || c === 9 || c === 10 || c === 13) {
      c = text.charCodeAt(--j);
    }
    if (c === 34) n++;
    i = text.indexOf(":", i + 1);
  }
  return n;
}

/**
 * Refuse `text` when it repeats a key in one object. `value` is what
 * JSON.parse returned for it.
 *
 * @param text Valid JSON text (one JSONL line, or a whole document).
 * @param value `JSON.parse(text)`.
 * @param where Start of the message, naming the file and line.
 * @throws {InputSyntaxError} Naming the repeated key and its object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refuseDuplicateKeys } from "./_json.ts";
 *
 * const text = '{"cost": {"usd": 1, "usd": 2}}';
 * assert.throws(() => refuseDuplicateKeys(text, JSON.parse(text), () => "a.jsonl: line 1"),
 *   /^SyntaxError: a\.jsonl: line 1: cost: key "usd" appears twice/);
 * ```
 */
export function refuseDuplicateKeys(
  text: string,
  value: unknown,
  where: () => string,
): void {
  if (value === null || typeof value !== "object") return;
  if (countKeys(value) === countMarkers(text)) return;
  const d = findDuplicateKey(text);
  if (d === null) return;
  const path = dottedPath(d.path);
  throw new InputSyntaxError(
    `${where()}: ${path === "" ? "" : `${path}: `}key ${
      JSON.stringify(d.key)
    } appears twice; a repeated key is ambiguous, so it is refused`,
  );
}

/**
 * `JSON.parse(text)`, refusing duplicate keys as
 * {@linkcode refuseDuplicateKeys} does.
 *
 * @param text JSON text.
 * @param where Start of a repeated key's message.
 * @returns The value.
 * @throws {SyntaxError} JSON.parse's own, or naming a repeated key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonNoDuplicates } from "./_json.ts";
 *
 * assert.deepEqual(parseJsonNoDuplicates('{"a": 1}', () => "p.json"), { a: 1 });
 * assert.throws(() => parseJsonNoDuplicates('{"a": 1, "a": 2}', () => "p.json"), /p\.json: key "a" appears twice/);
 * ```
 */
export function parseJsonNoDuplicates(
  text: string,
  where: () => string,
): unknown {
  const value = JSON.parse(text);
  refuseDuplicateKeys(text, value, where);
  return value;
}

const UTF8 = new TextDecoder("utf-8", { ignoreBOM: false });
const UTF8_FATAL = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Decode bytes as UTF-8, refusing invalid sequences (never replacing them).
 * A leading BOM is dropped.
 *
 * @param bytes The bytes.
 * @param file File path for the message.
 * @returns The text.
 * @throws {SyntaxError} For invalid UTF-8.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeUtf8Strict } from "./_json.ts";
 *
 * assert.equal(decodeUtf8Strict(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), "a.json"), "{}");
 * assert.throws(() => decodeUtf8Strict(new Uint8Array([0xff]), "a.json"), /a\.json: invalid UTF-8/);
 * ```
 */
export function decodeUtf8Strict(bytes: Uint8Array, file: string): string {
  // an invalid sequence decodes as U+FFFD: text without one was valid, and
  // only text with one (written as such, or not) is decoded again, strictly
  const text = UTF8.decode(bytes);
  if (!text.includes("\uFFFD")) return text;
  try {
    return UTF8_FATAL.decode(bytes);
  } catch (error) {
    throw new InputSyntaxError(`Cannot read ${file}: invalid UTF-8`, {
      cause: error,
    });
  }
}

/**
 * Decode and parse JSON bytes strictly ({@linkcode decodeUtf8Strict}, then
 * {@linkcode parseJsonStrict}).
 *
 * @param bytes The bytes.
 * @param file File path for messages.
 * @param options `nonFinite` to read bare NaN, Infinity and -Infinity.
 * @returns The value.
 * @throws {SyntaxError} As the two steps.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonBytesStrict } from "./_json.ts";
 *
 * const bytes = new TextEncoder().encode('{"x": Infinity}');
 * assert.deepEqual(parseJsonBytesStrict(bytes, "a.json", { nonFinite: true }), { x: Infinity });
 * ```
 */
export function parseJsonBytesStrict(
  bytes: Uint8Array,
  file: string,
  options: Pick<JsonStrictOptions, "nonFinite"> = {},
): unknown {
  return parseJsonStrict(decodeUtf8Strict(bytes, file), { ...options, file });
}
