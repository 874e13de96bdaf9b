/**
 * The harness importers, in one table: each turns one evaluation harness's
 * log into Decision records and says what it did.
 *
 * ## Adding a harness
 *
 * 1. Write `lib/import/<name>.ts` exporting a {@linkcode HarnessImporter}
 *    constant (for example `export const lmEvalImporter: HarnessImporter =
 *    { format: "lm-eval", flags: [...], metadataPaths: ["doc"], detect,
 *    import }`). Its `import`
 *    resolves severity with `options.severityOf` (never on its own), and the
 *    cluster with `options.clusterOf` when it is given, picks
 *    probabilities with `pickPCorrect` from `./mapping.ts` in the format's
 *    documented default order (or `options.pcorrectFrom`), sets
 *    `pCorrectSource` on every decision, and reads JSON with
 *    `parseJsonStrict` from `../_json.ts` with `nonFinite: true` (bare NaN
 *    read, duplicate keys refused). Errors name the file, the item and the field.
 * 2. Add one line to {@linkcode HARNESS_IMPORTERS} below:
 *    `"lm-eval": lmEvalImporter,`. The CLI (`--format`, detection, the
 *    mapping flags, `lossbook import`) needs nothing else.
 *
 * `flags` lists the mapping options the format reads besides severity and
 * `--pcorrect-from` (which every format takes); the CLI refuses any other
 * mapping flag for that format rather than ignoring it. `metadataPaths`
 * names where in its records an item keeps its own metadata, which
 * `lossbook severity-template` writes out beside each key.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { HARNESS_FORMATS, isHarnessFormat } from "./harness.ts";
 *
 * assert.deepEqual([...HARNESS_FORMATS], ["inspect", "lm-eval", "helm", "promptfoo"]);
 * assert.equal(isHarnessFormat("lm-eval"), true);
 * assert.equal(isHarnessFormat("reconforge"), false);
 * ```
 *
 * @module
 */

import type { FailureClass } from "../evidence/cost_evidence.ts";
import type { Decision } from "../decision/decision.ts";
import { inspectImporter } from "./inspect.ts";
import type { ClusterResolver, SeverityResolver } from "./mapping.ts";
import { lmEvalImporter } from "./lm_eval.ts";
import { helmImporter } from "./helm.ts";
import { promptfooImporter } from "./promptfoo.ts";
import { InputTypeError } from "../input_error.ts";

/** The harness log formats lossbook reads. */
export const HARNESS_FORMATS = [
  "inspect",
  "lm-eval",
  "helm",
  "promptfoo",
] as const;

/** A harness log format. */
export type HarnessFormat = typeof HARNESS_FORMATS[number];

/** The mapping options an importer may read, besides severity and `--pcorrect-from`. */
export type HarnessOption =
  | "scorer"
  | "partial"
  | "modelId"
  | "filter"
  | "metric"
  | "correct"
  | "maxEntryBytes"
  | "maxEntryRatio";

/** Options of one import, as the CLI passes them (flags already parsed). */
export interface HarnessImportOptions {
  /** Gives every decision its severity (from `--severity`, `--severity-map` or `--severity-field`). */
  readonly severityOf: SeverityResolver;
  /**
   * Gives every decision its cluster (`--cluster PATH`); without it, the
   * decisions name none.
   */
  readonly clusterOf?: ClusterResolver;
  /** `--pcorrect-from SOURCE`: overrides the format's default probability order (`none`: no probability). */
  readonly pcorrectFrom?: string;
  /** `--scorer NAME`: which scorer decides correctness when a log has several. */
  readonly scorer?: string;
  /** `--partial correct|incorrect`: how a partial or fractional score counts. */
  readonly partial?: "correct" | "incorrect";
  /** `--model-id NAME`: the model, where a log does not name it. */
  readonly modelId?: string;
  /** `--filter NAME`: which filter's lines to read (lm-eval). */
  readonly filter?: string;
  /** `--metric NAME`: which metric decides correctness (HELM). */
  readonly metric?: string;
  /** `--correct TYPE[,TYPE]`: assertion types that mean "correct" (promptfoo). */
  readonly correct?: readonly string[];
  /** `--max-entry-bytes N`: the largest archive entry inflated (inspect `.eval`). */
  readonly maxEntryBytes?: number;
  /** `--max-entry-ratio R`: the largest uncompressed-to-compressed ratio of an archive entry (inspect `.eval`). */
  readonly maxEntryRatio?: number;
  /**
   * Where the decisions go, one at a time in log order, as they are made:
   * given, the importer passes each decision here instead of returning it
   * (the result's `decisions` is empty), so that a large log's decisions
   * need not be held together. A decision passed here may still be followed
   * by an error that refuses the whole log.
   */
  readonly onDecision?: (decision: Decision) => void;
}

/**
 * How whole a log is: its status, and how many samples it holds against
 * how many it counts. A log is whole when its status (where it has one) is
 * `success`, it holds at least one sample, and it holds as many as it
 * counts (where it counts them).
 */
export interface LogCompleteness {
  /** The log's status (inspect's `success`, `started`, `error`, `cancelled`); `null` for a format without one. */
  readonly status: string | null;
  /** Samples the log counts (results, or sample ids times epochs); `null` where it does not say. */
  readonly samplesExpected: number | null;
  /** Samples it holds, those with an error included. */
  readonly samplesRead: number;
  /** The first missing samples (`id/epoch`), at most five; empty where unknown. */
  readonly missing: readonly string[];
}

/** A log read with `--allow-incomplete` although it is not whole: the `inputs` entries of the JSON. */
export interface IncompleteInput {
  /** The log. */
  readonly file: string;
  /** Its status (`null` for a format without one). */
  readonly status: string | null;
  /** Samples it counts (`null` where it does not say). */
  readonly samplesExpected: number | null;
  /** Samples it holds. */
  readonly samplesRead: number;
}

/**
 * Why a log is not whole, in words, or `null` when it is whole (see
 * {@linkcode LogCompleteness}).
 *
 * @param c What the importer found.
 * @returns The reason, naming status and counts, or `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { incompleteness } from "./harness.ts";
 *
 * assert.equal(incompleteness({ status: "success", samplesExpected: 2, samplesRead: 2, missing: [] }), null);
 * assert.equal(incompleteness({ status: "success", samplesExpected: 79, samplesRead: 1, missing: ["2/1"] }),
 *   "it counts 79 samples but holds 1 (first missing: 2/1)");
 * assert.equal(incompleteness({ status: "started", samplesExpected: null, samplesRead: 3, missing: [] }),
 *   "its status is started, not success (it holds 3 samples)");
 * ```
 */
export function incompleteness(c: LogCompleteness): string | null {
  const held = `${c.samplesRead} sample${c.samplesRead === 1 ? "" : "s"}`;
  const missing = c.missing.length > 0
    ? ` (first missing: ${c.missing.join(", ")})`
    : "";
  if (c.status !== null && c.status !== "success") {
    return `its status is ${c.status}, not success (it holds ${held}${
      c.samplesExpected === null ? "" : ` of ${c.samplesExpected}`
    })${missing}`;
  }
  if (c.samplesExpected !== null && c.samplesRead < c.samplesExpected) {
    return `it counts ${c.samplesExpected} samples but holds ${c.samplesRead}${missing}`;
  }
  if (c.samplesRead === 0) return "it holds no samples";
  return null;
}

/**
 * A log item that is not a decision: the harness recorded no verdict on it
 * (an error, a limit or a cancellation with no score), so it is neither
 * right nor wrong. Set aside with its outcome class, counted, and named.
 */
export interface SetAside {
  /** The task id it would have had. */
  readonly taskId: string;
  /** The trial it would have had. */
  readonly trial: number;
  /** Its outcome class (for example `harness_failure`, `timeout`, `cancelled`). */
  readonly outcome: FailureClass;
  /** Why, in words. */
  readonly reason: string;
}

/** What an import produced. */
export interface HarnessImportResult {
  /** The decisions, in log order; empty when they went to `onDecision`. */
  readonly decisions: Decision[];
  /** Counts of notable conversions, by reason (for example `noAnswer`, `harnessFailures`). */
  readonly notes: Readonly<Record<string, number>>;
  /** Sentences for the user: which scorer and which pCorrect source were used. */
  readonly messages: readonly string[];
  /** Items that are not decisions (no verdict), when the format has any. */
  readonly setAside?: readonly SetAside[];
  /** How whole the log is; the caller refuses a log that is not (see {@linkcode incompleteness}). */
  readonly completeness: LogCompleteness;
}

/** What detection sees of an input. */
export interface DetectInput {
  /** The path as given. */
  readonly path: string;
  /** Whether the path is a folder (a HELM run folder, an unpacked log). */
  readonly isDirectory: boolean;
  /** The file's first bytes (up to {@linkcode DETECT_HEAD_BYTES}); empty for a folder. */
  readonly head: Uint8Array;
}

/** How many leading bytes detection reads. */
export const DETECT_HEAD_BYTES = 65536;

/** One harness importer: recognise its logs, and turn one into decisions. */
export interface HarnessImporter {
  /** Its format name (the `--format` value). */
  readonly format: HarnessFormat;
  /** Mapping options it reads, besides severity and `pcorrectFrom`. */
  readonly flags: readonly HarnessOption[];
  /**
   * Where its items keep their own metadata: dotted paths of the record its
   * `severityOf` is given (inspect's `metadata`, lm-eval's `doc`). A
   * severity template writes each key of the object found there as a
   * column, so that a severity can be chosen by what the item is.
   */
  readonly metadataPaths: readonly string[];
  /**
   * Whether it refuses, by itself, a log in which two decisions share a key
   * (runId, modelId, taskId, trial): lm-eval's reader refuses a repeated
   * `doc_id`, and every other part of its key is the log's own. The keys of
   * a single such log need no second check; across logs they are checked
   * all the same.
   */
  readonly keysUnique?: boolean;
  /** Whether the input is unmistakably this format's log (no false positives: detection must not guess). */
  detect(input: DetectInput): boolean;
  /** Read the log at `path` (file or folder). Errors name the file, the item and the field. */
  import(
    path: string,
    options: HarnessImportOptions,
  ): Promise<HarnessImportResult>;
}

/** The importers, one line per format; a format without a line is not yet readable. */
export const HARNESS_IMPORTERS: {
  readonly [F in HarnessFormat]?: HarnessImporter;
} = {
  inspect: inspectImporter,
  "lm-eval": lmEvalImporter,
  helm: helmImporter,
  promptfoo: promptfooImporter,
};

/**
 * Whether a string names a harness format.
 *
 * @param value Any string.
 * @returns `true` for one of {@linkcode HARNESS_FORMATS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isHarnessFormat } from "./harness.ts";
 *
 * assert.equal(isHarnessFormat("helm"), true);
 * ```
 */
export function isHarnessFormat(value: string): value is HarnessFormat {
  return (HARNESS_FORMATS as readonly string[]).includes(value);
}

/**
 * The importer of a format.
 *
 * @param format A harness format.
 * @returns Its importer.
 * @throws {TypeError} When the format has no importer in this build.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { harnessImporter } from "./harness.ts";
 *
 * assert.equal(harnessImporter("helm").format, "helm");
 * ```
 */
export function harnessImporter(format: HarnessFormat): HarnessImporter {
  const importer = HARNESS_IMPORTERS[format];
  if (importer === undefined) {
    throw new InputTypeError(
      `--format ${format}: this build of lossbook has no ${format} importer; it reads ${
        Object.keys(HARNESS_IMPORTERS).join(", ")
      }`,
    );
  }
  return importer;
}
