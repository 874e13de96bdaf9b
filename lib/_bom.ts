// Private: drop a leading byte-order mark, which editors on some systems
// write at the start of UTF-8 text; every text reader calls this once.

/** `text` without a leading byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
