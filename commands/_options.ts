// Private, shared by the library functions (api/) and the commands: options several commands share, described once so that
// a flag means the same thing, in the same words, in every command's help.
import type { OptionDoc } from "./_help.ts";

/** `--json`. */
export const JSON_OPTION = {
  type: "boolean",
  doc: "print one JSON document on stdout instead of the human report",
} as const satisfies OptionDoc;

/** `--force`. */
export const FORCE_OPTION = {
  type: "boolean",
  doc:
    "overwrite the --out file if it exists (never one of the command's inputs)",
} as const satisfies OptionDoc;

/** `--seed N`. */
export const SEED_OPTION = {
  type: "string",
  value: "N",
  doc: "seed of the random draws; the same seed gives byte-identical output",
  byDefault: "0",
} as const satisfies OptionDoc;

/**
 * `--resamples N`, with what a resample is in this command.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resamplesOption } from "./_options.ts";
 *
 * assert.equal(resamplesOption("bootstrap resamples").byDefault, "1000");
 * ```
 */
export function resamplesOption(what: string) {
  return {
    type: "string",
    value: "N",
    doc: `number of seeded ${what}, from 1 to 1,000,000`,
    byDefault: "1000",
  } as const satisfies OptionDoc;
}

/** `--ci LEVEL`. */
export const CI_OPTION = {
  type: "string",
  value: "LEVEL",
  doc: "confidence level of the intervals, in (0, 1)",
  byDefault: "0.95",
} as const satisfies OptionDoc;

/** `--lenient`. */
export const LENIENT_OPTION = {
  type: "boolean",
  doc:
    "skip and report unknown keys in ReconForge and LossBench files and in profile files instead of refusing them",
} as const satisfies OptionDoc;

/**
 * `--profile ID|FILE`, read once, with its default profile.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { profileOption } from "./_options.ts";
 *
 * assert.equal(profileOption().byDefault, "reconciliation");
 * ```
 */
export function profileOption(byDefault = "reconciliation") {
  return {
    type: "string",
    value: "ID|FILE",
    doc:
      "cost profile that prices the decisions: a shipped id (see 'lossbook profiles') or a profile file",
    byDefault,
  } as const satisfies OptionDoc;
}

/** `--mode consequence|strict`: the cost matrix. */
export const MATRIX_MODE_OPTION = {
  type: "string",
  value: "consequence|strict",
  doc:
    "cost matrix: consequence charges a missed exception K(severity) and a wrong type or a false alarm one review; strict charges every wrong automatic answer K(severity)",
  byDefault: "consequence",
} as const satisfies OptionDoc;

/**
 * `--format FORMAT` of a run file, with the formats the command reads.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatOption } from "./_options.ts";
 *
 * assert.equal(formatOption("decisions|lossbench").value, "decisions|lossbench");
 * ```
 */
export function formatOption(formats: string) {
  return {
    type: "string",
    value: formats,
    doc: "format of the input files",
    byDefault: "detected from each file's content",
  } as const satisfies OptionDoc;
}

/** `--probability correct|error`. */
export const PROBABILITY_OPTION = {
  type: "string",
  value: "correct|error",
  doc:
    "what a LossBench ledger's calibrated_probability states: P(correct) or P(error); required with --format lossbench, refused otherwise",
} as const satisfies OptionDoc;

/**
 * `--out FILE`, with what is written; always required.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outOption } from "./_options.ts";
 *
 * assert.equal(outOption("the suite").required, true);
 * ```
 */
export function outOption(what: string, value = "FILE") {
  return {
    type: "string",
    value,
    doc: `file to write ${what} to; refused if it exists, unless --force`,
    required: true,
  } as const satisfies OptionDoc;
}

/**
 * `--cluster taskId|cluster|PATH`: the unit of a run's intervals, tests and
 * plans, and, for harness logs, where each decision's cluster is read.
 */
export const CLUSTER_OPTION = {
  type: "string",
  value: "taskId|cluster|PATH",
  doc:
    "the unit every interval, test and plan counts: taskId (a task's trials count as one task) or cluster (a cluster's tasks count as one, from the decisions' cluster field); for harness logs a metadata PATH of each item, e.g. metadata.source_document, fills that field (an item without it is refused)",
  byDefault: "cluster when the decisions name one, else taskId",
} as const satisfies OptionDoc;
