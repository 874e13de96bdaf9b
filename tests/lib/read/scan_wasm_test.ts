// The WebAssembly reader of JSONL decisions changes nothing but speed: a
// segment read through it gives what the byte scanner alone gives (the same
// cells, keys, lines, first run and trouble; the same exact sums), for generated lines valid and damaged, at any read size; it
// reads the lines of one writer itself (its bytes are checked against its
// source in tests/lib/wasm_bytes_test.ts).
import assert from "node:assert/strict";
import fc from "fast-check";
import { DecisionScan } from "../../../lib/read/_decision_scan.ts";
import {
  readSegment,
  type SegmentResult,
} from "../../../lib/read/_jsonl_segments.ts";
import { WASM_STATUS, WasmScan } from "../../../lib/read/_scan_wasm.ts";
import { KEY_PARTITION_BITS } from "../../../lib/read/_key_partitions.ts";
import { tempFile } from "../../_helpers.ts";
import { line, plainLine, writerLines } from "./_decision_lines.ts";

const encoder = new TextEncoder();

// a segment's result with its keys as sorted (h1, h2) pairs, to compare the
// two readers (the sums of 1 - pCorrect are exact, so compared as they are)
function comparable(r: SegmentResult) {
  const keys: string[] = [];
  const k = r.keys.keys;
  for (let i = 0; i < k.length; i += 2) keys.push(`${k[i]},${k[i + 1]}`);
  return {
    trouble: r.trouble,
    lines: r.lines,
    decisions: r.decisions,
    firstRun: r.firstRun,
    repeatedTasks: r.repeatedTasks,
    cells: r.trouble !== null
      ? []
      : r.cells.toSorted((a, b) => String(a) < String(b) ? -1 : 1),
    keys: r.trouble !== null ? [] : keys.sort(),
  };
}

// every key in the partition its top bits name, the partitions in order
function assertPartitioned(r: SegmentResult) {
  const { keys, starts } = r.keys;
  const parts = 1 << KEY_PARTITION_BITS;
  assert.equal(starts.length, parts + 1);
  assert.equal(starts[0], 0);
  assert.equal(starts[parts], keys.length / 2);
  assert.equal(keys.length, 2 * r.decisions);
  const hi = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 1 : 0;
  for (let p = 0; p < parts; p++) {
    assert.ok(starts[p] <= starts[p + 1]);
    for (let i = starts[p]; i < starts[p + 1]; i++) {
      assert.equal(keys[2 * i + hi] >>> (32 - KEY_PARTITION_BITS), p);
    }
  }
}

// read a file both ways and compare; counts clean and refused files (the
// WebAssembly reader's key log holds `logEntries` keys: a small one is
// emptied into JavaScript often, and does not hold a segment's keys)
async function bothWays(
  path: string,
  lines: string[],
  eol: string,
  bom: boolean,
  chunkSize: number,
  logEntries: number | undefined,
  seen: { clean: number; troubled: number },
) {
  const text = (bom ? "\ufeff" : "") + lines.join(eol) +
    (lines.length % 2 === 0 ? eol : "");
  await Deno.writeTextFile(path, text);
  const size = (await Deno.stat(path)).size;
  const range = { start: 0, end: size };
  const js = await readSegment(path, 0, range, { wasm: false, chunkSize });
  const wasm = await readSegment(path, 0, range, {
    wasm: true,
    chunkSize,
    wasmLogEntries: logEntries,
  });
  if (js.trouble === null) seen.clean++;
  else seen.troubled++;
  assert.deepEqual(comparable(wasm), comparable(js), text);
  if (js.trouble === null) {
    assertPartitioned(js);
    assertPartitioned(wasm);
  }
}

const layout = [
  fc.constantFrom("\n", "\r\n"),
  fc.boolean(),
  fc.integer({ min: 1, max: 4096 }),
  fc.option(fc.integer({ min: 1, max: 8 }), { freq: 2 }),
] as const;

Deno.test("one writer's lines, now and then with a field spelled wrong, read through the WebAssembly reader give what the byte scanner alone gives, at any read size (property, seed 89)", async () => {
  const path = await tempFile("wasm.jsonl", "");
  const seen = { clean: 0, troubled: 0 };
  await fc.assert(
    fc.asyncProperty(
      writerLines(60, 4),
      ...layout,
      (lines, eol, bom, chunkSize, logEntries) =>
        bothWays(
          path,
          lines,
          eol,
          bom,
          chunkSize,
          logEntries ?? undefined,
          seen,
        ),
    ),
    { seed: 89, numRuns: 600 },
  );
  assert.ok(seen.clean > 30 && seen.troubled > 100, JSON.stringify(seen));
});

Deno.test("lines of any layout, valid or not, read through the WebAssembly reader give what the byte scanner alone gives (property, seed 97)", async () => {
  const path = await tempFile("wasm.jsonl", "");
  const seen = { clean: 0, troubled: 0 };
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.oneof({ weight: 3, arbitrary: plainLine }, line), {
        maxLength: 40,
      }),
      ...layout,
      (lines, eol, bom, chunkSize, logEntries) =>
        bothWays(
          path,
          lines,
          eol,
          bom,
          chunkSize,
          logEntries ?? undefined,
          seen,
        ),
    ),
    { seed: 97, numRuns: 200 },
  );
  assert.ok(seen.clean > 30 && seen.troubled > 30, JSON.stringify(seen));
});

Deno.test("the WebAssembly reader reads one writer's lines itself, after the first line of each cell", () => {
  const scan = new DecisionScan();
  const lines = Array.from({ length: 200 }, (_, i) =>
    JSON.stringify({
      runId: "run",
      modelId: i % 2 === 0 ? "frontier" : "small",
      taskId: `t-${i}`,
      trial: 0,
      severity: ["LOW", "MEDIUM", "HIGH", "CRITICAL"][i % 4],
      trueClass: "MATCH",
      predClass: i % 5 === 0 ? "AMOUNT_MISMATCH" : "MATCH",
      parseOk: i % 7 !== 0,
      pCorrect: i % 9 === 0 ? null : (i % 100) / 100,
      action: i % 3 === 0 ? "escalate" : "auto",
      cost: { completeness: "complete", usd: 0.0004 },
      outcome: "resolved",
    }));
  const bytes = encoder.encode(lines.join("\n") + "\n");
  const first = bytes.indexOf(10);
  assert.ok(scan.scan(bytes, 0, first));
  const wasm = new WasmScan();
  wasm.reset();
  assert.ok(wasm.follow(scan));
  wasm.setFirstRun(encoder.encode("run"));
  const buf = wasm.buffer(bytes.length);
  buf.set(bytes);
  let pos = first + 1;
  let read = 0;
  let added = 0;
  for (;;) {
    const status = wasm.run(pos, bytes.length, true);
    pos = wasm.pos;
    read += wasm.lines;
    if (status === WASM_STATUS.done) break;
    assert.equal(status, WASM_STATUS.newCell, `line at ${pos}`);
    assert.ok(wasm.addCell());
    added++;
  }
  assert.equal(read, 199);
  assert.equal(wasm.cells, added);
  // 2 models x 4 severities x 2 predictions x 2 actions at most
  assert.ok(added <= 32);
  let n = 0;
  for (let i = 0; i < wasm.cells; i++) n += wasm.counts(i).n;
  assert.equal(n, 199);
  assert.equal(wasm.repeated, false);
});

Deno.test("the WebAssembly reader reads lines with every optional field itself (counts, an amount, a probability's source or null, texts)", () => {
  const lines = Array.from({ length: 120 }, (_, i) =>
    JSON.stringify({
      runId: "run",
      modelId: "frontier",
      taskId: `t-${i}`,
      trial: 0,
      severity: "HIGH",
      trueClass: "MATCH",
      predClass: "MATCH",
      parseOk: true,
      pCorrect: i % 2 === 0 ? null : 0.5,
      action: "auto",
      cost: i % 3 === 0
        ? { completeness: "unavailable", usd: null }
        : { completeness: "partial", usd: i / 8 },
      outcome: "resolved",
      tokensIn: i,
      tokensOut: 2 * i,
      latencyMs: i * 1.25,
      pCorrectSource: i % 2 === 0 ? null : "stated",
      answer: `a${i}`,
      target: "",
    }));
  const bytes = encoder.encode(lines.join("\n") + "\n");
  const scan = new DecisionScan();
  const first = bytes.indexOf(10);
  assert.ok(scan.scan(bytes, 0, first));
  const wasm = new WasmScan();
  wasm.reset();
  assert.ok(wasm.follow(scan));
  wasm.setFirstRun(encoder.encode("run"));
  wasm.buffer(bytes.length).set(bytes);
  let pos = first + 1;
  let read = 0;
  for (;;) {
    const status = wasm.run(pos, bytes.length, true);
    pos = wasm.pos;
    read += wasm.lines;
    if (status === WASM_STATUS.done) break;
    assert.equal(status, WASM_STATUS.newCell, `line at ${pos}`);
    assert.ok(wasm.addCell());
  }
  assert.equal(read, 119);
  // 59 null probabilities among the lines after the first; the others 0.5
  assert.deepEqual(wasm.counts(0), {
    n: 119,
    pErrorUnits: 30n * 2n ** 53n,
    pMissing: 59,
    parseFailures: 0,
  });
});
