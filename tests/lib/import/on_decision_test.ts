// onDecision: every importer hands each decision over as it is made, in the
// order it returns them without one, and then returns none itself.
import assert from "node:assert/strict";
import type { Decision } from "../../../lib/decision/decision.ts";
import {
  type HarnessFormat,
  harnessImporter,
} from "../../../lib/import/harness.ts";

const LOGS: ReadonlyArray<readonly [HarnessFormat, string, object]> = [
  ["inspect", "data/examples/harness/inspect_qwen.eval", {}],
  ["inspect", "tests/fixtures/inspect/qwen_chunked.eval", {}],
  ["inspect", "data/examples/harness/inspect_sonnet.json", {}],
  [
    "lm-eval",
    "data/examples/harness/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl",
    {},
  ],
  ["helm", "data/examples/harness/helm/recon_model_example_recon-7b", {}],
  ["promptfoo", "data/examples/harness/promptfoo_results.json", {
    correct: ["equals"],
  }],
];

for (const [format, path, extra] of LOGS) {
  Deno.test(`${format} ${path.split("/").at(-1)}: onDecision takes the decisions the import returns without it, in order`, async () => {
    const options = { severityOf: () => "HIGH" as const, ...extra };
    const importer = harnessImporter(format);
    const whole = await importer.import(path, options);
    const given: Decision[] = [];
    const streamed = await importer.import(path, {
      ...options,
      onDecision: (d) => given.push(d),
    });
    assert.ok(whole.decisions.length > 0);
    assert.deepEqual(given, whole.decisions);
    assert.deepEqual(streamed, { ...whole, decisions: [] });
  });
}
