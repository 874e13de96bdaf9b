// Every JSONL reader streams: none reads a whole .jsonl file into one
// buffer or string (V8's string limit would then cap the file's size). The
// whole-file readers are replaced, for the test, by ones that refuse any
// .jsonl path; the small JSON and head files beside a ledger or a log may
// still be read whole.
import assert from "node:assert/strict";
import { ledgerCommand } from "../../../commands/ledger.ts";
import { loadLedger } from "../../../lib/ledger/read.ts";
import { loadLmEvalSamples } from "../../../lib/import/lm_eval.ts";
import { loadLossbenchLedger } from "../../../lib/import/lossbench.ts";
import { jsonlStatsFile } from "../../../lib/read/jsonl_stats.ts";
import { readDecisionsJsonl } from "../../../lib/read/load_decisions.ts";
import { readTasksJsonl } from "../../../lib/tasks/load_tasks.ts";
import { tempDir } from "../../_helpers.ts";

type Mutable = {
  -readonly [
    K in "readFile" | "readTextFile" | "readFileSync" | "readTextFileSync"
  ]: typeof Deno[K];
};

/** Run `fn` with Deno's whole-file readers refusing every .jsonl path. */
async function refusingWholeJsonl(fn: () => Promise<void>): Promise<string[]> {
  const d = Deno as unknown as Mutable;
  const saved: Mutable = {
    readFile: d.readFile,
    readTextFile: d.readTextFile,
    readFileSync: d.readFileSync,
    readTextFileSync: d.readTextFileSync,
  };
  const refused: string[] = [];
  const guard = (p: string | URL) => {
    if (String(p).endsWith(".jsonl")) {
      refused.push(String(p));
      throw new Error(`read whole: ${p}`);
    }
  };
  d.readFile = async (p, o) => (guard(p), await saved.readFile(p, o));
  d.readTextFile = async (p, o) => (guard(p), await saved.readTextFile(p, o));
  d.readFileSync = (p) => (guard(p), saved.readFileSync(p));
  d.readTextFileSync = (p) => (guard(p), saved.readTextFileSync(p));
  try {
    await fn();
  } finally {
    Object.assign(d, saved);
  }
  return refused;
}

Deno.test("the guard catches a whole-file read (the test can fail)", async () => {
  const refused = await refusingWholeJsonl(async () => {
    await assert.rejects(
      Deno.readTextFile("data/examples/model_ab.jsonl"),
      /read whole/,
    );
  });
  assert.deepEqual(refused, ["data/examples/model_ab.jsonl"]);
});

Deno.test("decisions, tasks, ledgers, LossBench ledgers and lm-eval samples are read from .jsonl files in chunks, never whole", async () => {
  const dir = await tempDir();
  const ledger = `${dir}/month.jsonl`;
  const lossbench = `${dir}/lossbench.jsonl`;
  const refused = await refusingWholeJsonl(async () => {
    assert.equal(
      (await readDecisionsJsonl("data/examples/model_ab.jsonl")).length,
      1600,
    );
    assert.ok(
      (await jsonlStatsFile("data/examples/model_ab.jsonl")).stats.length > 0,
    );
    assert.equal(
      (await readTasksJsonl("data/tasks/reconciliation_777_300.jsonl")).length,
      300,
    );
    const lb = await loadLossbenchLedger(
      "data/examples/lossbench_ledger.jsonl",
      { probability: "correct" },
    );
    assert.equal(lb.decisions.length, 9);
    const lm = await loadLmEvalSamples(
      "data/examples/harness/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl",
      { severityOf: () => "MEDIUM" },
    );
    assert.ok(lm.decisions.length > 0);
    // ledger append from a decisions file and from a LossBench ledger
    assert.equal(
      await ledgerCommand.run([
        "append",
        ledger,
        "data/examples/model_ab.jsonl",
        "--served",
        "A",
        "--at",
        "2026-03-01T09:00:00Z",
      ]),
      0,
    );
    assert.equal(
      await ledgerCommand.run([
        "append",
        lossbench,
        "data/examples/lossbench_ledger.jsonl",
        "--format",
        "lossbench",
        "--probability",
        "correct",
        "--served",
        "frontier",
      ]),
      0,
    );
    assert.ok((await loadLedger(ledger)).entries.length > 0);
    assert.ok((await loadLedger(lossbench)).entries.length > 0);
  });
  assert.deepEqual(refused, []);
});
