import assert from "node:assert/strict";
import fc from "fast-check";
import { lockFilePath } from "../../../lib/ledger/_lock.ts";
import {
  headFilePath,
  readHeadFile,
  verifyLedgerFile,
} from "../../../lib/ledger/verify.ts";
import { openLedger } from "../../../lib/ledger/writer.ts";
import { decisionRec, FC, tenRecords } from "./_fixtures.ts";

async function tempLedger(): Promise<string> {
  return `${await Deno.makeTempDir({ prefix: "lossbook-ledger-" })}/l.jsonl`;
}

Deno.test("openLedger() holds a single-writer lock: a second writer gets a clear error until the first closes", async () => {
  const path = await tempLedger();
  const first = await openLedger(path);
  await assert.rejects(
    () => openLedger(path),
    (e: Error) =>
      e instanceof Deno.errors.AlreadyExists &&
      e.message.includes(
        `another writer holds its lock ${lockFilePath(path)}`,
      ) &&
      e.message.includes(`"pid":${Deno.pid}`),
  );
  await first.close();
  await first.close(); // twice is harmless
  await using second = await openLedger(path);
  assert.equal(second.head.seq, 0);
});

Deno.test("openLedger() locks out a writer in another process", async () => {
  const path = await tempLedger();
  await using _w = await openLedger(path);
  const code = `
    import { openLedger } from "${
    new URL("../../../lib/ledger/writer.ts", import.meta.url).href
  }";
    try { await openLedger(${JSON.stringify(path)}); console.log("opened"); }
    catch (e) { console.log(e.constructor.name + ": " + e.message); }`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--config",
      new URL("../../../deno.json", import.meta.url).pathname,
      code,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.match(
    text,
    /^AlreadyExists: Cannot append to ledger .* another writer holds its lock/,
  );
});

Deno.test("LedgerWriter.append() writes, then fsyncs, then records the head, before it resolves", async () => {
  const path = await tempLedger();
  const calls: string[] = [];
  const proto = Deno.FsFile.prototype;
  const { sync, write } = proto;
  proto.sync = function () {
    calls.push("sync");
    return sync.call(this);
  };
  proto.write = function (p: Uint8Array) {
    calls.push("write");
    return write.call(this, p);
  };
  try {
    await using w = await openLedger(path);
    calls.length = 0;
    const r = await w.append(tenRecords().slice(0, 3));
    assert.deepEqual(calls.slice(0, 2), ["write", "sync"]);
    assert.deepEqual([r.first, r.last], [1, 3]);
    assert.deepEqual(await readHeadFile(path), r.head);
  } finally {
    proto.sync = sync;
    proto.write = write;
  }
});

Deno.test("LedgerWriter.append() never rewrites a past line: each file is a prefix of the next", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 6 }),
      async (batches) => {
        const path = await tempLedger();
        let before = new Uint8Array(0);
        let n = 0;
        for (const size of batches) {
          // reopen between batches, as separate processes would
          await using w = await openLedger(path);
          await w.append(
            Array.from({ length: size }, () => decisionRec(`d${++n}`)),
          );
          const after = await Deno.readFile(path);
          assert.deepEqual(after.subarray(0, before.length), before);
          before = after;
        }
        const v = await verifyLedgerFile(path);
        assert.deepEqual([v.valid, v.records], [true, n]);
      },
    ),
    { ...FC, numRuns: 15 },
  );
});

Deno.test("openLedger() refuses to append to an edited ledger and releases its lock", async () => {
  const path = await tempLedger();
  {
    await using w = await openLedger(path);
    await w.append(tenRecords());
  }
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, text.replace('"id":"d3"', '"id":"d8"'));
  await assert.rejects(
    () => openLedger(path),
    /Cannot append to .*l\.jsonl: record 3 \(line 3\) does not match its hash.*nothing was written/,
  );
  await assert.rejects(
    () => Deno.stat(lockFilePath(path)),
    Deno.errors.NotFound,
  );
});

Deno.test("LedgerWriter refuses appends after close", async () => {
  const path = await tempLedger();
  const w = await openLedger(path);
  await w.close();
  await assert.rejects(() => w.append(tenRecords()), /writer is closed/);
  assert.equal(await Deno.readTextFile(path), "");
  await assert.rejects(
    () => Deno.stat(headFilePath(path)),
    Deno.errors.NotFound,
  );
});
