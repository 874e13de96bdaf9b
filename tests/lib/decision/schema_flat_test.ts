// The flat row helpers of the Decision schema, which are written out from
// the field table when it loads, agree with their definitions field by
// field: recordColumns is flattenRecord column by column, and unflattenRow
// inverts flattenRecord for a Decision (its optional fields absent when null).
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  DECISION_COLUMNS,
  DECISION_FIELDS,
  flattenRecord,
  recordColumns,
  unflattenRow,
} from "../../../lib/decision/schema.ts";
import { mixedDecisions } from "../../_helpers.ts";

Deno.test("recordColumns() is flattenRecord() of each record, column by column (property, seed 31)", () => {
  // any value or none for each key, nested keys as objects or not at all
  const value = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.integer(),
    fc.string({ maxLength: 3 }),
  );
  const record = fc.record(
    Object.fromEntries(
      [...new Set(DECISION_FIELDS.map((f) => f.key.split(".")[0]))].map((
        head,
      ) => {
        const members = DECISION_FIELDS.filter((f) =>
          f.key.startsWith(`${head}.`)
        );
        return [
          head,
          members.length === 0 ? value : fc.oneof(
            fc.constant(undefined),
            fc.record(
              Object.fromEntries(
                members.map((f) => [f.key.slice(head.length + 1), value]),
              ),
              { requiredKeys: [] },
            ),
          ),
        ];
      }),
    ),
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(fc.array(record, { maxLength: 5 }), (records) => {
      const cols = recordColumns(records);
      assert.deepEqual(Object.keys(cols), [...DECISION_COLUMNS]);
      for (const c of DECISION_COLUMNS) {
        assert.deepEqual(cols[c], records.map((r) => flattenRecord(r)[c]));
      }
    }),
    { seed: 31, numRuns: 300 },
  );
});

Deno.test("unflattenRow() gives back the Decision that flattenRecord() flattened, keys in the same order", () => {
  for (const d of mixedDecisions()) {
    const back = unflattenRow(
      flattenRecord(d as unknown as Record<string, unknown>),
    );
    assert.deepEqual(back, d);
    assert.deepEqual(Object.keys(back), Object.keys(d));
  }
});
