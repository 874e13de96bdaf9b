import assert from "node:assert/strict";
import fc from "fast-check";
import {
  severityTemplateCsv,
  severityTemplateRows,
  type TemplateItem,
  templateItem,
} from "../../../lib/import/severity_template.ts";
import { parseSeverityMap } from "../../../lib/import/mapping.ts";
import { readCsvText } from "../../../lib/read/_csv_records.ts";
import { csvLine } from "../../../lib/read/_csv_line.ts";

const BY_TASK = { keyPath: null, metadataPaths: ["metadata"] };

/** The records of a CSV text, as lossbook's one CSV reader reads them. */
function csvRecords(text: string): string[][] {
  const out: string[][] = [];
  readCsvText(text, "template", ({ fields }) => void out.push(fields));
  return out;
}

Deno.test("severityTemplateRows() gives one row per task id in the order first seen, the epochs of a task merged, columns in the order first seen", () => {
  const items = [
    { id: "b", epoch: 1, metadata: { class: "MATCH", severity: "LOW" } },
    { id: "a", epoch: 1, metadata: { severity: "HIGH", extra: 1 } },
    { id: "b", epoch: 2, metadata: { class: "MATCH", severity: "LOW" } },
  ].map((s) =>
    templateItem({ taskId: s.id, record: s }, BY_TASK, `x.eval: ${s.id}`)
  );
  const { columns, rows } = severityTemplateRows(items);
  assert.deepEqual(columns, [
    "key",
    "severity",
    "metadata.class",
    "metadata.severity",
    "metadata.extra",
  ]);
  assert.deepEqual(rows, [
    {
      key: "b",
      tasks: 1,
      metadata: { "metadata.class": "MATCH", "metadata.severity": "LOW" },
    },
    {
      key: "a",
      tasks: 1,
      metadata: { "metadata.severity": "HIGH", "metadata.extra": 1 },
    },
  ]);
});

Deno.test("severityTemplateRows() keyed on a field: one row per distinct value, counting its task ids, keeping only what every item of it shares", () => {
  const at = { keyPath: ["metadata", "class"], metadataPaths: ["metadata"] };
  const items = [
    { class: "DUPLICATE", severity: "LOW", note: "x" },
    { class: "AMOUNT_MISMATCH", severity: "HIGH" },
    { class: "DUPLICATE", severity: "LOW", note: "y" },
    { class: "DUPLICATE", severity: "LOW" },
  ].map((metadata, i) =>
    templateItem({ taskId: String(i), record: { metadata } }, at, `s${i}`)
  );
  const { rows } = severityTemplateRows(items);
  assert.deepEqual(rows, [
    {
      key: "DUPLICATE",
      tasks: 3,
      // note differs (x, y) and one item lacks it: left out
      metadata: { "metadata.class": "DUPLICATE", "metadata.severity": "LOW" },
    },
    {
      key: "AMOUNT_MISMATCH",
      tasks: 1,
      metadata: {
        "metadata.class": "AMOUNT_MISMATCH",
        "metadata.severity": "HIGH",
      },
    },
  ]);
  const csv = severityTemplateCsv(severityTemplateRows(items));
  assert.equal(
    csv,
    "key,severity,metadata.class,metadata.severity,metadata.note\n" +
      "DUPLICATE,,DUPLICATE,LOW,\n" +
      "AMOUNT_MISMATCH,,AMOUNT_MISMATCH,HIGH,\n",
  );
});

Deno.test("templateItem() writes a path holding no object as one column, skips a missing or null one, and refuses a key a CSV map cannot hold", () => {
  const at = { keyPath: null, metadataPaths: ["vars", "testCase.metadata"] };
  assert.deepEqual(
    templateItem(
      { taskId: "0", record: { vars: "plain", testCase: { metadata: null } } },
      at,
      "r.json: result 0",
    ).metadata,
    [["vars", "plain"]],
  );
  assert.deepEqual(
    templateItem({ taskId: "0", record: {} }, at, "r.json: result 0").metadata,
    [],
  );
  assert.throws(
    () =>
      templateItem(
        { taskId: "1", record: { metadata: { class: " A" } } },
        { keyPath: ["metadata", "class"], metadataPaths: [] },
        "a.eval: sample 1 epoch 1",
      ),
    {
      name: "RangeError",
      message:
        'a.eval: sample 1 epoch 1: key " A" has surrounding spaces; lossbook does not trim them (a JSON map can hold such a key)',
    },
  );
  assert.throws(
    () =>
      templateItem(
        { taskId: "1", record: { metadata: { class: ["A"] } } },
        { keyPath: ["metadata", "class"], metadataPaths: [] },
        "a.eval: sample 1 epoch 1",
      ),
    /sample 1 epoch 1: metadata\.class must be a string or number to key the severity map, got \["A"\]/,
  );
});

Deno.test("severityTemplateCsv() writes text as it is and other values as JSON text, quoted by the CSV writer, and lossbook's CSV reader reads every cell back", () => {
  const item: TemplateItem = {
    key: 'a,"b"',
    taskId: "t",
    metadata: [
      ["doc.question", 'Line one,\r\nline "two"'],
      ["doc.choices", ["A", "B, C"]],
      ["doc.meta", { k: [1, null, true] }],
      ["doc.n", 3],
      ["doc.empty", ""],
      ["doc.none", null],
    ],
  };
  const csv = severityTemplateCsv(severityTemplateRows([item]));
  assert.deepEqual(csvRecords(csv), [
    [
      "key",
      "severity",
      "doc.question",
      "doc.choices",
      "doc.meta",
      "doc.n",
      "doc.empty",
      "doc.none",
    ],
    [
      'a,"b"',
      "",
      'Line one,\r\nline "two"',
      '["A","B, C"]',
      '{"k":[1,null,true]}',
      "3",
      "",
      "null",
    ],
  ]);
});

Deno.test("a template filled in reads back as the severity map of its keys, whatever its metadata holds (property, fixed seed)", async () => {
  const cell = fc.oneof(
    fc.string(),
    fc.string({ unit: fc.constantFrom(",", '"', "\n", "\r", " ", "a", "é") }),
    fc.jsonValue(),
  );
  const key = fc.string({ minLength: 1 }).filter((k) =>
    k.trim() === k && k !== ""
  );
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(
        fc.record({
          key,
          metadata: fc.array(fc.tuple(fc.constantFrom("m.a", "m.b"), cell), {
            maxLength: 2,
          }),
        }),
        { selector: (r) => r.key, minLength: 1, maxLength: 6 },
      ),
      fc.constantFrom("LOW", "MEDIUM", "HIGH", "CRITICAL"),
      async (items, level) => {
        const csv = severityTemplateCsv(
          severityTemplateRows(
            items.map((i) => ({ ...i, taskId: i.key })),
          ),
        );
        const records = csvRecords(csv);
        assert.equal(records.length, items.length + 1);
        // fill in the severity of every row, as a user would, and read it back
        const filled =
          records.map((r, i) =>
            csvLine(i === 0 ? r : [r[0], level, ...r.slice(2)])
          ).join("\n") + "\n";
        const map = await parseSeverityMap(filled, "filled.csv");
        assert.deepEqual(
          [...map],
          items.map((i) => [i.key, level]),
        );
      },
    ),
    { seed: 20_261_203, numRuns: 200 },
  );
});
