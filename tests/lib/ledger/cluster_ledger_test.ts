// The ledger stores a decision's cluster: a record round-trips with it and
// its chain verifies; records written before the field existed hash as
// they always did; a ledger's decisions name a cluster all or none, a
// task one cluster, refused at the record that breaks the rule; and replay
// counts clusters when they are named, cases under unit taskId.
import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/load.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { ledgerText } from "../../../lib/ledger/chain.ts";
import { ledgerColumns } from "../../../lib/ledger/columns.ts";
import { decisionRecord } from "../../../lib/ledger/decision_record.ts";
import { ledgerEntriesFile } from "../../../lib/ledger/read.ts";
import { replay } from "../../../lib/ledger/replay.ts";
import { verifyLedgerFile } from "../../../lib/ledger/verify.ts";
import { openLedger } from "../../../lib/ledger/writer.ts";
import { decision, tempDir } from "../../_helpers.ts";

const AT = "2026-03-01T09:00:00Z";
const profile = getProfile("reconciliation");

const base = {
  runId: "r",
  modelId: "m",
  taskId: "t1",
  trial: 0,
  severity: "HIGH",
  trueClass: "AMOUNT_MISMATCH",
  predClass: "MATCH",
  parseOk: true,
  pCorrect: 0.7,
  action: "auto",
  cost: { completeness: "complete", usd: 0.01 },
  outcome: "model_failure",
} as const;

Deno.test("records without a cluster hash as before the field existed", () => {
  const records = [0, 1, 2].map((i) =>
    decisionRecord({ ...base, taskId: `t${i}` }, { at: AT, profile })
  );
  // the head of these three records, written by lossbook before clusters
  assert.deepEqual(ledgerText(records).head, {
    seq: 3,
    hash: "cc94038a2a4ccd80338f27be8504e2078d2f6be5168d75a5c690146ec845ecce",
  });
  // a record with a cluster is another record
  const clustered = records.map((r) => ({
    ...r,
    decision: { ...r.decision, cluster: "doc-1" },
  }));
  assert.notEqual(
    ledgerText(clustered).head.hash,
    ledgerText(records).head.hash,
  );
});

Deno.test("a ledger stores each decision's cluster, verifies, and reads it back by case", async () => {
  const path = `${await tempDir()}/l.jsonl`;
  const ds: Decision[] = [0, 1, 2, 3].map((i) =>
    decision({ taskId: `t${i}`, cluster: `doc-${i % 2}` })
  );
  {
    await using w = await openLedger(path);
    await w.append(ds.map((d) => decisionRecord(d, { at: AT, profile })));
  }
  assert.equal((await verifyLedgerFile(path)).valid, true);
  const entries = [];
  for await (const e of ledgerEntriesFile(path)) entries.push(e);
  assert.deepEqual(
    entries.map((e) =>
      e.record.kind === "decision" && e.record.decision.cluster
    ),
    ["doc-0", "doc-1", "doc-0", "doc-1"],
  );
  assert.deepEqual(ledgerColumns(entries).caseCluster, [
    "doc-0",
    "doc-1",
    "doc-0",
    "doc-1",
  ]);
  // a ledger without clusters has none
  const plain = ledgerText([decisionRecord(decision(), { at: AT, profile })]);
  assert.deepEqual(ledgerColumns(plain.entries).caseCluster, [null]);
});

Deno.test("a ledger's decisions name a cluster all or none, and a task one cluster, refused at the record that breaks the rule", () => {
  const rec = (d: Decision) => decisionRecord(d, { at: AT, profile });
  const mixed = ledgerText([
    rec(decision({ taskId: "t1", cluster: "doc-1" })),
    rec(decision({ taskId: "t2" })),
  ]);
  assert.throws(
    () => ledgerColumns(mixed.entries, { path: "l.jsonl" }),
    /^RangeError: Cannot read ledger l\.jsonl: record 2: cluster is missing, but record 1 names one \("doc-1"\): a run's decisions name a cluster all or none$/,
  );
  const split = ledgerText([
    rec(decision({ modelId: "a", taskId: "t1", cluster: "doc-1" })),
    rec(decision({ modelId: "b", taskId: "t1", cluster: "doc-2" })),
  ]);
  assert.throws(
    () => ledgerColumns(split.entries, { path: "l.jsonl" }),
    /record 2: cluster "doc-2" of taskId "t1" differs from "doc-1", which record 1 names/,
  );
});

Deno.test("replay counts a cluster's changed cases as one unit, and under unit taskId each case, as before clusters", () => {
  // 40 cases in 4 clusters: a threshold sends the misses of risk 0.4 to review
  const rec = (i: number, cluster: string | null) =>
    decisionRecord(
      decision({
        taskId: `t${i}`,
        ...(cluster === null ? {} : { cluster }),
        predClass: i % 4 === 0 ? "MATCH" : "AMOUNT_MISMATCH",
        pCorrect: i % 4 === 0 ? 0.6 : 0.95,
      }),
      { at: AT, profile },
    );
  const clustered = ledgerColumns(
    ledgerText(Array.from({ length: 40 }, (_, i) => rec(i, `doc-${i % 4}`)))
      .entries,
  );
  const plain = ledgerColumns(
    ledgerText(Array.from({ length: 40 }, (_, i) => rec(i, null))).entries,
  );
  const o = { profile, seed: 3, resamples: 500, diff: false };
  const byCluster = replay(clustered, { threshold: 0.3 }, o);
  const byCase = replay(clustered, { threshold: 0.3 }, {
    ...o,
    unit: "taskId",
  });
  const before = replay(plain, { threshold: 0.3 }, o);
  assert.deepEqual(byCase, before);
  assert.equal(byCluster.unit, "cluster");
  assert.equal(byCluster.clusters, 4);
  assert.equal("unit" in byCase, false);
  // the estimate is the cases'; the interval counts the changed cases,
  // all of doc-0, as one cluster
  assert.equal(byCluster.difference.estimate, byCase.difference.estimate);
  assert.ok(
    byCluster.difference.hi! - byCluster.difference.lo! >
      byCase.difference.hi! - byCase.difference.lo!,
  );
  assert.match(byCluster.difference.test, /a cluster's cases flipped together/);
  assert.throws(
    () => replay(plain, { threshold: 0.3 }, { ...o, unit: "cluster" }),
    /no decision names a cluster/,
  );
});
