import assert from "node:assert/strict";
import fc from "fast-check";
import {
  checkDecisionsCsv,
  checkDecisionsCsvRecords,
  decisionsToCsv,
  loadDecisionsCsv,
  parseDecisionsCsv,
  readCsvHeader,
  writeDecisionsCsv,
} from "../../../lib/read/csv.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
  loadDecisionsJsonl,
} from "../../../lib/read/load_decisions.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import {
  type CsvRecord,
  csvRecordStarts,
  readCsvBytes,
  readCsvFile,
  readCsvRecordAt,
  readCsvText,
} from "../../../lib/read/_csv_records.ts";
import { decision, mixedDecisions, tempDir, tempFile } from "../../_helpers.ts";

const HEADER = DECISION_COLUMNS.join(",");

// The shared mixed decisions, with a task id that needs CSV quoting and a
// sixth row (a timeout with a float latency that only round-trips exactly).
function mixed(): Decision[] {
  return [
    ...mixedDecisions().map((d) =>
      d.taskId === "d" ? { ...d, taskId: 'd,"quoted"\nsecond line' } : d
    ),
    decision({
      taskId: "f",
      severity: "MEDIUM",
      trueClass: "PARTIAL_MATCH",
      predClass: "VALUE_DATE_MISMATCH",
      pCorrect: 1,
      outcome: "timeout",
      latencyMs: 0.1 + 0.2,
    }),
  ];
}

/** One CSV line for a decision, with some cells replaced by raw text. */
function line(d: Decision, cells: Partial<Record<string, string>> = {}) {
  const flat: Record<string, unknown> = {
    ...d,
    costCompleteness: d.cost.completeness,
    costUsd: d.cost.usd,
  };
  return DECISION_COLUMNS.map((c) =>
    cells[c] ?? (flat[c] === undefined || flat[c] === null ? "" : flat[c])
  ).join(",");
}

function csv(...lines: string[]): string {
  return [HEADER, ...lines].join("\n") + "\n";
}

function fails(text: string, expected: { name: string; message: RegExp }) {
  assert.throws(
    () => parseDecisionsCsv(text, { path: "runs/a.csv" }),
    expected,
  );
}

Deno.test("loadDecisionsCsv() round-trips a written table to the JSONL load of the same decisions", async () => {
  const ds = mixed();
  const jsonl = await tempFile(
    "a.jsonl",
    ds.map((d) => JSON.stringify(d)).join("\n"),
  );
  const path = `${await tempDir()}/a.csv`;
  await writeDecisionsCsv(path, decisionTable(ds));
  const fromCsv = await loadDecisionsCsv(path);
  const fromJsonl = await loadDecisionsJsonl(jsonl);
  assert.deepEqual(fromCsv.columnNames(), [...DECISION_COLUMNS]);
  assert.deepEqual(fromCsv.objects(), fromJsonl.objects());
  assert.deepEqual(parseDecisionsCsv(await Deno.readTextFile(path)), ds);
  assert.equal(await checkDecisionsCsv(path), ds.length);
});

Deno.test("parseDecisionsCsv() reads columns in any order, CRLF line ends and a byte-order mark", () => {
  const d = decision();
  const order = [...DECISION_COLUMNS].reverse();
  const flat = line(d).split(",");
  const reordered = order.map((c) => flat[DECISION_COLUMNS.indexOf(c)]);
  const text = "\uFEFF" + order.join(",") + "\r\n" + reordered.join(",") +
    "\r\n";
  assert.deepEqual(parseDecisionsCsv(text), [d]);
});

Deno.test("parseDecisionsCsv() reads an empty pCorrect cell as null, never as 0", () => {
  const [d] = parseDecisionsCsv(csv(line(decision(), { pCorrect: "" })));
  assert.equal(d.pCorrect, null);
  // empty optional cells are absent fields, not zeros
  assert.equal(d.tokensIn, undefined);
  assert.equal(d.latencyMs, undefined);
});

Deno.test("parseDecisionsCsv() names line and field for text in a numeric cell", () => {
  fails(
    csv(line(decision()), line(decision({ taskId: "b" }), { pCorrect: "abc" })),
    {
      name: "TypeError",
      message:
        /^Cannot load run export runs\/a\.csv: line 3: pCorrect must be number, got "abc"$/,
    },
  );
  // spreadsheet habits are refused, not coerced
  for (const text of [" 0.5", "0,5", "NaN", "Infinity", "+0.5", "50%"]) {
    fails(csv(line(decision(), { pCorrect: `"${text}"` })), {
      name: "TypeError",
      message: /line 2: pCorrect must be number/,
    });
  }
  fails(csv(line(decision(), { trial: "first" })), {
    name: "TypeError",
    message: /line 2: trial must be number, got "first"/,
  });
  fails(csv(line(decision(), { parseOk: "yes" })), {
    name: "TypeError",
    message: /line 2: parseOk must be boolean, got "yes"/,
  });
  fails(csv(line(decision(), { parseOk: "" })), {
    name: "TypeError",
    message: /line 2: parseOk must be boolean, got null/,
  });
});

Deno.test("parseDecisionsCsv() names line and field for values out of range", () => {
  fails(csv(line(decision(), { pCorrect: "1.3" })), {
    name: "RangeError",
    message:
      /^Cannot load run export runs\/a\.csv: line 2: pCorrect must be in \[0, 1\], got 1\.3$/,
  });
  fails(csv(line(decision(), { severity: "SEVERE" })), {
    name: "RangeError",
    message:
      /line 2: severity must be one of LOW, MEDIUM, HIGH, CRITICAL, got "SEVERE"/,
  });
  fails(csv(line(decision(), { action: "defer" })), {
    name: "RangeError",
    message: /line 2: action must be "auto" or "escalate"/,
  });
  fails(csv(line(decision(), { costUsd: "-1" })), {
    name: "RangeError",
    message: /line 2: costUsd must be >= 0, got -1/,
  });
  fails(csv(line(decision(), { trial: "1.5" })), {
    name: "TypeError",
    message: /line 2: trial must be/,
  });
  fails(csv(line(decision(), { runId: "" })), {
    name: "RangeError",
    message: /line 2: runId must not be empty, got ""/,
  });
});

Deno.test("parseDecisionsCsv() refuses a zero standing for an unknown cost and a missing cost where one is due", () => {
  fails(
    csv(line(decision(), { costCompleteness: "unavailable", costUsd: "0" })),
    { name: "TypeError", message: /line 2: costUsd must be null, got 0/ },
  );
  fails(csv(line(decision(), { costUsd: "" })), {
    name: "TypeError",
    message: /line 2: costUsd must be number, got null/,
  });
  fails(csv(line(decision(), { costCompleteness: "estimated" })), {
    name: "RangeError",
    message:
      /line 2: costCompleteness must be one of complete, partial, unavailable, not_applicable, got "estimated"/,
  });
});

Deno.test("parseDecisionsCsv() refuses extra, missing and repeated columns", () => {
  fails(`${HEADER},confidence\n${line(decision())},0.9\n`, {
    name: "TypeError",
    message:
      /^Cannot load run export runs\/a\.csv: line 1: header: unknown column "confidence"/,
  });
  const noUsd = DECISION_COLUMNS.filter((c) => c !== "costUsd");
  fails(`${noUsd.join(",")}\n`, {
    name: "TypeError",
    message: /line 1: header: missing column costUsd$/,
  });
  fails(`${HEADER},runId\n`, {
    name: "TypeError",
    message: /line 1: header: column "runId" repeats/,
  });
  fails("", {
    name: "SyntaxError",
    message: /runs\/a\.csv: line 1: missing header row/,
  });
  // a header alone is an empty run
  assert.deepEqual(parseDecisionsCsv(HEADER), []);
});

Deno.test("parseDecisionsCsv() names the line of a record with the wrong number of fields", () => {
  fails(csv(line(decision()), `${line(decision({ taskId: "b" }))},extra`), {
    name: "SyntaxError",
    message:
      /^Cannot load run export runs\/a\.csv: line 3: expected 20 fields, got 21$/,
  });
  fails(csv("r1,m,t9"), {
    name: "SyntaxError",
    message: /line 2: expected 20 fields, got 3/,
  });
});

Deno.test("parseDecisionsCsv() counts lines inside quoted fields and skips blank lines", () => {
  const text = csv(
    line(decision({ taskId: "a" }), { predClass: '"MULTI\nLINE\r\nCLASS"' }),
    "",
    line(decision({ taskId: "b" }), { pCorrect: "2" }),
  );
  // header 1, record 2-4, blank 5, bad record on 6
  fails(text, {
    name: "RangeError",
    message: /line 6: pCorrect must be in \[0, 1\], got 2/,
  });
});

Deno.test("parseDecisionsCsv() refuses malformed quoting with the line where it starts", () => {
  fails(
    csv(line(decision()), line(decision({ taskId: "b" }), { taskId: '"open' })),
    {
      name: "SyntaxError",
      message: /line 3: unterminated quoted field/,
    },
  );
  fails(csv(line(decision(), { taskId: 'a"b' })), {
    name: "SyntaxError",
    message: /line 2: unexpected quote inside an unquoted field/,
  });
  fails(csv(line(decision(), { taskId: '"a"b' })), {
    name: "SyntaxError",
    message: /line 2: unexpected "b" after a closing quote/,
  });
});

Deno.test("the CSV reader names malformed quoting at its line after line breaks inside quotes and blank lines, in a file read in small chunks too", async () => {
  const cases: [string, string][] = [
    [
      'a,b\n"x\r\ny",z\nc,d"e\n',
      "line 4: unexpected quote inside an unquoted field",
    ],
    [
      'a,b\n"x\r\ny",z\nc,"d"é\n',
      'line 4: unexpected "é" after a closing quote',
    ],
    ['a,b\r"x\ry",z\rc,"d" \n', 'line 4: unexpected " " after a closing quote'],
    [
      'a,b\n"x\r\ny",z\n\n\nc,"d\r\n\r\ne\n',
      "line 6: unterminated quoted field",
    ],
    ['\uFEFFa,"b""\n', "line 1: unterminated quoted field"],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => readCsvText(text, "p.csv", () => {}), {
      name: "SyntaxError",
      message: `p.csv: ${message}`,
    });
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 3, 1 << 16]) {
      const from = async function* (offset: number) {
        for (let at = offset; at < bytes.length; at += size) {
          yield bytes.slice(at, at + size);
        }
      };
      await assert.rejects(() => readCsvBytes(from, "p.csv", () => {}), {
        name: "SyntaxError",
        message: `p.csv: ${message}`,
      });
    }
  }
  // mixed line ends read as the records they end
  const got: CsvRecord[] = [];
  readCsvText("a,b\r\nc,d\re,f\n\r\ng,h", "p.csv", (r) => void got.push(r));
  assert.deepEqual(got.map((r) => [r.fields.join(","), r.line]), [
    ["a,b", 1],
    ["c,d", 2],
    ["e,f", 3],
    ["g,h", 5],
  ]);
});

Deno.test("parseDecisionsCsv() refuses a second decision for the same run, model, task and trial", () => {
  fails(
    csv(line(decision()), line(decision({ taskId: "x" })), line(decision())),
    {
      name: "RangeError",
      message:
        /line 4: duplicate decision for runId "r1", modelId "m", taskId "t1", trial 0 \(first on line 2\)/,
    },
  );
});

Deno.test("loadDecisionsCsv() and readCsvHeader() put the file path in errors", async () => {
  const path = await tempFile(
    "bad.csv",
    csv(line(decision()), line(decision({ taskId: "x" }), { pCorrect: "2" })),
  );
  await assert.rejects(() => loadDecisionsCsv(path), {
    name: "RangeError",
    message:
      `Cannot load run export ${path}: line 3: pCorrect must be in [0, 1], got 2`,
  });
  await assert.rejects(() => checkDecisionsCsv(path), {
    message: /line 3: pCorrect/,
  });
  assert.deepEqual(await readCsvHeader(path), [...DECISION_COLUMNS]);
  const empty = await tempFile("empty.csv", "\n\n");
  await assert.rejects(() => readCsvHeader(empty), {
    name: "SyntaxError",
    message: `Cannot load run export ${empty}: line 1: missing header row`,
  });
  const latin1 = `${await tempDir()}/latin1.csv`;
  await Deno.writeFile(latin1, new Uint8Array([0x61, 0xe9, 0x0a]));
  await assert.rejects(() => loadDecisionsCsv(latin1), {
    name: "SyntaxError",
    message: /not valid UTF-8/,
  });
});

Deno.test("decisionsToCsv() refuses a table without the decision columns", () => {
  assert.throws(
    () => decisionsToCsv(decisionTable([decision()]).select("runId")),
    {
      name: "TypeError",
      message: /Cannot write CSV run export: missing columns/,
    },
  );
});

Deno.test("the CSV reader gives the same records and lines however the bytes are cut into chunks (property, seed 20261130)", async () => {
  const cell = fc.string({
    unit: fc.constantFrom("a", "b", ",", '"', "\n", "\r\n", " ", "é"),
    maxLength: 6,
  });
  const records = fc.array(fc.array(cell, { minLength: 2, maxLength: 4 }), {
    minLength: 1,
    maxLength: 8,
  });
  await fc.assert(
    fc.asyncProperty(
      records,
      fc.array(fc.nat(), { maxLength: 6 }),
      async (rows, cuts) => {
        const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
        const bytes = new TextEncoder().encode(
          rows.map((r) => r.map(quote).join(",")).join("\n"),
        );
        // cut anywhere, inside a UTF-8 sequence or a CRLF too
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))]
          .sort((a, b) => a - b);
        async function* from(offset: number) {
          let at = offset;
          for (const p of [...points, bytes.length]) {
            if (p <= at) continue;
            yield bytes.slice(at, p);
            at = p;
          }
        }
        const got: CsvRecord[] = [];
        await readCsvBytes(from, "p.csv", (r) => void got.push(r));
        assert.deepEqual(got.map((r) => r.fields), rows);
        const text: CsvRecord[] = [];
        readCsvText(
          new TextDecoder().decode(bytes),
          "p.csv",
          (r) => void text.push(r),
        );
        assert.deepEqual(text, got);
        // each record starts on the line after the last one's line breaks
        let lineNo = 1;
        for (let i = 0; i < rows.length; i++) {
          assert.equal(got[i].line, lineNo);
          const breaks = rows[i].join(",").match(/\r\n|\n/g)?.length ?? 0;
          lineNo += breaks + 1;
        }
      },
    ),
    { seed: 20261130, numRuns: 300 },
  );
});

Deno.test("loadDecisionsCsv() names the line and byte of a bad UTF-8 byte, not the start of the chunk", async () => {
  const text = decisionsToCsv(
    decisionTable([
      decision(),
      decision({ taskId: "t2" }),
      decision({ taskId: "t3" }),
    ]),
  );
  const bytes = new TextEncoder().encode(text);
  const lineStarts = [0];
  bytes.forEach((b, i) => b === 0x0a && lineStarts.push(i + 1));
  const at = lineStarts[2] + 3; // a byte of line 3
  bytes[at] = 0xff;
  const path = `${await tempDir()}/bad.csv`;
  await Deno.writeFile(path, bytes);
  await assert.rejects(
    () => loadDecisionsCsv(path),
    (e: Error) =>
      e instanceof SyntaxError &&
      e.message.includes(`line 3: not valid UTF-8 at byte ${at}`),
  );
});

Deno.test("csvRecordStarts() finds each record at the reader's line, across quoted line breaks, blank lines, mixed line ends and a byte-order mark, however the file is cut into chunks (property, seed 20261203)", async () => {
  const cell = fc.string({
    unit: fc.constantFrom("a", "b", ",", '"', "\n", "\r\n", "\r", "é"),
    maxLength: 5,
  });
  const record = fc.array(cell, { minLength: 1, maxLength: 3 });
  const records = fc.array(
    fc.record({
      cells: record,
      blank: fc.nat({ max: 2 }),
      end: fc.constantFrom("\n", "\r\n", "\r"),
    }),
    { minLength: 1, maxLength: 8 },
  );
  const dir = await tempDir();
  await fc.assert(
    fc.asyncProperty(
      records,
      fc.boolean(),
      fc.integer({ min: 1, max: 9 }),
      async (rows, bom, chunkSize) => {
        // a cell is quoted when it must be, and at random when not
        const quote = (s: string, k: number) =>
          /[",\r\n]/.test(s) || s === "" || k % 2 === 0
            ? `"${s.replaceAll('"', '""')}"`
            : s;
        const text = (bom ? "\uFEFF" : "") +
          rows.map((r) =>
            r.end.repeat(r.blank) + r.cells.map(quote).join(",") + r.end
          ).join("");
        const path = `${dir}/r.csv`;
        await Deno.writeTextFile(path, text);
        const want: CsvRecord[] = [];
        await readCsvFile(path, "p.csv", (r) => void want.push(r));
        assert.deepEqual(want.map((r) => r.fields), rows.map((r) => r.cells));
        const indices = want.map((_, i) => i);
        const starts = await csvRecordStarts(path, indices, chunkSize);
        assert.deepEqual(starts.map((s) => s.line), want.map((r) => r.line));
        for (let i = 1; i < want.length; i++) {
          assert.deepEqual(
            await readCsvRecordAt(path, "p.csv", starts[i]),
            want[i],
          );
        }
        // past the last record: the starts found so far
        assert.equal(
          (await csvRecordStarts(path, [...indices, want.length])).length,
          want.length,
        );
      },
    ),
    { seed: 20261203, numRuns: 300 },
  );
});

Deno.test("checkDecisionsCsvRecords() throws the loader's error for records found by number, and returns when they are not the records given", async () => {
  const bad = decision({ taskId: "c", pCorrect: 0.5 });
  const text = csv(
    line(decision({ taskId: "a" }), { predClass: '"MULTI\nLINE\r\nCLASS"' }),
    "",
    line(decision({ taskId: "b" })),
    line(bad, { pCorrect: "1.5" }),
    line(decision({ taskId: "b" })),
  );
  const path = `${await tempDir()}/r.csv`;
  await Deno.writeTextFile(path, text);
  const header = [...DECISION_COLUMNS];
  const cellsOf = (l: string) => l.split(",").map((c) => c === "" ? null : c);
  const badCells = cellsOf(line(bad, { pCorrect: "1.5" }));
  const loader = await loadDecisionsCsv(path).catch((e: Error) => e);
  assert.ok(loader instanceof RangeError);
  // header 1, record 2-4, blank 5, records on 6, 7 and 8
  assert.match(
    loader.message,
    /: line 7: pCorrect must be in \[0, 1\], got 1\.5$/,
  );
  await assert.rejects(
    () =>
      checkDecisionsCsvRecords(path, header, [{ index: 3, cells: badCells }]),
    { name: loader.name, message: loader.message },
  );
  // a repeat, named with its first copy, as the loader names it
  await assert.rejects(
    () => checkDecisionsCsvRecords(path, header, [{ index: 2 }, { index: 4 }]),
    {
      name: "RangeError",
      message:
        `Cannot load run export ${path}: line 8: duplicate decision for runId "r1", modelId "m", taskId "b", trial 0 (first on line 6)`,
    },
  );
  // not the cells given, past the end, or a record that passes: no error
  assert.equal(
    await checkDecisionsCsvRecords(path, header, [{
      index: 2,
      cells: badCells,
    }]),
    false,
  );
  assert.equal(
    await checkDecisionsCsvRecords(path, header, [{ index: 5 }]),
    false,
  );
  assert.equal(
    await checkDecisionsCsvRecords(path, header, [{ index: 1 }]),
    true,
  );
});
