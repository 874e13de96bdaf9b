import assert from "node:assert/strict";
import {
  caughtRecallBySeverity,
  severityWeightedRecall,
} from "../../../lib/metrics/reconforge.ts";
import { accuracy } from "../../../lib/metrics/accuracy.ts";
import { decisionStats } from "../../../lib/decision/mod.ts";
import { decisionTable } from "../../../lib/read/mod.ts";
import {
  ESCALATED_CLASS,
  loadReconforge,
  parseReconforge,
  UNTYPED_EXCEPTION,
} from "../../../lib/import/reconforge.ts";
import { tempFile } from "../../_helpers.ts";

const EXAMPLE = "data/examples/reconforge_run.json";
const FRONTIER = "tests/fixtures/reconforge/frontier_like.json";
const FINE_TUNE = "tests/fixtures/reconforge/fine_tune_like.json";
// Half a unit of the 4th decimal: ReconForge rounds its figures to 4 places.
const HALF_UNIT = 5e-5 + 1e-9;

type Json = Record<string, unknown>;

function doc(perTask: unknown[], extra: Json = {}): string {
  return JSON.stringify({
    run: "r",
    n: perTask.length,
    ...extra,
    per_task: perTask,
  });
}

function verdict(patch: Json = {}): Json {
  return {
    verdict: "EXCEPTION",
    exception_type: "DUPLICATE",
    severity: "LOW",
    confidence: 0.8,
    reason: "booked twice",
    resolution: "auto-adjust",
    ...patch,
  };
}

function task(patch: Json = {}): Json {
  return {
    task_id: "t1",
    difficulty: 0.5,
    expected: {
      verdict: "EXCEPTION",
      exception_type: "DUPLICATE",
      severity: "LOW",
      explanation: "booked twice",
      resolution: "auto-adjust",
    },
    predicted: verdict(),
    ...patch,
  };
}

async function fixture(path: string): Promise<Json> {
  return JSON.parse(await Deno.readTextFile(path));
}

function near(actual: number | null, expected: number, what: string): void {
  assert.ok(
    actual !== null && Math.abs(actual - expected) <= HALF_UNIT,
    `${what}: ${actual} vs ${expected}`,
  );
}

// ---- the two published shapes ----

Deno.test("loadReconforge() reads a frontier-style file: ESCALATE is escalated, parse misses and empty responses fall back to MATCH", async () => {
  const { decisions, notes } = await loadReconforge(FRONTIER);
  assert.equal(decisions.length, 40);
  assert.deepEqual(notes, {
    parseMisses: 3,
    rawEmpty: 1,
    parseMissesOnCleanTasks: 0,
    escalations: 3,
    untypedExceptionVerdicts: 0,
  });
  const escalated = decisions.filter((d) => d.action === "escalate");
  assert.equal(escalated.length, 3);
  assert.ok(escalated.every((d) => d.predClass === ESCALATED_CLASS));
  assert.ok(escalated.every((d) => d.outcome === "model_failure"));
  const misses = decisions.filter((d) => !d.parseOk);
  assert.equal(misses.length, 3);
  assert.ok(
    misses.every((d) => d.predClass === "MATCH" && d.pCorrect === null),
  );
  assert.deepEqual(
    misses.map((d) => d.outcome).sort(),
    ["harness_failure", "model_failure", "model_failure"],
  );
  // no samples in this shape: every parsed answer's probability is its stated confidence
  assert.ok(
    decisions.every((d) =>
      d.parseOk ? d.pCorrectSource === "stated" : d.pCorrectSource === null
    ),
  );
  assert.ok(decisions.every((d) => d.modelId === "frontier-fixture"));
});

for (const path of [FRONTIER, FINE_TUNE]) {
  Deno.test(`lossbook's accuracy, R_w and caught recall per severity on ${path} equal the file's own summary`, async () => {
    const file = await fixture(path);
    const metrics = file.metrics as Json;
    const { decisions, verified } = await loadReconforge(path);
    const stats = decisionStats(decisionTable(decisions));
    near(accuracy(stats).value, metrics.accuracy as number, "accuracy");
    near(
      severityWeightedRecall(stats),
      metrics.severity_weighted_recall as number,
      "R_w",
    );
    const recall = caughtRecallBySeverity(stats);
    for (const level of ["HIGH", "MEDIUM", "LOW"] as const) {
      near(
        recall[level].value,
        (metrics.per_type_recall as Json)[level] as number,
        `${level} recall`,
      );
    }
    assert.ok(verified.includes("scoring.confusion_matrix"));
    assert.ok(verified.includes("metrics.per_type_recall.LOW"));
  });
}

Deno.test("parseReconforge() scores an escalation as ReconForge does: wrong, a HIGH exception caught, a LOW one missed", () => {
  const esc = verdict({
    verdict: "ESCALATE",
    exception_type: null,
    severity: "MEDIUM",
    confidence: 0.5,
  });
  const { decisions, scores } = parseReconforge(doc([
    task({ task_id: "low", predicted: esc }),
    task({
      task_id: "high",
      expected: {
        verdict: "EXCEPTION",
        exception_type: "AMOUNT_MISMATCH",
        severity: "HIGH",
      },
      predicted: esc,
    }),
  ]));
  const stats = decisionStats(decisionTable(decisions));
  assert.equal(accuracy(stats).value, 0);
  const recall = caughtRecallBySeverity(stats);
  assert.deepEqual([recall.HIGH.value, recall.LOW.value], [1, 0]);
  // R_w: AMOUNT 1.0 caught of AMOUNT 1.0 + DUPLICATE 0.2
  assert.ok(Math.abs(severityWeightedRecall(stats)! - 1 / 1.2) < 1e-12);
  assert.ok(Math.abs(scores.severityWeightedRecall - 1 / 1.2) < 1e-12);
  assert.deepEqual(scores.recallBySeverity, { HIGH: 1, MEDIUM: null, LOW: 0 });
  assert.equal(scores.confusion.DUPLICATE.null, 1);
});

Deno.test("ReconForge's n_escalations leaves out escalations of clean items, lossbook's notes count them all", async () => {
  const { notes, scores } = await loadReconforge(FRONTIER);
  const file = await fixture(FRONTIER);
  assert.equal(notes.escalations, 3);
  assert.equal(scores.escalations, 2);
  assert.equal((file.metrics as Json).n_escalations, 2);
});

// ---- where pCorrect comes from ----

Deno.test("parseReconforge() takes pCorrect from self_consistency_confidence, then agreement over samples, then the stated confidence, and records the source", () => {
  const a = verdict();
  const a2 = verdict({ confidence: 0.6 }); // same class, another dict
  const b = verdict({ exception_type: "FIELD_CORRUPTION" });
  const text = doc([
    task({
      task_id: "sc",
      predicted: a,
      self_consistency_confidence: 0.6667,
      samples: [a, a2, a],
    }),
    task({ task_id: "samples", predicted: a, samples: [a, b, null] }),
    task({ task_id: "stated" }),
    task({ task_id: "miss", predicted: null }),
  ]);
  const d = parseReconforge(text).decisions;
  assert.deepEqual(
    d.map((x) => [x.taskId, x.pCorrect, x.pCorrectSource]),
    [
      ["sc", 0.6667, "agreement@3"],
      ["samples", 1 / 3, "agreement@3"],
      ["stated", 0.8, "stated"],
      ["miss", null, null],
    ],
  );
  const stated = parseReconforge(text, { pCorrectFrom: "stated" }).decisions;
  assert.deepEqual(stated.map((x) => x.pCorrectSource), [
    "stated",
    "stated",
    "stated",
    null,
  ]);
  const none = parseReconforge(text, { pCorrectFrom: "none" }).decisions;
  assert.ok(
    none.every((x) => x.pCorrect === null && x.pCorrectSource === null),
  );
});

Deno.test("parseReconforge() on the fine-tune-style fixture reads self-consistency by default; agreement@K counts the parsed samples", async () => {
  const { decisions } = await loadReconforge(FINE_TUNE);
  const sources = new Set(decisions.map((d) => d.pCorrectSource));
  assert.deepEqual([...sources].sort(), ["agreement@2", "agreement@3", null]);
  // one task has a sample that did not parse: its confidence is over 2 samples
  assert.equal(
    decisions.filter((d) => d.pCorrectSource === "agreement@2").length,
    1,
  );
  const stated = (await loadReconforge(FINE_TUNE, { pCorrectFrom: "stated" }))
    .decisions;
  assert.ok(stated.every((d) => d.pCorrectSource !== "agreement@3"));
});

Deno.test("parseReconforge() refuses a named probability source a record lacks, or one ReconForge has no such thing as", () => {
  assert.throws(
    () =>
      parseReconforge(doc([task()]), {
        path: "rf.json",
        pCorrectFrom: "agreement",
      }),
    {
      name: "TypeError",
      message:
        'Cannot load ReconForge file rf.json: per_task[0] (task_id "t1"): --pcorrect-from agreement asks for self_consistency_confidence or samples, which this record does not have',
    },
  );
  assert.throws(
    () =>
      parseReconforge(
        doc([task({ predicted: verdict({ confidence: null }) })]),
        {
          path: "rf.json",
          pCorrectFrom: "stated",
        },
      ),
    /per_task\[0\] \(task_id "t1"\): --pcorrect-from stated asks for predicted\.confidence/,
  );
  assert.throws(
    () =>
      parseReconforge(doc([task()]), {
        path: "rf.json",
        pCorrectFrom: "logprob-option",
      }),
    /rf\.json: --pcorrect-from logprob-option is not a ReconForge source/,
  );
  assert.throws(
    () => parseReconforge(doc([task()]), { pCorrectFrom: "guess" }),
    /--pcorrect-from must be one of/,
  );
  assert.throws(
    () =>
      parseReconforge(
        doc([task({ self_consistency_confidence: 0.9 })]),
        { path: "rf.json" },
      ),
    /per_task\[0\] \(task_id "t1"\): self_consistency_confidence needs samples or the document's self_consistency\.samples/,
  );
});

// ---- the closed schema ----

Deno.test("parseReconforge() refuses unknown keys, naming file, record and field, and suggests the near one", () => {
  const cases: [string, RegExp][] = [
    [
      doc([task({ predicted: undefined, prediction: verdict() })]),
      /rf\.json: per_task\[0\] \(task_id "t1"\): unknown field "prediction" \(did you mean "predicted"\?\)$/,
    ],
    [
      doc([task({ predicted: { ...verdict(), confidance: 0.8 } })]),
      /per_task\[0\] \(task_id "t1"\): predicted: unknown field "confidance" \(did you mean "confidence"\?\)$/,
    ],
    [
      doc([task({ samples: [verdict(), { ...verdict(), verdikt: "MATCH" }] })]),
      /per_task\[0\] \(task_id "t1"\): samples\[1\]: unknown field "verdikt" \(did you mean "verdict"\?\)$/,
    ],
    [
      doc([
        task({ expected: { ...(task().expected as Json), severty: "LOW" } }),
      ]),
      /per_task\[0\] \(task_id "t1"\): expected: unknown field "severty" \(did you mean "severity"\?\)$/,
    ],
    [
      doc([task()], { metrics: { severity_weighted_recal: 1 } }),
      /rf\.json: metrics: unknown field "severity_weighted_recal" \(did you mean "severity_weighted_recall"\?\)$/,
    ],
    [
      doc([task()], { scoring: { confusion: {} } }),
      /rf\.json: scoring: unknown field "confusion"/,
    ],
    [
      doc([task()], { modle: "m" }),
      /rf\.json: unknown field "modle" \(did you mean "model"\?\)$/,
    ],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parseReconforge(text, { path: "rf.json" }), {
      name: "TypeError",
      message,
    });
  }
});

Deno.test("parseReconforge() refuses values ReconForge's writers cannot produce", () => {
  const esc = {
    verdict: "ESCALATE",
    exception_type: null,
    severity: "MEDIUM",
    confidence: 0.5,
  };
  const cases: [unknown[], RegExp][] = [
    [
      [task({ predicted: { ...esc, exception_type: "DUPLICATE" } })],
      /predicted\.exception_type must be null when verdict is ESCALATE, got "DUPLICATE"/,
    ],
    [
      [task({ samples: [verdict({ verdict: "MATCH" })] })],
      /samples\[0\]\.exception_type must be null when verdict is MATCH/,
    ],
    [
      [task({ raw_empty: true })],
      /raw_empty is true but predicted holds a verdict/,
    ],
    [
      [task({ predicted: null, samples: [null, verdict()] })],
      /predicted is null but 1 of samples parsed/,
    ],
    [
      [task({ samples: [null, null] })],
      /predicted holds a verdict but no entry of samples parsed/,
    ],
    [
      [task({
        self_consistency_confidence: 1,
        samples: [verdict(), verdict({ confidence: 0.1 })],
      })],
      /self_consistency_confidence is 1 but 1 of 2 parsed samples equal predicted \(0\.5\)/,
    ],
    [
      [task({ predicted: verdict({ exception_type: "DUPLICATES" }) })],
      /predicted\.exception_type must be null or one of ReconForge's types/,
    ],
    [
      [task({
        expected: {
          verdict: "ESCALATE",
          exception_type: null,
          severity: "LOW",
        },
      })],
      /expected\.verdict must be "MATCH" or "EXCEPTION" \(a gold verdict\), got "ESCALATE"/,
    ],
    [
      [task({
        expected: {
          verdict: "EXCEPTION",
          exception_type: "DUPLICATE",
          severity: "CRITICAL",
        },
      })],
      /expected\.severity must be one of LOW, MEDIUM, HIGH \(ReconForge's levels\), got "CRITICAL"/,
    ],
    [
      [task({ predicted: verdict({ confidence: 1.4 }) })],
      /predicted\.confidence must be in \[0, 1\], got 1\.4/,
    ],
    [
      [task({
        expected: {
          verdict: "EXCEPTION",
          exception_type: null,
          severity: "LOW",
        },
      })],
      /expected\.exception_type must name the exception/,
    ],
    [
      [task(), task()],
      /per_task\[1\] \(task_id "t1"\): task_id repeats per_task\[0\]/,
    ],
  ];
  for (const [perTask, message] of cases) {
    assert.throws(
      () => parseReconforge(doc(perTask), { path: "rf.json" }),
      (e: Error) =>
        e.message.startsWith(
          "Cannot load ReconForge file rf.json: per_task[",
        ) && message.test(e.message),
      String(message),
    );
  }
  assert.throws(
    () =>
      parseReconforge(
        doc([task({ samples: [verdict(), verdict()] })], {
          self_consistency: { samples: 3, temp: 0.6 },
        }),
        { path: "rf.json" },
      ),
    /per_task\[0\] \(task_id "t1"\): samples has 2 entries but self_consistency\.samples is 3/,
  );
  const { expected: _, ...noExpected } = task();
  assert.throws(
    () => parseReconforge(doc([noExpected]), { path: "rf.json" }),
    /per_task\[0\] \(task_id "t1"\): expected is missing/,
  );
});

Deno.test("parseReconforge() refuses a repeated key, text that is not JSON, and a partial run", () => {
  assert.throws(
    () =>
      parseReconforge('{"run": "r", "run": "s", "n": 0, "per_task": []}', {
        path: "rf.json",
      }),
    {
      name: "SyntaxError",
      message: /rf\.json: invalid JSON: .*duplicate key \$\.run/,
    },
  );
  assert.throws(() => parseReconforge("{", { path: "rf.json" }), {
    name: "SyntaxError",
    message: /rf\.json: invalid JSON/,
  });
  assert.throws(
    () =>
      parseReconforge(JSON.stringify({ run: "r", n: 3, per_task: [task()] }), {
        path: "rf.json",
      }),
    /rf\.json: n is 3 but per_task has 1 elements/,
  );
});

// ---- the file's own summary ----

Deno.test("parseReconforge() refuses a file whose summary disagrees with its per_task, naming the field and both values", async () => {
  const frontier = await fixture(FRONTIER);
  const fineTune = await fixture(FINE_TUNE);
  const tamper = (d: Json, section: string, patch: Json) =>
    JSON.stringify({ ...d, [section]: { ...(d[section] as Json), ...patch } });
  const m = frontier.metrics as Json;
  const s = frontier.scoring as Json;
  const cm = s.confusion_matrix as Record<string, Json>;
  const cases: [string, RegExp][] = [
    [
      tamper(frontier, "metrics", { accuracy: 0.8762 }),
      /metrics\.accuracy is 0\.8762 but per_task gives 0\.675 \(27 of 40 correct\); the file's summary disagrees with its own records$/,
    ],
    [
      tamper(frontier, "scoring", { severity_weighted_recall: 0.9128 }),
      /scoring\.severity_weighted_recall is 0\.9128 but per_task gives 0\.745/,
    ],
    [
      tamper(frontier, "metrics", {
        per_type_recall: { ...(m.per_type_recall as Json), LOW: 0.5 },
      }),
      /metrics\.per_type_recall\.LOW is 0\.5 but per_task gives 0\.25/,
    ],
    [
      tamper(frontier, "metrics", { n_escalations: 3 }),
      /metrics\.n_escalations is 3 but per_task gives 2 \(ESCALATE verdicts on exception tasks\)/,
    ],
    [
      tamper(frontier, "scoring", {
        confusion_matrix: { ...cm, DUPLICATE: { MATCH: 1, DUPLICATE: 1 } },
      }),
      /scoring\.confusion_matrix\["DUPLICATE"\]\["DUPLICATE"\] is 1 but per_task gives 0/,
    ],
    [
      tamper(frontier, "metrics", { n_empty_responses: 0 }),
      /metrics\.n_empty_responses is 0 but per_task gives 1/,
    ],
    [
      tamper(fineTune, "metrics", { ece_self_consistency: 0.0123 }),
      /metrics\.ece_self_consistency is 0\.0123 but per_task gives 0\.1666/,
    ],
    [
      tamper(fineTune, "metrics", { parse_fail_samples: 0 }),
      /metrics\.parse_fail_samples is 0 but per_task gives 4/,
    ],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parseReconforge(text, { path: "rf.json" }), {
      name: "RangeError",
      message,
    });
  }
  // a figure within half a unit of the 4th decimal is ReconForge's rounding, not a disagreement
  const rounded = tamper(frontier, "metrics", { accuracy: 0.67504 });
  assert.equal(parseReconforge(rounded).decisions.length, 40);
  // without summary sections, per_task alone is scored and nothing is verified
  const { metrics: _m, scoring: _s, ...bare } = frontier;
  assert.deepEqual(parseReconforge(JSON.stringify(bare)).verified, []);
  assert.ok(s.n_tasks === 40);
});

Deno.test("a parse miss on a clean task is wrong for ReconForge's accuracy and right for lossbook's MATCH fallback, and the notes count it", () => {
  const clean = { verdict: "MATCH", exception_type: null, severity: "LOW" };
  const { decisions, notes, scores } = parseReconforge(doc([
    task({ task_id: "c", expected: clean, predicted: null, raw_empty: false }),
  ]));
  assert.equal(notes.parseMissesOnCleanTasks, 1);
  assert.equal(scores.accuracy, 0);
  assert.equal(accuracy(decisionStats(decisionTable(decisions))).value, 1);
});

// ---- the shipped example ----

Deno.test("loadReconforge() on the shipped example maps parse misses to MATCH, untyped verdicts to their own class, and verifies its summary", async () => {
  const { decisions, notes, verified } = await loadReconforge(EXAMPLE);
  assert.equal(decisions.length, 12);
  assert.equal(notes.parseMisses, 1);
  assert.equal(notes.untypedExceptionVerdicts, 1);
  const miss = decisions.find((d) => d.taskId === "rf-008")!;
  assert.deepEqual(
    [miss.predClass, miss.parseOk, miss.pCorrect, miss.outcome],
    ["MATCH", false, null, "harness_failure"],
  );
  assert.equal(
    decisions.find((d) => d.taskId === "rf-007")!.predClass,
    UNTYPED_EXCEPTION,
  );
  assert.equal(
    decisions.find((d) => d.taskId === "rf-010")!.trueClass,
    "MATCH",
  );
  assert.ok(
    decisions.every((d) =>
      d.modelId === "example-run" && d.cost.completeness === "unavailable"
    ),
  );
  assert.ok(verified.includes("metrics.severity_weighted_recall"));
});

Deno.test("ReconForge accuracy and R_w on the shipped example match a hand count", async () => {
  const { decisions } = await loadReconforge(EXAMPLE);
  const stats = decisionStats(decisionTable(decisions));
  // right answers: rf-001, 003, 005, 009, 010, 012 -> 6 of 12
  assert.equal(accuracy(stats).value, 0.5);
  // R_w over the 9 exceptions; HIGH caught by any exception verdict:
  // caught: AMOUNT 1.0 (001), FX 1.0 (002, wrong type but flagged), BENEFICIARY 0.9 (003),
  //         VALUE_DATE 0.6 (005), FIELD_CORRUPTION 0.2 (009) = 3.7
  // total:  1.0 + 1.0 + 0.9 + 0.9 + 0.6 + 0.6 + 0.5 + 0.2 + 0.2 = 5.9
  assert.ok(Math.abs(severityWeightedRecall(stats)! - 3.7 / 5.9) < 1e-12);
});

Deno.test("parseReconforge() on the shipped example reads the self-consistency confidence by default and the stated one when asked", async () => {
  const text = await Deno.readTextFile(EXAMPLE);
  const byDefault = parseReconforge(text).decisions;
  const rf2 = byDefault.find((x) => x.taskId === "rf-002")!;
  assert.deepEqual([rf2.pCorrect, rf2.pCorrectSource], [0.6667, "agreement@3"]);
  const stated = parseReconforge(text, { pCorrectFrom: "stated" }).decisions;
  assert.equal(stated.find((x) => x.taskId === "rf-002")!.pCorrect, 0.8);
  assert.equal(
    parseReconforge(text, { modelId: "mine" }).decisions[0].modelId,
    "mine",
  );
});

Deno.test("loadReconforge() puts the path in errors", async () => {
  const path = await tempFile("bad.json", doc([task({ expected: "oops" })]));
  await assert.rejects(
    () => loadReconforge(path),
    new RegExp(`Cannot load ReconForge file ${path}: per_task\\[0\\]`),
  );
  const bytes = await tempFile("latin1.json", "");
  await Deno.writeFile(bytes, new Uint8Array([0x7b, 0xff, 0x7d]));
  await assert.rejects(() => loadReconforge(bytes), {
    name: "SyntaxError",
    message: `Cannot read ${bytes}: invalid UTF-8`,
  });
});

Deno.test("parseReconforge() reads timing, token and later cost summaries without checking them", () => {
  const { verified } = parseReconforge(doc([task()], {
    benchmark: "reconforge-bench",
    base_model: "base",
    adapter_path: "adapters/x",
    created_at: "2026-01-01T00:00:00+00:00",
    metrics: {
      accuracy: 1,
      wall_seconds: 12.5,
      mean_tokens_per_verdict_sample: 38.2,
      precision_recall_f1: { precision: 1, recall: 1, f1: 1, tp: 1, fp: 0 },
      severity_weighted_cost: { total_cost: 0, normalized_cost: 0 },
    },
  }));
  assert.deepEqual(verified, ["metrics.accuracy"]);
  // the model id comes from base_model and adapter_path when there is no model
  const d = parseReconforge(
    doc([task()], { base_model: "base", adapter_path: "adapters/x" }),
  ).decisions[0];
  assert.equal(d.modelId, "base+adapters/x");
});
