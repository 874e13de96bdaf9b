// Private: lossbook's one CSV writer, the counterpart of the reader in
// _csv_records.ts (RFC 4180): a field holding a comma, a quote or a line
// break is quoted, a quote inside doubled; null is an empty field and the
// empty string a quoted one (`""`), so that the two read back apart. It is
// a few lines of its own because the one npm CSV package here, csv-parse,
// only reads.

/**
 * One CSV field: `null` and `undefined` are empty, anything else its text,
 * quoted where it must be.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { csvField } from "./_csv_line.ts";
 *
 * assert.equal(csvField('say "no", twice'), '"say ""no"", twice"');
 * assert.equal(csvField(null), "");
 * assert.equal(csvField(""), '""');
 * assert.equal(csvField(0.1), "0.1");
 * ```
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) || text === ""
    ? `"${text.replaceAll('"', '""')}"`
    : text;
}

/**
 * One CSV record, its fields joined by commas, with no line break.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { csvLine } from "./_csv_line.ts";
 *
 * assert.equal(csvLine(["a,b", null, 3]), '"a,b",,3');
 * ```
 */
export function csvLine(fields: readonly unknown[]): string {
  return fields.map(csvField).join(",");
}
