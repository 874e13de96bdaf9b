/**
 * What a harness log says of the evaluation it records, besides its
 * samples: the harness's task name and the dataset's location and name,
 * where the log names them. The model card's `model-index` block and the
 * card itself read these; the importers do not need them.
 *
 * @module
 */

import { dirname, join } from "node:path";
import type { HarnessFormat } from "./harness.ts";
import { isObject } from "./_harness_record.ts";
import { lmEvalSamplesName } from "./lm_eval.ts";
import { parseJsonBytesStrict } from "../_json.ts";
import { importLater } from "../_late_import.ts";

/** What one log names of its evaluation; `null` where it names nothing. */
export interface HarnessMeta {
  /** The log, as given. */
  readonly file: string;
  /** The harness's task name: inspect's `eval.task`, lm-eval's task, HELM's scenario. */
  readonly taskType: string | null;
  /** Where the dataset lives: inspect's `eval.dataset.location`, lm-eval's `dataset_path`. */
  readonly datasetType: string | null;
  /** The dataset's name: inspect's `eval.dataset.name`, lm-eval's `dataset_name` (else its `dataset_path`). */
  readonly datasetName: string | null;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function textOrNull(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

// inspect: the header's eval (a JSON log's top level, a .eval archive's
// header.json, or _journal/start.json while the log is written)
async function inspectEval(path: string): Promise<unknown> {
  const bytes = await Deno.readFile(path);
  if (ZIP_MAGIC.every((b, i) => bytes[i] === b)) {
    const { readZipEntries, zipEntryBytes } = await importLater<
      typeof import("./_zip_read.ts")
    >(new URL("./_zip_read.ts", import.meta.url));
    const entries = readZipEntries(bytes, path);
    const entry = entries.get("header.json") ??
      entries.get("_journal/start.json");
    if (entry === undefined) return null;
    const head = parseJsonBytesStrict(
      zipEntryBytes(bytes, entry, path),
      `${path}: ${entry.name}`,
      { nonFinite: true },
    );
    return isObject(head) ? head.eval : null;
  }
  const log = parseJsonBytesStrict(bytes, path, { nonFinite: true });
  return isObject(log) ? log.eval : null;
}

async function readJsonOrNull(path: string): Promise<unknown> {
  try {
    return parseJsonBytesStrict(await Deno.readFile(path), path, {
      nonFinite: true,
    });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/**
 * What a harness log names of its evaluation: the task and the dataset.
 *
 * inspect_ai: `eval.task`, `eval.dataset.location` and `eval.dataset.name`
 * of the header. lm-evaluation-harness: the task of the file name
 * `samples_<task>_<date>.jsonl`, and `dataset_path` and `dataset_name` of
 * that task's config in the `results_<date>.json` beside it (the name is
 * the path where there is no `dataset_name`). HELM: the scenario, the
 * `run_spec.json` name before its first `:`; no dataset. promptfoo: none.
 *
 * @param path A log as the importers read it (a HELM run folder or a file in it).
 * @param format The log's format.
 * @returns What it names; `null` for what it does not.
 * @throws {SyntaxError} For a log that is not valid JSON or a damaged archive.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { harnessMeta } from "./harness_meta.ts";
 *
 * const m = await harnessMeta("data/examples/harness/inspect_qwen.eval", "inspect");
 * assert.deepEqual([m.taskType, m.datasetType, m.datasetName], ["recon_yes_no", "recon_yes_no.jsonl", "recon_yes_no"]);
 * const l = await harnessMeta("data/examples/harness/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl", "lm-eval");
 * assert.deepEqual([l.taskType, l.datasetType], ["recon_mc", "lossbook/recon_examples"]);
 * ```
 */
export async function harnessMeta(
  path: string,
  format: HarnessFormat,
): Promise<HarnessMeta> {
  const none = {
    file: path,
    taskType: null,
    datasetType: null,
    datasetName: null,
  };
  if (format === "inspect") {
    const ev = await inspectEval(path);
    if (!isObject(ev)) return none;
    const ds = isObject(ev.dataset) ? ev.dataset : {};
    return {
      file: path,
      taskType: textOrNull(ev.task),
      datasetType: textOrNull(ds.location),
      datasetName: textOrNull(ds.name),
    };
  }
  if (format === "lm-eval") {
    const named = lmEvalSamplesName(path);
    if (named === null) return none;
    const results = await readJsonOrNull(
      join(dirname(path), `results_${named.date}.json`),
    );
    const configs = isObject(results) && isObject(results.configs)
      ? results.configs
      : {};
    const found = configs[named.task];
    const config = isObject(found) ? found : {};
    const datasetType = textOrNull(config.dataset_path);
    return {
      file: path,
      taskType: named.task,
      datasetType,
      datasetName: textOrNull(config.dataset_name) ?? datasetType,
    };
  }
  if (format === "helm") {
    let folder = path;
    if (!(await Deno.stat(path)).isDirectory) folder = dirname(path);
    const spec = await readJsonOrNull(join(folder, "run_spec.json"));
    const name = isObject(spec) ? textOrNull(spec.name) : null;
    return {
      ...none,
      taskType: name === null ? null : name.split(":")[0] || null,
    };
  }
  // promptfoo names a description at most, not a task or a dataset
  return none;
}
