// `lossbook calibrate`: is the stated P(correct) of a run calibrated, and
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
import {
  alignRows,
  type Command,
  formatNumber,
  intFlag,
  MAX_RESAMPLES,
  parseFlags,
  seedFlag,
  UsageError,
} from "./_command.ts";
import {
  fileKeys,
  fileLabel,
  importKeys,
  type InputFlags,
  readRun,
  type RunInput,
} from "./_input.ts";
import { MAPPING_FLAGS } from "./_harness_input.ts";
import { matrixFlag, matrixLine } from "./_matrix.ts";
import { formatLevel, formatRule } from "./_format.ts";
import { CONSEQUENCE_MATRIX, type CostMatrix } from "../lib/metrics/loss.ts";
import { resolveProfiles } from "../api/score.ts";
import { commandHelp } from "./_help.ts";
import {
  formatOption,
  JSON_OPTION,
  LENIENT_OPTION,
  MATRIX_MODE_OPTION,
  PROBABILITY_OPTION,
  profileOption,
  resamplesOption,
  SEED_OPTION,
} from "./_options.ts";

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
}

/** Read a run and turn it into calibration columns (pCorrect, correct, exposure: cost if wrong under the matrix). */
export async function readOutcomes(
  path: string | readonly string[],
  flags: InputFlags,
  profile: CostProfile,
  matrix: CostMatrix = CONSEQUENCE_MATRIX,
): Promise<RunOutcomes> {
  const run = await readRun(path, flags, true);
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
  };
}

/** Options of one calibration report. */
export interface CalibrateOptions {
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
  /** Debiased ECE (L1) and debiased root-mean-square calibration error (L2). */
  debiasedEce: number | null;
  debiasedRms: number | null;
  /** Maximum calibration error over non-empty bins. */
  mce: number | null;
  /** Brier score and its Murphy decomposition. */
  brier: number | null;
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
  /** Bin strategy, bins requested, edges and non-empty bins. */
  strategy: BinStrategy;
  binsRequested: number;
  edges: number[];
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
  options: CalibrateOptions,
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

function fmt(v: number | null, digits = 4): string {
  return v === null ? "n/a" : v.toFixed(digits);
}

function human(title: string, r: CalibrationReport, unit: string): string {
  const lines = [
    `${title}: ${r.n} decisions with pCorrect${
      r.missingPCorrect ? ` (${r.missingPCorrect} without, left out)` : ""
    }, accuracy ${fmt(r.accuracy)}`,
    `  ECE ${fmt(r.ece)} [${fmt(r.eceInterval.lo)}, ${
      fmt(r.eceInterval.hi)
    }] (${formatLevel(r.eceInterval.level)} ${
      r.eceInterval.resamples > 0
        ? `bootstrap, ${r.eceInterval.resamples} resamples, seed ${r.eceInterval.seed}: covers the expected binned ECE at this size`
        : "simultaneous Clopper-Pearson per bin: covers the ECE of the true rates in these bins"
    }); noise floor of a calibrated model ${
      fmt(r.noiseFloor.mean)
    } (95th percentile ${fmt(r.noiseFloor.quantile)})`,
    `  debiased ECE ${fmt(r.debiasedEce)}, debiased RMS ${
      fmt(r.debiasedRms)
    }, MCE ${fmt(r.mce)}`,
    `  Brier ${fmt(r.brier)} = reliability ${
      fmt(r.brierDecomposition?.reliability ?? null)
    } − resolution ${
      fmt(r.brierDecomposition?.resolution ?? null)
    } + uncertainty ${
      fmt(r.brierDecomposition?.uncertainty ?? null)
    } + within-bin ${fmt(r.brierDecomposition?.withinBin ?? null)}`,
    `  cost-weighted calibration error ${
      formatNumber(r.costWeightedEce)
    } ${unit} per decision (${
      formatNumber(r.costWeightedTotal)
    } of expected loss misstated in total)`,
    `  ${r.strategy} bins, ${r.nonEmptyBins} of ${
      r.edges.length - 1
    } non-empty:`,
  ];
  const rows = [["bin", "n", "mean confidence", "accuracy"]];
  for (const b of r.bins) {
    rows.push([
      `(${formatRule(b.lo)}, ${formatRule(b.hi)}]`,
      formatNumber(b.n),
      fmt(b.meanConfidence),
      fmt(b.accuracy),
    ]);
  }
  lines.push(alignRows(rows).replace(/^/gm, "    "));
  return lines.join("\n");
}

/** Parse --bins, --strategy, --seed, --resamples and --interval. */
export function calibrateOptions(values: {
  bins?: string;
  strategy?: string;
  seed?: string;
  resamples?: string;
  interval?: string;
}): CalibrateOptions {
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
const CALIBRATE_OPTIONS = {
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

/** The `calibrate` command. */
export const calibrateCommand: Command = {
  summary:
    "Calibration of a run's stated P(correct): ECE with CI and noise floor, MCE, Brier, reliability bins, cost-weighted ECE",
  ...commandHelp({
    forms: [{
      command: "calibrate",
      args: "<file>...",
      options: CALIBRATE_OPTIONS,
    }],
    notes: [
      "--interval auto|bootstrap: ECE interval. auto (default) projects simultaneous Clopper-Pearson intervals per non-empty bin (Bonferroni) onto ECE: it covers the ECE of the true rates in the observed bins, conservatively (binned ECE itself is biased upward, most where bins hold few decisions). bootstrap is the seeded percentile bootstrap of earlier versions (--resamples), which covers the expected binned ECE of a sample this size, not the true calibration error.",
    ],
  }),
  example:
    "deno task lossbook calibrate data/examples/reconforge_run.json --bins 10 --strategy equal-mass --json",
  async run(args) {
    const { values, positionals } = parseFlags(
      "calibrate",
      args,
      CALIBRATE_OPTIONS,
    );
    if (positionals.length === 0) {
      throw new UsageError("expected one or more run files, got none");
    }
    const options = calibrateOptions(values);
    const [profile] = await resolveProfiles([
      values.profile ?? "reconciliation",
    ]);
    const matrix = matrixFlag(values.mode);
    const outcomes = await readOutcomes(positionals, values, profile, matrix);
    const path = fileLabel(outcomes.run.files);
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
    const unit = profile.currency ?? profile.unit ?? "profile units";
    if (values.json) {
      console.log(JSON.stringify(
        {
          ...fileKeys(outcomes.run.files),
          format: outcomes.format,
          decisions: outcomes.decisions,
          profile: { id: profile.id, version: profile.version, unit },
          matrix: matrix.id,
          ...pooled,
          models,
          ...importKeys(outcomes.run),
          ...(bySource === null ? {} : { sources: bySource }),
        },
        null,
        2,
      ));
    } else {
      const parts = [
        human(
          `${path} (${outcomes.format}), all ${models.length} model${
            models.length === 1 ? "" : "s"
          } pooled; cost-weighted under ${profile.id}, ${matrixLine(matrix)}`,
          pooled,
          unit,
        ),
      ];
      if (models.length > 1) {
        for (const m of models) parts.push(human(m.modelId, m, unit));
      }
      for (const s of bySource ?? []) {
        parts.push(
          human(`pCorrect source ${s.pCorrectSource ?? "none"}`, s, unit),
        );
      }
      console.log(parts.join("\n\n"));
    }
    return 0;
  },
};
