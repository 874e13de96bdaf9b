/**
 * The harness-log part of the malformed-input corpus: inspect_ai `.eval`
 * and `.json` logs that are incomplete, damaged or hold impossible values,
 * lm-eval samples and HELM runs likewise, and the run exports whose
 * messages must name the fault. Each case is written here from the shipped
 * examples or from scratch, never copied from elsewhere.
 *
 * @module
 */

import type { FaultCase } from "./_corpus.ts";
import {
  type RawZipEntry,
  storedEntry,
  zipArchive,
} from "../../scripts/_zip_write.ts";
import { decisionsToArrow } from "../../lib/read/arrow.ts";
import { decisionTable } from "../../lib/read/load_decisions.ts";
import { decision } from "../_helpers.ts";

const LM = "data/examples/harness/lm_eval";
const LM_DATE = "2026-11-30T10-00-00.000000";
const HELM = "data/examples/harness/helm/recon_model_example_recon-7b";

/** Writes one file of the corpus and returns its path. */
export type WriteFile = (
  name: string,
  content: string | Uint8Array,
) => Promise<string>;

function sample(id: number, patch: Record<string, unknown> = {}) {
  return {
    id,
    epoch: 1,
    target: "A",
    scores: { match: { value: "C", answer: "A" } },
    ...patch,
  };
}

function header(
  ids: readonly number[],
  patch: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    version: 2,
    status: "success",
    eval: {
      run_id: "r1",
      model: "m",
      dataset: { name: "d", samples: ids.length, sample_ids: ids },
      config: { epochs: 1 },
    },
    results: { total_samples: ids.length, completed_samples: ids.length },
    ...patch,
  };
}

/** An `.eval` archive: its header (or none), its samples, and raw extra entries. */
function evalLog(
  head: unknown,
  samples: readonly Record<string, unknown>[],
  extra: readonly RawZipEntry[] = [],
): Uint8Array {
  return zipArchive([
    storedEntry(
      "_journal/start.json",
      JSON.stringify({ version: 2, eval: { run_id: "r1", model: "m" } }),
    ),
    ...samples.map((s) =>
      storedEntry(`samples/${s.id}_epoch_${s.epoch}.json`, JSON.stringify(s))
    ),
    ...extra,
    ...(head === undefined
      ? []
      : [storedEntry("header.json", JSON.stringify(head))]),
  ]);
}

// a one-sample inspect .json log with one piece of its text replaced
function jsonLog(from: string, to: string): string {
  return JSON.stringify({ ...header([1]), samples: [sample(1)] }).replace(
    from,
    to,
  );
}

// the archive with one field of its last central-directory entry set
function damagedDirectory(zip: Uint8Array, field: number, value: number) {
  const out = zip.slice();
  const v = new DataView(out.buffer);
  const eocd = out.length - 22;
  let p = v.getUint32(eocd + 16, true);
  const count = v.getUint16(eocd + 10, true);
  for (let k = 0; k < count - 1; k++) {
    p += 46 + v.getUint16(p + 28, true) + v.getUint16(p + 30, true) +
      v.getUint16(p + 32, true);
  }
  v.setUint16(p + field, value, true);
  return out;
}

/**
 * Write the harness-log cases.
 *
 * @param file Writes a file of the corpus.
 * @param dir The corpus folder (for the folders of lm-eval and HELM runs).
 * @returns The cases, in a fixed order.
 */
export async function writeLogCorpus(
  file: WriteFile,
  dir: string,
): Promise<FaultCase[]> {
  const cases: FaultCase[] = [];
  const score = (path: string, ...flags: string[]) => [
    "score",
    path,
    "--profile",
    "flat",
    "--severity",
    "HIGH",
    ...flags,
  ];
  const importTo = (path: string, ...flags: string[]) => [
    "import",
    path,
    "--severity",
    "HIGH",
    "--out",
    `${path}.decisions.jsonl`,
    "--force",
    ...flags,
  ];

  // incomplete logs: refused, naming the counts and the first missing ids
  const three = [1, 2, 3];
  const missing = await file(
    "eval_missing.eval",
    evalLog(header(three), [sample(1)]),
  );
  cases.push({
    name: "inspect .eval: a completed log missing sample entries",
    args: score(missing),
    expect: 2,
    match: /it counts 3 samples but holds 1 \(first missing: 2\/1, 3\/1\)/,
  });
  cases.push({
    name:
      "inspect .eval: --allow-incomplete scores what is present and lists the file under inputs",
    args: score(missing, "--allow-incomplete", "--json"),
    expect: 0,
    match:
      /"inputs": \[\s*\{\s*"file": "[^"]*eval_missing\.eval",\s*"status": "success",\s*"samplesExpected": 3,\s*"samplesRead": 1\s*\}/,
  });
  const ids79 = Array.from({ length: 79 }, (_, i) => i + 1);
  cases.push({
    name: "inspect .eval: a header counting 79 samples that holds 1",
    args: score(
      await file("eval_79.eval", evalLog(header(ids79), [sample(1)])),
    ),
    expect: 2,
    match: /it counts 79 samples but holds 1/,
  });
  cases.push({
    name:
      "inspect .eval: no results, the sample ids times the epochs are expected",
    args: score(
      await file(
        "eval_epochs.eval",
        evalLog(
          header([1, 2], {
            results: undefined,
            eval: {
              run_id: "r1",
              model: "m",
              dataset: { sample_ids: [1, 2] },
              config: { epochs: 2 },
            },
          }),
          [sample(1), sample(2), sample(1, { epoch: 2 })],
        ),
      ),
    ),
    expect: 2,
    match: /it counts 4 samples but holds 3 \(first missing: 2\/2\)/,
  });
  cases.push({
    name:
      "inspect .eval: a run with a sample limit is whole (the dataset's size is not expected)",
    args: score(
      await file(
        "eval_limit.eval",
        evalLog(
          header([1, 2], {
            eval: {
              run_id: "r1",
              model: "m",
              dataset: { samples: 79, sample_ids: [1, 2] },
              config: { limit: 2 },
            },
          }),
          [sample(1), sample(2)],
        ),
      ),
    ),
    expect: 0,
  });
  cases.push({
    name: "inspect .eval: a sample with an error counts as present",
    args: score(
      await file(
        "eval_errored_sample.eval",
        evalLog(header([1, 2]), [
          sample(1),
          sample(2, { scores: null, error: { message: "boom" } }),
        ]),
      ),
    ),
    expect: 0,
  });
  for (const status of ["started", "error", "cancelled"]) {
    cases.push({
      name: `inspect .eval: a log whose status is ${status}`,
      args: score(
        await file(
          `eval_${status}.eval`,
          evalLog(header([1], { status }), [sample(1)]),
        ),
      ),
      expect: 2,
      match: new RegExp(`its status is ${status}, not success`),
    });
  }
  cases.push({
    name:
      "inspect .eval: a log still being written (journal only) is refused as started",
    args: score(
      await file("eval_journal.eval", evalLog(undefined, [sample(1)])),
    ),
    expect: 2,
    match: /its status is started, not success/,
  });
  cases.push({
    name: "inspect .json: a log without samples",
    args: importTo(
      await file(
        "nosamples.json",
        JSON.stringify({ ...header([1, 2]), samples: undefined }),
      ),
    ),
    expect: 2,
    match: /it counts 2 samples but holds 0/,
  });
  cases.push({
    name: "import: zero decisions is never exit 0 (every sample errored)",
    args: importTo(
      await file(
        "allerror.eval",
        evalLog(header([1]), [
          sample(1, { scores: null, error: { message: "x" } }),
        ]),
      ),
    ),
    expect: 2,
    match:
      /no decisions in .*allerror\.eval \(1 sample set aside, none scored\)/,
  });
  await Deno.mkdir(`${dir}/lm_empty`);
  const lmEmpty = `${dir}/lm_empty/samples_recon_mc_${LM_DATE}.jsonl`;
  await Deno.writeTextFile(lmEmpty, "");
  await Deno.copyFile(
    `${LM}/results_${LM_DATE}.json`,
    `${dir}/lm_empty/results_${LM_DATE}.json`,
  );
  cases.push({
    name: "lm-eval: an empty samples file",
    args: [...importTo(lmEmpty), "--format", "lm-eval"],
    expect: 2,
    match: /it counts 16 samples but holds 0/,
  });
  await Deno.mkdir(`${dir}/helm_empty`);
  for (const f of ["run_spec.json", "scenario_state.json"]) {
    await Deno.copyFile(`${HELM}/${f}`, `${dir}/helm_empty/${f}`);
  }
  await Deno.writeTextFile(`${dir}/helm_empty/per_instance_stats.json`, "[]");
  cases.push({
    name: "HELM: an empty stats list",
    args: [...importTo(`${dir}/helm_empty`), "--format", "helm"],
    expect: 2,
    match: /it holds no samples/,
  });

  // damaged archives and hostile nesting: exit 2 naming the place, never 70
  const whole = evalLog(header([1]), [sample(1)]);
  cases.push({
    name:
      "zip: a central-directory extra field running past the end of the file",
    args: score(
      await file("cd_extra.eval", damagedDirectory(whole, 30, 0xffff)),
    ),
    expect: 2,
    match:
      /central directory entry 3 is damaged: .*run past the end of the file/,
  });
  cases.push({
    name:
      "zip: a name length running past the end of the file is damage, not a log being written",
    args: score(
      await file("cd_name.eval", damagedDirectory(whole, 28, 0xffff)),
    ),
    expect: 2,
    match: /central directory entry 3 is damaged/,
  });
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
  cases.push({
    name: "inspect .json: JSON nested 5,000 deep",
    args: score(
      await file(
        "deep.json",
        jsonLog('"target":"A"', `"target":"A","metadata":${deep(5000)}`),
      ),
    ),
    expect: 2,
    match:
      /deep\.json: line 1 column \d+: nested more than 2000 levels deep \(at \$\.samples\[0\]\.metadata/,
  });
  const deepLine =
    JSON.stringify(decision()).replace(/\}$/, `,"answer":${deep(100_000)}}`) +
    "\n";
  const deepRun = await file("deep.jsonl", deepLine);
  cases.push({
    name: "JSONL: a line nested 100,000 deep (score)",
    args: ["score", deepRun, "--profile", "flat"],
    expect: 2,
    match: /deep\.jsonl: line 1: answer must be string/,
  });
  cases.push({
    name: "JSONL: a line nested 100,000 deep (ledger append)",
    args: ["ledger", "append", `${dir}/deep_ledger.jsonl`, deepRun],
    expect: 2,
    match: /deep\.jsonl: line 1: answer must be string/,
  });

  // impossible values, each named by line (or sample) and field
  const lmLine =
    (await Deno.readTextFile(`${LM}/samples_recon_mc_${LM_DATE}.jsonl`))
      .split("\n")[0];
  const lm = async (name: string, line: string) => {
    await Deno.mkdir(`${dir}/${name}`);
    const p = `${dir}/${name}/samples_recon_mc_${LM_DATE}.jsonl`;
    await Deno.writeTextFile(p, line + "\n");
    return score(p, "--model-id", "m");
  };
  cases.push({
    name: "lm-eval: a positive log-likelihood",
    args: await lm("lm_positive", lmLine.replaceAll('"-1.8118"', '"2.5"')),
    expect: 2,
    match:
      /line 1 \(doc_id 0, filter "none"\): filtered_resps\[0\]\[0\] must be a log-likelihood \(<= 0 or -inf\), got "2\.5"/,
  });
  cases.push({
    name:
      "lm-eval: a positive log-likelihood within round-off reads as 0, with a note",
    args: await lm("lm_roundoff", lmLine.replaceAll('"-1.8118"', '"5e-07"')),
    expect: 0,
    match: /read 1 positive log-likelihood in \(0, 0\.000001\] as 0/,
  });
  cases.push({
    name: "lm-eval: a padded number",
    args: await lm("lm_padded", lmLine.replaceAll('"-4.736"', '" -2"')),
    expect: 2,
    match:
      /line 1 \(doc_id 0, filter "none"\): filtered_resps\[1\]\[0\] must be a number/,
  });
  cases.push({
    name: "lm-eval: a target index outside the options",
    args: await lm("lm_target", lmLine.replace('"target":"2"', '"target":"7"')),
    expect: 2,
    match:
      /line 1 \(doc_id 0, filter "none"\): target 7 is outside the 4 options/,
  });
  await Deno.mkdir(`${dir}/lm_other`);
  const other = `${dir}/lm_other/samples_recon_other_${LM_DATE}.jsonl`;
  await Deno.writeTextFile(other, lmLine + "\n");
  await Deno.copyFile(
    `${LM}/results_${LM_DATE}.json`,
    `${dir}/lm_other/results_${LM_DATE}.json`,
  );
  cases.push({
    name: "lm-eval: a results file that names only another task",
    args: score(other),
    expect: 2,
    match:
      /results_2026-11-30T10-00-00\.000000\.json: it is the results of "recon_mc", not of task "recon_other"/,
  });
  cases.push({
    name: "inspect: a sample whose error is a number",
    args: score(
      await file(
        "error_number.eval",
        evalLog(header([1, 2]), [sample(1), sample(2, { error: 5 })]),
      ),
    ),
    expect: 2,
    match:
      /sample 2 epoch 1: error must be an object \(inspect's EvalError\), a message or null, got 5/,
  });
  cases.push({
    name: "inspect .json: a bare NaN as the version",
    args: score(
      await file(
        "version_nan.json",
        jsonLog('"version":2', '"version":NaN'),
      ),
      "--format",
      "inspect",
    ),
    expect: 2,
    match: /version_nan\.json: version must be a whole number >= 1, got NaN/,
  });

  // messages that name the fault
  cases.push({
    name: "JSONL: 1e400 is out of range, not null",
    args: [
      "score",
      await file(
        "e400.jsonl",
        JSON.stringify(decision({ pCorrect: 0.5 })).replace(
          '"pCorrect":0.5',
          '"pCorrect":1e400',
        ) + "\n",
      ),
      "--profile",
      "flat",
    ],
    expect: 2,
    match: /line 1: pCorrect is out of range: a number above 1\.8e308/,
  });
  cases.push({
    name: "inspect .eval: header.json holding [] names the entry",
    args: score(await file("header_array.eval", evalLog([], [sample(1)]))),
    expect: 2,
    match:
      /header_array\.eval: header\.json must hold a JSON object, got an array/,
  });
  const arrow = decisionsToArrow(decisionTable([decision()]));
  cases.push({
    name: "Arrow: a truncated file",
    args: [
      "score",
      await file("truncated.arrow", arrow.subarray(0, arrow.length - 40)),
      "--profile",
      "flat",
    ],
    expect: 2,
    match: /truncated\.arrow: the Arrow IPC file is truncated/,
  });
  return cases;
}
