// A field added to the Decision schema (lib/decision/schema.ts) alone is
// read by the JSONL fast path: the byte scanner and the WebAssembly reader
// take their field rules from the schema, so neither is edited. The test
// copies lib/, adds made-up optional fields of existing kinds to the copy's
// schema (a count, an amount, a text, and an enum whose null is a value),
// and checks in a child process that the copy's scanner reads lines with
// them as decisionFromLine does, refuses the same bad values, and that its
// WebAssembly reader reads such lines itself, giving what the scanner gives.
import assert from "node:assert/strict";
import { tempDir } from "../../_helpers.ts";

const ROOT = new URL("../../../", import.meta.url);

const MADE_UP_FIELDS = `
  {
    key: "retries",
    column: "retries",
    rule: { kind: "count" },
    required: false,
    nulls: { reads: "absent" },
    doc: "Made up for a test: retries before the answer.",
  },
  {
    key: "queueMs",
    column: "queueMs",
    rule: { kind: "amount" },
    required: false,
    nulls: { reads: "absent" },
    doc: "Made up for a test: time spent queued.",
  },
  {
    key: "note",
    column: "note",
    rule: { kind: "text" },
    required: false,
    nulls: { reads: "absent" },
    doc: "Made up for a test: a free note.",
  },
  {
    key: "channel",
    column: "channel",
    rule: { kind: "enum", values: ["api", "batch"] },
    required: false,
    nulls: { reads: "value" },
    doc: "Made up for a test: how the request came, or null.",
  },
`;
const ANCHOR = "] as const satisfies readonly DecisionField[];";

async function copyTree(from: URL, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) {
      await copyTree(new URL(`${e.name}/`, from), `${to}/${e.name}`);
    } else if (e.isFile) {
      await Deno.copyFile(new URL(e.name, from), `${to}/${e.name}`);
    }
  }
}

// run in the child, against the copy's lib/
const CHILD = `
import { DecisionScan } from "./lib/read/_decision_scan.ts";
import { decisionFromLine } from "./lib/read/_jsonl_decision.ts";
import { readSegment } from "./lib/read/_jsonl_segments.ts";
import { WASM_STATUS, WasmScan } from "./lib/read/_scan_wasm.ts";

const enc = new TextEncoder();
const base = (i) => ({
  runId: "run", modelId: i % 2 ? "small" : "frontier", taskId: "t-" + i,
  trial: 0, severity: "HIGH", trueClass: "MATCH", predClass: "MATCH",
  parseOk: true, pCorrect: (i % 10) / 10, action: "auto",
  cost: { completeness: "complete", usd: 0.5 }, outcome: "resolved",
});
const made = (i) => ({
  ...base(i), retries: i % 4, queueMs: i * 2.5, note: "n" + i,
  channel: i % 3 === 0 ? null : i % 3 === 1 ? "api" : "batch",
});
const accepts = (line) => {
  try { decisionFromLine(line, "line"); return true; } catch { return false; }
};
const scans = (line) => {
  const b = enc.encode(line);
  return new DecisionScan().scan(b, 0, b.length);
};
const out = {};
// valid lines: both read them
const good = Array.from({ length: 6 }, (_, i) => JSON.stringify(made(i)));
out.good = good.map((l) => [scans(l), accepts(l)]);
// bad values of the made-up fields: neither reads them
const bad = [
  { retries: -1 }, { retries: 1.5 }, { retries: "3" }, { retries: null },
  { queueMs: -2 }, { queueMs: null }, { note: 7 }, { note: null },
  { channel: "mail" }, { channel: 1 },
].map((patch) => JSON.stringify({ ...made(1), ...patch }));
out.bad = bad.map((l) => [scans(l), accepts(l)]);
// a writer's lines: read by the WebAssembly reader, after each new cell's
const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify(made(i)));
const bytes = enc.encode(lines.join("\\n") + "\\n");
const scan = new DecisionScan();
const first = bytes.indexOf(10);
scan.scan(bytes, 0, first);
const wasm = new WasmScan();
wasm.reset();
out.follows = wasm.follow(scan);
wasm.setFirstRun(enc.encode("run"));
wasm.buffer(bytes.length).set(bytes);
let pos = first + 1;
let read = 0;
for (;;) {
  const status = wasm.run(pos, bytes.length, true);
  pos = wasm.pos;
  read += wasm.lines;
  if (status !== WASM_STATUS.newCell) { out.stop = status; break; }
  wasm.addCell();
}
out.wasmLines = read;
// a segment with a bad line, read both ways
const path = await Deno.makeTempFile({ dir: Deno.args[0], suffix: ".jsonl" });
for (const withBad of [false, true]) {
  const text = [...lines.slice(0, 100), ...(withBad ? [bad[0]] : [])];
  await Deno.writeTextFile(path, text.join("\\n") + "\\n");
  const size = (await Deno.stat(path)).size;
  const range = { start: 0, end: size };
  const js = await readSegment(path, 0, range, { wasm: false });
  const ws = await readSegment(path, 0, range, { wasm: true });
  // cells in one order, sums rounded (the two add in different orders)
  const cells = (r) => r.cells.map((c) => c.map((v) =>
    typeof v === "number" ? Math.round(v * 1e9) / 1e9 : v
  ).join()).sort();
  const sums = (r) =>
    JSON.stringify([r.trouble, r.lines, r.decisions, cells(r)]);
  out[withBad ? "segmentWithBad" : "segment"] = {
    same: sums(js) === sums(ws), trouble: js.trouble, decisions: js.decisions,
  };
}
console.log(JSON.stringify(out));
`;

Deno.test("made-up optional fields (a count, an amount, a text, a nullable enum) added to the schema alone are read by the byte scanner and the WebAssembly reader", async () => {
  const dir = await tempDir();
  await copyTree(new URL("lib/", ROOT), `${dir}/lib`);
  await Deno.symlink(new URL("data", ROOT).pathname, `${dir}/data`);
  const schemaPath = `${dir}/lib/decision/schema.ts`;
  const schema = await Deno.readTextFile(schemaPath);
  assert.ok(
    schema.includes(ANCHOR),
    "the schema's field list ends as expected",
  );
  await Deno.writeTextFile(
    schemaPath,
    schema.replace(ANCHOR, `${MADE_UP_FIELDS}${ANCHOR}`),
  );
  await Deno.writeTextFile(`${dir}/child.ts`, CHILD);
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-lock",
      "-A",
      `--config=${new URL("deno.json", ROOT).pathname}`,
      `${dir}/child.ts`,
      dir,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(success, new TextDecoder().decode(stderr));
  const out = JSON.parse(new TextDecoder().decode(stdout));
  assert.deepEqual(out.good, Array(6).fill([true, true]));
  assert.deepEqual(out.bad, Array(10).fill([false, false]));
  assert.equal(out.follows, true);
  assert.equal(out.stop, 0); // done: every line read
  assert.equal(out.wasmLines, 299);
  assert.deepEqual(out.segment, { same: true, trouble: null, decisions: 100 });
  assert.equal(out.segmentWithBad.same, true);
  assert.match(out.segmentWithBad.trouble, /retries/);
});
