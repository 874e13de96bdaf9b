import assert from "node:assert/strict";
import {
  canonicalJson,
  generateSuite,
  generateTask,
  loadTasksJsonl,
  parseTasksJsonl,
  streamTasksJsonl,
  suiteHash,
  type Task,
  taskLine,
  taskTable,
  writeTasksJsonl,
} from "../../../lib/tasks/mod.ts";
import { tempDir, tempFile } from "../../_helpers.ts";

const t0 = generateTask("reconciliation", 7, 0);
const p0 = generateTask("payment_repair", 7, 0);

function line(
  patch: (t: Record<string, unknown>) => void,
  task: Task = t0,
): string {
  const copy = structuredClone(task) as unknown as Record<string, unknown>;
  patch(copy);
  return canonicalJson(copy);
}

function fails(
  text: string,
  expected: { name: string; message: string | RegExp },
) {
  assert.throws(
    () => parseTasksJsonl(text, { path: "tasks/a.jsonl" }),
    expected,
  );
}

Deno.test("parseTasksJsonl() reads what writeTasksJsonl() wrote, byte for byte", async () => {
  const { tasks } = generateSuite("settlement", { seed: 4, n: 40 });
  const dir = await tempDir();
  const out = await writeTasksJsonl(`${dir}/s.jsonl`, tasks);
  const text = await Deno.readTextFile(`${dir}/s.jsonl`);
  assert.deepEqual(parseTasksJsonl(text), tasks);
  assert.equal(out.sha256, suiteHash(tasks));
  assert.equal(text, tasks.map((t) => taskLine(t) + "\n").join(""));
});

Deno.test("parseTasksJsonl() names file, line and field for a bad severity, amount, date and type", () => {
  const good = taskLine(t0);
  fails(
    `${good}\n\n${
      line((t) => ((t.gold as Record<string, unknown>).severity = "SEVERE"))
    }\n`,
    {
      name: "RangeError",
      message:
        'Cannot load task file tasks/a.jsonl: line 3: gold.severity must be one of LOW, MEDIUM, HIGH, CRITICAL, got "SEVERE"',
    },
  );
  fails(
    line((
      t,
    ) => ((t.state as Record<string, Record<string, unknown>>).ledger.amount =
      "12.5")
    ),
    {
      name: "RangeError",
      message:
        'Cannot load task file tasks/a.jsonl: line 1: state.ledger.amount must be a decimal string with two decimals, got "12.5"',
    },
  );
  fails(
    line((
      t,
    ) => ((t.state as Record<string, Record<string, unknown>>).ledger
      .valueDate = "2024-02-30")
    ),
    {
      name: "RangeError",
      message:
        /line 1: state\.ledger\.valueDate must be a calendar date YYYY-MM-DD, got "2024-02-30"/,
    },
  );
  fails(
    line((t) => ((t.state as Record<string, unknown>).fraudScore = "high"), p0),
    {
      name: "TypeError",
      message: /line 1: state\.fraudScore must be number, got "high"/,
    },
  );
  fails(
    line((t) => delete (t.gold as Record<string, unknown>).repairSafe, p0),
    {
      name: "TypeError",
      message:
        "Cannot load task file tasks/a.jsonl: line 1: gold.repairSafe is missing",
    },
  );
  fails(line((t) => (t.extra = 1)), {
    name: "TypeError",
    message: /line 1: unknown field "extra"/,
  });
  fails(line((t) => (t.difficulty = 1.5)), {
    name: "RangeError",
    message: /line 1: difficulty must be in \[0, 1\], got 1\.5/,
  });
  fails(line((t) => (t.domain = "fx")), {
    name: "RangeError",
    message: /line 1: domain must be one of reconciliation/,
  });
  fails(`${good}\n{"id": `, {
    name: "SyntaxError",
    message: /^Cannot load task file tasks\/a\.jsonl: line 2: invalid JSON/,
  });
  fails("[1]", {
    name: "SyntaxError",
    message: /line 1: expected a JSON object, got an array/,
  });
  fails(`${good}\n${good}\n`, {
    name: "RangeError",
    message:
      /line 2: duplicate task id "reconciliation-7-0" \(first on line 1\)/,
  });
});

Deno.test("loadTasksJsonl() puts the file path in errors", async () => {
  const path = await tempFile(
    "bad.jsonl",
    `${taskLine(t0)}\n${line((t) => (t.seed = -3))}\n`,
  );
  await assert.rejects(() => loadTasksJsonl(path), {
    name: "RangeError",
    message:
      `Cannot load task file ${path}: line 2: seed must be in [0, 4294967295], got -3`,
  });
});

Deno.test("taskTable() flattens gold and state into columns and keeps absent fields null", () => {
  const tasks = [
    ...generateSuite("reconciliation", { seed: 2, n: 30 }).tasks,
    p0,
  ];
  const t = taskTable(tasks);
  assert.equal(t.numRows(), 31);
  for (
    const c of [
      "id",
      "gold_severity",
      "gold_exceptionType",
      "state_ledger_amount",
      "state_priorBookings",
      "gold_repairAction",
    ]
  ) {
    assert.ok(t.columnNames().includes(c), c);
  }
  assert.equal(t.get("gold_repairAction", 0), null);
  assert.equal(t.get("state_ledger_amount", 30), null);
  assert.equal(t.get("gold_repairAction", 30), p0.gold.repairAction);
  assert.equal(typeof t.get("state_priorBookings", 0), "string");
  const missing = tasks.findIndex((x) =>
    (x.state as { statement?: unknown }).statement === null
  );
  if (missing >= 0) {
    assert.equal(t.get("state_statement_amount", missing), null);
  }
});

Deno.test("streamTasksJsonl() reads the same tasks and hashes the file bytes", async () => {
  const { tasks } = generateSuite("payment_repair", { seed: 4, n: 25 });
  const path = await tempFile(
    "p.jsonl",
    tasks.map((t) => taskLine(t) + "\n").join(""),
  );
  const it = streamTasksJsonl(path);
  const got: Task[] = [];
  let r = await it.next();
  while (!r.done) {
    got.push(r.value);
    r = await it.next();
  }
  assert.deepEqual(got, tasks);
  assert.deepEqual(r.value, { tasks: 25, sha256: suiteHash(tasks) });
  const bad = await tempFile(
    "q.jsonl",
    `${taskLine(tasks[0])}\n${line((t) => (t.index = -1), tasks[1])}\n`,
  );
  const it2 = streamTasksJsonl(bad);
  await it2.next();
  await assert.rejects(() => it2.next(), {
    name: "RangeError",
    message: `Cannot load task file ${bad}: line 2: index must be >= 0, got -1`,
  });
});
