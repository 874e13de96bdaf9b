// `compare`: paired differences between two models on the same tasks; the
// library function and its flags.
import type { CostProfile } from "../lib/costs/profile.ts";
import type {
  IntervalMethod,
  LossInterval,
} from "../lib/metrics/loss_interval.ts";
import type { StatsRow } from "../lib/metrics/sufficient_stats.ts";
import type { Format, RunSource } from "../commands/_input.ts";
import { flagValues, type FlagValuesOf } from "./_options.ts";
import type { CompareOptions } from "./options.ts";
import type { Mode } from "./score.ts";
import { accuracy } from "../lib/metrics/accuracy.ts";
import {
  pairedBootstrap,
  type PairedComparison,
} from "../lib/metrics/bootstrap.ts";
import { realisedLoss } from "../lib/metrics/loss.ts";
import {
  AUTO_DIFFERENCE_INTERVAL,
  LOSS_DIFFERENCE_ESTIMAND,
  LOSS_DIFFERENCE_TASK_ESTIMAND,
  lossDifferenceInterval,
  METHOD_LABELS,
  resolveIntervalMethod,
} from "../lib/metrics/loss_interval.ts";
import {
  pairedLossTest,
  type PairedTaskGroup,
  pairedTaskStats,
} from "../lib/metrics/paired_loss_test.ts";
import {
  newcombePairedInterval,
  pairedAccuracyTable,
} from "../lib/metrics/paired_proportion.ts";
import {
  clusteredPairedTable,
  pairedUnitStats,
  unitDifferences,
} from "../lib/metrics/paired_units.ts";
import { signFlipTest } from "../lib/metrics/sign_flip.ts";
import { intervalWarnings } from "../lib/metrics/interval_warnings.ts";
import { seededPrng, seedFor } from "../lib/math/sampling.ts";
import { pairedStats } from "../lib/decision/paired_stats.ts";
import {
  type ItemTrials,
  pairedTaskItems,
  pairedTasks,
} from "../lib/decision/paired_tasks.ts";
import { taskLossDifferences } from "../lib/metrics/paired_loss_test.ts";
import {
  modelIds,
  type Outcome,
  outcomeOf,
} from "../lib/metrics/sufficient_stats.ts";
import type { CostMatrix } from "../lib/metrics/loss.ts";
import { UsageError, withUserValues } from "../commands/_command.ts";
import {
  checkClustersAcross,
  fileKeys,
  type ImportKeys,
  importKeys,
  readRun,
  requireInputs,
  type RunInput,
  sourceName,
  sumCounts,
  unitAsked,
  type UnitKeys,
  unitKeys,
} from "../commands/_input.ts";
import { resolveUnit } from "../lib/decision/cluster.ts";
import {
  commonOptions,
  matrixOf,
  resolveProfiles,
  SCORING_FLAGS,
  warningsKey,
} from "./score.ts";

/** One difference of `compare --json`: the bootstrap keys, plus what computed them. */
export interface CompareDifference extends Omit<PairedComparison, "method"> {
  /** How the interval was computed, in words. */
  method: string;
  /** Interval method id, as `--interval` takes it. */
  interval: string;
  /** The test behind `pValue`. */
  test: string;
  /** What the interval is for. */
  estimand: string;
  /** Tasks paired (the unit of the test); null for the bootstrap. */
  tasks: number | null;
  /** Clusters paired, the unit of the test when the decisions name clusters; absent otherwise. */
  clusters?: number;
  /** Monte Carlo sign assignments of the test; 0 when exact or bootstrap. */
  testResamples: number;
}

/** The caveat every loss test carries, in `notes` and the human output. */
export const SYMMETRY_NOTE =
  "The sign-flip test holds its level when the two models are exchangeable on each task (heavy tails included). When they have equal expected loss but err at different severities, per-task differences need not be symmetric and no size is claimed for that case.";

/**
 * The two sides of a pair's paired task groups as statistics rows, for
 * {@linkcode taskLossDifferenceInterval}: with clusters as the units
 * (`units`), each side's rows weigh tasks (`n`) and count clusters
 * (`taskShare`); else tasks both.
 *
 * @param groups The pair's paired task groups (`pairedTasks`).
 * @param units Each cluster's tasks, or undefined when the task is the unit.
 * @param ids The two model ids.
 * @returns Model A's and model B's rows.
 */
export function pairedSides(
  groups: readonly PairedTaskGroup[],
  units: readonly (readonly number[])[] | undefined,
  ids: readonly [string, string],
): [StatsRow[], StatsRow[]] {
  return units === undefined
    ? pairedTaskStats(groups, ids)
    : pairedUnitStats(groups, units, ids);
}

/**
 * `compare`'s interval of the loss difference A − B on the shared tasks:
 * Jeffreys posteriors per cell for each side, drawn independently
 * (`lossDifferenceInterval`), a task's trials averaged; with clusters as the
 * units, evidence counted in clusters. `board` takes each pair's interval
 * from here, so it is the one `compare` prints at the same level, draws
 * and seed.
 *
 * @param sides The two sides' rows ({@linkcode pairedSides}).
 * @param units Each cluster's tasks, or undefined when the task is the unit.
 * @param profile The cost profile.
 * @param o Level, posterior draws, the stream's seed and the cost matrix.
 * @returns The interval, with its method in words.
 */
export function taskLossDifferenceInterval(
  sides: readonly [readonly StatsRow[], readonly StatsRow[]],
  units: readonly (readonly number[])[] | undefined,
  profile: CostProfile,
  o: { level: number; draws: number; seed: number; matrix: CostMatrix },
): LossInterval {
  const ci = lossDifferenceInterval(sides[0], sides[1], profile, {
    level: o.level,
    draws: o.draws,
    prng: seededPrng(o.seed),
    matrix: o.matrix,
    ...(units === undefined ? { unit: "task" } : {}),
  });
  return units === undefined ? ci : {
    ...ci,
    method: `${METHOD_LABELS.jeffreys}, evidence counted in clusters`,
    estimand: LOSS_DIFFERENCE_TASK_ESTIMAND,
  };
}

/**
 * The accuracy difference of `compare`'s default: Newcombe's paired score
 * interval on the per-task 2×2 table, and a sign-flip test on the per-task
 * accuracy differences (with one trial per task, the exact McNemar test).
 * With clusters as the units (`units`), the test flips a cluster's tasks
 * together and the table is read at its effective number of clusters.
 */
function accuracyDifference(
  groups: readonly PairedTaskGroup[],
  units: readonly (readonly number[])[] | undefined,
  o: { level: number; resamples: number; seed: number; pairs: number },
): CompareDifference {
  const perTask = pairedAccuracyTable(groups);
  const clustered = units === undefined
    ? null
    : clusteredPairedTable(perTask.table, units);
  const ci = newcombePairedInterval(clustered ?? perTask.table, {
    level: o.level,
  });
  const tasks = perTask.weights.reduce((a, b) => a + b, 0);
  const { differences, weights } = units === undefined
    ? perTask
    : unitDifferences(perTask.differences, units);
  const t = signFlipTest(differences, {
    weights,
    resamples: o.resamples,
    seed: o.seed,
  });
  return {
    estimate: ci.estimate,
    lo: ci.lo,
    hi: ci.hi,
    level: o.level,
    resamples: 0,
    undefinedResamples: 0,
    seed: o.seed,
    method: clustered === null
      ? ci.method
      : `${ci.method}, at ${clustered.effectiveN} effective clusters`,
    pValue: tasks === 0 ? null : t.pValue,
    pairs: o.pairs,
    interval: "newcombe",
    test: `sign-flip permutation, ${t.mode}${
      units === undefined ? "" : ", a cluster's tasks flipped together"
    }`,
    estimand:
      "difference of the two models' expected accuracies on these tasks (A - B), each task's trials averaged",
    tasks,
    ...(units === undefined ? {} : { clusters: units.length }),
    testResamples: t.resamples,
  };
}

/** The options of `compare`: the scoring flags with its own --interval, and the two models. */
export const COMPARE_OPTIONS = {
  a: {
    type: "string",
    value: "MODEL",
    doc:
      "model A, as its modelId in the run; differences are A - B. Without --a and --b, two inputs of one model each are compared: A is the first, B the second, paired by task",
  },
  b: {
    type: "string",
    value: "MODEL",
    doc: "model B, another modelId on the same tasks",
  },
  items: {
    type: "boolean",
    doc:
      "list every shared task on which the two sides' decisions differ (predicted class, action or parse result), with each side's trials and the cost difference A - B under each profile, largest first",
  },
  ...SCORING_FLAGS,
  engine: {
    ...SCORING_FLAGS.engine,
    doc:
      "shared with score: compare pairs decisions task by task in process, so only memory is taken here (duckdb and postgres compute statistics only)",
  },
  interval: {
    type: "string",
    value: "auto|jeffreys|bootstrap",
    doc: "method of the loss and accuracy differences (see below)",
    byDefault: "auto (jeffreys)",
  },
} as const;

/** What `compare` prints with `--json`. Keys are a contract: extend, never rename. */
export type CompareDocument =
  & ImportKeys
  & UnitKeys
  & ({ file: string } | { files: string[] })
  & {
    /** The format the inputs were read as. */
    format: Format;
    /** Id of the mode's cost matrix. */
    matrix: string;
    /** Model A. */
    a: string;
    /** Model B. */
    b: string;
    /** The input holding side A, when the sides are two inputs (no `--a`/`--b`); else null. */
    aFile: string | null;
    /** The input holding side B, likewise. */
    bFile: string | null;
    /** Scoring mode. */
    mode: Mode;
    /** Confidence level of every interval. */
    level: number;
    /** Seed of every random draw. */
    seed: number;
    /** Resamples or posterior draws. */
    resamples: number;
    /** The `--interval` asked for. */
    interval: IntervalMethod;
    /** Decisions paired. */
    pairs: number;
    /** Decisions of A with no counterpart in B. */
    onlyA: number;
    /** Decisions of B with no counterpart in A. */
    onlyB: number;
    /** Tasks paired; null under the bootstrap. */
    tasks: number | null;
    /** Tasks of A only; null under the bootstrap. */
    onlyATasks: number | null;
    /** Tasks of B only; null under the bootstrap. */
    onlyBTasks: number | null;
    /** Clusters paired, when the decisions name clusters (the unit of the tests); absent otherwise. */
    clusters?: number;
    /** Caveats of the method, in words. */
    notes: string[];
    /**
     * Present when `--interval bootstrap` chose methods that fell below 0.93
     * in the coverage study: one line per difference, naming the study's
     * worst coverage. The command prints each on standard error too.
     */
    warnings?: string[];
    /** The differences A - B: accuracy, and loss per profile id. */
    differences: {
      accuracy: PairedComparison | CompareDifference;
      loss: Record<string, CompareDifference>;
    };
    /** With `--items`: the shared tasks on which the sides differ, largest cost difference first. */
    items?: CompareItem[];
  };

/** One side's trials of a task in `compare --items`. */
export interface CompareItemTrials {
  /** Predicted class. */
  readonly predClass: string;
  /** Action. */
  readonly action: string;
  /** Whether the output parsed. */
  readonly parseOk: boolean;
  /** What the prediction was, against the gold class. */
  readonly outcome: Outcome;
  /** Trials of the task with this prediction, action and parse result. */
  readonly n: number;
}

/** A task of `compare --items`: the sides differ on it. */
export interface CompareItem {
  /** The task. */
  readonly taskId: string;
  /** Its severity. */
  readonly severity: string;
  /** Its gold class. */
  readonly trueClass: string;
  /** Side A's trials. */
  readonly a: readonly CompareItemTrials[];
  /** Side B's trials. */
  readonly b: readonly CompareItemTrials[];
  /**
   * Per profile id, the task's cost under A minus its cost under B (each
   * side's trials averaged): these sum, over the items, to the loss
   * difference's estimate.
   */
  readonly costDifference: Record<string, number>;
}

// The items of `--items`: each differing task with its cost difference under
// each profile (the paired test's own per-task cost), sorted by the largest
// absolute difference across the profiles, then by task id.
function compareItems(
  table: NonNullable<RunInput["table"]>,
  a: string,
  b: string,
  profiles: readonly CostProfile[],
  matrix: CostMatrix,
): CompareItem[] {
  const items = pairedTaskItems(table, a, b).map((item) => {
    const trials = (side: readonly ItemTrials[]) =>
      side.map((t) => ({
        predClass: t.predClass,
        action: t.action,
        parseOk: t.parseOk,
        outcome: outcomeOf(item.trueClass, t.predClass),
        n: t.n,
      }));
    const group = { ...item, tasks: 1 };
    return {
      taskId: item.taskId,
      severity: item.severity,
      trueClass: item.trueClass,
      a: trials(item.a),
      b: trials(item.b),
      costDifference: Object.fromEntries(
        profiles.map((p) => [
          p.id,
          taskLossDifferences([group], p, { matrix }).differences[0],
        ]),
      ),
    };
  });
  const largest = (i: CompareItem) =>
    Math.max(0, ...Object.values(i.costDifference).map(Math.abs));
  return items.sort((x, y) =>
    largest(y) - largest(x) ||
    (x.taskId < y.taskId ? -1 : x.taskId > y.taskId ? 1 : 0)
  );
}

/** The run `compare` pairs, its two sides, and where each came from. */
interface CompareSides {
  readonly run: RunInput;
  /** The ids the table pairs by. */
  readonly pairA: string;
  readonly pairB: string;
  /** The models' own ids, as printed. */
  readonly a: string;
  readonly b: string;
  readonly aFile: string | null;
  readonly bFile: string | null;
}

// The models found in each input, for the refusal that asks for --a/--b.
function modelsFound(
  names: readonly string[],
  runs: readonly RunInput[],
): string {
  return runs.map((r, i) => {
    const ids = modelIds(r.stats);
    return `${names[i]}: ${ids.length === 1 ? "model" : "models"} ${
      ids.join(", ")
    }`;
  }).join("; ");
}

// Read the inputs and name the two sides: with --a and --b, two models of
// the run; without, two inputs of one model each, A the first and B the
// second, whatever their ids (two runs of one model are told apart by their
// input, so their decisions are paired by task, not refused as repeats).
async function readSides(
  inputs: readonly RunSource[],
  values: FlagValuesOf<typeof COMPARE_OPTIONS>,
): Promise<CompareSides> {
  if (values.a !== undefined || values.b !== undefined) {
    if (values.a === undefined || values.b === undefined) {
      throw new UsageError("name the two models with --a MODEL --b MODEL");
    }
    const run = await readRun(inputs, values, true);
    return {
      run,
      pairA: values.a,
      pairB: values.b,
      a: values.a,
      b: values.b,
      aFile: null,
      bFile: null,
    };
  }
  const names = inputs.map(sourceName);
  const ask =
    "compare pairs two models: name them with --a MODEL --b MODEL, or give two inputs of one model each";
  if (inputs.length !== 2) {
    const run = await readRun(inputs, values, true);
    throw new UsageError(
      `${ask} (found ${modelsFound([names.join(" + ")], [run])})`,
    );
  }
  const runs = [
    await readRun([inputs[0]], values, true),
    await readRun([inputs[1]], values, true),
  ];
  const ids = runs.map((r) => modelIds(r.stats));
  if (ids.some((m) => m.length !== 1)) {
    throw new UsageError(`${ask} (found ${modelsFound(names, runs)})`);
  }
  if (runs[0].format !== runs[1].format) {
    throw new UsageError(
      `all inputs must share one format, got ${names[0]} (${
        runs[0].format
      }) and ${names[1]} (${runs[1].format})`,
    );
  }
  const [a, b] = [ids[0][0], ids[1][0]];
  // two runs of one model: each side is paired under its input's name
  const [pairA, pairB] = a === b
    ? [`${a} (${names[0]})`, `${b} (${names[1]})`]
    : [a, b];
  const relabel = (r: RunInput, id: string) =>
    r.table!.params({ id }).derive({
      modelId: (_d: unknown, $: { id: string }) => $.id,
    });
  checkClustersAcross(
    runs.map((r, i) => ({ name: names[i], table: r.table! })),
  );
  const table = relabel(runs[0], pairA).concat(relabel(runs[1], pairB));
  const notes = sumCounts(runs.map((r) => r.notes));
  const both = <T>(f: (r: RunInput) => readonly T[] | undefined) =>
    runs.every((r) => f(r) === undefined)
      ? undefined
      : runs.flatMap((r) => f(r) ?? []);
  const sources = runs.every((r) => r.pCorrectSources !== undefined)
    ? sumCounts(runs.map((r) => r.pCorrectSources!))
    : undefined;
  const setAside = both((r) => r.setAside);
  const incomplete = both((r) => r.inputs);
  const run: RunInput = {
    format: runs[0].format,
    unit: resolveUnit(
      unitAsked(values, runs[0].format),
      runs.some((r) => r.unit === "cluster"),
      names.join(" + "),
    ),
    stats: [...runs[0].stats, ...runs[1].stats],
    decisions: runs[0].decisions + runs[1].decisions,
    notes,
    table,
    files: names,
    ...(sources === undefined ? {} : { pCorrectSources: sources }),
    ...(setAside === undefined ? {} : { setAside }),
    ...(incomplete === undefined ? {} : { inputs: incomplete }),
  };
  return { run, pairA, pairB, a, b, aFile: names[0], bFile: names[1] };
}

/** What {@linkcode compareRun} read and computed. */
export interface CompareRun {
  /** The `--json` document. */
  readonly document: CompareDocument;
  /** The profiles priced. */
  readonly profiles: readonly CostProfile[];
  /** The files read. */
  readonly files: readonly string[];
}

/**
 * Compare two models with the flag values of `lossbook compare`: the one
 * computation behind {@linkcode compare} and the command.
 */
export async function compareRun(
  inputs: readonly RunSource[],
  values: FlagValuesOf<typeof COMPARE_OPTIONS>,
): Promise<CompareRun> {
  requireInputs(inputs);
  const { level, seed, resamples, mode, interval } = commonOptions(values);
  const method = resolveIntervalMethod(interval, AUTO_DIFFERENCE_INTERVAL);
  if (method === "fay-feuer" || method === "cp-gamma") {
    throw new UsageError(
      `--interval ${method} gives one model's loss interval (score); for a difference use auto, jeffreys or bootstrap`,
    );
  }
  const profiles: CostProfile[] = await resolveProfiles(values.profile, {
    lenient: values.lenient,
  });
  const sides = await readSides(inputs, values);
  const { run, pairA, pairB } = sides;
  const paired = withUserValues(() => pairedStats(run.table!, pairA, pairB));
  const matrix = matrixOf(mode);
  // Each difference draws from its own stream (seedFor), so adding a
  // profile never moves another profile's interval.
  const opts = (label: string) => ({
    level,
    resamples,
    prng: seededPrng(seedFor(seed, label)),
  });
  const accuracyBoot = pairedBootstrap(
    paired.rows,
    (s) => accuracy(s).value,
    opts("accuracy"),
  );
  const byTask = method === "bootstrap"
    ? null
    : withUserValues(() =>
      pairedTasks(run.table!, pairA, pairB, { unit: run.unit })
    );
  const units = byTask?.units;
  const accuracyDiff: PairedComparison | CompareDifference = byTask === null
    ? accuracyBoot
    : accuracyDifference(byTask.groups, units, {
      level,
      resamples,
      seed: seedFor(seed, "test/accuracy"),
      pairs: accuracyBoot.pairs,
    });
  const [statsA, statsB] = byTask === null
    ? [[], []]
    : pairedSides(byTask.groups, units, [pairA, pairB]);
  const loss: Record<string, CompareDifference> = Object.fromEntries(
    profiles.map((p): [string, CompareDifference] => {
      if (byTask === null) {
        return [p.id, {
          ...pairedBootstrap(
            paired.rows,
            (s) => realisedLoss(s, p, { matrix }),
            opts(`loss/${p.id}`),
          ),
          interval: "bootstrap",
          test: "paired bootstrap",
          estimand: LOSS_DIFFERENCE_ESTIMAND,
          tasks: null,
          testResamples: 0,
        }];
      }
      const ci = taskLossDifferenceInterval([statsA, statsB], units, p, {
        level,
        draws: resamples,
        seed: seedFor(seed, `loss/${p.id}`),
        matrix,
      });
      const t = pairedLossTest(byTask.groups, p, {
        matrix,
        resamples,
        prng: seededPrng(seedFor(seed, `test/loss/${p.id}`)),
        ...(units === undefined ? {} : { units }),
      });
      return [p.id, {
        estimate: ci.estimate,
        lo: ci.lo,
        hi: ci.hi,
        level,
        resamples: ci.resamples,
        undefinedResamples: 0,
        seed: ci.seed,
        method: ci.method,
        pValue: byTask.tasks === 0 ? null : t.pValue,
        pairs: accuracyDiff.pairs,
        interval: "jeffreys",
        test: `sign-flip permutation, ${t.mode}${
          units === undefined ? "" : ", a cluster's tasks flipped together"
        }`,
        estimand: ci.estimand,
        tasks: byTask.tasks,
        ...(units === undefined ? {} : { clusters: units.length }),
        testResamples: t.resamples,
      }];
    }),
  );
  const notes = method === "bootstrap"
    ? [
      "The paired bootstrap p-value is kept for comparison; it over-rejects under heavy-tailed losses (see docs/method.md).",
    ]
    : [SYMMETRY_NOTE];
  const document: CompareDocument = {
    ...fileKeys(run.files),
    format: run.format,
    matrix: matrix.id,
    a: sides.a,
    b: sides.b,
    aFile: sides.aFile,
    bFile: sides.bFile,
    mode,
    level,
    seed,
    resamples,
    interval,
    ...unitKeys(run),
    pairs: accuracyDiff.pairs,
    onlyA: paired.onlyA,
    onlyB: paired.onlyB,
    tasks: byTask?.tasks ?? null,
    onlyATasks: byTask?.onlyA ?? null,
    onlyBTasks: byTask?.onlyB ?? null,
    ...(units === undefined ? {} : { clusters: units.length }),
    notes,
    ...warningsKey(intervalWarnings("compare", interval)),
    differences: { accuracy: accuracyDiff, loss },
    ...(values.items
      ? {
        items: withUserValues(() =>
          compareItems(run.table!, pairA, pairB, profiles, matrix)
        ),
      }
      : {}),
    ...importKeys(run),
  };
  return { document, profiles, files: run.files };
}

/**
 * Compare two models on the same tasks: paired differences in accuracy and
 * loss per profile, with intervals and a sign-flip test. Returns the
 * document `lossbook compare --json` prints for the same inputs and flags.
 *
 * @param inputs Each one input, as one command-line argument: a path, an
 *   array of decisions, or an Arquero decision table (`<memory:N>`).
 * @param options The flags of `lossbook compare` in camelCase; `a` and `b`
 *   name the two models.
 * @returns The `compare --json` document.
 * @throws {UsageError} For options the command would refuse, with its message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compare } from "./compare.ts";
 *
 * const doc = await compare(["data/examples/model_ab.jsonl"], { a: "A", b: "B", profiles: ["reconciliation"] });
 * assert.equal(doc.pairs, 800);
 * assert.ok(doc.differences.loss.reconciliation.estimate! > 0);
 * ```
 */
export async function compare(
  inputs: readonly RunSource[],
  options: CompareOptions = {},
): Promise<CompareDocument> {
  return (await compareRun(
    inputs,
    flagValues("compare", COMPARE_OPTIONS, options),
  )).document;
}
