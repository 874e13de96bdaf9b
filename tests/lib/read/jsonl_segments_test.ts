// A JSONL file read by workers in segments gives what one thread gives:
// the same counts and the same exact sums, to the last bit (so identical
// from run to run, whatever the number of workers), and for a file with a
// problem, the one-thread reader's error, word for word.
import assert from "node:assert/strict";
import fc from "fast-check";
import { jsonlStatsFile } from "../../../lib/read/jsonl_stats.ts";
import {
  parallelJsonlStats,
  segmentBounds,
} from "../../../lib/read/_jsonl_segments.ts";
import { decision, tempFile } from "../../_helpers.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { SEVERITIES } from "../../../lib/costs/severity.ts";

function lines(
  n: number,
  patch: (i: number) => Partial<Decision> = () => ({}),
) {
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify(decision({
      modelId: i % 3 === 0 ? "small" : "frontier",
      taskId: `task-${i}`,
      severity: SEVERITIES[i % 4],
      predClass: i % 7 === 0 ? "AMOUNT_MISMATCH" : "MATCH",
      pCorrect: i % 11 === 0 ? null : (i % 1000) / 1000,
      ...patch(i),
    })));
}

async function both(path: string, workers: number, segmentBytes: number) {
  const one = await jsonlStatsFile(path, { workers: 1 });
  const many = await jsonlStatsFile(path, { workers, segmentBytes });
  return { one, many };
}

Deno.test("workers reading 4 KiB segments give one thread's counts and sums, and the same bytes at 2, 3 and 5 workers", async () => {
  const path = await tempFile("seg.jsonl", lines(400).join("\n") + "\n");
  let first: string | null = null;
  for (const workers of [2, 3, 5]) {
    const { one, many } = await both(path, workers, 4096);
    // the workers read it (no fallback to one thread)
    const size = (await Deno.stat(path)).size;
    assert.deepEqual(
      await parallelJsonlStats(path, size, { workers, segmentBytes: 4096 }),
      many,
    );
    assert.equal(many.decisions, one.decisions);
    assert.equal(many.stats.length, one.stats.length);
    assert.deepEqual(many.stats, one.stats);
    const text = JSON.stringify(many);
    first ??= text;
    assert.equal(text, first, `${workers} workers`);
  }
});

Deno.test("a duplicate decision in another segment, a bad line, unusual lines and repeated trials all come out as one thread reads them", async () => {
  const base = lines(200);
  const cases: Array<[string, string[]]> = [
    ["duplicate across segments", [...base, base[3]]],
    ["bad line late", [...base.slice(0, 150), '{"runId":', ...base.slice(150)]],
    ["unknown key", [
      ...base.slice(0, 120),
      base[120].replace('"runId"', '"extra":1,"runId"'),
      ...base.slice(121),
    ]],
    [
      "escapes and unicode",
      base.map((l, i) =>
        i % 9 === 0
          ? l.replace('"task-', '"t\\u00e2sk-')
          : i % 13 === 0
          ? l.replace('"task-', '"日-')
          : l
      ),
    ],
    ["repeated trials", [...base, ...lines(200, () => ({ trial: 1 }))]],
    [
      "blank lines and CRLF",
      base.map((l, i) => i % 17 === 0 ? `\r\n  ${l}\r` : l),
    ],
  ];
  // which of them the workers read, and which go to one thread
  const byWorkers: Record<string, boolean> = {};
  for (const [name, text] of cases) {
    const path = await tempFile("seg.jsonl", text.join("\n"));
    const size = (await Deno.stat(path)).size;
    byWorkers[name] = await parallelJsonlStats(path, size, {
      workers: 2,
      segmentBytes: 2048,
    }) !== null;
    let one: unknown;
    try {
      one = await jsonlStatsFile(path, { workers: 1 });
    } catch (error) {
      await assert.rejects(
        () => jsonlStatsFile(path, { workers: 2, segmentBytes: 2048 }),
        (e: Error) => {
          assert.equal(e.message, (error as Error).message, name);
          return true;
        },
      );
      continue;
    }
    const many = await jsonlStatsFile(path, { workers: 2, segmentBytes: 2048 });
    assert.equal(many.decisions, (one as typeof many).decisions, name);
    assert.deepEqual(many.stats, (one as typeof many).stats, name);
  }
  assert.deepEqual(byWorkers, {
    "duplicate across segments": false,
    "bad line late": false,
    "unknown key": false,
    "escapes and unicode": true,
    "repeated trials": false,
    "blank lines and CRLF": true,
  });
});

Deno.test("segment bounds are line starts, increase, cover the file, and skip lines longer than a segment (property, seed 73)", async () => {
  const path = await tempFile("bounds.jsonl", "");
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.nat(300), { minLength: 1, maxLength: 40 }),
      fc.integer({ min: 1, max: 400 }),
      async (lengths, segment) => {
        const text = lengths.map((n) => "x".repeat(n)).join("\n");
        await Deno.writeTextFile(path, text);
        const size = text.length;
        const bounds = await segmentBounds(path, size, segment);
        assert.equal(bounds[0], 0);
        assert.equal(bounds.at(-1), size);
        for (let i = 1; i < bounds.length; i++) {
          assert.ok(bounds[i] > bounds[i - 1]);
          if (i < bounds.length - 1) assert.equal(text[bounds[i] - 1], "\n");
        }
        // every segment but the last starts within one line of its target
        for (let i = 1; i < bounds.length - 1; i++) {
          const before = text.lastIndexOf("\n", bounds[i] - 2) + 1;
          assert.ok(bounds[i] >= segment * Math.floor(before / segment));
        }
        assert.deepEqual(await segmentBounds(path, size, segment), bounds);
      },
    ),
    { seed: 73, numRuns: 200 },
  );
});

Deno.test("with the key check spilled to disk (4 keys in memory), one thread and workers give the same statistics, and the first problem of a file is named as with every key in memory", async () => {
  const base = lines(300);
  const bad = '{"runId":"r"}';
  const cases: Array<[string, string[]]> = [
    ["clean", base],
    ["a repeat, nothing else", [
      ...base.slice(0, 200),
      base[7],
      ...base.slice(200),
    ]],
    ["a repeat, then a bad line", [
      ...base.slice(0, 100),
      base[7],
      ...base.slice(100, 250),
      bad,
      ...base.slice(250),
    ]],
    ["a bad line, then a repeat", [
      ...base.slice(0, 100),
      bad,
      ...base.slice(100, 250),
      base[7],
    ]],
  ];
  for (const [name, text] of cases) {
    const path = await tempFile("spill.jsonl", text.join("\n"));
    const read = (o: Parameters<typeof jsonlStatsFile>[1]) =>
      jsonlStatsFile(path, o).then((r) => r, (e: Error) => e.message);
    const want = await read({ workers: 1 });
    assert.deepEqual(await read({ workers: 1, memoryKeys: 4 }), want, name);
    const many = await read({ workers: 2, segmentBytes: 4096, memoryKeys: 4 });
    if (typeof want === "string") assert.equal(many, want, name);
    else {
      assert.equal(typeof many, "object", name);
      assert.deepEqual(
        (many as typeof want).stats.map((r) => r.n),
        want.stats.map((r) => r.n),
      );
    }
    if (name !== "clean") assert.equal(typeof want, "string", name);
  }
  assert.match(
    String(
      await jsonlStatsFile(
        await tempFile("s.jsonl", [...base, base[7]].join("\n")),
        { workers: 1, memoryKeys: 4 },
      ).catch((e) => e.message),
    ),
    /line 301: duplicate decision for runId "r1", modelId "frontier", taskId "task-7", trial 0 \(first on line 8\)/,
  );
});
