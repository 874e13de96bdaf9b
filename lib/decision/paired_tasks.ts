/**
 * Task-level pairing of two models: the unit of a paired loss test when
 * tasks have several trials (epochs, repeated runs, samples).
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { Severity } from "../costs/severity.ts";
import type {
  PairedTaskGroup,
  TrialCount,
} from "../metrics/paired_loss_test.ts";
import type { Action } from "../metrics/sufficient_stats.ts";
import { byOrderThenKey, tupleKey } from "../_tuple_key.ts";
import type { DecisionUnit } from "./cluster.ts";

/** Paired task groups, and the tasks only one model answered. */
export interface PairedTasks {
  /** Groups of tasks with the same severity, gold class and trials on each side, in canonical order. */
  readonly groups: PairedTaskGroup[];
  /** Tasks both models answered. */
  readonly tasks: number;
  /** Tasks only model A answered. */
  readonly onlyA: number;
  /** Tasks only model B answered. */
  readonly onlyB: number;
  /**
   * With the cluster as the unit: the clusters of the paired tasks, each
   * the indices into `groups` of its tasks (one entry per task), in the
   * order of the clusters' ids. Absent when the unit is the task.
   */
  readonly units?: number[][];
}

/** Options for {@linkcode pairedTasks}. */
export interface PairedTasksOptions {
  /**
   * The unit of the pairing's tests: `taskId` (each paired task its own)
   * or `cluster` (the tasks of a cluster together, `units`). Default:
   * `taskId`.
   */
  unit?: DecisionUnit;
}

interface Side {
  severity: Severity;
  trueClass: string;
  cluster: string | null;
  trials: Map<string, TrialCount>;
  kinds: Map<string, ItemTrials>;
}

function key(t: readonly TrialCount[]): string {
  return tupleKey(t.flatMap((x) => [x.predClass, x.action, x.n]));
}

// The order of a group: its parts joined as the keys once were (the seeded
// resampling depends on the order of the groups).
function orderKey(t: readonly TrialCount[]): string {
  return t.map((x) => `${x.predClass}\u0001${x.action}\u0001${x.n}`).join(
    "\u0002",
  );
}

/** One side's trials of a task that share a predicted class, an action and a parse result. */
export interface ItemTrials extends TrialCount {
  /** Whether the output parsed. */
  readonly parseOk: boolean;
}

// Every decision of models a and b, by side and task: the (predicted class,
// action) counts, and with `parse` the (predicted class, action, parse
// result) counts too. A task's decisions must agree on severity, gold
// class and cluster across both sides.
function pairSides(
  table: ColumnTable,
  a: string,
  b: string,
  parse: boolean,
): [Map<string, Side>, Map<string, Side>] {
  if (a === b) {
    throw new RangeError(
      `Cannot pair a model with itself: both ids are ${JSON.stringify(a)}`,
    );
  }
  const model = table.array("modelId") as ArrayLike<string>;
  const task = table.array("taskId") as ArrayLike<string>;
  const sev = table.array("severity") as ArrayLike<Severity>;
  const gold = table.array("trueClass") as ArrayLike<string>;
  const pred = table.array("predClass") as ArrayLike<string>;
  const action = table.array("action") as ArrayLike<Action>;
  const clusters = table.columnNames().includes("cluster")
    ? table.array("cluster") as ArrayLike<string | null>
    : null;
  const parsed = parse ? table.array("parseOk") as ArrayLike<boolean> : null;
  const sides: [Map<string, Side>, Map<string, Side>] = [new Map(), new Map()];
  const first = new Map<string, [Severity, string, string | null]>();
  for (let i = 0; i < model.length; i++) {
    const mine = model[i] === a ? sides[0] : model[i] === b ? sides[1] : null;
    if (mine === null) continue;
    const t = task[i];
    const c = clusters?.[i] ?? null;
    const seen = first.get(t);
    if (seen === undefined) first.set(t, [sev[i], gold[i], c]);
    else if (seen[0] !== sev[i] || seen[1] !== gold[i] || seen[2] !== c) {
      const show = (s: Severity, g: string, k: string | null) =>
        `${s}/${g}${k === null ? "" : ` in cluster ${JSON.stringify(k)}`}`;
      throw new RangeError(
        `Cannot pair models on task ${
          JSON.stringify(t)
        }: its decisions disagree, ${show(...seen)} and ${
          show(sev[i], gold[i], c)
        } (${model[i]})`,
      );
    }
    let side = mine.get(t);
    if (side === undefined) {
      mine.set(
        t,
        side = {
          severity: sev[i],
          trueClass: gold[i],
          cluster: c,
          trials: new Map(),
          kinds: new Map(),
        },
      );
    }
    const k = `${pred[i]}\u0001${action[i]}`;
    const prev = side.trials.get(k);
    side.trials.set(k, {
      predClass: pred[i],
      action: action[i],
      n: (prev?.n ?? 0) + 1,
    });
    if (parsed !== null) {
      const ok = Boolean(parsed[i]);
      const kk = `${k}\u0001${ok}`;
      const before = side.kinds.get(kk);
      side.kinds.set(kk, {
        predClass: pred[i],
        action: action[i],
        parseOk: ok,
        n: (before?.n ?? 0) + 1,
      });
    }
  }
  for (const [id, s] of [[a, 0], [b, 1]] as const) {
    if (sides[s].size === 0) {
      throw new RangeError(
        `Cannot pair models: no decisions of model ${JSON.stringify(id)}`,
      );
    }
  }
  return sides;
}

// Trials in canonical order: predicted class, action, then (items) parsed
// before unparsed.
function byTrial<T extends TrialCount & { parseOk?: boolean }>(
  m: Map<string, T>,
): T[] {
  return [...m.values()].sort((x, y) =>
    x.predClass < y.predClass
      ? -1
      : x.predClass > y.predClass
      ? 1
      : x.action < y.action
      ? -1
      : x.action > y.action
      ? 1
      : Number(y.parseOk ?? false) - Number(x.parseOk ?? false)
  );
}

/** A task both models answered on which their decisions differ. */
export interface PairedItem {
  /** The task. */
  readonly taskId: string;
  /** Its severity. */
  readonly severity: Severity;
  /** Its gold class. */
  readonly trueClass: string;
  /** Model A's trials, by predicted class, action and parse result. */
  readonly a: readonly ItemTrials[];
  /** Model B's trials, likewise. */
  readonly b: readonly ItemTrials[];
}

/**
 * The tasks both models answered on which their decisions differ: in
 * predicted class, action or parse result, as multisets of a task's trials
 * on each side (two trials answered X then Y on one side and Y then X on
 * the other do not differ). Every task whose cost differs between the two
 * sides under some profile is among them, since a task's cost is a function
 * of those multisets. In task order of model A's decisions.
 *
 * @param table A decision table.
 * @param a Model A's id.
 * @param b Model B's id.
 * @returns One item per such task.
 * @throws {RangeError} As {@linkcode pairedTasks}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionTable } from "../read/load_decisions.ts";
 * import { pairedTaskItems } from "./paired_tasks.ts";
 *
 * const d = {
 *   runId: "r", severity: "HIGH", trueClass: "X", parseOk: true, pCorrect: null, trial: 0,
 *   action: "auto", cost: { completeness: "unavailable", usd: null }, outcome: "resolved",
 * } as const;
 * const items = pairedTaskItems(decisionTable([
 *   { ...d, modelId: "a", taskId: "t1", predClass: "X" },
 *   { ...d, modelId: "a", taskId: "t2", predClass: "X" },
 *   { ...d, modelId: "b", taskId: "t1", predClass: "X" },
 *   { ...d, modelId: "b", taskId: "t2", predClass: "MATCH" },
 * ]), "a", "b");
 * assert.deepEqual(items.map((i) => [i.taskId, i.b[0].predClass]), [["t2", "MATCH"]]);
 * ```
 */
export function pairedTaskItems(
  table: ColumnTable,
  a: string,
  b: string,
): PairedItem[] {
  const [sa, sb] = pairSides(table, a, b, true);
  const items: PairedItem[] = [];
  for (const [t, x] of sa) {
    const y = sb.get(t);
    if (y === undefined) continue;
    const ka = byTrial(x.kinds);
    const kb = byTrial(y.kinds);
    const same = ka.length === kb.length &&
      ka.every((k, i) =>
        k.predClass === kb[i].predClass && k.action === kb[i].action &&
        k.parseOk === kb[i].parseOk && k.n === kb[i].n
      );
    if (same) continue;
    items.push({
      taskId: t,
      severity: x.severity,
      trueClass: x.trueClass,
      a: ka,
      b: kb,
    });
  }
  return items;
}

/**
 * Pair two models by task (every trial and run of a task on each side) and
 * group the paired tasks.
 *
 * A task's trials on one side become a multiset of (predicted class,
 * action); tasks with the same severity, gold class and multisets on both
 * sides form one group. With one trial per task the groups are the paired
 * cells of `pairedStats`. Every decision of a task, on both sides, must
 * agree on its severity, gold class and cluster. With the cluster as the
 * unit, `units` holds each cluster's tasks by their groups, so that a test
 * can take a cluster's tasks together. Cost is O(n).
 *
 * @param table A decision table.
 * @param a Model A's id.
 * @param b Model B's id.
 * @param options The unit (default: the task).
 * @returns The groups, the unpaired task counts and, by cluster, the units.
 * @throws {RangeError} When the ids are equal, a model is absent, or a task's decisions disagree on severity, gold class or cluster, or the unit is the cluster and a paired task names none.
 *
 * @example Two epochs of model a beside one of model b
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionTable } from "../read/load_decisions.ts";
 * import { pairedTasks } from "./paired_tasks.ts";
 *
 * const d = {
 *   runId: "r", taskId: "t1", severity: "HIGH", trueClass: "X", parseOk: true, pCorrect: null,
 *   action: "auto", cost: { completeness: "unavailable", usd: null }, outcome: "resolved",
 * } as const;
 * const p = pairedTasks(decisionTable([
 *   { ...d, modelId: "a", trial: 0, predClass: "X" },
 *   { ...d, modelId: "a", trial: 1, predClass: "MATCH" },
 *   { ...d, modelId: "b", trial: 0, predClass: "X" },
 * ]), "a", "b");
 * assert.equal(p.tasks, 1);
 * assert.deepEqual(p.groups[0].a.map((t) => [t.predClass, t.n]), [["MATCH", 1], ["X", 1]]);
 * ```
 */
export function pairedTasks(
  table: ColumnTable,
  a: string,
  b: string,
  options: PairedTasksOptions = {},
): PairedTasks {
  const sides = pairSides(table, a, b, false);
  const groups = new Map<string, PairedTaskGroup>();
  const order = new Map<string, string>();
  // with the cluster as the unit: each cluster's tasks, by group key
  const byCluster = options.unit === "cluster"
    ? new Map<string, string[]>()
    : null;
  let tasks = 0;
  for (const [t, sa] of sides[0]) {
    const sb = sides[1].get(t);
    if (sb === undefined) continue;
    tasks++;
    const ta = byTrial(sa.trials);
    const tb = byTrial(sb.trials);
    const k = tupleKey([sa.severity, sa.trueClass, key(ta), key(tb)]);
    if (byCluster !== null) {
      if (sa.cluster === null) {
        throw new RangeError(
          `Cannot pair models by cluster: task ${
            JSON.stringify(t)
          } names no cluster`,
        );
      }
      const members = byCluster.get(sa.cluster);
      if (members === undefined) byCluster.set(sa.cluster, [k]);
      else members.push(k);
    }
    if (!order.has(k)) {
      order.set(
        k,
        [sa.severity, sa.trueClass, orderKey(ta), orderKey(tb)].join("\u0000"),
      );
    }
    const prev = groups.get(k);
    groups.set(k, {
      severity: sa.severity,
      trueClass: sa.trueClass,
      a: ta,
      b: tb,
      tasks: (prev?.tasks ?? 0) + 1,
    });
  }
  const sorted = [...groups.entries()].sort(([x], [y]) =>
    byOrderThenKey(order.get(x)!, x, order.get(y)!, y)
  );
  const index = new Map(sorted.map(([k], i) => [k, i]));
  const units = byCluster === null ? undefined : [...byCluster.entries()]
    .sort(([x], [y]) => x < y ? -1 : x > y ? 1 : 0)
    .map(([, members]) => members.map((k) => index.get(k)!));
  return {
    groups: sorted.map(([, g]) => g),
    tasks,
    onlyA: sides[0].size - tasks,
    onlyB: sides[1].size - tasks,
    ...(units === undefined ? {} : { units }),
  };
}
