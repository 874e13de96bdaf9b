/**
 * The Hugging Face `model-index` block of a model card's metadata, written
 * as YAML: one entry per model, each result naming its task and dataset
 * and listing metrics with their type, value and name.
 *
 * @module
 */

import { stringify } from "yaml";

/** One metric of a `model-index` result. */
export interface ModelIndexMetric {
  /** The metric's id, e.g. `accuracy`. */
  readonly type: string;
  /** Its value. */
  readonly value: number;
  /** Its name for people. */
  readonly name: string;
}

/** One model's entry of the `model-index` list. */
export interface ModelIndexEntry {
  /** The model. */
  readonly name: string;
  /** Its results, one per task and dataset. */
  readonly results: readonly {
    /** The task: `type` is the harness's task name. */
    readonly task: { readonly type: string };
    /** The dataset: `type` is where it lives (e.g. `allenai/ai2_arc`), `name` its name. */
    readonly dataset: { readonly type: string; readonly name: string };
    readonly metrics: readonly ModelIndexMetric[];
  }[];
}

/**
 * The `model-index` block as YAML, to stand in a model card's front matter
 * (between its `---` lines).
 *
 * @param entries One per model.
 * @returns The YAML, ending in a newline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelIndexYaml } from "./model_index.ts";
 *
 * const y = modelIndexYaml([{ name: "m", results: [{ task: { type: "t" }, dataset: { type: "o/d", name: "d" },
 *   metrics: [{ type: "accuracy", value: 0.5, name: "Accuracy" }] }] }]);
 * assert.match(y, /^model-index:\n  - name: m\n/);
 * assert.match(y, /type: accuracy\n +value: 0\.5\n +name: Accuracy/);
 * ```
 */
export function modelIndexYaml(entries: readonly ModelIndexEntry[]): string {
  return stringify({ "model-index": entries }, {
    indentSeq: true,
    lineWidth: 0,
  });
}
