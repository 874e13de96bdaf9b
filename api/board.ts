// `board`: the models of a run ranked on the tasks they all answered, with
// tie groups from compare's paired test on every pair (Holm-adjusted);
// the library function and its flags.
import type { ColumnTable } from "arquero";
import { op } from "arquero";
import type { CostProfile } from "../lib/costs/profile.ts";
import { getProfile } from "../lib/costs/shipped.ts";
import { decisionStats } from "../lib/decision/decision_stats.ts";
import { pairedTasks } from "../lib/decision/paired_tasks.ts";
import {
  pairedLossTest,
  type PairedTaskGroup,
  pairedTaskStats,
} from "../lib/metrics/paired_loss_test.ts";
import { type CostMatrix, realisedLoss } from "../lib/metrics/loss.ts";
import type { StatsRow } from "../lib/metrics/sufficient_stats.ts";
import { seededPrng, seedFor } from "../lib/math/sampling.ts";
import { rankModels } from "../lib/board/ranking.ts";
import { outcomeColumns } from "../lib/calibration/outcome_columns.ts";
import {
  costReportBy,
  type CostReportRow,
} from "../lib/evidence/cost_report.ts";
import type { CostCompleteness } from "../lib/evidence/cost_evidence.ts";
import type { FailureClass } from "../lib/evidence/cost_evidence.ts";
import { costFamily } from "../lib/sensitivity/cost_family.ts";
import { lossCoefficients } from "../lib/sensitivity/loss_coefficients.ts";
import { familyLine } from "../lib/sensitivity/crossover.ts";
import {
  intFlag,
  MAX_RESAMPLES,
  seedFlag,
  UsageError,
  withUserValues,
} from "../commands/_command.ts";
import {
  decisionCountWarnings,
  fileKeys,
  fileLabel,
  type Format,
  type ImportKeys,
  importKeys,
  readRun,
  requireInputs,
  type RunSource,
  type UnitKeys,
  unitKeys,
} from "../commands/_input.ts";
import type { DecisionUnit } from "../lib/decision/cluster.ts";
import { MAPPING_FLAGS } from "../commands/_harness_input.ts";
import {
  FORCE_OPTION,
  JSON_OPTION,
  LENIENT_OPTION,
  MATRIX_MODE_OPTION,
  SEED_OPTION,
} from "../commands/_options.ts";
import { matrixFlag } from "../commands/_matrix.ts";
import { flagValues, type FlagValuesOf } from "./_options.ts";
import type { BoardOptions } from "./options.ts";
import {
  pairedSides,
  SYMMETRY_NOTE,
  taskLossDifferenceInterval,
} from "./compare.ts";
import {
  calibrateOptions,
  type CalibrationReport,
  calibrationReport,
} from "./calibrate.ts";
import {
  matrixOf,
  type Mode,
  resolveProfiles,
  SCORING_FLAGS,
} from "./score.ts";
import { sweepDocument, type SweepResult } from "./sweep.ts";

/** Sign assignments of each pair's Monte Carlo test, by default. */
const BOARD_RESAMPLES = 10_000;

/** The options of `board`, as `--help` lists them and `parseFlags` reads them. */
export const BOARD_OPTIONS = {
  format: SCORING_FLAGS.format,
  ...MAPPING_FLAGS,
  probability: SCORING_FLAGS.probability,
  mode: MATRIX_MODE_OPTION,
  profile: {
    ...SCORING_FLAGS.profile,
    doc:
      "cost profile to rank the models under, each its own ranking: a shipped id (see 'lossbook profiles') or a profile file",
  },
  alpha: {
    type: "string",
    value: "P",
    doc:
      "family-wise level of each profile's pairwise tests: Holm's adjustment over the pairs, in (0, 1)",
    byDefault: "0.05",
  },
  seed: {
    ...SEED_OPTION,
    doc:
      "seed of the tests' sign assignments, the crossovers' posterior draws and the calibration's noise floor; the same seed gives byte-identical output",
  },
  resamples: {
    type: "string",
    value: "N",
    doc:
      "seeded sign assignments of each pair's sign-flip test when it is not exact, from 1 to 1,000,000",
    byDefault: String(BOARD_RESAMPLES),
  },
  lenient: LENIENT_OPTION,
  out: {
    type: "string",
    value: "DIR",
    doc:
      "folder to write the page (index.html) and the ranking document (board.json) into, created if missing; either file is refused if it exists, unless --force",
  },
  force: {
    ...FORCE_OPTION,
    doc:
      "overwrite index.html and board.json in the --out folder (never one of the command's inputs)",
  },
  json: JSON_OPTION,
} as const;

/**
 * The level of each pair's loss-difference interval on a board of n
 * models: 1 − alpha / m over its m = n(n − 1)/2 pairs (Bonferroni), so
 * that all m intervals cover together with probability at least 1 − alpha.
 *
 * @param alpha The family-wise level, in (0, 1).
 * @param models The number of models, at least 2.
 * @returns The level.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairIntervalLevel } from "./board.ts";
 *
 * assert.equal(pairIntervalLevel(0.05, 2), 0.95);
 * assert.equal(pairIntervalLevel(0.06, 4), 0.99);
 * ```
 */
export function pairIntervalLevel(alpha: number, models: number): number {
  return 1 - alpha / (models * (models - 1) / 2);
}

/** One pair of a profile's ranking: compare's test, Holm-adjusted, and compare's loss-difference interval. */
export interface BoardPair {
  /** The first model (the earlier id). */
  a: string;
  /** The second model. */
  b: string;
  /** Loss of `a` minus loss of `b` on the shared tasks: the sum of the per-task differences, a task's trials averaged (the test's statistic). */
  difference: number;
  /** Two-sided p-value of compare's sign-flip test on the pair. */
  pValue: number;
  /** Holm-adjusted over the profile's pairs. */
  adjustedPValue: number;
  /** compare's interval of the loss difference a − b at level 1 − alpha / m (Bonferroni over the profile's m pairs), with what computed it: the one `compare --a a --b b --level` that level `--resamples` the board's prints. */
  lossInterval: {
    /** Lower bound of loss(a) − loss(b), or null when unknown. */
    lo: number | null;
    /** Upper bound, or null when unknown. */
    hi: number | null;
    /** Its level: 1 − alpha / m, m the profile's pairs. */
    level: number;
    /** How it was computed, in words (compare's `method`). */
    method: string;
    /** Posterior draws (the board's `resamples`). */
    draws: number;
    /** Seed of the draws' stream. */
    seed: number;
  };
  /** Whether the pair is told apart: `adjustedPValue` is at most `alpha` and `lossInterval` excludes zero on the side of `difference`. */
  significant: boolean;
  /** The model declared better (lower loss) when told apart, else null. */
  better: string | null;
  /** The test behind `pValue`. */
  test: string;
  /** Monte Carlo sign assignments of the test; 0 when exact. */
  testResamples: number;
  /** Shared tasks on which the two models' costs differ. */
  nonZero: number;
}

/** One model's place in a profile's ranking. */
export interface BoardEntry {
  /** The model. */
  modelId: string;
  /** Its place, from 1 (lowest loss); equal losses go by model id. */
  position: number;
  /** Loss on the shared tasks: each task's cost summed, a task's trials averaged (with one trial per task, score's loss on these tasks). */
  loss: number;
  /** Its compact letters: models sharing a letter are not told apart. */
  groups: string[];
  /** The ranks it can hold: [1 + models significantly better, n - models significantly worse]. */
  rankInterval: [number, number];
  /** Models significantly worse, best first. */
  betterThan: string[];
  /** Models significantly better, best first. */
  worseThan: string[];
}

/** A profile's ranking. */
export interface BoardProfile {
  /** Profile id. */
  id: string;
  /** Profile version. */
  version: string;
  /** Unit of its costs, or null. */
  unit: string | null;
  /** The models, lowest loss first. */
  ranking: BoardEntry[];
  /** Every pair, in model id order. */
  pairs: BoardPair[];
}

/** The loss lines of sweep's default family on the shared tasks. */
export interface BoardSweep {
  /** Base profile, `id@version`. */
  base: string;
  /** The severities whose K is multiplied by r. */
  scaled: string[];
  /** Smallest r shown. */
  from: number;
  /** Largest r shown. */
  to: number;
  /** Loss per decision, as sweep's default. */
  per: "decision";
  /** Each model's loss per decision along the family: intercept + slope × r. */
  lines: { modelId: string; intercept: number; slope: number }[];
  /** Sweep's crossovers: where two loss lines cross at r > 0, exactly, with the interval of the ratio. */
  crossovers: SweepResult["crossovers"];
  /** Sweep's changes of the loss winner inside [from, to]. */
  winnerChanges: SweepResult["winnerChanges"];
  /** Each model's share of sweep's grid points (ties split). */
  winShare: SweepResult["winShare"];
}

/** What `board` prints with `--json` and writes to `board.json`. Keys are a contract: extend, never rename. */
export type BoardDocument =
  & ImportKeys
  & UnitKeys
  & ({ file: string } | { files: string[] })
  & {
    /** The format the inputs were read as. */
    format: Format;
    /** The cost matrix, as `--mode` names it. */
    mode: "consequence" | "strict";
    /** Id of the cost matrix. */
    matrix: string;
    /** Family-wise level of each profile's pairwise tests. */
    alpha: number;
    /** Seed of every random draw. */
    seed: number;
    /** Sign assignments of a Monte Carlo test. */
    resamples: number;
    /** Tasks every model answered: everything on the board is computed on them. */
    tasks: number;
    /** Decisions on those tasks, all models together. */
    decisions: number;
    /** Tasks some model answered and another did not, left out. */
    unsharedTasks: number;
    /** The models, by id: tasks each answered, decisions on the shared tasks. */
    models: { modelId: string; tasks: number; decisions: number }[];
    /** The test of each pair, and the adjustment over them. */
    test: string;
    /** Caveats of the method, in words. */
    notes: string[];
    /** A ranking per profile, in the order given. */
    profiles: BoardProfile[];
    /** Loss against K along sweep's default family, with its crossovers. */
    sweep: BoardSweep;
    /** calibrate's report of each model that states pCorrect on the shared tasks, priced by `reconciliation`. */
    calibration: {
      profile: string;
      models: ({ modelId: string } & CalibrationReport)[];
      /** Models that state no pCorrect on the shared tasks. */
      without: string[];
    };
    /** The cost evidence of each model's attempts on the shared tasks (`group` is the model). */
    costEvidence: CostReportRow[];
  };

/** Settings of {@linkcode boardRankings}. */
export interface BoardRankingSettings {
  /** The cost matrix. */
  readonly matrix: CostMatrix;
  /** Family-wise level of each profile's tests. */
  readonly alpha: number;
  /** Sign assignments of a Monte Carlo test. */
  readonly resamples: number;
  /** The run seed. */
  readonly seed: number;
  /**
   * The unit of the tests: `taskId`, or `cluster` (a cluster's tasks flip
   * together). Default: `taskId`.
   */
  readonly unit?: DecisionUnit;
}

/**
 * Each model's loss on the shared tasks, a task's trials averaged, from
 * the paired task groups of some pair it is in: the sum over the groups of
 * its side's cells, each counted in tasks (`taskShare`), so that the loss
 * difference of a pair is exactly the sum its test sees.
 */
function taskLoss(
  groups: readonly PairedTaskGroup[],
  side: 0 | 1,
  profile: CostProfile,
  matrix: CostMatrix,
): number {
  const rows = pairedTaskStats(groups)[side].map((r) => ({
    ...r,
    n: r.taskShare!,
  }));
  return realisedLoss(rows, profile, { matrix }) ?? 0;
}

/**
 * Rank models under each profile on a decision table whose tasks they all
 * answered: compare's sign-flip test on every pair (`pairedTasks`,
 * `pairedLossTest`, seeded as compare seeds it, so a pair's p-value is the
 * one `compare --a A --b B` prints on the same decisions with the same
 * `--resamples`), Holm-adjusted over the profile's pairs, then ranked with
 * tie groups and rank intervals (`rankModels`).
 *
 * @param table Decisions of the models, on tasks every model answered.
 * @param models The model ids, sorted.
 * @param profiles The profiles.
 * @param settings Matrix, alpha, resamples and seed.
 * @returns One ranking per profile.
 */
export function boardRankings(
  table: ColumnTable,
  models: readonly string[],
  profiles: readonly CostProfile[],
  settings: BoardRankingSettings,
): BoardProfile[] {
  const { matrix, alpha, resamples, seed } = settings;
  const intervalLevel = pairIntervalLevel(alpha, models.length);
  const pairs: {
    a: number;
    b: number;
    groups: PairedTaskGroup[];
    units?: number[][];
    // the two sides as statistics rows, the same under every profile
    sides: [StatsRow[], StatsRow[]];
  }[] = [];
  for (let a = 0; a < models.length; a++) {
    for (let b = a + 1; b < models.length; b++) {
      const { groups, units } = withUserValues(() =>
        pairedTasks(table, models[a], models[b], { unit: settings.unit })
      );
      pairs.push({
        a,
        b,
        groups,
        ...(units === undefined ? {} : { units }),
        sides: pairedSides(groups, units, [models[a], models[b]]),
      });
    }
  }
  return profiles.map((p) => {
    const tests = pairs.map(({ a, b, groups, units, sides }) => ({
      a,
      b,
      result: pairedLossTest(groups, p, {
        matrix,
        resamples,
        prng: seededPrng(seedFor(seed, `test/loss/${p.id}`)),
        ...(units === undefined ? {} : { units }),
      }),
      interval: taskLossDifferenceInterval(
        sides,
        units,
        p,
        {
          level: intervalLevel,
          draws: resamples,
          seed: seedFor(seed, `loss/${p.id}`),
          matrix,
        },
      ),
    }));
    // each model's loss from its first pair: (0, 1) for models 0 and 1,
    // (0, m) for the others
    const losses = models.map((_, m) =>
      m <= 1
        ? taskLoss(pairs[0].groups, m as 0 | 1, p, matrix)
        : taskLoss(pairs[m - 1].groups, 1, p, matrix)
    );
    const ranked = rankModels(
      losses,
      tests.map((t) => ({
        a: t.a,
        b: t.b,
        difference: t.result.statistic,
        pValue: t.result.pValue,
        interval: t.interval,
      })),
      alpha,
    );
    const ids = (xs: readonly number[]) => xs.map((i) => models[i]);
    return {
      id: p.id,
      version: p.version,
      unit: p.unit ?? null,
      ranking: ranked.ranking.map((r) => ({
        modelId: models[r.model],
        position: r.position,
        loss: losses[r.model],
        groups: [...r.groups],
        rankInterval: [r.rankLo, r.rankHi],
        betterThan: ids(r.betterThan),
        worseThan: ids(r.worseThan),
      })),
      pairs: tests.map((t, k) => ({
        a: models[t.a],
        b: models[t.b],
        difference: t.result.statistic,
        pValue: t.result.pValue,
        adjustedPValue: ranked.adjusted[k],
        lossInterval: {
          lo: t.interval.lo,
          hi: t.interval.hi,
          level: t.interval.level,
          method: t.interval.method,
          draws: t.interval.resamples,
          seed: t.interval.seed,
        },
        significant: ranked.better[k] !== null,
        better: ranked.better[k] === null ? null : models[ranked.better[k]!],
        test: `sign-flip permutation, ${t.result.mode}`,
        testResamples: t.result.resamples,
        nonZero: t.result.nonZero,
      })),
    };
  });
}

/**
 * The tasks every model of a table answered, and the table cut to them.
 *
 * @param table A decision table.
 * @returns The models (sorted), each one's task count, and the shared tasks' table.
 */
export function sharedTasks(table: ColumnTable): {
  models: string[];
  answered: Map<string, number>;
  shared: number;
  unshared: number;
  table: ColumnTable;
} {
  const model = table.array("modelId") as ArrayLike<string>;
  const task = table.array("taskId") as ArrayLike<string>;
  const byTask = new Map<string, Set<string>>();
  const answered = new Map<string, Set<string>>();
  for (let i = 0; i < model.length; i++) {
    let s = byTask.get(task[i]);
    if (s === undefined) byTask.set(task[i], s = new Set());
    s.add(model[i]);
    let t = answered.get(model[i]);
    if (t === undefined) answered.set(model[i], t = new Set());
    t.add(task[i]);
  }
  const models = [...answered.keys()].sort();
  const keep = new Set(
    [...byTask].filter(([, s]) => s.size === models.length).map(([t]) => t),
  );
  return {
    models,
    answered: new Map(models.map((m) => [m, answered.get(m)!.size])),
    shared: keep.size,
    unshared: byTask.size - keep.size,
    table: table.params({ keep }).filter((
      d: Record<string, unknown>,
      $: Record<string, unknown>,
    ) => op.has($.keep as Set<string>, d.taskId as string)),
  };
}

// The rows of each model, for the per-model reports.
function rowsOf(
  table: ColumnTable,
  models: readonly string[],
): Map<string, number[]> {
  const model = table.array("modelId") as ArrayLike<string>;
  const rows = new Map(models.map((m) => [m, [] as number[]]));
  for (let i = 0; i < model.length; i++) rows.get(model[i])!.push(i);
  return rows;
}

// calibrate's report of each model that states pCorrect, with calibrate's
// defaults (10 equal-width bins, the reconciliation profile).
function calibrationOf(
  table: ColumnTable,
  models: readonly string[],
  matrix: CostMatrix,
  seed: string | undefined,
): BoardDocument["calibration"] {
  const profile = getProfile("reconciliation");
  const settings = calibrateOptions({ seed });
  const column = <T>(name: string) => table.array(name) as ArrayLike<T>;
  const [p, gold, pred, sev] = [
    column<number | null>("pCorrect"),
    column<string>("trueClass"),
    column<string>("predClass"),
    column<string>("severity"),
  ];
  const reports: ({ modelId: string } & CalibrationReport)[] = [];
  const without: string[] = [];
  for (const [modelId, idx] of rowsOf(table, models)) {
    const columns = outcomeColumns({
      pCorrect: idx.map((i) => p[i]),
      trueClass: idx.map((i) => gold[i]),
      predClass: idx.map((i) => pred[i]),
      severity: idx.map((i) => sev[i]),
    }, { profile, matrix });
    if (columns.p.length === 0) without.push(modelId);
    else reports.push({ modelId, ...calibrationReport(columns, settings) });
  }
  return { profile: profile.id, models: reports, without };
}

// sweep's default family on the shared tasks: the lines and sweep's own
// crossovers, winner changes and win shares.
function sweepOf(
  stats: readonly StatsRow[],
  mode: Mode,
  seed: number,
): BoardSweep {
  const base = getProfile("reconciliation");
  const scaled = ["HIGH", "CRITICAL"] as const;
  const doc = sweepDocument(stats, {
    mode,
    base,
    scaled,
    from: 1,
    to: 100_000,
    points: 61,
    per: "decision",
    draws: 0,
    seed,
    distribution: "log-uniform",
  });
  const family = costFamily(base, { scaled });
  const lines = lossCoefficients(stats, { matrix: matrixOf(mode) }).map((c) =>
    familyLine(c, family, { per: "decision" })
  );
  return {
    base: doc.family.base,
    scaled: [...doc.family.scaled],
    from: doc.grid.from,
    to: doc.grid.to,
    per: "decision",
    lines: lines.map((l) => ({
      modelId: l.modelId,
      intercept: l.intercept,
      slope: l.slope,
    })),
    crossovers: doc.crossovers,
    winnerChanges: doc.winnerChanges,
    winShare: doc.winShare,
  };
}

function alphaFlag(raw: string | undefined): number {
  if (raw === undefined) return 0.05;
  const v = Number(raw);
  if (raw.trim() === "" || !(v > 0 && v < 1)) {
    throw new UsageError(
      `--alpha must be a number in (0, 1), got ${JSON.stringify(raw)}`,
    );
  }
  return v;
}

/** What {@linkcode boardRun} read and computed. */
export interface BoardRun {
  /** The `--json` document, also written as `board.json`. */
  readonly document: BoardDocument;
  /** The files read. */
  readonly files: readonly string[];
}

/**
 * Build the board with the flag values of `lossbook board`: the one
 * computation behind {@linkcode board} and the command.
 */
export async function boardRun(
  inputs: readonly RunSource[],
  values: FlagValuesOf<typeof BOARD_OPTIONS>,
): Promise<BoardRun> {
  requireInputs(inputs);
  const matrix = matrixFlag(values.mode);
  const mode = matrix.id as "consequence" | "strict";
  const seed = seedFlag(values.seed);
  const alpha = alphaFlag(values.alpha);
  const resamples = intFlag("resamples", values.resamples, {
    min: 1,
    max: MAX_RESAMPLES,
    fallback: BOARD_RESAMPLES,
  });
  const profiles = await resolveProfiles(values.profile, {
    lenient: values.lenient,
  });
  const run = await readRun(inputs, values, true);
  const cut = sharedTasks(run.table!);
  const { models } = cut;
  const where = fileLabel(run.files);
  if (models.length < 2) {
    throw new UsageError(
      `a board ranks two or more models; ${where} holds one, ${models[0]}`,
    );
  }
  if (cut.shared === 0) {
    throw new UsageError(
      `the ${models.length} models of ${where} share no task, so there is nothing to rank them on (tasks answered: ${
        models.map((m) => `${m} ${cut.answered.get(m)}`).join(", ")
      }); a board compares models on the tasks they all answered`,
    );
  }
  const table = cut.table;
  const stats = decisionStats(table, { unit: run.unit });
  const rankings = boardRankings(table, models, profiles, {
    matrix,
    alpha,
    resamples,
    seed,
    unit: run.unit,
  });
  const pairs = models.length * (models.length - 1) / 2;
  const floor = 1 / (resamples + 1);
  const calibration = calibrationOf(table, models, matrix, values.seed);
  const notes = [
    `Holm's adjustment runs over the ${pairs} ${
      pairs === 1 ? "pair" : "pairs"
    } of each profile: the chance of declaring any pair in the wrong order is at most alpha within a profile, not across profiles.`,
    `A pair is told apart only when, besides its Holm-adjusted test, compare's interval of its loss difference at level ${
      pairIntervalLevel(alpha, models.length)
    } (1 - alpha / ${pairs}, Bonferroni over the pairs) excludes zero: the sign-flip test alone sees only the costly errors the tasks show, and holds no level when two models of equal expected loss err at different severities; the interval's posterior counts the costly errors the tasks did not show.`,
    SYMMETRY_NOTE,
    ...(floor > alpha / pairs
      ? [
        `With ${resamples} sign assignments a Monte Carlo p-value is at least ${floor}, above Holm's first threshold alpha / ${pairs}: raise --resamples, or some pairs cannot be told apart however far apart they are.`,
      ]
      : []),
    ...(calibration.models.length > 0
      ? decisionCountWarnings(run, "The calibration's ECE interval")
      : []),
    ...(cut.unshared > 0
      ? [
        `${cut.unshared} ${
          cut.unshared === 1 ? "task" : "tasks"
        } answered by some models and not others ${
          cut.unshared === 1 ? "is" : "are"
        } left out.`,
      ]
      : []),
  ];
  const rows = rowsOf(table, models);
  const column = <T>(name: string) => table.array(name) as ArrayLike<T>;
  const document: BoardDocument = {
    ...fileKeys(run.files),
    format: run.format,
    mode,
    matrix: matrix.id,
    alpha,
    seed,
    resamples,
    ...unitKeys(run),
    tasks: cut.shared,
    decisions: table.numRows(),
    unsharedTasks: cut.unshared,
    models: models.map((m) => ({
      modelId: m,
      tasks: cut.answered.get(m)!,
      decisions: rows.get(m)!.length,
    })),
    test: `compare's sign-flip permutation test on the per-${
      run.unit === "cluster" ? "cluster" : "task"
    } loss differences of every pair, Holm-adjusted over the pairs of each profile, and compare's loss-difference interval at level 1 - alpha / pairs (Bonferroni), which must exclude zero`,
    notes,
    profiles: rankings,
    sweep: sweepOf(stats, mode, seed),
    calibration,
    costEvidence: withUserValues(() =>
      costReportBy(column<string>("modelId"), {
        costCompleteness: column<CostCompleteness>("costCompleteness"),
        costUsd: column<number | null>("costUsd"),
        outcome: column<FailureClass>("outcome"),
      }, { groups: models })
    ),
    ...importKeys(run),
  };
  return { document, files: run.files };
}

/**
 * Rank the models of runs on the tasks they all answered: under each
 * profile, compare's paired sign-flip test on every pair, Holm-adjusted at
 * `alpha`, gives tie groups (a compact letter display) and each model's
 * rank interval; beside them, loss against K along sweep's default family,
 * calibrate's report where probabilities are stated, and the cost evidence.
 * Returns the document `lossbook board --json` prints and writes to
 * `board.json` for the same inputs and flags.
 *
 * @param inputs Each one input, as one command-line argument: a path, an
 *   array of decisions, or an Arquero decision table (`<memory:N>`).
 * @param options The flags of `lossbook board` in camelCase (`profiles`,
 *   `alpha`, `seed`, `resamples`, …).
 * @returns The `board --json` document.
 * @throws {UsageError} For options the command would refuse, with fewer
 *   than two models, or when the models share no task.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { board } from "./board.ts";
 *
 * const doc = await board(["data/examples/model_ab.jsonl"], { profiles: ["reconciliation"] });
 * assert.equal(doc.tasks, 800);
 * assert.deepEqual(doc.profiles[0].ranking.map((m) => m.modelId), ["B", "A"]);
 * ```
 */
export async function board(
  inputs: readonly RunSource[],
  options: BoardOptions = {},
): Promise<BoardDocument> {
  return (await boardRun(inputs, flagValues("board", BOARD_OPTIONS, options)))
    .document;
}
