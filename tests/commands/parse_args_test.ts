// The CLI's flag parser against Node's util.parseArgs, the parser it
// replaces (strict, with positionals): the same values and positionals, or
// the same error message, for option tables and command lines drawn at
// random from the spellings that tell parsers apart.
import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import fc from "fast-check";
import {
  type ArgOption,
  parseCommandArgs,
} from "../../commands/_parse_args.ts";

// what each parser does with a command line: a result, or an error message
function outcome(f: () => unknown): { ok: unknown } | { error: string } {
  try {
    return { ok: f() };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

const NAMES = ["seed", "json", "profile", "a", "b", "f", "__proto__"];
const optionsArb = fc.dictionary(
  fc.constantFrom(...NAMES),
  fc.record({
    type: fc.constantFrom("string" as const, "boolean" as const),
    short: fc.option(fc.constantFrom("a", "b", "f", "j", "x"), {
      nil: undefined,
    }),
    multiple: fc.option(fc.boolean(), { nil: undefined }),
  }, { requiredKeys: ["type"] }),
  { maxKeys: 5 },
).map((o) => {
  // a short letter names one option at most, as the CLI's tables do
  const seen = new Set<string>();
  // (no prototype, so that an option may be named __proto__)
  const out: Record<string, ArgOption> = Object.create(null);
  for (const [name, spec] of Object.entries(o)) {
    const { short, multiple, type } = spec;
    const keep = short !== undefined && !seen.has(short);
    if (keep) seen.add(short);
    out[name] = {
      type,
      ...(keep ? { short } : {}),
      ...(multiple === undefined ? {} : { multiple }),
    };
  }
  return out;
});

const argArb = fc.oneof(
  fc.constantFrom(
    "--",
    "-",
    "--seed",
    "--json",
    "--profile",
    "--seed=7",
    "--seed=",
    "--json=true",
    "--profile=a=b",
    "--nope",
    "--a",
    "--__proto__",
    "--__proto__=x",
    "-a",
    "-b",
    "-f",
    "-j",
    "-x",
    "-ab",
    "-ba",
    "-fa",
    "-afile",
    "-jx",
    "-1",
    "-0.5",
    "--=x",
    "---",
    "run.jsonl",
    "7",
    "",
  ),
  fc.string({ maxLength: 6 }),
);

Deno.test("parseCommandArgs() gives util.parseArgs's values, positionals and errors (strict, positionals allowed) (property, seed 41)", () => {
  let errors = 0;
  let parsed = 0;
  fc.assert(
    fc.property(
      optionsArb,
      fc.array(argArb, { maxLength: 8 }),
      (options, args) => {
        const ours = outcome(() => parseCommandArgs(args, options));
        const node = outcome(() =>
          parseArgs({ args, options, strict: true, allowPositionals: true })
        );
        if ("error" in node) errors++;
        else parsed++;
        assert.deepStrictEqual(ours, node, JSON.stringify({ options, args }));
      },
    ),
    { seed: 41, numRuns: 5000 },
  );
  // both sides of the contract were exercised
  assert.ok(errors > 500 && parsed > 500, JSON.stringify({ errors, parsed }));
});

Deno.test("parseCommandArgs() keeps a value that starts with a dash when it is written with =, and refuses it when it is not", () => {
  const options = { seed: { type: "string" } } as const;
  assert.deepEqual(parseCommandArgs(["--seed=-1"], options).values.seed, "-1");
  assert.throws(
    () => parseCommandArgs(["--seed", "-1"], options),
    /Option '--seed' argument is ambiguous/,
  );
  assert.throws(
    () => parseCommandArgs(["--seed"], options),
    /Option '--seed <value>' argument missing/,
  );
});
