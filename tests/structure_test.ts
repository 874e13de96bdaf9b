// The layout's rules, checked on the source: an area is a direct subfolder
// of lib/, and the files directly in lib/ form one more area, which imports
// no other; no two areas import each other, directly or around a longer
// cycle (`import type` does not count: it leaves no edge at run time); and
// I/O (file system, processes, workers, databases) lives only in the
// reading, importing, SQL, task-suite and ledger modules.
import assert from "node:assert/strict";

const LIB = new URL("../lib/", import.meta.url);

async function* tsFiles(dir: URL, rel = ""): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) {
      yield* tsFiles(new URL(`${e.name}/`, dir), `${rel}${e.name}/`);
    } else if (e.name.endsWith(".ts")) yield `${rel}${e.name}`;
  }
}

/** The source without comments and string-free of JSDoc examples. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

/** Run-time imports of a file: static imports and re-exports, and `new URL("...ts", import.meta.url)` (lazy loads and workers), not `import type`. */
function runtimeImports(text: string): string[] {
  const src = code(text);
  const out: string[] = [];
  const re =
    /(?:^|[;\n])\s*(import|export)(\s+type\b)?\s*(?:[\w*{][^"']*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
  for (const m of src.matchAll(re)) if (!m[2]) out.push(m[3]);
  for (const m of src.matchAll(/new URL\(\s*["'](\.{1,2}\/[^"']+\.ts)["']/g)) {
    out.push(m[1]);
  }
  return out;
}

function areaOf(path: string): string {
  const i = path.indexOf("/");
  return i < 0 ? "(lib)" : path.slice(0, i);
}

async function areaGraph(): Promise<Map<string, Map<string, string>>> {
  const graph = new Map<string, Map<string, string>>();
  for await (const f of tsFiles(LIB)) {
    const text = await Deno.readTextFile(new URL(f, LIB));
    const from = areaOf(f);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const spec of runtimeImports(text)) {
      const target = new URL(spec, new URL(f, LIB)).href;
      if (!target.startsWith(LIB.href)) continue;
      const to = areaOf(target.slice(LIB.href.length));
      if (to !== from && !graph.get(from)!.has(to)) {
        graph.get(from)!.set(to, `lib/${f} imports ${spec}`);
      }
    }
  }
  return graph;
}

Deno.test("lib/: the files directly in lib/ import no area", async () => {
  const graph = await areaGraph();
  assert.deepEqual([...(graph.get("(lib)") ?? new Map()).values()], []);
});

Deno.test("lib/: no two areas import each other, directly or around a cycle", async () => {
  const graph = await areaGraph();
  // depth-first search for a back edge; report the cycle with the imports behind it
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (a: string) => {
    state.set(a, "open");
    stack.push(a);
    for (const b of graph.get(a)?.keys() ?? []) {
      if (state.get(b) === "open") {
        const cycle = [...stack.slice(stack.indexOf(b)), b];
        cycles.push(
          cycle.slice(0, -1).map((x, i) => graph.get(x)!.get(cycle[i + 1]))
            .join("; "),
        );
      } else if (!state.has(b)) visit(b);
    }
    stack.pop();
    state.set(a, "done");
  };
  for (const a of [...graph.keys()].sort()) if (!state.has(a)) visit(a);
  assert.deepEqual(cycles, []);
});

/** Areas whose modules may do I/O. */
const IO_AREAS = new Set(["read", "import", "sql", "tasks", "ledger"]);
const IO =
  /\bDeno\.(open|readFile|readTextFile|writeFile|writeTextFile|stat|lstat|readDir|mkdir|makeTemp\w*|remove|rename|truncate|Command|fsync|fdatasync|realPath|copyFile|symlink|link)(Sync)?\b|new Worker\(|from ["'](postgres|@duckdb\/node-api)["']/;

Deno.test("lib/: I/O lives only in the reading, importing, SQL, task-suite and ledger modules", async () => {
  const offenders: string[] = [];
  for await (const f of tsFiles(LIB)) {
    if (IO_AREAS.has(areaOf(f))) continue;
    const text = code(await Deno.readTextFile(new URL(f, LIB)));
    const m = text.match(IO);
    if (m) offenders.push(`lib/${f}: ${m[0]}`);
  }
  assert.deepEqual(offenders, []);
});

// Above lib/, three layers: the input and flag layer the API and the CLI
// share (commands/_*.ts), the library functions (api/), and the commands
// (commands/*.ts, each a thin layer over its function). Each imports only
// from below it; lib/ imports none of them.
const ROOT = new URL("../", import.meta.url);

// the command list and the reproduce command are commands, not shared layers
const COMMAND_MODULES = new Set([
  "commands/_registry.ts",
  "commands/_reproduce_command.ts",
]);

function layerOf(rel: string): string | null {
  if (rel.startsWith("lib/")) return "lib";
  if (rel.startsWith("api/")) return "api";
  if (COMMAND_MODULES.has(rel)) return "command";
  if (rel.startsWith("commands/_")) return "shared";
  if (rel.startsWith("commands/")) return "command";
  return null;
}

const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  lib: ["lib"],
  shared: ["lib", "shared"],
  api: ["lib", "shared", "api"],
  command: ["lib", "shared", "api", "command"],
};

Deno.test("lib/, commands/_*.ts, api/ and commands/ import only from their own layer or below", async () => {
  const offenders: string[] = [];
  for (const dir of ["lib/", "api/", "commands/"]) {
    for await (const f of tsFiles(new URL(dir, ROOT))) {
      const rel = `${dir}${f}`;
      const from = layerOf(rel)!;
      const text = await Deno.readTextFile(new URL(rel, ROOT));
      for (const spec of runtimeImports(text)) {
        const target = new URL(spec, new URL(rel, ROOT)).href;
        if (!target.startsWith(ROOT.href)) continue;
        const to = layerOf(target.slice(ROOT.href.length));
        if (to !== null && !MAY_IMPORT[from].includes(to)) {
          offenders.push(`${rel} (${from}) imports ${spec} (${to})`);
        }
      }
    }
  }
  assert.deepEqual(offenders, []);
});
