// Private: canonical JSON for ledger records. One value has exactly one text:
// object keys sorted by UTF-16 code units, no whitespace, strings escaped as
// JSON.stringify escapes them (well-formed: lone surrogates as \u escapes),
// numbers as ECMAScript Number::toString writes them (the shortest decimal
// that round-trips; -0 is written 0). Written directly to a string, never
// through a rebuilt object, so integer-like keys keep their sorted place.

function number(value: number, path: string): string {
  if (!Number.isFinite(value)) {
    throw new TypeError(
      `Cannot write canonical JSON: ${path} must be a finite number, got ${value}`,
    );
  }
  return JSON.stringify(value);
}

function write(value: unknown, path: string): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return number(value, path);
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          if (value[i] === undefined) {
            throw new TypeError(
              `Cannot write canonical JSON: ${path}[${i}] is undefined`,
            );
          }
          out += (i === 0 ? "" : ",") + write(value[i], `${path}[${i}]`);
        }
        return out + "]";
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort();
      let out = "{";
      let first = true;
      for (const k of keys) {
        const v = obj[k];
        if (v === undefined) continue;
        out += (first ? "" : ",") + JSON.stringify(k) + ":" +
          write(v, `${path}.${k}`);
        first = false;
      }
      return out + "}";
    }
    default:
      throw new TypeError(
        `Cannot write canonical JSON: ${path} has unsupported type ${typeof value}`,
      );
  }
}

/**
 * The canonical JSON text of a JSON-compatible value. Object members whose
 * value is `undefined` are left out, as JSON.stringify does; anything else
 * that JSON cannot hold (non-finite numbers, bigints, functions, undefined in
 * an array) is a TypeError naming the path.
 */
export function canonicalJson(value: unknown): string {
  return write(value, "(root)");
}
