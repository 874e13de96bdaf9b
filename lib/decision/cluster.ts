/**
 * The unit of a run: what its decisions are grouped by when every interval,
 * test and plan counts independent units. A task's trials (epochs, repeated
 * runs) count as one task; items that share a source document or a scenario
 * often fail together, so a run whose decisions name their `cluster` counts
 * clusters instead (docs/method.md, "The unit").
 *
 * Two rules make a cluster a unit, checked by every reader, whatever the
 * unit asked for: a run's decisions name a cluster all or none, and all the
 * decisions of one task (every model, run and trial) name the same one. The
 * first decision that breaks either is refused once every other check of
 * the input has passed, naming its file, line and field, and the line it
 * disagrees with.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { ClusterCheck, resolveUnit } from "./cluster.ts";
 *
 * const check = new ClusterCheck("Cannot load run export a.jsonl", "line");
 * check.add("t1", "doc-1", 1);
 * check.add("t2", "doc-1", 2);
 * assert.equal(resolveUnit(undefined, check.clustered, "a.jsonl"), "cluster");
 * check.add("t1", "doc-2", 3);
 * assert.throws(() => check.finish(), /line 3: cluster "doc-2" of taskId "t1" differs from "doc-1", which line 1 names/);
 * ```
 *
 * @module
 */

import { InputRangeError } from "../input_error.ts";

/**
 * The column whose values group a run's decisions into the independent
 * units of its intervals and tests: `taskId` (a task's trials count once)
 * or `cluster` (a cluster's tasks count once).
 */
export type DecisionUnit = "taskId" | "cluster";

/** The units, as `--cluster` names them for a run of decisions. */
export const DECISION_UNITS: readonly DecisionUnit[] = ["taskId", "cluster"];

/**
 * Read the unit asked for: `taskId` or `cluster`, or nothing (then the unit
 * follows the decisions, see {@linkcode resolveUnit}).
 *
 * @param value The `--cluster` value, or `undefined`.
 * @returns The unit, or `undefined`.
 * @throws {RangeError} For any other value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseUnit } from "./cluster.ts";
 *
 * assert.equal(parseUnit("taskId"), "taskId");
 * assert.equal(parseUnit(undefined), undefined);
 * assert.throws(() => parseUnit("metadata.source"), /--cluster on decisions must be taskId or cluster/);
 * ```
 */
export function parseUnit(value: string | undefined): DecisionUnit | undefined {
  if (value === undefined) return undefined;
  if ((DECISION_UNITS as readonly string[]).includes(value)) {
    return value as DecisionUnit;
  }
  throw new InputRangeError(
    `--cluster on decisions must be taskId or cluster (a metadata path such as metadata.source fills the cluster of imported harness logs), got ${
      JSON.stringify(value)
    }`,
  );
}

/**
 * The unit of a run: the one asked for, else `cluster` when its decisions
 * name one and `taskId` when they do not.
 *
 * @param asked The unit asked for, or `undefined`.
 * @param clustered Whether the run's decisions name a cluster.
 * @param where The run, for the error.
 * @returns The unit.
 * @throws {RangeError} When `cluster` is asked of a run whose decisions name none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveUnit } from "./cluster.ts";
 *
 * assert.equal(resolveUnit(undefined, false, "a.jsonl"), "taskId");
 * assert.equal(resolveUnit("taskId", true, "a.jsonl"), "taskId");
 * assert.throws(() => resolveUnit("cluster", false, "a.jsonl"), /a\.jsonl: no decision names a cluster/);
 * ```
 */
export function resolveUnit(
  asked: DecisionUnit | undefined,
  clustered: boolean,
  where: string,
): DecisionUnit {
  if (asked === "cluster" && !clustered) {
    throw new InputRangeError(
      `${where}: no decision names a cluster, so there is none to count (--cluster cluster); the unit is the task`,
    );
  }
  return asked ?? (clustered ? "cluster" : "taskId");
}

/** A decision as the cluster rules see it: where it is, its task and its cluster. */
export interface ClusterRow {
  /** Where it is, in full (`Cannot load run export a.jsonl: line 7`). */
  readonly at: string;
  /** Its task. */
  readonly taskId: string;
  /** Its cluster, or `null` when it names none. */
  readonly cluster: string | null;
}

/**
 * The error for a decision that breaks a cluster rule against an earlier
 * one: it names no cluster while the earlier one does (or the other way
 * round), or it puts its task in another cluster than the earlier decision
 * of the same task. The one wording of both rules, for every reader.
 *
 * @param row The decision refused.
 * @param earlier Where the decision it disagrees with is, short (`line 1`), and its cluster.
 * @returns The error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusterRuleError } from "./cluster.ts";
 *
 * const e = clusterRuleError({ at: "a.csv: line 4", taskId: "t", cluster: null }, { at: "line 2", cluster: "d" });
 * assert.match(e.message, /^a\.csv: line 4: cluster is missing, but line 2 names one \("d"\)/);
 * ```
 */
export function clusterRuleError(
  row: ClusterRow,
  earlier: { readonly at: string; readonly cluster: string | null },
): InputRangeError {
  const why = row.cluster === null
    ? `cluster is missing, but ${earlier.at} names one (${
      JSON.stringify(earlier.cluster)
    }): a run's decisions name a cluster all or none`
    : earlier.cluster === null
    ? `cluster ${
      JSON.stringify(row.cluster)
    } is named, but ${earlier.at} names none: a run's decisions name a cluster all or none`
    : `cluster ${JSON.stringify(row.cluster)} of taskId ${
      JSON.stringify(row.taskId)
    } differs from ${
      JSON.stringify(earlier.cluster)
    }, which ${earlier.at} names: all the decisions of a task name one cluster`;
  return new InputRangeError(`${row.at}: ${why}`);
}

/**
 * The cluster rules over a run's decisions, given in order: each decision
 * names a cluster if and only if the first one does, and names its task's
 * first cluster. A decision that breaks a rule is kept, not thrown at once:
 * {@linkcode ClusterCheck.finish} throws for the first one, after every
 * other check of the input, so that every reader names the same problem
 * first. Memory: one entry per task, once a decision names a cluster.
 */
export class ClusterCheck {
  readonly #where: string;
  readonly #word: string;
  #first: { at: number | string; cluster: string | null } | null = null;
  readonly #tasks = new Map<string, { at: number | string; cluster: string }>();
  #broken: InputRangeError | null = null;

  /**
   * @param where What is read, as errors begin (`Cannot load run export a.jsonl`).
   * @param word What a numbered place is called (`line`, `row`, `record`).
   */
  constructor(where: string, word: string) {
    this.#where = where;
    this.#word = word;
  }

  /** Whether the decisions given so far name a cluster. */
  get clustered(): boolean {
    return this.#first?.cluster != null;
  }

  /**
   * Check the next decision.
   *
   * @param taskId Its task.
   * @param cluster Its cluster, or `null`/`undefined` when it names none.
   * @param at Its line, row or record number, or where it is in words
   * (`b.jsonl's decision for …`).
   */
  add(
    taskId: string,
    cluster: string | null | undefined,
    at: number | string,
  ): void {
    if (this.#broken !== null) return;
    const c = cluster ?? null;
    const first = this.#first;
    if (first === null) this.#first = { at, cluster: c };
    else if ((first.cluster === null) !== (c === null)) {
      this.#broken = this.#error(taskId, c, at, first);
      return;
    }
    if (c === null) return;
    const seen = this.#tasks.get(taskId);
    if (seen === undefined) this.#tasks.set(taskId, { at, cluster: c });
    else if (seen.cluster !== c) {
      this.#broken = this.#error(taskId, c, at, seen);
    }
  }

  /**
   * Throw for the first decision that broke a rule, if any.
   *
   * @throws {RangeError} As {@linkcode clusterRuleError}.
   */
  finish(): void {
    if (this.#broken !== null) throw this.#broken;
  }

  #error(
    taskId: string,
    cluster: string | null,
    at: number | string,
    earlier: { at: number | string; cluster: string | null },
  ): InputRangeError {
    const place = (a: number | string) =>
      typeof a === "number" ? `${this.#word} ${a}` : a;
    return clusterRuleError(
      { at: `${this.#where}: ${place(at)}`, taskId, cluster },
      { at: place(earlier.at), cluster: earlier.cluster },
    );
  }
}

/** The unit options of the functions that build statistics. */
export interface UnitOptions {
  /**
   * The unit the statistics count (`taskShare`, `taskTrialsSum`): `taskId`
   * or `cluster`. Default: `cluster` when the decisions name one, else
   * `taskId` ({@linkcode resolveUnit}).
   */
  unit?: DecisionUnit;
  /** Told the unit counted: the one asked for, or the one the decisions give. */
  onUnit?: (unit: DecisionUnit) => void;
}
