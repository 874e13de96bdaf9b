// Private: SHA-256 through node:crypto (Rust's sha2 under Deno, with SHA-NI
// where the CPU has it), and the byte comparisons of the verifier's hot loop.
// Under Deno a hex digest is much cheaper to get than a Buffer digest, so the
// verifier compares hex text with the stored hex bytes.
import { createHash } from "node:crypto";

/** Lowercase hex SHA-256 of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Whether a 64-character hex string equals the 64 bytes at `bytes[at..at+64)`. */
export function hexEquals(hex: string, bytes: Uint8Array, at: number): boolean {
  if (hex.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    if (hex.charCodeAt(i) !== bytes[at + i]) return false;
  }
  return true;
}

/** Whether `bytes[a..a+n)` equals `bytes2[b..b+n)`. */
export function bytesEqual(
  bytes: Uint8Array,
  a: number,
  bytes2: Uint8Array,
  b: number,
  n: number,
): boolean {
  for (let i = 0; i < n; i++) if (bytes[a + i] !== bytes2[b + i]) return false;
  return true;
}
