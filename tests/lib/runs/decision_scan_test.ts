// The byte scanner of JSONL decisions is sound: a line it reads is a line
// decisionFromLine reads, with the same fields, whatever the key order,
// whitespace, number spelling, escapes or damage; and a file read through
// it gives what the text reader gives, statistics or error.
import assert from "node:assert/strict";
import fc from "fast-check";
import { DecisionScan } from "../../../lib/runs/_decision_scan.ts";
import { decisionFromLine } from "../../../lib/runs/_jsonl_decision.ts";
import { jsonlStats, jsonlStatsFile } from "../../../lib/runs/jsonl_stats.ts";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { decision, tempFile } from "../../_helpers.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// JSON text of a string: plain, or with some characters \u-escaped
const jsonString = (s: string, escape: boolean) =>
  escape
    ? `"${
      [...s].map((c) =>
        c === '"' || c === "\\" || c < " " || /[a-z]/.test(c)
          ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`
          : c
      ).join("")
    }"`
    : JSON.stringify(s);

const idChars = fc.constantFrom(
  "a",
  "b",
  "Z",
  "0",
  "-",
  "_",
  " ",
  "é",
  "日",
  '"',
  "\\",
  "\t",
  "\u007f",
);
const id = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom("bench", "frontier", "small", "MATCH", "t-1"),
  },
  fc.array(idChars, { minLength: 0, maxLength: 4 }).map((a) => a.join("")),
);

// spellings of a number: as JSON.stringify writes it, and others that
// parse to a value (exponents, trailing zeros, long digit strings, -0)
const numberText = (v: number, damage: boolean) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(JSON.stringify(v)) },
    fc.constantFrom(
      v.toExponential(),
      v.toExponential().toUpperCase(),
      v.toFixed(20),
      v.toFixed(3),
      `${v}0`.includes(".") ? `${v}0` : `${v}.0`,
      v === 0 ? "-0" : `${v}`,
      v === 0 ? "-0.0e5" : `${v}e0`,
      ...(damage ? [String(v).replace(/^0\./, "00."), `+${v}`, `.${v}`] : []),
    ),
  );

const probability = fc.oneof(
  fc.constantFrom(0, 1, 0.5, 0.829, 1e-7, 0.30000000000000004, 1.5, -0.5, 2),
  fc.double({ min: -0.5, max: 1.5, noNaN: true }),
);
const count = fc.oneof(
  fc.constantFrom(0, 1, 7, 2 ** 53 - 1, 2 ** 53, -1, 1.5),
  fc.nat(),
);
const usd = fc.oneof(
  fc.constantFrom(0, 0.0004, 4e-5, 1e21, -1, 12.5),
  fc.double({ min: 0, max: 1e6, noNaN: true }),
);

// a value of each field, as raw JSON text, sometimes of the wrong type
function fieldValue(key: string, damage: boolean): fc.Arbitrary<string> {
  const str = (a: fc.Arbitrary<string>) =>
    fc.tuple(a, fc.nat(29)).map(([s, e]) => jsonString(s, e === 0));
  const wrong = fc.constantFrom('"0.9"', "0.9", "true", "null", "{}", "[]");
  const num = (a: fc.Arbitrary<number>) =>
    a.chain((v) => numberText(v, damage));
  const pick = (right: fc.Arbitrary<string>) =>
    damage ? fc.oneof({ weight: 20, arbitrary: right }, wrong) : right;
  const ok = (valid: string[], other: string[]) =>
    fc.constantFrom(...valid, ...(damage ? other : []));
  switch (key) {
    case "trial":
    case "tokensIn":
    case "tokensOut":
      return pick(
        num(
          damage ? count : fc.oneof(
            { weight: 9, arbitrary: fc.nat(100_000) },
            fc.constant(2 ** 53 - 1),
          ),
        ),
      );
    case "latencyMs":
      return pick(
        num(damage ? usd : fc.nat(10_000_000).map((v) => v / 1000)),
      );
    case "severity":
      return pick(str(ok([...SEVERITIES], ["low", "SEVERE"])));
    case "action":
      return pick(str(ok(["auto", "escalate"], ["manual"])));
    case "outcome":
      return pick(str(ok(["resolved", "timeout", "cancelled"], ["unknown"])));
    case "parseOk":
      return pick(fc.constantFrom("true", "false"));
    case "pCorrect":
      return pick(
        fc.oneof(
          fc.constant("null"),
          num(
            damage ? probability : fc.double({ min: 0, max: 1, noNaN: true }),
          ),
          num(fc.constantFrom(0, 1, 0.5, 0.829, 1e-7, 0.30000000000000004)),
          num(fc.double({ min: 0, max: 1, noNaN: true })),
        ),
      );
    case "pCorrectSource":
      return pick(
        fc.oneof(
          fc.constant("null"),
          str(
            ok(["stated", "agreement@5", "score-metadata:confidence"], [
              "agreement@0",
              "guess",
            ]),
          ),
        ),
      );
    case "cost": {
      const priced = fc.constantFrom("complete", "partial");
      const unpriced = fc.constantFrom("unavailable", "not_applicable");
      const amount = num(damage ? usd : fc.constantFrom(0, 4e-5, 12.5, 1e21));
      const pair = damage
        ? fc.tuple(
          fc.oneof(priced, unpriced),
          fc.oneof(fc.constant("null"), amount),
        )
        : fc.oneof(
          fc.tuple(priced, amount),
          fc.tuple(unpriced, fc.constant("null")),
        );
      const shaped = fc.tuple(
        pair,
        fc.boolean(),
        fc.constantFrom("", " ", "\t"),
      )
        .map(([[c, u], swap, w]) =>
          swap
            ? `{${w}"usd"${w}:${w}${u},"completeness":"${c}"${w}}`
            : `{"completeness":${w}"${c}",${w}"usd":${u}}`
        );
      return damage
        ? fc.oneof(
          { weight: 5, arbitrary: shaped },
          fc.constantFrom(
            '{"completeness":"complete","usd":1,"usd":2}',
            '{"completeness":"complete"}',
            '{"completeness":"complete","usd":1,"extra":0}',
            "null",
          ),
        )
        : shaped;
    }
    default:
      return pick(str(damage ? id : id.filter((v) => v !== "")));
  }
}

const REQUIRED = [
  "runId",
  "modelId",
  "taskId",
  "trial",
  "severity",
  "trueClass",
  "predClass",
  "parseOk",
  "pCorrect",
  "action",
  "cost",
  "outcome",
];
const OPTIONAL = [
  "tokensIn",
  "tokensOut",
  "latencyMs",
  "pCorrectSource",
  "answer",
  "target",
];

// one line: the required keys (sometimes one missing, repeated or
// unknown), some optional ones, shuffled, with whitespace
// one damage at most: a field's value, or the key set, or what follows
const DAMAGES = [...REQUIRED, ...OPTIONAL, "drop", "repeat", "unknown", "tail"];
const line = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 3, arbitrary: fc.constantFrom(...DAMAGES) },
).chain((damage) =>
  fc.record({
    optional: fc.subarray(OPTIONAL),
    drop: damage === "drop" ? fc.constantFrom(...REQUIRED) : fc.constant(null),
    repeat: damage === "repeat"
      ? fc.constantFrom(...REQUIRED)
      : fc.constant(null),
    unknown: damage === "unknown"
      ? fc.constantFrom("extra", "runid", "Trial")
      : fc.constant(null),
    order: fc.nat(),
    ws: fc.constantFrom("", "", "", "", " ", "\t", "\r"),
    tail: damage === "tail"
      ? fc.constantFrom(" ", ",", "}", "x", "\u000b")
      : fc.constant(""),
  }).chain((shape) => {
    let keys = [...REQUIRED, ...shape.optional].filter((k) => k !== shape.drop);
    if (shape.repeat !== null) keys.push(shape.repeat);
    if (shape.unknown !== null) keys.push(shape.unknown);
    // a rotation keeps one writer's order for most lines
    const r = shape.order % keys.length;
    keys = [...keys.slice(r), ...keys.slice(0, r)];
    return fc.tuple(...keys.map((k) => fieldValue(k, k === damage))).map(
      (values) => {
        const w = shape.ws;
        const body = keys.map((k, i) => `${w}"${k}"${w}:${w}${values[i]}`)
          .join(",");
        return `${w}{${body}${w}}${shape.tail}`;
      },
    );
  })
);

// a line as JSON.stringify writes a valid decision (most real lines)
const plainLine = fc.record({
  taskId: fc.constantFrom("t-1", "t-2", "task-3"),
  modelId: fc.constantFrom("frontier", "small"),
  trial: fc.nat(3),
  severity: fc.constantFrom(...SEVERITIES),
  trueClass: fc.constantFrom("MATCH", "AMOUNT_MISMATCH"),
  predClass: fc.constantFrom("MATCH", "AMOUNT_MISMATCH"),
  pCorrect: fc.oneof(fc.constant(null), fc.nat(1000).map((v) => v / 1000)),
  parseOk: fc.boolean(),
  action: fc.constantFrom("auto" as const, "escalate" as const),
}).map((patch) => JSON.stringify(decision(patch)));

function scannedFields(b: Uint8Array, s: DecisionScan) {
  const text = (from: number, to: number) =>
    decoder.decode(b.subarray(from, to));
  return {
    runId: text(s.runStart, s.runEnd),
    modelId: text(s.modelStart, s.modelEnd),
    taskId: text(s.taskStart, s.taskEnd),
    trial: s.trial,
    severity: SEVERITIES[s.severity],
    trueClass: text(s.trueStart, s.trueEnd),
    predClass: text(s.predStart, s.predEnd),
    parseOk: s.parseOk,
    pCorrect: s.pCorrect,
    action: s.action === 0 ? "auto" : "escalate",
  };
}

Deno.test("every line the byte scanner reads, decisionFromLine reads with the same fields, line after line (templates), for any key order, spacing, spelling or damage (property, seed 67)", () => {
  let read = 0;
  let total = 0;
  fc.assert(
    fc.property(
      fc.array(fc.oneof(line, plainLine), { maxLength: 12 }),
      (lines) => {
        const scan = new DecisionScan();
        for (const text of lines) {
          total++;
          const b = encoder.encode(text);
          if (!scan.scan(b, 0, b.length)) continue;
          read++;
          const d = decisionFromLine(text, "line");
          assert.deepEqual(scannedFields(b, scan), {
            runId: d.runId,
            modelId: d.modelId,
            taskId: d.taskId,
            trial: d.trial,
            severity: d.severity,
            trueClass: d.trueClass,
            predClass: d.predClass,
            parseOk: d.parseOk,
            pCorrect: d.pCorrect,
            action: d.action,
          }, text);
          assert.ok(Object.is(scan.trial, d.trial) || scan.trial === d.trial);
        }
      },
    ),
    { seed: 67, numRuns: 400 },
  );
  // the fast path is exercised, and the fallback too
  assert.ok(read > total / 4, `scanner read ${read} of ${total} lines`);
  assert.ok(read < total, `scanner read all ${total} lines`);
});

Deno.test("a line the scanner matches against the last line's template, in a buffer that goes on past it, reads as that line alone", () => {
  const a =
    '{"runId":"r","modelId":"m","taskId":"t1","trial":0,"severity":"LOW","trueClass":"MATCH","predClass":"MATCH","parseOk":true,"pCorrect":0.5,"action":"auto","cost":{"completeness":"complete","usd":0},"outcome":"resolved"}';
  const b = a.replace('"t1"', '"t22"').replace("0.5", "null");
  const scan = new DecisionScan();
  const first = encoder.encode(a);
  assert.equal(scan.scan(first, 0, first.length), true);
  const buf = encoder.encode(`${b}\n${a}`);
  const end = scan.matchAt(buf, 0, buf.length);
  assert.equal(end, b.length);
  assert.equal(
    decoder.decode(buf.subarray(scan.taskStart, scan.taskEnd)),
    "t22",
  );
  assert.equal(scan.pCorrect, null);
  // cut short, or with bytes of another shape, it is not matched
  assert.equal(scan.matchAt(buf, 0, b.length - 1), -1);
  const other = encoder.encode(b.replace('"trial":0', '"trial": 0'));
  assert.equal(scan.matchAt(other, 0, other.length), -1);
  assert.equal(scan.scan(other, 0, other.length), true); // the general scan reads it
});

Deno.test("a file read through the byte scanner gives the text reader's statistics or its error, at any read size (property, seed 71)", async () => {
  const path = await tempFile("scan.jsonl", "");
  const eol = fc.constantFrom("\n", "\r\n", "\n\n", "\n \n");
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(line, eol), { minLength: 1, maxLength: 8 }),
      fc.constantFrom(1, 7, 64, 1 << 16),
      async (parts, chunkSize) => {
        const text = parts.map(([l, e]) => l + e).join("");
        await Deno.writeTextFile(path, text);
        let want: unknown;
        try {
          want = jsonlStats(text, { path });
        } catch (error) {
          await assert.rejects(
            () => jsonlStatsFile(path, { chunkSize }),
            (e: Error) => {
              assert.equal(e.message, (error as Error).message);
              assert.equal(e.constructor, (error as Error).constructor);
              return true;
            },
          );
          return;
        }
        assert.deepEqual(await jsonlStatsFile(path, { chunkSize }), want);
      },
    ),
    { seed: 71, numRuns: 150 },
  );
});

Deno.test("a duplicate decision found through scanned lines names both lines", async () => {
  const a =
    '{"runId":"r","modelId":"m","taskId":"t1","trial":0,"severity":"LOW","trueClass":"MATCH","predClass":"MATCH","parseOk":true,"pCorrect":0.5,"action":"auto","cost":{"completeness":"complete","usd":0},"outcome":"resolved"}';
  const b = a.replace('"t1"', '"t2"');
  const path = await tempFile(
    "dup.jsonl",
    [a, b, b.replace("0.5", "0.6"), a].join("\n"),
  );
  await assert.rejects(() => jsonlStatsFile(path), {
    message:
      `Cannot load run export ${path}: line 3: duplicate decision for runId "r", modelId "m", taskId "t2", trial 0 (first on line 2)`,
  });
});
