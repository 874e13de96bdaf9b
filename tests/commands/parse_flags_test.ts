// The CLI's flags are util.parseArgs's, strict, with positionals: a value
// that starts with a dash is kept when written with = and refused otherwise,
// `-h` is help, and every parse error is a usage error naming the flags the
// command takes.
import assert from "node:assert/strict";
import { FlagParseError, parseFlags } from "../../commands/_command.ts";

const OPTIONS = {
  seed: { type: "string", doc: "Seed." },
  json: { type: "boolean", doc: "JSON." },
  profile: { type: "string", multiple: true, doc: "Profiles." },
} as const;

Deno.test("parseFlags() keeps a value that starts with a dash when it is written with =, and refuses it when it is not", () => {
  const { values, positionals } = parseFlags("score", [
    "run.jsonl",
    "--seed=-1",
    "--profile",
    "flat",
    "--profile=reconciliation",
    "-h",
  ], OPTIONS);
  assert.deepEqual({ ...values }, {
    seed: "-1",
    profile: ["flat", "reconciliation"],
    help: true,
  });
  assert.deepEqual(positionals, ["run.jsonl"]);
  assert.throws(
    () => parseFlags("score", ["--seed", "-1"], OPTIONS),
    FlagParseError,
    "Option '--seed' argument is ambiguous",
  );
  assert.throws(
    () => parseFlags("score", ["--seed"], OPTIONS),
    FlagParseError,
    "Option '--seed <value>' argument missing",
  );
});

Deno.test("parseFlags() refuses an unknown flag and a value given to a switch, naming the flags the command takes", () => {
  const refused = (args: string[]) => {
    try {
      parseFlags("score", args, OPTIONS);
    } catch (error) {
      assert.ok(error instanceof FlagParseError);
      return [error.message, [...error.accepted]];
    }
    assert.fail(`${args.join(" ")} parsed`);
  };
  const [unknown, accepted] = refused(["--bogus"]);
  assert.match(String(unknown), /^Unknown option '--bogus'/);
  assert.deepEqual(accepted, ["seed", "json", "profile", "help"]);
  assert.deepEqual(
    refused(["--json=yes"])[0],
    "Option '--json' does not take an argument",
  );
});
