// `lossbook score`: accuracy, errors, recall and loss per model of a run export.
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
import { probabilityBest } from "../lib/metrics/rank_probability.ts";
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
  isVerdictClass,
  modelIds,
  type StatsRow,
  summarise,
} from "../lib/metrics/sufficient_stats.ts";
import {
  type WeightedRecallInterval,
  weightedRecallInterval,
} from "../lib/metrics/weighted_recall_interval.ts";
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
import { importKeys, inputKeys, inputLabel, readRunFrom } from "./_input.ts";
import { MAPPING_FLAGS } from "./_harness_input.ts";
import { commandHelp } from "./_help.ts";
import {
  CI_OPTION,
  formatOption,
  JSON_OPTION,
  LENIENT_OPTION,
  PROBABILITY_OPTION,
  resamplesOption,
  SEED_OPTION,
} from "./_options.ts";
import { formatLevel } from "./_format.ts";

/** Scoring modes. */
export const MODES = ["consequence", "strict", "reconforge"] as const;

/** A scoring mode. */
export type Mode = typeof MODES[number];

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
   * per profile id, from the per-cell Jeffreys posterior draws of every
   * model (independent across models, aligned by draw); null with one model.
   */
  pBest: Record<string, number> | null;
  /**
   * Intervals: Wilson or Clopper-Pearson for rates; for loss the method of
   * `--interval` (default `auto`: Fay-Feuer gamma), each naming its
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

/** Options for {@linkcode scoreModels}. */
export interface ScoreOptions {
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

/** Score every model in a set of sufficient statistics. */
export function scoreModels(
  stats: readonly StatsRow[],
  profiles: readonly CostProfile[],
  options: ScoreOptions,
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
  // Posterior draws per model: the Jeffreys intervals and pBest read them.
  // Each has its own stream (seedFor), like every interval here.
  const needDraws = method === "jeffreys" || ids.length > 1;
  const draws = new Map<string, Map<string, Float64Array>>();
  const drawSeed = new Map<string, number>();
  if (needDraws) {
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
  const pBest = ids.length < 2 ? null : Object.fromEntries(profiles.map((p) => {
    const best = probabilityBest(
      Object.fromEntries(ids.map((m) => [m, draws.get(m)!.get(p.id)!])),
    );
    return [p.id, best];
  }));
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
      pBest: pBest === null
        ? null
        : Object.fromEntries(profiles.map((p) => [p.id, pBest[p.id][m]])),
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

function pct(v: number | null): string {
  return v === null ? "n/a" : `${(v * 100).toFixed(2)}%`;
}

function range(
  lo: number | null,
  hi: number | null,
  scale = 100,
  digits = 2,
): string {
  return lo === null || hi === null
    ? "n/a"
    : `[${(lo * scale).toFixed(digits)}, ${(hi * scale).toFixed(digits)}]`;
}

function humanReport(
  header: string,
  models: readonly ModelScore[],
  verdictModels: ReadonlySet<string>,
  profiles: readonly CostProfile[],
  options: ScoreOptions,
): string {
  const lv = formatLevel(options.level);
  const lines = [header];
  for (const m of models) {
    lines.push("");
    lines.push(
      `${m.modelId}: ${m.n} decisions (${m.exceptions} ${
        verdictModels.has(m.modelId) ? "graded answers" : "exceptions"
      }), accuracy ${pct(m.accuracy)} ${
        range(
          m.intervals.accuracy?.lo ?? null,
          m.intervals.accuracy?.hi ?? null,
        )
      } (${lv} ${
        m.intervals.accuracy?.method === "clopper-pearson"
          ? "Clopper-Pearson"
          : "Wilson"
      }), ${m.escalated} escalated, ${m.parseFailures} parse failures`,
    );
    if (m.severityWeightedRecall !== null) {
      const ci = m.intervals.severityWeightedRecall!;
      lines.push(
        `  severity-weighted recall R_w ${
          m.severityWeightedRecall.toFixed(4)
        } ${range(ci.lo, ci.hi, 1, 4)} (${lv} ${
          ci.interval === "bootstrap" ? "bootstrap" : "Clopper-Pearson per cell"
        })`,
      );
    }
    const share = verdictModels.has(m.modelId)
      ? "answered correctly"
      : "recall";
    const sev = [["severity", "errors", share, `${share} ${lv} CI`]];
    for (const s of SEVERITIES) {
      const ci = m.intervals.recallBySeverity[s];
      sev.push([
        s,
        formatNumber(m.errorsBySeverity[s]),
        pct(m.recallBySeverity[s]),
        range(ci?.lo ?? null, ci?.hi ?? null),
      ]);
    }
    lines.push(alignRows(sev).replace(/^/gm, "  "));
    const method = profiles.length > 0
      ? m.intervals.loss[profiles[0].id].interval
      : resolveIntervalMethod(options.interval ?? "auto");
    const loss = [[
      "profile",
      "loss",
      `loss ${lv} CI (${method})`,
      "expected loss",
      ...(m.pBest === null ? [] : ["P(best)"]),
      "unit",
    ]];
    for (const p of profiles) {
      const ci = m.intervals.loss[p.id];
      loss.push([
        p.id,
        formatNumber(m.loss[p.id]),
        ci.lo === null
          ? "n/a"
          : `[${formatNumber(ci.lo)}, ${formatNumber(ci.hi)}]`,
        formatNumber(m.expectedLoss[p.id]),
        ...(m.pBest === null ? [] : [m.pBest[p.id].toFixed(3)]),
        p.unit ?? "",
      ]);
    }
    lines.push(alignRows(loss).replace(/^/gm, "  "));
    if (m.missingPCorrect > 0) {
      lines.push(
        `  expected loss is n/a: ${m.missingPCorrect} automatic decisions state no pCorrect`,
      );
    }
  }
  return lines.join("\n");
}

/** The flags `score` and `compare` share; {@linkcode commonOptions} reads them. */
export const SCORING_FLAGS = {
  format: formatOption(
    "decisions|reconforge|lossbench|inspect|lm-eval|helm|promptfoo",
  ),
  probability: PROBABILITY_OPTION,
  engine: {
    type: "string",
    value: "memory|duckdb|postgres",
    doc:
      "where statistics are computed: memory reads the files in process; duckdb reads one run export (.parquet, .csv, .jsonl) through DuckDB, for files larger than memory; postgres (score and sweep only) reads a decisions table with --dsn and --table instead of files; counts are exact everywhere, but duckdb and postgres add up probabilities in parallel, so the last digits of a sum, and of the figures computed from it, can differ from run to run and from memory's (memory's output is byte-identical)",
    byDefault: "memory",
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
    value: "auto|fay-feuer|jeffreys|bootstrap",
    doc: "method of the loss intervals (see below)",
    byDefault: "auto (fay-feuer)",
  },
  json: JSON_OPTION,
} as const;

/** The options of `score`: the scoring flags and `--level`, the old name of `--ci`. */
const SCORE_OPTIONS = {
  ...SCORING_FLAGS,
  level: {
    type: "string",
    value: "LEVEL",
    doc: "the former name of --ci, still read; --ci wins when both are given",
  },
} as const;

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
 * What `--interval` does, for `--help`: the methods and what `auto` picks.
 */
export const INTERVAL_HELP =
  "--interval auto|fay-feuer|jeffreys|bootstrap: method of loss intervals. auto (default) is fay-feuer, the gamma interval of Fay & Feuer (1997) on the cost-weighted counts per cell, which held its level in a seeded coverage study where the bootstrap did not; jeffreys draws per-cell Jeffreys-Dirichlet posteriors by seeded Monte Carlo (--resamples draws); bootstrap is the percentile bootstrap of earlier versions, which cannot see a costly cell with zero observed errors.";

/** The `score` command. */
export const scoreCommand: Command = {
  summary:
    "Score a run export: accuracy, errors, recall and loss per model, with intervals",
  ...commandHelp({
    forms: [{ command: "score", args: "<file>...", options: SCORE_OPTIONS }],
    notes: [
      "With --engine postgres, give --dsn URL --table NAME and no files: lossbook score --engine postgres --dsn URL --table NAME [options].",
      INTERVAL_HELP,
    ],
  }),
  example:
    "deno task lossbook score data/examples/model_ab.jsonl --profile reconciliation --json",
  async run(args) {
    const { values, positionals } = parseFlags("score", args, SCORE_OPTIONS);
    if (positionals.length === 0 && values.engine !== "postgres") {
      throw new UsageError("expected one or more run files, got none");
    }
    const common = commonOptions(values);
    const profiles = await resolveProfiles(values.profile, {
      lenient: values.lenient,
    });
    const run = await readRunFrom(positionals, values);
    const options: ScoreOptions = {
      ...common,
      confusion: common.mode === "reconforge" || run.format === "reconforge",
    };
    const models = scoreModels(run.stats, profiles, options);
    if (values.json) {
      console.log(JSON.stringify(
        {
          ...inputKeys(run),
          format: run.format,
          mode: common.mode,
          matrix: matrixOf(common.mode).id,
          level: common.level,
          seed: common.seed,
          resamples: common.resamples,
          interval: common.interval,
          lossIntervalMethod:
            METHOD_LABELS[resolveIntervalMethod(common.interval)],
          estimand: LOSS_ESTIMAND,
          decisions: run.decisions,
          notes: run.notes,
          ...importKeys(run),
          profiles: profiles.map((p) => ({
            id: p.id,
            version: p.version,
            unit: p.unit ?? null,
          })),
          models,
        },
        null,
        2,
      ));
    } else {
      const notes = Object.entries(run.notes).filter(([, v]) => v > 0).map((
        [k, v],
      ) => `${k} ${v}`);
      const header = `${inputLabel(run)} (${run.format}, ${common.mode} mode, ${
        matrixOf(common.mode).id
      } matrix): ${models.length} model${
        models.length === 1 ? "" : "s"
      }, ${run.decisions} decisions${
        notes.length ? `; ${notes.join(", ")}` : ""
      }; loss intervals: ${
        METHOD_LABELS[resolveIntervalMethod(common.interval)]
      } (--interval ${common.interval}); seed ${common.seed}, ${common.resamples} resamples`;
      // harness runs grade answers (classes verdict:*): they have no exceptions
      const verdictModels = new Set(
        run.stats.filter((r) => r.n > 0 && isVerdictClass(r.trueClass)).map((
          r,
        ) => r.modelId),
      );
      console.log(
        humanReport(header, models, verdictModels, profiles, options),
      );
    }
    return 0;
  },
};
