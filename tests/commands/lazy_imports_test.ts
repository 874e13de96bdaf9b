// The CLI loads what the command it runs needs: the static import graph from
// cli.ts and the module of `score`, `sweep` or `profiles` (the one cli.ts
// imports for that command) reaches none of the heavy libraries, which load
// by dynamic import only for the formats, engines and outputs that use them.
import assert from "node:assert/strict";
import { COMMAND_NAMES, COMMANDS, loadCommand } from "../../cli.ts";

const ROOT = new URL("../../", import.meta.url);

/** Libraries that must not load before a JSONL run needs them (none does). */
const HEAVY = [
  "arquero",
  "@uwdata/flechette",
  "vega",
  "vega-lite",
  "yaml",
  "@duckdb/node-api",
  "postgres",
  "@resvg/resvg-js",
  "playwright-core",
];

interface InfoModule {
  specifier: string;
  dependencies?: Array<{
    specifier: string;
    code?: { specifier: string };
    isDynamic?: boolean;
  }>;
}

interface Graph {
  /** Static (non-dynamic, non-type) edges, by module. */
  statics: Map<string, string[]>;
  /** Dynamic-import edges, by module. */
  dynamics: Map<string, string[]>;
}

/** The import graph of cli.ts as `deno info --json` reports it. */
async function cliGraph(): Promise<Graph> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "cli.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: InfoModule[];
    redirects?: Record<string, string>;
  };
  const redirects = info.redirects ?? {};
  const statics = new Map<string, string[]>();
  const dynamics = new Map<string, string[]>();
  for (const m of info.modules) {
    for (const d of m.dependencies ?? []) {
      if (d.code === undefined) continue; // a type-only import
      const to = redirects[d.code.specifier] ?? d.code.specifier;
      const edges = d.isDynamic ? dynamics : statics;
      edges.set(m.specifier, [...(edges.get(m.specifier) ?? []), to]);
    }
  }
  return { statics, dynamics };
}

/** Every module statically reachable from `roots`, with the module that first imported it. */
function reach(graph: Graph, roots: string[]): Map<string, string | null> {
  const from = new Map<string, string | null>(roots.map((r) => [r, null]));
  const queue = [...roots];
  while (queue.length > 0) {
    const m = queue.shift()!;
    for (const to of graph.statics.get(m) ?? []) {
      if (!from.has(to)) {
        from.set(to, m);
        queue.push(to);
      }
    }
  }
  return from;
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

const graph = await cliGraph();
const cli = new URL("cli.ts", ROOT).href;

for (const command of ["score", "sweep", "profiles"]) {
  Deno.test(`running '${command}' statically loads none of ${HEAVY.join(", ")}`, () => {
    const module = new URL(`commands/${command}.ts`, ROOT).href;
    assert.ok(
      (graph.dynamics.get(cli) ?? []).includes(module),
      `cli.ts imports ${module} dynamically`,
    );
    const from = reach(graph, [cli, module]);
    const heavy = [...from.keys()].filter((m) =>
      HEAVY.includes(npmPackage(m) ?? "")
    );
    assert.deepEqual(heavy.map((m) => chain(from, m)), []);
  });
}

Deno.test("cli.ts alone statically loads no command module and not the registry", () => {
  const from = reach(graph, [cli]);
  const commands = [...from.keys()].filter((m) =>
    /\/commands\/([a-z][a-z_]*|_registry|_reproduce_command)\.ts$/.test(m)
  );
  assert.deepEqual(commands.map((m) => chain(from, m)), []);
});

Deno.test("the graph walk sees a heavy library where one is statically imported", () => {
  // the registry imports every command, among them reproduce's charts (vega)
  const from = reach(graph, [new URL("commands/_registry.ts", ROOT).href]);
  const found = new Set([...from.keys()].map(npmPackage));
  for (const p of ["arquero", "vega", "yaml"]) assert.ok(found.has(p), p);
});

Deno.test("cli.ts loads each command by itself as the registry lists it, in the same order", async () => {
  assert.deepEqual([...COMMAND_NAMES], Object.keys(COMMANDS));
  for (const name of COMMAND_NAMES) {
    assert.equal(await loadCommand(name), COMMANDS[name], name);
  }
  assert.equal(await loadCommand("__proto__"), undefined);
});
