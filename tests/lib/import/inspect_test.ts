import assert from "node:assert/strict";
import {
  detectHarnessFormats,
  detectInput,
} from "../../../lib/import/detect.ts";
import { zipSync } from "fflate";
import {} from "../../../lib/import/harness.ts";
import {
  inspectImporter,
  loadInspectLog,
  parseInspectJsonLog,
} from "../../../lib/import/inspect.ts";
import { parseInspectEvalLog } from "../../../lib/import/inspect_eval.ts";
import { severityResolver } from "../../../lib/import/mapping.ts";
import { readZipEntries } from "../../../lib/import/_zip_read.ts";

const FIX = new URL("../../fixtures/inspect/", import.meta.url).pathname;
const HIGH = { severityOf: () => "HIGH" as const };
const bySeverityField = {
  severityOf: severityResolver({
    kind: "field",
    path: ["metadata", "severity"],
  }),
};

function log(samples: unknown[], extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    version: 2,
    status: "success",
    eval: {
      run_id: "run-1",
      model: "m/candidate",
      task: "t",
      created: "2026-01-01T00:00:00Z",
    },
    samples,
    ...extra,
  });
}

function sample(patch: Record<string, unknown> = {}) {
  return {
    id: 1,
    epoch: 1,
    input: "q",
    target: "No",
    scores: { match: { value: "C", answer: "No" } },
    metadata: { severity: "LOW" },
    ...patch,
  };
}

Deno.test("the deflate, zstd, chunked, in-progress and .json forms of one run give identical decisions", async () => {
  const forms = [
    "qwen_deflate.eval",
    "qwen_zstd.eval",
    "qwen_chunked.eval",
    "qwen_in_progress.eval",
    "qwen.json",
  ];
  const methods = forms.slice(0, 4).map((
    f,
  ) => [
    ...new Set(
      [...readZipEntries(Deno.readFileSync(FIX + f), f).values()].map((e) =>
        e.method
      ),
    ),
  ]);
  // the fixtures really are what their names say
  assert.deepEqual(methods, [[8], [93], [93], [93]]);
  const results = await Promise.all(
    forms.map((f) => loadInspectLog(FIX + f, bySeverityField)),
  );
  assert.equal(results[0].decisions.length, 9);
  for (const r of results.slice(1)) {
    assert.deepEqual(r.decisions, results[0].decisions);
    assert.deepEqual(r.setAside, results[0].setAside);
  }
  assert.match(results[3].messages.join("\n"), /still being written/);
  assert.equal(results[3].notes.inProgress, 1);
});

Deno.test("the scorer's verdict decides, never the answer text; the answer and target are kept", async () => {
  const { decisions } = await loadInspectLog(
    FIX + "qwen.json",
    bySeverityField,
  );
  const at = (taskId: string, trial: number) =>
    decisions.find((d) => d.taskId === taskId && d.trial === trial)!;
  // C with "No." for target "No" is correct
  assert.equal(at("1", 0).predClass, "verdict:correct");
  assert.equal(at("1", 0).answer, "No.");
  assert.equal(at("1", 0).target, "No");
  // I whose answer equals the target is still incorrect
  assert.equal(at("2", 0).answer, at("2", 0).target);
  assert.equal(at("2", 0).predClass, "verdict:incorrect");
  // N: no answer, parseOk false
  assert.equal(at("3", 1).predClass, "verdict:no_answer");
  assert.equal(at("3", 1).parseOk, false);
  for (const d of decisions) {
    assert.equal(d.trueClass, "verdict:correct");
    assert.equal(d.action, "auto");
  }
});

Deno.test("taskId is the sample id, trial is epoch - 1, model and run from the eval spec, severity from metadata", async () => {
  const { decisions } = await loadInspectLog(
    FIX + "qwen.json",
    bySeverityField,
  );
  assert.deepEqual(
    [...new Set(decisions.map((d) => d.taskId))],
    ["1", "2", "3", "4", "dup-5"],
  );
  assert.deepEqual([...new Set(decisions.map((d) => d.trial))].sort(), [0, 1]);
  assert.ok(decisions.every((d) => d.modelId === "ollama/qwen2.5:0.5b"));
  assert.ok(decisions.every((d) => d.runId === "Qw3nRunX7mP2aLk9dE4sTb"));
  assert.equal(decisions.find((d) => d.taskId === "2")!.severity, "LOW");
  assert.equal(decisions.find((d) => d.taskId === "4")!.severity, "MEDIUM");
});

Deno.test("an error with no score is set aside as harness_failure, not a wrong answer; a timed-out I is a priced timeout", async () => {
  const r = await loadInspectLog(FIX + "qwen.json", HIGH);
  assert.deepEqual(r.setAside, [{
    taskId: "4",
    trial: 1,
    outcome: "harness_failure",
    reason: "error and no score",
  }]);
  assert.ok(!r.decisions.some((d) => d.taskId === "4" && d.trial === 1));
  const timedOut = r.decisions.find((d) =>
    d.taskId === "dup-5" && d.trial === 1
  )!;
  assert.equal(timedOut.outcome, "timeout");
  assert.equal(timedOut.predClass, "verdict:incorrect");
  assert.match(
    r.messages.join("\n"),
    /set aside 1 unscored sample .*4\/2 harness_failure/,
  );
});

Deno.test("tokens count the candidate model only, input including cache reads and writes; cost is never 0 when unknown", async () => {
  const qwen = (await loadInspectLog(FIX + "qwen.json", HIGH)).decisions;
  // sample 1 epoch 1: 61 input + 20 cache read; the grader's 140 are not the candidate's
  assert.equal(qwen[0].tokensIn, 81);
  assert.equal(qwen[0].tokensOut, 2);
  const dup = qwen.find((d) => d.taskId === "dup-5" && d.trial === 0)!;
  assert.equal(dup.tokensIn, 59 + 12); // cache write
  assert.ok(
    qwen.every((d) =>
      d.cost.completeness === "unavailable" && d.cost.usd === null
    ),
  );
  assert.equal(qwen[0].latencyMs, 812);
  const sonnet = (await loadInspectLog(FIX + "sonnet.json", HIGH)).decisions;
  assert.deepEqual(sonnet[0].cost, { completeness: "complete", usd: 0.000225 });
});

Deno.test("P or a fractional score is refused unless --partial says how to count it", () => {
  for (const value of ["P", 0.5]) {
    const text = log([sample({ scores: { match: { value } } })]);
    assert.throws(
      () => parseInspectJsonLog(text, { ...HIGH, file: "p.json" }),
      {
        name: "RangeError",
        message: new RegExp(
          `^Cannot import inspect log p\\.json: sample 1 epoch 1: scores\\.match\\.value is partial credit \\(${
            value === "P" ? '"P"' : "0\\.5"
          }\\); say how to count it with --partial correct\\|incorrect$`,
        ),
      },
    );
    const counted = parseInspectJsonLog(text, { ...HIGH, partial: "correct" });
    assert.equal(counted.decisions[0].predClass, "verdict:correct");
    assert.equal(counted.notes.partialCounted, 1);
    assert.equal(
      parseInspectJsonLog(text, { ...HIGH, partial: "incorrect" }).decisions[0]
        .predClass,
      "verdict:incorrect",
    );
  }
});

Deno.test("numeric and boolean scores map like C and I; other values are refused, naming the field", () => {
  const values: Array<[unknown, string]> = [
    [1, "verdict:correct"],
    [0, "verdict:incorrect"],
    [true, "verdict:correct"],
    [false, "verdict:incorrect"],
    ["N", "verdict:no_answer"],
  ];
  for (const [value, cls] of values) {
    const r = parseInspectJsonLog(
      log([sample({ scores: { match: { value } } })]),
      HIGH,
    );
    assert.equal(r.decisions[0].predClass, cls, String(value));
  }
  assert.throws(
    () =>
      parseInspectJsonLog(log([sample({ scores: { match: { value: 2 } } })]), {
        ...HIGH,
        file: "v.json",
      }),
    /v\.json: sample 1 epoch 1: scores\.match\.value must be C, I, P, N/,
  );
  assert.throws(
    () =>
      parseInspectJsonLog(
        log([sample({ scores: { match: { value: { a: 1 } } } })]),
        HIGH,
      ),
    /a scorer with several values is not a verdict/,
  );
});

Deno.test("with several scorers, --scorer picks one; without it the log is refused as ambiguous", () => {
  const text = log([
    sample({ scores: { match: { value: "C" }, judge: { value: "I" } } }),
  ]);
  assert.throws(
    () => parseInspectJsonLog(text, HIGH),
    /several scorers \(match, judge\); say which decides correctness with --scorer NAME/,
  );
  assert.equal(
    parseInspectJsonLog(text, { ...HIGH, scorer: "judge" }).decisions[0]
      .predClass,
    "verdict:incorrect",
  );
  assert.throws(
    () => parseInspectJsonLog(text, { ...HIGH, scorer: "exact" }),
    /--scorer exact: no sample has that scorer; the log's scorers are match, judge/,
  );
  const partialScores = log([
    sample(),
    sample({ id: 2, scores: { judge: { value: "C" } } }),
  ]);
  assert.throws(
    () => parseInspectJsonLog(partialScores, { ...HIGH, scorer: "match" }),
    /sample 2 epoch 1: scores has no match \(it has judge\)/,
  );
});

Deno.test("limits and cancellations map onto the outcome classes as docs/formats.md says", () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{
      limit: { type: "token", limit: 100 },
      scores: { match: { value: "I" } },
    }, "model_failure"],
    [{
      limit: { type: "working", limit: 60 },
      scores: { match: { value: "I" } },
    }, "timeout"],
    [{
      limit: { type: "operator", limit: 1 },
      scores: { match: { value: "I" } },
    }, "cancelled"],
    [{
      limit: { type: "message", limit: 10 },
      scores: { match: { value: "C" } },
    }, "resolved"],
  ];
  for (const [patch, outcome] of cases) {
    assert.equal(
      parseInspectJsonLog(log([sample(patch)]), HIGH).decisions[0].outcome,
      outcome,
      JSON.stringify(patch),
    );
  }
  const aside: Array<[Record<string, unknown>, string]> = [
    [{ limit: { type: "operator", limit: 1 }, scores: undefined }, "cancelled"],
    [{ limit: { type: "time", limit: 1 }, scores: undefined }, "timeout"],
    [
      { limit: { type: "context", limit: 1 }, scores: undefined },
      "harness_failure",
    ],
    [{
      error: { message: "boom", traceback: "", traceback_ansi: "" },
      scores: undefined,
    }, "harness_failure"],
    [{ scores: { match: { value: NaN } } }, "grader_failure"],
  ];
  for (const [patch, outcome] of aside) {
    const r = parseInspectInline(patch);
    assert.equal(r.decisions.length, 0);
    assert.equal(r.setAside![0].outcome, outcome, JSON.stringify(patch));
  }
  assert.throws(
    () =>
      parseInspectJsonLog(
        log([sample({ limit: { type: "budget", limit: 1 } })]),
        HIGH,
      ),
    /limit\.type must be one of context, time/,
  );
  assert.throws(
    () => parseInspectJsonLog(log([sample({ scores: undefined })]), HIGH),
    /scores is missing and the sample has no error or limit; score the log first/,
  );
});

function parseInspectInline(patch: Record<string, unknown>) {
  const s = sample(patch);
  const text = log([s]).replace('"value":null', '"value":NaN');
  return parseInspectJsonLog(text, HIGH);
}

Deno.test("bare NaN and Infinity are read; a repeated key is refused naming its path", () => {
  const text = log([sample()]).replace(
    '"status":"success"',
    '"status":"success","results":{"scores":[{"metrics":{"stderr":{"value":NaN}, "x": {"value": Infinity}}}]}',
  );
  assert.equal(parseInspectJsonLog(text, HIGH).decisions.length, 1);
  const dup = log([sample()]).replace('"epoch":1', '"epoch":1,"epoch":2');
  assert.throws(
    () => parseInspectJsonLog(dup, { ...HIGH, file: "d.json" }),
    /^SyntaxError: Cannot parse JSON d\.json: line 1 column \d+: duplicate key \$\.samples\[0\]\.epoch$/,
  );
});

Deno.test("bad samples are refused with the file, the sample and the field", () => {
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [
      { epoch: 0 },
      /x\.json: sample 1: epoch must be a whole number >= 1, got 0/,
    ],
    [
      { id: 1.5 },
      /x\.json: samples\[0\]: id must be an integer or a non-empty string/,
    ],
    [
      { total_time: -1 },
      /sample 1 epoch 1: total_time must be a finite number of seconds >= 0/,
    ],
    [
      {
        model_usage: { "m/candidate": { input_tokens: -3, output_tokens: 1 } },
      },
      /sample 1 epoch 1: model_usage\["m\/candidate"\]\.input_tokens must be a whole number >= 0, got -3/,
    ],
    [
      {
        model_usage: {
          "m/candidate": {
            input_tokens: 3,
            output_tokens: 1,
            total_cost: "free",
          },
        },
      },
      /model_usage\["m\/candidate"\]: model_usage total_cost must be a finite number >= 0 or null/,
    ],
  ];
  for (const [patch, message] of bad) {
    assert.throws(
      () =>
        parseInspectJsonLog(log([sample(patch)]), { ...HIGH, file: "x.json" }),
      message,
    );
  }
  assert.throws(
    () =>
      parseInspectJsonLog(log([sample(), sample()]), {
        ...HIGH,
        file: "x.json",
      }),
    /sample 1 epoch 1: appears twice \(samples\[0\] and samples\[1\]\)/,
  );
  assert.throws(
    () =>
      parseInspectJsonLog(
        JSON.stringify({
          version: 2,
          status: "success",
          eval: { run_id: "", model: "m" },
        }),
        { ...HIGH, file: "x.json" },
      ),
    /x\.json: eval\.run_id must be a non-empty string/,
  );
  assert.throws(
    () =>
      parseInspectJsonLog(log([sample({ metadata: {} })]), {
        ...bySeverityField,
        file: "x.json",
      }),
    /x\.json: sample 1 epoch 1: metadata\.severity is missing/,
  );
});

Deno.test("a cost of null stays unavailable and a cost of 0 stays a complete 0", () => {
  const usage = (total_cost: unknown) => ({
    "m/candidate": { input_tokens: 3, output_tokens: 1, total_cost },
  });
  assert.deepEqual(
    parseInspectJsonLog(log([sample({ model_usage: usage(null) })]), HIGH)
      .decisions[0].cost,
    { completeness: "unavailable", usd: null },
  );
  assert.deepEqual(
    parseInspectJsonLog(log([sample({ model_usage: usage(0) })]), HIGH)
      .decisions[0].cost,
    { completeness: "complete", usd: 0 },
  );
  // usage of another model only: nothing known about the candidate
  const other = parseInspectJsonLog(
    log([
      sample({
        model_usage: {
          "x/grader": { input_tokens: 9, output_tokens: 9, total_cost: 1 },
        },
      }),
    ]),
    HIGH,
  ).decisions[0];
  assert.deepEqual(other.cost, { completeness: "unavailable", usd: null });
  assert.equal(other.tokensIn, undefined);
});

Deno.test("--pcorrect-from picks a probability source; the default order is agreement over epochs, then token logprobs", () => {
  const s = (epoch: number, answer: string, p: number) =>
    sample({
      epoch,
      scores: {
        match: {
          value: answer === "No" ? "C" : "I",
          answer,
          metadata: { confidence: p },
        },
      },
      output: {
        choices: [{
          message: { role: "assistant", content: answer },
          logprobs: { content: [{ token: answer, logprob: Math.log(0.6) }] },
        }],
      },
    });
  const text = log([s(1, "No", 0.9), s(2, "No", 0.8), s(3, "Yes", 0.3)]);
  const byDefault = parseInspectJsonLog(text, HIGH).decisions;
  assert.deepEqual(byDefault.map((d) => [d.pCorrect, d.pCorrectSource]), [
    [2 / 3, "agreement@3"],
    [2 / 3, "agreement@3"],
    [1 / 3, "agreement@3"],
  ]);
  const tokens =
    parseInspectJsonLog(text, { ...HIGH, pcorrectFrom: "logprob-token" })
      .decisions;
  assert.ok(
    tokens.every((d) =>
      Math.abs(d.pCorrect! - 0.6) < 1e-12 &&
      d.pCorrectSource === "logprob-token"
    ),
  );
  const meta = parseInspectJsonLog(text, {
    ...HIGH,
    pcorrectFrom: "score-metadata:confidence",
  }).decisions;
  assert.deepEqual(meta.map((d) => [d.pCorrect, d.pCorrectSource]), [
    [0.9, "score-metadata:confidence"],
    [0.8, "score-metadata:confidence"],
    [0.3, "score-metadata:confidence"],
  ]);
  assert.ok(
    parseInspectJsonLog(text, { ...HIGH, pcorrectFrom: "stated" }).decisions
      .every((d) => d.pCorrect === null && d.pCorrectSource === null),
  );
  const badMeta = log([
    sample({
      scores: { match: { value: "C", metadata: { confidence: 1.5 } } },
    }),
  ]);
  assert.throws(
    () =>
      parseInspectJsonLog(badMeta, {
        ...HIGH,
        pcorrectFrom: "score-metadata:confidence",
        file: "m.json",
      }),
    /m\.json: sample 1 epoch 1: pCorrect from score-metadata:confidence must be in \[0, 1\], got 1\.5/,
  );
});

Deno.test("a re-logged sample entry resolves to its last copy, as inspect reads it", () => {
  const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  const zipped = zipSync({
    "header.json": enc({
      version: 2,
      status: "success",
      eval: { run_id: "r", model: "m" },
    }),
    "samples/1_epoch_1.json": enc(
      sample({ scores: { match: { value: "I" } } }),
    ),
    "samples/1_epoch_X.json": enc(
      sample({ scores: { match: { value: "C" } } }),
    ),
  });
  // rename the second entry to the first one's name, in its local and central headers
  const from = new TextEncoder().encode("samples/1_epoch_X.json");
  const to = new TextEncoder().encode("samples/1_epoch_1.json");
  for (let i = 0; i + from.length <= zipped.length; i++) {
    if (from.every((b, k) => zipped[i + k] === b)) zipped.set(to, i);
  }
  const r = parseInspectEvalLog(zipped, HIGH);
  assert.equal(r.decisions.length, 1);
  assert.equal(r.decisions[0].predClass, "verdict:correct");
  assert.throws(
    () =>
      parseInspectEvalLog(zipSync({ "x.json": enc({}) }), {
        ...HIGH,
        file: "n.eval",
      }),
    /n\.eval: neither header\.json nor _journal\/start\.json is in the archive/,
  );
  assert.throws(
    () =>
      parseInspectEvalLog(new Uint8Array([1, 2, 3]), {
        ...HIGH,
        file: "z.eval",
      }),
    /Cannot read zip z\.eval: no end of central directory record/,
  );
});

Deno.test("detection claims inspect logs and nothing else among the shipped harness examples", async () => {
  for (const f of ["qwen_zstd.eval", "qwen.json", "qwen_in_progress.eval"]) {
    assert.deepEqual(detectHarnessFormats(await detectInput(FIX + f)), [
      "inspect",
    ], f);
  }
  const reconforge =
    new URL("../../../data/examples/reconforge_run.json", import.meta.url)
      .pathname;
  assert.equal(inspectImporter.detect(await detectInput(reconforge)), false);
  const model =
    new URL("../../../data/examples/model_ab.jsonl", import.meta.url).pathname;
  assert.equal(inspectImporter.detect(await detectInput(model)), false);
});
