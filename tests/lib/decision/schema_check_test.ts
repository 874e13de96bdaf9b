import assert from "node:assert/strict";
import {
  checkDecisionFields,
  DECISION_FIELDS,
  type DecisionField,
} from "../../../lib/decision/schema.ts";

const extra = (f: Partial<DecisionField>): DecisionField => ({
  key: "extra",
  column: "extra",
  rule: { kind: "count" },
  required: false,
  nulls: { reads: "absent" },
  doc: "A made-up field.",
  ...f,
});

Deno.test("checkDecisionFields() accepts the schema and a new optional field of any kind", () => {
  checkDecisionFields(DECISION_FIELDS);
  checkDecisionFields([...DECISION_FIELDS, extra({})]);
  checkDecisionFields([
    ...DECISION_FIELDS,
    extra({ rule: { kind: "enum", values: ["a"] }, nulls: { reads: "value" } }),
  ]);
});

Deno.test("checkDecisionFields() refuses a table the derivations would read wrongly, naming why", () => {
  const cases: [readonly DecisionField[], RegExp][] = [
    [[...DECISION_FIELDS, extra({ required: true })], /required field follows/],
    [[...DECISION_FIELDS, extra({ column: "runId" })], /a column repeats/],
    [
      [...DECISION_FIELDS, extra({ nulls: { reads: "never" } })],
      /optional field's null/,
    ],
    [
      [
        ...DECISION_FIELDS,
        extra({
          nulls: { reads: "when", column: "action", values: ["auto"] },
        }),
      ],
      /only a nested member's null/,
    ],
    [
      [...DECISION_FIELDS, extra({ key: "usage.tokens", required: true })]
        .sort((a, b) => Number(b.required) - Number(a.required)),
      /usage: needs exactly one member/,
    ],
  ];
  for (const [fields, message] of cases) {
    assert.throws(() => checkDecisionFields(fields), message);
  }
});
