// `card`: a consequence card per model, gathered from what `score`, `sweep`
// and `calibrate` print for the same inputs (it calls them, it recomputes
// none of their figures), with what only the decisions tell: tasks, cost
// evidence, where the severities came from.
import type { Severity } from "../lib/costs/severity.ts";
import type { CostCompleteness } from "../lib/evidence/cost_evidence.ts";
import type { FailureClass } from "../lib/evidence/cost_evidence.ts";
import {
  costReportBy,
  type CostReportRow,
} from "../lib/evidence/cost_report.ts";
import { isHarnessFormat } from "../lib/import/harness.ts";
import { harnessMeta } from "../lib/import/harness_meta.ts";
import { isStreamPath } from "../lib/read/_regular_file.ts";
import { UsageError } from "../commands/_command.ts";
import {
  type ImportKeys,
  type InputKeys,
  readRun,
  requireInputs,
  type RunSource,
  sourceName,
  type UnitKeys,
} from "../commands/_input.ts";
import { MAPPING_FLAGS } from "../commands/_harness_input.ts";
import {
  CI_OPTION,
  FORCE_OPTION,
  JSON_OPTION,
  LENIENT_OPTION,
  PROBABILITY_OPTION,
  SEED_OPTION,
} from "../commands/_options.ts";
import { VERSION } from "../version.ts";
import { flagValues, type FlagValuesOf } from "./_options.ts";
import type { CardOptions } from "./options.ts";
import { type ModelScore, scoreRun, SCORING_FLAGS } from "./score.ts";
import { SWEEP_OPTIONS, type SweepResult, sweepRun } from "./sweep.ts";
import { calibrateRun, type CalibrationReport } from "./calibrate.ts";

/** The options of `card`, as `--help` lists them and `parseFlags` reads them. */
export const CARD_OPTIONS = {
  format: SCORING_FLAGS.format,
  ...MAPPING_FLAGS,
  probability: PROBABILITY_OPTION,
  mode: SCORING_FLAGS.mode,
  profile: SCORING_FLAGS.profile,
  ci: CI_OPTION,
  seed: {
    ...SEED_OPTION,
    doc:
      "seed of every random draw: score's intervals and P(best), sweep's crossover intervals, calibrate's noise floor; the same seed gives byte-identical output",
  },
  resamples: SCORING_FLAGS.resamples,
  interval: SCORING_FLAGS.interval,
  base: {
    ...SWEEP_OPTIONS.base,
    doc:
      "base cost profile of the family along which each model's winning span of K is found (sweep's family: the K of HIGH and CRITICAL multiplied by r from 1 to 100,000)",
  },
  "task-type": {
    type: "string",
    value: "NAME",
    doc:
      "the harness's task name (model-index task.type), where the logs name none; given, it is used for every model",
    byDefault: "what the logs name (inspect's eval.task, lm-eval's task)",
  },
  "dataset-type": {
    type: "string",
    value: "ID",
    doc:
      "where the dataset lives, e.g. allenai/ai2_arc (model-index dataset.type), where the logs name none",
    byDefault:
      "what the logs name (inspect's eval.dataset.location, lm-eval's dataset_path)",
  },
  "dataset-name": {
    type: "string",
    value: "NAME",
    doc:
      "the dataset's name (model-index dataset.name), where the logs name none",
    byDefault:
      "what the logs name (inspect's eval.dataset.name, lm-eval's dataset_name)",
  },
  lenient: LENIENT_OPTION,
  out: {
    type: "string",
    value: "FILE",
    doc:
      "write the card (Markdown, or HTML with --html) to FILE instead of stdout; refused if it exists, unless --force",
  },
  force: FORCE_OPTION,
  json: JSON_OPTION,
} as const;

/** Where the severities of the decisions came from. */
export type SeveritySource =
  | { from: "--severity"; value: string }
  | {
    from: "--severity-map";
    file: string;
    sha256: string;
    key: string | null;
  }
  | { from: "--severity-field"; path: string }
  | { from: "inputs" };

/** One stretch of the family's ratio r over which a model has the lowest loss. */
export interface WinSpan {
  /** Where it starts: the grid's `from`, or a winner change's ratio. */
  readonly from: number;
  /** The exact ratio where it starts (`p/q`), or null at the grid's end. */
  readonly fromExact: string | null;
  /** Where it ends: a winner change's ratio, or the grid's `to`. */
  readonly to: number;
  /** The exact ratio where it ends, or null at the grid's end. */
  readonly toExact: string | null;
  /** K of each scaled severity at `from` and `to` (base K times r). */
  readonly K: {
    readonly from: Readonly<Partial<Record<Severity, number>>>;
    readonly to: Readonly<Partial<Record<Severity, number>>>;
  };
  /** The other models with the same lowest loss over the stretch. */
  readonly tiedWith: readonly string[];
}

/** Cost evidence of a model's decisions (lib/evidence's cost report). */
export interface CardCost {
  /** Decisions. */
  readonly attempts: number;
  /** Decisions whose cost is complete. */
  readonly complete: number;
  /** Decisions whose cost is partial. */
  readonly partial: number;
  /** Decisions whose cost is unavailable. */
  readonly unavailable: number;
  /** Decisions whose cost does not apply. */
  readonly notApplicable: number;
  /** Sum of complete costs in USD, or null when there are none. */
  readonly completeUsd: number | null;
  /** Resolved decisions (`outcome` resolved). */
  readonly successes: number;
  /** USD per resolved decision; null unless the label is `complete`. */
  readonly costPerSuccessUsd: number | null;
  /** Why cost per success exists or not: complete, incomplete, not_computable. */
  readonly costPerSuccessLabel: CostReportRow["costPerSuccessLabel"];
}

/** A model's calibration, as `calibrate` prints it, with where its probabilities came from. */
export interface CardCalibration {
  /** Decisions with a stated pCorrect. */
  readonly n: number;
  /** Expected calibration error. */
  readonly ece: CalibrationReport["ece"];
  /** Its interval. */
  readonly eceInterval: CalibrationReport["eceInterval"];
  /** Brier score. */
  readonly brier: CalibrationReport["brier"];
  /** Those decisions by `pCorrectSource` (`null` where the input states none). */
  readonly pCorrectSources: Readonly<Record<string, number>>;
}

/** One model's card. Keys are a contract: extend, never rename. */
export interface CardModel {
  /** Model id. */
  readonly modelId: string;
  /** Decisions scored (score's `n`). */
  readonly decisions: number;
  /** Tasks it answered. */
  readonly tasks: number;
  /** Accuracy, and its interval, as score prints them. */
  readonly accuracy: ModelScore["accuracy"];
  /** The accuracy's interval, with its method, as score prints it. */
  readonly accuracyInterval: ModelScore["intervals"]["accuracy"];
  /** Severity-weighted recall R_w and its interval, as score prints them. */
  readonly severityWeightedRecall: ModelScore["severityWeightedRecall"];
  /** R_w's interval, as score prints it. */
  readonly severityWeightedRecallInterval:
    ModelScore["intervals"]["severityWeightedRecall"];
  /** Loss per profile id, and its interval with its method, as score prints them. */
  readonly loss: ModelScore["loss"];
  /** Each profile's loss interval, with its method, as score prints it. */
  readonly lossIntervals: ModelScore["intervals"]["loss"];
  /** P(best) per profile id, as score prints it; null with one model. */
  readonly pBest: ModelScore["pBest"];
  /** How much of the P(best) comparison the pooled prior carries, per profile, as score prints it. */
  readonly pBestShrinkage: ModelScore["pBestShrinkage"];
  /** Where along sweep's family it has the lowest loss; empty where nowhere. */
  readonly wins: readonly WinSpan[];
  /** Calibration, where its decisions state probabilities; else null. */
  readonly calibration: CardCalibration | null;
  /** Cost evidence of its decisions. */
  readonly cost: CardCost;
}

/** The `card --json` document. Keys are a contract: extend, never rename. */
export type CardDocument =
  & ImportKeys
  & UnitKeys
  & {
    /** The lossbook version that made the card. */
    lossbook: string;
    /** The command that makes this card again (output flags left out). */
    command: string;
  }
  & InputKeys
  & {
    /** The format the inputs were read as. */
    format: string;
    /** Decisions scored. */
    decisions: number;
    /** Distinct tasks over every model. */
    tasks: number;
    /** Tasks every model answered. */
    sharedTasks: number;
    /** Whether every model answered the same tasks. */
    sameTasks: boolean;
    /** Where the severities came from. */
    severities: SeveritySource;
    /** What the logs (or the flags) name of the evaluation; each list empty where nothing names it. */
    evaluation: {
      taskTypes: string[];
      datasetTypes: string[];
      datasetNames: string[];
    };
    /** Scoring mode, matrix and interval settings, as score prints them. */
    mode: string;
    matrix: string;
    level: number;
    seed: number;
    resamples: number;
    interval: string;
    lossIntervalMethod: string;
    /** The profiles priced, as score prints them. */
    profiles: { id: string; version: string; unit: string | null }[];
    /** What reading the inputs set aside or repaired, by kind (score's notes). */
    notes: Readonly<Record<string, number>>;
    /** The family along which the winning spans are taken, as sweep prints it. */
    sweep: {
      family: SweepResult["family"];
      grid: { from: number; to: number; points: number };
      per: SweepResult["per"];
      flips: number;
      winnerChanges: SweepResult["winnerChanges"];
    };
    /** calibrate's binning, or null where no decision states a probability. */
    calibration: { bins: number; strategy: string } | null;
    /** One card per model. */
    models: CardModel[];
  };

/** What {@linkcode cardRun} read and computed. */
export interface CardRun {
  /** The `--json` document. */
  readonly document: CardDocument;
}

const PLAIN_ARG = /^[A-Za-z0-9_./:=@%+,-]+$/;

function shellWord(s: string): string {
  return PLAIN_ARG.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** The command line of a card: `lossbook card`, the inputs, then each flag given, in the table's order. */
function commandLine(
  inputs: readonly RunSource[],
  values: FlagValuesOf<typeof CARD_OPTIONS>,
): string {
  const words = ["lossbook", "card", ...inputs.map(sourceName)];
  for (const [flag, doc] of Object.entries(CARD_OPTIONS)) {
    if (flag === "out" || flag === "force" || flag === "json") continue;
    const v = (values as Record<string, unknown>)[flag];
    if (v === undefined || v === false) continue;
    if (doc.type === "boolean") words.push(`--${flag}`);
    else {
      for (const x of Array.isArray(v) ? v : [v]) {
        words.push(`--${flag}`, String(x));
      }
    }
  }
  return words.map(shellWord).join(" ");
}

async function sha256Of(path: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    await Deno.readFile(path),
  );
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

async function severitySource(
  values: FlagValuesOf<typeof CARD_OPTIONS>,
): Promise<SeveritySource> {
  if (values["severity-map"] !== undefined) {
    return {
      from: "--severity-map",
      file: values["severity-map"],
      sha256: await sha256Of(values["severity-map"]),
      key: values["severity-map-key"] ?? null,
    };
  }
  if (values.severity !== undefined) {
    return { from: "--severity", value: values.severity };
  }
  if (values["severity-field"] !== undefined) {
    return { from: "--severity-field", path: values["severity-field"] };
  }
  return { from: "inputs" };
}

/** The stretches of r where each model wins, from sweep's exact winner changes. */
function winSpans(
  sweep: SweepResult,
  modelId: string,
): WinSpan[] {
  const changes = sweep.winnerChanges;
  const kAt = (r: number) =>
    Object.fromEntries(
      sweep.family.scaled.map((s) => [s, sweep.family.K[s] * r]),
    ) as Partial<Record<Severity, number>>;
  const out: WinSpan[] = [];
  for (let i = 0; i <= changes.length; i++) {
    const winners = i < changes.length
      ? changes[i].from
      : changes.length > 0
      ? changes[changes.length - 1].to
      : sweep.winners[0];
    if (!winners.includes(modelId)) continue;
    const from = i === 0 ? sweep.grid.from : changes[i - 1].ratio;
    const to = i < changes.length ? changes[i].ratio : sweep.grid.to;
    out.push({
      from,
      fromExact: i === 0 ? null : changes[i - 1].exact,
      to,
      toExact: i < changes.length ? changes[i].exact : null,
      K: { from: kAt(from), to: kAt(to) },
      tiedWith: winners.filter((m) => m !== modelId),
    });
  }
  return out;
}

function distinct(values: readonly (string | null)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== null))];
}

/**
 * Make the cards with the flag values of `lossbook card`: the one
 * computation behind {@linkcode card} and the command. Every figure is the
 * one `score`, `sweep` and `calibrate` print for the same inputs.
 *
 * The inputs are read by each of them in turn, and each reading says what
 * it found on stderr (scorer, items set aside, probability sources): a line
 * already said during the run is not said again.
 */
export async function cardRun(
  inputs: readonly RunSource[],
  values: FlagValuesOf<typeof CARD_OPTIONS>,
): Promise<CardRun> {
  const said = new Set<string>();
  const error = console.error;
  console.error = (...data: unknown[]) => {
    const line = data.map(String).join(" ");
    if (said.has(line)) return;
    said.add(line);
    error(...data);
  };
  try {
    return await cardOf(inputs, values);
  } finally {
    console.error = error;
  }
}

async function cardOf(
  inputs: readonly RunSource[],
  values: FlagValuesOf<typeof CARD_OPTIONS>,
): Promise<CardRun> {
  requireInputs(inputs);
  for (const input of inputs) {
    if (typeof input === "string" && isStreamPath(input)) {
      throw new UsageError(
        `card reads each input more than once (for score, sweep and calibrate); give a file, not the standard input or a pipe (${input})`,
      );
    }
  }
  const reading = {
    format: values.format,
    ...Object.fromEntries(
      Object.keys(MAPPING_FLAGS).map((k) => [k, (values as never)[k]]),
    ),
    probability: values.probability,
    lenient: values.lenient,
  };
  const scored = await scoreRun(inputs, {
    ...reading,
    mode: values.mode,
    profile: values.profile,
    ci: values.ci,
    seed: values.seed,
    resamples: values.resamples,
    interval: values.interval,
  });
  const swept = await sweepRun(inputs, {
    ...reading,
    mode: values.mode,
    base: values.base,
    seed: values.seed,
  });
  const score = scored.document;
  const sweep = swept.document;
  // the decisions themselves: tasks, probabilities and cost evidence
  const run = await readRun(inputs, reading, true);
  const table = run.table!;
  const modelCol = table.array("modelId") as ArrayLike<string>;
  const taskCol = table.array("taskId") as ArrayLike<string>;
  const pCol = table.array("pCorrect") as ArrayLike<number | null>;
  const sourceCol = table.columnNames().includes("pCorrectSource")
    ? table.array("pCorrectSource") as ArrayLike<string | null>
    : null;
  const tasksOf = new Map<string, Set<string>>();
  const sourcesOf = new Map<string, Record<string, number>>();
  let stated = 0;
  for (let i = 0; i < modelCol.length; i++) {
    const m = modelCol[i];
    if (!tasksOf.has(m)) tasksOf.set(m, new Set());
    tasksOf.get(m)!.add(taskCol[i]);
    if (pCol[i] !== null && pCol[i] !== undefined) {
      stated++;
      const s = String(sourceCol?.[i] ?? null);
      const counts = sourcesOf.get(m) ?? {};
      counts[s] = (counts[s] ?? 0) + 1;
      sourcesOf.set(m, counts);
    }
  }
  const allTasks = new Set<string>();
  for (const t of tasksOf.values()) for (const x of t) allTasks.add(x);
  const sets = [...tasksOf.values()];
  const shared = [...allTasks].filter((t) => sets.every((s) => s.has(t)));
  const books = costReportBy(modelCol, {
    costCompleteness: table.array("costCompleteness") as ArrayLike<
      CostCompleteness
    >,
    costUsd: table.array("costUsd") as ArrayLike<number | null>,
    outcome: table.array("outcome") as ArrayLike<FailureClass>,
  });
  const calibrated = stated === 0 ? null : await calibrateRun(inputs, {
    ...reading,
    seed: values.seed,
  });
  const calibrationOf = new Map(
    (calibrated?.models ?? []).map((m) => [m.modelId, m]),
  );
  // what the logs name of the evaluation, unless the flags say it
  const metas = isHarnessFormat(score.format)
    ? await Promise.all(
      inputs.filter((i): i is string => typeof i === "string").map((p) =>
        harnessMeta(p, score.format as Parameters<typeof harnessMeta>[1])
      ),
    )
    : [];
  const named = (flag: string | undefined, found: (string | null)[]) =>
    flag !== undefined ? [flag] : distinct(found);
  const models: CardModel[] = score.models.map((m) => {
    const cal = calibrationOf.get(m.modelId);
    const book = books.find((b) => b.group === m.modelId)!;
    return {
      modelId: m.modelId,
      decisions: m.n,
      tasks: tasksOf.get(m.modelId)?.size ?? 0,
      accuracy: m.accuracy,
      accuracyInterval: m.intervals.accuracy,
      severityWeightedRecall: m.severityWeightedRecall,
      severityWeightedRecallInterval: m.intervals.severityWeightedRecall,
      loss: m.loss,
      lossIntervals: m.intervals.loss,
      pBest: m.pBest,
      pBestShrinkage: m.pBestShrinkage,
      wins: winSpans(sweep, m.modelId),
      calibration: cal === undefined || cal.n === 0 ? null : {
        n: cal.n,
        ece: cal.ece,
        eceInterval: cal.eceInterval,
        brier: cal.brier,
        pCorrectSources: sourcesOf.get(m.modelId) ?? {},
      },
      cost: {
        attempts: book.attempts,
        complete: book.completeCount,
        partial: book.partialCount,
        unavailable: book.unavailableCount,
        notApplicable: book.notApplicableCount,
        completeUsd: book.completeUsd,
        successes: book.successes,
        costPerSuccessUsd: book.costPerSuccessUsd,
        costPerSuccessLabel: book.costPerSuccessLabel,
      },
    };
  });
  const { file, files, table: sqlTable } = score as Partial<
    { file: string; files: string[]; table: string }
  >;
  const document: CardDocument = {
    lossbook: VERSION,
    command: commandLine(inputs, values),
    ...(file !== undefined
      ? { file }
      : files !== undefined
      ? { files }
      : { table: sqlTable! }),
    format: score.format,
    decisions: score.decisions,
    tasks: allTasks.size,
    sharedTasks: shared.length,
    sameTasks: sets.every((s) => s.size === shared.length),
    severities: await severitySource(values),
    evaluation: {
      taskTypes: named(values["task-type"], metas.map((x) => x.taskType)),
      datasetTypes: named(
        values["dataset-type"],
        metas.map((x) => x.datasetType),
      ),
      datasetNames: named(
        values["dataset-name"],
        metas.map((x) => x.datasetName),
      ),
    },
    mode: score.mode,
    matrix: score.matrix,
    level: score.level,
    seed: score.seed,
    resamples: score.resamples,
    interval: score.interval,
    lossIntervalMethod: score.lossIntervalMethod,
    ...(score.unit === undefined ? {} : { unit: score.unit }),
    profiles: score.profiles,
    notes: score.notes,
    ...(score.pCorrectSources === undefined
      ? {}
      : { pCorrectSources: score.pCorrectSources }),
    ...(score.setAside === undefined ? {} : { setAside: score.setAside }),
    ...(score.inputs === undefined ? {} : { inputs: score.inputs }),
    sweep: {
      family: sweep.family,
      grid: {
        from: sweep.grid.from,
        to: sweep.grid.to,
        points: sweep.grid.points,
      },
      per: sweep.per,
      flips: sweep.flips,
      winnerChanges: sweep.winnerChanges,
    },
    calibration: calibrated === null ? null : {
      bins: calibrated.document.binsRequested,
      strategy: calibrated.document.strategy,
    },
    models,
  };
  return { document };
}

/**
 * A consequence card per model: decisions and tasks, accuracy with its
 * interval, severity-weighted recall, loss per profile with its interval
 * and method, P(best), the span of K over which each model wins along
 * sweep's family, calibration where probabilities exist, cost evidence,
 * where the severities came from, the lossbook version and the command.
 * Every figure is the one `score`, `sweep` and `calibrate` return for the
 * same inputs and flags. Returns the document `lossbook card --json`
 * prints.
 *
 * @param inputs Each one input, as one command-line argument: a path, an
 *   array of decisions, or an Arquero decision table (`<memory:N>`).
 * @param options The flags of `lossbook card` in camelCase (`profiles`,
 *   `base`, `severityMap`, `taskType`, …).
 * @returns The `card --json` document.
 * @throws {UsageError} For options the command would refuse, with its message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { card } from "./card.ts";
 *
 * const doc = await card(["data/examples/model_ab.jsonl"], { profiles: ["reconciliation"] });
 * assert.deepEqual(doc.models.map((m) => m.modelId), ["A", "B"]);
 * assert.equal(doc.models[0].accuracy, 0.98);
 * ```
 */
export async function card(
  inputs: readonly RunSource[],
  options: CardOptions = {},
): Promise<CardDocument> {
  return (await cardRun(inputs, flagValues("card", CARD_OPTIONS, options)))
    .document;
}
