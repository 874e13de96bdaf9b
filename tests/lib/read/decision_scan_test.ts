// The byte scanner of JSONL decisions is sound: a line it reads is a line
// decisionFromLine reads, with the same fields, whatever the key order,
// whitespace, number spelling, escapes or damage; and a file read through
// it gives what the text reader gives, statistics or error.
import assert from "node:assert/strict";
import fc from "fast-check";
import { DecisionScan } from "../../../lib/read/_decision_scan.ts";
import { decisionFromLine } from "../../../lib/read/_jsonl_decision.ts";
import { jsonlStatsFile } from "../../../lib/read/jsonl_stats.ts";
import { jsonlStats } from "../../../lib/read/jsonl_text_stats.ts";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { tempFile } from "../../_helpers.ts";
import { line, plainLine } from "./_decision_lines.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

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
