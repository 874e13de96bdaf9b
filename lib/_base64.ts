// Private: the bytes of a base64 text (the committed WebAssembly modules).
// Uint8Array.fromBase64 where the engine has it; else one loop over atob's
// text (Uint8Array.from with a callback per character is slow in a fresh
// process, before the engine has optimized the callback).

type FromBase64 = (text: string) => Uint8Array<ArrayBuffer>;

/**
 * Decode base64 text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { base64Bytes } from "./_base64.ts";
 *
 * assert.deepEqual([...base64Bytes("AGFzbQ==")], [0, 97, 115, 109]);
 * ```
 */
export function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const native = (Uint8Array as unknown as { fromBase64?: FromBase64 })
    .fromBase64;
  if (typeof native === "function") return native.call(Uint8Array, text);
  return base64BytesByLoop(text);
}

/** {@linkcode base64Bytes} without the engine's decoder. */
export function base64BytesByLoop(text: string): Uint8Array<ArrayBuffer> {
  const chars = atob(text);
  const out = new Uint8Array(chars.length);
  for (let i = 0; i < chars.length; i++) out[i] = chars.charCodeAt(i);
  return out;
}
