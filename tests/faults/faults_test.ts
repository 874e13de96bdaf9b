import assert from "node:assert/strict";
import { runCase, writeCorpus } from "./_corpus.ts";
import { QUICK, runFaultSuite } from "./run_faults.ts";
import { tempDir } from "../_helpers.ts";

Deno.test("every input of the malformed-input corpus is refused or accepted as stated", async () => {
  const cases = await writeCorpus(await tempDir());
  assert.ok(cases.length >= 60, `${cases.length} cases`);
  const wrong = [];
  for (const c of cases) {
    const r = await runCase(c);
    if (!r.ok) wrong.push(`${r.name}: ${r.why}`);
  }
  assert.deepEqual(wrong, []);
});

Deno.test("the fault suite's quick run holds: concurrent appenders, kill -9 and recovery, torn tails, a killed lock holder", async () => {
  const { ok, failures, lines } = await runFaultSuite(QUICK);
  assert.deepEqual(failures, []);
  assert.ok(ok);
  assert.match(lines.at(-1)!, /^crash trials: (\d+), recovered: \1$/);
});
