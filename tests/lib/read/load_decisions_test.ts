import assert from "node:assert/strict";
import { scenarioDecisions } from "../../../analyses/divergence.ts";
import { DECISION_COLUMNS, pError } from "../../../lib/decision/mod.ts";
import {
  decisionTable,
  loadDecisionsJsonl,
  parseDecisionsJsonl,
} from "../../../lib/read/mod.ts";
import { loadDecisionsCsv, writeDecisionsCsv } from "../../../lib/read/csv.ts";
import { decision, tempFile } from "../../_helpers.ts";

function jsonl(...lines: unknown[]): string {
  return lines.map((l) => typeof l === "string" ? l : JSON.stringify(l)).join(
    "\n",
  ) + "\n";
}

function fails(
  text: string,
  expected: { name: string; message: string | RegExp },
) {
  assert.throws(
    () => parseDecisionsJsonl(text, { path: "runs/a.jsonl" }),
    expected,
  );
}

Deno.test("parseDecisionsJsonl() reads valid lines and skips blank ones without losing line numbers", () => {
  const text = jsonl(
    decision({ taskId: "a" }),
    "",
    "   ",
    decision({ taskId: "b" }),
  );
  const ds = parseDecisionsJsonl(text);
  assert.deepEqual(ds.map((d) => d.taskId), ["a", "b"]);
  fails(jsonl(decision({ taskId: "a" }), "", "{"), {
    name: "SyntaxError",
    message: /^Cannot load run export runs\/a\.jsonl: line 3: invalid JSON/,
  });
  assert.deepEqual(parseDecisionsJsonl(""), []);
  // a last line without a newline is read too
  assert.equal(parseDecisionsJsonl(JSON.stringify(decision())).length, 1);
});

Deno.test("parseDecisionsJsonl() names line and field when pCorrect is outside [0, 1]", () => {
  fails(
    jsonl(decision({ taskId: "a" }), decision({ taskId: "b", pCorrect: 1.3 })),
    {
      name: "RangeError",
      message:
        "Cannot load run export runs/a.jsonl: line 2: pCorrect must be in [0, 1], got 1.3",
    },
  );
  fails(jsonl(decision({ pCorrect: -0.01 })), {
    name: "RangeError",
    message: /line 1: pCorrect must be in \[0, 1\], got -0\.01/,
  });
});

Deno.test("parseDecisionsJsonl() names line and field for an unknown severity", () => {
  fails(jsonl({ ...decision(), severity: "SEVERE" }), {
    name: "RangeError",
    message:
      'Cannot load run export runs/a.jsonl: line 1: severity must be one of LOW, MEDIUM, HIGH, CRITICAL, got "SEVERE"',
  });
});

Deno.test("parseDecisionsJsonl() names a missing field, a wrong type and an unknown field", () => {
  const { modelId: _, ...noModel } = decision();
  fails(jsonl(noModel), {
    name: "TypeError",
    message: "Cannot load run export runs/a.jsonl: line 1: modelId is missing",
  });
  const { pCorrect: _p, ...noP } = decision();
  fails(jsonl(noP), {
    name: "TypeError",
    message: /line 1: pCorrect is missing/,
  });
  fails(jsonl({ ...decision(), trial: "first" }), {
    name: "TypeError",
    message: /line 1: trial must be number, got "first"/,
  });
  fails(jsonl({ ...decision(), confidence: 0.9 }), {
    name: "TypeError",
    message: /line 1: unknown field "confidence"/,
  });
  fails(jsonl("[1, 2]"), {
    name: "SyntaxError",
    message: /line 1: expected a JSON object, got an array/,
  });
});

Deno.test("parseDecisionsJsonl() refuses a negative cost and a zero that stands for an unknown cost", () => {
  fails(jsonl(decision({ cost: { completeness: "complete", usd: -1 } })), {
    name: "RangeError",
    message: /line 1: cost\.usd must be >= 0, got -1/,
  });
  fails(
    jsonl({ ...decision(), cost: { completeness: "unavailable", usd: 0 } }),
    {
      name: "TypeError",
      message: /line 1: cost\.usd must be null, got 0/,
    },
  );
  fails(jsonl({ ...decision(), cost: { completeness: "estimated", usd: 1 } }), {
    name: "RangeError",
    message:
      /line 1: cost(\.completeness)?: completeness must be one of complete, partial, unavailable, not_applicable/,
  });
});

Deno.test("parseDecisionsJsonl() refuses an unknown action, outcome and a non-integer trial", () => {
  fails(jsonl({ ...decision(), action: "defer" }), {
    name: "RangeError",
    message: /line 1: action must be "auto" or "escalate"/,
  });
  fails(jsonl({ ...decision(), outcome: "crashed" }), {
    name: "RangeError",
    message: /line 1: outcome must be one of resolved/,
  });
  fails(jsonl({ ...decision(), trial: 1.5 }), {
    name: "TypeError",
    message: /line 1: trial must be/,
  });
});

Deno.test("parseDecisionsJsonl() refuses a second decision for the same run, model, task and trial", () => {
  fails(jsonl(decision(), decision({ taskId: "t2" }), decision()), {
    name: "RangeError",
    message:
      /line 3: duplicate decision for runId "r1", modelId "m", taskId "t1", trial 0 \(first on line 1\)/,
  });
  // another trial of the same task is a different decision
  assert.equal(
    parseDecisionsJsonl(jsonl(decision(), decision({ trial: 1 }))).length,
    2,
  );
});

Deno.test("ids that hold a NUL are not a duplicate of ids they would make if joined (JSONL, CSV)", async () => {
  const a = decision({ runId: "r\u0000x", modelId: "m" });
  const b = decision({ runId: "r", modelId: "x\u0000m" });
  assert.equal(parseDecisionsJsonl(jsonl(a, b)).length, 2);
  const path = await tempFile("nul.jsonl", jsonl(a, b));
  assert.equal((await loadDecisionsJsonl(path)).numRows(), 2);
  const csv = await tempFile("nul.csv", "");
  await writeDecisionsCsv(csv, decisionTable([a, b]));
  assert.equal((await loadDecisionsCsv(csv)).numRows(), 2);
  // a true repeat is still one
  fails(jsonl(a, b, a), { name: "RangeError", message: /line 3: duplicate/ });
});

Deno.test("loadDecisionsJsonl() puts the file path in errors", async () => {
  const path = await tempFile(
    "bad.jsonl",
    jsonl(decision(), { ...decision({ taskId: "x" }), pCorrect: 2 }),
  );
  await assert.rejects(() => loadDecisionsJsonl(path), {
    name: "RangeError",
    message:
      `Cannot load run export ${path}: line 2: pCorrect must be in [0, 1], got 2`,
  });
});

Deno.test("decisionTable() flattens cost evidence and keeps unknowns as null", () => {
  const t = decisionTable([
    decision({ tokensIn: 120 }),
    decision({
      taskId: "t2",
      pCorrect: null,
      cost: { completeness: "unavailable", usd: null },
    }),
  ]);
  assert.deepEqual(t.columnNames(), [...DECISION_COLUMNS]);
  assert.deepEqual(t.array("costUsd"), [0.001, null]);
  assert.deepEqual(t.array("costCompleteness"), ["complete", "unavailable"]);
  assert.deepEqual(t.array("tokensIn"), [120, null]);
  assert.deepEqual(t.array("pCorrect"), [0.9, null]);
});

Deno.test("the shipped example run equals the expanded Model A vs B scenario", async () => {
  const text = await Deno.readTextFile(
    new URL("../../../data/examples/model_ab.jsonl", import.meta.url),
  );
  assert.deepEqual(
    parseDecisionsJsonl(text),
    scenarioDecisions(undefined, { includeClean: false }),
  );
});

Deno.test("pError() is 1 - pCorrect and keeps null", () => {
  assert.equal(pError(1), 0);
  assert.equal(pError(0), 1);
  assert.equal(pError(null), null);
  assert.throws(() => pError(1.2), RangeError);
  assert.throws(() => pError(NaN), RangeError);
});
