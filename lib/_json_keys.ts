// Private: refuse duplicate keys in JSON text. JSON.parse resolves a
// repeated key last-wins (`"severity":"CRITICAL","severity":"LOW"` reads as
// LOW); every lossbook loader refuses it instead, as YAML does.
//
// The hot path is cheap: the keys JSON.parse returned are counted and
// compared with the key markers in the text (a `:` whose previous
// non-blank character is a quote). Every key is followed by such a marker,
// so markers >= keys written >= keys returned, with equality only when no
// key repeats and no string value holds a marker. Only a text where the
// counts differ is scanned by the strict tokenizer, which names the key.

import { InputSyntaxError } from "./input_error.ts";

function countKeys(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) {
      if (v !== null && typeof v === "object") n += countKeys(v);
    }
    return n;
  }
  for (const k in value as Record<string, unknown>) {
    n++;
    const v = (value as Record<string, unknown>)[k];
    if (v !== null && typeof v === "object") n += countKeys(v);
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

/** Where a duplicate key is: the key and the path of its object. */
export interface DuplicateKey {
  readonly key: string;
  readonly path: string;
}

/**
 * The first duplicate key in valid JSON text, or `null`. O(length); used
 * only where the cheap count says there may be one.
 */
export function findDuplicateKey(text: string): DuplicateKey | null {
  let i = 0;
  const ws = () => {
    let c = text.charCodeAt(i);
    while (c === 32 || c === 9 || c === 10 || c === 13) {
      c = text.charCodeAt(++i);
    }
  };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 92) i += 2;
      else if (c === 34) break;
      else i++;
    }
    i++; // closing quote
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): DuplicateKey | null => {
    ws();
    const c = text.charCodeAt(i);
    if (c === 123) {
      i++;
      const keys = new Set<string>();
      ws();
      if (text.charCodeAt(i) === 125) {
        i++;
        return null;
      }
      while (i < text.length) {
        ws();
        const k = str();
        if (keys.has(k)) return { key: k, path };
        keys.add(k);
        ws();
        i++; // colon
        const d = value(path === "" ? k : `${path}.${k}`);
        if (d !== null) return d;
        ws();
        if (text.charCodeAt(i++) === 125) return null; // else a comma
      }
      return null;
    }
    if (c === 91) {
      i++;
      ws();
      if (text.charCodeAt(i) === 93) {
        i++;
        return null;
      }
      for (let n = 0; i < text.length; n++) {
        const d = value(`${path}[${n}]`);
        if (d !== null) return d;
        ws();
        if (text.charCodeAt(i++) === 93) return null;
      }
      return null;
    }
    if (c === 34) {
      str();
      return null;
    }
    // a number, true, false, null (or a bare NaN some writers emit)
    while (i < text.length) {
      const d = text.charCodeAt(i);
      if (
        d === 44 || d === 125 || d === 93 || d === 32 || d === 9 || d === 10 ||
        d === 13
      ) break;
      i++;
    }
    return null;
  };
  return value("");
}

/**
 * Refuse `text` when it repeats a key in one object. `value` is what
 * JSON.parse returned for it.
 *
 * @param text Valid JSON text (one JSONL line, or a whole document).
 * @param value `JSON.parse(text)`.
 * @param where Start of the message, naming the file and line.
 * @throws {InputSyntaxError} Naming the repeated key and its object.
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
  throw new InputSyntaxError(
    `${where()}: ${d.path === "" ? "" : `${d.path}: `}key ${
      JSON.stringify(d.key)
    } appears twice; a repeated key is ambiguous, so it is refused`,
  );
}

/** `JSON.parse(text)`, refusing duplicate keys. */
export function parseJsonNoDuplicates(
  text: string,
  where: () => string,
): unknown {
  const value = JSON.parse(text);
  refuseDuplicateKeys(text, value, where);
  return value;
}
