// The package's files and its late-loaded modules. The CLI loads a
// command's module, a format's reader, an engine and a worker's script by a
// specifier Deno cannot read ahead (lib/_late_import.ts), so no entry point
// reaches them by an import unless late_modules.ts imports them; and
// `deno publish` errs on an excluded module only when the graph reaches it.
// So every late-loaded module is found here in the source itself (each
// relative `.ts` path written as a string in code, outside import and
// export declarations and comments: `new URL("…", import.meta.url)`,
// `later("…")`, `commandIn("…", …)`), and must be imported by
// late_modules.ts, reachable by code imports from an entry point in
// deno.json `exports`, and among the files `deno publish` would ship.
import assert from "node:assert/strict";
import {
  EXPECTED_WARNING,
  parseDryRun,
  publishDryRun,
  unexpectedProblems,
} from "../scripts/check_publish.ts";
import { codeGraph, reachIn } from "./_module_graph.ts";

const ROOT = new URL("../", import.meta.url);

/**
 * The modules a source file names as strings in its code: each relative
 * `.ts` path in quotes, outside comment lines and import or export
 * declarations, resolved against the file.
 */
function lateTargets(source: string, file: URL): string[] {
  const code = source.split("\n")
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join("\n");
  const found: string[] = [];
  for (const m of code.matchAll(/(["'])(\.\.?\/[^"'\s]+\.ts)\1/g)) {
    const before = code.slice(0, m.index).trimEnd();
    if (/\b(from|import|export)$/.test(before)) continue; // a static import
    found.push(new URL(m[2], file).href);
  }
  return found;
}

/** Modules that loading `entry` loads, by static and literal dynamic imports (not type-only ones). */
async function codeReach(entry: string): Promise<Set<string>> {
  const graph = await codeGraph(entry, ROOT);
  return new Set(reachIn(graph, new URL(entry, ROOT).href).keys());
}

/** The modules late_modules.ts imports itself. */
async function listedLate(): Promise<Set<string>> {
  const graph = await codeGraph("late_modules.ts", ROOT);
  return new Set(graph.get(new URL("late_modules.ts", ROOT).href) ?? []);
}

const config = JSON.parse(
  await Deno.readTextFile(new URL("deno.json", ROOT)),
) as { exports: Record<string, string> };
const ENTRIES = Object.values(config.exports);

const dryRun = await publishDryRun(ROOT);
const published = new Set(dryRun.files);
const rel = (href: string) => href.slice(ROOT.href.length);

/** Every late-loaded module of the published source, with the files that name it. */
const late = new Map<string, string[]>();
for (const file of dryRun.files.filter((f) => f.endsWith(".ts"))) {
  const url = new URL(file, ROOT);
  for (const target of lateTargets(await Deno.readTextFile(url), url)) {
    late.set(target, [...(late.get(target) ?? []), file]);
  }
}

Deno.test("lateTargets() finds a module named in code by new URL, a helper or a command table, and not a static import or a comment", () => {
  const file = new URL("lib/read/x.ts", ROOT);
  const source = `import { a } from "./static.ts";
import "./side_effect.ts";
export * from "./re_export.ts";
// later("./in_a_comment.ts")
 * import { b } from "./in_a_doc_example.ts";
const url = new URL("./_worker.ts", import.meta.url);
const { c } = await later<typeof import("../sql/engine.ts")>(
  "../sql/engine.ts",
);
const table = { score: commandIn("../../commands/score.ts", "scoreCommand") };`;
  assert.deepEqual(lateTargets(source, file).map(rel), [
    "lib/read/_worker.ts",
    "lib/sql/engine.ts",
    "lib/sql/engine.ts",
    "commands/score.ts",
  ]);
});

Deno.test("the source's late-loaded modules include the command modules, the registry, the format readers, the engines and the JSONL worker", () => {
  const found = new Set([...late.keys()].map(rel));
  for (
    const m of [
      "commands/score.ts",
      "commands/_registry.ts",
      "lib/read/arrow.ts",
      "lib/read/parquet.ts",
      "lib/sql/duckdb_stats.ts",
      "lib/sql/postgres_stats.ts",
      "lib/read/_jsonl_segment_worker.ts",
    ]
  ) assert.ok(found.has(m), m);
});

Deno.test("deno publish --dry-run succeeds with no error and no warning but the late import's", () => {
  assert.equal(dryRun.code, 0, dryRun.output);
  assert.deepEqual(unexpectedProblems(dryRun.problems), []);
  assert.ok(published.has("deno.json") && published.has("LICENSE"));
});

Deno.test("every late-loaded module is imported by late_modules.ts", async () => {
  const listed = await listedLate();
  const missing = [...late].filter(([m]) => !listed.has(m))
    .map(([m, by]) => `${rel(m)} (loaded late by ${by.join(", ")})`);
  assert.deepEqual(missing, []);
});

Deno.test("every late-loaded module is reachable by code imports from an entry point in deno.json exports", async () => {
  const reach = new Set<string>();
  for (const entry of ENTRIES) {
    for (const m of await codeReach(entry)) reach.add(m);
  }
  const unreached = [...late.keys()].filter((m) => !reach.has(m)).map(rel);
  assert.deepEqual(unreached, []);
});

Deno.test("every late-loaded module is among the published files", () => {
  const excluded = [...late.keys()].map(rel).filter((m) => !published.has(m));
  assert.deepEqual(excluded, []);
});

Deno.test("late_modules.ts is reached from the ./sql entry, and neither from the root entry nor from the CLI's start-up", async () => {
  const lateModules = new URL("late_modules.ts", ROOT).href;
  assert.ok((await codeReach(config.exports["./sql"])).has(lateModules));
  for (const entry of [config.exports["."], config.exports["./cli"]]) {
    assert.ok(!(await codeReach(entry)).has(lateModules), entry);
  }
});

Deno.test("no test, fixture, benchmark, notebook, script or CI file is published", () => {
  const shipped = dryRun.files.filter((f) =>
    /^(tests|bench|browser|notebooks|scripts|out|node_modules|\.ci)\//.test(f)
  );
  assert.deepEqual(shipped, []);
  for (
    const f of ["mod.ts", "cli.ts", "late_modules.ts", "data/registry.json"]
  ) {
    assert.ok(published.has(f), f);
  }
});

Deno.test("parseDryRun() reads a dry run's problems with their files, and its file list", () => {
  const root = new URL("file:///pkg/");
  const output = `Checking for slow types in the public API...
error[invalid-path]: package path must not contain invalid characters (found '=')
 --> /pkg/data/a=b/run_spec.json
  = hint: rename or remove the file

warning[${EXPECTED_WARNING.kind}]: unable to analyze dynamic import
  --> /pkg/${EXPECTED_WARNING.file}:25:17
   |
25 |   return import(specifier);

warning[unanalyzable-dynamic-import]: unable to analyze dynamic import
  --> /pkg/lib/other.ts:3:9

error: Found 2 problems
Simulating publish of @lossbook/lossbook@0.1.0 with files:
   file:///pkg/mod.ts (17.1KB)
   file:///pkg/LICENSE (1.05KB)
Success Dry run complete`;
  const { files, problems } = parseDryRun(output, root);
  assert.deepEqual(files, ["LICENSE", "mod.ts"]);
  assert.deepEqual(
    problems.map((p) => [p.level, p.kind, p.file]),
    [
      ["error", "invalid-path", "data/a=b/run_spec.json"],
      ["warning", EXPECTED_WARNING.kind, EXPECTED_WARNING.file],
      ["warning", "unanalyzable-dynamic-import", "lib/other.ts"],
    ],
  );
  assert.deepEqual(
    unexpectedProblems(problems).map((p) => p.file),
    ["data/a=b/run_spec.json", "lib/other.ts"],
  );
});
