import assert from "node:assert/strict";
import { COMMANDS, EXIT_BUG, main } from "../../cli.ts";
import type { Command } from "../../commands/_command.ts";
import { InputRangeError } from "../../lib/input_error.ts";
import { decision, runCli, tempDir, tempFile } from "../_helpers.ts";

/** Run main() in-process with a registered command; capture stderr. */
async function withCommand(
  run: () => Promise<number>,
  env: string | null = null,
): Promise<{ code: number; stderr: string[] }> {
  const registry = COMMANDS as Record<string, Command>;
  registry.__test = {
    summary: "",
    usage: "",
    example: "",
    help: { forms: [] },
    run,
  };
  const stderr: string[] = [];
  const error = console.error;
  console.error = (...a: unknown[]) => stderr.push(a.join(" "));
  const before = Deno.env.get("LOSSBOOK_DEBUG");
  if (env === null) Deno.env.delete("LOSSBOOK_DEBUG");
  else Deno.env.set("LOSSBOOK_DEBUG", env);
  try {
    return { code: await main(["__test"]), stderr };
  } finally {
    console.error = error;
    delete registry.__test;
    if (before === undefined) Deno.env.delete("LOSSBOOK_DEBUG");
    else Deno.env.set("LOSSBOOK_DEBUG", before);
  }
}

Deno.test("main() reports a TypeError or RangeError from a fault in lossbook as a bug: exit 70, one line", async () => {
  for (const E of [TypeError, RangeError, Error]) {
    const { code, stderr } = await withCommand(() => {
      throw new E("Cannot read properties of undefined (reading 'x')");
    });
    assert.equal(code, EXIT_BUG);
    assert.equal(stderr.length, 1);
    assert.match(
      stderr[0],
      /^lossbook __test: internal error: \w+: Cannot read properties .*; this is a bug in lossbook; please report it$/,
    );
  }
});

Deno.test("main() prints the full trace of a bug when LOSSBOOK_DEBUG=1", async () => {
  const { code, stderr } = await withCommand(() => {
    throw new TypeError("boom");
  }, "1");
  assert.equal(code, 70);
  assert.equal(stderr.length, 2);
  assert.match(stderr[1], /TypeError: boom\n\s+at /);
});

Deno.test("main() maps an input error to exit 2 and one line, and caps a long quoted value at 200 characters", async () => {
  const huge = "k".repeat(50_000);
  const { code, stderr } = await withCommand(() => {
    throw new InputRangeError(
      `Cannot load a.jsonl: line 1: unknown key ${JSON.stringify(huge)}\nmore`,
    );
  });
  assert.equal(code, 2);
  assert.equal(stderr.length, 1);
  assert.ok(stderr[0].length < 400, `${stderr[0].length} characters`);
  assert.match(stderr[0], /"k{200}\.\.\." \(50000 characters\)$/);
});

Deno.test("an error of the device or file system exits 74 with one line naming the path; a missing or wrong-kind input stays exit 2", async () => {
  const os = (message: string, code: string) =>
    Object.assign(new Error(message), { code });
  const device: [Error, string][] = [
    [
      os(
        "No space left on device (os error 28): writefile '/mnt/out.json'",
        "ENOSPC",
      ),
      "Cannot write /mnt/out.json: No space left on device (os error 28)",
    ],
    [
      os("Read-only file system (os error 30): open '/mnt/l.jsonl'", "EROFS"),
      "Cannot open /mnt/l.jsonl: Read-only file system (os error 30)",
    ],
    [
      os("Input/output error (os error 5): readfile '/mnt/run.jsonl'", "EIO"),
      "Cannot read /mnt/run.jsonl: Input/output error (os error 5)",
    ],
    [
      os(
        "Disk quota exceeded (os error 122): writefile '/home/u/out.csv'",
        "EDQUOT",
      ),
      "Cannot write /home/u/out.csv: Disk quota exceeded (os error 122)",
    ],
    [
      os("No such device or address (os error 6): open '/dev/tape'", "ENXIO"),
      "Cannot open /dev/tape: No such device or address (os error 6)",
    ],
    [
      new Deno.errors.TimedOut(
        "Cannot connect to db.example:5432: no answer within 10 s",
      ),
      "Cannot connect to db.example:5432: no answer within 10 s",
    ],
    [
      os("Cannot query db.example:5432: connection timed out", "ETIMEDOUT"),
      "Cannot query db.example:5432: connection timed out",
    ],
  ];
  for (const [error, line] of device) {
    const { code, stderr } = await withCommand(() => Promise.reject(error));
    assert.equal(code, 74, error.message);
    assert.deepEqual(stderr, [`lossbook __test: ${line}`]);
  }
  const input = [
    new Deno.errors.NotFound("Cannot read a.jsonl: no such file"),
    new Deno.errors.PermissionDenied("Cannot read a.jsonl: permission denied"),
    new Deno.errors.IsADirectory("Cannot read a: is a directory"),
    new Deno.errors.NotADirectory("Cannot read a/b: not a directory"),
    new Deno.errors.AlreadyExists("Cannot write o.json: the file exists"),
    new Deno.errors.Busy("Cannot append to ledger l.jsonl: locked"),
    new Deno.errors.InvalidData("Cannot read a.parquet: invalid data"),
  ];
  for (const error of input) {
    const { code, stderr } = await withCommand(() => Promise.reject(error));
    assert.equal(code, 2, error.message);
    assert.deepEqual(stderr, [`lossbook __test: ${error.message}`]);
  }
});

Deno.test("help documents exits 70 and 74 beside 0, 1 and 2", async () => {
  const top = await runCli(["--help"]);
  assert.match(
    top.stdout,
    /0 success, 1 a check failed, 2 bad input or usage, 70 a bug in\nlossbook .*,\n74 an error of the device or file system/,
  );
  const one = await runCli(["score", "--help"]);
  assert.match(
    one.stdout,
    /Exit codes: 0 success, .* 70 a bug in lossbook, 74 an error of the device or file system/,
  );
});

Deno.test("terminal output escapes control characters and bidirectional overrides in ids, so an id cannot forge a result line", async () => {
  const evil = "m\u001b[32m\nA  0.000 (forged)\u202e";
  const text = [
    decision({ modelId: evil, taskId: "t1" }),
    decision({ modelId: evil, taskId: "t2", predClass: "MATCH" }),
  ].map((d) => JSON.stringify(d)).join("\n") + "\n";
  const path = await tempFile("evil.jsonl", text);
  const r = await runCli(["score", path, "--profile", "flat"]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stdout.includes("\u001b"), "raw ESC reached the terminal");
  assert.ok(!r.stdout.includes("\u202e"), "raw RLO reached the terminal");
  assert.ok(
    !r.stdout.split("\n").some((l) => l.startsWith("A  0.000 (forged)")),
    "a forged line",
  );
  assert.match(r.stdout, /m\\u001b\[32m\\nA {2}0\.000 \(forged\)\\u202e/);
  // JSON output stays JSON with the same value
  const j = await runCli(["score", path, "--profile", "flat", "--json"]);
  assert.equal(j.code, 0, j.stderr);
  assert.ok(j.stdout.includes(JSON.stringify(evil).slice(1, 3)));
});

Deno.test("--resamples and --thresholds have stated upper bounds", async () => {
  const r = await runCli([
    "score",
    "data/examples/model_ab.jsonl",
    "--resamples",
    "2000000",
  ]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /--resamples must be an integer >= 1 and <= 1,000,000, got 2000000/,
  );
  const ledger = `${await tempDir()}/l.jsonl`;
  const src = await tempFile("d.jsonl", JSON.stringify(decision()) + "\n");
  assert.equal((await runCli(["ledger", "append", ledger, src])).code, 0);
  const t = await runCli([
    "replay",
    ledger,
    "--thresholds",
    "0:1:1000001",
  ]);
  assert.equal(t.code, 2);
  assert.match(
    t.stderr,
    /--thresholds takes at most 1,000,000 points, got 1000001/,
  );
});

Deno.test("simulate --out naming its own --tasks file is refused even with --force, and the file is kept", async () => {
  const path = await tempFile(
    "tasks.jsonl",
    await Deno.readTextFile("data/tasks/reconciliation_777_300.jsonl"),
  );
  const before = await Deno.readTextFile(path);
  const r = await runCli([
    "simulate",
    "--tasks",
    path,
    "--model",
    "frontier_even",
    "--out",
    path,
    "--force",
  ]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /is the same file as the input --tasks .*never overwrites an input/,
  );
  assert.equal(await Deno.readTextFile(path), before);
  const l = await runCli(["ledger", "append", path, path]);
  assert.equal(l.code, 2);
  assert.match(l.stderr, /never overwrites an input/);
});

Deno.test("reproduce --out naming an existing file exits 2 with one line", async () => {
  const path = await tempFile("out.txt", "mine");
  const r = await runCli(["reproduce", "--out", path, "--only", "divergence"]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, /it is a file, not a folder/);
  assert.equal(await Deno.readTextFile(path), "mine");
});

Deno.test("a folder where a file is expected is refused in one line naming it, whatever reads it", async () => {
  const dir = await tempDir();
  for (const name of ["x.csv", "x.arrow", "x.json", "x.jsonl", "m.csv"]) {
    await Deno.mkdir(`${dir}/${name}`);
  }
  const cases: Array<[string[], string]> = [
    [["score", `${dir}/x.csv`, "--format", "decisions"], "run export"],
    [["score", `${dir}/x.arrow`, "--format", "decisions"], "run export"],
    [["calibrate", `${dir}/x.json`, "--format", "reconforge"], "run export"],
    [
      ["score", `${dir}/x.json`, "--format", "inspect", "--severity", "LOW"],
      "inspect log",
    ],
    [[
      "score",
      `${dir}/x.jsonl`,
      "--format",
      "lossbench",
      "--probability",
      "correct",
    ], "LossBench ledger"],
    [[
      "import",
      `${dir}/x.json`,
      "--format",
      "inspect",
      "--severity",
      "HIGH",
      "--out",
      `${dir}/o.jsonl`,
    ], "inspect log"],
    [[
      "ledger",
      "append",
      `${dir}/l.jsonl`,
      `${dir}/x.json`,
      "--format",
      "promptfoo",
      "--correct",
      "equals",
      "--severity",
      "HIGH",
    ], "promptfoo log"],
    [[
      "simulate",
      "--tasks",
      `${dir}/x.jsonl`,
      "--model",
      "frontier_even",
      "--out",
      `${dir}/o.jsonl`,
    ], "task file"],
    [
      ["score", "data/examples/model_ab.jsonl", "--profile", `${dir}/x.json`],
      "cost profile",
    ],
    [[
      "score",
      "data/examples/harness/inspect_sonnet.json",
      "--severity-map",
      `${dir}/m.csv`,
    ], "severity map"],
  ];
  for (const [args, what] of cases) {
    const r = await runCli(args);
    assert.equal(r.code, 2, args.join(" "));
    const lines = r.stderr.trim().split("\n");
    assert.match(
      lines.at(-1)!,
      new RegExp(
        `Cannot load ${what} ${dir}/[^ ]+: is a directory, not a file$`,
      ),
      args.join(" "),
    );
  }
});
