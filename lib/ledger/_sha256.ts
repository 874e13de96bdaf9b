// Private: SHA-256 through node:crypto (Rust's sha2 under Deno, with SHA-NI
// where the CPU has it), and byte-level hex helpers for the verifier's hot
// loop.
import { createHash } from "node:crypto";

const HEX = new Uint8Array(512);
for (let i = 0; i < 256; i++) {
  const s = i.toString(16).padStart(2, "0");
  HEX[2 * i] = s.charCodeAt(0);
  HEX[2 * i + 1] = s.charCodeAt(1);
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Raw SHA-256 of the concatenation of byte ranges. */
export function sha256Parts(parts: readonly Uint8Array[]): Uint8Array {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
}

/**
 * Whether 32 digest bytes equal 64 lowercase hex characters stored at
 * `bytes[at..at+64)`.
 */
export function digestEqualsHex(
  digest: Uint8Array,
  bytes: Uint8Array,
  at: number,
): boolean {
  for (let i = 0; i < 32; i++) {
    const d = digest[i];
    if (
      bytes[at + 2 * i] !== HEX[2 * d] ||
      bytes[at + 2 * i + 1] !== HEX[2 * d + 1]
    ) return false;
  }
  return true;
}

/** Lowercase hex text of digest bytes. */
export function toHex(digest: Uint8Array): string {
  let s = "";
  for (let i = 0; i < digest.length; i++) {
    s += String.fromCharCode(HEX[2 * digest[i]], HEX[2 * digest[i] + 1]);
  }
  return s;
}

/** Whether `bytes[at..at+n)` are all lowercase hex characters. */
export function isLowerHex(bytes: Uint8Array, at: number, n: number): boolean {
  for (let i = at; i < at + n; i++) {
    const c = bytes[i];
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
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
