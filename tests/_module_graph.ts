// Shared by the tests of what a module loads: its import graph as
// `deno info --json` reports it, and what a walk of it reaches.
import assert from "node:assert/strict";

/** Code edges (static imports and literal dynamic ones; not type-only), by module. */
export type Graph = Map<string, string[]>;

/** The code edges of `root`'s import graph, `root` being a path relative to `cwd`. */
export async function codeGraph(root: string, cwd: URL): Promise<Graph> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", root],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: Array<{
      specifier: string;
      dependencies?: Array<{ code?: { specifier: string } }>;
    }>;
    redirects?: Record<string, string>;
  };
  const redirects = info.redirects ?? {};
  const edges: Graph = new Map();
  for (const m of info.modules) {
    for (const d of m.dependencies ?? []) {
      if (d.code === undefined) continue; // a type-only import
      const to = redirects[d.code.specifier] ?? d.code.specifier;
      edges.set(m.specifier, [...(edges.get(m.specifier) ?? []), to]);
    }
  }
  return edges;
}

/** Every module reachable from `start` in `graph`, with the module that first imported it (`null` for `start`). */
export function reachIn(
  graph: Graph,
  start: string,
): Map<string, string | null> {
  const from = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const m = queue.shift()!;
    for (const to of graph.get(m) ?? []) {
      if (!from.has(to)) {
        from.set(to, m);
        queue.push(to);
      }
    }
  }
  return from;
}
