import assert from "node:assert/strict";
import { getProfile } from "../../lib/costs/load.ts";
import { thresholdPolicy } from "../../lib/ledger/policy.ts";
import { simulateLedgerMonth } from "../../lib/ledger/simulate_month.ts";
import { openLedger } from "../../lib/ledger/writer.ts";
import type { SimulatedModel } from "../../lib/tasks/simulate.ts";
import { SIMULATED_MODELS } from "../../lib/tasks/simulate.ts";
import { decision, runCli, tempDir, tempFile } from "../_helpers.ts";

// the five contract keys, "anchored" (whether a head file anchored the
// check) and "unacknowledged" (the tail past the head, or null)
const VERIFY_KEYS = [
  "valid",
  "records",
  "head",
  "firstBadSeq",
  "reason",
  "anchored",
  "unacknowledged",
];

async function monthLedger(): Promise<string> {
  const even: SimulatedModel = {
    id: "desk",
    label: "even",
    errorRate: { LOW: 0.06, MEDIUM: 0.06, HIGH: 0.06, clean: 0.01 },
    missShare: 0.7,
    confidence: { kind: "calibrated" },
  };
  const shifted = {
    ...even,
    errorRate: { LOW: 0.02, MEDIUM: 0.04, HIGH: 0.15, clean: 0.01 },
  };
  const month = simulateLedgerMonth({
    start: "2026-03-01",
    days: 10,
    casesPerDay: 1200,
    mix: { clean: 0.6, LOW: 0.15, MEDIUM: 0.15, HIGH: 0.1 },
    served: (day) => (day < 5 ? even : shifted),
    shadows: [SIMULATED_MODELS.frontier_even],
    policy: thresholdPolicy("desk", 0.2),
    profile: getProfile("reconciliation"),
  }, { seed: 4 });
  const path = `${await tempDir("lossbook-cli-")}/month.jsonl`;
  await using w = await openLedger(path);
  await w.append(month.records);
  return path;
}

const MONTH = await monthLedger();

async function copy(path: string): Promise<string> {
  const to = `${await tempDir()}/copy.jsonl`;
  await Deno.copyFile(path, to);
  await Deno.copyFile(`${path}.head`, `${to}.head`);
  return to;
}

Deno.test("ledger verify --json prints exactly the five contract keys and exits 0 on a valid ledger", async () => {
  const { code, stdout, stderr } = await runCli([
    "ledger",
    "verify",
    MONTH,
    "--json",
  ]);
  assert.equal(code, 0, stderr);
  const doc = JSON.parse(stdout);
  assert.deepEqual(Object.keys(doc), VERIFY_KEYS);
  assert.equal(doc.valid, true);
  assert.equal(doc.firstBadSeq, null);
  assert.match(doc.head, /^[0-9a-f]{64}$/);
});

Deno.test("ledger verify exits 1 and names the record when one byte is changed", async () => {
  const path = await copy(MONTH);
  const bytes = await Deno.readFile(path);
  const lines = new TextDecoder().decode(bytes).split("\n");
  const at =
    new TextEncoder().encode(lines.slice(0, 99).join("\n") + "\n").length +
    lines[99].indexOf('"at":"2026-') + 8; // a digit of record 100's year
  bytes[at] = bytes[at] === 0x36 ? 0x37 : 0x36;
  await Deno.writeFile(path, bytes);
  const { code, stdout } = await runCli(["ledger", "verify", path, "--json"]);
  assert.equal(code, 1);
  const doc = JSON.parse(stdout);
  assert.deepEqual([doc.valid, doc.firstBadSeq, doc.records], [false, 100, 99]);
  assert.match(doc.reason, /record 100 \(line 100\) does not match its hash/);
  const human = await runCli(["ledger", "verify", path]);
  assert.equal(human.code, 1);
  assert.match(human.stdout, /INVALID at record 100 \(edited\)/);
});

Deno.test("ledger verify catches a truncation with the head file, and --no-head does not", async () => {
  const path = await copy(MONTH);
  const lines = (await Deno.readTextFile(path)).split("\n");
  await Deno.writeTextFile(path, lines.slice(0, 500).join("\n") + "\n");
  const withHead = await runCli(["ledger", "verify", path, "--json"]);
  assert.equal(withHead.code, 1);
  assert.equal(JSON.parse(withHead.stdout).firstBadSeq, 501);
  assert.equal((await runCli(["ledger", "verify", path, "--no-head"])).code, 0);
});

Deno.test("ledger verify names a torn tail past the head and exits 0 leaving it; ledger repair sets it aside and refuses an edited ledger", async () => {
  const path = await copy(MONTH);
  const good = await Deno.readFile(path);
  await Deno.writeTextFile(path, '{"hash":"0f', { append: true });
  const before = await runCli(["ledger", "verify", path, "--json"]);
  assert.equal(before.code, 0, before.stderr);
  const seen = JSON.parse(before.stdout);
  assert.equal(seen.valid, true);
  assert.deepEqual(seen.unacknowledged, {
    offset: good.length,
    bytes: 11,
    records: 0,
  });
  assert.match(
    before.stderr,
    /notice: .*copy\.jsonl: the 11 bytes after record \d+ were never acknowledged by its head file/,
  );
  assert.equal((await Deno.readFile(path)).length, good.length + 11);
  const r = await runCli(["ledger", "repair", path, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.repaired, true);
  assert.equal(await Deno.readTextFile(doc.sideFile), '{"hash":"0f');
  assert.deepEqual(await Deno.readFile(path), good);
  const after = await runCli(["ledger", "verify", path]);
  assert.equal(after.code, 0);
  assert.equal(after.stderr, "");
  // an edit is evidence: repair refuses it
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, text.replace('"seq":7}', '"seq":8}'));
  const refused = await runCli(["ledger", "repair", path]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /everything else is evidence/);
});

Deno.test("ledger verify --format lossbench checks LossBench's chain", async () => {
  const ok = await runCli([
    "ledger",
    "verify",
    "data/examples/lossbench_ledger.jsonl",
    "--format",
    "lossbench",
    "--json",
  ]);
  assert.equal(ok.code, 0);
  assert.deepEqual(Object.keys(JSON.parse(ok.stdout)), VERIFY_KEYS);
  const path = `${await tempDir()}/lb.jsonl`;
  const lines =
    (await Deno.readTextFile("data/examples/lossbench_ledger.jsonl")).split(
      "\n",
    );
  lines.splice(4, 1);
  await Deno.writeTextFile(path, lines.join("\n"));
  const bad = await runCli([
    "ledger",
    "verify",
    path,
    "--format",
    "lossbench",
    "--json",
  ]);
  assert.equal(bad.code, 1);
  assert.equal(JSON.parse(bad.stdout).firstBadSeq, 5);
  // a lossbook ledger is not a LossBench one
  assert.equal(
    (await runCli(["ledger", "verify", MONTH, "--format", "lossbench"])).code,
    1,
  );
});

Deno.test("ledger append records a run export, opens reviews for escalations, and refuses a second writer", async () => {
  const dir = await tempDir();
  const path = `${dir}/l.jsonl`;
  const first = await runCli([
    "ledger",
    "append",
    path,
    "data/examples/model_ab.jsonl",
    "--served",
    "A",
    "--at",
    "2026-03-01T09:00:00Z",
    "--json",
  ]);
  assert.equal(first.code, 0, first.stderr);
  const doc = JSON.parse(first.stdout);
  // model_ab.jsonl: the 800 exceptions of Models A and B, all acted on automatically
  assert.deepEqual([doc.first, doc.decisions, doc.reviewsOpened], [1, 1600, 0]);
  assert.equal((await runCli(["ledger", "verify", path])).code, 0);
  // another run, with one escalated decision: it opens a review
  const more = await tempFile(
    "more.jsonl",
    JSON.stringify(decision({ runId: "r2", action: "escalate" })) + "\n",
  );
  // a lock file left by an earlier version is removed, with a notice
  await Deno.writeTextFile(`${path}.lock`, '{"pid":1}\n');
  const nextRun = await runCli(["ledger", "append", path, more, "--json"]);
  assert.equal(nextRun.code, 0, nextRun.stderr);
  assert.match(
    nextRun.stderr,
    /removed the lock file .*l\.jsonl\.lock left by an earlier version/,
  );
  const next = JSON.parse(nextRun.stdout);
  assert.deepEqual([next.first, next.appended, next.reviewsOpened], [
    1601,
    2,
    1,
  ]);
  // the same batch again (without --at its time is not part of it): a no-op that says so
  const again = await runCli([
    "ledger",
    "append",
    path,
    "data/examples/model_ab.jsonl",
    "--served",
    "A",
  ]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(
    again.stdout,
    /^nothing appended: all 1600 records of this batch \(1600 decisions\) are already in/,
  );
  // the same decisions with other content are refused before anything is written
  const other = await runCli([
    "ledger",
    "append",
    path,
    "data/examples/model_ab.jsonl",
    "--served",
    "B",
  ]);
  assert.equal(other.code, 2);
  assert.match(
    other.stderr,
    /is already recorded at record \d+ with a different served; nothing was appended/,
  );
  assert.equal((await runCli(["ledger", "verify", path, "--json"])).code, 0);
  const shared = await runCli([
    "ledger",
    "append",
    `${dir}/m.jsonl`,
    "data/examples/model_ab.jsonl",
  ]);
  assert.equal(shared.code, 2);
  assert.match(shared.stderr, /--served MODEL/);
});

Deno.test("replay --threshold --json is byte-identical across runs and keeps its keys", async () => {
  const args = [
    "replay",
    MONTH,
    "--threshold",
    "0.3",
    "--profile",
    "principal_risk",
    "--json",
  ];
  const a = await runCli(args);
  const b = await runCli(args);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  const doc = JSON.parse(a.stdout);
  for (
    const key of [
      "ledger",
      "policy",
      "profile",
      "cases",
      "evaluable",
      "unevaluable",
      "reviewLoad",
      "before",
      "after",
      "difference",
      "changed",
    ]
  ) {
    assert.ok(key in doc, key);
  }
  assert.equal(doc.profile, "principal_risk@1.0.0");
  assert.equal(doc.diff, undefined);
  assert.ok(doc.changed.cases > 0);
  const withDiff = JSON.parse((await runCli([...args, "--diff"])).stdout);
  assert.equal(withDiff.diff.length, doc.changed.cases);
  const routed = JSON.parse(
    (await runCli([
      "replay",
      MONTH,
      "--threshold",
      "recorded",
      "--route",
      "HIGH=frontier_even",
      "--json",
    ])).stdout,
  );
  assert.ok(routed.changed.rerouted > 0);
  const chow = await runCli([
    "replay",
    MONTH,
    "--threshold",
    "chow",
    "--profile",
    "principal_risk",
  ]);
  assert.equal(chow.code, 0);
  assert.match(chow.stdout, /HIGH 0\.001, CRITICAL 0\.00001/);
});

Deno.test("replay --thresholds 0:1:1000 draws the cost curve", async () => {
  const { code, stdout } = await runCli([
    "replay",
    MONTH,
    "--thresholds",
    "0:1:1000",
    "--json",
  ]);
  assert.equal(code, 0);
  const doc = JSON.parse(stdout);
  assert.equal(doc.points.length, 1000);
  assert.deepEqual([doc.points[0].threshold, doc.points[999].threshold], [
    0,
    1,
  ]);
  assert.ok(doc.points.every((p: { loss: number }) => p.loss >= doc.best.loss));
  assert.equal(doc.support, "common");
  const human = await runCli(["replay", MONTH, "--thresholds", "0:1:101"]);
  assert.match(human.stdout, /\(best\)/);
});

Deno.test("replay and drift refuse a ledger that does not verify", async () => {
  const path = await copy(MONTH);
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(
    path,
    text.replace('"served":true', '"served":false'),
  );
  const r = await runCli(["replay", path, "--threshold", "0.3"]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /does not match its hash.*not replayed/);
  const d = await runCli(["drift", path, "--split", "2026-03-06T00:00:00Z"]);
  assert.equal(d.code, 1);
});

Deno.test("drift --split finds errors flat, cost rising", async () => {
  const { code, stdout, stderr } = await runCli([
    "drift",
    MONTH,
    "--split",
    "2026-03-06T00:00:00Z",
    "--json",
  ]);
  assert.equal(code, 0, stderr);
  const doc = JSON.parse(stdout);
  assert.equal(doc.detector.fired, true);
  assert.equal(doc.detector.errorRate.drifted, false);
  assert.deepEqual([doc.reference.decisions, doc.current.decisions], [
    6000,
    6000,
  ]);
  const human = await runCli([
    "drift",
    MONTH,
    "--split",
    "2026-03-06T00:00:00Z",
    "--fail-on-alert",
  ]);
  assert.equal(human.code, 1);
  assert.match(human.stdout, /errors flat, cost rising/);
});

Deno.test("ledger reviews lists overdue reviews", async () => {
  const { code, stdout } = await runCli([
    "ledger",
    "reviews",
    MONTH,
    "--now",
    "2026-03-11T00:00:00Z",
    "--json",
  ]);
  assert.equal(code, 0);
  const doc = JSON.parse(stdout);
  assert.ok(doc.opened > 0);
  assert.equal(doc.overdueReviews.length, doc.overdue);
});

Deno.test("ledger, replay and drift exit 2 on bad usage with a one-line message", async () => {
  for (
    const args of [
      ["ledger"],
      ["ledger", "rewrite", MONTH],
      ["ledger", "verify", MONTH, "--format", "csv"],
      ["replay", MONTH],
      ["replay", MONTH, "--threshold", "0.3", "--thresholds", "0:1:10"],
      ["replay", MONTH, "--threshold", "1.5"],
      ["replay", MONTH, "--thresholds", "0:1"],
      ["replay", MONTH, "--threshold", "HIGH=0.1"],
      ["drift", MONTH],
      ["drift", MONTH, "--split", "March 6"],
      ["ledger", "verify", "/nonexistent/ledger.jsonl"],
    ]
  ) {
    const { code, stderr } = await runCli(args);
    assert.equal(code, 2, args.join(" "));
    assert.equal(stderr.trim().split("\n").length, 1, stderr);
  }
});

Deno.test("ledger append --format lossbench imports a LossBench export only after its chain verifies", async () => {
  const dir = await tempDir();
  const path = `${dir}/l.jsonl`;
  const args = [
    "ledger",
    "append",
    path,
    "data/examples/lossbench_ledger.jsonl",
    "--format",
    "lossbench",
    "--served",
    "small",
  ];
  const noMeaning = await runCli(args);
  assert.equal(noMeaning.code, 2);
  assert.match(noMeaning.stderr, /--probability correct\|error/);
  const ok = await runCli([...args, "--probability", "correct", "--json"]);
  assert.equal(ok.code, 0, ok.stderr);
  // 10 events: 9 final decisions (one intermediate VERIFY step), one escalation
  assert.deepEqual(
    (({ decisions, reviewsOpened }) => [decisions, reviewsOpened])(
      JSON.parse(ok.stdout),
    ),
    [9, 1],
  );
  const first = JSON.parse((await Deno.readTextFile(path)).split("\n")[0]);
  // the event's own time, id, policy and prompt hash are kept
  assert.deepEqual(
    [
      first.record.at,
      first.record.id,
      first.record.policyRevision,
      first.record.risk,
    ],
    ["2026-01-01T00:00:00Z", "evt-small-recon-001-0-0", "recon-v1", 1 - 0.9],
  );
  assert.equal((await runCli(["ledger", "verify", path])).code, 0);
  const broken = `${dir}/lb.jsonl`;
  const lines =
    (await Deno.readTextFile("data/examples/lossbench_ledger.jsonl"))
      .split("\n");
  lines[2] = lines[2].replace('"latency_ms":0.0', '"latency_ms":1.0');
  await Deno.writeTextFile(broken, lines.join("\n"));
  const refused = await runCli([
    "ledger",
    "append",
    `${dir}/other.jsonl`,
    broken,
    "--format",
    "lossbench",
    "--probability",
    "correct",
    "--served",
    "small",
  ]);
  assert.equal(refused.code, 1);
  assert.match(
    refused.stderr,
    /record 3 \(line 3\) does not match its hash.*not imported/,
  );
});
