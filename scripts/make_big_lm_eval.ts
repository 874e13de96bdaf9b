// Write a large lm-evaluation-harness log for benchmarks: a samples file of
// N multiple-choice lines, each with about 1 KB of seeded, word-like text
// (the question in `doc` and the context lm-eval repeats in every option's
// arguments), option log-likelihoods whose highest decides `acc`, and the
// results file of the same date that names the model and counts N samples.
// The same text generator as scripts/make_big_eval.ts, so the two logs hold
// samples of the same size.
//
// Usage: deno run --allow-write scripts/make_big_lm_eval.ts --samples N --out-dir DIR
import { parseArgs } from "node:util";
import { join } from "node:path";
import { type Prng, seededPrng } from "../lib/math/sampling.ts";
import { prose } from "./make_big_eval.ts";

/** The task name of the generated log. */
export const BIG_LM_EVAL_TASK = "big_mc";

const DATE = "2026-11-30T10-00-00.000000";

/** The samples file's name (the results file is `results_<date>.json`). */
export const BIG_LM_EVAL_SAMPLES = `samples_${BIG_LM_EVAL_TASK}_${DATE}.jsonl`;

const OPTIONS = [
  "MATCH",
  "AMOUNT_MISMATCH",
  "DUPLICATE",
  "VALUE_DATE_MISMATCH",
];

/**
 * The results file of an N-sample log: the model, the task's config
 * (multiple choice, `acc`) and N effective samples.
 *
 * @param samples N.
 * @returns The `results_<date>.json` value.
 */
export function bigLmEvalResults(samples: number): Record<string, unknown> {
  return {
    results: { [BIG_LM_EVAL_TASK]: { alias: BIG_LM_EVAL_TASK } },
    configs: {
      [BIG_LM_EVAL_TASK]: {
        task: BIG_LM_EVAL_TASK,
        output_type: "multiple_choice",
        target_delimiter: " ",
        metric_list: [{ metric: "acc", aggregation: "mean" }],
      },
    },
    "n-samples": {
      [BIG_LM_EVAL_TASK]: { original: samples, effective: samples },
    },
    config: { model: "hf", model_args: "pretrained=example/big-model" },
    date: 1796032800.5,
    model_name: "example/big-model",
    model_name_sanitized: "example__big-model",
  };
}

function line(rng: Prng, docId: number): string {
  const question = prose(rng, 200);
  const context = `Question: ${question}\nAnswer:`;
  const gold = Math.floor(rng.next() * OPTIONS.length);
  const ll = OPTIONS.map(() => -Number((rng.next() * 8).toFixed(4)));
  let pred = 0;
  ll.forEach((l, k) => {
    if (l > ll[pred]) pred = k;
  });
  const args: Record<string, unknown> = {};
  OPTIONS.forEach((o, k) => {
    args[`gen_args_${k}`] = { arg_0: context, arg_1: ` ${o}` };
  });
  const pairs = ll.map((l, k) => [String(l), k === pred ? "True" : "False"]);
  return JSON.stringify({
    doc_id: docId,
    doc: {
      id: `big-${docId}`,
      question,
      choices: OPTIONS,
      label: gold,
      severity: "HIGH",
    },
    target: String(gold),
    arguments: args,
    resps: pairs.map((p) => [p]),
    filtered_resps: pairs,
    filter: "none",
    metrics: ["acc"],
    acc: pred === gold ? 1 : 0,
  });
}

/**
 * The lines of an N-sample samples file, made one at a time.
 *
 * @param samples N.
 * @param seed Seed of the text and the log-likelihoods.
 * @returns Each line's JSON, without its newline.
 */
export function* bigLmEvalLines(
  samples: number,
  seed = 1,
): Generator<string> {
  const rng = seededPrng(seed);
  for (let docId = 0; docId < samples; docId++) yield line(rng, docId);
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { samples: { type: "string" }, "out-dir": { type: "string" } },
  });
  const samples = Number(values.samples);
  const dir = values["out-dir"];
  if (!Number.isInteger(samples) || samples < 1 || dir === undefined) {
    console.error(
      "usage: deno run --allow-write scripts/make_big_lm_eval.ts --samples N --out-dir DIR",
    );
    Deno.exit(2);
  }
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    join(dir, `results_${DATE}.json`),
    JSON.stringify(bigLmEvalResults(samples), null, 2) + "\n",
  );
  const file = await Deno.open(join(dir, BIG_LM_EVAL_SAMPLES), {
    write: true,
    create: true,
    truncate: true,
  });
  const writer = file.writable.getWriter();
  const encoder = new TextEncoder();
  let batch = "";
  for (const l of bigLmEvalLines(samples)) {
    batch += l + "\n";
    if (batch.length > 1 << 20) {
      await writer.write(encoder.encode(batch));
      batch = "";
    }
  }
  await writer.write(encoder.encode(batch));
  await writer.close();
  console.error(
    `wrote ${samples} samples to ${join(dir, BIG_LM_EVAL_SAMPLES)}`,
  );
}
