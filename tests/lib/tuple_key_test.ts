import assert from "node:assert/strict";
import fc from "fast-check";
import { decisionTupleKey, tupleKey } from "../../lib/_tuple_key.ts";

// Short strings over a small alphabet that holds the separators an older
// key used ("\u0000", "/") and the characters of the length prefix.
const part = fc.oneof(
  fc.string({
    unit: fc.constantFrom("a", "\u0000", "/", ",", ":", "1"),
    maxLength: 4,
  }),
  fc.integer({ min: -3, max: 12 }),
);

Deno.test("tupleKey: two tuples share a key exactly when their parts are the same", () => {
  fc.assert(
    fc.property(
      fc.array(part, { maxLength: 4 }),
      fc.array(part, { maxLength: 4 }),
      (a, b) => {
        const same = a.length === b.length &&
          a.every((x, i) => String(x) === String(b[i]));
        assert.equal(tupleKey(a) === tupleKey(b), same);
      },
    ),
    { seed: 20261202, numRuns: 20_000 },
  );
});

Deno.test("decisionTupleKey is tupleKey of [runId, modelId, taskId, trial], and ids holding a NUL do not meet", () => {
  const id = fc.string({
    unit: fc.constantFrom("a", "\u0000", "1"),
    maxLength: 3,
  });
  fc.assert(
    fc.property(id, id, id, fc.nat(3), (r, m, t, trial) => {
      assert.equal(
        decisionTupleKey(r, m, t, trial),
        tupleKey([r, m, t, trial]),
      );
    }),
    { seed: 7, numRuns: 2_000 },
  );
  assert.notEqual(
    decisionTupleKey("r\u0000x", "m", "t", 0),
    decisionTupleKey("r", "x\u0000m", "t", 0),
  );
});
