// `score`: accuracy, errors, recall and loss per model of a run, with
// intervals; the library function and the flags it shares with the command.
import { getProfile, SHIPPED_PROFILES } from "../lib/costs/shipped.ts";
import type { CostProfile } from "../lib/costs/profile.ts";
import { importLater } from "../lib/_late_import.ts";
import { SEVERITIES, type Severity } from "../lib/costs/severity.ts";
import {
  accuracy,
  accuracyCounts,
  type Counts,
  errorsBySeverity,
  recallBySeverity,
  recallCounts,
} from "../lib/metrics/accuracy.ts";
import {
  type BootstrapInterval,
  bootstrapRatioIntervals,
  countRatio,
} from "../lib/metrics/bootstrap.ts";
import {
  CONSEQUENCE_MATRIX,
  type CostMatrix,
  expectedLoss,
  realisedLoss,
  STRICT_MATRIX,
} from "../lib/metrics/loss.ts";
import {
  INTERVAL_METHODS,
  type IntervalMethod,
  jeffreysFromDraws,
  LOSS_ESTIMAND,
  type LossInterval,
  lossInterval,
  METHOD_LABELS,
  resolveIntervalMethod,
} from "../lib/metrics/loss_interval.ts";
import {
  lossPosterior,
  posteriorLossDraws,
} from "../lib/metrics/loss_posterior.ts";
import { pooledProbabilityBest } from "../lib/metrics/pooled_posterior.ts";
import { intervalWarnings } from "../lib/metrics/interval_warnings.ts";
import type { Rate, RateInterval } from "../lib/math/rate.ts";
import {
  caughtRecallBySeverity,
  caughtRecallCounts,
  type ConfusionCell,
  confusionMatrix,
  severityWeightedRecall,
} from "../lib/metrics/reconforge.ts";
import { seededPrng, seedFor } from "../lib/math/sampling.ts";
import {
  forModel,
  modelIds,
  type StatsRow,
  summarise,
} from "../lib/metrics/sufficient_stats.ts";
import {
  type WeightedRecallInterval,
  weightedRecallInterval,
} from "../lib/metrics/weighted_recall_interval.ts";
import {
  intFlag,
  MAX_RESAMPLES,
  seedFlag,
  UsageError,
} from "../commands/_command.ts";
import {
  type ImportKeys,
  importKeys,
  inputKeys,
  readRunFrom,
  requireInputs,
  type UnitKeys,
  unitKeys,
} from "../commands/_input.ts";
import { MAPPING_FLAGS } from "../commands/_harness_input.ts";
import {
  CI_OPTION,
  formatOption,
  JSON_OPTION,
  LENIENT_OPTION,
  PROBABILITY_OPTION,
  resamplesOption,
  SEED_OPTION,
} from "../commands/_options.ts";

import { flagValues, type FlagValuesOf } from "./_options.ts";
import type { ScoreOptions } from "./options.ts";
import type { InputKeys, RunInput, RunSource } from "../commands/_input.ts";
import type { Format } from "../commands/_input.ts";

/** A scoring mode: the cost matrix, and what recall counts. */
export type Mode = "consequence" | "strict" | "reconforge";

/** Scoring modes. */
export const MODES: readonly Mode[] = ["consequence", "strict", "reconforge"];

/** The `score --json` document of one model. Keys are a contract: extend, never rename. */
export interface ModelScore {
  /** Model id. */
  modelId: string;
  /** Decisions scored: the denominator of `accuracy`. */
  n: number;
  /** Share of decisions whose class equals the gold class; null when `n` is 0. */
  accuracy: number | null;
  /** Wrong decisions per severity; null for a severity with no decisions. */
  errorsBySeverity: Record<Severity, number | null>;
  /**
   * Recall of exceptions per severity; null where there are none. Exact class
   * in consequence and strict modes; in reconforge mode a HIGH or CRITICAL
   * exception counts as caught by any exception verdict.
   */
  recallBySeverity: Record<Severity, number | null>;
  /** Realised loss per profile id, under the mode's cost matrix. */
  loss: Record<string, number | null>;
  /** Expected loss from pCorrect per profile id, under the same cost matrix as `loss`; null when some automatic decision states none. */
  expectedLoss: Record<string, number | null>;
  /** ReconForge's severity-weighted recall R_w; null where it is not defined. */
  severityWeightedRecall: number | null;
  /**
   * Probability of having the lowest expected loss among the run's models,
   * per profile id, from joint posterior draws of every model under a prior
   * pooled across the models (`pooledProbabilityBest`); null with one model,
   * and null for a profile whose `pBestShrinkage` is above 1/2.
   */
  pBest: Record<string, number | null> | null;
  /**
   * Per profile id, the share of the comparison of the models that the
   * pooled prior carries rather than their own counts
   * (`comparisonShrinkage`, the same for every model of the run); `pBest`
   * is stated where it is at most 1/2. Null with one model.
   */
  pBestShrinkage: Record<string, number> | null;
  /**
   * Intervals: Wilson or Clopper-Pearson for rates (over the effective
   * number of tasks, `-clustered`, when some task has several trials); for
   * loss the method of `--interval` (default `auto`: the gamma interval with
   * a Clopper-Pearson-sized extra event), each naming its
   * `method` and `estimand`; for R_w, Clopper-Pearson confidence
   * distributions per cell combined by seeded Monte Carlo (the percentile
   * bootstrap under `--interval bootstrap`).
   */
  intervals: {
    accuracy: RateInterval | null;
    recallBySeverity: Record<Severity, RateInterval | null>;
    loss: Record<string, LossInterval>;
    accuracyBootstrap: BootstrapInterval;
    recallBySeverityBootstrap: Record<Severity, BootstrapInterval>;
    severityWeightedRecall: WeightedRecallInterval | null;
  };
  /** Gold class by predicted class counts (reconforge mode or format only). */
  confusion?: ConfusionCell[];
  /** Decisions whose gold class is an exception (not MATCH). */
  exceptions: number;
  /** Decisions whose raw output did not parse. */
  parseFailures: number;
  /** Decisions sent to review. */
  escalated: number;
  /** Automatic decisions with no stated pCorrect. */
  missingPCorrect: number;
}

/** Resolve `--profile` values: shipped ids, or paths to `.json`/`.yaml` profile files. */
export async function resolveProfiles(
  specs: readonly string[] | undefined,
  options: { lenient?: boolean } = {},
): Promise<CostProfile[]> {
  if (specs === undefined || specs.length === 0) return [...SHIPPED_PROFILES];
  const out: CostProfile[] = [];
  for (const spec of specs) {
    const profile = /\.(json|ya?ml)$/i.test(spec)
      // the profile reader (and its YAML parser) loads only for a file
      ? await (await importLater<typeof import("../lib/read/cost_files.ts")>(
        new URL("../lib/read/cost_files.ts", import.meta.url),
      )).loadProfileFile(spec, {
        lenient: options.lenient ?? false,
        onUnknownKeys: (line) => console.error(`warning: ${line}`),
      })
      : getProfile(spec);
    if (out.some((p) => p.id === profile.id)) {
      throw new UsageError(
        `profile ${JSON.stringify(profile.id)} is given twice`,
      );
    }
    out.push(profile);
  }
  return out;
}

/** The settings of {@linkcode scoreModels}, as the scoring flags resolve them. */
export interface ScoreSettings {
  /** Scoring mode. */
  mode: Mode;
  /** Confidence level of every interval. */
  level: number;
  /** Seed of the bootstrap. */
  seed: number;
  /** Bootstrap resamples. */
  resamples: number;
  /** Include the confusion matrix. */
  confusion: boolean;
  /** Loss interval method. Default: `"auto"` (see `AUTO_INTERVAL`). */
  interval?: IntervalMethod;
}

/** The cost matrix of a mode. */
export function matrixOf(mode: Mode): CostMatrix {
  return mode === "strict" ? STRICT_MATRIX : CONSEQUENCE_MATRIX;
}

function recallOf(
  rows: readonly StatsRow[],
  mode: Mode,
  level: number,
): Record<Severity, Rate> {
  return mode === "reconforge"
    ? caughtRecallBySeverity(rows, { level })
    : recallBySeverity(rows, { level });
}

// recall's counts without the interval, in the mode's sense of recall
function recallCountsOf(
  rows: readonly StatsRow[],
  mode: Mode,
): Record<Severity, Counts> {
  return mode === "reconforge" ? caughtRecallCounts(rows) : recallCounts(rows);
}

/**
 * The line saying under which profiles P(best) is not stated and why, from
 * one model's score (every model of a run shares them), or null when it is
 * stated under every profile asked for.
 */
export function pBestUnstatedNote(
  model: Pick<ModelScore, "pBest" | "pBestShrinkage"> | undefined,
  profileIds: readonly string[],
): string | null {
  const held = model?.pBestShrinkage;
  const unstated = profileIds.filter((p) => model?.pBest?.[p] === null);
  if (!held || unstated.length === 0) return null;
  return `P(best) is n/a under ${
    unstated.map((p) => `${p} (shrinkage ${held[p].toFixed(2)})`).join(", ")
  }: the prior pooled across models, not their own counts, would carry more than half of the comparison (the cells that carry the loss hold too few errors, or too alike, to tell the models apart); see docs/method.md, "Probability of being best".`;
}

/** Score every model in a set of sufficient statistics. */
export function scoreModels(
  stats: readonly StatsRow[],
  profiles: readonly CostProfile[],
  options: ScoreSettings,
): ModelScore[] {
  const { mode, level, seed, resamples } = options;
  const matrix = matrixOf(mode);
  const method = resolveIntervalMethod(options.interval ?? "auto");
  const bySeverity = <T>(f: (s: Severity) => T) =>
    Object.fromEntries(SEVERITIES.map((s) => [s, f(s)])) as Record<Severity, T>;
  const ids = modelIds(stats);
  // Every model's kinds range over the classes of the whole run, so their
  // posteriors are comparable.
  const classes = [
    ...new Set(stats.flatMap((r) => [r.trueClass, r.predClass])),
  ];
  // Posterior draws per model for the Jeffreys intervals, each with its own
  // stream (seedFor), like every interval here.
  const draws = new Map<string, Map<string, Float64Array>>();
  const drawSeed = new Map<string, number>();
  if (method === "jeffreys") {
    for (const m of ids) {
      const prng = seededPrng(seedFor(seed, `${m}/loss-posterior`));
      const post = lossPosterior(forModel(stats, m), {
        draws: resamples,
        prng,
        classes,
      });
      drawSeed.set(m, prng.seed);
      draws.set(
        m,
        new Map(
          profiles.map((p) => [p.id, posteriorLossDraws(post, p, { matrix })]),
        ),
      );
    }
  }
  // pBest reads joint draws of every model under the pooled prior, one
  // stream for the run; it is stated where the models' own counts, not the
  // prior, carry the comparison
  const pBest = ids.length < 2 ? null : pooledProbabilityBest(stats, profiles, {
    draws: resamples,
    prng: seededPrng(seedFor(seed, "pBest")),
    classes,
    matrix,
  });
  // One generator per interval, seeded from the run seed, the model and the
  // statistic's name (seedFor), so asking for another profile or model never
  // moves an interval that was already printed.
  return ids.map((m) => {
    const rows = forModel(stats, m);
    const acc = accuracy(rows, { level });
    const recall = recallOf(rows, mode, level);
    const totals = summarise(rows);
    // accuracy and recall per severity, off the same resamples; each is a
    // ratio of counts, so a resample is counted, not rebuilt as cells
    const boots = bootstrapRatioIntervals(
      rows,
      {
        accuracy: countRatio((s) => accuracyCounts(s)),
        ...bySeverity((sev) => countRatio((s) => recallCountsOf(s, mode)[sev])),
      },
      {
        level,
        resamples,
        prng: seededPrng(seedFor(seed, `${m}/bootstrap`)),
      },
    );
    const rw = severityWeightedRecall(rows);
    const lossCi = (p: CostProfile): LossInterval =>
      method === "jeffreys"
        ? jeffreysFromDraws(
          realisedLoss(rows, p, { matrix }),
          draws.get(m)!.get(p.id)!,
          { level, seed: drawSeed.get(m)! },
        )
        : lossInterval(rows, p, {
          method,
          level,
          matrix,
          classes,
          draws: resamples,
          prng: seededPrng(seedFor(seed, `${m}/loss/${p.id}`)),
        });
    return {
      modelId: m,
      n: acc.denominator,
      accuracy: acc.value,
      errorsBySeverity: errorsBySeverity(rows),
      recallBySeverity: bySeverity((s) => recall[s].value),
      loss: Object.fromEntries(
        profiles.map((p) => [p.id, realisedLoss(rows, p, { matrix })]),
      ),
      expectedLoss: Object.fromEntries(
        profiles.map((p) => [p.id, expectedLoss(rows, p, { matrix })]),
      ),
      severityWeightedRecall: rw,
      pBest: pBest === null ? null : Object.fromEntries(
        profiles.map((p) => [p.id, pBest[p.id].pBest?.[m] ?? null]),
      ),
      pBestShrinkage: pBest === null ? null : Object.fromEntries(
        profiles.map((p) => [p.id, pBest[p.id].shrinkage]),
      ),
      intervals: {
        accuracy: acc.interval,
        recallBySeverity: bySeverity((s) => recall[s].interval),
        loss: Object.fromEntries(profiles.map((p) => [p.id, lossCi(p)])),
        accuracyBootstrap: boots.accuracy,
        recallBySeverityBootstrap: bySeverity((sev) => boots[sev]),
        severityWeightedRecall: rw === null ? null : weightedRecallInterval(
          rows,
          {
            method: method === "bootstrap" ? "bootstrap" : "clopper-pearson",
            level,
            draws: resamples,
            prng: seededPrng(seedFor(seed, `${m}/severityWeightedRecall`)),
          },
        ),
      },
      ...(options.confusion ? { confusion: confusionMatrix(rows) } : {}),
      exceptions: totals.exceptions,
      parseFailures: totals.parseFailures,
      escalated: totals.escalated,
      missingPCorrect: totals.autoPMissing,
    };
  });
}

/** The flags `score` and `compare` share; {@linkcode commonOptions} reads them. */
export const SCORING_FLAGS = {
  format: formatOption(
    "decisions|reconforge|lossbench|inspect|lm-eval|helm|promptfoo",
  ),
  probability: PROBABILITY_OPTION,
  engine: {
    type: "string",
    value: "memory|duckdb|chdb|postgres",
    doc:
      "where statistics are computed: memory reads the files in process; duckdb reads one run export (.parquet, .csv, .jsonl) through DuckDB, for files larger than memory; chdb reads one such file through ClickHouse's embedded engine, once 'lossbook engine install chdb' has downloaded it; postgres (score and sweep only) reads a decisions table with --dsn and --table instead of files; every engine prints the same bytes: counts and the sums of probabilities are exact, rounded once",
    byDefault:
      "duckdb for a .parquet or .csv file of 1 MiB or more when score or sweep needs statistics only, else memory",
  },
  dsn: {
    type: "string",
    value: "URL",
    doc: "with --engine postgres: the PostgreSQL connection string",
  },
  table: {
    type: "string",
    value: "NAME",
    doc:
      "with --engine postgres: the decisions table (layout: 'lossbook export-sql')",
  },
  "connect-timeout": {
    type: "string",
    value: "S",
    doc:
      "with --engine postgres: seconds to wait for the server to accept the connection and answer, 0 for no limit; past it lossbook stops with one line naming host and port",
    byDefault: "the DSN's connect_timeout, else 10",
  },
  "query-timeout": {
    type: "string",
    value: "S",
    doc:
      "with --engine postgres: seconds the queries may take in all, once connected, 0 for no limit; past it lossbook stops with one line naming host and port",
    byDefault: "0, no limit",
  },
  // --pcorrect-from and the other mapping flags
  ...MAPPING_FLAGS,
  mode: {
    type: "string",
    value: "consequence|strict|reconforge",
    doc:
      "cost matrix and recall: consequence charges a missed exception K(severity) and a wrong type or a false alarm one review; strict charges every wrong automatic answer K(severity); reconforge prices as consequence, counts a HIGH or CRITICAL exception as caught by any exception verdict (ReconForge's recall) and adds the confusion table",
    byDefault: "consequence",
  },
  profile: {
    type: "string",
    multiple: true,
    value: "ID|FILE",
    doc:
      "cost profile to price the decisions with: a shipped id (see 'lossbook profiles') or a profile file",
    byDefault: "every shipped profile",
  },
  ci: CI_OPTION,
  seed: SEED_OPTION,
  resamples: resamplesOption(
    "resamples or posterior draws behind the intervals",
  ),
  lenient: LENIENT_OPTION,
  interval: {
    type: "string",
    value: "auto|cp-gamma|fay-feuer|jeffreys|bootstrap",
    doc: "method of the loss intervals (see below)",
    byDefault: "auto (cp-gamma)",
  },
  json: JSON_OPTION,
} as const;

/** The options of `score`: the scoring flags and `--level`, the old name of `--ci`. */
export const SCORE_OPTIONS = {
  ...SCORING_FLAGS,
  level: {
    type: "string",
    value: "LEVEL",
    doc: "the former name of --ci, still read; --ci wins when both are given",
  },
} as const;

/** The `warnings` key of a document: present only when there is one. */
export function warningsKey(
  warnings: readonly string[],
): { warnings?: string[] } {
  return warnings.length === 0 ? {} : { warnings: [...warnings] };
}

/** Parse the flags shared by `score` and `compare`. */
export function commonOptions(
  values: {
    level?: string;
    ci?: string;
    seed?: string;
    resamples?: string;
    mode?: string;
    interval?: string;
  },
) {
  const raw = values.ci ?? values.level;
  const level = raw === undefined ? 0.95 : Number(raw);
  if (!(level > 0 && level < 1)) {
    throw new UsageError(`--ci must be a number in (0, 1), got ${raw}`);
  }
  const seed = seedFlag(values.seed);
  const resamples = intFlag("resamples", values.resamples, {
    min: 1,
    max: MAX_RESAMPLES,
    fallback: 1000,
  });
  const mode = (values.mode ?? "consequence") as Mode;
  if (!MODES.includes(mode)) {
    throw new UsageError(
      `--mode must be one of ${MODES.join(", ")}, got ${
        JSON.stringify(values.mode)
      }`,
    );
  }
  const interval = (values.interval ?? "auto") as IntervalMethod;
  if (!INTERVAL_METHODS.includes(interval)) {
    throw new UsageError(
      `--interval must be one of ${INTERVAL_METHODS.join(", ")}, got ${
        JSON.stringify(values.interval)
      }`,
    );
  }
  return { level, seed, resamples, mode, interval };
}

/**
 * What `score` prints with `--json`. Keys are a contract: extend, never
 * rename.
 */
export type ScoreDocument =
  & ImportKeys
  & InputKeys
  & UnitKeys
  & {
    /** The format the inputs were read as. */
    format: Format;
    /** Scoring mode. */
    mode: Mode;
    /** Id of the mode's cost matrix. */
    matrix: string;
    /** Confidence level of every interval. */
    level: number;
    /** Seed of every random draw. */
    seed: number;
    /** Resamples or posterior draws behind the intervals. */
    resamples: number;
    /** The `--interval` asked for. */
    interval: IntervalMethod;
    /** The loss interval method it resolved to, in words. */
    lossIntervalMethod: string;
    /** What the loss intervals estimate. */
    estimand: string;
    /**
     * Present when `--interval` chose a method that fell below 0.93 in the
     * coverage study (`jeffreys`, `bootstrap`): one line per interval it
     * moves, naming the study's worst coverage. The command prints each on
     * standard error too.
     */
    warnings?: string[];
    /** Decisions scored. */
    decisions: number;
    /** What reading the inputs set aside or repaired, by kind. */
    notes: Readonly<Record<string, number>>;
    /** The profiles priced, in order. */
    profiles: { id: string; version: string; unit: string | null }[];
    /** One entry per model. */
    models: ModelScore[];
  };

/** What {@linkcode scoreRun} read and computed: the document, and what the human report needs besides. */
export interface ScoreRun {
  /** The `--json` document. */
  readonly document: ScoreDocument;
  /** The run read. */
  readonly run: RunInput;
  /** The profiles priced. */
  readonly profiles: readonly CostProfile[];
  /** The settings the flags resolved to. */
  readonly settings: ScoreSettings;
}

/**
 * Score inputs with the flag values of `lossbook score`: the one
 * computation behind {@linkcode score} and the command.
 */
export async function scoreRun(
  inputs: readonly RunSource[],
  values: FlagValuesOf<typeof SCORE_OPTIONS>,
): Promise<ScoreRun> {
  requireInputs(inputs, values);
  const common = commonOptions(values);
  const profiles = await resolveProfiles(values.profile, {
    lenient: values.lenient,
  });
  const run = await readRunFrom(inputs, values);
  const settings: ScoreSettings = {
    ...common,
    confusion: common.mode === "reconforge" || run.format === "reconforge",
  };
  const models = scoreModels(run.stats, profiles, settings);
  const document: ScoreDocument = {
    ...inputKeys(run),
    format: run.format,
    mode: common.mode,
    matrix: matrixOf(common.mode).id,
    level: common.level,
    seed: common.seed,
    resamples: common.resamples,
    interval: common.interval,
    lossIntervalMethod: METHOD_LABELS[resolveIntervalMethod(common.interval)],
    estimand: LOSS_ESTIMAND,
    ...unitKeys(run),
    ...warningsKey(intervalWarnings("score", common.interval)),
    decisions: run.decisions,
    notes: run.notes,
    ...importKeys(run),
    profiles: profiles.map((p) => ({
      id: p.id,
      version: p.version,
      unit: p.unit ?? null,
    })),
    models,
  };
  return { document, run, profiles, settings };
}

/**
 * Score runs: accuracy, errors, recall and loss per model, with intervals.
 * Returns the document `lossbook score --json` prints for the same inputs
 * and flags, byte for byte once written as `JSON.stringify(doc, null, 2)`.
 *
 * @param inputs Each one input, as one command-line argument: a path in any
 *   format the CLI reads, an array of decisions, or an Arquero decision
 *   table (named `<memory:N>` in the document, N its position from 0).
 * @param options The flags of `lossbook score` in camelCase (`profiles`,
 *   `ci`, `seed`, `mode`, `interval`, `severityMap`, …).
 * @returns The `score --json` document.
 * @throws {UsageError} For options the command would refuse, with its message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { score } from "./score.ts";
 *
 * const doc = await score(["data/examples/model_ab.jsonl"], { profiles: ["reconciliation"] });
 * assert.deepEqual(doc.models.map((m) => m.modelId), ["A", "B"]);
 * assert.equal(doc.models[0].accuracy, 0.98);
 * ```
 */
export async function score(
  inputs: readonly RunSource[],
  options: ScoreOptions = {},
): Promise<ScoreDocument> {
  return (await scoreRun(inputs, flagValues("score", SCORE_OPTIONS, options)))
    .document;
}
