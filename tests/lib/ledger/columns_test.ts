import assert from "node:assert/strict";
import { ledgerText } from "../../../lib/ledger/chain.ts";
import {
  ledgerColumns,
  ledgerColumnsBuilder,
} from "../../../lib/ledger/columns.ts";
import { ledgerEntriesFile } from "../../../lib/ledger/read.ts";
import { decisionRec, smallMonth } from "./_fixtures.ts";

Deno.test("ledgerColumnsBuilder() fed a streamed ledger gives the columns ledgerColumns() gives on the same entries", async () => {
  const month = smallMonth();
  const { text, entries } = ledgerText(month.records);
  const path = `${await Deno.makeTempDir({
    prefix: "lossbook-test-",
  })}/l.jsonl`;
  await Deno.writeTextFile(path, text);
  const want = ledgerColumns(entries, { path });
  assert.ok(want.answers > 0 && want.reviews.length > 0);
  for (const chunkBytes of [97, 1 << 20]) {
    const b = ledgerColumnsBuilder({ path });
    for await (const e of ledgerEntriesFile(path, { chunkBytes })) b.add(e);
    assert.deepEqual(b.finish(), want, `chunk ${chunkBytes}`);
  }
});

Deno.test("ledgerColumnsBuilder() refuses at the entry ledgerColumns() refuses, with its message, and is spent after", () => {
  const d = decisionRec("d1");
  const entries = ledgerText([d, decisionRec("d2"), { ...d }]).entries;
  let message = "";
  assert.throws(() => ledgerColumns(entries, { path: "l.jsonl" }), (e) => {
    message = (e as Error).message;
    return e instanceof RangeError;
  });
  assert.match(message, /^Cannot read ledger l\.jsonl: record 3: /);
  const b = ledgerColumnsBuilder({ path: "l.jsonl" });
  b.add(entries[0]);
  b.add(entries[1]);
  assert.throws(() => b.add(entries[2]), { name: "RangeError", message });
  assert.throws(() => b.add(entries[0]), /spent/);
  assert.throws(() => b.finish(), /spent/);
  const done = ledgerColumnsBuilder();
  assert.equal(done.finish().records, 0);
  assert.throws(() => done.finish(), /spent/);
});
