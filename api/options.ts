/**
 * The options of the library functions `score`, `compare`, `calibrate`,
 * `escalate`, `sweep`, `plan`, `card`, `board` and `severityTemplate`
 * (the command `severity-template`): each is a flag of the
 * command of the same name, in camelCase (a repeatable flag in its plural). A
 * flag with a value takes a string or a number (`ci: 0.9` is `--ci 0.9`); a
 * switch takes a boolean. What each means, at length, is in `lossbook
 * <command> --help`.
 *
 * The command's flag table is the one place where a flag is defined; a
 * type-level test holds each interface here to its table, name for name.
 *
 * @module
 */

import type { HarnessOption } from "../lib/import/harness.ts";
import type { Mode } from "./score.ts";

/** A flag's value: a string, or a number written as its decimal string. */
export type FlagValue = string | number;

/** The unit of a run's intervals, tests and plans (`--cluster`). */
export interface ClusterOptions {
  /**
   * `taskId` (a task's trials count as one task) or `cluster` (a cluster's
   * tasks count as one; the decisions name it); for harness logs a
   * metadata path (`metadata.source_document`) that fills each decision's
   * cluster. Default: `cluster` when the decisions name one, else `taskId`.
   */
  cluster?: FlagValue;
}

/** How a harness log's items become decisions (the harness mapping flags). */
export interface MappingOptions extends ClusterOptions {
  /** Harness logs: one severity for every item (`LOW`, `MEDIUM`, `HIGH`, `CRITICAL`). */
  severity?: FlagValue;
  /** Harness logs: a file mapping items (by id or by a field) to severities. */
  severityMap?: FlagValue;
  /** Harness logs: the key the severity map is keyed by (`field:PATH`). */
  severityMapKey?: FlagValue;
  /** Harness logs: the path, in the log's own records, of each item's severity. */
  severityField?: FlagValue;
  /** Harness logs: which scorer decides correctness. */
  scorer?: FlagValue;
  /** Harness logs: how a partial score counts (`correct` or `incorrect`). */
  partial?: FlagValue;
  /** Imported logs: which probability a decision's pCorrect takes. */
  pcorrectFrom?: FlagValue;
  /** Harness logs: the model's id, where the log does not name it. */
  modelId?: FlagValue;
  /** lm-eval logs: which filter's answers are read. */
  filter?: FlagValue;
  /** HELM runs: which metric decides correctness. */
  metric?: FlagValue;
  /** promptfoo results: which assertion types decide correctness. */
  correct?: FlagValue;
  /** Harness logs: score what an incomplete log holds instead of refusing it; each such log is listed under `inputs`. */
  allowIncomplete?: boolean;
  /** inspect `.eval` logs: the largest archive entry inflated, in bytes. Default 268,435,456 (256 MiB). */
  maxEntryBytes?: FlagValue;
  /** inspect `.eval` logs: the largest uncompressed-to-compressed ratio of an entry past 1 MiB. Default 200. */
  maxEntryRatio?: FlagValue;
}

/** How inputs are read: their format, and how strictly. */
export interface InputOptions extends MappingOptions {
  /** The inputs' format; detected from their content when absent. */
  format?: FlagValue;
  /** LossBench ledgers: whether the stored probability is P(correct) or P(error). */
  probability?: FlagValue;
  /** Skip and report unknown keys instead of refusing them. */
  lenient?: boolean;
}

/** Where statistics are computed: in memory, DuckDB, chdb or PostgreSQL. */
export interface EngineOptions {
  /**
   * `memory`, `duckdb`, `chdb` (ClickHouse's embedded engine, installed by
   * the CLI's `lossbook engine install chdb`; refused until then) or
   * `postgres`. Default: `duckdb` for a Parquet or CSV file of 1 MiB or more
   * when only statistics are needed (score, sweep), else `memory`; the
   * statistics are the same to the last bit.
   */
  engine?: FlagValue;
  /** With `engine: "postgres"`: the connection string. */
  dsn?: FlagValue;
  /** With `engine: "postgres"`: the decisions table. */
  table?: FlagValue;
  /**
   * With `engine: "postgres"`: seconds to wait for the server to connect and
   * answer, 0 for no limit; past it, `Deno.errors.TimedOut` naming host and
   * port. Default: the DSN's `connect_timeout`, else 10.
   */
  connectTimeout?: FlagValue;
  /**
   * With `engine: "postgres"`: seconds the queries may take in all, 0 for no
   * limit; past it, `Deno.errors.TimedOut`. Default 0.
   */
  queryTimeout?: FlagValue;
}

/** The options `score` and `compare` share. */
export interface ScoringOptions extends InputOptions, EngineOptions {
  /** Scoring mode: the cost matrix, and what recall counts. */
  mode?: Mode;
  /** Cost profiles to price with: shipped ids or profile files. Default: every shipped profile. */
  profiles?: readonly FlagValue[];
  /** Confidence level of every interval, in (0, 1). Default 0.95. */
  ci?: FlagValue;
  /** Seed of every random draw. Default 0. */
  seed?: FlagValue;
  /** Resamples or posterior draws behind the intervals. Default 1000. */
  resamples?: FlagValue;
  /** Method of the loss intervals. */
  interval?: FlagValue;
}

/** The options of `score`. */
export interface ScoreOptions extends ScoringOptions {
  /** The former name of `ci`; `ci` wins when both are given. */
  level?: FlagValue;
}

/** The options of `compare`. */
export interface CompareOptions extends ScoringOptions {
  /**
   * Model A, by its modelId; differences are A - B. Without `a` and `b`,
   * two inputs of one model each are the sides, paired by task.
   */
  a?: FlagValue;
  /** Model B, by its modelId. */
  b?: FlagValue;
  /** List the shared tasks on which the two sides differ (`items`). */
  items?: boolean;
}

/** The options of `calibrate`. */
export interface CalibrateOptions extends InputOptions {
  /** Also report calibration per probability source. */
  bySource?: boolean;
  /** Number of reliability bins. Default 10. */
  bins?: FlagValue;
  /** Bin edges: `equal-width` (default) or `equal-mass`. */
  strategy?: FlagValue;
  /** The profile weighting the cost-weighted ECE. Default `reconciliation`. */
  profile?: FlagValue;
  /** The cost matrix pricing the cost-weighted ECE. */
  mode?: FlagValue;
  /** Seed of the noise floor's simulation and the bootstrap. */
  seed?: FlagValue;
  /** Bootstrap resamples of `interval: "bootstrap"`. */
  resamples?: FlagValue;
  /** Method of the ECE interval: `auto` or `bootstrap`. */
  interval?: FlagValue;
}

/** The options of `escalate`. */
export interface EscalateOptions extends InputOptions {
  /** The profile pricing an automatic error and a review. Default `reconciliation`. */
  profile?: FlagValue;
  /** The cost matrix. */
  mode?: FlagValue;
  /** Points of the risk-coverage curve, 2 to 100,000. Default 21. */
  points?: FlagValue;
}

/** The options of `sweep`. */
export interface SweepOptions extends InputOptions, EngineOptions {
  /** Scoring mode (cost matrix). */
  mode?: Mode;
  /** Base profile of the family. Default `reconciliation`. */
  base?: FlagValue;
  /** Severities whose K is multiplied by r, comma-separated. Default `HIGH,CRITICAL`. */
  scaled?: FlagValue;
  /** Smallest r. Default 1. */
  from?: FlagValue;
  /** Largest r. Default 100,000. */
  to?: FlagValue;
  /** Grid points. Default 61. */
  points?: FlagValue;
  /** Loss per `decision` (default) or per `run`. */
  per?: FlagValue;
  /** Monte Carlo draws within the registry's ranges. Default 0. */
  registryDraws?: FlagValue;
  /** Distribution of those draws. */
  distribution?: FlagValue;
  /** Seed of the draws. */
  seed?: FlagValue;
}

/** The options of `board`. */
export interface BoardOptions extends InputOptions {
  /** The cost matrix: `consequence` (default) or `strict`. */
  mode?: "consequence" | "strict";
  /** Cost profiles, a ranking each: shipped ids or profile files. Default: every shipped profile. */
  profiles?: readonly FlagValue[];
  /** Family-wise level of each profile's pairwise tests (Holm), in (0, 1). Default 0.05. */
  alpha?: FlagValue;
  /** Seed of every random draw. Default 0. */
  seed?: FlagValue;
  /** Sign assignments of a pair's Monte Carlo test. Default 10,000. */
  resamples?: FlagValue;
}

/** The options of `plan`. */
export interface PlanOptions extends ClusterOptions {
  /** Model A, by its modelId. */
  a?: FlagValue;
  /** Model B, by its modelId. */
  b?: FlagValue;
  /** The cost profile (required). */
  profile?: FlagValue;
  /** Scoring mode (cost matrix). */
  mode?: Mode;
  /** Power asked for, in (0, 1). Default 0.8. */
  power?: FlagValue;
  /** Level of the test, in (0, 1). Default 0.05. */
  alpha?: FlagValue;
  /** Also report the power at this many tasks. */
  nTasks?: FlagValue;
  /** Largest suite considered. Default 1,000,000. */
  maxTasks?: FlagValue;
  /** The pilot's format. */
  format?: FlagValue;
  /** LossBench ledgers: whether the stored probability is P(correct) or P(error). */
  probability?: FlagValue;
  /** Seed of the simulation. */
  seed?: FlagValue;
}

/** The options of `card`: those of `score` but the engine's, and the family's base and what the logs may not name. */
export interface CardOptions extends
  InputOptions,
  Pick<
    ScoringOptions,
    "mode" | "profiles" | "ci" | "seed" | "resamples" | "interval"
  > {
  /** Base profile of the family along which the winning spans are taken. Default `reconciliation`. */
  base?: FlagValue;
  /** The harness's task name, where the logs name none. */
  taskType?: FlagValue;
  /** Where the dataset lives (e.g. `allenai/ai2_arc`), where the logs name none. */
  datasetType?: FlagValue;
  /** The dataset's name, where the logs name none. */
  datasetName?: FlagValue;
}

/**
 * The options of `severityTemplate`: how the logs are read, as `import`
 * reads them, and what the rows are keyed on. The severity flags are not
 * among them: the template is what they will be given.
 */
export interface SeverityTemplateOptions
  extends Pick<MappingOptions, HarnessOption | "allowIncomplete"> {
  /** The logs' format (`inspect`, `lm-eval`, `helm`, `promptfoo`); detected from their content when absent. */
  format?: FlagValue;
  /** Key the rows on the value at a path of each item (`field:PATH`), one row per distinct value, instead of on the task id. */
  severityMapKey?: FlagValue;
}
