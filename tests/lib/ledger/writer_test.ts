import assert from "node:assert/strict";
import fc from "fast-check";
import {
  headFilePath,
  readHeadFile,
  verifyLedgerFile,
} from "../../../lib/ledger/verify.ts";
import { openLedger } from "../../../lib/ledger/writer.ts";
import { decisionRec, FC, tenRecords } from "./_fixtures.ts";
import { tempDir } from "../../_helpers.ts";

async function tempLedger(): Promise<string> {
  return `${await tempDir("lossbook-ledger-")}/l.jsonl`;
}

Deno.test("openLedger() holds a single-writer lock: a second writer waits its bound, then gets an error naming the ledger", async () => {
  const path = await tempLedger();
  const first = await openLedger(path);
  const started = Date.now();
  await assert.rejects(
    () => openLedger(path, { lockWaitMs: 300 }),
    (e: Error) =>
      e instanceof Deno.errors.Busy &&
      e.message.includes(`Cannot append to ledger ${path}`) &&
      e.message.includes("another writer holds its lock"),
  );
  assert.ok(Date.now() - started >= 300);
  await first.close();
  await first.close(); // twice is harmless
  await using second = await openLedger(path);
  assert.equal(second.head.seq, 0);
});

Deno.test("openLedger() locks the file, not the path: a writer through a symlink waits, and both share one head file", async () => {
  const path = await tempLedger();
  const alias = `${path}.alias.jsonl`;
  await Deno.writeTextFile(path, "");
  await Deno.symlink(path, alias);
  const first = await openLedger(path);
  await assert.rejects(
    () => openLedger(alias, { lockWaitMs: 100 }),
    Deno.errors.Busy,
  );
  await first.append(tenRecords().slice(0, 2));
  await first.close();
  {
    await using w = await openLedger(alias);
    assert.equal(w.head.seq, 2);
    await w.append(tenRecords().slice(2, 3));
  }
  await assert.rejects(
    () => Deno.stat(headFilePath(alias)),
    Deno.errors.NotFound,
  );
  assert.equal((await readHeadFile(path))!.seq, 3);
  assert.equal((await readHeadFile(alias))!.seq, 3);
});

Deno.test("openLedger() waits for a writer that finishes within the bound", async () => {
  const path = await tempLedger();
  const first = await openLedger(path);
  setTimeout(() => first.close(), 150);
  await using second = await openLedger(path, { lockWaitMs: 5000 });
  assert.equal(second.head.seq, 0);
});

Deno.test("openLedger() removes a lock file left by an earlier version, with a notice", async () => {
  const path = await tempLedger();
  await Deno.writeTextFile(`${path}.lock`, '{"pid":1,"purpose":"append to"}\n');
  await using w = await openLedger(path);
  assert.equal(w.notices.length, 1);
  assert.match(
    w.notices[0],
    /removed the lock file .*l\.jsonl\.lock left by an earlier version/,
  );
  await assert.rejects(() => Deno.stat(`${path}.lock`), Deno.errors.NotFound);
});

Deno.test("openLedger() refuses an unanchored ledger with records unless adopted, and records the adoption", async () => {
  const path = await tempLedger();
  {
    await using w = await openLedger(path);
    await w.append(tenRecords().slice(0, 4));
  }
  await Deno.remove(headFilePath(path));
  await assert.rejects(
    () => openLedger(path),
    /it has 4 records but no head file .*--adopt/,
  );
  {
    await using w = await openLedger(path, { adoptAt: "2026-03-01T09:00:00Z" });
    assert.deepEqual(w.head.adopted, {
      at: "2026-03-01T09:00:00Z",
      seq: 4,
      hash: w.head.hash,
    });
    await w.append(tenRecords().slice(4, 5));
  }
  const head = await readHeadFile(path);
  assert.equal(head!.seq, 5);
  assert.equal(head!.adopted!.seq, 4);
  assert.equal((await verifyLedgerFile(path)).valid, true);
});

Deno.test("openLedger() sets aside complete records its head file never acknowledged, says so, and appends after the head", async () => {
  const path = await tempLedger();
  {
    await using w = await openLedger(path);
    await w.append(tenRecords().slice(0, 2));
  }
  const acknowledged = await Deno.readFile(path);
  const behind = await Deno.readTextFile(headFilePath(path));
  {
    await using w = await openLedger(path);
    await w.append(tenRecords().slice(2, 4));
  }
  const whole = await Deno.readFile(path);
  await Deno.writeTextFile(headFilePath(path), behind); // a writer died before its head update
  {
    await using w = await openLedger(path);
    assert.equal(w.head.seq, 2);
    assert.equal(w.verification.unacknowledged!.records, 2);
    const side = `${path}.torn-${acknowledged.length}`;
    assert.deepEqual(
      await Deno.readFile(side),
      whole.subarray(acknowledged.length),
    );
    assert.deepEqual(await Deno.readFile(path), acknowledged);
    assert.match(
      w.notices.at(-1)!,
      /the \d+ bytes after record 2 were never acknowledged by its head file \(2 complete records among them.*set aside to .*\.torn-/,
    );
    const r = await w.append(tenRecords().slice(2, 4));
    assert.deepEqual([r.first, r.last], [3, 4]);
  }
  // the same records written again: the ledger is as the first write left it
  assert.deepEqual(await Deno.readFile(path), whole);
  assert.equal((await readHeadFile(path))!.seq, 4);
});

Deno.test("openLedger() sets aside a torn line past the head by itself, but a tear inside acknowledged records stays an error", async () => {
  const path = await tempLedger();
  {
    await using w = await openLedger(path);
    await w.append(tenRecords());
  }
  const good = await Deno.readFile(path);
  const torn = new TextEncoder().encode('{"hash":"5f2a","prev":"');
  await Deno.writeFile(path, torn, { append: true }); // a crash mid-append
  {
    await using w = await openLedger(path);
    assert.equal(w.head.seq, 10);
    assert.deepEqual(await Deno.readFile(path), good);
    assert.deepEqual(
      await Deno.readFile(`${path}.torn-${good.length}`),
      torn,
    );
  }
  // cut inside record 10, which the head file acknowledges: evidence
  const cut = good.subarray(0, good.length - 40);
  await Deno.writeFile(path, cut);
  await assert.rejects(() => openLedger(path), /truncated/);
  assert.deepEqual(await Deno.readFile(path), cut);
});

Deno.test("openLedger() locks out a writer in another process, and a killed holder leaves no lock", async () => {
  const path = await tempLedger();
  const writerUrl = new URL("../../../lib/ledger/writer.ts", import.meta.url)
    .href;
  const config = new URL("../../../deno.json", import.meta.url).pathname;
  const holder = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--config",
      config,
      `import { openLedger } from "${writerUrl}";
       const w = await openLedger(${JSON.stringify(path)});
       console.log("held"); setInterval(() => {}, 1000);`,
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = holder.stdout.getReader();
  const { value } = await reader.read();
  assert.equal(new TextDecoder().decode(value).trim(), "held");
  await assert.rejects(
    () => openLedger(path, { lockWaitMs: 200 }),
    /another writer holds its lock/,
  );
  holder.kill("SIGKILL");
  await holder.status;
  reader.releaseLock();
  await holder.stdout.cancel();
  await using w = await openLedger(path, { lockWaitMs: 2000 });
  assert.equal(w.head.seq, 0);
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
  // the lock was released: another descriptor gets it at once
  using f = await Deno.open(path, { read: true });
  assert.equal(await f.tryLock(true), true);
});

Deno.test("LedgerWriter refuses appends after close", async () => {
  const path = await tempLedger();
  const w = await openLedger(path);
  await w.close();
  await assert.rejects(() => w.append(tenRecords()), /writer is closed/);
  assert.equal(await Deno.readTextFile(path), "");
  // a new ledger is anchored from its creation: its head is the genesis
  assert.deepEqual(await readHeadFile(path), { seq: 0, hash: "0".repeat(64) });
});

Deno.test("openLedger() and append() fsync the ledger's directory after creating the ledger and after renaming its head file", async () => {
  const path = await tempLedger();
  const dir = path.slice(0, path.lastIndexOf("/"));
  const synced: string[] = [];
  const opened = new WeakMap<Deno.FsFile, string>();
  const { open } = Deno;
  const { sync } = Deno.FsFile.prototype;
  const { rename } = Deno;
  Deno.open = async (p: string | URL, o?: Deno.OpenOptions) => {
    const f = await open(p, o);
    opened.set(f, String(p));
    return f;
  };
  Deno.rename = async (a: string | URL, b: string | URL) => {
    synced.push(`rename ${String(b).slice(dir.length + 1)}`);
    return await rename(a, b);
  };
  Deno.FsFile.prototype.sync = function () {
    const p = opened.get(this) ?? "?";
    synced.push(`sync ${p === dir ? "<dir>" : p.slice(dir.length + 1)}`);
    return sync.call(this);
  };
  try {
    await using w = await openLedger(path);
    await w.append(tenRecords().slice(0, 1));
  } finally {
    Deno.open = open;
    Deno.rename = rename;
    Deno.FsFile.prototype.sync = sync;
  }
  // created: the directory; genesis head: tmp, rename, directory; the append:
  // ledger, head tmp, rename, directory
  assert.deepEqual(synced, [
    "sync <dir>",
    "sync l.jsonl.head.tmp",
    "rename l.jsonl.head",
    "sync <dir>",
    "sync l.jsonl",
    "sync l.jsonl.head.tmp",
    "rename l.jsonl.head",
    "sync <dir>",
  ]);
});
