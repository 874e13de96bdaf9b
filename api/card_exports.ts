// The card's figures in two shared formats: Every Eval Ever's aggregate
// record (one per model) and Hugging Face's `model-index` block. Both carry
// the card's own numbers, named as metrics; neither computes any.
import { createHash } from "node:crypto";
import { UsageError } from "../commands/_command.ts";
import type { ModelIndexEntry } from "../lib/report/model_index.ts";
import type { CardDocument, CardModel } from "./card.ts";

/** An interval as Every Eval Ever states one. */
interface Interval {
  readonly lower: number;
  readonly upper: number;
  readonly confidence_level: number;
  readonly method: string;
}

/** One figure of a model's card, named as a metric. */
export interface CardMetric {
  /** Stable id: `accuracy`, `lossbook.loss.<profile>`, … */
  readonly id: string;
  /** Name for people. */
  readonly name: string;
  /** What it measures. */
  readonly description: string;
  /** Its value. */
  readonly value: number;
  /** Whether lower is better (loss, calibration error). */
  readonly lowerIsBetter: boolean;
  /** Unit of the value. */
  readonly unit: string;
  /** Smallest and largest possible values. */
  readonly min: number;
  readonly max: number | "Infinity";
  /** Its interval, where it has one. */
  readonly interval: Interval | null;
  /** Decisions behind it. */
  readonly samples: number;
}

function interval(
  ci: { lo: number | null; hi: number | null; level: number } | null,
  method: string | undefined,
): Interval | null {
  return ci === null || ci.lo === null || ci.hi === null ||
      method === undefined
    ? null
    : {
      lower: ci.lo,
      upper: ci.hi,
      confidence_level: ci.level,
      method,
    };
}

/**
 * The figures of one model's card as named metrics, in the card's order;
 * a figure that is null (no decisions, one model) is left out.
 *
 * @param doc The `card --json` document.
 * @param m One of its models.
 * @returns The metrics.
 */
export function cardMetrics(doc: CardDocument, m: CardModel): CardMetric[] {
  const out: CardMetric[] = [];
  if (m.accuracy !== null) {
    out.push({
      id: "accuracy",
      name: "Accuracy",
      description: "share of decisions whose class equals the gold class",
      value: m.accuracy,
      lowerIsBetter: false,
      unit: "proportion",
      min: 0,
      max: 1,
      interval: interval(m.accuracyInterval, m.accuracyInterval?.method),
      samples: m.decisions,
    });
  }
  if (m.severityWeightedRecall !== null) {
    const ci = m.severityWeightedRecallInterval;
    out.push({
      id: "lossbook.severity_weighted_recall",
      name: "Severity-weighted recall R_w",
      description:
        "recall of exceptions weighted by the severity of their class (ReconForge's R_w)",
      value: m.severityWeightedRecall,
      lowerIsBetter: false,
      unit: "proportion",
      min: 0,
      max: 1,
      interval: interval(ci, ci?.method),
      samples: m.decisions,
    });
  }
  for (const p of doc.profiles) {
    const loss = m.loss[p.id];
    if (loss === null) continue;
    const ci = m.lossIntervals[p.id];
    out.push({
      id: `lossbook.loss.${p.id}`,
      name: `Loss (${p.id}@${p.version})`,
      description:
        `loss summed over the decisions, priced by the cost profile ${p.id}@${p.version} under the ${doc.matrix} matrix`,
      value: loss,
      lowerIsBetter: true,
      unit: p.unit ?? "profile units",
      min: 0,
      max: "Infinity",
      interval: interval(ci, ci.method),
      samples: m.decisions,
    });
  }
  if (m.pBest !== null) {
    for (const p of doc.profiles) {
      const best = m.pBest[p.id];
      // not stated where the models' own counts do not carry the comparison
      if (best === null) continue;
      out.push({
        id: `lossbook.p_best.${p.id}`,
        name: `P(best) (${p.id}@${p.version})`,
        description:
          `probability of the lowest expected loss among the card's models under ${p.id}@${p.version}`,
        value: best,
        lowerIsBetter: false,
        unit: "probability",
        min: 0,
        max: 1,
        interval: null,
        samples: m.decisions,
      });
    }
  }
  const cal = m.calibration;
  if (cal !== null && cal.ece !== null) {
    out.push({
      id: "ece",
      name: "Expected calibration error",
      description:
        `expected calibration error of the stated P(correct), ${doc.calibration?.bins} ${doc.calibration?.strategy} bins`,
      value: cal.ece,
      lowerIsBetter: true,
      unit: "proportion",
      min: 0,
      max: 1,
      interval: interval(cal.eceInterval, cal.eceInterval.method),
      samples: cal.n,
    });
  }
  if (cal !== null && cal.brier !== null) {
    out.push({
      id: "brier",
      name: "Brier score",
      description: "mean squared error of the stated P(correct)",
      value: cal.brier,
      lowerIsBetter: true,
      unit: "proportion",
      min: 0,
      max: 1,
      interval: null,
      samples: cal.n,
    });
  }
  return out;
}

/** The one value a list holds, or a usage error saying what is missing or ambiguous. */
function one(values: readonly string[], what: string, flag: string): string {
  if (values.length === 1) return values[0];
  throw new UsageError(
    values.length === 0
      ? `--model-index needs ${what}, and no input names one; give ${flag}`
      : `--model-index needs one ${what}, and the inputs name ${values.length} (${
        values.join(", ")
      }); give ${flag}`,
  );
}

/**
 * The Hugging Face `model-index` entries of a card: one per model, one
 * result naming the task and the dataset, and the card's figures as
 * metrics (`type`, `value`, `name`).
 *
 * @param doc The `card --json` document.
 * @returns One entry per model.
 * @throws {UsageError} When the task type, the dataset type or the dataset
 *   name is not named by the inputs or the flags, or named several times.
 */
export function modelIndexEntries(doc: CardDocument): ModelIndexEntry[] {
  const ev = doc.evaluation;
  const task = { type: one(ev.taskTypes, "task.type", "--task-type NAME") };
  const dataset = {
    type: one(ev.datasetTypes, "dataset.type", "--dataset-type ID"),
    name: one(ev.datasetNames, "dataset.name", "--dataset-name NAME"),
  };
  return doc.models.map((m) => ({
    name: m.modelId,
    results: [{
      task,
      dataset,
      metrics: cardMetrics(doc, m).map((x) => ({
        type: x.id,
        value: x.value,
        name: x.name,
      })),
    }],
  }));
}

/**
 * A UUID made from a record's content: the first 128 bits of the SHA-256 of
 * its JSON without the timestamp fields (`retrieved_timestamp`,
 * `evaluation_id`), marked as an RFC 9562 version-8 UUID. The same figures
 * give the same name whenever they are written; other figures, another name.
 *
 * @param record An Every Eval Ever record.
 * @returns The UUID, lower-case with dashes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentUuid } from "./card_exports.ts";
 *
 * const a = contentUuid({ model_info: { id: "m" }, retrieved_timestamp: "1" });
 * assert.equal(a, contentUuid({ model_info: { id: "m" }, retrieved_timestamp: "2" }));
 * assert.notEqual(a, contentUuid({ model_info: { id: "n" }, retrieved_timestamp: "1" }));
 * assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
 * ```
 */
export function contentUuid(record: Readonly<Record<string, unknown>>): string {
  const { retrieved_timestamp: _t, evaluation_id: _e, ...rest } = record;
  const b = createHash("sha256").update(JSON.stringify(rest)).digest()
    .subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x80;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${
    h.slice(16, 20)
  }-${h.slice(20)}`;
}

/** Options of {@linkcode everyEvalEverRecords}. */
export interface EveryEvalEverOptions {
  /** The schema version the records name (the vendored schema's). */
  readonly schemaVersion: string;
  /** When the records are made, in Unix seconds as a decimal string. */
  readonly retrievedTimestamp: string;
  /**
   * The UUID of a record (its file name), given the record. Default:
   * {@linkcode contentUuid}, so the same card makes the same file names.
   */
  readonly uuid?: (record: Readonly<Record<string, unknown>>) => string;
}

/** One record and where it goes under the output folder. */
export interface EveryEvalEverFile {
  /** `<developer>/<model>/<uuid>.json`, as the datastore lays its files out. */
  readonly path: string;
  /** The aggregate record. */
  readonly record: Record<string, unknown>;
}

// a path segment: what is not a letter, digit, dot, dash or underscore
// becomes an underscore
function segment(s: string): string {
  const out = s.replace(/[^A-Za-z0-9._-]/g, "_");
  return out === "" || out === "." || out === ".." ? "_" : out;
}

function sourceData(doc: CardDocument, name: string): Record<string, unknown> {
  const location = doc.evaluation.datasetTypes.length === 1
    ? doc.evaluation.datasetTypes[0]
    : null;
  if (location !== null && /^https?:\/\//.test(location)) {
    return { dataset_name: name, source_type: "url", url: [location] };
  }
  if (location !== null && /^[\w.-]+\/[\w.-]+$/.test(location)) {
    return { dataset_name: name, source_type: "hf_dataset", hf_repo: location };
  }
  return {
    dataset_name: name,
    source_type: "other",
    ...(location === null ? {} : { additional_details: { location } }),
  };
}

/**
 * One Every Eval Ever aggregate record per model of a card: the card's
 * figures as evaluation results, each with its metric's config (loss and
 * calibration error `lower_is_better: true`) and, where it has one, its
 * interval under `uncertainty.confidence_interval` with the interval's own
 * method. lossbook cannot know who ran the evaluation: the source's
 * organisation is `unknown` and its relationship to the model `other`, and
 * the model's deployment and availability `unknown`, for the submitter to
 * correct.
 *
 * @param doc The `card --json` document.
 * @param options Schema version, timestamp and UUIDs.
 * @returns One record per model, with its path.
 */
export function everyEvalEverRecords(
  doc: CardDocument,
  options: EveryEvalEverOptions,
): EveryEvalEverFile[] {
  const uuid = options.uuid ?? contentUuid;
  const ev = doc.evaluation;
  const files = "file" in doc
    ? [doc.file]
    : "files" in doc
    ? doc.files
    : [`table ${doc.table}`];
  const evaluationName = ev.taskTypes.length > 0
    ? ev.taskTypes.join("+")
    : "lossbook-card";
  const datasetName = ev.datasetNames.length > 0
    ? ev.datasetNames.join("+")
    : files.join(", ");
  return doc.models.map((m) => {
    const slash = m.modelId.indexOf("/");
    const developer = slash < 0 ? "unknown" : m.modelId.slice(0, slash);
    const model = slash < 0 ? m.modelId : m.modelId.slice(slash + 1);
    const record = {
      schema_version: options.schemaVersion,
      evaluation_id:
        `${evaluationName}/${m.modelId}/${options.retrievedTimestamp}`,
      retrieved_timestamp: options.retrievedTimestamp,
      source_metadata: {
        source_name: "lossbook card",
        source_type: "evaluation_run",
        source_organization_name: "unknown",
        evaluator_relationship: "other",
        additional_details: { command: doc.command, inputs: files.join(", ") },
      },
      eval_library: {
        name: "lossbook",
        version: doc.lossbook,
        additional_details: {
          input_format: doc.format,
          mode: doc.mode,
          matrix: doc.matrix,
          severities: doc.severities.from,
        },
      },
      model_info: {
        name: m.modelId,
        id: m.modelId,
        additional_details: {
          deployment_type: "unknown",
          model_availability: "unknown",
        },
      },
      evaluation_results: cardMetrics(doc, m).map((x) => ({
        evaluation_result_id: `${evaluationName}/${x.id}`,
        evaluation_name: evaluationName,
        source_data: sourceData(doc, datasetName),
        metric_config: {
          evaluation_description: x.description,
          metric_id: x.id,
          metric_name: x.name,
          metric_unit: x.unit,
          lower_is_better: x.lowerIsBetter,
          score_type: "continuous",
          min_score: x.min,
          max_score: x.max,
        },
        score_details: {
          score: x.value,
          uncertainty: {
            ...(x.interval === null ? {} : { confidence_interval: x.interval }),
            num_samples: x.samples,
          },
        },
      })),
    };
    return {
      path: `${segment(developer)}/${segment(model)}/${uuid(record)}.json`,
      record,
    };
  });
}
