// The runner's worker: `deno run -A bench/_child.ts MODULE FN JSON` runs the
// function FN of bench/cases/MODULE.ts's `children` with the arguments JSON
// and prints what it returns as one JSON line. Work that is timed inside a
// process runs here rather than in the runner, so that its peak memory is
// its own and what the runner holds never weighs on it.
import type { Children } from "./_case.ts";

const MODULES: Record<string, () => Promise<{ children: Children }>> = {
  score: () => import("./cases/score.ts"),
  startup: () => import("./cases/startup.ts"),
  keys: () => import("./cases/keys.ts"),
  ledger: () => import("./cases/ledger.ts"),
  policy: () => import("./cases/policy.ts"),
  sweep: () => import("./cases/sweep.ts"),
  tasks: () => import("./cases/tasks.ts"),
  duckdb: () => import("./cases/duckdb.ts"),
};

if (import.meta.main) {
  const [module, fn, json] = Deno.args;
  const load = MODULES[module];
  if (load === undefined) {
    throw new Error(`bench/_child.ts: no module ${module}`);
  }
  const children = (await load()).children;
  const run = children[fn];
  if (run === undefined) {
    throw new Error(
      `bench/_child.ts: bench/cases/${module}.ts has no child ${fn}`,
    );
  }
  console.log(JSON.stringify(await run(JSON.parse(json ?? "{}"))));
}
