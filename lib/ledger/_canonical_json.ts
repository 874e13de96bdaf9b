// Private: canonical JSON for ledger records. One value has exactly one text:
// object keys sorted by UTF-16 code units, no whitespace, strings escaped as
// JSON.stringify escapes them (well-formed: lone surrogates as \u escapes),
// numbers as ECMAScript Number::toString writes them (the shortest decimal
// that round-trips; -0 is written 0). Written directly to a string, never
// through a rebuilt object, so integer-like keys keep their sorted place.

const path: (string | number)[] = [];

function fail(what: string): never {
  const where = path.reduce<string>(
    (acc, k) => typeof k === "number" ? `${acc}[${k}]` : `${acc}.${k}`,
    "(root)",
  );
  path.length = 0;
  throw new TypeError(`Cannot write canonical JSON: ${where} ${what}`);
}

function write(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) {
        fail(`must be a finite number, got ${value}`);
      }
      return JSON.stringify(value);
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          path.push(i);
          if (value[i] === undefined) fail("is undefined");
          out += (i === 0 ? "" : ",") + write(value[i]);
          path.pop();
        }
        return out + "]";
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort();
      let out = "{";
      let first = true;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const v = obj[k];
        if (v === undefined) continue;
        path.push(k);
        out += (first ? "" : ",") + JSON.stringify(k) + ":" + write(v);
        path.pop();
        first = false;
      }
      return out + "}";
    }
    default:
      return fail(`has unsupported type ${typeof value}`);
  }
}

/**
 * The canonical JSON text of a JSON-compatible value. Object members whose
 * value is `undefined` are left out, as JSON.stringify does; anything else
 * that JSON cannot hold (non-finite numbers, bigints, functions, undefined in
 * an array) is a TypeError naming the path.
 */
export function canonicalJson(value: unknown): string {
  path.length = 0;
  return write(value);
}
