import assert from "node:assert/strict";
import { getProfile } from "../../lib/costs/load.ts";
import { decisionRecord } from "../../lib/ledger/decision_record.ts";
import type { LedgerRecord } from "../../lib/ledger/record.ts";
import { openReview } from "../../lib/ledger/review.ts";
import { headFilePath } from "../../lib/ledger/verify.ts";
import { openLedger } from "../../lib/ledger/writer.ts";
import { parseDecisionsJsonl } from "../../lib/read/load_decisions.ts";
import { decision, runCli, tempDir, tempFile } from "../_helpers.ts";

const AT = "2026-03-01T09:00:00Z";

/** A run export of `n` decisions of run `run`, every third one escalated. */
function batch(run: string, n: number): string {
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify(decision({
      runId: run,
      modelId: "openai/gpt-4o",
      taskId: `${run}-t${i}`,
      action: i % 3 === 0 ? "escalate" : "auto",
    })) + "\n").join("");
}

async function ledgerOf(runs: [string, number][]): Promise<string> {
  const dir = await tempDir("lossbook-recovery-");
  const path = `${dir}/l.jsonl`;
  for (const [run, n] of runs) {
    const src = await tempFile(`${run}.jsonl`, batch(run, n));
    const r = await runCli(["ledger", "append", path, src, "--at", AT]);
    assert.equal(r.code, 0, r.stderr);
  }
  return path;
}

Deno.test("ledger verify of a ledger without its head file is unanchored: valid, exit 0, a warning, and anchored false", async () => {
  const path = await ledgerOf([["r1", 6]]);
  // `head -n 5 l.jsonl > t.jsonl`: a truncated copy with no head file
  const cut = `${path}.cut.jsonl`;
  const lines = (await Deno.readTextFile(path)).split("\n");
  await Deno.writeTextFile(cut, lines.slice(0, 5).join("\n") + "\n");
  const v = await runCli(["ledger", "verify", cut, "--json"]);
  assert.equal(v.code, 0, v.stderr);
  const doc = JSON.parse(v.stdout);
  assert.deepEqual(
    [doc.valid, doc.records, doc.anchored],
    [true, 5, false],
  );
  assert.match(v.stderr, /no head file.*truncation .*cannot be detected/);
  const anchored = JSON.parse(
    (await runCli(["ledger", "verify", path, "--json"])).stdout,
  );
  assert.equal(anchored.anchored, true);
  // reviews reads it, with the same warning
  const rv = await runCli(["ledger", "reviews", cut, "--now", AT]);
  assert.equal(rv.code, 0, rv.stderr);
  assert.match(rv.stderr, /unanchored/);
  // append refuses to anchor it silently; --adopt records the adoption
  const more = await tempFile("more.jsonl", batch("r2", 2));
  const refused = await runCli(["ledger", "append", cut, more, "--at", AT]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /has 5 records but no head file .*--adopt/);
  await assert.rejects(
    () => Deno.stat(headFilePath(cut)),
    Deno.errors.NotFound,
  );
  const adopted = await runCli([
    "ledger",
    "append",
    cut,
    more,
    "--at",
    AT,
    "--adopt",
  ]);
  assert.equal(adopted.code, 0, adopted.stderr);
  assert.match(adopted.stderr, /adopted .* as it stands \(5 records/);
  const head = await Deno.readTextFile(headFilePath(cut));
  assert.match(
    head,
    /^\{"adopted":\{"at":"[^"]+","hash":"[0-9a-f]{64}","seq":5\},"hash":"[0-9a-f]{64}","seq":8\}\n$/,
  );
  assert.equal((await runCli(["ledger", "verify", cut])).code, 0);
});

Deno.test("an empty ledger is valid and says it is empty", async () => {
  const path = await tempFile("empty.jsonl", "");
  const v = await runCli(["ledger", "verify", path]);
  assert.equal(v.code, 0, v.stderr);
  assert.match(v.stdout, /valid lossbook ledger, empty \(0 records\)/);
});

Deno.test("a batch cut by a crash is completed by re-running the same append, no repair: what the head file never acknowledged is set aside", async () => {
  const path = await ledgerOf([["r1", 4]]);
  const src = await tempFile("r2.jsonl", batch("r2", 9));
  // what the whole batch writes, on a scratch copy
  const scratch = `${path}.scratch.jsonl`;
  await Deno.copyFile(path, scratch);
  await Deno.copyFile(headFilePath(path), headFilePath(scratch));
  const full = await runCli(["ledger", "append", scratch, src, "--at", AT]);
  assert.equal(full.code, 0, full.stderr);
  const before = await Deno.readFile(path);
  const after = await Deno.readFile(scratch);
  // a crash wrote part of the batch: 5 complete lines and half of the 6th
  const text = new TextDecoder().decode(after.subarray(before.length));
  const cutAt = text.split("\n").slice(0, 5).join("\n").length + 1 + 40;
  await Deno.writeFile(path, after.subarray(0, before.length + cutAt));
  const cutBytes = after.subarray(before.length, before.length + cutAt);
  const v = await runCli(["ledger", "verify", path]);
  assert.equal(v.code, 0, v.stderr);
  assert.match(
    v.stderr,
    /the \d+ bytes after record 6 were never acknowledged by its head file \(5 complete records among them/,
  );
  const again = await runCli(["ledger", "append", path, src, "--at", AT]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /set aside to .*\.torn-\d+/);
  assert.match(again.stdout, /^appended 12 records/);
  // the cut bytes are kept, byte for byte, in the side file
  assert.deepEqual(
    await Deno.readFile(`${path}.torn-${before.length}`),
    cutBytes,
  );
  // the completed ledger is byte for byte what an uninterrupted append wrote
  assert.deepEqual(await Deno.readFile(path), after);
  const noop = await runCli(["ledger", "append", path, src, "--at", AT]);
  assert.equal(noop.code, 0);
  assert.match(noop.stdout, /^nothing appended/);
  // with another time given, the same decisions are a conflicting batch
  const other = await runCli([
    "ledger",
    "append",
    path,
    src,
    "--at",
    "2026-03-02T09:00:00Z",
  ]);
  assert.equal(other.code, 2);
  assert.match(other.stderr, /with a different at; nothing was appended/);
});

Deno.test("two appends of the same batch at once: one writes it, the other finds it there", async () => {
  const path = await ledgerOf([["r1", 3]]);
  const src = await tempFile("r2.jsonl", batch("r2", 300));
  const alias = `${path}.alias.jsonl`;
  await Deno.symlink(path, alias);
  const [a, b] = await Promise.all([
    runCli(["ledger", "append", path, src, "--at", AT, "--json"]),
    runCli(["ledger", "append", alias, src, "--at", AT, "--json"]),
  ]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  const appended = [JSON.parse(a.stdout), JSON.parse(b.stdout)].map((d) =>
    d.appended
  ).sort((x, y) => x - y);
  assert.deepEqual(appended, [0, 400]); // 300 decisions, 100 reviews
  const v = JSON.parse(
    (await runCli(["ledger", "verify", alias, "--json"])).stdout,
  );
  assert.deepEqual([v.valid, v.records, v.anchored], [true, 404, true]);
  await assert.rejects(
    () => Deno.stat(headFilePath(alias)),
    Deno.errors.NotFound,
  );
  assert.equal(
    (await runCli(["ledger", "reviews", path, "--now", AT])).code,
    0,
  );
});

Deno.test("decision ids are the canonical JSON of their key, so ids with / cannot collide", async () => {
  const path = `${await tempDir()}/l.jsonl`;
  // run "a/b", model "c" and run "a", model "b/c" once shared the id a/b/c/t/0
  const src = await tempFile(
    "two.jsonl",
    JSON.stringify(decision({ runId: "a/b", modelId: "c", taskId: "t" })) +
      "\n" +
      JSON.stringify(
        decision({ runId: "a", modelId: "b/c", taskId: "t", trial: 1 }),
      ) + "\n",
  );
  const r = await runCli(["ledger", "append", path, src, "--at", AT]);
  assert.equal(r.code, 0, r.stderr);
  const ids = (await Deno.readTextFile(path)).trim().split("\n").map((l) =>
    JSON.parse(l).record.id
  );
  assert.deepEqual(ids, ['["a/b","c","t",0]', '["a","b/c","t",1]']);
});

Deno.test("score --format lossbench checks the hash chain and exits 1 when it is broken", async () => {
  const lines =
    (await Deno.readTextFile("data/examples/lossbench_ledger.jsonl")).split(
      "\n",
    );
  lines.splice(4, 1);
  const path = await tempFile("lb.jsonl", lines.join("\n"));
  const r = await runCli([
    "score",
    path,
    "--format",
    "lossbench",
    "--probability",
    "correct",
  ]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /chain does not verify is not scored/);
});

Deno.test("records written with the older run/model/task/trial ids keep them, and re-running their batch is a no-op", async () => {
  const path = `${await tempDir()}/l.jsonl`;
  const text = batch("r1", 4);
  const records: LedgerRecord[] = [];
  for (const d of parseDecisionsJsonl(text)) {
    const r = decisionRecord(d, {
      at: AT,
      id: `${d.runId}/${d.modelId}/${d.taskId}/${d.trial}`, // the older form
      profile: getProfile("reconciliation"),
    });
    records.push(r);
    if (r.decision.action === "escalate") records.push(openReview(r));
  }
  {
    await using w = await openLedger(path);
    await w.append(records);
  }
  const src = await tempFile("r1.jsonl", text);
  const r = await runCli(["ledger", "append", path, src, "--at", AT]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^nothing appended: all 6 records of this batch/);
  const ids = (await Deno.readTextFile(path)).trim().split("\n").map((l) =>
    JSON.parse(l).record.id
  ).filter((x) => x !== undefined);
  assert.deepEqual(ids[0], "r1/openai/gpt-4o/r1-t0/0");
});

Deno.test("a second writer waits its bound (LOSSBOOK_LOCK_WAIT_MS), then exits 2 with one line naming the ledger", async () => {
  const path = await ledgerOf([["r1", 2]]);
  const src = await tempFile("r2.jsonl", batch("r2", 2));
  using holder = await Deno.open(path, { read: true });
  await holder.lock(true);
  Deno.env.set("LOSSBOOK_LOCK_WAIT_MS", "300");
  try {
    const r = await runCli(["ledger", "append", path, src, "--at", AT]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim().split("\n").length, 1);
    assert.match(
      r.stderr,
      /^lossbook ledger: Cannot append to ledger .*l\.jsonl: another writer holds its lock \(waited 0\.3 s\)/,
    );
    const rep = await runCli(["ledger", "repair", path]);
    assert.equal(rep.code, 2);
    assert.match(
      rep.stderr,
      /Cannot repair ledger .*another writer holds its lock/,
    );
  } finally {
    Deno.env.delete("LOSSBOOK_LOCK_WAIT_MS");
  }
  await holder.unlock();
  const ok = await runCli(["ledger", "append", path, src, "--at", AT]);
  assert.equal(ok.code, 0, ok.stderr);
});
