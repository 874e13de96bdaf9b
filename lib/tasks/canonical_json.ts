/**
 * Canonical JSON: one byte sequence per value, so suites hash the same on
 * any machine.
 *
 * @module
 */

/**
 * Write a value as canonical JSON.
 *
 * Rules: object keys sorted by UTF-16 code units (JavaScript's default
 * sort), no whitespace, strings escaped as `JSON.stringify` escapes them
 * (non-ASCII characters are written as UTF-8, not `\u` escapes), `null` kept,
 * numbers written as the shortest decimal that round-trips (ECMAScript
 * Number::toString) and only when that has no exponent: integers with
 * |x| < 1e21 and fractions with |x| >= 1e-6. Money never reaches this
 * function as a number: amounts are decimal strings. Cost is O(size).
 *
 * @param value A JSON-compatible value.
 * @returns The canonical text.
 * @throws {TypeError} For `undefined`, functions, bigints, non-finite
 * numbers, and numbers whose shortest form needs an exponent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalJson } from "./canonical_json.ts";
 *
 * assert.equal(canonicalJson({ b: [1, 0.25, null], a: "x" }), '{"a":"x","b":[1,0.25,null]}');
 * assert.throws(() => canonicalJson({ a: 1e-9 }), TypeError);
 * // integer-like keys sort as text too
 * assert.equal(canonicalJson({ "9": 0, "10": 1 }), '{"10":1,"9":0}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  return write(value);
}

function badNumber(value: number): never {
  throw new TypeError(
    `Cannot write canonical JSON: numbers must be finite and written without an exponent, got ${value}`,
  );
}

// The text written directly, keys sorted by UTF-16 code units, leaves by
// JSON.stringify (same escaping, same numbers). Objects are not rebuilt,
// because a rebuilt object would put integer-like keys ("9", "10") back in
// numeric order.
function write(value: unknown): string {
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) badNumber(value);
      if (
        (Math.abs(value) >= 1e21 || (value !== 0 && Math.abs(value) < 1e-6))
      ) badNumber(value);
      return JSON.stringify(value);
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        const parts = new Array<string>(value.length);
        for (let i = 0; i < value.length; i++) {
          if (value[i] === undefined) {
            throw new TypeError(
              "Cannot write canonical JSON: arrays must not hold undefined",
            );
          }
          parts[i] = write(value[i]);
        }
        return `[${parts.join(",")}]`;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort();
      const parts: string[] = [];
      for (const k of keys) {
        if (obj[k] !== undefined) {
          parts.push(`${JSON.stringify(k)}:${write(obj[k])}`);
        }
      }
      return `{${parts.join(",")}}`;
    }
    default:
      throw new TypeError(
        `Cannot write canonical JSON: unsupported value of type ${typeof value}`,
      );
  }
}
