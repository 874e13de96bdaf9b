// Private: strict UTF-8 for every loader. Text that is not valid UTF-8 is
// refused with the byte and line of the first bad sequence, never replaced
// by U+FFFD; a leading byte-order mark is accepted and dropped.

import { InputSyntaxError } from "../input_error.ts";
import { isStdinPath, regularFile } from "./_regular_file.ts";

/**
 * Offset of the first byte that does not start or continue a valid UTF-8
 * sequence, or -1. With `final: false` a sequence cut by the end of `bytes`
 * is not an error (more bytes follow); its start is returned as `-2 - at`.
 */
export function invalidUtf8At(bytes: Uint8Array, final = true): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f; // no surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    if (i + need >= n) {
      // not enough bytes left: check what is there
      for (let k = 1; i + k < n; k++) {
        const c = bytes[i + k];
        if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return i;
      }
      return final ? i : -2 - i;
    }
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** 1-based line of byte `at`: one more than the newlines before it. */
export function lineOfByte(bytes: Uint8Array, at: number): number {
  let line = 1;
  for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/**
 * Decode a whole file's bytes as strict UTF-8, dropping a leading BOM.
 *
 * @param bytes The file's bytes.
 * @param what The start of the error message, e.g. `Cannot load run export a.jsonl`.
 * @throws {InputSyntaxError} Naming the line and byte of the first bad sequence.
 */
export function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    // native and fast; a leading BOM is consumed by the decoder
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const bad = Math.max(0, invalidUtf8At(bytes));
    throw new InputSyntaxError(
      `${what}: line ${
        lineOfByte(bytes, bad)
      }: not valid UTF-8 at byte ${bad} (0x${
        (bytes[bad] ?? 0).toString(16).padStart(2, "0")
      })`,
    );
  }
}

/** Read a file as strict UTF-8, dropping a leading BOM; see {@linkcode decodeUtf8}. */
export async function readUtf8File(
  path: string,
  what: string,
): Promise<string> {
  await regularFile(path, what);
  const bytes = isStdinPath(path)
    ? await new Response(Deno.stdin.readable).bytes()
    : await Deno.readFile(path);
  return decodeUtf8(bytes, what);
}
