// The docs agree with the schema and the commands: docs/formats.md lists
// every Decision field (optional ones marked) and the optional fields' flat
// columns in their order; docs/cli.md's section on the unit names every
// command whose flags take --cluster; docs/method.md has the section the
// messages and help cite.
import assert from "node:assert/strict";
import { COMMANDS } from "../../../cli.ts";
import { DECISION_FIELDS, keyPath } from "../../../lib/decision/schema.ts";

const read = (path: string) =>
  Deno.readTextFile(new URL(`../../../${path}`, import.meta.url));

Deno.test("docs/formats.md lists every Decision field, the optional ones marked, and the optional columns in the schema's order", async () => {
  const text = await read("docs/formats.md");
  const line = /One line of a run export:\n`\{ ([^}]+) \}`/.exec(text);
  assert.ok(line !== null, "the Decision record's line");
  const want = [
    ...new Map(DECISION_FIELDS.map((f) => {
      const head = keyPath(f.key).head;
      return [head, f.required ? head : `${head}?`];
    })).values(),
  ];
  assert.deepEqual(line[1].split(", "), want);
  const start = text.indexOf("## Decision records: provenance");
  const table = text.slice(start, text.indexOf("\n## ", start + 1));
  const rows = [...table.matchAll(/^\| `(\w+)` +\|/gm)].map((m) => m[1]);
  const optional = DECISION_FIELDS.filter((f) => !f.required).map((f) =>
    f.column
  );
  // the table lists the optional fields added after the first three
  assert.deepEqual(rows, optional.slice(3));
});

Deno.test("docs/cli.md names every command whose flags take --cluster, and docs/method.md has the section the help cites", async () => {
  const cli = await read("docs/cli.md");
  const section = cli.slice(
    cli.indexOf("## The unit: `--cluster`"),
    cli.indexOf("## reproduce"),
  );
  const taking = Object.entries(COMMANDS).filter(([, c]) =>
    c.help.forms.some((f) => "cluster" in (f.options ?? {}))
  ).map(([name]) => name);
  assert.ok(taking.length >= 12, taking.join(", "));
  for (const name of taking) {
    const shown = name === "ledger" ? "ledger append" : name;
    assert.ok(
      section.includes(`\`${shown}\``) || section.includes(shown),
      name,
    );
  }
  const method = await read("docs/method.md");
  assert.match(method, /^### The unit: tasks or clusters$/m);
  // every message that cites it names this section
  assert.match(method, /\*\*Two rules, and nothing silent\.\*\*/);
});
