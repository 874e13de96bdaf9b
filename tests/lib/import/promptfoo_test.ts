import assert from "node:assert/strict";
import {
  detectPromptfoo,
  loadPromptfooResults,
  parsePromptfooResults,
  promptfooImporter,
} from "../../../lib/import/promptfoo.ts";
import { severityResolver } from "../../../lib/import/mapping.ts";
import { decisionSchema } from "../../../lib/decision/decision.ts";

const ONE = "tests/fixtures/promptfoo/results.json";
const TWO = "tests/fixtures/promptfoo/two_prompts.json";
const HIGH = () => "HIGH" as const;
const opts = { correct: ["equals"], severityOf: HIGH, path: "r.json" };

type Result = Record<string, unknown>;

function result(patch: Result = {}): Result {
  return {
    promptIdx: 0,
    testIdx: 0,
    promptId: "p0",
    provider: { id: "openai:gpt-4o-mini" },
    response: {
      output: "DUPLICATE",
      tokenUsage: { total: 43, prompt: 40, completion: 3 },
    },
    failureReason: 0,
    success: true,
    score: 1,
    latencyMs: 800,
    cost: 0.00003,
    gradingResult: {
      pass: true,
      score: 1,
      reason: "",
      componentResults: [
        {
          pass: true,
          score: 1,
          reason: "",
          assertion: { type: "equals", value: "DUPLICATE" },
        },
        {
          pass: true,
          score: 1,
          reason: "",
          assertion: { type: "latency", threshold: 1500 },
        },
      ],
    },
    ...patch,
  };
}

const file = (results: Result[], version = 3) =>
  JSON.stringify({ evalId: "e1", results: { version, results, prompts: [] } });

interface Fixture {
  evalId: string;
  results: {
    results: {
      testIdx: number;
      promptIdx: number;
      success: boolean;
      cost: number;
      latencyMs: number;
      failureReason: number;
      response: {
        tokenUsage?: { prompt: number; completion: number };
        logProbs?: number[];
      };
      gradingResult?: {
        componentResults: { pass: boolean; assertion: { type: string } }[];
      };
    }[];
  };
}

Deno.test("loadPromptfooResults() decides from the named assertion types, not from success", async () => {
  const fx: Fixture = JSON.parse(await Deno.readTextFile(ONE));
  const { decisions, notes } = await loadPromptfooResults(ONE, {
    correct: ["equals"],
    severityOf: HIGH,
  });
  assert.equal(decisions.length, fx.results.results.length - 1);
  assert.deepEqual(notes, { setAside: 1 });
  let rightButFailed = 0;
  fx.results.results.forEach((r, i) => {
    if (r.gradingResult === undefined) return;
    const d = decisions[i];
    assert.equal(d.runId, fx.evalId);
    assert.equal(d.modelId, "openai:gpt-4o-mini");
    assert.equal(d.taskId, String(r.testIdx));
    assert.ok(decisionSchema.safeParse(d).success);
    const equals = r.gradingResult.componentResults.find((c) =>
      c.assertion.type === "equals"
    )!;
    assert.equal(
      d.predClass,
      equals.pass ? "verdict:correct" : "verdict:incorrect",
    );
    if (equals.pass && !r.success) rightButFailed++;
    // cost in USD, complete; tokens and latency from the result
    assert.deepEqual(d.cost, { completeness: "complete", usd: r.cost });
    assert.equal(d.tokensIn, r.response.tokenUsage!.prompt);
    assert.equal(d.tokensOut, r.response.tokenUsage!.completion);
    assert.equal(d.latencyMs, r.latencyMs);
    const lp = r.response.logProbs!;
    assert.ok(
      Math.abs(d.pCorrect! - Math.exp(lp.reduce((s, x) => s + x, 0))) < 1e-12,
    );
    assert.equal(d.pCorrectSource, "logprob-token");
  });
  // the fixture has a right answer that failed only its latency or cost assertion
  assert.ok(rightButFailed > 0);
  assert.ok(decisions.some((d) => d.predClass === "verdict:incorrect"));
});

Deno.test("loadPromptfooResults() sets an errored call aside as a harness failure, not a wrong answer", async () => {
  const { decisions, setAside, notes, messages } = await loadPromptfooResults(
    ONE,
    { correct: ["equals"], severityOf: HIGH },
  );
  assert.equal(decisions.length, 5);
  assert.ok(!decisions.some((d) => d.taskId === "5"));
  assert.equal(notes.setAside, 1);
  assert.deepEqual(setAside, [{
    taskId: "5",
    trial: 0,
    outcome: "harness_failure",
    reason:
      "openai:gpt-4o-mini: API call error: Error: Request timed out after 30000 ms",
  }]);
  assert.match(
    messages[1],
    /^set aside 1 errored call \(not decisions, not wrong answers\): test 5 harness_failure/,
  );
});

Deno.test("loadPromptfooResults() puts the prompt in the task id only when the file has several prompts, so providers pair", async () => {
  const { decisions } = await loadPromptfooResults(TWO, {
    correct: ["equals"],
    severityOf: HIGH,
  });
  const ids = (m: string) =>
    decisions.filter((d) => d.modelId === m).map((d) => d.taskId).sort();
  const expected = ["0/0", "0/1", "1/0", "1/1", "2/0", "2/1"];
  assert.deepEqual(ids("openai:gpt-4o-mini"), expected);
  // promptIdx of the second provider runs 2..3, yet its prompts are the same two
  assert.deepEqual(
    ids("anthropic:messages:claude-3-5-haiku-20241022"),
    expected,
  );
  const single = parsePromptfooResults(file([result()]), opts);
  assert.equal(single.decisions[0].taskId, "0");
});

Deno.test("parsePromptfooResults() needs every named assertion type to pass", () => {
  const r = result();
  const g = r.gradingResult as { componentResults: unknown[] };
  g.componentResults.push({
    pass: false,
    score: 0,
    reason: "",
    assertion: { type: "contains", value: "DUP" },
  });
  const both = parsePromptfooResults(file([r]), {
    ...opts,
    correct: ["equals", "contains"],
  });
  assert.equal(both.decisions[0].predClass, "verdict:incorrect");
  assert.equal(
    parsePromptfooResults(file([r]), opts).decisions[0].predClass,
    "verdict:correct",
  );
});

Deno.test("parsePromptfooResults() opens assert-sets to find the named assertions", () => {
  const r = result({
    gradingResult: {
      pass: true,
      score: 1,
      reason: "",
      componentResults: [{
        pass: true,
        score: 1,
        reason: "",
        assertion: { type: "assert-set" },
        componentResults: [{
          pass: false,
          score: 0,
          reason: "",
          assertion: { type: "equals", value: "X" },
        }],
      }],
    },
  });
  const { decisions } = parsePromptfooResults(file([r]), opts);
  assert.equal(decisions[0].predClass, "verdict:incorrect");
  assert.equal(decisions[0].target, "X");
});

Deno.test("parsePromptfooResults() refuses without --correct, and the importer says the flag is required", async () => {
  assert.throws(
    () => parsePromptfooResults(file([result()]), { ...opts, correct: [] }),
    /--correct TYPE\[,TYPE\] is required: promptfoo's success also fails on cost and latency assertions/,
  );
  await assert.rejects(
    () => promptfooImporter.import(ONE, { severityOf: HIGH }),
    (e: Error) =>
      e instanceof TypeError && e.message.includes(ONE) &&
      /--correct/.test(e.message),
  );
});

Deno.test("parsePromptfooResults() refuses a result without the named assertions, naming testIdx and the types it has", () => {
  assert.throws(
    () =>
      parsePromptfooResults(file([result(), result({ testIdx: 4 })]), {
        ...opts,
        correct: ["icontains"],
      }),
    (e: Error) =>
      e instanceof RangeError &&
      e.message ===
        "Cannot load promptfoo results r.json: results.results[0] (testIdx 0): gradingResult.componentResults has no assertion of type icontains (--correct); it has equals, latency",
  );
});

Deno.test("parsePromptfooResults() refuses another results version, a missing evalId, and a repeated result", () => {
  assert.throws(
    () => parsePromptfooResults(file([result()], 2), opts),
    /r\.json: results\.version must be 3 .*got 2/,
  );
  assert.throws(
    () =>
      parsePromptfooResults(
        JSON.stringify({ results: { version: 3, results: [] } }),
        opts,
      ),
    /r\.json: evalId must be a non-empty string, got nothing/,
  );
  assert.throws(
    () => parsePromptfooResults(file([result(), result()]), opts),
    /results\.results\[1\] \(testIdx 0\): repeats results\.results\[0\] \(same provider, prompt and testIdx\)/,
  );
});

Deno.test("parsePromptfooResults() refuses a bad cost, token count, latency or logProbs, naming the field", () => {
  assert.throws(
    () => parsePromptfooResults(file([result({ cost: -1 })]), opts),
    /\(testIdx 0\): cost must be a number >= 0, got -1/,
  );
  assert.throws(
    () =>
      parsePromptfooResults(
        file([
          result({ response: { output: "x", tokenUsage: { prompt: 2.5 } } }),
        ]),
        opts,
      ),
    /response\.tokenUsage\.prompt must be an integer >= 0, got 2\.5/,
  );
  assert.throws(
    () => parsePromptfooResults(file([result({ latencyMs: "fast" })]), opts),
    /latencyMs must be a number >= 0, got "fast"/,
  );
  assert.throws(
    () =>
      parsePromptfooResults(
        file([result({ response: { output: "x", logProbs: [0.5] } })]),
        opts,
      ),
    /response\.logProbs must be a list of log-probabilities/,
  );
  assert.throws(
    () => parsePromptfooResults(file([result({ gradingResult: null })]), opts),
    /gradingResult is missing, and failureReason 0 is not an error/,
  );
});

Deno.test("parsePromptfooResults() leaves cost unavailable when a result has none, and reads severity from test metadata", () => {
  const severityOf = severityResolver({
    kind: "field",
    path: ["testCase", "metadata", "severity"],
  });
  const r = result({
    cost: undefined,
    testCase: { metadata: { severity: "CRITICAL" } },
  });
  const { decisions } = parsePromptfooResults(file([r]), {
    ...opts,
    severityOf,
  });
  assert.deepEqual(decisions[0].cost, {
    completeness: "unavailable",
    usd: null,
  });
  assert.equal(decisions[0].severity, "CRITICAL");
  // no logprobs, or all zero: no probability
  assert.equal(decisions[0].pCorrect, null);
  const zeros = result({ response: { output: "DUPLICATE", logProbs: [0, 0] } });
  assert.equal(
    parsePromptfooResults(file([zeros]), opts).decisions[0].pCorrect,
    null,
  );
});

Deno.test("detectPromptfoo() recognises a results file, and the importer is registered as promptfoo", async () => {
  const head = (await Deno.readFile(ONE)).subarray(0, 65536);
  assert.equal(detectPromptfoo({ path: ONE, isDirectory: false, head }), true);
  const rf = new TextEncoder().encode('{"run": "x", "n": 0, "per_task": []}');
  assert.equal(
    detectPromptfoo({ path: "a.json", isDirectory: false, head: rf }),
    false,
  );
  const r = await promptfooImporter.import(ONE, {
    severityOf: HIGH,
    correct: ["equals"],
  });
  assert.equal(
    r.messages[0],
    "promptfoo eval-a1b-2026-11-30T10:00:00: correct when every equals assertion passed",
  );
  assert.equal(r.messages[2], "pCorrect source: logprob-token (5)");
});
