// Private: whether a value is an Arquero table, told by its shape, so that
// modules that take one as input need not load Arquero to recognise it.

import type { ColumnTable } from "arquero";

/**
 * Whether a value is an Arquero table: it has the methods lossbook reads a
 * table with (`columnNames`, `numRows`, `array`, `objects`).
 *
 * @param value Anything.
 * @returns `true` for a table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as aq from "arquero";
 * import { isColumnTable } from "./_column_table.ts";
 *
 * assert.equal(isColumnTable(aq.table({ a: [1] })), true);
 * assert.equal(isColumnTable([{ a: 1 }]), false);
 * assert.equal(isColumnTable(null), false);
 * ```
 */
export function isColumnTable(value: unknown): value is ColumnTable {
  if (typeof value !== "object" || value === null) return false;
  const t = value as Partial<ColumnTable>;
  return typeof t.columnNames === "function" &&
    typeof t.numRows === "function" && typeof t.array === "function" &&
    typeof t.objects === "function";
}
