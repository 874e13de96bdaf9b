// The ledger and the device: a full disk and a read-only file system exit 74
// naming the path, a failed batch leaves nothing behind, and a ledger that
// is not a regular file is refused at once (exit 2). The device cases run on
// a small tmpfs: the one `.ci/run` mounts (LOSSBOOK_TEST_TMPFS), else one
// this file mounts; where mounting is not allowed they are skipped with a
// notice, and fail when CI=true.
import assert from "node:assert/strict";
import { batch } from "../faults/_trials.ts";
import { headFilePath } from "../../lib/ledger/verify.ts";
import { decision, runCli, tempDir, tempFile } from "../_helpers.ts";

const AT = "2026-03-01T09:00:00Z";
const ROOT = new URL("../../", import.meta.url).pathname;
const CI = Deno.env.get("CI") === "true";
const SUDO = Deno.uid() === 0 ? [] : ["sudo", "-n"];

/** Run a system command (through sudo -n when not root); its stderr when it fails. */
async function system(args: string[]): Promise<string | null> {
  const [cmd, ...rest] = [...SUDO, ...args];
  try {
    const out = await new Deno.Command(cmd, {
      args: rest,
      stdout: "null",
      stderr: "piped",
    }).output();
    return out.success ? null : new TextDecoder().decode(out.stderr).trim();
  } catch (error) {
    return String(error);
  }
}

/** The tmpfs the cases use: `.ci/run`'s, else one mounted here, else null. */
async function mountTmpfs(): Promise<{ dir: string; own: boolean } | null> {
  const given = Deno.env.get("LOSSBOOK_TEST_TMPFS");
  if (given !== undefined && given !== "") return { dir: given, own: false };
  const dir = await Deno.makeTempDir({ prefix: "lossbook-tmpfs-" });
  const why = await system([
    "mount",
    "-t",
    "tmpfs",
    "-o",
    "size=2m",
    "tmpfs",
    dir,
  ]);
  if (why === null) return { dir, own: true };
  await Deno.remove(dir);
  const notice =
    `the full-disk and read-only ledger cases need a tmpfs, and mounting one failed (${why})`;
  if (CI) throw new Error(`${notice}; under CI=true that is a failure`);
  console.error(`skipped: ${notice}; run them as root or with sudo`);
  return null;
}

const tmpfs = await mountTmpfs();

Deno.test.afterAll(async () => {
  if (tmpfs === null) return;
  if (tmpfs.own) {
    await system(["umount", tmpfs.dir]);
    await Deno.remove(tmpfs.dir, { recursive: true });
  }
});

/** An empty folder on the tmpfs, writable, removed with its content by `done`. */
async function onTmpfs(): Promise<{ dir: string; done: () => Promise<void> }> {
  const mnt = tmpfs!.dir;
  const dir = await Deno.makeTempDir({ dir: mnt, prefix: "case-" });
  return {
    dir,
    done: async () => {
      await system(["mount", "-o", "remount,rw", mnt]);
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A ledger in `dir` holding a small first batch. */
async function baseLedger(dir: string): Promise<string> {
  const ledger = `${dir}/l.jsonl`;
  const base = await tempFile("base.jsonl", batch("base", 5));
  const r = await runCli(["ledger", "append", ledger, base, "--at", AT]);
  assert.equal(r.code, 0, r.stderr);
  return ledger;
}

/** Fill the file system of `dir` until the system says it is full. */
async function fill(dir: string): Promise<string> {
  const path = `${dir}/filler`;
  using f = await Deno.open(path, { write: true, create: true });
  const chunk = new Uint8Array(64 * 1024);
  try {
    for (;;) await f.write(chunk);
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOSPC") throw error;
  }
  return path;
}

/** What `ledger append` of `source` writes to a copy of `ledger` on a roomy disk. */
async function appendedCopy(
  ledger: string,
  source: string,
): Promise<Uint8Array> {
  const ref = `${await tempDir()}/ref.jsonl`;
  await Deno.copyFile(ledger, ref);
  await Deno.copyFile(headFilePath(ledger), headFilePath(ref));
  const r = await runCli(["ledger", "append", ref, source, "--at", AT]);
  assert.equal(r.code, 0, r.stderr);
  return await Deno.readFile(ref);
}

/**
 * A test on its own folder of the tmpfs, removed (and the tmpfs made
 * writable again) when it ends; skipped when there is no tmpfs.
 */
function deviceTest(name: string, fn: (dir: string) => Promise<void>): void {
  Deno.test({
    name,
    ignore: tmpfs === null,
    fn: async () => {
      const { dir, done } = await onTmpfs();
      try {
        await fn(dir);
      } finally {
        await done();
      }
    },
  });
}

deviceTest(
  "ledger append on a full disk exits 74 naming the ledger and the system's error, keeps the ledger as it was, and the same append works once space is freed",
  async (dir) => {
    const ledger = await baseLedger(dir);
    const big = await tempFile("big.jsonl", batch("big", 2_000));
    const before = await Deno.readFile(ledger);
    const head = await Deno.readTextFile(headFilePath(ledger));
    const whole = await appendedCopy(ledger, big);
    const filler = await fill(dir);
    const full = await runCli(["ledger", "append", ledger, big, "--at", AT]);
    assert.equal(full.code, 74, full.stderr);
    const lines = full.stderr.trim().split("\n");
    assert.equal(lines.length, 1, full.stderr);
    assert.match(
      lines[0],
      /^lossbook ledger: Cannot append to ledger .*l\.jsonl: .*No space left on device \(os error 28\); nothing of this batch was kept$/,
    );
    // all or nothing: the ledger and its head are as they were
    assert.deepEqual(await Deno.readFile(ledger), before);
    assert.equal(await Deno.readTextFile(headFilePath(ledger)), head);
    const v = await runCli(["ledger", "verify", ledger]);
    assert.equal(v.code, 0, v.stderr);
    assert.equal(v.stderr, "");
    await Deno.remove(filler);
    const again = await runCli(["ledger", "append", ledger, big, "--at", AT]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stderr, "");
    assert.deepEqual(await Deno.readFile(ledger), whole);
  },
);

deviceTest(
  "ledger append on a read-only file system exits 74 naming the path, for an existing ledger and for a new one",
  async (dir) => {
    const ledger = await baseLedger(dir);
    const more = await tempFile("more.jsonl", batch("more", 5));
    const before = await Deno.readFile(ledger);
    const why = await system(["mount", "-o", "remount,ro", tmpfs!.dir]);
    assert.equal(why, null, `remount read-only: ${why}`);
    const ro = await runCli(["ledger", "append", ledger, more, "--at", AT]);
    assert.equal(ro.code, 74, ro.stderr);
    assert.match(
      ro.stderr,
      /^lossbook ledger: Cannot open .*l\.jsonl: Read-only file system \(os error 30\)\n$/,
    );
    assert.deepEqual(await Deno.readFile(ledger), before);
    const fresh = await runCli([
      "ledger",
      "append",
      `${dir}/new.jsonl`,
      more,
      "--at",
      AT,
    ]);
    assert.equal(fresh.code, 74, fresh.stderr);
    assert.match(
      fresh.stderr,
      /^lossbook ledger: Cannot open .*new\.jsonl: Read-only file system \(os error 30\)\n$/,
    );
    // reading needs no write: verify still works
    assert.equal((await runCli(["ledger", "verify", ledger])).code, 0);
  },
);

for (const ext of ["jsonl", "parquet"]) {
  deviceTest(
    `a command writing a .${ext} --out on a full disk exits 74 with one line naming the file (Parquet is written through DuckDB)`,
    async (dir) => {
      await fill(dir);
      const out = `${dir}/run.${ext}`;
      const r = await runCli([
        "simulate",
        "--tasks",
        "data/tasks/reconciliation_777_300.jsonl",
        "--model",
        "frontier_even",
        "--out",
        out,
      ]);
      assert.equal(r.code, 74, r.stderr);
      assert.equal(
        r.stderr,
        `lossbook simulate: Cannot write ${out}: No space left on device (os error 28)\n`,
      );
    },
  );
}

/** Run the CLI as a child process, killed if it runs past `ms`. */
async function bounded(
  args: string[],
  ms: number,
): Promise<{ code: number; stderr: string; ms: number }> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}cli.ts`, ...args],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
    signal: AbortSignal.timeout(ms),
  }).output();
  return {
    code: out.code,
    stderr: new TextDecoder().decode(out.stderr),
    ms: performance.now() - started,
  };
}

Deno.test("a FIFO as the ledger is refused at once by append and verify, exit 2 naming it", async () => {
  const dir = await tempDir();
  const fifo = `${dir}/l.jsonl`;
  const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assert.ok(made.success, "mkfifo");
  const source = await tempFile("a.jsonl", batch("a", 3));
  for (
    const args of [
      ["ledger", "append", fifo, source, "--at", AT],
      ["ledger", "verify", fifo],
      ["ledger", "repair", fifo],
    ]
  ) {
    const r = await bounded(args, 20_000);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(
        `^lossbook ledger: Cannot \\w+(?: to)? ledger ${fifo}: it is a FIFO \\(named pipe\\); a ledger is a regular file\\n$`,
      ),
    );
  }
});

Deno.test("/dev/null and a symlink loop as the ledger are refused, exit 2 naming the path", async () => {
  const dir = await tempDir();
  const loop = `${dir}/loop.jsonl`;
  await Deno.symlink(`${dir}/other.jsonl`, loop);
  await Deno.symlink(loop, `${dir}/other.jsonl`);
  const source = await tempFile("a.jsonl", batch("a", 3));
  for (
    const [path, what] of [["/dev/null", "a character device"], [
      loop,
      "symbolic links",
    ]]
  ) {
    for (
      const args of [["append", path, source, "--at", AT], ["verify", path]]
    ) {
      const r = await runCli(["ledger", ...args]);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.ok(r.stderr.includes(`${path}: `), r.stderr);
      assert.ok(r.stderr.includes(what), r.stderr);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    }
  }
});

Deno.test("a batch refused by what the ledger holds names the line of the batch's input, not the record it would have become", async () => {
  const dir = await tempDir();
  const ledger = `${dir}/l.jsonl`;
  const jsonl = (ds: object[]) =>
    ds.map((d) => JSON.stringify(d) + "\n").join("");
  const a = await tempFile("a.jsonl", jsonl([decision({ taskId: "t1" })]));
  const first = await runCli(["ledger", "append", ledger, a, "--at", AT]);
  assert.equal(first.code, 0, first.stderr);
  // another run's answer to task t2 and, on line 3, to t1, served again
  const b = await tempFile(
    "b.jsonl",
    jsonl([decision({ runId: "r2", taskId: "t2" })]) + "\n" +
      jsonl([decision({ runId: "r2", taskId: "t1" })]),
  );
  const r = await runCli(["ledger", "append", ledger, b, "--at", AT]);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(
    r.stderr,
    `lossbook ledger: Cannot append ${b}: line 3 to ledger ${ledger}: task "t1" trial 0 already has a served answer (record 1); record other models' answers with served: false; nothing was appended\n`,
  );
});
