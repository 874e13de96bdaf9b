// `sweep`: K-sensitivity of a run (exact crossovers, flips, Kendall tau,
// win shares as costs vary); the library function and its flags.
import { SHIPPED_PROFILES } from "../lib/costs/shipped.ts";
import { type CostProfile, profileSpan } from "../lib/costs/profile.ts";
import { isSeverity, type Severity } from "../lib/costs/severity.ts";
import type { StatsRow } from "../lib/metrics/sufficient_stats.ts";
import { costFamily, familyProfile } from "../lib/sensitivity/cost_family.ts";
import {
  type CoefficientDraws,
  coefficientDraws,
  crossoverInterval,
} from "../lib/sensitivity/crossover_interval.ts";
import { sweepFamily } from "../lib/sensitivity/family_sweep.ts";
import {
  lossCoefficients,
  type LossPer,
} from "../lib/sensitivity/loss_coefficients.ts";
import { rankReversalDistance } from "../lib/sensitivity/rank_reversal.ts";
import {
  DRAW_DISTRIBUTIONS,
  type DrawDistribution,
  drawRegistryProfiles,
  PAYMENTS_ANCHOR_MAP,
} from "../lib/sensitivity/registry_draws.ts";
import { sweepProfiles } from "../lib/sensitivity/sweep.ts";
import type { Crossover, WinnerChange } from "../lib/sensitivity/crossover.ts";
import { UsageError } from "../commands/_command.ts";
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
  commonOptions,
  matrixOf,
  type Mode,
  resolveProfiles,
  SCORING_FLAGS,
} from "./score.ts";
import type { InputKeys, RunInput, RunSource } from "../commands/_input.ts";
import { flagValues, type FlagValuesOf } from "./_options.ts";
import type { SweepOptions } from "./options.ts";
import {
  JSON_OPTION,
  LENIENT_OPTION,
  SEED_OPTION,
} from "../commands/_options.ts";

/** Options of {@linkcode sweepDocument}. */
export interface SweepCommandOptions {
  /** Scoring mode (cost matrix). */
  mode: Mode;
  /** Base profile of the family. */
  base: CostProfile;
  /** Severities multiplied by r. */
  scaled: readonly Severity[];
  /** Grid range and size. */
  from: number;
  to: number;
  points: number;
  /** Loss per decision or per run. */
  per: LossPer;
  /** Monte Carlo draws within the registry ranges; 0 for none. */
  draws: number;
  /** Seed of the draws. */
  seed: number;
  /** Distribution of the draws. */
  distribution: DrawDistribution;
}

/** Posterior draws behind each crossover interval. */
const CROSSOVER_DRAWS = 1000;

/** The result of {@linkcode sweepDocument}: what `sweep --json` prints after the input keys. */
export interface SweepResult {
  /** Scoring mode. */
  mode: Mode;
  /** Id of the cost matrix. */
  matrix: string;
  /** Loss per decision or per run. */
  per: LossPer;
  /** The cost family: the base profile, and the severities scaled by r. */
  family: {
    base: string;
    K: Readonly<Record<Severity, number>>;
    reviewCost: number;
    scaled: readonly Severity[];
  };
  /** The grid of ratios r. */
  grid: { from: number; to: number; points: number; ratios: readonly number[] };
  /** The models, with their decisions and accuracy. */
  models: { modelId: string; n: number; accuracy: number }[];
  /** The most accurate models. */
  accuracyWinners: readonly string[];
  /** Every pairwise crossing at r > 0, with the interval of its ratio. */
  crossovers: (Crossover & {
    span: number | null;
    interval: {
      lo: number;
      hi: number | null;
      level: number;
      draws: number;
      method: string;
    } | null;
    noCrossShare: number;
  })[];
  /** Where the winner changes along the family. */
  winnerChanges: readonly WinnerChange[];
  /** Winner changes over [from, to], exactly. */
  flips: number;
  /** Winner changes between grid points. */
  gridFlips: number;
  /** Winners per grid point. */
  winners: (readonly string[])[];
  /** Kendall's tau against the accuracy ranking per grid point. */
  kendallTau: (number | null)[];
  /** Regret of picking by accuracy per grid point. */
  regret: number[];
  /** Each model's share of the grid points (ties split). */
  winShare: Readonly<Record<string, number>>;
  /** Share of grid points where the loss winner is not the accuracy winner. */
  disagreementShare: number;
  /** The shipped profiles, with their rank-reversal distance. */
  profiles: {
    id: string;
    span: number | null;
    winners: readonly string[];
    kendallTau: number | null;
    regret: number;
    rankReversal: { factor: number | null; challenger: string | null };
  }[];
  /** Monte Carlo draws within the registry's ranges; null without them. */
  registryDraws: {
    draws: number;
    seed: number;
    distribution: DrawDistribution;
    mapping: Readonly<Record<Severity | "reviewCost", string | number>>;
    winShare: Readonly<Record<string, number>>;
    disagreementShare: number;
    meanRegret: number;
    maxRegret: number;
  } | null;
}

/**
 * The `sweep --json` document. Keys are a contract: extend, never rename.
 * `crossovers` lists every pairwise crossing at r > 0 with its exact ratio,
 * a 95% `interval` of the ratio over posterior draws of both models' loss
 * coefficients (null when no draw crosses) and `noCrossShare`, the share of
 * draws in which the lines do not cross at r > 0;
 * `flips` is the exact number of winner changes over [from, to];
 * `kendallTau`, `winners` and `regret` have one entry per grid point;
 * `winShare` is each model's share of the grid points (ties split).
 */
export function sweepDocument(
  stats: readonly StatsRow[],
  options: SweepCommandOptions,
): SweepResult {
  const matrix = matrixOf(options.mode);
  const coefficients = lossCoefficients(stats, { matrix });
  const family = costFamily(options.base, { scaled: options.scaled });
  const sweep = sweepFamily(coefficients, family, {
    from: options.from,
    to: options.to,
    points: options.points,
    per: options.per,
  });
  // Posterior draws of each model's loss coefficients, drawn once per model
  // (seeded by --seed and the model id) and shared by its crossovers.
  const drawn = new Map<string, CoefficientDraws>();
  const posteriorOf = (m: string): CoefficientDraws => {
    let d = drawn.get(m);
    if (d === undefined) {
      d = coefficientDraws(stats, m, {
        matrix,
        draws: CROSSOVER_DRAWS,
        seed: options.seed,
      });
      drawn.set(m, d);
    }
    return d;
  };
  const shipped = sweepProfiles(coefficients, SHIPPED_PROFILES, {
    per: options.per,
  });
  const draws = options.draws > 0
    ? (() => {
      const profiles = drawRegistryProfiles({
        draws: options.draws,
        distribution: options.distribution,
        seed: options.seed,
      });
      const s = sweepProfiles(coefficients, profiles, {
        per: options.per,
        ordered: false,
      });
      return {
        draws: options.draws,
        seed: options.seed,
        distribution: options.distribution,
        mapping: {
          ...PAYMENTS_ANCHOR_MAP.K,
          reviewCost: PAYMENTS_ANCHOR_MAP.reviewCost,
        },
        winShare: s.winShare,
        disagreementShare: s.disagreementShare,
        meanRegret: s.meanRegret,
        maxRegret: s.maxRegret,
      };
    })()
    : null;
  return {
    mode: options.mode,
    matrix: matrix.id,
    per: options.per,
    family: {
      base: `${options.base.id}@${options.base.version}`,
      K: options.base.K,
      reviewCost: options.base.reviewCost,
      scaled: family.scaled,
    },
    grid: {
      from: options.from,
      to: options.to,
      points: options.points,
      ratios: sweep.ratios,
    },
    models: sweep.models.map((m, i) => ({
      modelId: m,
      n: sweep.n[i],
      accuracy: sweep.accuracy[i],
    })),
    accuracyWinners: sweep.accuracyWinners,
    crossovers: sweep.crossovers.map((x) => {
      const ci = crossoverInterval(posteriorOf(x.a), posteriorOf(x.b), family, {
        per: options.per,
      });
      return {
        ...x,
        span: profileSpan(familyProfile(family, x.ratio)),
        interval: ci.lo === null ? null : {
          lo: ci.lo,
          hi: ci.hi,
          level: ci.level,
          draws: ci.draws,
          method: ci.method,
        },
        noCrossShare: ci.noCrossShare,
      };
    }),
    winnerChanges: sweep.winnerChanges,
    flips: sweep.flips,
    gridFlips: sweep.gridFlips,
    winners: sweep.points.map((p) => p.winners),
    kendallTau: sweep.points.map((p) => p.kendallTau),
    regret: sweep.points.map((p) => p.regret),
    winShare: sweep.winShare,
    disagreementShare: sweep.disagreementShare,
    profiles: shipped.points.map((p, i) => {
      const rr = rankReversalDistance(coefficients, SHIPPED_PROFILES[i], {
        per: options.per,
      });
      return {
        id: p.id,
        span: profileSpan(SHIPPED_PROFILES[i]),
        winners: p.winners,
        kendallTau: p.kendallTau,
        regret: p.regret,
        rankReversal: {
          factor: Number.isFinite(rr.factor) ? rr.factor : null,
          challenger: rr.challenger,
        },
      };
    }),
    registryDraws: draws,
  };
}

function numberFlag(
  name: string,
  raw: string | undefined,
  fallback: number,
  ok: (v: number) => boolean,
  want: string,
): number {
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (raw.trim() === "" || !ok(v)) {
    throw new UsageError(
      `--${name} must be ${want}, got ${JSON.stringify(raw)}`,
    );
  }
  return v;
}

/** The options of `sweep`, as `--help` lists them and `parseFlags` reads them. */
export const SWEEP_OPTIONS = {
  format: SCORING_FLAGS.format,
  ...MAPPING_FLAGS,
  probability: SCORING_FLAGS.probability,
  engine: SCORING_FLAGS.engine,
  dsn: SCORING_FLAGS.dsn,
  table: SCORING_FLAGS.table,
  "connect-timeout": SCORING_FLAGS["connect-timeout"],
  "query-timeout": SCORING_FLAGS["query-timeout"],
  mode: SCORING_FLAGS.mode,
  base: {
    type: "string",
    value: "ID|FILE",
    doc:
      "base cost profile of the family: a shipped id or a profile file; at ratio r its --scaled severities cost r times their base K",
    byDefault: "reconciliation",
  },
  scaled: {
    type: "string",
    value: "SEVERITY[,SEVERITY]",
    doc:
      "the severities whose K is multiplied by the ratio r (LOW, MEDIUM, HIGH, CRITICAL, comma-separated); the others keep their base K",
    byDefault: "HIGH,CRITICAL",
  },
  from: {
    type: "string",
    value: "R",
    doc: "smallest ratio r of the grid, > 0",
    byDefault: "1",
  },
  to: {
    type: "string",
    value: "R",
    doc: "largest ratio r of the grid, >= --from",
    byDefault: "100000",
  },
  points: {
    type: "string",
    value: "N",
    doc:
      "grid points, log-spaced from --from to --to, 2 to 100,000 (crossovers are exact, off the grid too)",
    byDefault: "61",
  },
  per: {
    type: "string",
    value: "decision|run",
    doc:
      "how loss is totalled: decision is the mean loss per decision, run the sum over the whole run (the same ranking when models have equal counts)",
    byDefault: "decision",
  },
  "registry-draws": {
    type: "string",
    value: "N",
    doc:
      "also draw N cost profiles within the cost registry's [low, high] ranges (Monte Carlo, seeded) and report each model's share of wins; 0 to 10,000,000",
    byDefault: "0 (no draws)",
  },
  distribution: {
    type: "string",
    value: "log-uniform|triangular|log-triangular",
    doc:
      "distribution of K within each registry range for --registry-draws; the triangular ones peak at the registry's typical value",
    byDefault: "log-uniform",
  },
  seed: {
    ...SEED_OPTION,
    doc:
      "seed of the registry draws and of the posterior draws behind each crossover interval; the same seed gives byte-identical output",
  },
  lenient: LENIENT_OPTION,
  json: JSON_OPTION,
} as const;

/** What `sweep` prints with `--json`: the input keys, then {@linkcode sweepDocument}'s. Keys are a contract: extend, never rename. */
export type SweepDocument =
  & ImportKeys
  & InputKeys
  & UnitKeys
  & {
    /** The format the inputs were read as. */
    format: string;
    /** Decisions read. */
    decisions: number;
  }
  & SweepResult;

/** What {@linkcode sweepRun} read and computed. */
export interface SweepRun {
  /** The `--json` document. */
  readonly document: SweepDocument;
  /** The run read. */
  readonly run: RunInput;
}

/**
 * Sweep with the flag values of `lossbook sweep`: the one computation
 * behind {@linkcode sweep} and the command.
 */
export async function sweepRun(
  inputs: readonly RunSource[],
  values: FlagValuesOf<typeof SWEEP_OPTIONS>,
): Promise<SweepRun> {
  requireInputs(inputs, values);
  const { mode, seed } = commonOptions(values);
  const [base] = await resolveProfiles([values.base ?? "reconciliation"]);
  const scaled = (values.scaled ?? "HIGH,CRITICAL").split(",").map((s) =>
    s.trim()
  );
  for (const s of scaled) {
    if (!isSeverity(s)) {
      throw new UsageError(
        `--scaled must list severities (LOW, MEDIUM, HIGH, CRITICAL), got ${
          JSON.stringify(s)
        }`,
      );
    }
  }
  const from = numberFlag(
    "from",
    values.from,
    1,
    (v) => v > 0 && Number.isFinite(v),
    "a number > 0",
  );
  const to = numberFlag(
    "to",
    values.to,
    100_000,
    (v) => v >= from && Number.isFinite(v),
    `a number >= --from (${from})`,
  );
  const points = numberFlag(
    "points",
    values.points,
    61,
    (v) => Number.isInteger(v) && v >= 2 && v <= 100_000,
    "an integer from 2 to 100,000",
  );
  const draws = numberFlag(
    "registry-draws",
    values["registry-draws"],
    0,
    (v) => Number.isInteger(v) && v >= 0 && v <= 10_000_000,
    "an integer from 0 to 10,000,000",
  );
  const per = (values.per ?? "decision") as LossPer;
  if (per !== "decision" && per !== "run") {
    throw new UsageError(
      `--per must be decision or run, got ${JSON.stringify(values.per)}`,
    );
  }
  const distribution = (values.distribution ??
    "log-uniform") as DrawDistribution;
  if (!DRAW_DISTRIBUTIONS.includes(distribution)) {
    throw new UsageError(
      `--distribution must be one of ${DRAW_DISTRIBUTIONS.join(", ")}, got ${
        JSON.stringify(values.distribution)
      }`,
    );
  }
  const run = await readRunFrom(inputs, values);
  const doc = sweepDocument(run.stats, {
    mode,
    base,
    scaled: scaled as Severity[],
    from,
    to,
    points,
    per,
    draws,
    seed,
    distribution,
  });
  const document: SweepDocument = {
    ...inputKeys(run),
    format: run.format,
    decisions: run.decisions,
    ...unitKeys(run),
    ...importKeys(run),
    ...doc,
  };
  return { document, run };
}

/**
 * K-sensitivity of a run: how the models' losses and ranking move as the
 * costs of some severities are scaled by r, with the exact crossovers,
 * flips, Kendall tau, win shares and, optionally, Monte Carlo draws within
 * the registry's ranges. Returns the document `lossbook sweep --json`
 * prints for the same inputs and flags.
 *
 * @param inputs Each one input, as one command-line argument: a path, an
 *   array of decisions, or an Arquero decision table (`<memory:N>`).
 * @param options The flags of `lossbook sweep` in camelCase (`base`,
 *   `scaled`, `from`, `to`, `points`, `registryDraws`, …).
 * @returns The `sweep --json` document.
 * @throws {UsageError} For options the command would refuse, with its message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sweep } from "./sweep.ts";
 *
 * const doc = await sweep(["data/examples/model_ab.jsonl"], { points: 5 });
 * assert.equal(doc.winners.length, 5);
 * ```
 */
export async function sweep(
  inputs: readonly RunSource[],
  options: SweepOptions = {},
): Promise<SweepDocument> {
  return (await sweepRun(inputs, flagValues("sweep", SWEEP_OPTIONS, options)))
    .document;
}
