/**
 * Contamination checks between two task splits: exact overlap by signature,
 * and near duplicates by the similarity of normalised field values.
 *
 * @module
 */

import { taskSignature } from "./signature.ts";
import type { Task } from "./task.ts";

/**
 * The default near-duplicate threshold on the Jaccard similarity of feature
 * sets (see {@linkcode contamination} for why 0.7).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contamination, NEAR_DUPLICATE_THRESHOLD } from "./contamination.ts";
 *
 * assert.equal(contamination([], []).near.threshold, NEAR_DUPLICATE_THRESHOLD);
 * ```
 */
export const NEAR_DUPLICATE_THRESHOLD = 0.7;

function normalValue(v: unknown): string {
  if (typeof v === "string") return v.toUpperCase().replace(/[^A-Z0-9]/g, "");
  return String(v);
}

function collect(path: string, v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) {
    for (const x of v) collect(`${path}[]`, x, out);
  } else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      collect(path === "" ? k : `${path}.${k}`, x, out);
    }
  } else {
    out.add(`${path}=${normalValue(v)}`);
  }
}

/**
 * List a task's normalised features: one `path=value` string per leaf field
 * of its state, prefixed by the domain.
 *
 * Normalisation: strings are upper-cased and stripped of every character
 * other than A-Z and 0-9 (so `"INV-2024-01"`, `"inv 2024 01"` and
 * `"INV202401"` are one value, and `"Acme, Ltd."` equals `"ACME LTD"`);
 * numbers, booleans and null are written as text; array elements share the
 * path `field[]`. The gold answer is not a feature: near duplicates are
 * about the question.
 *
 * @param task The task's domain and state.
 * @returns The distinct features.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { taskFeatures } from "./contamination.ts";
 *
 * const f = taskFeatures({ domain: "settlement", state: { tradeId: "FX-12", confirmation: null } as never });
 * assert.deepEqual(f.sort(), ["settlement:confirmation=null", "settlement:tradeId=FX12"]);
 * ```
 */
export function taskFeatures(task: Pick<Task, "domain" | "state">): string[] {
  const out = new Set<string>();
  collect("", task.state, out);
  return [...out].map((f) => `${task.domain}:${f}`);
}

/** One eval task found in the training split. */
export interface OverlapPair {
  /** The evaluation task's id. */
  evalId: string;
  /** The id of the most similar training task. */
  trainId: string;
  /** Jaccard similarity of their feature sets (1 for an exact match). */
  similarity: number;
}

/** The contamination of an evaluation split by a training split. */
export interface ContaminationReport {
  /** Tasks in the training split. */
  train: number;
  /** Tasks in the evaluation split. */
  eval: number;
  /** Evaluation tasks whose signature occurs in the training split. */
  exact: { count: number; share: number | null; pairs: OverlapPair[] };
  /** Other evaluation tasks with a training task at similarity >= threshold. */
  near: {
    count: number;
    share: number | null;
    threshold: number;
    pairs: OverlapPair[];
  };
}

/** Options of {@linkcode contamination}. */
export interface ContaminationOptions {
  /** Jaccard threshold for a near duplicate, in (0, 1]. Default {@linkcode NEAR_DUPLICATE_THRESHOLD} (0.7). */
  threshold?: number;
}

/**
 * Measure how much of an evaluation split also occurs in a training split.
 *
 * **Exact overlap**: an evaluation task whose signature (recomputed from its
 * content, see `taskSignature`) equals a training task's. Ids and seeds do not
 * matter, so a copied task is found even when renamed.
 *
 * **Near duplicates**: among the rest, an evaluation task with a training
 * task whose feature sets ({@linkcode taskFeatures}) have Jaccard similarity
 * |A ∩ B| / |A ∪ B| >= threshold. The default 0.7 sits well above what
 * independently generated tasks reach (typically below 0.35; the shipped
 * suites' maximum is pinned in a test) and below what a copy with one or two
 * fields changed keeps (a 20-feature task with 2 fields changed keeps
 * 18/22 = 0.82). Candidates are found by prefix filtering (Chaudhuri et al.,
 * 2006): with features ordered rarest first, two sets with similarity >= t
 * share a feature among the first |A| - ceil(t |A|) + 1 of each, so only
 * pairs sharing a rare feature are compared. The result is exact, not
 * approximate.
 *
 * @param train The training split.
 * @param evalTasks The evaluation split.
 * @param options The threshold.
 * @returns Counts, shares (null for an empty evaluation split) and pairs.
 * @throws {RangeError} When the threshold is not in (0, 1].
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contamination } from "./contamination.ts";
 * import { generateSuite } from "./generate.ts";
 *
 * const evalTasks = generateSuite("reconciliation", { seed: 1, n: 20 }).tasks;
 * const train = generateSuite("reconciliation", { seed: 2, n: 50 }).tasks;
 * assert.equal(contamination(train, evalTasks).exact.count, 0);
 * const leaked = [...train, { ...evalTasks[3], id: "copy" }];
 * assert.equal(contamination(leaked, evalTasks).exact.pairs[0].evalId, evalTasks[3].id);
 * ```
 */
export function contamination(
  train: readonly Task[],
  evalTasks: readonly Task[],
  options: ContaminationOptions = {},
): ContaminationReport {
  const t = options.threshold ?? NEAR_DUPLICATE_THRESHOLD;
  if (!(t > 0 && t <= 1)) {
    throw new RangeError(
      `Cannot check contamination: threshold must be in (0, 1], got ${t}`,
    );
  }
  const bySignature = new Map<string, string>();
  for (const x of train) {
    const s = taskSignature(x);
    if (!bySignature.has(s)) bySignature.set(s, x.id);
  }
  const exactPairs: OverlapPair[] = [];
  const rest: Task[] = [];
  for (const e of evalTasks) {
    const hit = bySignature.get(taskSignature(e));
    if (hit !== undefined) {
      exactPairs.push({ evalId: e.id, trainId: hit, similarity: 1 });
    } else rest.push(e);
  }
  const nearPairs = nearPairsOf(train, rest, t);
  const share = (k: number) =>
    evalTasks.length === 0 ? null : k / evalTasks.length;
  return {
    train: train.length,
    eval: evalTasks.length,
    exact: {
      count: exactPairs.length,
      share: share(exactPairs.length),
      pairs: exactPairs,
    },
    near: {
      count: nearPairs.length,
      share: share(nearPairs.length),
      threshold: t,
      pairs: nearPairs,
    },
  };
}

function nearPairsOf(
  train: readonly Task[],
  evalTasks: readonly Task[],
  t: number,
): OverlapPair[] {
  const ids = new Map<string, number>();
  const freq: number[] = [];
  const encode = (task: Task): number[] => {
    const out: number[] = [];
    for (const f of taskFeatures(task)) {
      let k = ids.get(f);
      if (k === undefined) {
        k = freq.length;
        ids.set(f, k);
        freq.push(0);
      }
      freq[k]++;
      out.push(k);
    }
    return out;
  };
  const trainSets = train.map(encode);
  const evalSets = evalTasks.map(encode);
  const order = (a: number, b: number) => freq[a] - freq[b] || a - b;
  for (const s of trainSets) s.sort(order);
  for (const s of evalSets) s.sort(order);
  const prefix = (n: number) => n - Math.ceil(t * n - 1e-9) + 1;
  const index = new Map<number, number[]>();
  trainSets.forEach((s, i) => {
    for (let j = 0; j < Math.min(s.length, prefix(s.length)); j++) {
      const list = index.get(s[j]);
      if (list === undefined) index.set(s[j], [i]);
      else list.push(i);
    }
  });
  const pairs: OverlapPair[] = [];
  evalSets.forEach((e, i) => {
    const seen = new Set<number>();
    const eSet = new Set(e);
    let best: OverlapPair | null = null;
    for (let j = 0; j < Math.min(e.length, prefix(e.length)); j++) {
      for (const c of index.get(e[j]) ?? []) {
        if (seen.has(c)) continue;
        seen.add(c);
        const s = trainSets[c];
        let shared = 0;
        for (const f of s) if (eSet.has(f)) shared++;
        const sim = shared / (s.length + e.length - shared);
        if (sim >= t && (best === null || sim > best.similarity)) {
          best = {
            evalId: evalTasks[i].id,
            trainId: train[c].id,
            similarity: sim,
          };
        }
      }
    }
    if (best !== null) pairs.push(best);
  });
  return pairs;
}

/**
 * The highest similarity between any evaluation task and any training task,
 * by brute force; a calibration aid for the threshold. Cost is
 * O(|train| x |eval|) set comparisons.
 *
 * @param train The training split.
 * @param evalTasks The evaluation split.
 * @returns The maximum Jaccard similarity, 0 when a split is empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { maxSimilarity } from "./contamination.ts";
 * import { generateSuite } from "./generate.ts";
 *
 * const a = generateSuite("settlement", { seed: 1, n: 20 }).tasks;
 * const b = generateSuite("settlement", { seed: 2, n: 20 }).tasks;
 * assert.ok(maxSimilarity(a, b) < 0.7);
 * assert.equal(maxSimilarity(a, a), 1);
 * ```
 */
export function maxSimilarity(
  train: readonly Task[],
  evalTasks: readonly Task[],
): number {
  const sets = (ts: readonly Task[]) => ts.map((x) => new Set(taskFeatures(x)));
  const a = sets(train);
  const b = sets(evalTasks);
  let best = 0;
  for (const x of b) {
    for (const y of a) {
      let shared = 0;
      for (const f of x) if (y.has(f)) shared++;
      const sim = shared / (x.size + y.size - shared);
      if (sim > best) best = sim;
    }
  }
  return best;
}
