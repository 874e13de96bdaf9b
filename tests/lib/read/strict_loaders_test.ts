// Every JSON and JSONL loader refuses repeated keys and invalid UTF-8,
// names the file and line, and accepts a leading byte-order mark; the
// closed-schema importers refuse unknown keys unless lenient.
import assert from "node:assert/strict";
import {
  columnFromArray,
  tableFromColumns,
  tableToIPC,
  timestamp,
} from "@uwdata/flechette";
import { parseProfile } from "../../../lib/costs/load.ts";
import { isInputError } from "../../../lib/input_error.ts";
import { parseDecisionsArrow } from "../../../lib/read/arrow.ts";
import { parseLossbenchLedger } from "../../../lib/import/lossbench.ts";
import { parseReconforge } from "../../../lib/import/reconforge.ts";
import { jsonlStats } from "../../../lib/read/jsonl_text_stats.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
  loadDecisionsJsonl,
  parseDecisionsJsonl,
} from "../../../lib/read/load_decisions.ts";
import { decisionsToArrow } from "../../../lib/read/arrow.ts";
import { parseTasksJsonl } from "../../../lib/tasks/load_tasks.ts";
import { decision, tempDir } from "../../_helpers.ts";

const LINE = JSON.stringify(decision());

Deno.test("the JSONL loaders refuse a repeated key, naming the line and the key", () => {
  const twice = LINE.replace(
    '"severity":"HIGH"',
    '"severity":"CRITICAL","severity":"LOW"',
  );
  const text = `${JSON.stringify(decision({ taskId: "t0" }))}\n${twice}\n`;
  for (const load of [parseDecisionsJsonl, jsonlStats]) {
    assert.throws(
      () => load(text, { path: "a.jsonl" }),
      (e: Error) =>
        e instanceof SyntaxError && isInputError(e) &&
        /^Cannot load run export a\.jsonl: line 2: key "severity" appears twice/
          .test(e.message),
    );
  }
  const nested = LINE.replace('"usd":0.001', '"usd":0.001, "usd" :5');
  assert.throws(
    () => parseDecisionsJsonl(nested),
    /line 1: cost: key "usd" appears twice/,
  );
  // a value that merely contains a key marker is not a repeated key
  const marker = JSON.stringify(decision({ taskId: 'a":"b' }));
  assert.equal(parseDecisionsJsonl(marker)[0].taskId, 'a":"b');
});

Deno.test("a JSON profile with a repeated key is refused", () => {
  const text =
    '{"id":"p","version":"1","K":{"LOW":1,"MEDIUM":2,"HIGH":-5,"HIGH":10,"CRITICAL":20},"reviewCost":1,"judgeCost":0,"sources":["s"]}';
  assert.throws(
    () => parseProfile(text, { path: "p.json" }),
    /p\.json: K: key "HIGH" appears twice/,
  );
});

Deno.test("task suites, ReconForge and LossBench refuse repeated keys too", () => {
  assert.throws(
    () => parseTasksJsonl('{"id":"a","id":"b"}\n', { path: "t.jsonl" }),
    /t\.jsonl: line 1: key "id" appears twice/,
  );
  assert.throws(
    () => parseReconforge('{"run":"r","run":"s","n":0,"per_task":[]}'),
    /duplicate key \$\.run/,
  );
  assert.throws(
    () =>
      parseLossbenchLedger(
        '{"seq":1,"seq":2,"chain_hash":"h","prev_hash":"GENESIS","event":{}}\n',
        { probability: "correct" },
      ),
    /line 1: key "seq" appears twice/,
  );
});

Deno.test("loadDecisionsJsonl() refuses invalid UTF-8 with its line and byte, and accepts a leading BOM", async () => {
  const dir = await tempDir();
  const good = new TextEncoder().encode(
    `${JSON.stringify(decision({ taskId: "t0" }))}\n${LINE}\n`,
  );
  const bad = good.slice();
  const at = good.indexOf(10) + 5;
  bad[at] = 0xc3; // a lead byte followed by ASCII
  await Deno.writeFile(`${dir}/bad.jsonl`, bad);
  await assert.rejects(
    () => loadDecisionsJsonl(`${dir}/bad.jsonl`),
    new RegExp(`bad\\.jsonl: line 2: not valid UTF-8 at byte ${at}`),
  );
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...good]);
  await Deno.writeFile(`${dir}/bom.jsonl`, bom);
  assert.equal((await loadDecisionsJsonl(`${dir}/bom.jsonl`)).numRows(), 2);
  const text = "\uFEFF" + new TextDecoder().decode(good);
  assert.equal(parseDecisionsJsonl(text).length, 2);
  assert.equal(jsonlStats(text).decisions, 2);
});

const RF = {
  run: "r",
  n: 1,
  per_task: [{
    task_id: "t1",
    expected: {
      verdict: "EXCEPTION",
      exception_type: "DUPLICATE",
      severity: "LOW",
    },
    predicted: { verdict: "MATCH", exception_type: null, severity: "LOW" },
  }],
};

Deno.test("parseReconforge() refuses a misspelt key, and lists it on request while skipping it", () => {
  const misspelt = {
    ...RF,
    per_task: [{ ...RF.per_task[0], prediction: RF.per_task[0].predicted }],
  };
  assert.throws(
    () => parseReconforge(JSON.stringify(misspelt), { path: "rf.json" }),
    /rf\.json: per_task\[0\] \(task_id "t1"\): unknown field "prediction" \(did you mean "predicted"\?\)/,
  );
  const seen: string[] = [];
  const r = parseReconforge(JSON.stringify(misspelt), {
    path: "rf.json",
    lenient: true,
    onUnknownKeys: (l) => seen.push(l),
  });
  assert.equal(r.decisions.length, 1);
  assert.deepEqual(seen, [
    'Cannot load ReconForge file rf.json: skipped unknown key per_task[]."prediction" (1 time)',
  ]);
});

Deno.test("parseLossbenchLedger() refuses an unknown event key unless lenient", () => {
  const line = JSON.stringify({
    chain_hash: "h",
    event: {
      model_id: "m",
      task_id: "t",
      decision: "ALLOW",
      calibrated_probabilty: 0.9,
      observed_outcome: { severity: "HIGH", error: false, verdict: "MATCH" },
    },
    prev_hash: "GENESIS",
    seq: 1,
  });
  assert.throws(
    () =>
      parseLossbenchLedger(line, { probability: "correct", path: "lb.jsonl" }),
    /lb\.jsonl: line 1: event: unknown key "calibrated_probabilty"/,
  );
  const seen: string[] = [];
  parseLossbenchLedger(line, {
    probability: "correct",
    lenient: true,
    onUnknownKeys: (l) => seen.push(l),
  });
  assert.equal(seen.length, 1);
});

Deno.test("parseDecisionsArrow() refuses a timestamp column as trial", () => {
  const ok = decisionsToArrow(decisionTable([decision()]));
  assert.equal(parseDecisionsArrow(ok).length, 1);
  const cols: Record<string, ReturnType<typeof columnFromArray>> = {};
  const base = decisionTable([decision()]);
  for (const c of DECISION_COLUMNS) {
    const v = base.array(c) as unknown as unknown[];
    cols[c] = c === "trial"
      ? columnFromArray([Date.UTC(2026, 0, 1)], timestamp())
      : columnFromArray(Array.from(v));
  }
  const bytes = tableToIPC(tableFromColumns(cols), { format: "file" })!;
  assert.throws(
    () => parseDecisionsArrow(bytes, { path: "t.arrow" }),
    /t\.arrow: column trial is an Arrow timestamp column/,
  );
});

Deno.test("parseProfile() refuses an unknown key, and in lenient mode lists and skips it but still refuses an unknown severity", async () => {
  const flat = JSON.parse(
    await Deno.readTextFile(
      new URL("../../../data/profiles/flat.json", import.meta.url),
    ),
  );
  const text = JSON.stringify({ ...flat, colour: "blue" });
  assert.throws(() => parseProfile(text, { path: "p.json" }), /colour/);
  const seen: string[] = [];
  const p = parseProfile(text, {
    path: "p.json",
    lenient: true,
    onUnknownKeys: (l) => seen.push(l),
  });
  assert.equal(p.K.HIGH, 1);
  assert.deepEqual(seen, [
    "Cannot load cost profile p.json: skipped unknown key colour",
  ]);
  const badK = JSON.stringify({
    ...flat,
    K: { ...flat.K, SEVERE: flat.K.LOW },
  });
  assert.throws(
    () => parseProfile(badK, { path: "p.json", lenient: true }),
    /K has unknown severity "SEVERE"/,
  );
});
