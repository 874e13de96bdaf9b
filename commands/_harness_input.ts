// Private, shared by the library functions (api/) and the commands: the mapping flags every harness format shares, parsed
// in one place; which format an input is, detected from its content; and
// the import of harness logs into decisions, saying what was done.
import type { Decision } from "../lib/decision/decision.ts";
import {
  HARNESS_FORMATS,
  HARNESS_IMPORTERS,
  type HarnessFormat,
  harnessImporter,
  type HarnessImportOptions,
  type HarnessOption,
  type IncompleteInput,
  incompleteness,
  isHarnessFormat,
  type SetAside,
} from "../lib/import/harness.ts";
import {
  clusterResolver,
  describePCorrectSources,
  parsePCorrectFrom,
  type SeverityResolver,
  severityResolver,
  severitySpec,
  tallyPCorrectSource,
} from "../lib/import/mapping.ts";
import { UsageError } from "./_command.ts";
import { InputRangeError } from "../lib/input_error.ts";
import { stringMapKey, tupleKey } from "../lib/_tuple_key.ts";
import { regularFile } from "../lib/read/_regular_file.ts";
import { ClusterCheck } from "../lib/decision/cluster.ts";
import {
  DEFAULT_MAX_ENTRY_BYTES,
  DEFAULT_MAX_ENTRY_RATIO,
} from "../lib/import/_zip_caps.ts";
import { CLUSTER_OPTION } from "./_options.ts";

/**
 * The mapping flags, as `parseFlags` specs; every command that reads logs
 * takes them. `--cluster` is among them, as it fills a log's clusters, and
 * applies to every format (for decisions it names the unit).
 */
export const MAPPING_FLAGS = {
  severity: {
    type: "string",
    value: "LEVEL",
    doc:
      "harness logs: give every decision this severity (LOW, MEDIUM, HIGH or CRITICAL); a log has none, so exactly one of --severity, --severity-map, --severity-field is required for one",
  },
  "severity-map": {
    type: "string",
    value: "FILE",
    doc:
      'harness logs: severity per task id from a CSV (header key,severity) or JSON ({"key": "HIGH"}) file',
  },
  "severity-map-key": {
    type: "string",
    value: "field:PATH",
    doc:
      "with --severity-map: key the map on the value at PATH of each item (e.g. field:metadata.class) instead of the task id",
  },
  "severity-field": {
    type: "string",
    value: "PATH",
    doc:
      "harness logs: read each decision's severity at PATH of its item, e.g. metadata.severity",
  },
  scorer: {
    type: "string",
    value: "NAME",
    doc:
      "harness logs: the scorer that decides correctness when a log has several",
    byDefault: "the log's only scorer; refused when there are several",
  },
  partial: {
    type: "string",
    value: "correct|incorrect",
    doc: "harness logs: how a partial or fractional score counts",
    byDefault: "a log with partial credit is refused",
  },
  "pcorrect-from": {
    type: "string",
    value: "SOURCE",
    doc:
      "harness logs: where P(correct) comes from (stated, logprob-option, logprob-token, agreement, agreement@k, score-metadata:KEY, or none)",
    byDefault: "the first the log offers, in the format's documented order",
  },
  "model-id": {
    type: "string",
    value: "NAME",
    doc: "harness logs: the model's id, where the log does not name it",
  },
  filter: {
    type: "string",
    value: "NAME",
    doc:
      "lm-eval logs: which filter's lines to read; required when the file has several",
  },
  metric: {
    type: "string",
    value: "NAME",
    doc: "HELM runs: which metric decides correctness",
    byDefault: "exact_match",
  },
  correct: {
    type: "string",
    value: "TYPE[,TYPE]",
    doc:
      'promptfoo results: the assertion types that mean "correct", comma-separated; required for promptfoo',
  },
  "allow-incomplete": {
    type: "boolean",
    doc:
      "harness logs: score what an incomplete log holds (status other than success, fewer samples than it counts) instead of refusing it; --json lists each such file under inputs",
  },
  "max-entry-bytes": {
    type: "string",
    value: "N",
    doc:
      "inspect .eval logs: refuse an archive entry that inflates past N bytes, checked while inflating (a decompression bomb)",
    byDefault: `${DEFAULT_MAX_ENTRY_BYTES} (256 MiB)`,
  },
  "max-entry-ratio": {
    type: "string",
    value: "R",
    doc:
      "inspect .eval logs: refuse an archive entry past 1 MiB that inflates to more than R times its compressed size, checked while inflating",
    byDefault: String(DEFAULT_MAX_ENTRY_RATIO),
  },
  cluster: CLUSTER_OPTION,
} as const;

/** The mapping flags' values. */
export interface MappingFlags {
  severity?: string;
  "severity-map"?: string;
  "severity-map-key"?: string;
  "severity-field"?: string;
  scorer?: string;
  partial?: string;
  "pcorrect-from"?: string;
  "model-id"?: string;
  filter?: string;
  metric?: string;
  correct?: string;
  "allow-incomplete"?: boolean;
  "max-entry-bytes"?: string;
  "max-entry-ratio"?: string;
  /** `--cluster PATH`: each decision's cluster, read at PATH of its item (`taskId`: none). */
  cluster?: string;
}

const OPTION_FLAGS: ReadonlyArray<
  readonly [HarnessOption, keyof MappingFlags]
> = [
  ["scorer", "scorer"],
  ["partial", "partial"],
  ["modelId", "model-id"],
  ["filter", "filter"],
  ["metric", "metric"],
  ["correct", "correct"],
  ["maxEntryBytes", "max-entry-bytes"],
  ["maxEntryRatio", "max-entry-ratio"],
];

// the decompression caps: option, flag, least value
const ENTRY_CAPS = [
  ["maxEntryBytes", "max-entry-bytes", 1],
  ["maxEntryRatio", "max-entry-ratio", 1],
] as const;

const SEVERITY_FLAGS = [
  "severity",
  "severity-map",
  "severity-map-key",
  "severity-field",
] as const;

/**
 * Refuse the harness-only mapping flags for a format that is not a harness
 * log (`--pcorrect-from` is the caller's to check).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refuseMappingFlags } from "./_harness_input.ts";
 *
 * assert.throws(() => refuseMappingFlags({ severity: "HIGH" }, "decisions"), /--severity applies to the harness formats/);
 * refuseMappingFlags({}, "decisions");
 * ```
 */
export function refuseMappingFlags(flags: MappingFlags, format: string): void {
  for (
    const name of [
      ...SEVERITY_FLAGS,
      ...OPTION_FLAGS.map(([, f]) => f),
      "allow-incomplete",
    ] as const
  ) {
    if (flags[name] !== undefined) {
      throw new UsageError(
        `--${name} applies to the harness formats (${
          HARNESS_FORMATS.join(", ")
        }), not to --format ${format}`,
      );
    }
  }
}

/**
 * Refuse `--cluster` where it can only fill the clusters of harness logs
 * (`import`, `ledger append`) but the input is not one: other formats'
 * decisions name their own clusters, or none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refuseClusterFill } from "./_harness_input.ts";
 *
 * assert.throws(() => refuseClusterFill({ cluster: "metadata.source" }, "reconforge"), /--cluster fills the clusters of harness logs/);
 * refuseClusterFill({}, "reconforge");
 * ```
 */
export function refuseClusterFill(flags: MappingFlags, format: string): void {
  if (flags.cluster !== undefined) {
    throw new UsageError(
      `--cluster fills the clusters of harness logs (${
        HARNESS_FORMATS.join(", ")
      }) here; --format ${format} decisions name their own cluster, or none`,
    );
  }
}

/**
 * Read the mapping flags into the importer options of one harness format:
 * severity (exactly one source, required, unless `severityOf` is given in
 * its place), `--pcorrect-from`, and the options this format reads; a flag
 * the format does not read is refused, naming the formats that do.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { harnessOptions } from "./_harness_input.ts";
 *
 * const o = await harnessOptions({ severity: "LOW", scorer: "match" }, "inspect");
 * assert.equal(o.scorer, "match");
 * assert.equal(o.severityOf({ taskId: "1", record: {} }, "x"), "LOW");
 * await assert.rejects(() => harnessOptions({}, "inspect"), /give exactly one of --severity/);
 * ```
 */
export async function harnessOptions(
  flags: MappingFlags,
  format: HarnessFormat,
  severityOf?: SeverityResolver,
): Promise<HarnessImportOptions> {
  const importer = harnessImporter(format);
  for (const [option, flag] of OPTION_FLAGS) {
    if (flags[flag] === undefined || importer.flags.includes(option)) continue;
    const readers = HARNESS_FORMATS.filter((f) =>
      HARNESS_IMPORTERS[f]?.flags.includes(option)
    );
    throw new UsageError(
      `--${flag} applies to --format ${
        readers.join(" or ") || "(no format in this build)"
      }, not to ${format}`,
    );
  }
  const options: {
    -readonly [K in keyof HarnessImportOptions]: HarnessImportOptions[K];
  } = { severityOf: severityOf ?? await severityFromFlags(flags) };
  if (flags.cluster !== undefined && flags.cluster !== "taskId") {
    try {
      options.clusterOf = clusterResolver(flags.cluster);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (flags["pcorrect-from"] !== undefined) {
    try {
      options.pcorrectFrom = parsePCorrectFrom(flags["pcorrect-from"]);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (flags.partial !== undefined) {
    if (flags.partial !== "correct" && flags.partial !== "incorrect") {
      throw new UsageError(
        `--partial must be correct or incorrect, got ${
          JSON.stringify(flags.partial)
        }`,
      );
    }
    options.partial = flags.partial;
  }
  if (flags.scorer !== undefined) options.scorer = flags.scorer;
  if (flags["model-id"] !== undefined) options.modelId = flags["model-id"];
  if (flags.filter !== undefined) options.filter = flags.filter;
  if (flags.metric !== undefined) options.metric = flags.metric;
  for (const [option, flag, min] of ENTRY_CAPS) {
    const raw = flags[flag];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (
      !(raw.trim() === raw && raw !== "" && Number.isInteger(n) && n >= min)
    ) {
      throw new UsageError(
        `--${flag} must be an integer >= ${min}, got ${JSON.stringify(raw)}`,
      );
    }
    options[option] = n;
  }
  if (flags.correct !== undefined) {
    const types = flags.correct.split(",").map((t) => t.trim());
    if (types.some((t) => t === "")) {
      throw new UsageError(
        `--correct must name assertion types separated by commas, got ${
          JSON.stringify(flags.correct)
        }`,
      );
    }
    options.correct = types;
  }
  return options;
}

// The resolver the severity flags say, their usage errors as usage errors.
async function severityFromFlags(
  flags: MappingFlags,
): Promise<SeverityResolver> {
  try {
    return severityResolver(
      await severitySpec({
        severity: flags.severity,
        severityMap: flags["severity-map"],
        severityMapKey: flags["severity-map-key"],
        severityField: flags["severity-field"],
      }),
    );
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
}

/** What the harness import of one or more files produced. */
export interface HarnessRun {
  /** Logs read although incomplete (`--allow-incomplete`), in input order; empty when every log is whole. */
  readonly inputs: IncompleteInput[];
  /** The decisions, in input order; empty when they went to `onDecision`. */
  readonly decisions: Decision[];
  /** How many decisions there are. */
  readonly count: number;
  readonly notes: Record<string, number>;
  readonly messages: string[];
  readonly setAside: Array<SetAside & { readonly file: string }>;
  readonly pCorrectSources: Record<string, number>;
}

/**
 * Import harness logs of one format and concatenate their decisions. Every
 * message (scorer, set-aside items, pCorrect sources) goes to stderr,
 * prefixed with its file; a decision key repeated across files is refused.
 * With `onDecision`, each decision goes there as it is made (once its key
 * is checked) instead of into the result's `decisions`; an error may still
 * follow, refusing the whole run, as it would have without it. With
 * `severityOf`, every item is given to it instead of to the resolver the
 * severity flags say (which are then not read).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importHarness } from "./_harness_input.ts";
 *
 * const r = await importHarness(["data/examples/harness/inspect_qwen.eval"], "inspect", { severity: "HIGH" }, { quiet: true });
 * assert.equal(r.decisions.length, 9);
 * assert.equal(r.setAside[0].outcome, "harness_failure");
 * ```
 */
export async function importHarness(
  paths: readonly string[],
  format: HarnessFormat,
  flags: MappingFlags,
  options: {
    quiet?: boolean;
    onDecision?: (decision: Decision) => void;
    severityOf?: SeverityResolver;
  } = {},
): Promise<HarnessRun> {
  // a HELM run is a folder; every other log is one file
  if (format !== "helm") {
    for (const p of paths) {
      await regularFile(p, `Cannot load ${format} log ${p}`);
    }
  }
  const importer = harnessImporter(format);
  const opts = await harnessOptions(flags, format, options.severityOf);
  const decisions: Decision[] = [];
  const notes: Record<string, number> = {};
  const messages: string[] = [];
  const setAside: Array<SetAside & { file: string }> = [];
  const firstFile = new KeyFiles();
  // a task's decisions name one cluster, across logs too
  const clusters = new ClusterCheck(`Cannot import ${format} logs`, "");
  const inputs: IncompleteInput[] = [];
  const sink = options.onDecision;
  let count = 0;
  const pCorrectSources: Record<string, number> = {};
  for (const path of paths) {
    // each decision's key is checked against every earlier one as it comes;
    // a repeat is thrown once the file is read, where it always was
    let repeat: InputRangeError | null = null;
    const sources: Record<string, number> = {};
    // a single log whose importer refuses repeated keys itself needs no
    // second check
    const checkKeys = paths.length > 1 || importer.keysUnique !== true;
    const take = (d: Decision): void => {
      if (repeat !== null) return;
      const first = checkKeys ? firstFile.enter(d, path) : undefined;
      if (first !== undefined) {
        repeat = new InputRangeError(
          `Cannot combine ${path}: its decision for runId ${
            JSON.stringify(d.runId)
          }, modelId ${JSON.stringify(d.modelId)}, taskId ${
            JSON.stringify(d.taskId)
          }, trial ${d.trial} repeats one in ${first}`,
        );
        return;
      }
      if (d.cluster !== undefined) {
        clusters.add(
          d.taskId,
          d.cluster,
          `${path}'s decision for taskId ${
            JSON.stringify(d.taskId)
          }, trial ${d.trial}`,
        );
      }
      tallyPCorrectSource(sources, d);
      tallyPCorrectSource(pCorrectSources, d);
      count++;
      if (sink === undefined) decisions.push(d);
      else sink(d);
    };
    const r = await importer.import(path, { ...opts, onDecision: take });
    // an importer passes every decision to onDecision; any returned too
    // are taken in their turn
    for (const d of r.decisions) take(d);
    const c = r.completeness;
    const why = incompleteness(c);
    if (why !== null) {
      if (flags["allow-incomplete"] !== true) {
        throw new InputRangeError(
          `Cannot import ${format} log ${path}: it is incomplete: ${why}; a partial log is not scored as if it were whole (--allow-incomplete scores what it holds)`,
        );
      }
      inputs.push({
        file: path,
        status: c.status,
        samplesExpected: c.samplesExpected,
        samplesRead: c.samplesRead,
      });
      messages.push(
        `${path}: incomplete, read as it is (--allow-incomplete): ${why}`,
      );
    }
    if (repeat !== null) throw repeat;
    for (const [k, v] of Object.entries(r.notes)) {
      notes[k] = (notes[k] ?? 0) + v;
    }
    for (const a of r.setAside ?? []) setAside.push({ ...a, file: path });
    // every import says where its probabilities came from, once
    const said = r.messages.some((m) => m.startsWith("pCorrect source:"));
    const described = said ? [] : [describePCorrectSources(sources)];
    for (const m of [...r.messages, ...described]) {
      messages.push(`${path}: ${m}`);
    }
  }
  clusters.finish();
  if (options.quiet !== true) { for (const m of messages) console.error(m); }
  // zero decisions is never a result, whatever was allowed
  if (count === 0) {
    throw new InputRangeError(
      `no decisions in ${paths.join(", ")}${
        setAside.length > 0
          ? ` (${setAside.length} sample${
            setAside.length === 1 ? "" : "s"
          } set aside, none scored)`
          : ""
      }`,
    );
  }
  return {
    inputs,
    decisions,
    count,
    notes,
    messages,
    setAside,
    pCorrectSources,
  };
}

// A task id as a Map key (its stringMapKey).
type TaskKey = string | number;

// The decision keys seen, each with the file that had it first: by run and
// model (one pair a log, as a rule), then by trial, then by task id, so that
// no key string is made for each decision.
class KeyFiles {
  readonly #pairs = new Map<string, Map<number, Map<TaskKey, string>>>();
  #run: string | null = null;
  #model: string | null = null;
  #trials: Map<number, Map<TaskKey, string>> | null = null;

  /** The file that had the decision's key first; else undefined, and the key is the file's now. */
  enter(d: Decision, file: string): string | undefined {
    let trials = this.#trials;
    if (trials === null || d.runId !== this.#run || d.modelId !== this.#model) {
      const pair = tupleKey([d.runId, d.modelId]);
      trials = this.#pairs.get(pair) ?? new Map();
      this.#pairs.set(pair, trials);
      this.#trials = trials;
      this.#run = d.runId;
      this.#model = d.modelId;
    }
    let tasks = trials.get(d.trial);
    if (tasks === undefined) trials.set(d.trial, tasks = new Map());
    const task = stringMapKey(d.taskId);
    const first = tasks.get(task);
    if (first === undefined) tasks.set(task, file);
    return first;
  }
}

/**
 * Whether a format name is a harness format.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isHarness } from "./_harness_input.ts";
 *
 * assert.equal(isHarness("inspect"), true);
 * assert.equal(isHarness("reconforge"), false);
 * ```
 */
export function isHarness(format: string): format is HarnessFormat {
  return isHarnessFormat(format);
}
