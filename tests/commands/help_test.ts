// Help that explains: every command's --help lists exactly the options its
// parser accepts, each with one line of meaning, and `lossbook help <command>`
// prints it.
import assert from "node:assert/strict";
import { COMMANDS, main } from "../../cli.ts";
import { FlagParseError } from "../../commands/_command.ts";
import { formatHelp, type HelpForm } from "../../commands/_help.ts";
import { reproduceMain } from "../../reproduce.ts";

/** Run `main` in process and capture what it prints. */
async function capture(
  run: () => Promise<number>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const log = console.log;
  const err = console.error;
  let stdout = "";
  let stderr = "";
  console.log = (...a: unknown[]) => stdout += a.join(" ") + "\n";
  console.error = (...a: unknown[]) => stderr += a.join(" ") + "\n";
  try {
    const code = await run();
    return { code, stdout, stderr };
  } finally {
    console.log = log;
    console.error = err;
  }
}

/** Every (command, form) pair, with the arguments that select the form. */
const FORMS: { name: string; form: HelpForm; prefix: string[] }[] = Object
  .entries(COMMANDS).flatMap(([name, c]) =>
    c.help.forms.map((form) => ({
      name,
      form,
      // `ledger append` is selected by its first argument
      prefix: form.command.split(" ").slice(1),
    }))
  );

const PROBE = "--lossbook-no-such-flag";

/** The flags the parser of a form accepts, read from its refusal of an unknown one. */
async function accepted(name: string, prefix: string[]): Promise<string[]> {
  try {
    await COMMANDS[name].run([...prefix, PROBE]);
  } catch (error) {
    if (error instanceof FlagParseError) return [...error.accepted].sort();
    throw error;
  }
  throw new Error(`${name} ${prefix.join(" ")} accepted ${PROBE}`);
}

Deno.test("every option a command's parser accepts is listed in its --help, and every listed option is accepted", async () => {
  for (const { name, form, prefix } of FORMS) {
    const listed = [...Object.keys(form.options), "help"].sort();
    if (name === "reproduce") continue; // reproduce.ts parses with the table itself; checked below
    assert.deepEqual(await accepted(name, prefix), listed, form.command);
  }
});

Deno.test("a listed option parses: the parser stops at the probe after it, not at the option", async () => {
  for (const { name, form, prefix } of FORMS) {
    for (const [flag, o] of Object.entries(form.options)) {
      const args = [
        name,
        ...prefix,
        `--${flag}`,
        ...(o.type === "string" ? ["x"] : []),
        PROBE,
      ];
      const r = await capture(() =>
        name === "reproduce" ? reproduceMain(args.slice(1)) : main(args)
      );
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(
        r.stderr,
        new RegExp(`'${PROBE}'`),
        `${form.command} --${flag}: ${r.stderr}`,
      );
    }
  }
});

Deno.test("--help lists every option once with a line of meaning, and the usage line names it", async () => {
  for (const [name, c] of Object.entries(COMMANDS)) {
    const r = await capture(() => main([name, "--help"]));
    assert.equal(r.code, 0, name);
    const [usage] = r.stdout.split("\n\nOptions");
    for (const form of c.help.forms) {
      for (const [flag, o] of Object.entries(form.options)) {
        assert.ok(
          o.doc.length >= 10,
          `${form.command} --${flag} has no meaning`,
        );
        assert.match(
          usage,
          new RegExp(`--${flag}\\b`),
          `${form.command}: usage lacks --${flag}`,
        );
        const entries = r.stdout.split("\n").filter((l) =>
          new RegExp(`^ {2}(-\\w, )?--${flag}( |$)`).test(l)
        );
        // a form that shares another's table is listed once
        assert.ok(
          entries.length >= 1,
          `${form.command}: options list lacks --${flag}`,
        );
        const first = o.doc.split(" ").slice(0, 3).join(" ");
        assert.ok(
          r.stdout.replace(/\s+/g, " ").includes(first),
          `${form.command} --${flag}: meaning not printed`,
        );
        if (o.byDefault !== undefined) {
          assert.ok(
            r.stdout.replace(/\s+/g, " ").includes(`default: ${o.byDefault}`),
            `${form.command} --${flag}: default not printed`,
          );
        }
      }
    }
    assert.match(r.stdout, /\n {2}-h, --help\n/, name);
  }
});

Deno.test("the options once left unexplained are explained where they are taken", async () => {
  const cases: [string[], string, RegExp][] = [
    [["ledger"], "gold", /gold class is known when recording/],
    [["replay"], "support", /evaluable at every threshold/],
    [["replay"], "missing-risk", /states no risk/],
    [["sweep"], "per", /mean loss per decision/],
    [["sweep"], "scaled", /multiplied by the ratio r/],
    [["score"], "engine", /DuckDB/],
    [["sweep"], "engine", /decisions table/],
    [["drift"], "fail-on-alert", /exit 1 when/],
  ];
  for (const [args, flag, meaning] of cases) {
    const r = await capture(() => main(["help", ...args]));
    assert.equal(r.code, 0);
    const text = r.stdout.replace(/\s+/g, " ");
    const at = text.indexOf(` --${flag} `, text.indexOf("Options"));
    assert.ok(at > 0, `${args[0]} --${flag}`);
    assert.match(text.slice(at, at + 400), meaning, `${args[0]} --${flag}`);
  }
});

Deno.test("lossbook help <command> prints that command's help, the same as <command> --help", async () => {
  for (const [name, c] of Object.entries(COMMANDS)) {
    const a = await capture(() => main(["help", name]));
    const b = await capture(() => main([name, "-h"]));
    assert.equal(a.code, 0, name);
    assert.equal(a.stdout, b.stdout, name);
    assert.equal(a.stdout, formatHelp(c) + "\n", name);
  }
  const score = await capture(() => main(["help", "score"]));
  assert.match(score.stdout, /^Score a run export/);
  assert.doesNotMatch(score.stdout, /^Commands:/m);
});

Deno.test("lossbook help and --help list every command on one line each; help of an unknown command exits 2", async () => {
  for (const args of [["help"], ["--help"]]) {
    const r = await capture(() => main(args));
    assert.equal(r.code, 0);
    const lines = r.stdout.split("\n");
    for (const [name, c] of Object.entries(COMMANDS)) {
      assert.equal(
        lines.filter((l) => l.startsWith(`  ${name} `) && l.endsWith(c.summary))
          .length,
        1,
        name,
      );
    }
  }
  const r = await capture(() => main(["help", "frobnicate"]));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^lossbook help: unknown command "frobnicate"/);
});

Deno.test("deno task reproduce --help prints the same help as lossbook help reproduce", async () => {
  const a = await capture(() => reproduceMain(["--help"]));
  const b = await capture(() => main(["help", "reproduce"]));
  assert.equal(a.code, 0);
  assert.equal(a.stdout, b.stdout);
  const unknown = await capture(() => reproduceMain([PROBE]));
  assert.equal(unknown.code, 2);
});
