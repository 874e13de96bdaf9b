// Private to the importers: a JSON reader that is tolerant where harness logs
// need it and strict everywhere else.
//
// Python's json module writes bare NaN, Infinity and -Infinity (inspect_ai,
// lm-evaluation-harness); this reader reads them, outside strings only, as
// JavaScript numbers. It refuses what JSON.parse silently accepts: a repeated
// key in one object (JSON.parse and json5 keep the last), naming the key's
// path. Syntax errors name the file, line and column. A leading UTF-8 BOM is
// skipped; invalid UTF-8 is refused.

import { InputSyntaxError } from "../input_error.ts";

/** Options for {@linkcode parseJsonStrict}. */
export interface JsonStrictOptions {
  /** File path shown in errors. Default: `"<inline>"`. */
  file?: string;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// A string body without escapes or control characters, up to the closing quote.
// deno-lint-ignore no-control-regex -- JSON forbids raw control characters in strings
const PLAIN = /[^"\\\u0000-\u001f]*/y;
// deno-lint-ignore no-control-regex -- as above
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

function formatPath(path: readonly (string | number)[]): string {
  return "$" +
    path.map((k) =>
      typeof k === "number"
        ? `[${k}]`
        : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k)
        ? `.${k}`
        : `[${JSON.stringify(k)}]`
    ).join("");
}

class Parser {
  i = 0;
  readonly path: (string | number)[] = [];
  constructor(readonly text: string, readonly file: string) {}

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
    while (this.i < t.length && WS.has(t.charCodeAt(this.i))) this.i++;
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

  string(): string {
    const t = this.text;
    const start = this.i;
    PLAIN.lastIndex = start + 1;
    PLAIN.exec(t);
    if (t.charCodeAt(PLAIN.lastIndex) === 0x22) {
      this.i = PLAIN.lastIndex + 1;
      return t.slice(start + 1, PLAIN.lastIndex);
    }
    STRING.lastIndex = start;
    const m = STRING.exec(t);
    if (m === null) {
      let k = PLAIN.lastIndex;
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
    return JSON.parse(m[0]);
  }

  number(): number {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.text);
    if (m === null) return this.fail(`unexpected ${this.found()}`);
    this.i = NUMBER.lastIndex;
    return Number(m[0]);
  }

  value(): unknown {
    this.ws();
    const c = this.text.charCodeAt(this.i);
    switch (c) {
      case 0x7b: // {
        return this.object();
      case 0x5b: // [
        return this.array();
      case 0x22: // "
        return this.string();
      case 0x74: // t
        return this.literal("true", true);
      case 0x66: // f
        return this.literal("false", false);
      case 0x6e: // n
        return this.literal("null", null);
      case 0x4e: // N
        return this.literal("NaN", NaN);
      case 0x49: // I
        return this.literal("Infinity", Infinity);
      case 0x2d: // -
        if (this.text.startsWith("-Infinity", this.i)) {
          this.i += 9;
          return -Infinity;
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
        this.path.push(key);
        const where = formatPath(this.path);
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
      if (key === "__proto__") {
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
 * Parse JSON text, reading bare `NaN`, `Infinity` and `-Infinity` outside
 * strings as numbers and refusing a repeated key in one object. On valid
 * JSON (without repeated keys) the result equals `JSON.parse(text)`.
 *
 * @param text The text; a leading BOM is skipped.
 * @param options `file` for messages.
 * @returns The value.
 * @throws {SyntaxError} Naming file, line and column, and for a repeated key its path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonStrict } from "./_json_strict.ts";
 *
 * assert.deepEqual(parseJsonStrict('{"a": NaN, "b": [-Infinity]}'), { a: NaN, b: [-Infinity] });
 * assert.equal(parseJsonStrict('"NaN"'), "NaN");
 * assert.throws(() => parseJsonStrict('{"a": {"b": 1, "b": 2}}', { file: "x.json" }), /x\.json: line 1 column 16: duplicate key \$\.a\.b/);
 * ```
 */
export function parseJsonStrict(
  text: string,
  options: JsonStrictOptions = {},
): unknown {
  const p = new Parser(
    text.charCodeAt(0) === 0xfeff ? text.slice(1) : text,
    options.file ?? "<inline>",
  );
  const value = p.value();
  p.ws();
  if (p.i < p.text.length) p.fail(`unexpected ${p.found()} after the value`);
  return value;
}

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
 * import { decodeUtf8Strict } from "./_json_strict.ts";
 *
 * assert.equal(decodeUtf8Strict(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), "a.json"), "{}");
 * assert.throws(() => decodeUtf8Strict(new Uint8Array([0xff]), "a.json"), /a\.json: invalid UTF-8/);
 * ```
 */
export function decodeUtf8Strict(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      bytes,
    );
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
 * @returns The value.
 * @throws {SyntaxError} As the two steps.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonBytesStrict } from "./_json_strict.ts";
 *
 * assert.deepEqual(parseJsonBytesStrict(new TextEncoder().encode('{"x": Infinity}'), "a.json"), { x: Infinity });
 * ```
 */
export function parseJsonBytesStrict(bytes: Uint8Array, file: string): unknown {
  return parseJsonStrict(decodeUtf8Strict(bytes, file), { file });
}

/**
 * Read a JSON file strictly.
 *
 * @param path The file.
 * @returns The value.
 * @throws {SyntaxError} As {@linkcode parseJsonBytesStrict}; `Deno.errors.NotFound`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJsonStrict } from "./_json_strict.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/a.json`;
 * await Deno.writeTextFile(path, '{"loss": NaN}');
 * assert.ok(Number.isNaN((await readJsonStrict(path) as { loss: number }).loss));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readJsonStrict(path: string): Promise<unknown> {
  return parseJsonBytesStrict(await Deno.readFile(path), path);
}
