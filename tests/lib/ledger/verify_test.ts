import assert from "node:assert/strict";
import fc from "fast-check";
import { ledgerText } from "../../../lib/ledger/chain.ts";
import { entryLine, LEDGER_GENESIS } from "../../../lib/ledger/chain.ts";
import { verifyLedger, verifyLedgerFile } from "../../../lib/ledger/verify.ts";
import { openLedger } from "../../../lib/ledger/writer.ts";
import {
  decisionRec,
  FC,
  joinLines,
  ledgerBytes,
  tenRecords,
} from "./_fixtures.ts";
import { tempDir } from "../../_helpers.ts";

const enc = new TextEncoder();

Deno.test("verifyLedger() accepts an untouched ledger and reports its head", () => {
  const { bytes, head } = ledgerBytes(tenRecords());
  const v = verifyLedger(bytes);
  assert.deepEqual(
    [v.valid, v.records, v.head, v.firstBadSeq, v.problem, v.reason],
    [true, 10, head.hash, null, null, null],
  );
  assert.equal(v.goodBytes, bytes.length);
  const empty = verifyLedger(new Uint8Array(0));
  assert.deepEqual([empty.valid, empty.records, empty.head], [
    true,
    0,
    LEDGER_GENESIS,
  ]);
});

Deno.test("verifyLedger() names the record whose field was edited", () => {
  const { lines } = ledgerBytes(tenRecords());
  lines[6] = lines[6].replace(
    '"predClass":"AMOUNT_MISMATCH"',
    '"predClass":"MATCH"',
  );
  const v = verifyLedger(joinLines(lines), { path: "month.jsonl" });
  assert.deepEqual([v.valid, v.firstBadSeq, v.problem, v.records], [
    false,
    7,
    "edited",
    6,
  ]);
  assert.match(
    v.reason!,
    /^month\.jsonl: record 7 \(line 7\) does not match its hash: the line was edited/,
  );
});

Deno.test("verifyLedger() names the first missing record of a deleted line", () => {
  const { lines } = ledgerBytes(tenRecords());
  lines.splice(3, 1); // record 4
  const v = verifyLedger(joinLines(lines));
  assert.deepEqual([v.firstBadSeq, v.problem, v.records], [4, "deleted", 3]);
  assert.match(v.reason!, /record 4 is missing: line 4 holds record 5/);
  const two = ledgerBytes(tenRecords()).lines;
  two.splice(3, 2);
  assert.match(
    verifyLedger(joinLines(two)).reason!,
    /records 4 to 5 are missing/,
  );
});

Deno.test("verifyLedger() names the first record out of place when lines are reordered", () => {
  const { lines } = ledgerBytes(tenRecords());
  [lines[4], lines[5]] = [lines[5], lines[4]]; // records 5 and 6 swapped
  const v = verifyLedger(joinLines(lines));
  assert.deepEqual([v.firstBadSeq, v.problem, v.records], [5, "reordered", 4]);
  assert.match(v.reason!, /record 5 is out of place: line 5 holds record 6/);
  // moving a record to the end reads the same way
  const moved = ledgerBytes(tenRecords()).lines;
  moved.push(...moved.splice(2, 1));
  assert.deepEqual(
    [
      verifyLedger(joinLines(moved)).firstBadSeq,
      verifyLedger(joinLines(moved)).problem,
    ],
    [3, "reordered"],
  );
});

Deno.test("verifyLedger() names a duplicated line", () => {
  const { lines } = ledgerBytes(tenRecords());
  lines.splice(5, 0, lines[4]);
  const v = verifyLedger(joinLines(lines));
  assert.deepEqual([v.firstBadSeq, v.problem], [6, "duplicated"]);
});

Deno.test("verifyLedgerFile() names the first missing record of a truncated file, against the head file", async () => {
  const path = `${await tempDir()}/l.jsonl`;
  {
    await using w = await openLedger(path);
    await w.append(tenRecords());
  }
  const lines = (await Deno.readTextFile(path)).split("\n").slice(0, 7);
  await Deno.writeTextFile(path, lines.join("\n") + "\n"); // cut on a line boundary
  // on its own the shorter chain is consistent; the head file shows the loss
  assert.equal(verifyLedger(await Deno.readFile(path)).valid, true);
  const v = await verifyLedgerFile(path);
  assert.deepEqual([v.valid, v.firstBadSeq, v.problem, v.records], [
    false,
    8,
    "truncated",
    7,
  ]);
  assert.match(v.reason!, /truncated: its head file records record 10/);
  // cut in the middle of a line, it is still a truncation, not a crash
  await Deno.writeTextFile(
    path,
    lines.join("\n") + "\n" + lines[0].slice(0, 40),
  );
  assert.equal((await verifyLedgerFile(path)).problem, "truncated");
});

Deno.test("verifyLedger() names a torn last line and where a repair would cut", () => {
  const { bytes, lines } = ledgerBytes(tenRecords());
  const torn = bytes.subarray(0, bytes.length - 30);
  const v = verifyLedger(torn);
  assert.deepEqual([v.valid, v.firstBadSeq, v.problem, v.records], [
    false,
    10,
    "torn",
    9,
  ]);
  assert.equal(
    v.goodBytes,
    enc.encode(lines.slice(0, 9).join("\n") + "\n").length,
  );
  assert.match(
    v.reason!,
    /record 10 is torn: the file ends with \d+ bytes that are not a complete line/,
  );
  // a complete last line without its newline is torn too: the writer always ends with one
  assert.equal(verifyLedger(joinLines(lines, "")).problem, "torn");
});

Deno.test("verifyLedger() names the rewritten record when its hash was recomputed", () => {
  const { lines } = ledgerBytes(tenRecords());
  // rewrite record 4 and re-chain that one line correctly
  const l3 = JSON.parse(lines[2]);
  const forged = entryLine(
    decisionRec("forged", { task: "t4" }),
    { seq: 3, hash: l3.hash },
  );
  lines[3] = forged.line.trimEnd();
  const v = verifyLedger(joinLines(lines));
  assert.deepEqual([v.firstBadSeq, v.problem, v.records], [4, "edited", 3]);
  assert.match(v.reason!, /record 5 \(line 5\) does not chain to record 4/);
});

Deno.test("verifyLedger() against an anchor catches a chain rewritten from the start", () => {
  const { head } = ledgerBytes(tenRecords());
  const records = tenRecords();
  records[0] = decisionRec("forged");
  const forged = ledgerText(records);
  const v = verifyLedger(enc.encode(forged.text), { anchor: head });
  assert.deepEqual([v.valid, v.firstBadSeq, v.problem], [false, 10, "edited"]);
  assert.equal(verifyLedger(enc.encode(forged.text)).valid, true);
});

Deno.test("verifyLedger() on any one-byte edit names the record of the line that holds the byte", () => {
  const { bytes } = ledgerBytes(tenRecords().slice(0, 4));
  const lineOf = new Int32Array(bytes.length);
  for (let i = 0, k = 1; i < bytes.length; i++) {
    lineOf[i] = k;
    if (bytes[i] === 10) k++;
  }
  fc.assert(
    fc.property(
      fc.nat({ max: bytes.length - 1 }),
      fc.integer({ min: 1, max: 255 }),
      (at, delta) => {
        const copy = bytes.slice();
        copy[at] = (copy[at] + delta) % 256;
        const v = verifyLedger(copy);
        assert.equal(v.valid, false);
        assert.equal(v.firstBadSeq, lineOf[at], `byte ${at}: ${v.reason}`);
      },
    ),
    { ...FC, numRuns: 300 },
  );
});

Deno.test("verifyLedgerFile() streams in small chunks to the same verdict as verifyLedger()", async () => {
  const dir = await tempDir();
  const { lines } = ledgerBytes(tenRecords());
  const variants: Uint8Array[] = [
    joinLines(lines),
    joinLines(lines.filter((_, i) => i !== 2)),
    joinLines([lines[0], lines[2], lines[1], ...lines.slice(3)]),
    joinLines(lines).subarray(0, 1000),
  ];
  for (const [i, bytes] of variants.entries()) {
    const path = `${dir}/v${i}.jsonl`;
    await Deno.writeFile(path, bytes);
    for (const chunkBytes of [7, 64, 1 << 20]) {
      const streamed = await verifyLedgerFile(path, {
        chunkBytes,
        anchor: null,
      });
      const whole = verifyLedger(bytes, { path });
      assert.deepEqual(
        { ...streamed, bytes: 0 },
        { ...whole, bytes: 0 },
        `variant ${i}, chunks of ${chunkBytes}`,
      );
    }
  }
});
