// Generating and verifying a reconciliation suite, streamed to disk with
// bounded memory, against a naive peer that builds the whole suite, its
// lines and the file read back in memory first (about 19 KiB per task, so
// it runs at 200,000 tasks and the streaming way is measured at that size
// too). Each run is a worker of its own so its peak RSS is its own; the
// time is the worker's generate + verify.
import {
  type CaseInfo,
  type Children,
  type Group,
  roundsOf,
  rowsOf,
  worker,
} from "../_case.ts";
import { scratch } from "../_cache.ts";
import { maxOrNull, type Result, resultOf, rssSource } from "../_measure.ts";

// bytes on disk a reconciliation task, from earlier runs (4.6 GiB a million)
const BYTES_PER_TASK = 5_000;

interface VariantOut {
  bytes: number;
  generateSeconds: number;
  verifySeconds: number;
  disagreements: number;
}

/** Functions the tasks group runs in a worker. */
export const children: Children = {
  async stream(args: { n: number; path: string }): Promise<VariantOut> {
    const { generateTasks } = await import("../../lib/tasks/generate.ts");
    const { streamTasksJsonl } = await import("../../lib/tasks/load_tasks.ts");
    const { checkTask } = await import("../../lib/tasks/verify.ts");
    const { writeTasksJsonl } = await import("../../lib/tasks/write_tasks.ts");
    const t0 = performance.now();
    const written = await writeTasksJsonl(
      args.path,
      generateTasks("reconciliation", { seed: 7, n: args.n }),
      { force: true },
    );
    const t1 = performance.now();
    let bad = 0;
    for await (const task of streamTasksJsonl(args.path)) {
      if (checkTask(task).problems.length > 0) bad++;
    }
    const t2 = performance.now();
    await Deno.remove(args.path);
    return {
      bytes: written.bytes,
      generateSeconds: (t1 - t0) / 1000,
      verifySeconds: (t2 - t1) / 1000,
      disagreements: bad,
    };
  },
  async naive(args: { n: number; path: string }): Promise<VariantOut> {
    const { generateSuite } = await import("../../lib/tasks/generate.ts");
    const { parseTasksJsonl } = await import("../../lib/tasks/load_tasks.ts");
    const { taskLine } = await import("../../lib/tasks/signature.ts");
    const { checkTask } = await import("../../lib/tasks/verify.ts");
    // everything in memory at each stage: the whole suite, all its lines,
    // then the whole file read back and parsed before any task is checked
    const t0 = performance.now();
    const { tasks } = generateSuite("reconciliation", { seed: 7, n: args.n });
    const enc = new TextEncoder();
    const chunks = tasks.map((t) => enc.encode(taskLine(t) + "\n"));
    let bytes = 0;
    for (const c of chunks) bytes += c.length;
    const all = new Uint8Array(bytes);
    let off = 0;
    for (const c of chunks) {
      all.set(c, off);
      off += c.length;
    }
    await Deno.writeFile(args.path, all);
    const t1 = performance.now();
    const read = await Deno.readFile(args.path);
    const dec = new TextDecoder();
    const parsed = [];
    let start = 0;
    let lineNo = 0;
    while (start < read.length) {
      let end = read.indexOf(10, start);
      if (end < 0) end = read.length;
      lineNo++;
      parsed.push(
        parseTasksJsonl(dec.decode(read.subarray(start, end)), {
          path: `${args.path}:${lineNo}`,
        })[0],
      );
      start = end + 1;
    }
    let bad = 0;
    for (const t of parsed) if (checkTask(t).problems.length > 0) bad++;
    const t2 = performance.now();
    await Deno.remove(args.path);
    return {
      bytes,
      generateSeconds: (t1 - t0) / 1000,
      verifySeconds: (t2 - t1) / 1000,
      disagreements: bad,
    };
  },
};

const CASES: CaseInfo[] = [
  {
    name: "tasks-stream",
    what: "generate + verify reconciliation tasks, streamed to disk",
    rows: 1_000_000,
  },
  {
    name: "tasks-stream-200k",
    what: "the same at the naive peer's size",
    rows: 200_000,
    peers: ["tasks-naive-200k"],
  },
  {
    name: "tasks-naive-200k",
    what: "generate + verify with the whole suite in memory",
    rows: 200_000,
  },
];

/** The task generator group: one worker per run. */
export const tasks: Group = {
  name: "tasks",
  cases: CASES,
  rounds: 1,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    const largest = Math.max(...infos.map((c) => rowsOf(ctx, c)));
    const space = await scratch(
      ctx.cacheDir,
      largest * BYTES_PER_TASK,
      "tasks",
    );
    try {
      const rounds = roundsOf(ctx, tasks);
      const runs = new Map(
        infos.map((
          c,
        ) => [c.name, [] as (VariantOut & { rss: number | null })[]]),
      );
      for (let r = 0; r < rounds; r++) {
        for (const c of infos) {
          const naive = c.name.startsWith("tasks-naive");
          ctx.log(`${c.name}, round ${r + 1} of ${rounds}`);
          const { value, run } = await worker<VariantOut>(
            ctx,
            "tasks",
            naive ? "naive" : "stream",
            { n: rowsOf(ctx, c), path: `${space.dir}/${c.name}.jsonl` },
            // the naive peer holds the whole suite: give it room to finish
            naive ? ["--v8-flags=--max-old-space-size=16384"] : [],
          );
          if (value.disagreements > 0) {
            throw new Error(
              `${c.name}: ${value.disagreements} tasks disagree with the verifier`,
            );
          }
          runs.get(c.name)!.push({ ...value, rss: run.peakRssBytes });
        }
      }
      const source = await rssSource();
      return infos.map((c): Result => {
        const taken = runs.get(c.name)!;
        return resultOf({
          name: c.name,
          what: c.what,
          timing: "in-process",
          rows: rowsOf(ctx, c),
          peakRssBytes: maxOrNull(taken.map((t) => t.rss)),
          rssSource: `${source} (the worker process)`,
          peers: c.peers?.filter((p) => selected.has(p)),
          extra: {
            fileBytes: taken[0].bytes,
            generateSeconds: taken.map((t) => t.generateSeconds),
            verifySeconds: taken.map((t) => t.verifySeconds),
          },
        }, taken.map((t) => t.generateSeconds + t.verifySeconds));
      });
    } finally {
      await space.remove();
    }
  },
};
