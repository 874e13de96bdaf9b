import assert from "node:assert/strict";
import { ledgerText } from "../../../lib/ledger/chain.ts";
import {
  ledgerEntries,
  ledgerEntriesFile,
  loadLedger,
} from "../../../lib/ledger/read.ts";
import { verifyLedgerFile } from "../../../lib/ledger/verify.ts";
import { tempDir } from "../../_helpers.ts";

const r = {
  kind: "review_opened",
  at: "2026-03-01T09:00:00Z",
  decisionId: "d1",
  slaHours: 24,
  dueAt: "2026-03-02T09:00:00Z",
} as const;

function records(n: number) {
  return Array.from({ length: n }, (_, i) => ({ ...r, decisionId: `d${i}` }));
}

async function file(text: string | Uint8Array): Promise<string> {
  const path = `${await Deno.makeTempDir({
    prefix: "lossbook-test-",
  })}/l.jsonl`;
  if (typeof text === "string") await Deno.writeTextFile(path, text);
  else await Deno.writeFile(path, text);
  return path;
}

async function collect(path: string, chunkBytes: number) {
  const out = [];
  for await (const e of ledgerEntriesFile(path, { chunkBytes })) out.push(e);
  return out;
}

Deno.test("ledgerEntriesFile() streams the same entries as ledgerEntries() for every chunk size, with and without a final newline", async () => {
  const { text } = ledgerText(records(25));
  for (const t of [text, text.replace(/\n$/, "")]) {
    const path = await file(t);
    const want = [...ledgerEntries(new TextEncoder().encode(t), { path })];
    for (const chunk of [1, 7, 64, 1000, 1 << 20]) {
      assert.deepEqual(await collect(path, chunk), want, `chunk ${chunk}`);
    }
  }
});

Deno.test("ledgerEntriesFile() names file, line and field, counting lines across chunks", async () => {
  const lines = ledgerText(records(6)).text.split("\n");
  lines[4] = lines[4].replace('"slaHours":24', '"slaHours":"24"');
  const path = await file(lines.join("\n"));
  for (const chunk of [3, 50, 1 << 20]) {
    await assert.rejects(() => collect(path, chunk), {
      name: "TypeError",
      message: new RegExp(
        `^Cannot read ledger ${path}: line 5: record\\.slaHours must be number`,
      ),
    });
  }
  const bytes = new TextEncoder().encode(ledgerText(records(3)).text);
  bytes[bytes.indexOf(0x64, bytes.indexOf(10) + 1)] = 0xff; // in line 2
  const badPath = await file(bytes);
  await assert.rejects(() => collect(badPath, 5), {
    name: "SyntaxError",
    message: /: line 2: not valid UTF-8/,
  });
});

Deno.test("loadLedger() streams: a valid ledger gives its entries, an edited or truncated one its verification and none", async () => {
  const { text } = ledgerText(records(10));
  const ok = await loadLedger(await file(text), { anchor: null });
  assert.equal(ok.verification.valid, true);
  assert.equal(ok.entries.length, 10);
  const edited = await loadLedger(
    await file(text.replace('"d3"', '"d9"')),
    { anchor: null },
  );
  assert.deepEqual([edited.verification.valid, edited.entries.length], [
    false,
    0,
  ]);
  const cut = await loadLedger(await file(text.slice(0, -20)), {
    anchor: null,
  });
  assert.equal(cut.verification.valid, false);
  assert.match(cut.verification.reason!, /l\.jsonl/);
});

Deno.test("ledgerEntriesFile() names the path it is told to show (shownAs), not the path it reads", async () => {
  const lines = ledgerText(records(3)).text.split("\n");
  lines[1] = lines[1].replace('"slaHours":24', '"slaHours":"24"');
  const path = await file(lines.join("\n"));
  await assert.rejects(
    async () => {
      for await (
        const _ of ledgerEntriesFile(path, { shownAs: "month.jsonl" })
      );
    },
    {
      name: "TypeError",
      message: /^Cannot read ledger month\.jsonl: line 2: record\.slaHours/,
    },
  );
});

Deno.test("a directory given as a ledger is refused by both streaming readers, naming its path", async () => {
  const dir = `${await tempDir("lossbook-test-")}/ledger.jsonl`;
  await Deno.mkdir(dir);
  const named = new RegExp(
    `Cannot read ledger ${
      dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    }: is a directory`,
  );
  await assert.rejects(
    async () => {
      for await (const _ of ledgerEntriesFile(dir)) { /* none */ }
    },
    (e: unknown) =>
      e instanceof Deno.errors.IsADirectory && named.test(String(e)),
  );
  await assert.rejects(
    () => verifyLedgerFile(dir, { anchor: null }),
    (e: unknown) =>
      e instanceof Deno.errors.IsADirectory && named.test(String(e)),
  );
});
