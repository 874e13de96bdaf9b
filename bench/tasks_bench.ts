// Task generator benchmarks: `deno task bench --only bench-tasks`. Speed is
// reported here and by the runner's tasks group (`deno task bench --only
// tasks`: tasks/s, peak RSS, ratio to a naive in-memory peer); it is never
// asserted in tests.
//
// The large case generates and verifies 1,000,000 reconciliation tasks
// (about 4.6 GiB on disk), streamed with bounded memory; set
// LOSSBOOK_BENCH_TASKS to change the size. Deno runs one warm-up iteration
// even with `warmup: 0`, so it runs twice.
import { generateTasks } from "../lib/tasks/generate.ts";
import { streamTasksJsonl } from "../lib/tasks/load_tasks.ts";
import { checkTask } from "../lib/tasks/verify.ts";
import { writeTasksJsonl } from "../lib/tasks/write_tasks.ts";

const LARGE = Number(Deno.env.get("LOSSBOOK_BENCH_TASKS") ?? 1_000_000);
const dir = await Deno.makeTempDir({ prefix: "lossbook-tasks-bench-" });
const small = `${dir}/small.jsonl`;
await writeTasksJsonl(
  small,
  generateTasks("reconciliation", { seed: 7, n: 10_000 }),
);

async function verifyFile(path: string): Promise<number> {
  let bad = 0;
  for await (const t of streamTasksJsonl(path)) {
    if (checkTask(t).problems.length > 0) bad++;
  }
  if (bad > 0) throw new Error(`${bad} tasks disagree with the verifier`);
  return bad;
}

Deno.bench("generate 10,000 reconciliation tasks, streamed to disk", {
  group: "tasks",
  baseline: true,
}, async () => {
  await writeTasksJsonl(
    `${dir}/gen.jsonl`,
    generateTasks("reconciliation", { seed: 7, n: 10_000 }),
    { force: true },
  );
});

Deno.bench("verify 10,000 reconciliation tasks, streamed from disk", {
  group: "tasks",
}, async () => {
  await verifyFile(small);
});

Deno.bench("generate 10,000 settlement tasks, streamed to disk", {
  group: "tasks",
}, async () => {
  await writeTasksJsonl(
    `${dir}/set.jsonl`,
    generateTasks("settlement", { seed: 7, n: 10_000 }),
    { force: true },
  );
});

Deno.bench(
  `generate + verify ${
    LARGE.toLocaleString("en-US")
  } reconciliation tasks, streamed (bounded memory)`,
  { group: "large", n: 1, warmup: 0 },
  async () => {
    const path = `${dir}/large.jsonl`;
    await writeTasksJsonl(
      path,
      generateTasks("reconciliation", { seed: 7, n: LARGE }),
      { force: true },
    );
    await verifyFile(path);
    await Deno.remove(path);
  },
);

globalThis.addEventListener("unload", () => {
  Deno.removeSync(dir, { recursive: true });
});
