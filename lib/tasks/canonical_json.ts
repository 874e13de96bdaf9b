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
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number": {
      const text = Number.isFinite(value) ? String(value) : "";
      if (text === "" || text.includes("e")) {
        throw new TypeError(
          `Cannot write canonical JSON: numbers must be finite and written without an exponent, got ${value}`,
        );
      }
      return text;
    }
    case "object": {
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ",";
          out += canonicalJson(value[i]);
        }
        return out + "]";
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort();
      let out = "{";
      let first = true;
      for (const k of keys) {
        if (obj[k] === undefined) continue;
        if (!first) out += ",";
        first = false;
        out += JSON.stringify(k) + ":" + canonicalJson(obj[k]);
      }
      return out + "}";
    }
    default:
      throw new TypeError(
        `Cannot write canonical JSON: unsupported value of type ${typeof value}`,
      );
  }
}
