import assert from "node:assert/strict";
import {
  checkCsvMapKey,
  countPCorrectSources,
  parsePCorrectFrom,
  parseSeverityMap,
  parseSeverityMapKey,
  pickPCorrect,
  SEVERITY_REQUIRED,
  severityLevel,
  severityMapKey,
  severityResolver,
  severitySpec,
} from "../../../lib/import/mapping.ts";
import { isPCorrectSource } from "../../../lib/decision/pcorrect_source.ts";

const files: Record<string, string> = {
  "map.csv": "key,severity\n1,HIGH\n2,LOW\n",
  "map.json": '{"AMOUNT_MISMATCH": "HIGH", "DUPLICATE": "LOW"}',
};
const read = (p: string) => Promise.resolve(files[p]);

Deno.test("severitySpec() requires exactly one of --severity, --severity-map and --severity-field, and says so", async () => {
  await assert.rejects(() => severitySpec({}), {
    name: "TypeError",
    message: SEVERITY_REQUIRED,
  });
  await assert.rejects(
    () => severitySpec({ severity: "HIGH", severityField: "metadata.s" }),
    /exactly one of .*; got --severity and --severity-field/,
  );
  await assert.rejects(
    () => severitySpec({ severity: "HIGH", severityMapKey: "field:x" }),
    /--severity-map-key applies to --severity-map only/,
  );
  await assert.rejects(
    () =>
      severitySpec(
        { severityMap: "map.csv", severityMapKey: "metadata.x" },
        read,
      ),
    /must be field:PATH/,
  );
  await assert.rejects(
    () => severitySpec({ severity: "SEVERE" }),
    /--severity: severity must be one of LOW/,
  );
});

Deno.test("a severity map keyed by task id refuses an item it does not cover, naming it", async () => {
  const of = severityResolver(
    await severitySpec({ severityMap: "map.csv" }, read),
  );
  assert.equal(
    of({ taskId: "1", record: {} }, "a.eval: sample 1 epoch 1"),
    "HIGH",
  );
  assert.throws(
    () => of({ taskId: "3", record: {} }, "a.eval: sample 3 epoch 1"),
    {
      name: "RangeError",
      message:
        'a.eval: sample 3 epoch 1: severity map map.csv does not cover task id "3"',
    },
  );
});

Deno.test("--severity-map-key field:PATH keys a JSON map on a metadata value", async () => {
  const of = severityResolver(
    await severitySpec(
      { severityMap: "map.json", severityMapKey: "field:metadata.class" },
      read,
    ),
  );
  const rec = (cls: unknown) => ({
    taskId: "9",
    record: { metadata: { class: cls } },
  });
  assert.equal(of(rec("DUPLICATE"), "x"), "LOW");
  assert.throws(
    () => of(rec("MATCH"), "x: sample 9"),
    /does not cover metadata\.class "MATCH"/,
  );
  assert.throws(
    () => of({ taskId: "9", record: {} }, "x: sample 9"),
    /metadata\.class must be a string or number .* got nothing/,
  );
});

Deno.test("--severity-field reads the severity from the item and refuses a missing or unknown one", async () => {
  const of = severityResolver(
    await severitySpec({ severityField: "metadata.severity" }),
  );
  assert.equal(
    of({ taskId: "1", record: { metadata: { severity: "CRITICAL" } } }, "x"),
    "CRITICAL",
  );
  assert.throws(
    () =>
      of({ taskId: "1", record: { metadata: {} } }, "a.json: sample 1 epoch 2"),
    /a\.json: sample 1 epoch 2: metadata\.severity is missing/,
  );
  assert.throws(
    () => of({ taskId: "1", record: { metadata: { severity: "huge" } } }, "x"),
    /metadata\.severity: severity must be one of/,
  );
});

Deno.test("parseSeverityMap() refuses a bad header, a repeated key, an unknown severity and a JSON non-object", async () => {
  await assert.rejects(
    () => parseSeverityMap("id,severity\n", "m.csv"),
    /line 1: header must start with "key,severity" \(any columns after them are ignored\), got "id,severity"/,
  );
  await assert.rejects(
    () => parseSeverityMap("key,severity\na,LOW\na,HIGH\n", "m.csv"),
    /line 3: key "a" repeats line 2/,
  );
  await assert.rejects(
    () => parseSeverityMap("key,severity\na,LOW,x\n", "m.csv"),
    /line 2: expected 2 fields/,
  );
  await assert.rejects(
    () => parseSeverityMap('["a"]', "m.json"),
    /expected a JSON object/,
  );
  await assert.rejects(
    () => parseSeverityMap('{"a": "MILD"}', "m.json"),
    /key "a": severity must be one of/,
  );
  assert.equal(
    (await parseSeverityMap("\uFEFFkey,severity\r\na,LOW\r\n\r\n", "m.csv"))
      .get("a"),
    "LOW",
  );
});

Deno.test("a CSV severity map is read as CSV: a quoted key holds a comma or a quote, a blank line of spaces is skipped, malformed quoting names its line", async () => {
  const map = await parseSeverityMap(
    'key,severity\r\n"a,b",HIGH\n  \n"say ""no""",LOW\n',
    "m.csv",
  );
  assert.deepEqual([...map], [["a,b", "HIGH"], ['say "no"', "LOW"]]);
  await assert.rejects(
    () => parseSeverityMap('key,severity\na,LOW\nb"c,HIGH\n', "m.csv"),
    {
      name: "SyntaxError",
      message:
        "Cannot read severity map m.csv: line 3: unexpected quote inside an unquoted field",
    },
  );
  await assert.rejects(
    () => parseSeverityMap('key,severity\n"a\nb,LOW\n', "m.csv"),
    {
      name: "SyntaxError",
      message:
        "Cannot read severity map m.csv: line 2: unterminated quoted field",
    },
  );
  await assert.rejects(() => parseSeverityMap("", "m.csv"), {
    name: "SyntaxError",
    message:
      'Cannot read severity map m.csv: line 1: header must start with "key,severity" (any columns after them are ignored), got ""',
  });
});

Deno.test("isPCorrectSource() accepts exactly the documented vocabulary", () => {
  for (
    const ok of [
      "stated",
      "logprob-option",
      "logprob-token",
      "agreement@1",
      "agreement@12",
      "score-metadata:p",
    ]
  ) {
    assert.equal(isPCorrectSource(ok), true, ok);
  }
  for (
    const bad of [
      "",
      "agreement",
      "agreement@0",
      "agreement@07",
      "score-metadata:",
      "Stated",
      null,
      3,
    ]
  ) {
    assert.equal(isPCorrectSource(bad), false, String(bad));
  }
  assert.equal(parsePCorrectFrom("none"), "none");
  assert.throws(
    () => parsePCorrectFrom("agreement@x"),
    /--pcorrect-from must be one of/,
  );
});

Deno.test("pickPCorrect() takes the first available source in default order, or only the one asked for", () => {
  const offered = [
    { source: "agreement@3" as const, value: null },
    { source: "logprob-token" as const, value: 0.4 },
    { source: "score-metadata:conf" as const, value: 0.9 },
  ];
  assert.deepEqual(pickPCorrect(offered), {
    value: 0.4,
    source: "logprob-token",
  });
  assert.deepEqual(pickPCorrect(offered, "score-metadata:conf"), {
    value: 0.9,
    source: "score-metadata:conf",
  });
  assert.deepEqual(pickPCorrect(offered, "stated"), {
    value: null,
    source: null,
  });
  assert.deepEqual(pickPCorrect([]), { value: null, source: null });
  assert.throws(
    () => pickPCorrect([{ source: "stated", value: 1.2 }]),
    /pCorrect from stated must be in \[0, 1\], got 1\.2/,
  );
  assert.throws(
    () => pickPCorrect([{ source: "stated", value: NaN }]),
    /got NaN/,
  );
  assert.deepEqual(countPCorrectSources([{ pCorrectSource: "stated" }, {}]), {
    stated: 1,
    null: 1,
  });
});

Deno.test("a JSON severity map with a repeated key is refused, not resolved to the last", async () => {
  await assert.rejects(
    () => parseSeverityMap('{"a": "LOW", "a": "CRITICAL"}', "m.json"),
    /duplicate key \$\.a/,
  );
});

Deno.test("the flag, a CSV map, a JSON map and --severity-field read a severity in any letter case", async () => {
  const flag = await severitySpec({ severity: "high" });
  assert.deepEqual(flag, { kind: "level", level: "HIGH" });
  const csv = await parseSeverityMap(
    'key,severity\n1,high\n"2","Critical"\n',
    "m.csv",
  );
  assert.deepEqual([...csv], [["1", "HIGH"], ["2", "CRITICAL"]]);
  const json = await parseSeverityMap('{"1": "low"}', "m.json");
  assert.equal(json.get("1"), "LOW");
  const of = severityResolver(
    await severitySpec({ severityField: "metadata.severity" }),
  );
  assert.equal(
    of({ taskId: "1", record: { metadata: { severity: "medium" } } }, "x"),
    "MEDIUM",
  );
});

Deno.test("surrounding spaces around a severity or a key are refused, naming the line, never trimmed", async () => {
  await assert.rejects(
    () => parseSeverityMap("key,severity\n1,HIGH\n2, HIGH\n", "m.csv"),
    {
      name: "RangeError",
      message:
        'Cannot read severity map m.csv: line 3: severity " HIGH" has surrounding spaces; write it without them',
    },
  );
  await assert.rejects(
    () => parseSeverityMap('key,severity\n"2 ",LOW\n', "m.csv"),
    /line 2: key "2 " has surrounding spaces/,
  );
  await assert.rejects(
    () => parseSeverityMap('{"1": "LOW "}', "m.json"),
    /key "1": severity "LOW " has surrounding spaces/,
  );
  await assert.rejects(
    () => severitySpec({ severity: " HIGH" }),
    /--severity: severity " HIGH" has surrounding spaces/,
  );
  const of = severityResolver(
    await severitySpec({ severityField: "metadata.severity" }),
  );
  assert.throws(
    () =>
      of(
        { taskId: "1", record: { metadata: { severity: "LOW\t" } } },
        "a.eval: sample 1 epoch 1",
      ),
    /a\.eval: sample 1 epoch 1: metadata\.severity: severity "LOW\\t" has surrounding spaces/,
  );
  assert.equal(severityLevel("critical", "x"), "CRITICAL");
});

Deno.test("a CSV severity map ignores the columns after key,severity, whatever they hold: quotes, commas, line breaks, JSON, spaces, empty cells", async () => {
  const text = [
    "key,severity,metadata.class,doc.choices,note, spaced header ,",
    '1,HIGH,AMOUNT_MISMATCH,"[""MATCH"",""AMOUNT_MISMATCH""]","says ""no"", twice",  x  ,',
    '"a,b",low,"line one',
    'line two",{},"",,',
    '2,MEDIUM,,"{""nested"": {""k"": [1, 2]}}",key,severity,HUGE',
    "",
  ].join("\n");
  const map = await parseSeverityMap(text, "m.csv");
  assert.deepEqual([...map], [["1", "HIGH"], ["a,b", "LOW"], ["2", "MEDIUM"]]);
  // the same map without the other columns reads the same
  assert.deepEqual(
    [
      ...await parseSeverityMap(
        'key,severity\n1,HIGH\n"a,b",low\n2,MEDIUM\n',
        "m.csv",
      ),
    ],
    [...map],
  );
});

Deno.test("a CSV severity map's rows have as many fields as its header, and the header must start with key,severity", async () => {
  await assert.rejects(
    () => parseSeverityMap("key,severity,class\n1,HIGH\n", "m.csv"),
    {
      name: "SyntaxError",
      message:
        "Cannot read severity map m.csv: line 2: expected 3 fields (as many as the header), got 2",
    },
  );
  await assert.rejects(
    () => parseSeverityMap("key,severity,class\n1,HIGH,A,B\n", "m.csv"),
    /line 2: expected 3 fields \(as many as the header\), got 4/,
  );
  for (const header of ["class,key,severity", "severity,key,class", "key"]) {
    await assert.rejects(
      () => parseSeverityMap(`${header}\n`, "m.csv"),
      /line 1: header must start with "key,severity"/,
      header,
    );
  }
});

Deno.test("a CSV severity map row whose severity is still empty is refused, naming its file, line and key", async () => {
  await assert.rejects(
    () =>
      parseSeverityMap(
        'key,severity,metadata.class\n1,HIGH,A\n"2",,"B, C"\n',
        "maps/template.csv",
      ),
    {
      name: "RangeError",
      message:
        'Cannot read severity map maps/template.csv: line 3: the severity of key "2" is empty; fill it in with one of LOW, MEDIUM, HIGH, CRITICAL',
    },
  );
  // a quoted empty severity is empty too
  await assert.rejects(
    () => parseSeverityMap('key,severity\n1,""\n', "m.csv"),
    /line 2: the severity of key "1" is empty/,
  );
  // the line counts the lines a quoted cell before it spans
  await assert.rejects(
    () => parseSeverityMap('key,severity,note\n1,LOW,"a\nb"\n2,,c\n', "m.csv"),
    /line 4: the severity of key "2" is empty/,
  );
});

Deno.test("surrounding spaces are refused in key and severity only, with other columns present", async () => {
  await assert.rejects(
    () => parseSeverityMap("key,severity,class\n1, HIGH,A\n", "m.csv"),
    /line 2: severity " HIGH" has surrounding spaces/,
  );
  await assert.rejects(
    () => parseSeverityMap("key,severity,class\n 1,HIGH,A\n", "m.csv"),
    /line 2: key " 1" has surrounding spaces/,
  );
  const map = await parseSeverityMap(
    "key,severity,class\n1,HIGH, A \n",
    "m.csv",
  );
  assert.deepEqual([...map], [["1", "HIGH"]]);
});

Deno.test("severityMapKey() is the one keying rule of the map's resolver: a task id, or a field's string or number as text", () => {
  const item = {
    taskId: "7",
    record: { metadata: { class: "X", n: 2, o: {} } },
  };
  const path = parseSeverityMapKey("field:metadata.n");
  assert.equal(severityMapKey(item, null, "w"), "7");
  assert.equal(severityMapKey(item, path, "w"), "2");
  assert.throws(
    () =>
      severityMapKey(
        item,
        parseSeverityMapKey("field:metadata.o"),
        "a.eval: sample 7",
      ),
    /a\.eval: sample 7: metadata\.o must be a string or number to key the severity map, got \{\}/,
  );
  const byMap = severityResolver({
    kind: "map",
    file: "m.csv",
    map: new Map([["2", "LOW"]]),
    keyPath: path,
  });
  assert.equal(byMap(item, "w"), "LOW");
  assert.throws(
    () =>
      byMap(
        { taskId: "8", record: { metadata: { n: 3 } } },
        "a.eval: sample 8",
      ),
    /a\.eval: sample 8: severity map m\.csv does not cover metadata\.n "3"/,
  );
  assert.throws(() => parseSeverityMapKey("class"), /must be field:PATH/);
  assert.throws(() => checkCsvMapKey("", "w"), /w: key must not be empty/);
});
