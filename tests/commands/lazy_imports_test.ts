// The CLI loads what the command it runs needs. Before a program starts,
// Deno loads its static imports and the target of every `import("literal")`
// with all they import; cli.ts loads a command's module later, by a
// specifier Deno cannot read ahead (importLater), and that module's graph is
// loaded then. So what running `score`, `sweep` or `profiles` loads up front
// is the graph of cli.ts plus the graph of the command's module, static and
// literal-dynamic edges alike: it must reach none of the heavy libraries,
// which load through importLater only for the formats, engines and outputs
// that use them.
import assert from "node:assert/strict";
import { COMMAND_NAMES, COMMANDS, loadCommand } from "../../cli.ts";
import { scoreCommand } from "../../commands/score.ts";
import { sweepCommand } from "../../commands/sweep.ts";
import { profilesCommand } from "../../commands/profiles.ts";
import { codeGraph, reachIn } from "../_module_graph.ts";

const ROOT = new URL("../../", import.meta.url);

/** Libraries that must not load before a JSONL run needs them (none does). */
const HEAVY = [
  "arquero",
  "@uwdata/flechette",
  "csv-parse",
  "vega",
  "vega-lite",
  "yaml",
  "@duckdb/node-api",
  "postgres",
  "@resvg/resvg-js",
  "playwright-core",
];

/** Every module that loading `root` loads up front, with the module that first imported it. */
async function reach(root: string): Promise<Map<string, string | null>> {
  return reachIn(await codeGraph(root, ROOT), new URL(root, ROOT).href);
}

/** The npm package a specifier such as `npm:/yaml@2.9.1/dist` names, or null. */
function npmPackage(specifier: string): string | null {
  const m = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)@/.exec(specifier);
  return m === null ? null : m[1];
}

function chain(from: Map<string, string | null>, m: string): string {
  const out: string[] = [];
  for (let at: string | null = m; at !== null; at = from.get(at) ?? null) {
    out.push(at.replace(ROOT.href, ""));
  }
  return out.join(" <- ");
}

const cli = await reach("cli.ts");

function heavyIn(from: Map<string, string | null>): string[] {
  return [...from.keys()].filter((m) => HEAVY.includes(npmPackage(m) ?? ""))
    .map((m) => chain(from, m));
}

const RUN = {
  score: scoreCommand,
  sweep: sweepCommand,
  profiles: profilesCommand,
};
for (const [name, command] of Object.entries(RUN)) {
  Deno.test(`running '${name}' loads none of ${HEAVY.join(", ")} up front`, async () => {
    // the module cli.ts loads for the command is commands/<name>.ts
    assert.equal(await loadCommand(name), command);
    assert.deepEqual(heavyIn(cli), []);
    assert.deepEqual(heavyIn(await reach(`commands/${name}.ts`)), []);
  });
}

/**
 * Libraries a clean JSONL run never needs, which `score` and `sweep` load
 * only when a run does: the schema library, behind the error messages of a
 * line the byte scanner leaves and behind profile files (the shipped
 * profiles are built without it), and the decompressors of inspect's zip
 * logs. Each costs tens of milliseconds of start-up.
 */
const NOT_FOR_CLEAN_JSONL = ["zod", "fflate", "fzstd"];

for (const name of ["score", "sweep"]) {
  Deno.test(`running '${name}' loads none of ${NOT_FOR_CLEAN_JSONL.join(", ")} up front`, async () => {
    const from = await reach(`commands/${name}.ts`);
    const found = [...from.keys()].filter((m) =>
      NOT_FOR_CLEAN_JSONL.includes(npmPackage(m) ?? "")
    ).map((m) => chain(from, m));
    assert.deepEqual(found, []);
    assert.deepEqual(
      [...cli.keys()].filter((m) =>
        NOT_FOR_CLEAN_JSONL.includes(npmPackage(m) ?? "")
      ),
      [],
    );
  });
}

Deno.test("the JSONL reader and its workers load no schema library up front: the byte scanner reads the Decision schema's table, not the zod schema", async () => {
  for (
    const root of [
      "lib/read/jsonl_stats.ts",
      "lib/read/_jsonl_segment_worker.ts",
    ]
  ) {
    const from = await reach(root);
    const found = [...from.keys()].filter((m) =>
      NOT_FOR_CLEAN_JSONL.includes(npmPackage(m) ?? "")
    ).map((m) => chain(from, m));
    assert.deepEqual(found, [], root);
  }
});

Deno.test("the PostgreSQL engine loads no table library, schema library or DuckDB up front (the row reader loads only for a row to refuse)", async () => {
  const from = await reach("lib/sql/postgres_stats.ts");
  const found = [...from.keys()].filter((m) =>
    ["arquero", "@uwdata/flechette", "zod", "@duckdb/node-api"].includes(
      npmPackage(m) ?? "",
    )
  ).map((m) => chain(from, m));
  assert.deepEqual(found, []);
});

Deno.test("cli.ts loads no Node.js module up front: a large JSONL run starts being read before any loads", () => {
  assert.deepEqual(
    [...cli.keys()].filter((m) => m.startsWith("node:")).map((m) =>
      chain(cli, m)
    ),
    [],
  );
});

Deno.test("cli.ts alone loads no command module and not the registry up front", () => {
  const commands = [...cli.keys()].filter((m) =>
    /\/commands\/([a-z][a-z_]*|_registry|_reproduce_command)\.ts$/.test(m)
  );
  assert.deepEqual(commands.map((m) => chain(cli, m)), []);
});

Deno.test("the graph walk sees a heavy library where one is imported", async () => {
  // the registry imports every command, among them reproduce's charts (vega)
  const found = new Set(
    [...(await reach("commands/_registry.ts")).keys()].map(npmPackage),
  );
  for (const p of ["arquero", "vega", "yaml"]) assert.ok(found.has(p), p);
});

Deno.test("cli.ts loads each command by itself as the registry lists it, in the same order", async () => {
  assert.deepEqual([...COMMAND_NAMES], Object.keys(COMMANDS));
  for (const name of COMMAND_NAMES) {
    assert.equal(await loadCommand(name), COMMANDS[name], name);
  }
  assert.equal(await loadCommand("__proto__"), undefined);
});
