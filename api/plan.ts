// `plan`: how many tasks a suite needs to tell two models apart in loss
// (and in accuracy) under a profile, by seeded simulation of compare's paired
// sign-flip test from a pilot run: the power at the pilot's estimates, and
// the assurance over its uncertainty beside it; the library function and
// its flags.
import {
  planClusterSampleSize,
  planSampleSize,
  type SampleSizePlan,
} from "../lib/metrics/sample_size.ts";
import { pairedTasks } from "../lib/decision/paired_tasks.ts";
import { taskLossDifferences } from "../lib/metrics/paired_loss_test.ts";
import { pairedAccuracyTable } from "../lib/metrics/paired_proportion.ts";
import { unitDifferences } from "../lib/metrics/paired_units.ts";
import type { CostProfile } from "../lib/costs/profile.ts";
import { type RunSource, sourceName } from "../commands/_input.ts";
import { flagValues, type FlagValuesOf } from "./_options.ts";
import type { PlanOptions } from "./options.ts";
import type { Mode } from "./score.ts";
import { pairedStats } from "../lib/decision/paired_stats.ts";
import {
  intFlag,
  seedFlag,
  UsageError,
  withUserValues,
} from "../commands/_command.ts";
import { readRun, type UnitKeys, unitKeys } from "../commands/_input.ts";
import { commonOptions, matrixOf, resolveProfiles } from "./score.ts";
import {
  CLUSTER_OPTION,
  formatOption,
  JSON_OPTION,
  PROBABILITY_OPTION,
  SEED_OPTION,
} from "../commands/_options.ts";

/** Posterior draws per size for the assurance, one simulated suite each. */
export const SIMULATIONS = 400;
/** Suites per size drawn from the pilot's estimates for the power. */
export const POWER_SIMULATIONS = 1000;
/** Sign assignments of each Monte Carlo permutation test. */
export const RESAMPLES = 400;
/** From this many tasks (or clusters) on, the permutation test is its normal approximation. */
export const NORMAL_FROM = 5000;
/** Fewest paired clusters of a pilot whose clusters hold several tasks. */
export const MIN_CLUSTERS = 20;

function probability(name: string, raw: string | undefined, fallback: number) {
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (raw.trim() === "" || !(v > 0 && v < 1)) {
    throw new UsageError(
      `--${name} must be a number in (0, 1), got ${JSON.stringify(raw)}`,
    );
  }
  return v;
}

/** The options of `plan`, as `--help` lists them and `parseFlags` reads them. */
export const PLAN_OPTIONS = {
  a: {
    type: "string",
    value: "MODEL",
    doc: "model A, as its modelId in the pilot",
    required: true,
  },
  b: {
    type: "string",
    value: "MODEL",
    doc: "model B, another modelId in the pilot",
    required: true,
  },
  profile: {
    type: "string",
    value: "ID|FILE",
    doc:
      "cost profile whose loss difference is to be detected: a shipped id (see 'lossbook profiles') or a profile file",
    required: true,
  },
  power: {
    type: "string",
    value: "P",
    doc:
      "wanted probability that compare's test detects the difference when the truth equals the pilot's estimates",
    byDefault: "0.8",
  },
  alpha: {
    type: "string",
    value: "P",
    doc: "significance level of compare's two-sided test",
    byDefault: "0.05",
  },
  "n-tasks": {
    type: "string",
    value: "N",
    doc:
      "also report the power and assurance of a suite of N tasks (with clusters: of the nearest whole number of the pilot's mean cluster size)",
  },
  "max-tasks": {
    type: "string",
    value: "N",
    doc: "largest suite size searched; larger needs are reported as not found",
    byDefault: "1000000",
  },
  format: formatOption("decisions|reconforge|lossbench"),
  probability: PROBABILITY_OPTION,
  mode: {
    type: "string",
    value: "consequence|strict|reconforge",
    doc:
      "cost matrix, as in score: consequence charges a missed exception K(severity) and a wrong type or a false alarm one review; strict charges every wrong automatic answer K(severity); reconforge prices as consequence",
    byDefault: "consequence",
  },
  seed: SEED_OPTION,
  cluster: {
    ...CLUSTER_OPTION,
    value: "taskId|cluster",
    doc:
      "the unit of the pilot: taskId, or cluster (the decisions' cluster field); with clusters of several tasks, plan's suites are made of the pilot's clusters, drawn whole, and sized in clusters",
  },
  json: JSON_OPTION,
} as const;

/** Simulated power and assurance at one suite size. */
export interface PowerAt {
  /** Tasks in the suite; with clusters, the clusters times the pilot's mean tasks per cluster, rounded. */
  tasks: number;
  /** Clusters in the suite, when the unit is the cluster; absent otherwise. */
  clusters?: number;
  /** Power at the pilot's estimates: the probability that compare's test rejects when the truth equals the pilot's estimates. */
  power: number;
  /** Assurance: that probability averaged over the pilot's posterior. */
  assurance: number;
}

/** What `plan` prints with `--json`. Keys are a contract: extend, never rename. */
export interface PlanDocument extends UnitKeys {
  /** The pilot run. */
  file: string;
  /** Model A. */
  a: string;
  /** Model B. */
  b: string;
  /** The profile, as `id@version`. */
  profile: string;
  /** Scoring mode. */
  mode: Mode;
  /** Id of the cost matrix. */
  matrix: string;
  /** Tasks of the pilot that both models answered. */
  pilotTasks: number;
  /** Clusters of those tasks, when the unit is the cluster; absent otherwise. */
  pilotClusters?: number;
  /** Level of the test. */
  alpha: number;
  /** Power asked for. */
  power: number;
  /** Largest suite considered. */
  maxTasks: number;
  /** Tasks to tell A from B in loss with that power at the pilot's estimates; null when no size up to `maxTasks` does. */
  tasksNeeded: number | null;
  /** Clusters to tell A from B in loss, when the unit is the cluster (`tasksNeeded` is then their expected tasks); absent otherwise. */
  clustersNeeded?: number | null;
  /** Power and assurance in loss at each size simulated. */
  powerAt: readonly PowerAt[];
  /** The same for accuracy. */
  accuracy: {
    tasksNeeded: number | null;
    clustersNeeded?: number | null;
    powerAt: readonly PowerAt[];
  };
  /** Posterior draws per size for the assurance, one simulated suite each. */
  simulations: number;
  /** Suites per size drawn from the pilot's estimates for the power (below the normal approximation's size). */
  powerSimulations: number;
  /** Seed of the simulation. */
  seed: number;
  /** The method, in words. */
  method: string;
}

/** What {@linkcode planRun} computed. */
export interface PlanRun {
  /** The `--json` document. */
  readonly document: PlanDocument;
  /** The profile. */
  readonly profile: CostProfile;
  /** `--n-tasks`, the size whose power is also reported; null without it. */
  readonly nTasks: number | null;
  /** With clusters, the clusters `--n-tasks` stands for; null otherwise. */
  readonly nClusters: number | null;
}

/**
 * Plan with the flag values of `lossbook plan`: the one computation behind
 * {@linkcode plan} and the command.
 */
export async function planRun(
  inputs: readonly RunSource[],
  values: FlagValuesOf<typeof PLAN_OPTIONS>,
): Promise<PlanRun> {
  if (inputs.length !== 1) {
    throw new UsageError(`expected one run file, got ${inputs.length}`);
  }
  if (values.a === undefined || values.b === undefined) {
    throw new UsageError("name the two models with --a MODEL --b MODEL");
  }
  if (values.a === values.b) {
    throw new UsageError(`--a and --b name the same model, ${values.a}`);
  }
  if (values.profile === undefined) {
    throw new UsageError("name the cost profile with --profile ID|FILE");
  }
  const power = probability("power", values.power, 0.8);
  const alpha = probability("alpha", values.alpha, 0.05);
  const maxTasks = intFlag("max-tasks", values["max-tasks"], {
    min: 2,
    fallback: 1_000_000,
  });
  const nTasks = values["n-tasks"] === undefined
    ? null
    : intFlag("n-tasks", values["n-tasks"], { min: 1, fallback: 1 });
  const seed = seedFlag(values.seed);
  const { mode } = commonOptions({ mode: values.mode });
  const [profile] = await resolveProfiles([values.profile]);
  const path = sourceName(inputs[0], 0);
  const run = await readRun([inputs[0]], values, true);
  // The simulated suites have one trial per task, as the test's unit is
  // the task; a pilot with repeated trials would pass trials off as tasks.
  const trials = run.table!.array("trial") as ArrayLike<number>;
  for (let i = 0; i < trials.length; i++) {
    if (trials[i] !== 0) {
      throw new UsageError(
        `${path}: plan reads one trial per task, but the run has trial ${
          trials[i]
        }; pass a pilot with one trial per task`,
      );
    }
  }
  const paired = withUserValues(() =>
    pairedStats(run.table!, values.a!, values.b!)
  );
  const pairs = paired.rows.reduce((s, r) => s + r.n, 0);
  if (pairs === 0) {
    throw new UsageError(
      `${path}: models ${JSON.stringify(values.a)} and ${
        JSON.stringify(values.b)
      } share no task`,
    );
  }
  const options = {
    alpha,
    power,
    at: nTasks === null ? [] : [nTasks],
    simulations: SIMULATIONS,
    powerSimulations: POWER_SIMULATIONS,
    resamples: RESAMPLES,
    normalFrom: NORMAL_FROM,
    seed,
  };
  const head = {
    file: path,
    a: values.a,
    b: values.b,
    profile: `${profile.id}@${profile.version}`,
    mode,
    matrix: matrixOf(mode).id,
    ...unitKeys(run),
    pilotTasks: pairs,
  };
  const tail = {
    simulations: SIMULATIONS,
    powerSimulations: POWER_SIMULATIONS,
    seed,
  };
  // A cluster's tasks may fail together: with clusters of several tasks the
  // suites are made of the pilot's clusters, drawn whole.
  const units = run.unit === "cluster"
    ? withUserValues(() =>
      pairedTasks(run.table!, values.a!, values.b!, { unit: "cluster" })
    )
    : null;
  if (units !== null && units.units!.some((u) => u.length > 1)) {
    const clusters = units.units!;
    if (clusters.length < MIN_CLUSTERS) {
      throw new UsageError(
        `${path}: plan draws suites from the pilot's clusters, but models ${
          JSON.stringify(values.a)
        } and ${
          JSON.stringify(values.b)
        } share ${clusters.length} clusters, fewer than ${MIN_CLUSTERS}; pass a pilot with at least ${MIN_CLUSTERS} clusters`,
      );
    }
    const perCluster = pairs / clusters.length;
    const tasksOf = (k: number) => Math.round(k * perCluster);
    const nClusters = nTasks === null
      ? null
      : Math.max(1, Math.round(nTasks / perCluster));
    const clusterOptions = {
      ...options,
      at: nClusters === null ? [] : [nClusters],
      maxClusters: Math.max(2, Math.floor(maxTasks / perCluster)),
    };
    const side = (perTask: ArrayLike<number>) => {
      const { differences, weights } = unitDifferences(perTask, clusters);
      const found = planClusterSampleSize(
        differences,
        weights,
        clusterOptions,
      );
      return {
        tasksNeeded: found.clustersNeeded === null
          ? null
          : tasksOf(found.clustersNeeded),
        clustersNeeded: found.clustersNeeded,
        powerAt: found.powerAt.map((p) => ({
          tasks: tasksOf(p.clusters),
          ...p,
        })),
      };
    };
    const loss = side(
      taskLossDifferences(units.groups, profile, { matrix: matrixOf(mode) })
        .differences,
    );
    const acc = side(pairedAccuracyTable(units.groups).differences);
    const document: PlanDocument = {
      ...head,
      pilotClusters: clusters.length,
      alpha,
      power,
      maxTasks,
      ...loss,
      accuracy: acc,
      ...tail,
      method:
        `seeded simulation of the paired sign-flip permutation test with the cluster as the unit (a cluster's per-task differences added and flipped together; ${RESAMPLES} sign assignments; normal approximation |sum d| / sqrt(sum d^2) > z from ${NORMAL_FROM} clusters) on suites of the pilot's clusters drawn whole with replacement (not stratified); power: ${POWER_SIMULATIONS} suites per size drawn from the pilot's clusters; assurance: the same averaged over the Bayesian bootstrap (Dirichlet(1) weights over the pilot's clusters, ${SIMULATIONS} draws per size), which never simulates a cluster unlike the pilot's; common random numbers across sizes; clustersNeeded where the power reaches the target, doubling from 16 then log bisection to 2%; tasks are clusters times the pilot's ${pairs} / ${clusters.length} tasks per cluster`,
    };
    return { document, profile, nTasks, nClusters };
  }
  const taskOptions = { ...options, maxTasks, matrix: matrixOf(mode) };
  const loss = planSampleSize(paired.rows, profile, taskOptions);
  const acc = planSampleSize(paired.rows, profile, {
    ...taskOptions,
    statistic: "accuracy",
  });
  const method =
    `seeded simulation of the paired sign-flip permutation test on per-task loss differences (${RESAMPLES} sign assignments; normal approximation |sum d| / sqrt(sum d^2) > z from ${NORMAL_FROM} tasks) in the pilot's mix of severities; power: joint outcomes per severity and gold class drawn from the pilot's shares (${POWER_SIMULATIONS} suites per size); assurance: the same averaged over Dirichlet posteriors of the pilot (prior 1/2 per outcome of each model, ${SIMULATIONS} draws per size); common random numbers across sizes; tasksNeeded where the power reaches the target, doubling from 16 then log bisection to 2%`;
  // with one task per cluster, the clusters are the tasks
  const counted = (p: SampleSizePlan) =>
    units === null ? p : {
      tasksNeeded: p.tasksNeeded,
      clustersNeeded: p.tasksNeeded,
      powerAt: p.powerAt.map((x) => ({
        tasks: x.tasks,
        clusters: x.tasks,
        power: x.power,
        assurance: x.assurance,
      })),
    };
  const document: PlanDocument = {
    ...head,
    ...(units === null ? {} : { pilotClusters: pairs }),
    alpha,
    power,
    maxTasks,
    ...counted(loss),
    accuracy: counted(acc),
    ...tail,
    method,
  };
  return {
    document,
    profile,
    nTasks,
    nClusters: units === null ? null : nTasks,
  };
}

/**
 * Plan a suite's size: how many tasks tell two models apart in loss (and in
 * accuracy) with a given power at the pilot's estimates, by seeded
 * simulation of `compare`'s paired sign-flip test from a pilot run; the
 * assurance (that power averaged over the pilot's posterior) is reported
 * beside it at every size. Returns the document `lossbook plan
 * --json` prints for the same input and flags.
 *
 * @param inputs One input, the pilot: a path, an array of decisions, or an
 *   Arquero decision table (`<memory:0>`).
 * @param options The flags of `lossbook plan` in camelCase (`a`, `b`,
 *   `profile`, `power`, `alpha`, `nTasks`, `maxTasks`, …).
 * @returns The `plan --json` document.
 * @throws {UsageError} For options the command would refuse, with its message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plan } from "./plan.ts";
 *
 * const doc = await plan(["data/examples/model_ab.jsonl"], { a: "A", b: "B", profile: "flat", maxTasks: 64 });
 * assert.equal(doc.pilotTasks, 800);
 * ```
 */
export async function plan(
  inputs: readonly RunSource[],
  options: PlanOptions = {},
): Promise<PlanDocument> {
  return (await planRun(inputs, flagValues("plan", PLAN_OPTIONS, options)))
    .document;
}
