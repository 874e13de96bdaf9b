// `calibrate`: calibration of a run's stated P(correct); the library
// function and its flags.
// what does its miscalibration cost?
import { brierDecomposition } from "../lib/calibration/brier.ts";
import {
  BIN_STRATEGIES,
  type BinStrategy,
} from "../lib/calibration/binning.ts";
import { debiasedCalibrationError } from "../lib/calibration/calibration_error.ts";
import { costWeightedCalibrationError } from "../lib/calibration/cost_weighted.ts";
import { eceInterval } from "../lib/calibration/ece_interval.ts";
import { eceNoiseFloor } from "../lib/calibration/noise_floor.ts";
import {
  type OutcomeColumns,
  outcomeColumns,
} from "../lib/calibration/outcome_columns.ts";
import { reliabilityDiagram } from "../lib/calibration/reliability.ts";
import type { CostProfile } from "../lib/costs/profile.ts";
import type { RunSource } from "../commands/_input.ts";
import { flagValues, type FlagValuesOf } from "./_options.ts";
import type { CalibrateOptions } from "./options.ts";
import {
  intFlag,
  MAX_RESAMPLES,
  seedFlag,
  UsageError,
} from "../commands/_command.ts";
import {
  decisionCountWarnings,
  fileKeys,
  fileLabel,
  type ImportKeys,
  importKeys,
  type InputFlags,
  readRun,
  requireInputs,
  type RunInput,
} from "../commands/_input.ts";
import { MAPPING_FLAGS } from "../commands/_harness_input.ts";
import { matrixFlag } from "../commands/_matrix.ts";
import type { CostMatrix } from "../lib/metrics/loss.ts";
import { resolveProfiles, warningsKey } from "./score.ts";
import { intervalWarnings } from "../lib/metrics/interval_warnings.ts";
import {
  formatOption,
  JSON_OPTION,
  LENIENT_OPTION,
  MATRIX_MODE_OPTION,
  PROBABILITY_OPTION,
  profileOption,
  resamplesOption,
  SEED_OPTION,
} from "../commands/_options.ts";

/** A run read as labelled outcomes, pooled and per model. */
export interface RunOutcomes {
  readonly format: string;
  readonly decisions: number;
  readonly pooled: OutcomeColumns;
  readonly models: readonly { modelId: string; columns: OutcomeColumns }[];
  /** The decisions of each pCorrect source (`null`: none stated), in first-seen order. */
  readonly sources: readonly {
    pCorrectSource: string | null;
    columns: OutcomeColumns;
  }[];
  /** The run as read. */
  readonly run: RunInput;
  /** The profile that prices the outcomes (`--profile`, default reconciliation). */
  readonly profile: CostProfile;
  /** The cost matrix (`--mode`). */
  readonly matrix: CostMatrix;
  /** The unit of the profile's costs. */
  readonly unit: string;
}

/**
 * Read a run and turn it into calibration columns (pCorrect, correct,
 * exposure: cost if wrong under the matrix), priced by the profile and the
 * cost matrix the flags name: what `calibrate` and `escalate` read.
 */
export async function readOutcomes(
  inputs: string | readonly RunSource[],
  flags: InputFlags & { profile?: string; mode?: string },
): Promise<RunOutcomes> {
  const [profile] = await resolveProfiles([flags.profile ?? "reconciliation"]);
  const matrix = matrixFlag(flags.mode);
  const run = await readRun(inputs, flags, true);
  const table = run.table!;
  const columns = {
    pCorrect: table.array("pCorrect") as ArrayLike<number | null>,
    trueClass: table.array("trueClass") as ArrayLike<string>,
    predClass: table.array("predClass") as ArrayLike<string>,
    severity: table.array("severity") as ArrayLike<string>,
  };
  const pooled = outcomeColumns(columns, { profile, matrix });
  if (pooled.p.length === 0) {
    throw new UsageError(
      `${
        fileLabel(run.files)
      }: none of its ${run.decisions} decisions states pCorrect, so there is nothing to calibrate`,
    );
  }
  const modelCol = table.array("modelId") as ArrayLike<string>;
  const ids = [...new Set(Array.from(modelCol))].sort();
  const models = ids.map((modelId) => {
    const idx: number[] = [];
    for (let i = 0; i < modelCol.length; i++) {
      if (modelCol[i] === modelId) idx.push(i);
    }
    const sub = {
      pCorrect: idx.map((i) => columns.pCorrect[i]),
      trueClass: idx.map((i) => columns.trueClass[i]),
      predClass: idx.map((i) => columns.predClass[i]),
      severity: idx.map((i) => columns.severity[i]),
    };
    return { modelId, columns: outcomeColumns(sub, { profile, matrix }) };
  });
  const sourceCol = table.array("pCorrectSource") as ArrayLike<string | null>;
  const sourceIds = [...new Set(Array.from(sourceCol, (s) => s ?? null))];
  const sources = sourceIds.map((source) => {
    const idx: number[] = [];
    for (let i = 0; i < sourceCol.length; i++) {
      if ((sourceCol[i] ?? null) === source) idx.push(i);
    }
    const sub = {
      pCorrect: idx.map((i) => columns.pCorrect[i]),
      trueClass: idx.map((i) => columns.trueClass[i]),
      predClass: idx.map((i) => columns.predClass[i]),
      severity: idx.map((i) => columns.severity[i]),
    };
    return {
      pCorrectSource: source,
      columns: outcomeColumns(sub, { profile }),
    };
  });
  return {
    format: run.format,
    decisions: run.decisions,
    pooled,
    models,
    sources,
    run,
    profile,
    matrix,
    unit: profile.currency ?? profile.unit ?? "profile units",
  };
}

/** Options of one calibration report. */
export interface CalibrateSettings {
  bins: number;
  strategy: BinStrategy;
  seed: number;
  resamples: number;
  /** ECE interval method (`--interval`). Default: `"auto"`. */
  interval?: "auto" | "bootstrap";
}

/** The `calibrate --json` document of one set of decisions. Keys are a contract: extend, never rename. */
export interface CalibrationReport {
  /** Decisions with a stated pCorrect. */
  n: number;
  /** Decisions left out because they state no pCorrect. */
  missingPCorrect: number;
  /** Share of them that were correct; null when n is 0. */
  accuracy: number | null;
  /** Expected calibration error. */
  ece: number | null;
  /**
   * Interval on ECE: by default the projection of simultaneous
   * Clopper-Pearson intervals per bin, for the ECE of the true rates in the
   * observed bins; under `--interval bootstrap` the seeded percentile
   * bootstrap of earlier versions, for the expected binned ECE of a sample
   * this size. `method` and `estimand` say which.
   */
  eceInterval: {
    lo: number | null;
    hi: number | null;
    level: number;
    resamples: number;
    seed: number;
    method: string;
    estimand: string;
  };
  /** ECE of a perfectly calibrated model with the same confidences: mean and 95th percentile. */
  noiseFloor: {
    mean: number | null;
    quantile: number | null;
    level: number;
    replicates: number;
    seed: number;
  };
  /** Debiased ECE (L1). */
  debiasedEce: number | null;
  /** Debiased root-mean-square calibration error (L2). */
  debiasedRms: number | null;
  /** Maximum calibration error over non-empty bins. */
  mce: number | null;
  /** Brier score. */
  brier: number | null;
  /** Its Murphy decomposition, with the within-bin term. */
  brierDecomposition: {
    reliability: number;
    resolution: number;
    uncertainty: number;
    withinBin: number;
  } | null;
  /** Cost-weighted calibration error per decision, in the profile's unit. */
  costWeightedEce: number | null;
  /** The same, summed over all decisions. */
  costWeightedTotal: number;
  /** Bin strategy. */
  strategy: BinStrategy;
  /** Bins asked for. */
  binsRequested: number;
  /** Bin edges, from 0 to 1. */
  edges: number[];
  /** Bins holding at least one decision. */
  nonEmptyBins: number;
  /** Every bin, empty ones with null mean confidence and accuracy. */
  bins: {
    lo: number;
    hi: number;
    n: number;
    meanConfidence: number | null;
    accuracy: number | null;
  }[];
}

/** Every calibration figure of one set of decisions. */
export function calibrationReport(
  cols: OutcomeColumns,
  options: CalibrateSettings,
): CalibrationReport {
  const { p, y } = cols;
  const binning = { bins: options.bins, strategy: options.strategy };
  const d = reliabilityDiagram(p, y, binning);
  const ci = eceInterval(p, y, {
    ...binning,
    resamples: options.resamples,
    seed: options.seed,
    method: options.interval ?? "auto",
  });
  const floor = eceNoiseFloor(p, { ...binning, seed: options.seed });
  const debiased = debiasedCalibrationError(p, y, binning);
  const brier = brierDecomposition(p, y, binning);
  const cw = costWeightedCalibrationError(p, y, {
    ...binning,
    exposure: cols.exposure!,
  });
  let correct = 0;
  for (const v of y) correct += v;
  return {
    n: d.n,
    missingPCorrect: cols.missing,
    accuracy: d.n === 0 ? null : correct / d.n,
    ece: d.ece,
    eceInterval: {
      lo: ci.lo,
      hi: ci.hi,
      level: ci.level,
      resamples: ci.resamples,
      seed: ci.seed,
      method: ci.method,
      estimand: ci.estimand,
    },
    noiseFloor: {
      mean: floor.mean,
      quantile: floor.quantile,
      level: floor.level,
      replicates: floor.replicates,
      seed: floor.seed,
    },
    debiasedEce: debiased.value,
    debiasedRms: debiased.rms,
    mce: d.mce,
    brier: brier?.brier ?? null,
    brierDecomposition: brier === null ? null : {
      reliability: brier.reliability,
      resolution: brier.resolution,
      uncertainty: brier.uncertainty,
      withinBin: brier.withinBin,
    },
    costWeightedEce: cw.value,
    costWeightedTotal: cw.total,
    strategy: d.strategy,
    binsRequested: d.binsRequested,
    edges: [...d.edges],
    nonEmptyBins: d.nonEmptyBins,
    bins: d.bins.map((b) => ({
      lo: b.lo,
      hi: b.hi,
      n: b.n,
      meanConfidence: b.meanConfidence,
      accuracy: b.accuracy,
    })),
  };
}

/** Parse --bins, --strategy, --seed, --resamples and --interval. */
export function calibrateOptions(values: {
  bins?: string;
  strategy?: string;
  seed?: string;
  resamples?: string;
  interval?: string;
}): CalibrateSettings {
  const bins = intFlag("bins", values.bins, { min: 1, fallback: 10 });
  const strategy = (values.strategy ?? "equal-width") as BinStrategy;
  if (!BIN_STRATEGIES.includes(strategy)) {
    throw new UsageError(
      `--strategy must be one of ${BIN_STRATEGIES.join(", ")}, got ${
        JSON.stringify(values.strategy)
      }`,
    );
  }
  const seed = seedFlag(values.seed);
  const resamples = intFlag("resamples", values.resamples, {
    min: 1,
    max: MAX_RESAMPLES,
    fallback: 1000,
  });
  const interval = values.interval ?? "auto";
  if (interval !== "auto" && interval !== "bootstrap") {
    throw new UsageError(
      `--interval must be auto or bootstrap, got ${JSON.stringify(interval)}`,
    );
  }
  return { bins, strategy, seed, resamples, interval };
}

/** The options of `calibrate`, as `--help` lists them and `parseFlags` reads them. */
export const CALIBRATE_OPTIONS = {
  format: formatOption(
    "decisions|reconforge|lossbench|inspect|lm-eval|helm|promptfoo",
  ),
  ...MAPPING_FLAGS,
  "by-source": {
    type: "boolean",
    doc:
      "also report calibration per probability source (stated, logprob-token, agreement@k, ...), one group per provenance",
  },
  probability: PROBABILITY_OPTION,
  bins: {
    type: "string",
    value: "N",
    doc: "number of reliability bins, >= 1",
    byDefault: "10",
  },
  strategy: {
    type: "string",
    value: "equal-width|equal-mass",
    doc:
      "bin edges: equal-width splits [0, 1] evenly; equal-mass puts the same number of decisions in each bin",
    byDefault: "equal-width",
  },
  profile: {
    ...profileOption(),
    doc:
      "cost profile that weights each decision in the cost-weighted ECE: a shipped id (see 'lossbook profiles') or a profile file",
  },
  mode: {
    ...MATRIX_MODE_OPTION,
    doc: `${MATRIX_MODE_OPTION.doc}; it prices the cost-weighted ECE`,
  },
  seed: {
    ...SEED_OPTION,
    doc:
      "seed of the noise floor's simulation and of --interval bootstrap; the same seed gives byte-identical output",
  },
  resamples: resamplesOption("bootstrap resamples of --interval bootstrap"),
  interval: {
    type: "string",
    value: "auto|bootstrap",
    doc: "method of the ECE interval (see below)",
    byDefault: "auto",
  },
  lenient: LENIENT_OPTION,
  json: JSON_OPTION,
} as const;

/** What `calibrate` prints with `--json`: the pooled report's keys at the top, then per model (and per source). Keys are a contract: extend, never rename. */
export type CalibrateDocument =
  & ImportKeys
  & ({ file: string } | { files: string[] })
  & {
    /** The format the inputs were read as. */
    format: string;
    /** Decisions read. */
    decisions: number;
    /** The profile that prices the cost-weighted ECE. */
    profile: { id: string; version: string; unit: string };
    /** Id of the cost matrix. */
    matrix: string;
    /**
     * Present under `--interval bootstrap`, which fell below 0.93 in the
     * coverage study: one line naming its worst coverage; and when the
     * decisions name clusters, one line saying that the ECE interval counts
     * decisions. The command prints them on standard error too.
     */
    warnings?: string[];
  }
  & CalibrationReport
  & {
    /** The report of each model. */
    models: ({ modelId: string } & CalibrationReport)[];
    /** With `bySource`: the report of each pCorrect source. */
    sources?: ({ pCorrectSource: string | null } & CalibrationReport)[];
  };

/** What {@linkcode calibrateRun} read and computed. */
export interface CalibrateRun {
  /** The `--json` document. */
  readonly document: CalibrateDocument;
  /** All models pooled. */
  readonly pooled: CalibrationReport;
  /** Per model. */
  readonly models: readonly ({ modelId: string } & CalibrationReport)[];
  /** Per pCorrect source, with `--by-source`. */
  readonly bySource:
    | readonly ({ pCorrectSource: string | null } & CalibrationReport)[]
    | null;
  /** The profile. */
  readonly profile: CostProfile;
  /** The cost matrix. */
  readonly matrix: CostMatrix;
  /** The unit of the cost-weighted ECE. */
  readonly unit: string;
}

/**
 * Calibrate with the flag values of `lossbook calibrate`: the one
 * computation behind {@linkcode calibrate} and the command.
 */
export async function calibrateRun(
  inputs: readonly RunSource[],
  values: FlagValuesOf<typeof CALIBRATE_OPTIONS>,
): Promise<CalibrateRun> {
  requireInputs(inputs);
  const options = calibrateOptions(values);
  const outcomes = await readOutcomes(inputs, values);
  const { profile, matrix, unit } = outcomes;
  const pooled = calibrationReport(outcomes.pooled, options);
  // by source: every group of decisions whose probability has one provenance
  const bySource = values["by-source"] === true
    ? outcomes.sources.filter((s) => s.columns.p.length > 0).map((s) => ({
      pCorrectSource: s.pCorrectSource,
      ...calibrationReport(s.columns, options),
    }))
    : null;
  const models = outcomes.models.map((m) => ({
    modelId: m.modelId,
    ...calibrationReport(m.columns, options),
  }));
  const document: CalibrateDocument = {
    ...fileKeys(outcomes.run.files),
    format: outcomes.format,
    decisions: outcomes.decisions,
    profile: { id: profile.id, version: profile.version, unit },
    matrix: matrix.id,
    ...warningsKey([
      ...intervalWarnings("calibrate", options.interval ?? "auto"),
      ...decisionCountWarnings(outcomes.run, "the ECE interval"),
    ]),
    ...pooled,
    models,
    ...importKeys(outcomes.run),
    ...(bySource === null ? {} : { sources: bySource }),
  };
  return { document, pooled, models, bySource, profile, matrix, unit };
}

/**
 * Calibration of the stated P(correct) of runs: ECE with an interval and
 * the noise floor, MCE, Brier and its decomposition, reliability bins, and
 * the cost-weighted ECE. Returns the document `lossbook calibrate --json`
 * prints for the same inputs and flags.
 *
 * @param inputs Each one input, as one command-line argument: a path, an
 *   array of decisions, or an Arquero decision table (`<memory:N>`).
 * @param options The flags of `lossbook calibrate` in camelCase (`bins`,
 *   `strategy`, `profile`, `bySource`, …).
 * @returns The `calibrate --json` document.
 * @throws {UsageError} For options the command would refuse, with its message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { calibrate } from "./calibrate.ts";
 *
 * const doc = await calibrate(["data/examples/reconforge_run.json"], { bins: 5 });
 * assert.equal(doc.edges.length, 6);
 * assert.ok(doc.ece !== null && doc.ece >= 0);
 * ```
 */
export async function calibrate(
  inputs: readonly RunSource[],
  options: CalibrateOptions = {},
): Promise<CalibrateDocument> {
  return (await calibrateRun(
    inputs,
    flagValues("calibrate", CALIBRATE_OPTIONS, options),
  )).document;
}
