// Write the lm-evaluation-harness, HELM and promptfoo logs that lossbook's
// tests and README commands read: tests/fixtures/{lm_eval,helm,promptfoo}/
// and data/examples/harness/. Every file is written by this script, field by
// field after each harness's own definitions (lm-eval's evaluator and
// evaluation tracker, HELM's metric and runner, promptfoo's results type);
// no harness output is copied. Model scores come from a seeded generator, and
// every metric a harness would compute (acc, acc_norm, exact_match, max_prob,
// success, score) is computed here from them by the harness's own rule.
// Same seed, byte-identical files.
// Usage: deno run --allow-write scripts/make_harness_fixtures.ts

import { seededPrng } from "../lib/math/sampling.ts";

const SEED = 20261130;
const root = new URL("..", import.meta.url).pathname;
const written: string[] = [];

async function write(rel: string, text: string): Promise<void> {
  const path = `${root}${rel}`;
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
  written.push(rel);
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";
const jsonl = (rows: unknown[]) =>
  rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(text),
  );
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** Python's str(float): repr, with a trailing ".0" on integral values. */
function pyFloat(x: number): string {
  if (x === -Infinity) return "-inf";
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

const round = (x: number, d = 6) => Math.round(x * 10 ** d) / 10 ** d;

// The reconciliation classes the examples ask about, with severities.
const CLASSES = [
  ["MATCH", "LOW"],
  ["AMOUNT_MISMATCH", "HIGH"],
  ["DUPLICATE", "LOW"],
  ["VALUE_DATE_MISMATCH", "MEDIUM"],
] as const;

// ---------------------------------------------------------------------------
// lm-evaluation-harness --log_samples
// ---------------------------------------------------------------------------

interface LmEvalRun {
  dir: string;
  date: string; // the date id in file names
  epoch: number; // results "date" (time.time())
  model: string;
  sanitized: string;
}

async function lmEvalSampleLine(
  docId: number,
  doc: Record<string, unknown>,
  target: string,
  args: [string, string][],
  resps: unknown[],
  filtered: unknown[],
  filter: string,
  metrics: Record<string, number>,
): Promise<Record<string, unknown>> {
  // evaluator.py builds the example in this key order, then
  // evaluation_tracker.py renames arguments to gen_args_i/arg_j and
  // sanitize_list() stringifies every leaf of resps and filtered_resps.
  const argumentsObj: Record<string, Record<string, string>> = {};
  args.forEach((a, i) => {
    argumentsObj[`gen_args_${i}`] = { arg_0: a[0], arg_1: a[1] };
  });
  return {
    doc_id: docId,
    doc,
    target,
    arguments: argumentsObj,
    resps,
    filtered_resps: filtered,
    filter,
    metrics: Object.keys(metrics),
    doc_hash: await sha256(JSON.stringify(doc, null, 2)),
    prompt_hash: await sha256(args[0][0]),
    target_hash: await sha256(target),
    ...metrics,
  };
}

function lmEvalResults(
  run: LmEvalRun,
  task: string,
  outputType: string,
  metricNames: string[],
  means: Record<string, number>,
  n: number,
  filters: string[],
): Record<string, unknown> {
  const result: Record<string, unknown> = { alias: task };
  for (const f of filters) {
    for (const m of metricNames) {
      result[`${m},${f}`] = round(means[`${m},${f}`]);
      result[`${m}_stderr,${f}`] = "N/A";
    }
  }
  return {
    results: { [task]: result },
    group_subtasks: { [task]: [] },
    configs: {
      [task]: {
        task,
        dataset_path: "lossbook/recon_examples",
        test_split: "test",
        output_type: outputType,
        target_delimiter: " ",
        fewshot_delimiter: "\n\n",
        num_fewshot: 0,
        metric_list: metricNames.map((m) => ({
          metric: m,
          aggregation: "mean",
          higher_is_better: true,
        })),
        metadata: { version: 1.0 },
      },
    },
    versions: { [task]: 1.0 },
    "n-shot": { [task]: 0 },
    higher_is_better: {
      [task]: Object.fromEntries(metricNames.map((m) => [m, true])),
    },
    "n-samples": { [task]: { original: n, effective: n } },
    config: {
      model: "hf",
      model_args: `pretrained=${run.model}`,
      batch_size: 1,
      device: "cpu",
      limit: null,
      bootstrap_iters: 0,
    },
    git_hash: null,
    date: run.epoch,
    model_source: "hf",
    model_name: run.model,
    model_name_sanitized: run.sanitized,
    total_evaluation_time_seconds: "12.5",
  };
}

async function lmEvalMultipleChoice(
  run: LmEvalRun,
  task: string,
  n: number,
  seed: number,
): Promise<void> {
  const rng = seededPrng(seed);
  const lines: Record<string, unknown>[] = [];
  const sums = { "acc,none": 0, "acc_norm,none": 0 };
  let differ = 0;
  for (let docId = 0; docId < n; docId++) {
    const gold = Math.floor(rng.next() * CLASSES.length);
    const [goldClass, severity] = CLASSES[gold];
    const doc = {
      id: `recon-${String(docId + 1).padStart(3, "0")}`,
      question: `Pair ${
        docId + 1
      }: ledger and bank lines differ as described. Which class is it?`,
      choices: CLASSES.map((c) => c[0]),
      label: gold,
      severity,
      gold_class: goldClass,
    };
    const ctx = `Question: ${doc.question}\nAnswer:`;
    const args = CLASSES.map((c) => [ctx, ` ${c[0]}`] as [string, string]);
    // Log-likelihood of each continuation: longer options get more tokens,
    // so a lower raw sum; the gold option gets a boost most of the time.
    const raw = CLASSES.map((c, k) => {
      const tokens = Math.ceil(c[0].length / 4);
      const boost = k === gold && rng.next() < 0.7 ? 2.5 : 0;
      return round(-tokens * (0.6 + 1.4 * rng.next()) + boost, 4);
    });
    // a log-likelihood is a log-probability, never above 0: the boost can
    // lift one past it, so every option moves down by the same amount,
    // which keeps the argmax under acc and the softmax
    const top = Math.max(0, ...raw);
    const lls = raw.map((l) => round(l - top, 4));
    const greedy = lls.map((_, k) => k === lls.indexOf(Math.max(...lls)));
    // lm-eval's multiple_choice process_results: argmax of lls, and of lls
    // divided by the choice's length in characters (not the delimiter).
    const pred = argmax(lls);
    const predNorm = argmax(lls.map((l, k) => l / CLASSES[k][0].length));
    const acc = pred === gold ? 1.0 : 0.0;
    const accNorm = predNorm === gold ? 1.0 : 0.0;
    if (acc !== accNorm) differ++;
    sums["acc,none"] += acc;
    sums["acc_norm,none"] += accNorm;
    const pairs = lls.map((l, k) => [pyFloat(l), greedy[k] ? "True" : "False"]);
    lines.push(
      await lmEvalSampleLine(
        docId,
        doc,
        String(gold),
        args,
        pairs.map((p) => [p]),
        pairs,
        "none",
        { acc, acc_norm: accNorm },
      ),
    );
  }
  if (differ === 0) {
    throw new Error(
      `${task}: no doc where acc and acc_norm differ; change the seed`,
    );
  }
  const means = Object.fromEntries(
    Object.entries(sums).map(([k, v]) => [k, v / n]),
  );
  await write(`${run.dir}/samples_${task}_${run.date}.jsonl`, jsonl(lines));
  await write(
    `${run.dir}/results_${run.date}.json`,
    json(
      lmEvalResults(
        run,
        task,
        "multiple_choice",
        ["acc", "acc_norm"],
        means,
        n,
        ["none"],
      ),
    ),
  );
}

async function lmEvalGeneration(
  run: LmEvalRun,
  task: string,
  n: number,
  seed: number,
): Promise<void> {
  const rng = seededPrng(seed);
  const lines: Record<string, unknown>[] = [];
  const filters = ["strict-match", "flexible-extract"];
  const sums: Record<string, number> = {
    "exact_match,strict-match": 0,
    "exact_match,flexible-extract": 0,
  };
  const rows: Record<string, unknown>[][] = [[], []];
  for (let docId = 0; docId < n; docId++) {
    const amount = 100 + Math.floor(rng.next() * 900);
    const fee = 1 + Math.floor(rng.next() * 9);
    const gold = String(amount - fee);
    const doc = {
      id: `net-${docId + 1}`,
      question:
        `A wire of ${amount} USD arrived net of a ${fee} USD fee. What amount posts to the ledger?`,
      answer: `${amount} - ${fee} = ${gold}\n#### ${gold}`,
      severity: docId % 2 === 0 ? "HIGH" : "CRITICAL",
    };
    const ctx = `Question: ${doc.question}\nAnswer:`;
    const right = rng.next() < 0.6;
    const value = right ? gold : String(amount - fee + 10);
    // Half of the right answers miss the "####" format strict-match needs.
    const formatted = rng.next() < 0.5;
    const raw = formatted
      ? ` ${amount} - ${fee} = ${value}\n#### ${value}`
      : ` The ledger posts ${value} USD.`;
    const strict = formatted ? value : "[invalid]";
    const flexible = value;
    const genArgs = JSON.stringify({ until: ["Question:"], do_sample: false });
    for (const [f, extracted] of [[0, strict], [1, flexible]] as const) {
      const em = extracted === gold ? 1.0 : 0.0;
      sums[`exact_match,${filters[f]}`] += em;
      rows[f].push(
        await lmEvalSampleLine(
          docId,
          doc,
          doc.answer,
          [[ctx, genArgs]],
          [[raw]],
          [extracted],
          filters[f],
          { exact_match: em },
        ),
      );
    }
  }
  // evaluator.py logs every doc of one filter, then every doc of the next.
  lines.push(...rows[0], ...rows[1]);
  const means = Object.fromEntries(
    Object.entries(sums).map(([k, v]) => [k, v / n]),
  );
  await write(`${run.dir}/samples_${task}_${run.date}.jsonl`, jsonl(lines));
  await write(
    `${run.dir}/results_${run.date}.json`,
    json(
      lmEvalResults(
        run,
        task,
        "generate_until",
        ["exact_match"],
        means,
        n,
        filters,
      ),
    ),
  );
}

function argmax(xs: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i] > xs[best]) best = i;
  return best;
}

// ---------------------------------------------------------------------------
// HELM run folders
// ---------------------------------------------------------------------------

interface HelmStatName {
  name: string;
  split: string;
  perturbation?: Record<string, unknown>;
}

function stat(name: HelmStatName, x: number): Record<string, unknown> {
  // statistic.py Stat after one add(x); count 1, population variance 0.
  return {
    name,
    count: 1,
    sum: x,
    sum_squared: x * x,
    min: x,
    max: x,
    mean: x,
    variance: 0.0,
    stddev: 0.0,
  };
}

async function helmRun(
  dir: string,
  model: string,
  opts: { n: number; trials: number; zeroLogprobs: boolean; seed: number },
): Promise<void> {
  const rng = seededPrng(opts.seed);
  const letters = ["A", "B", "C", "D"];
  const adapterSpec = {
    method: "multiple_choice_joint",
    global_prefix: "",
    instructions:
      "The following are reconciliation questions. Answer with one letter.\n",
    input_prefix: "Question: ",
    input_suffix: "\n",
    reference_prefix: "A. ",
    reference_suffix: "\n",
    output_prefix: "Answer: ",
    output_suffix: "\n",
    instance_prefix: "\n",
    substitutions: [],
    max_train_instances: 0,
    max_eval_instances: opts.n,
    num_outputs: 1,
    num_train_trials: opts.trials,
    num_trials: 1,
    sample_train: true,
    model_deployment: model,
    model,
    temperature: 0.0,
    max_tokens: 1,
    stop_sequences: ["\n"],
  };
  const runName = dir.slice(dir.lastIndexOf("/") + 1);
  const runSpec = {
    name: runName,
    scenario_spec: {
      class_name: "lossbook.examples.ReconScenario",
      args: {},
    },
    adapter_spec: adapterSpec,
    metric_specs: [{
      class_name: "helm.benchmark.metrics.basic_metrics.BasicMetric",
      args: { names: ["exact_match", "quasi_exact_match"] },
    }],
    data_augmenter_spec: {
      perturbation_specs: [{
        class_name:
          "helm.benchmark.augmentations.typos_perturbation.TyposPerturbation",
        args: { prob: 0.1 },
      }],
      should_augment_train_instances: false,
      should_include_original_train: false,
      should_skip_unchanged_train: false,
      should_augment_eval_instances: true,
      should_include_original_eval: true,
      should_skip_unchanged_eval: true,
      seeds_per_instance: 1,
    },
    groups: ["recon"],
  };
  const typos = {
    name: "typos",
    robustness: true,
    fairness: false,
    computed_on: "perturbed",
    seed: 0,
  };
  const requestStates: Record<string, unknown>[] = [];
  const perInstance: Record<string, unknown>[] = [];
  // An instance keeps its references (and gold) across trials and perturbations.
  const golds = Array.from(
    { length: opts.n },
    () => Math.floor(rng.next() * CLASSES.length),
  );
  for (let trial = 0; trial < opts.trials; trial++) {
    for (let i = 0; i < opts.n; i++) {
      // The first instance also has a typo-perturbed copy (same id).
      const variants = i === 0 ? [undefined, typos] : [undefined];
      for (const perturbation of variants) {
        const gold = golds[i];
        const references = CLASSES.map((c, k) => ({
          output: { text: c[0] },
          tags: k === gold ? ["correct"] : [],
        }));
        const id = `id${100 + i}`;
        const instance: Record<string, unknown> = {
          input: {
            text: `Pair ${i + 1}: the bank line and the ledger line${
              perturbation ? " differr" : " differ"
            }. Which class is it?`,
          },
          references,
          split: "test",
          id,
        };
        if (perturbation) instance.perturbation = perturbation;
        // Token log-probabilities of the one-letter completion.
        const right = rng.next() < 0.65;
        const predIdx = right
          ? gold
          : (gold + 1 + Math.floor(rng.next() * 3)) % 4;
        const lp = opts.zeroLogprobs
          ? 0
          : round(Math.log(0.3 + 0.69 * rng.next()), 6);
        const completion = {
          text: ` ${letters[predIdx]}`,
          logprob: lp,
          tokens: [{ text: ` ${letters[predIdx]}`, logprob: lp }],
          finish_reason: { reason: "length" },
        };
        const promptTokens = 60 + Math.floor(rng.next() * 20);
        const runtime = round(0.2 + rng.next(), 4);
        requestStates.push({
          instance,
          train_trial_index: trial,
          output_mapping: Object.fromEntries(
            letters.map((l, k) => [l, CLASSES[k][0]]),
          ),
          request: {
            model_deployment: model,
            model,
            embedding: false,
            prompt: `${adapterSpec.instructions}\nQuestion: ${
              (instance.input as { text: string }).text
            }\n...\nAnswer:`,
            temperature: 0.0,
            num_completions: 1,
            top_k_per_token: 1,
            max_tokens: 1,
            stop_sequences: ["\n"],
            echo_prompt: false,
            top_p: 1,
            presence_penalty: 0,
            frequency_penalty: 0,
          },
          result: {
            success: true,
            embedding: [],
            completions: [completion],
            cached: true,
            request_time: runtime,
            request_datetime: 1764496800 + requestStates.length,
          },
          num_train_instances: 0,
          prompt_truncated: false,
          num_conditioning_tokens: 0,
        });
        // basic_metrics.py: exact_match of the mapped prediction, max_prob =
        // exp(completion logprob) (evaluate_reference_metrics.py), logprob
        // of the completion (compute_language_modeling_metrics).
        const name = (n: string): HelmStatName =>
          perturbation
            ? { name: n, split: "test", perturbation }
            : { name: n, split: "test" };
        const em = predIdx === gold ? 1 : 0;
        const stats = [
          stat(name("num_references"), 4),
          stat(name("num_train_trials"), opts.trials),
          stat(name("num_prompt_tokens"), promptTokens),
          stat(name("num_completion_tokens"), 1),
          stat(name("num_output_tokens"), 1),
          stat(name("inference_runtime"), runtime),
          stat(name("batch_size"), 1),
          stat(name("finish_reason_length"), 1),
          stat(name("finish_reason_stop"), 0),
          stat(name("finish_reason_endoftext"), 0),
          stat(name("finish_reason_unknown"), 0),
          stat(name("num_train_instances"), 0),
          stat(name("prompt_truncated"), 0),
          stat(name("max_prob"), Math.exp(lp)),
          stat(name("exact_match"), em),
          stat(name("quasi_exact_match"), em),
          stat(name("logprob"), lp),
          stat(name("num_perplexity_tokens"), 1),
          stat(name("num_bytes"), 2),
        ];
        const entry: Record<string, unknown> = { instance_id: id };
        if (perturbation) entry.perturbation = perturbation;
        entry.train_trial_index = trial;
        entry.stats = stats;
        perInstance.push(entry);
      }
    }
  }
  await write(`${dir}/run_spec.json`, json(runSpec));
  await write(
    `${dir}/scenario_state.json`,
    json({ adapter_spec: adapterSpec, request_states: requestStates }),
  );
  await write(`${dir}/per_instance_stats.json`, json(perInstance));
}

// ---------------------------------------------------------------------------
// promptfoo results JSON (--output results.json), version 3
// ---------------------------------------------------------------------------

async function promptfooResults(
  rel: string,
  opts: {
    evalId: string;
    providers: { id: string; label?: string; costPer1k: number }[];
    prompts: string[];
    tests: number;
    seed: number;
    logProbs: boolean;
    error: boolean;
    mustMix?: boolean;
  },
): Promise<void> {
  const rng = seededPrng(opts.seed);
  const tests = Array.from({ length: opts.tests }, (_, t) => {
    const [cls, severity] = CLASSES[t % CLASSES.length];
    return {
      description: `pair ${t + 1}`,
      vars: { pair: `ledger line ${t + 1} vs bank line ${t + 1}` },
      assert: [
        { type: "equals", value: cls },
        { type: "cost", threshold: 0.00005 },
        { type: "latency", threshold: 1500 },
      ],
      metadata: { severity, class: cls },
      options: {},
    };
  });
  const prompts: Record<string, unknown>[] = [];
  const results: Record<string, unknown>[] = [];
  let successes = 0, failures = 0, errors = 0;
  const usage = {
    total: 0,
    prompt: 0,
    completion: 0,
    cached: 0,
    numRequests: 0,
  };
  for (const provider of opts.providers) {
    for (const raw of opts.prompts) {
      const promptIdx = prompts.length;
      const promptId = await sha256(raw);
      prompts.push({
        raw,
        label: raw.slice(0, 40),
        id: promptId,
        provider: provider.label ?? provider.id,
        metrics: null, // filled below
      });
      const m = {
        score: 0,
        testPassCount: 0,
        testFailCount: 0,
        testErrorCount: 0,
        assertPassCount: 0,
        assertFailCount: 0,
        totalLatencyMs: 0,
        tokenUsage: {
          total: 0,
          prompt: 0,
          completion: 0,
          cached: 0,
          numRequests: 0,
        },
        namedScores: {},
        namedScoresCount: {},
        cost: 0,
      };
      for (let testIdx = 0; testIdx < tests.length; testIdx++) {
        const test = tests[testIdx];
        const gold = test.assert[0].value as string;
        const isError = opts.error && testIdx === tests.length - 1 &&
          promptIdx === 0;
        const latencyMs = Math.round(300 + rng.next() * 1800);
        const promptTokens = 40 + Math.floor(rng.next() * 30);
        const right = rng.next() < 0.7;
        const output = right
          ? gold
          : CLASSES[(CLASSES.findIndex((c) => c[0] === gold) + 1) % 4][0];
        const completionTokens = Math.ceil(output.length / 4);
        const cost = round(
          (promptTokens + completionTokens) * provider.costPer1k / 1000,
          8,
        );
        const base = {
          id: `${opts.evalId}-r${results.length}`,
          promptIdx,
          testIdx,
          testCase: test,
          promptId,
          provider: provider.label
            ? { id: provider.id, label: provider.label }
            : { id: provider.id },
          prompt: {
            raw: raw.replace("{{pair}}", test.vars.pair),
            label: raw.slice(0, 40),
          },
          vars: test.vars,
        };
        if (isError) {
          errors++;
          m.testErrorCount++;
          results.push({
            ...base,
            response: {
              error: "API call error: Error: Request timed out after 30000 ms",
            },
            error: "API call error: Error: Request timed out after 30000 ms",
            failureReason: 2,
            success: false,
            score: 0,
            latencyMs: 30000,
            namedScores: {},
            cost: 0,
            metadata: {},
          });
          continue;
        }
        const tokenUsage = {
          total: promptTokens + completionTokens,
          prompt: promptTokens,
          completion: completionTokens,
          cached: 0,
          numRequests: 1,
        };
        // Each assertion's verdict, as promptfoo's assertions compute them.
        const components = [
          {
            pass: output === gold,
            score: output === gold ? 1 : 0,
            reason: output === gold
              ? "Assertion passed"
              : `Expected output "${gold}" to equal "${output}"`,
            assertion: test.assert[0],
          },
          {
            pass: cost <= 0.00005,
            score: cost <= 0.00005 ? 1 : 0,
            reason: cost <= 0.00005
              ? "Assertion passed"
              : `Cost ${cost} is greater than threshold 0.00005`,
            assertion: test.assert[1],
          },
          {
            pass: latencyMs <= 1500,
            score: latencyMs <= 1500 ? 1 : 0,
            reason: latencyMs <= 1500
              ? "Assertion passed"
              : `Latency ${latencyMs}ms is greater than threshold 1500ms`,
            assertion: test.assert[2],
          },
        ];
        const pass = components.every((c) => c.pass);
        const score = components.reduce((s, c) => s + c.score, 0) / 3;
        const response: Record<string, unknown> = {
          output,
          tokenUsage,
          cached: false,
          cost,
          latencyMs,
        };
        if (opts.logProbs) {
          // One token log-probability per output token.
          response.logProbs = Array.from(
            { length: completionTokens },
            () => round(Math.log(0.5 + 0.49 * rng.next()), 6),
          );
        }
        if (pass) successes++, m.testPassCount++;
        else failures++, m.testFailCount++;
        m.assertPassCount += components.filter((c) => c.pass).length;
        m.assertFailCount += components.filter((c) => !c.pass).length;
        m.score += score;
        m.totalLatencyMs += latencyMs;
        m.cost += cost;
        for (
          const k of [
            "total",
            "prompt",
            "completion",
            "cached",
            "numRequests",
          ] as const
        ) {
          m.tokenUsage[k] += tokenUsage[k];
          usage[k] += tokenUsage[k];
        }
        results.push({
          ...base,
          response,
          error: pass
            ? null
            : components.filter((c) => !c.pass).map((c) => c.reason).join("\n"),
          failureReason: pass ? 0 : 1,
          success: pass,
          score,
          latencyMs,
          gradingResult: {
            pass,
            score,
            reason: pass
              ? "All assertions passed"
              : components.find((c) => !c.pass)!.reason,
            namedScores: {},
            tokensUsed: {
              total: 0,
              prompt: 0,
              completion: 0,
              cached: 0,
              numRequests: 0,
            },
            componentResults: components,
          },
          namedScores: {},
          cost,
          metadata: {},
        });
      }
      if (opts.mustMix) {
        const mine = results.filter((r) => r.promptIdx === promptIdx);
        const graded = mine.map((r) =>
          (r.gradingResult as
            | { componentResults: { pass: boolean }[] }
            | undefined)
            ?.componentResults
        ).filter((c) => c !== undefined);
        if (
          !graded.some((c) => !c[0].pass) ||
          !graded.some((c) => c[0].pass && !c.every((x) => x.pass))
        ) {
          throw new Error(
            `${rel}: needs a wrong answer and a right one that failed on cost or latency; change the seed`,
          );
        }
      }
      m.cost = round(m.cost, 8);
      m.score = round(m.score, 6);
      prompts[promptIdx].metrics = m;
    }
  }
  const doc = {
    evalId: opts.evalId,
    results: {
      version: 3,
      timestamp: "2026-11-30T10:00:00.000Z",
      prompts,
      results,
      stats: { successes, failures, errors, tokenUsage: usage },
    },
    config: {
      description: "lossbook reconciliation example",
      prompts: opts.prompts,
      providers: opts.providers.map((p) => p.id),
      tests,
    },
    shareableUrl: null,
    metadata: {
      promptfooVersion: "0.120.0",
      nodeVersion: "v22.11.0",
      platform: "linux",
      arch: "x64",
      exportedAt: "2026-11-30T10:05:00.000Z",
      evaluationCreatedAt: "2026-11-30T10:00:00.000Z",
    },
  };
  await write(rel, json(doc));
}

// ---------------------------------------------------------------------------

const mcRun: LmEvalRun = {
  dir: "tests/fixtures/lm_eval",
  date: "2026-11-30T10-00-00.123456",
  epoch: 1796032800.123456,
  model: "EleutherAI/pythia-160m",
  sanitized: "EleutherAI__pythia-160m",
};
await lmEvalMultipleChoice(mcRun, "recon_mc", 8, SEED);
await lmEvalGeneration(
  { ...mcRun, date: "2026-11-30T11-00-00.654321", epoch: 1796036400.654321 },
  "recon_net",
  5,
  SEED + 1,
);
await lmEvalMultipleChoice(
  {
    dir: "data/examples/harness/lm_eval",
    date: "2026-11-30T10-00-00.000000",
    epoch: 1796032800.5,
    model: "EleutherAI/pythia-160m",
    sanitized: "EleutherAI__pythia-160m",
  },
  "recon_mc",
  16,
  SEED + 2,
);

await helmRun(
  "tests/fixtures/helm/recon_model=example_recon-7b",
  "example/recon-7b",
  {
    n: 4,
    trials: 2,
    zeroLogprobs: false,
    seed: SEED + 3,
  },
);
await helmRun(
  "tests/fixtures/helm/recon_model=example_no-logprobs",
  "example/no-logprobs",
  { n: 3, trials: 1, zeroLogprobs: true, seed: SEED + 4 },
);
await helmRun(
  "data/examples/harness/helm/recon_model_example_recon-7b",
  "example/recon-7b",
  {
    n: 20,
    trials: 1,
    zeroLogprobs: false,
    seed: SEED + 5,
  },
);

await promptfooResults("tests/fixtures/promptfoo/results.json", {
  evalId: "eval-a1b-2026-11-30T10:00:00",
  providers: [{ id: "openai:gpt-4o-mini", costPer1k: 0.0006 }],
  prompts: ["Classify this pair: {{pair}}"],
  tests: 6,
  seed: SEED + 9,
  logProbs: true,
  error: true,
  mustMix: true,
});
await promptfooResults("tests/fixtures/promptfoo/two_prompts.json", {
  evalId: "eval-c2d-2026-11-30T10:30:00",
  providers: [
    { id: "openai:gpt-4o-mini", costPer1k: 0.0006 },
    { id: "anthropic:messages:claude-3-5-haiku-20241022", costPer1k: 0.004 },
  ],
  prompts: ["Classify this pair: {{pair}}", "You reconcile payments. {{pair}}"],
  tests: 3,
  seed: SEED + 7,
  logProbs: false,
  error: false,
});
await promptfooResults("data/examples/harness/promptfoo_results.json", {
  evalId: "eval-e3f-2026-11-30T11:00:00",
  providers: [{ id: "openai:gpt-4o-mini", costPer1k: 0.0006 }],
  prompts: ["Classify this pair: {{pair}}"],
  tests: 12,
  seed: SEED + 8,
  logProbs: false,
  error: true,
  mustMix: true,
});

console.error(`wrote ${written.length} files:\n${written.join("\n")}`);
