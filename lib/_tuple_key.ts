// Private: one string per tuple of strings and numbers, for Map and Set keys.
// Joining the parts with a separator is not enough, since an id may hold the
// separator (a JSON string may hold "\u0000"): ["a\u0000b", "c"] and
// ["a", "b\u0000c"] would share "a\u0000b\u0000c". Each part's length comes
// first, so the key splits back into its parts one way only.

/**
 * A key that two tuples share exactly when they have the same parts (numbers
 * as `String(n)` spells them, so `0` and `-0` are one part).
 *
 * @param parts Strings and numbers.
 * @returns The key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tupleKey } from "./_tuple_key.ts";
 *
 * assert.notEqual(tupleKey(["a\u0000b", "c"]), tupleKey(["a", "b\u0000c"]));
 * assert.equal(tupleKey(["t", 0]), tupleKey(["t", -0]));
 * ```
 */
export function tupleKey(parts: readonly (string | number)[]): string {
  let lengths = "";
  let body = "";
  for (const p of parts) {
    const s = String(p);
    lengths += `${s.length},`;
    body += s;
  }
  return `${lengths}:${body}`;
}

/**
 * {@linkcode tupleKey} of `[runId, modelId, taskId, trial]`, written out for
 * the loaders' hot loops.
 *
 * @param runId Run id.
 * @param modelId Model id.
 * @param taskId Task id.
 * @param trial Trial number.
 * @returns The key.
 */
export function decisionTupleKey(
  runId: string,
  modelId: string,
  taskId: string,
  trial: number,
): string {
  const t = String(trial);
  return `${runId.length},${modelId.length},${taskId.length},${t.length},:${runId}${modelId}${taskId}${t}`;
}

/**
 * Compare two entries by an order string first and their keys second: for
 * sorting cells in a historical order (their parts joined by a separator)
 * that two different tuples may share, still deterministically.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { byOrderThenKey } from "./_tuple_key.ts";
 *
 * assert.equal(byOrderThenKey("a", "k2", "b", "k1"), -1);
 * assert.equal(byOrderThenKey("a", "k2", "a", "k1"), 1);
 * ```
 */
export function byOrderThenKey(
  orderA: string,
  keyA: string,
  orderB: string,
  keyB: string,
): number {
  if (orderA !== orderB) return orderA < orderB ? -1 : 1;
  return keyA < keyB ? -1 : keyA > keyB ? 1 : 0;
}

/**
 * A Map key standing for a string: the number it is the text of, where it
 * is the text of a whole number (`"12"`, not `"012"` or `"1e3"`), else the
 * string itself. Two strings have the same key exactly when they are equal;
 * a Map with many keys like `"12"` finds a number faster than the string.
 *
 * @param text A string.
 * @returns The key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stringMapKey } from "./_tuple_key.ts";
 *
 * assert.equal(stringMapKey("12"), 12);
 * assert.equal(stringMapKey("012"), "012");
 * assert.equal(stringMapKey("-0"), "-0");
 * assert.equal(stringMapKey("a/1"), "a/1");
 * ```
 */
export function stringMapKey(text: string): string | number {
  const c = text.charCodeAt(0);
  if (text.length > 15 || !((c >= 0x31 && c <= 0x39) || text === "0")) {
    return text;
  }
  const n = Number(text);
  return Number.isSafeInteger(n) && String(n) === text ? n : text;
}
