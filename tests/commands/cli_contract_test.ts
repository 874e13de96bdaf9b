// The CLI contract, command by command: --help with an example, --json in
// the usage, and exit 2 with a one-line message on bad usage.
import assert from "node:assert/strict";
import { COMMANDS, main } from "../../cli.ts";
import { runCli } from "../_helpers.ts";

const names = Object.keys(COMMANDS);

Deno.test("every command documents --help with a runnable example and offers --json", () => {
  for (const name of names) {
    const c = COMMANDS[name];
    assert.match(c.example, new RegExp(`^deno task lossbook ${name}\\b`), name);
    assert.ok(c.summary.length > 10, name);
    if (name !== "reproduce") {
      assert.match(c.usage, /--json/, `${name} has no --json`);
    }
  }
});

Deno.test("--help on every command exits 0 and prints usage and an example", async () => {
  for (const name of names) {
    const r = await runCli([name, "--help"]);
    assert.equal(r.code, 0, name);
    assert.match(r.stdout, /\nUsage: lossbook /, name);
    assert.match(r.stdout, /\nExample:\n {2}deno task lossbook /, name);
  }
});

Deno.test("an unknown flag exits 2 with one line on stderr and no stack trace, for every command", async () => {
  for (const name of names) {
    const args = name === "ledger"
      ? ["ledger", "verify", "x.jsonl", "--frobnicate"]
      : [name, "--frobnicate"];
    const r = await runCli(args);
    assert.equal(r.code, 2, `${name}: ${r.stderr}`);
    const lines = r.stderr.trim().split("\n");
    assert.equal(lines.length, 1, `${name}: ${r.stderr}`);
    assert.match(lines[0], new RegExp(`^lossbook ${name}: `), name);
  }
});

Deno.test("main() exits 2 without a command, 0 on --help and --version", async () => {
  const log = console.log;
  const err = console.error;
  console.log = () => {};
  console.error = () => {};
  try {
    assert.equal(await main([]), 2);
    assert.equal(await main(["--help"]), 0);
    assert.equal(await main(["--version"]), 0);
    assert.equal(await main(["nope"]), 2);
  } finally {
    console.log = log;
    console.error = err;
  }
});
