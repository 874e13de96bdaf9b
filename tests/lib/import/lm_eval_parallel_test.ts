// A large lm-eval samples file is read by workers, segment by segment; the
// result, and every error, must be the one-thread reader's. Segments of a
// few hundred bytes put many segments, and their edges, in a small file.
import assert from "node:assert/strict";
import { readLmEvalSamples } from "../../../lib/import/lm_eval.ts";
import {
  clusterResolver,
  severityResolver,
} from "../../../lib/import/mapping.ts";
import type { HarnessImportResult } from "../../../lib/import/harness.ts";
import { tempDir } from "../../_helpers.ts";

const EXAMPLE = "data/examples/harness/lm_eval";
const NAME = "samples_recon_mc_2026-11-30T10-00-00.000000.jsonl";
const RESULTS = "results_2026-11-30T10-00-00.000000.json";
const PARALLEL = { segmentBytes: 700, workers: 3 };
const ONE_THREAD = { workers: 1 };

const exampleLines = (await Deno.readTextFile(`${EXAMPLE}/${NAME}`))
  .split("\n").filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as Record<string, unknown>);

// `n` lines made from the example's, doc_ids 0..n-1, each with a source
// document for --cluster; with blank lines, a CRLF and non-ASCII text
function samples(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const s = structuredClone(exampleLines[i % exampleLines.length]);
    s.doc_id = i;
    const doc = s.doc as Record<string, unknown>;
    doc.source = `src-${i % 7}`;
    doc.note = i % 5 === 0 ? "Überweisung – 12 €" : "plain";
    return JSON.stringify(s);
  });
}

async function writeLog(
  lines: readonly string[],
  join = (ls: readonly string[]) =>
    ls.map((l, i) => (i % 9 === 4 ? `${l}\r\n\n` : `${l}\n`)).join(""),
): Promise<string> {
  const dir = await tempDir("lossbook-lm-parallel-");
  await Deno.copyFile(`${EXAMPLE}/${RESULTS}`, `${dir}/${RESULTS}`);
  await Deno.writeTextFile(`${dir}/${NAME}`, join(lines));
  return `${dir}/${NAME}`;
}

const bySeverity = {
  severityOf: severityResolver({ kind: "field", path: ["doc", "severity"] }),
};

async function both(
  path: string,
  options: Parameters<typeof readLmEvalSamples>[1],
): Promise<[HarnessImportResult, HarnessImportResult]> {
  return [
    await readLmEvalSamples(path, options, PARALLEL),
    await readLmEvalSamples(path, options, ONE_THREAD),
  ];
}

// the error each reader throws, as text
async function failure(
  path: string,
  options: Parameters<typeof readLmEvalSamples>[1],
  parallel: typeof PARALLEL | typeof ONE_THREAD,
): Promise<string> {
  try {
    await readLmEvalSamples(path, options, parallel);
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
  return "no error";
}

async function sameFailure(
  path: string,
  options: Parameters<typeof readLmEvalSamples>[1],
  expected: RegExp,
): Promise<void> {
  const one = await failure(path, options, ONE_THREAD);
  assert.match(one, expected);
  assert.equal(await failure(path, options, PARALLEL), one);
}

Deno.test("a samples file read by workers gives the one-thread reader's decisions, notes and messages", async () => {
  const path = await writeLog(samples(300));
  assert.ok((await Deno.stat(path)).size > 100 * PARALLEL.segmentBytes);
  const [parallel, one] = await both(path, bySeverity);
  assert.equal(one.decisions.length, 300);
  assert.deepEqual(parallel, one);
  // one worker beside the reading thread
  assert.deepEqual(
    await readLmEvalSamples(path, bySeverity, { ...PARALLEL, workers: 2 }),
    one,
  );
});

Deno.test("workers read the values a severity map key and a cluster path need, and nothing is lost at segment edges", async () => {
  const path = await writeLog(samples(240));
  const options = {
    severityOf: severityResolver({
      kind: "map",
      file: "m.csv",
      map: new Map([
        ["src-0", "LOW"],
        ["src-1", "MEDIUM"],
        ["src-2", "HIGH"],
        [
          "src-3",
          "CRITICAL",
        ],
        ["src-4", "LOW"],
        ["src-5", "MEDIUM"],
        ["src-6", "HIGH"],
      ]),
      keyPath: ["doc", "source"],
    }),
    // a path inside the other's value, and one beside it
    clusterOf: clusterResolver("doc.source"),
  };
  const [parallel, one] = await both(path, options);
  assert.deepEqual(parallel, one);
  assert.deepEqual(
    new Set(one.decisions.map((d) => d.cluster)),
    new Set(["src-0", "src-1", "src-2", "src-3", "src-4", "src-5", "src-6"]),
  );
});

Deno.test("a resolver that does not name the paths it reads is given whole samples, in one thread", async () => {
  const path = await writeLog(samples(120));
  const options = {
    severityOf: (item: { record: unknown }) =>
      (item.record as { arguments?: unknown }).arguments === undefined
        ? "LOW" as const
        : "HIGH" as const,
  };
  const [parallel, one] = await both(path, options);
  assert.deepEqual(parallel, one);
  assert.ok(one.decisions.every((d) => d.severity === "HIGH"));
});

Deno.test("a leading byte order mark is skipped by the workers as by the one-thread reader", async () => {
  const path = await writeLog(
    samples(150),
    (ls) => "\uFEFF" + ls.join("\n") + "\n",
  );
  const [parallel, one] = await both(path, bySeverity);
  assert.deepEqual(parallel, one);
});

Deno.test("every error in a later segment is the one-thread reader's, with its line", async () => {
  const lines = samples(200);
  const at = (i: number, line: string) => lines.with(i, line);
  // not JSON
  await sameFailure(
    await writeLog(at(150, lines[150].slice(0, -1))),
    bySeverity,
    /line 1[5-9]\d/,
  );
  // a doc_id that repeats one many segments before it
  await sameFailure(
    await writeLog(at(170, lines[3])),
    bySeverity,
    /doc_id repeats line/,
  );
  // a metric that is not 0/1 (its error waits for the filter check)
  const bad = JSON.parse(lines[120]);
  bad.acc = 0.5;
  await sameFailure(
    await writeLog(at(120, JSON.stringify(bad))),
    bySeverity,
    /acc/,
  );
  // a severity the resolver refuses, found on the reading thread
  const unknown = JSON.parse(lines[180]);
  unknown.doc.severity = "SEVERE";
  await sameFailure(
    await writeLog(at(180, JSON.stringify(unknown))),
    bySeverity,
    /SEVERE/,
  );
  // invalid UTF-8: its line and byte
  const path = await writeLog(lines);
  const bytes = await Deno.readFile(path);
  const cut = bytes.length - 5000;
  const where = bytes.indexOf(0x22, cut); // a quote inside a late line
  bytes[where + 1] = 0xff;
  await Deno.writeFile(path, bytes);
  await sameFailure(path, bySeverity, /not valid UTF-8 at byte \d+ \(0xff\)/);
});

Deno.test("a second filter in a later segment is refused as by the one-thread reader, and read with --filter", async () => {
  const lines = samples(200);
  const other = JSON.parse(lines[160]);
  other.filter = "strict";
  other.doc_id = 1000;
  const path = await writeLog([...lines, JSON.stringify(other)]);
  await sameFailure(path, bySeverity, /appears once per filter/);
  const [parallel, one] = await both(path, { ...bySeverity, filter: "none" });
  assert.deepEqual(parallel, one);
  assert.equal(one.decisions.length, 200);
});

Deno.test("the workers read every line of a clean file themselves, and stop at a segment with a failing line", async () => {
  const { readSamplesInParallel } = await import(
    "../../../lib/import/_lm_eval_parallel.ts"
  );
  const context = { metric: undefined, outputType: null, targetDelimiter: " " };
  const read = async (lines: readonly string[]) => {
    const path = await writeLog(lines, (ls) => ls.join("\n") + "\n");
    const got: number[] = [];
    const rest = await readSamplesInParallel(
      { path, where: path, context, paths: [["doc", "severity"]] },
      (await Deno.stat(path)).size,
      (line, scored) => {
        assert.deepEqual(Object.keys(line.sample), ["doc"]);
        assert.equal(typeof scored.correct, "boolean");
        got.push(line.no);
      },
      PARALLEL,
    );
    return { rest, got };
  };
  const lines = samples(200);
  const clean = await read(lines);
  assert.equal(clean.rest, null);
  assert.deepEqual(clean.got, lines.map((_, i) => i + 1));
  const broken = await read(lines.with(150, "{"));
  assert.ok(broken.rest !== null && broken.rest.start > 0);
  // the lines before the failing segment, in order, and none after it
  assert.ok(broken.got.length <= 150);
  assert.deepEqual(broken.got, broken.got.map((_, i) => i + 1));
  assert.equal(broken.rest.linesBefore, broken.got.length);
});

Deno.test("the first failing line in file order gives the error, invalid UTF-8 among them, in one thread as with workers", async () => {
  const lines = samples(200);
  const path = await writeLog(
    lines.with(2, "{"),
    (ls) => ls.join("\n") + "\n",
  );
  // invalid UTF-8 in line 31, in the same 1 MiB as line 3
  const bytes = await Deno.readFile(path);
  let at = 0;
  for (let n = 1; n < 31; n++) at = bytes.indexOf(10, at) + 1;
  bytes[bytes.indexOf(0x22, at) + 1] = 0xff;
  await Deno.writeFile(path, bytes);
  await sameFailure(path, bySeverity, /line 3: /);
});

Deno.test("a worker of the caller's own that loads lossbook's readers keeps its own message handler", async () => {
  const worker = new Worker(new URL("./_own_worker.ts", import.meta.url), {
    type: "module",
  });
  try {
    const next = () =>
      new Promise<unknown>((resolve, reject) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = (e) => {
          e.preventDefault();
          reject(new Error(e.message));
        };
      });
    let reply = next();
    worker.postMessage("load");
    assert.equal(await reply, "loaded");
    reply = next();
    worker.postMessage("ping");
    assert.equal(await reply, "pong");
  } finally {
    worker.terminate();
  }
});
