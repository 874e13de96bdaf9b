import assert from "node:assert/strict";
import { repairTornTail } from "../../../lib/ledger/repair.ts";
import { verifyLedgerFile } from "../../../lib/ledger/verify.ts";
import { openLedger } from "../../../lib/ledger/writer.ts";
import { tenRecords } from "./_fixtures.ts";
import { tempDir } from "../../_helpers.ts";

async function ledgerWithTenRecords(): Promise<string> {
  const path = `${await tempDir()}/l.jsonl`;
  await using w = await openLedger(path);
  await w.append(tenRecords());
  return path;
}

Deno.test("repairTornTail() moves a torn line past the head to a side file and loses no byte", async () => {
  const path = await ledgerWithTenRecords();
  const good = await Deno.readFile(path);
  const tail = new TextEncoder().encode('{"hash":"5f2a","prev":"'); // a crash mid-append
  await Deno.writeFile(path, tail, { append: true });
  assert.equal(
    (await verifyLedgerFile(path)).unacknowledged!.bytes,
    tail.length,
  );
  const r = await repairTornTail(path);
  assert.deepEqual([r.repaired, r.records, r.tornBytes], [
    true,
    10,
    tail.length,
  ]);
  assert.equal(r.sideFile, `${path}.torn-${good.length}`);
  assert.deepEqual(await Deno.readFile(r.sideFile!), tail);
  assert.deepEqual(await Deno.readFile(path), good);
  assert.equal((await verifyLedgerFile(path)).valid, true);
  await using w = await openLedger(path); // appending works again
  assert.equal(w.head.seq, 10);
});

Deno.test("repairTornTail() leaves a valid ledger untouched", async () => {
  const path = await ledgerWithTenRecords();
  const before = await Deno.readFile(path);
  const r = await repairTornTail(path);
  assert.deepEqual([r.repaired, r.sideFile, r.records], [false, null, 10]);
  assert.deepEqual(await Deno.readFile(path), before);
});

Deno.test("repairTornTail() refuses every problem other than a torn line: edits are evidence", async () => {
  const path = await ledgerWithTenRecords();
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(
    path,
    text.replace('"id":"d5"', '"id":"d6"') + '{"ha',
  );
  await assert.rejects(
    () => repairTornTail(path),
    /Cannot repair .*record 5 \(line 5\) does not match its hash.*everything else is evidence/,
  );
  assert.equal(
    await Deno.readTextFile(path),
    text.replace('"id":"d5"', '"id":"d6"') + '{"ha',
  );
});

Deno.test("repairTornTail() refuses while a writer holds the lock, and never overwrites a side file: a second tear at the same offset goes beside it", async () => {
  const path = await ledgerWithTenRecords();
  const size = (await Deno.stat(path)).size;
  await Deno.writeTextFile(path, '{"h', { append: true });
  {
    using holder = await Deno.open(path, { read: true });
    await holder.lock(true);
    await assert.rejects(
      () => repairTornTail(path, { lockWaitMs: 100 }),
      /Cannot repair ledger .*another writer holds its lock/,
    );
  }
  // an older side file at the same offset is kept; the bytes go beside it
  await Deno.writeTextFile(`${path}.torn-${size}`, "older");
  const r = await repairTornTail(path);
  assert.equal(r.sideFile, `${path}.torn-${size}.1`);
  assert.equal(await Deno.readTextFile(`${path}.torn-${size}`), "older");
  assert.equal(await Deno.readTextFile(r.sideFile!), '{"h');
  assert.equal((await verifyLedgerFile(path)).valid, true);
});
