import assert from "node:assert/strict";
import fc from "fast-check";
import {
  detectLmEval,
  lmEvalImporter,
  lmEvalSamplesName,
  loadLmEvalSamples,
  parseLmEvalSamples,
} from "../../../lib/import/lm_eval.ts";
import { severityResolver } from "../../../lib/import/mapping.ts";
import { decisionSchema } from "../../../lib/decision/decision.ts";
import { tempDir } from "../../_helpers.ts";

const DIR = "tests/fixtures/lm_eval";
const MC = `${DIR}/samples_recon_mc_2026-11-30T10-00-00.123456.jsonl`;
const GEN = `${DIR}/samples_recon_net_2026-11-30T11-00-00.654321.jsonl`;
const HIGH = () => "HIGH" as const;

type Line = Record<string, unknown>;

function mcLine(patch: Line = {}): Line {
  return {
    doc_id: 0,
    doc: { severity: "LOW" },
    target: "1",
    arguments: {
      gen_args_0: { arg_0: "Q:", arg_1: " no" },
      gen_args_1: { arg_0: "Q:", arg_1: " yes" },
    },
    resps: [[["-2.0", "False"]], [["-0.5", "True"]]],
    filtered_resps: [["-2.0", "False"], ["-0.5", "True"]],
    filter: "none",
    metrics: ["acc"],
    acc: 1.0,
    ...patch,
  };
}

const text = (lines: Line[]) => lines.map((l) => JSON.stringify(l)).join("\n");
const opts = { task: "t", modelId: "m", severityOf: HIGH };

async function fixtureLines(path: string): Promise<Line[]> {
  return (await Deno.readTextFile(path)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
}

function softmaxAt(s: number[], k: number): number {
  const e = s.map((x) => Math.exp(x));
  return e[k] / e.reduce((a, b) => a + b, 0);
}

Deno.test("loadLmEvalSamples() reads model and run from the results file beside the samples", async () => {
  const { decisions } = await loadLmEvalSamples(MC, { severityOf: HIGH });
  assert.equal(decisions.length, 8);
  for (const d of decisions) {
    assert.equal(d.modelId, "EleutherAI/pythia-160m");
    // results date (time.time()) and model_name_sanitized
    assert.equal(d.runId, "1796032800.123456_EleutherAI__pythia-160m");
    assert.equal(d.trial, 0);
    assert.deepEqual(d.cost, { completeness: "unavailable", usd: null });
    assert.equal(d.trueClass, "verdict:correct");
    assert.ok(decisionSchema.safeParse(d).success);
  }
  assert.deepEqual(
    decisions.map((d) => d.taskId),
    [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `recon_mc/${i}`),
  );
});

Deno.test("parseLmEvalSamples() takes correctness from the first metric and pCorrect from the softmax of option log-likelihoods", async () => {
  const lines = await fixtureLines(MC);
  const { decisions } = await loadLmEvalSamples(MC, { severityOf: HIGH });
  lines.forEach((line, i) => {
    const d = decisions[i];
    const ll = (line.filtered_resps as string[][]).map((p) => Number(p[0]));
    const k = ll.indexOf(Math.max(...ll));
    assert.equal(
      d.predClass,
      line.acc === 1 ? "verdict:correct" : "verdict:incorrect",
    );
    assert.ok(Math.abs(d.pCorrect! - softmaxAt(ll, k)) < 1e-12);
    assert.equal(d.pCorrectSource, "logprob-option");
    assert.equal(d.answer, (line.doc as { choices: string[] }).choices[k]);
    assert.equal(d.target, line.target);
  });
});

Deno.test("parseLmEvalSamples() length-normalises option scores by characters under acc_norm", async () => {
  const lines = await fixtureLines(MC);
  const { decisions } = await loadLmEvalSamples(MC, {
    severityOf: HIGH,
    metric: "acc_norm",
  });
  let differs = 0;
  lines.forEach((line, i) => {
    const choices = (line.doc as { choices: string[] }).choices;
    const ll = (line.filtered_resps as string[][]).map((p) => Number(p[0]));
    const norm = ll.map((l, j) => l / choices[j].length);
    const k = norm.indexOf(Math.max(...norm));
    const d = decisions[i];
    assert.equal(
      d.predClass,
      line.acc_norm === 1 ? "verdict:correct" : "verdict:incorrect",
    );
    assert.ok(Math.abs(d.pCorrect! - softmaxAt(norm, k)) < 1e-12);
    if (line.acc !== line.acc_norm) differs++;
  });
  // the fixture has docs where the two metrics disagree
  assert.ok(differs > 0);
});

Deno.test("parseLmEvalSamples() gives generation tasks no probability and keeps the filtered answer", async () => {
  const strict = await loadLmEvalSamples(GEN, {
    severityOf: HIGH,
    filter: "strict-match",
  });
  const flexible = await loadLmEvalSamples(GEN, {
    severityOf: HIGH,
    filter: "flexible-extract",
  });
  assert.equal(strict.decisions.length, 5);
  for (const d of [...strict.decisions, ...flexible.decisions]) {
    assert.equal(d.pCorrect, null);
    assert.equal(d.pCorrectSource, null);
  }
  const right = (r: typeof strict) =>
    r.decisions.filter((d) => d.predClass === "verdict:correct").length;
  // flexible-extract accepts answers strict-match rejects for their format
  assert.ok(right(flexible) > right(strict));
  assert.ok(strict.decisions.some((d) => d.answer === "[invalid]"));
});

Deno.test("parseLmEvalSamples() refuses a file with several filters unless --filter picks one", async () => {
  await assert.rejects(
    () => loadLmEvalSamples(GEN, { severityOf: HIGH }),
    (e: Error) =>
      e instanceof TypeError && e.message.includes(GEN) &&
      /doc_id 0 appears once per filter \("strict-match", "flexible-extract"\); choose one with --filter NAME/
        .test(e.message),
  );
  await assert.rejects(
    () => loadLmEvalSamples(GEN, { severityOf: HIGH, filter: "none" }),
    /--filter "none" names no line's filter; the file has "strict-match", "flexible-extract"/,
  );
});

Deno.test("loadLmEvalSamples() refuses samples with no results file and no --model-id, and reads them with one", async () => {
  const dir = await tempDir();
  const path = `${dir}/samples_recon_mc_2026-11-30T10-00-00.123456.jsonl`;
  await Deno.copyFile(MC, path);
  await assert.rejects(
    () => loadLmEvalSamples(path, { severityOf: HIGH }),
    (e: Error) =>
      e instanceof TypeError && e.message.includes(path) &&
      /no results_<date>\.json is beside the file; give --model-id NAME/.test(
        e.message,
      ),
  );
  const { decisions } = await loadLmEvalSamples(path, {
    severityOf: HIGH,
    modelId: "org/model:v1",
  });
  assert.equal(decisions[0].modelId, "org/model:v1");
  // date from the file name, model sanitised as lm-eval does
  assert.equal(decisions[0].runId, "2026-11-30T10-00-00.123456_org__model__v1");
});

Deno.test("loadLmEvalSamples() finds <stem>_<date>.json results and refuses two candidates", async () => {
  const dir = await tempDir();
  const path = `${dir}/samples_recon_mc_2026-11-30T10-00-00.123456.jsonl`;
  await Deno.copyFile(MC, path);
  await Deno.copyFile(
    `${DIR}/results_2026-11-30T10-00-00.123456.json`,
    `${dir}/out_2026-11-30T10-00-00.123456.json`,
  );
  const { decisions } = await loadLmEvalSamples(path, { severityOf: HIGH });
  assert.equal(decisions[0].modelId, "EleutherAI/pythia-160m");
  await Deno.copyFile(
    `${DIR}/results_2026-11-30T10-00-00.123456.json`,
    `${dir}/other_2026-11-30T10-00-00.123456.json`,
  );
  await assert.rejects(
    () => loadLmEvalSamples(path, { severityOf: HIGH }),
    /several results files match its date \(other_.*, out_.*\)/,
  );
});

Deno.test("parseLmEvalSamples() refuses a results file without model_name", () => {
  assert.throws(
    () =>
      parseLmEvalSamples(text([mcLine()]), {
        task: "t",
        results: { date: 1 },
        resultsPath: "r/results_x.json",
        severityOf: HIGH,
      }),
    /Cannot load lm-eval results r\/results_x\.json: model_name must be a non-empty string, got nothing/,
  );
});

Deno.test("parseLmEvalSamples() refuses a metric that is not 0 or 1, naming line, doc and field", () => {
  assert.throws(
    () =>
      parseLmEvalSamples(text([mcLine(), mcLine({ doc_id: 3, acc: 0.5 })]), {
        ...opts,
        path: "s/samples_t_2026-01-01T00-00-00.jsonl",
      }),
    (e: Error) =>
      e instanceof RangeError &&
      e.message ===
        'Cannot load lm-eval samples s/samples_t_2026-01-01T00-00-00.jsonl: line 2 (doc_id 3, filter "none"): acc must be 0 or 1 (or true/false) to say whether the answer is correct, got 0.5',
  );
  assert.throws(
    () => parseLmEvalSamples(text([mcLine()]), { ...opts, metric: "f1" }),
    /line 1 \(doc_id 0, filter "none"\): f1 is missing \(the sample has metrics acc\)/,
  );
});

Deno.test("parseLmEvalSamples() refuses a repeated doc, a non-numeric log-likelihood and a line that is not JSON", () => {
  assert.throws(
    () => parseLmEvalSamples(text([mcLine(), mcLine()]), opts),
    /line 2 \(doc_id 0, filter "none"\): doc_id repeats line 1/,
  );
  assert.throws(
    () =>
      parseLmEvalSamples(
        text([
          mcLine({ filtered_resps: [["-2.0", "False"], ["abc", "True"]] }),
        ]),
        opts,
      ),
    /line 1 \(doc_id 0, filter "none"\): filtered_resps\[1\]\[0\] must be a number \(or a number written as a string\), got "abc"/,
  );
  assert.throws(
    () => parseLmEvalSamples('{"doc_id": 0,', opts),
    (e: Error) => e instanceof SyntaxError && /line 1/.test(e.message),
  );
  assert.throws(
    () => parseLmEvalSamples(text([mcLine({ doc_id: "x" })]), opts),
    /line 1: doc_id must be an integer >= 0, got "x"/,
  );
});

Deno.test("parseLmEvalSamples() refuses a log whose metric contradicts its own log-likelihoods", () => {
  // option 1 has the higher log-likelihood and is the target, yet acc is 0
  assert.throws(
    () => parseLmEvalSamples(text([mcLine({ acc: 0 })]), opts),
    /acc is 0 but the highest-scoring option is 1 and the target is option 1; the log contradicts itself/,
  );
});

Deno.test("parseLmEvalSamples() refuses a file name that does not name the task", () => {
  assert.throws(
    () =>
      parseLmEvalSamples(text([mcLine()]), {
        modelId: "m",
        severityOf: HIGH,
        path: "run.jsonl",
      }),
    /the task name comes from a file name samples_<task>_<date>\.jsonl; this file is named "run\.jsonl"/,
  );
});

Deno.test("parseLmEvalSamples() reads -inf log-likelihoods and numbers not written as strings", () => {
  const { decisions } = parseLmEvalSamples(
    text([mcLine({ filtered_resps: [["-inf", "False"], [-0.5, "True"]] })]),
    opts,
  );
  assert.equal(decisions[0].pCorrect, 1);
});

Deno.test("parseLmEvalSamples() drops the unconditional half of acc_mutual_info requests from the softmax", () => {
  const line = mcLine({
    arguments: {
      gen_args_0: { arg_0: "Q:", arg_1: " no" },
      gen_args_1: { arg_0: "Q:", arg_1: " yes" },
      gen_args_2: { arg_0: "", arg_1: " no" },
      gen_args_3: { arg_0: "", arg_1: " yes" },
    },
    filtered_resps: [["-2.0", "False"], ["-0.5", "True"], ["-9", "False"], [
      "-9",
      "False",
    ]],
    metrics: ["acc", "acc_mutual_info"],
    acc_mutual_info: 1.0,
  });
  const { decisions } = parseLmEvalSamples(text([line]), opts);
  assert.ok(
    Math.abs(decisions[0].pCorrect! - softmaxAt([-2, -0.5], 1)) < 1e-12,
  );
});

Deno.test("parseLmEvalSamples() gives multiple-input tasks no normalised probability, since option lengths are not logged", () => {
  const line = mcLine({
    arguments: {
      gen_args_0: { arg_0: "A then", arg_1: " it fell." },
      gen_args_1: { arg_0: "B then", arg_1: " it fell." },
    },
    metrics: ["acc", "acc_norm"],
    acc_norm: 1.0,
  });
  const norm = parseLmEvalSamples(text([line]), {
    ...opts,
    metric: "acc_norm",
  });
  assert.equal(norm.decisions[0].pCorrect, null);
  assert.deepEqual(norm.notes, { multipleChoiceWithoutPCorrect: 1 });
  const raw = parseLmEvalSamples(text([line]), opts);
  assert.ok(raw.decisions[0].pCorrect! > 0.5);
});

Deno.test("parseLmEvalSamples() reads severity through the shared resolver and --pcorrect-from none drops probabilities", () => {
  const severityOf = severityResolver({
    kind: "field",
    path: ["doc", "severity"],
  });
  const { decisions } = parseLmEvalSamples(text([mcLine()]), {
    ...opts,
    severityOf,
    pcorrectFrom: "none",
  });
  assert.equal(decisions[0].severity, "LOW");
  assert.equal(decisions[0].pCorrect, null);
  assert.throws(
    () =>
      parseLmEvalSamples(text([mcLine({ doc: {} })]), { ...opts, severityOf }),
    /line 1 \(doc_id 0, filter "none"\): doc\.severity is missing/,
  );
});

Deno.test("lmEvalSamplesName() and detectLmEval() recognise lm-eval samples files", async () => {
  assert.deepEqual(lmEvalSamplesName(MC), {
    task: "recon_mc",
    date: "2026-11-30T10-00-00.123456",
  });
  const head = (await Deno.readFile(MC)).subarray(0, 65536);
  assert.equal(detectLmEval({ path: MC, isDirectory: false, head }), true);
  const other = new TextEncoder().encode('{"runId": "r", "taskId": "t"}\n');
  assert.equal(
    detectLmEval({ path: "a.jsonl", isDirectory: false, head: other }),
    false,
  );
  assert.equal(lmEvalImporter.format, "lm-eval");
  const r = await lmEvalImporter.import(MC, { severityOf: HIGH });
  assert.equal(r.decisions.length, 8);
  assert.deepEqual(r.messages, [
    'lm-eval recon_mc: correctness from metric acc, filter "none"; model EleutherAI/pythia-160m',
    "pCorrect source: logprob-option (8)",
  ]);
});

Deno.test("parseLmEvalSamples() does not check a digit target that is also an option's text", () => {
  // target "1" could be the option "1" (index 0) or index 1
  const line = mcLine({
    arguments: {
      gen_args_0: { arg_0: "2-1=", arg_1: " 1" },
      gen_args_1: { arg_0: "2-1=", arg_1: " 3" },
    },
    filtered_resps: [["-0.5", "True"], ["-2.0", "False"]],
    acc: 1.0,
  });
  const { decisions } = parseLmEvalSamples(text([line]), opts);
  assert.equal(decisions[0].predClass, "verdict:correct");
  assert.equal(decisions[0].answer, "1");
});

Deno.test("parseLmEvalSamples() gives the chosen option a probability between 1/k and 1, and the largest one of the k options", () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: -60, max: 0, noNaN: true }), {
        minLength: 2,
        maxLength: 6,
      }),
      (lls) => {
        const k = lls.length;
        const top = lls.indexOf(Math.max(...lls));
        const args: Record<string, { arg_0: string; arg_1: string }> = {};
        lls.forEach((_, i) => {
          args[`gen_args_${i}`] = { arg_0: "Q:", arg_1: ` option${i}` };
        });
        const line = mcLine({
          target: String(top),
          arguments: args,
          filtered_resps: lls.map((l) => [String(l), "False"]),
          acc: 1,
        });
        const p = parseLmEvalSamples(text([line]), opts).decisions[0].pCorrect!;
        // the softmax at the argmax is the largest of k shares summing to 1
        assert.ok(p >= 1 / k - 1e-12 && p <= 1);
        const all = lls.map((_, j) => softmaxAt(lls, j));
        assert.ok(all.every((q) => q <= p + 1e-12));
      },
    ),
    { seed: 20261130, numRuns: 100, verbose: 1 },
  );
});
