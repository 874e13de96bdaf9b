/**
 * Counterfactual replay: re-score a recorded period under another
 * escalation threshold, per-severity thresholds, cost profile or routing
 * choice, deterministically and without calling any model.
 *
 * Everything a replay needs is in the ledger: each answer's risk, the
 * answers of shadow models, and the labels that decision records and reviews
 * established. A case whose counterfactual outcome was never observed — its
 * routed model gave no recorded answer, or it would now be acted on
 * automatically but nobody ever learned whether the answer was right — is
 * counted as unevaluable and left out of both sides of the comparison. It is
 * never guessed. Replay takes columns (see columns.ts), not a model client:
 * there is nothing it could call.
 *
 * @module
 */

import { getProfile } from "../costs/load.ts";
import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { type PairedComparison, quantileSorted } from "../metrics/bootstrap.ts";
import { _costCellDraws, type CostCell } from "../metrics/_cost_cell_draws.ts";
import {
  CONSEQUENCE_MATRIX,
  costIfWrong,
  type CostMatrix,
  ruleCost,
} from "../metrics/loss.ts";
import { multinomial, seededPrng, seedFor } from "../math/sampling.ts";
import { type Bounds, fayFeuerInterval } from "../metrics/fay_feuer.ts";
import { signFlipTest } from "../metrics/sign_flip.ts";
import { type DecisionUnit, resolveUnit } from "../decision/cluster.ts";
import {
  type Action,
  type Outcome,
  outcomeOf,
} from "../metrics/sufficient_stats.ts";
import { answerCosts } from "./_answer_costs.ts";
import type { LedgerColumns } from "./columns.ts";
import {
  chowThresholds,
  profileRef,
  type SeverityThresholds,
  severityThresholds,
} from "./policy.ts";

/** The counterfactual policy of a replay. */
export interface ReplayPolicy {
  /**
   * When to escalate: `"recorded"` keeps each answer's recorded action; a
   * number escalates every answer whose risk is above it; a per-severity map
   * does so per severity; `"chow"` uses Chow's rule under the replay's
   * profile and cost matrix (escalate when risk × cost if wrong > review
   * cost, the cost if wrong following from the answer's prediction through
   * the matrix). Default: `"recorded"`.
   */
  threshold?: "recorded" | "chow" | number | Readonly<Record<Severity, number>>;
  /**
   * Which answer to act on: `"recorded"` the served one; a model id, that
   * model's recorded answer for every case; a per-severity map, that model's
   * answer for the severities it names and the served one elsewhere.
   * Default: `"recorded"`.
   */
  route?: "recorded" | string | Readonly<Partial<Record<Severity, string>>>;
  /** What a threshold does with an answer that states no risk. Default: `"escalate"`. */
  missingRisk?: "escalate" | "auto";
}

/** Options for {@linkcode replay}. */
export interface ReplayOptions {
  /** Profile that prices both sides. Default: the shipped `reconciliation`. */
  profile?: CostProfile;
  /** Cost matrix. Default: {@linkcode CONSEQUENCE_MATRIX}. */
  matrix?: CostMatrix;
  /**
   * Posterior draws of the interval, and sign assignments of the test (or
   * bootstrap resamples under `interval: "bootstrap"`). Default: 1,000.
   */
  resamples?: number;
  /** Confidence level of the interval. Default: 0.95. */
  level?: number;
  /** Seed of the draws. Default: 0. */
  seed?: number;
  /**
   * Method of the paired difference. `"auto"` models the changed cases
   * per cell (severity, gold class, models and actions), every possible
   * outcome included: a Fay–Feuer gamma interval where one side's cost is
   * fixed (an escalation), Jeffreys–Dirichlet posterior draws where both
   * vary, Bonferroni across the parts; its p-value is a sign-flip
   * permutation test on the per-case differences. `"bootstrap"` is the
   * paired percentile bootstrap over cases of earlier versions, which cannot
   * see a costly outcome that no changed case showed. Default: `"auto"`.
   */
  interval?: "auto" | "bootstrap";
  /** Include the per-case diff. Default: `true`. */
  diff?: boolean;
  /**
   * The unit of the default interval and test: `taskId`, where each case
   * (a task's trial) counts alone, as before clusters existed, or
   * `cluster`, where a cluster's changed cases count as one unit's
   * evidence and their differences flip together. Default: `cluster` when
   * the ledger's decisions name one, else `taskId`.
   */
  unit?: DecisionUnit;
}

/** The estimand of replay's paired interval, as its JSON states it. */
export const REPLAY_DIFFERENCE_ESTIMAND =
  "expected loss of the replayed minus the recorded policy on the evaluable cases, conditional on which cases change and on their severities, gold classes, models and actions, under the profile and the cost matrix";

/**
 * The paired difference of a replay: the keys of a paired bootstrap
 * comparison, plus the interval's id, the test and the estimand.
 */
export interface ReplayDifference extends Omit<PairedComparison, "method"> {
  /** How the interval was computed, in words. */
  readonly method: string;
  /** The method's id, as `--interval` takes it: `"auto"` or `"bootstrap"`. */
  readonly interval: "auto" | "bootstrap";
  /** The test behind `pValue`. */
  readonly test: string;
  /** What the interval is for. */
  readonly estimand: string;
}

/** One side of a replay, over the cases evaluable on both sides. */
export interface ReplaySide {
  /** Decisions acted on automatically. */
  readonly auto: number;
  /** Decisions escalated to review. */
  readonly reviews: number;
  /** Automatic decisions whose answer was wrong. */
  readonly autoErrors: number;
  /** Loss of automatic decisions under the matrix. */
  readonly autoLoss: number;
  /** Loss of escalated decisions (the review cost, under the shipped matrices). */
  readonly reviewLoss: number;
  /** `autoLoss + reviewLoss`. */
  readonly loss: number;
  /** Model spend of the answers used, summed over complete costs (USD). */
  readonly modelUsd: number;
  /** Answers used whose model cost is not complete, left out of `modelUsd`. */
  readonly modelUsdIncomplete: number;
}

/** Cases left out of the comparison, by first reason. */
export interface Unevaluable {
  /** All cases left out. */
  readonly cases: number;
  /** No answer was served in the recorded period. */
  readonly noServedAnswer: number;
  /** The routed model has no recorded answer for the case. */
  readonly noRoutedAnswer: number;
  /** The outcome that one side needs was never observed. */
  readonly outcomeUnknown: number;
}

/** One case whose answer, action or cost changes. */
export interface ReplayDiffRow {
  /** The case's task. */
  readonly taskId: string;
  /** The case's trial. */
  readonly trial: number;
  /** The case's severity. */
  readonly severity: Severity;
  /** Id of the decision record served as recorded, `null` when none was. */
  readonly decisionBefore: string | null;
  /** Id of the decision record the replayed policy serves, `null` when none. */
  readonly decisionAfter: string | null;
  /** Model of the answer served as recorded, `null` when none was. */
  readonly modelBefore: string | null;
  /** Model of the answer the replayed policy serves, `null` when none. */
  readonly modelAfter: string | null;
  /** The action recorded, `null` when no answer was served. */
  readonly actionBefore: Action | null;
  /** The action under the replayed policy, `null` when no answer is served. */
  readonly actionAfter: Action | null;
  /** Cost before, `null` when unknown. */
  readonly costBefore: number | null;
  /** Cost after, `null` when unknown. */
  readonly costAfter: number | null;
  /** The case's cluster, when the unit is the cluster; absent otherwise. */
  readonly cluster?: string;
}

/** What a replay found. */
export interface ReplayResult {
  /** The counterfactual policy, as resolved. */
  readonly policy: {
    readonly threshold: "recorded" | SeverityThresholds;
    readonly route: "recorded" | Readonly<Partial<Record<Severity, string>>>;
    readonly missingRisk: "escalate" | "auto";
    /**
     * Under `"chow"`, the thresholds of answers that predicted an exception
     * (`threshold` then holds those of answers that predicted clean);
     * otherwise `null`.
     */
    readonly thresholdIfFlagged?: SeverityThresholds | null;
  };
  /** Profile pricing both sides (`id@version`). */
  readonly profile: string;
  /** Cost matrix id. */
  readonly matrix: string;
  /** Cases in the ledger. */
  readonly cases: number;
  /** Cases evaluable on both sides: the denominator of `before` and `after`. */
  readonly evaluable: number;
  /** Cases left out, by reason. */
  readonly unevaluable: Unevaluable;
  /** Escalations over every case with an answer, labelled or not. */
  readonly reviewLoad: { readonly before: number; readonly after: number };
  /** The recorded period. */
  readonly before: ReplaySide;
  /** The counterfactual. */
  readonly after: ReplaySide;
  /** after − before loss, with its interval and paired test. */
  readonly difference: ReplayDifference;
  /** How many cases change. */
  readonly changed: {
    readonly cases: number;
    readonly autoToEscalate: number;
    readonly escalateToAuto: number;
    readonly rerouted: number;
  };
  /** The changed cases, in ledger order (empty when `diff` is false). */
  readonly diff: readonly ReplayDiffRow[];
  /**
   * `"cluster"` when the interval and test count the clusters the
   * ledger's decisions name; absent when each case counts alone.
   */
  readonly unit?: "cluster";
  /**
   * Clusters of the evaluable cases, the units of the test, when the unit is
   * the cluster (one whose cases do not change adds a difference of 0).
   */
  readonly clusters?: number;
}

interface Resolved {
  threshold: "recorded" | SeverityThresholds;
  /** Under chow: the threshold per (class code × 4 + severity code); else null. */
  chow: Float64Array | null;
  thresholdIfFlagged: SeverityThresholds | null;
  route: "recorded" | Readonly<Partial<Record<Severity, string>>>;
  missingRisk: "escalate" | "auto";
  /** Per case, the answer used after; -1 when none. */
  chosen: Int32Array;
}

function resolvePolicy(
  cols: LedgerColumns,
  policy: ReplayPolicy,
  profile: CostProfile,
  matrix: CostMatrix,
): Resolved {
  const t = policy.threshold ?? "recorded";
  const threshold = t === "recorded"
    ? "recorded"
    : t === "chow"
    ? chowThresholds(profile, { matrix })
    : severityThresholds(t);
  let chow: Float64Array | null = null;
  if (t === "chow") {
    chow = new Float64Array(cols.classes.length * SEVERITIES.length);
    cols.classes.forEach((name, c) => {
      SEVERITIES.forEach((s, k) => {
        // class code 0 is the clean class
        const wrong = costIfWrong(name, s, {
          profile,
          matrix,
          cleanClass: cols.classes[0],
        });
        chow![c * SEVERITIES.length + k] = wrong <= 0
          ? 1
          : Math.min(1, profile.reviewCost / wrong);
      });
    });
  }
  const r = policy.route ?? "recorded";
  const route = r === "recorded"
    ? "recorded"
    : typeof r === "string"
    ? Object.fromEntries(SEVERITIES.map((s) => [s, r]))
    : { ...r };
  const chosen = Int32Array.from(cols.caseServed);
  if (route !== "recorded") {
    const bySev = SEVERITIES.map((s) => {
      const m = (route as Record<string, string | undefined>)[s];
      if (m === undefined) return -2;
      const code = cols.models.indexOf(m);
      return code; // -1: a model with no recorded answers at all
    });
    for (const m of Object.values(route)) {
      if (m !== undefined && typeof m !== "string") {
        throw new TypeError(
          `Cannot replay: route must name model ids, got ${JSON.stringify(m)}`,
        );
      }
    }
    const need = bySev.some((c) => c !== -2);
    if (need) {
      chosen.fill(-1);
      for (let c = 0; c < cols.cases; c++) {
        if (bySev[cols.caseSeverity[c]] === -2) chosen[c] = cols.caseServed[c];
      }
      for (let j = 0; j < cols.answers; j++) {
        const c = cols.answerCase[j];
        if (cols.answerModel[j] === bySev[cols.caseSeverity[c]]) chosen[c] = j;
      }
    }
  }
  return {
    threshold,
    chow,
    thresholdIfFlagged: t === "chow"
      ? chowThresholds(profile, { matrix, predicted: "exception" })
      : null,
    route,
    missingRisk: policy.missingRisk ?? "escalate",
    chosen,
  };
}

function actionOf(
  cols: LedgerColumns,
  p: Resolved,
  j: number,
): number {
  if (p.threshold === "recorded") return cols.answerAction[j];
  const r = cols.answerRisk[j];
  if (Number.isNaN(r)) return p.missingRisk === "escalate" ? 1 : 0;
  const sev = cols.caseSeverity[cols.answerCase[j]];
  if (p.chow !== null) {
    return r > p.chow[cols.answerPred[j] * SEVERITIES.length + sev] ? 1 : 0;
  }
  return r > p.threshold[SEVERITIES[sev]] ? 1 : 0;
}

function emptySide() {
  return {
    auto: 0,
    reviews: 0,
    autoErrors: 0,
    autoLoss: 0,
    reviewLoss: 0,
    loss: 0,
    modelUsd: 0,
    modelUsdIncomplete: 0,
  };
}

/**
 * Replay a recorded period under a counterfactual policy.
 *
 * Both sides are priced with one profile and one matrix, over the same
 * cases: those evaluable before and after. The difference after − before is
 * paired: only cases whose answer or action changes can differ, and by
 * default its interval models them per cell (severity, gold class, models and
 * actions), every possible outcome included, so a costly outcome that no
 * changed case showed still widens it: a Fay–Feuer gamma interval where one
 * side's cost is fixed (an escalation), Jeffreys–Dirichlet draws where both
 * vary, Bonferroni across the parts (see `docs/method.md`, "Replay's paired
 * difference"); its p-value is a sign-flip permutation test on the per-case
 * differences. `interval: "bootstrap"` keeps the paired percentile bootstrap
 * over cases of earlier versions. Cost is O(answers + cases) plus
 * O(strata × kinds × resamples); the result depends only on the ledger, the
 * policy and the options, so the same inputs give byte-identical JSON.
 *
 * @param cols The ledger in columns.
 * @param policy The counterfactual threshold, routing and missing-risk rule.
 * @param options Profile, matrix, interval method, draws, level, seed and whether to list the diff.
 * @returns Before, after, the paired difference, what changed and what could not be evaluated.
 * @throws {RangeError} When a threshold is outside [0, 1].
 *
 * @example A lower threshold escalates the risky answer; its review cost replaces a miss
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerText } from "./chain.ts";
 * import { ledgerColumns } from "./columns.ts";
 * import { replay } from "./replay.ts";
 *
 * const decision = (id: string, pred: string, risk: number) => ({
 *   kind: "decision", id, at: "2026-03-01T09:00:00Z", risk, expectedLoss: null, profile: null,
 *   policyRevision: null, modelRevision: null, promptHash: null, served: true,
 *   decision: { runId: "r", modelId: "m", taskId: id, trial: 0, severity: "HIGH",
 *     trueClass: "AMOUNT_MISMATCH", predClass: pred, parseOk: true, pCorrect: 1 - risk,
 *     action: "auto", cost: { completeness: "complete", usd: 0.01 }, outcome: "resolved" },
 * } as const);
 * const cols = ledgerColumns(ledgerText([
 *   decision("t1", "MATCH", 0.4), decision("t2", "AMOUNT_MISMATCH", 0.05),
 * ]).entries);
 * const r = replay(cols, { threshold: 0.3 });
 * // reconciliation: a HIGH miss costs 10, a review 1
 * assert.deepEqual([r.before.loss, r.after.loss, r.after.reviews], [10, 1, 1]);
 * assert.equal(r.difference.estimate, -9);
 * assert.equal(r.diff.length, 1);
 * ```
 */
export function replay(
  cols: LedgerColumns,
  policy: ReplayPolicy,
  options: ReplayOptions = {},
): ReplayResult {
  const profile = options.profile ?? getProfile("reconciliation");
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const wantDiff = options.diff ?? true;
  const p = resolvePolicy(cols, policy, profile, matrix);
  const costs = answerCosts(cols, profile, matrix);
  const before = emptySide();
  const after = emptySide();
  const unevaluable = {
    cases: 0,
    noServedAnswer: 0,
    noRoutedAnswer: 0,
    outcomeUnknown: 0,
  };
  const reviewLoad = { before: 0, after: 0 };
  const changed = {
    cases: 0,
    autoToEscalate: 0,
    escalateToAuto: 0,
    rerouted: 0,
  };
  const diff: ReplayDiffRow[] = [];
  // paired cells keyed by the codes of (cost before, cost after)
  const costCode = new Map<number, number>();
  const costValues: number[] = [];
  const codeOf = (v: number) => {
    let k = costCode.get(v);
    if (k === undefined) {
      k = costValues.length;
      costValues.push(v);
      costCode.set(v, k);
    }
    return k;
  };
  const cells = new Map<number, number>();
  // changed cases by (severity, gold class, models, actions, same answer)
  const strata = new Map<string, Stratum>();
  const unit = resolveUnit(
    options.unit,
    cols.caseCluster.some((c) => c !== null),
    `Cannot replay ledger ${cols.path}`,
  );
  // with the cluster as the unit: each changed evaluable case, its stratum
  // and costs, for the shares of its cluster; and each cluster's difference
  const changedCases: { st: Stratum; c0: number; c1: number; k: string }[] = [];
  const clusterDelta = new Map<string, number>();
  const add = (
    side: ReturnType<typeof emptySide>,
    j: number,
    action: number,
    cost: number,
  ) => {
    if (action === 1) {
      side.reviews++;
      side.reviewLoss += cost;
    } else {
      side.auto++;
      side.autoLoss += cost;
      if (costs.wrong[j] === 1) side.autoErrors++;
    }
    side.loss += cost;
    const usd = cols.answerUsd[j];
    if (Number.isNaN(usd)) side.modelUsdIncomplete++;
    else side.modelUsd += usd;
  };
  for (let c = 0; c < cols.cases; c++) {
    const j0 = cols.caseServed[c];
    const j1 = p.chosen[c];
    const a0 = j0 < 0 ? -1 : cols.answerAction[j0];
    const a1 = j1 < 0 ? -1 : actionOf(cols, p, j1);
    if (a0 === 1) reviewLoad.before++;
    if (a1 === 1) reviewLoad.after++;
    const c0 = j0 < 0 ? NaN : a0 === 1 ? costs.escalate[j0] : costs.auto[j0];
    const c1 = j1 < 0 ? NaN : a1 === 1 ? costs.escalate[j1] : costs.auto[j1];
    const isChanged = j0 !== j1 || a0 !== a1;
    if (isChanged) {
      changed.cases++;
      if (j0 !== j1) changed.rerouted++;
      if (a0 === 0 && a1 === 1) changed.autoToEscalate++;
      if (a0 === 1 && a1 === 0) changed.escalateToAuto++;
      if (wantDiff) {
        diff.push({
          taskId: cols.caseTask[c],
          trial: cols.caseTrial[c],
          severity: SEVERITIES[cols.caseSeverity[c]],
          decisionBefore: j0 < 0 ? null : cols.answerId[j0],
          decisionAfter: j1 < 0 ? null : cols.answerId[j1],
          modelBefore: j0 < 0 ? null : cols.models[cols.answerModel[j0]],
          modelAfter: j1 < 0 ? null : cols.models[cols.answerModel[j1]],
          actionBefore: a0 < 0 ? null : a0 === 1 ? "escalate" : "auto",
          actionAfter: a1 < 0 ? null : a1 === 1 ? "escalate" : "auto",
          costBefore: Number.isNaN(c0) ? null : c0,
          costAfter: Number.isNaN(c1) ? null : c1,
          ...(unit === "cluster" ? { cluster: cols.caseCluster[c]! } : {}),
        });
      }
    }
    if (j0 < 0 || j1 < 0 || Number.isNaN(c0) || Number.isNaN(c1)) {
      unevaluable.cases++;
      if (j0 < 0) unevaluable.noServedAnswer++;
      else if (j1 < 0) unevaluable.noRoutedAnswer++;
      else unevaluable.outcomeUnknown++;
      continue;
    }
    add(before, j0, a0, c0);
    add(after, j1, a1, c1);
    const key = codeOf(c0) * 65536 + codeOf(c1);
    cells.set(key, (cells.get(key) ?? 0) + 1);
    if (unit === "cluster") {
      const k = cols.caseCluster[c]!;
      clusterDelta.set(k, (clusterDelta.get(k) ?? 0) + (c1 - c0));
    }
    if (isChanged) {
      // Chow's rule selects on whether the answer predicted clean, so its
      // strata condition on it too; other policies select on risk alone
      const f0 = p.chow === null ? -1 : cols.answerPred[j0] === 0 ? 0 : 1;
      const f1 = p.chow === null ? -1 : cols.answerPred[j1] === 0 ? 0 : 1;
      const sKey = `${cols.caseSeverity[c]}|${cols.caseGold[c]}|${
        cols.answerModel[j0]
      }|${a0}|${f0}|${cols.answerModel[j1]}|${a1}|${f1}|${j0 === j1 ? 1 : 0}`;
      let st = strata.get(sKey);
      if (st === undefined) {
        strata.set(
          sKey,
          st = {
            severity: cols.caseSeverity[c],
            gold: cols.caseGold[c],
            a0,
            a1,
            f0,
            f1,
            same: j0 === j1,
            n: 0,
            pairs: new Map(),
            before: new Map(),
            after: new Map(),
          },
        );
      }
      st.n++;
      st.pairs.set(`${c0}|${c1}`, (st.pairs.get(`${c0}|${c1}`) ?? 0) + 1);
      st.before.set(c0, (st.before.get(c0) ?? 0) + 1);
      st.after.set(c1, (st.after.get(c1) ?? 0) + 1);
      if (unit === "cluster") {
        changedCases.push({ st, c0, c1, k: cols.caseCluster[c]! });
      }
    }
  }
  if (unit === "cluster") countClusterShares(changedCases);
  const o = {
    resamples: options.resamples ?? 1000,
    level: options.level ?? 0.95,
    seed: options.seed ?? 0,
  };
  const method = options.interval ?? "auto";
  if (!["auto", "bootstrap"].includes(method)) {
    throw new RangeError(
      `Cannot replay: interval must be auto or bootstrap, got ${
        JSON.stringify(method)
      }`,
    );
  }
  const difference: ReplayDifference = method === "bootstrap"
    ? {
      ...pairedCostBootstrap(cells, costValues, o),
      interval: "bootstrap",
      test: "paired bootstrap",
      estimand: REPLAY_DIFFERENCE_ESTIMAND,
    }
    : pairedCostInterval(
      [...strata.values()],
      cells,
      costValues,
      kindCostsOf(cols, profile, matrix),
      o,
      unit === "cluster" ? clusterDelta : null,
    );
  return {
    policy: {
      threshold: p.threshold,
      route: p.route,
      missingRisk: p.missingRisk,
      thresholdIfFlagged: p.thresholdIfFlagged,
    },
    profile: profileRef(profile),
    matrix: matrix.id,
    cases: cols.cases,
    evaluable: cols.cases - unevaluable.cases,
    unevaluable,
    reviewLoad,
    before,
    after,
    difference,
    changed,
    diff,
    ...(unit === "cluster"
      ? { unit: "cluster" as const, clusters: clusterDelta.size }
      : {}),
  };
}

// Each changed case's share of its cluster, 1 / (the cluster's changed
// evaluable cases), added to its stratum's effective counts: a cluster's
// changed cases count as one unit's evidence, as score counts a unit's
// decisions (docs/method.md, "The unit").
function countClusterShares(
  changed: readonly { st: Stratum; c0: number; c1: number; k: string }[],
): void {
  const size = new Map<string, number>();
  for (const x of changed) size.set(x.k, (size.get(x.k) ?? 0) + 1);
  for (const { st, c0, c1, k } of changed) {
    const share = 1 / size.get(k)!;
    const e = st.effective ??= {
      n: 0,
      pairs: new Map(),
      before: new Map(),
      after: new Map(),
    };
    e.n += share;
    e.pairs.set(`${c0}|${c1}`, (e.pairs.get(`${c0}|${c1}`) ?? 0) + share);
    e.before.set(c0, (e.before.get(c0) ?? 0) + share);
    e.after.set(c1, (e.after.get(c1) ?? 0) + share);
  }
}

/** Changed cases that share a severity, a gold class, both models and both actions. */
interface Stratum {
  severity: number;
  /** Gold class code; -1 when the case has no gold label. */
  gold: number;
  a0: number;
  a1: number;
  /** Whether the answer before (after) predicted clean (0), an exception (1), or either (-1). */
  f0: number;
  f1: number;
  /** Both sides act on the same answer (only the action changes). */
  same: boolean;
  n: number;
  /** Observed (cost before | cost after) pairs. */
  pairs: Map<string, number>;
  before: Map<number, number>;
  after: Map<number, number>;
  /**
   * With the cluster as the unit, the same counts in clusters: each case
   * weighs 1 / (its cluster's changed cases). Absent when each case counts.
   */
  effective?: {
    n: number;
    pairs: Map<string, number>;
    before: Map<number, number>;
    after: Map<number, number>;
  };
}

/**
 * The costs a case can have at (severity, action) given its gold class
 * code (-1: any gold class), over every outcome the ledger's classes make
 * possible: the kinds of a cell, observed or not.
 */
function kindCostsOf(
  cols: LedgerColumns,
  profile: CostProfile,
  matrix: CostMatrix,
): (
  severity: number,
  gold: number,
  action: number,
  flag: number,
) => Outcome[] & {
  cost: (o: Outcome) => number;
} {
  // class code 0 is the clean class
  const clean = cols.classes[0];
  const memo = new Map<string, Outcome[] & { cost: (o: Outcome) => number }>();
  return (severity, gold, action, flag) => {
    const key = `${severity}|${gold}|${action}|${flag}`;
    let out = memo.get(key);
    if (out === undefined) {
      const golds = gold >= 0 ? [cols.classes[gold]] : cols.classes;
      const preds = cols.classes.filter((_, code) =>
        flag < 0 || (code === 0 ? 0 : 1) === flag
      );
      const set = new Set<Outcome>();
      for (const g of golds) {
        for (const p of preds) set.add(outcomeOf(g, p, clean));
      }
      const side = action === 1 ? matrix.escalate : matrix.auto;
      const sev = SEVERITIES[severity];
      out = Object.assign([...set], {
        cost: (o: Outcome) => ruleCost(side[o], profile, sev),
      });
      memo.set(key, out);
    }
    return out;
  };
}

/** Kinds from observed counts per key plus every possible key (count 0). */
function kindsFrom<K>(
  observed: Map<K, number>,
  possible: readonly K[],
  costOf: (k: K) => number,
): { count: number; cost: number }[] {
  const keys = new Map<string, K>();
  for (const k of possible) keys.set(String(k), k);
  for (const k of observed.keys()) keys.set(String(k), k);
  return [...keys.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
    .map(([, k]) => ({ count: observed.get(k) ?? 0, cost: costOf(k) }));
}

/** A pool of nonnegative weighted counts for a Fay–Feuer interval. */
interface GammaPool {
  terms: { weight: number; count: number }[];
  maxWeight: number;
  floor: number;
  ceiling: number;
}

function newPool(): GammaPool {
  return { terms: [], maxWeight: 0, floor: 0, ceiling: 0 };
}

/**
 * Add a cell of n cases whose kinds cost `kinds` (count, cost >= 0) to a
 * pool. With counts in units (clusters), each weight is the cost times
 * `scale`, the cell's cases per unit, so that weight × count keeps the
 * cost of the cases (as the gamma loss interval weighs a cell).
 */
function addToPool(
  pool: GammaPool,
  n: number,
  kinds: readonly { count: number; cost: number }[],
  scale = 1,
): void {
  let lo = Infinity;
  let hi = -Infinity;
  for (const k of kinds) {
    lo = Math.min(lo, k.cost);
    hi = Math.max(hi, k.cost);
    const weight = k.cost * scale;
    pool.maxWeight = Math.max(pool.maxWeight, weight);
    if (weight > 0 && k.count > 0) {
      pool.terms.push({ weight, count: k.count });
    }
  }
  pool.floor += n * lo;
  pool.ceiling += n * hi;
}

function poolBounds(pool: GammaPool, level: number): Bounds {
  const b = fayFeuerInterval(pool.terms, {
    level,
    maxWeight: pool.maxWeight,
  });
  // the expected cost of fixed cells lies between every case at its cheapest
  // kind and every case at its costliest
  return {
    lo: Math.min(Math.max(b.lo, pool.floor), pool.ceiling),
    hi: Math.max(Math.min(b.hi, pool.ceiling), pool.floor),
  };
}

/**
 * The default interval of a replay's difference. Changed cases are grouped
 * into strata; a stratum whose one side costs the same whatever the
 * outcome (an escalated side, under the shipped matrices) contributes that
 * fixed cost plus or minus the other side's cost, a sum of nonnegative
 * weighted counts that goes to a Fay–Feuer pool (one for terms added, one
 * for terms subtracted); a stratum whose two sides both vary goes to a pool
 * of Jeffreys–Dirichlet posterior draws (one posterior over the shared
 * outcomes when both sides act on the same answer, one per side when they
 * act on different answers). With k pools in use, each is computed at level
 * 1 − (1 − level)/k and the bounds are added (Bonferroni), so the whole
 * holds at the level whenever each pool does. With `clusters` (the
 * difference of each cluster), counts are in clusters (each stratum's
 * `effective` counts) and the test flips a cluster's cases together.
 */
function pairedCostInterval(
  strata: readonly Stratum[],
  cells: Map<number, number>,
  values: readonly number[],
  kindsOf: ReturnType<typeof kindCostsOf>,
  o: { resamples: number; level: number; seed: number },
  clusters: ReadonlyMap<string, number> | null,
): ReplayDifference {
  checkPairedOptions(o);
  const costCells: CostCell[] = [];
  const plus = newPool();
  const minus = newPool();
  let fixed = 0;
  for (const st of strata) {
    const before = kindsOf(st.severity, st.gold, st.a0, st.f0);
    const after = kindsOf(st.severity, st.gold, st.a1, st.f1);
    // the counts, in cases or (with clusters) in clusters
    const counts = st.effective ?? st;
    const scale = st.effective === undefined ? 1 : st.n / st.effective.n;
    const beforeKinds = kindsFrom(
      counts.before,
      before.map(before.cost),
      (k) => k,
    );
    const afterKinds = kindsFrom(counts.after, after.map(after.cost), (k) => k);
    const beforeFixed = beforeKinds.length === 1;
    const afterFixed = afterKinds.length === 1;
    if (beforeFixed) fixed -= st.n * beforeKinds[0].cost;
    if (afterFixed) fixed += st.n * afterKinds[0].cost;
    if (beforeFixed && afterFixed) continue;
    if (beforeFixed) addToPool(plus, st.n, afterKinds, scale);
    else if (afterFixed) addToPool(minus, st.n, beforeKinds, scale);
    else if (st.same) {
      // one answer on both sides: one posterior over its outcomes, each
      // priced before and after; the kind's cost is the difference
      const possible = before.map((x) => `${before.cost(x)}|${after.cost(x)}`);
      costCells.push({
        n: st.n,
        sign: 1,
        kinds: kindsFrom(counts.pairs, possible, (k) => {
          const [b, a] = k.split("|").map(Number);
          return a - b;
        }),
      });
    } else {
      // two answers: each side's costs get their own posterior
      costCells.push({ n: st.n, sign: 1, kinds: afterKinds });
      costCells.push({ n: st.n, sign: -1, kinds: beforeKinds });
    }
  }
  const usePlus = plus.ceiling > plus.floor;
  const useMinus = minus.ceiling > minus.floor;
  const useJeffreys = costCells.length > 0;
  // a pool whose range is one point is fixed: add it as a constant
  if (!usePlus) fixed += plus.floor;
  if (!useMinus) fixed -= minus.floor;
  const pools = Number(usePlus) + Number(useMinus) + Number(useJeffreys);
  const each = pools <= 1 ? o.level : 1 - (1 - o.level) / pools;
  let lo = fixed;
  let hi = fixed;
  if (usePlus) {
    const b = poolBounds(plus, each);
    lo += b.lo;
    hi += b.hi;
  }
  if (useMinus) {
    const b = poolBounds(minus, each);
    lo -= b.hi;
    hi -= b.lo;
  }
  if (useJeffreys) {
    const draws = _costCellDraws(
      costCells,
      o.resamples,
      0.5,
      seededPrng(o.seed),
    );
    draws.sort();
    lo += quantileSorted(draws, (1 - each) / 2)!;
    hi += quantileSorted(draws, (1 + each) / 2)!;
  }
  const keys = [...cells.keys()].sort((a, b) => a - b);
  const weights = keys.map((k) => cells.get(k)!);
  const delta = keys.map((k) =>
    values[k % 65536] - values[Math.floor(k / 65536)]
  );
  const n = weights.reduce((a, b) => a + b, 0);
  let estimate = 0;
  for (let i = 0; i < keys.length; i++) estimate += weights[i] * delta[i];
  // the units the test flips: each case, or (with clusters) each cluster's
  // cases together, clusters of equal difference as one weight
  const units = clusters === null ? null : clusterWeights(clusters);
  const test = signFlipTest(units?.delta ?? delta, {
    weights: units?.weights ?? weights,
    resamples: o.resamples,
    seed: seedFor(o.seed, "replay/test"),
  });
  const parts = [
    ...(usePlus || useMinus ? [REPLAY_METHOD_PARTS.gamma] : []),
    ...(useJeffreys ? [REPLAY_METHOD_PARTS.jeffreys] : []),
  ];
  return {
    estimate: n === 0 ? null : estimate,
    lo: n === 0 ? null : lo,
    hi: n === 0 ? null : hi,
    level: o.level,
    resamples: useJeffreys ? o.resamples : 0,
    undefinedResamples: 0,
    seed: o.seed,
    method: parts.length === 0
      ? "exact: no changed case can cost differently"
      : `${parts.join(" + ")} on the changed cases${
        pools > 1 ? ` (bonferroni over ${pools} parts)` : ""
      }`,
    pValue: n === 0 ? null : test.pValue,
    pairs: n,
    interval: "auto",
    test: `sign-flip permutation, ${test.mode}${
      clusters === null ? "" : ", a cluster's cases flipped together"
    }`,
    estimand: REPLAY_DIFFERENCE_ESTIMAND,
  };
}

// The clusters' differences as the sign-flip test reads them: each
// distinct difference once, in ascending order, with how many clusters
// have it.
function clusterWeights(
  clusters: ReadonlyMap<string, number>,
): { delta: number[]; weights: number[] } {
  const count = new Map<number, number>();
  for (const d of clusters.values()) count.set(d, (count.get(d) ?? 0) + 1);
  const delta = [...count.keys()].sort((a, b) => a - b);
  return { delta, weights: delta.map((d) => count.get(d)!) };
}

/** The words of the default method's `method` field, by part. */
export const REPLAY_METHOD_PARTS: Readonly<{
  /** Where one side's cost is fixed. */
  gamma: string;
  /** Where both sides' costs vary. */
  jeffreys: string;
}> = Object.freeze({
  gamma: "fay-feuer gamma where one side's cost is fixed",
  jeffreys: "jeffreys posterior per cell where both sides vary",
});

function checkPairedOptions(
  o: { resamples: number; level: number },
): void {
  if (!Number.isInteger(o.resamples) || o.resamples < 1) {
    throw new RangeError(
      `Cannot replay: resamples must be an integer >= 1, got ${o.resamples}`,
    );
  }
  if (!(o.level > 0 && o.level < 1)) {
    throw new RangeError(
      `Cannot replay: level must be in (0, 1), got ${o.level}`,
    );
  }
}

function pairedCostBootstrap(
  cells: Map<number, number>,
  values: readonly number[],
  o: { resamples: number; level: number; seed: number },
): PairedComparison {
  checkPairedOptions(o);
  const keys = [...cells.keys()].sort((a, b) => a - b);
  const weights = keys.map((k) => cells.get(k)!);
  const delta = keys.map((k) =>
    values[k % 65536] - values[Math.floor(k / 65536)]
  );
  const n = weights.reduce((a, b) => a + b, 0);
  let estimate = 0;
  for (let i = 0; i < keys.length; i++) estimate += weights[i] * delta[i];
  const rng = seededPrng(o.seed);
  const draws: number[] = [];
  if (n > 0) {
    for (let b = 0; b < o.resamples; b++) {
      const counts = multinomial(rng, n, weights);
      let v = 0;
      for (let i = 0; i < counts.length; i++) v += counts[i] * delta[i];
      draws.push(v);
    }
  }
  draws.sort((a, b) => a - b);
  let below = 0;
  let above = 0;
  for (const v of draws) {
    if (v <= 0) below++;
    if (v >= 0) above++;
  }
  return {
    estimate: n === 0 ? null : estimate,
    lo: quantileSorted(draws, (1 - o.level) / 2),
    hi: quantileSorted(draws, (1 + o.level) / 2),
    level: o.level,
    resamples: o.resamples,
    undefinedResamples: o.resamples - draws.length,
    seed: o.seed,
    method: "percentile bootstrap",
    pValue: draws.length === 0
      ? null
      : Math.min(1, Math.max(2 * Math.min(below, above), 1) / draws.length),
    pairs: n,
  };
}

/**
 * `count` evenly spaced thresholds from `from` to `to`, both included: the
 * grid that `--thresholds from:to:count` names.
 *
 * @param from First threshold.
 * @param to Last threshold.
 * @param options `count`, the number of thresholds (>= 2). Default: 1,000.
 * @returns The thresholds.
 * @throws {RangeError} When the range is outside [0, 1], reversed, or count < 2.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linearThresholds } from "./replay.ts";
 *
 * assert.deepEqual([...linearThresholds(0, 1, { count: 5 })], [0, 0.25, 0.5, 0.75, 1]);
 * ```
 */
export function linearThresholds(
  from: number,
  to: number,
  options: { count?: number } = {},
): Float64Array {
  const count = options.count ?? 1000;
  if (!(from >= 0 && to <= 1 && from <= to)) {
    throw new RangeError(
      `Cannot build thresholds: need 0 <= from <= to <= 1, got ${from} and ${to}`,
    );
  }
  if (!Number.isSafeInteger(count) || count < 2) {
    throw new RangeError(
      `Cannot build thresholds: count must be an integer >= 2, got ${count}`,
    );
  }
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    out[i] = i === count - 1 ? to : from + (i * (to - from)) / (count - 1);
  }
  return out;
}

/** Options for {@linkcode costCurve}. */
export interface CostCurveOptions {
  /** Profile. Default: the shipped `reconciliation`. */
  profile?: CostProfile;
  /** Cost matrix. Default: {@linkcode CONSEQUENCE_MATRIX}. */
  matrix?: CostMatrix;
  /** Routing, as in {@linkcode ReplayPolicy}. Default: `"recorded"`. */
  route?: ReplayPolicy["route"];
  /** What a threshold does with an answer that states no risk. Default: `"escalate"`. */
  missingRisk?: "escalate" | "auto";
  /**
   * Which cases each point covers. `"each"`: every case evaluable at that
   * threshold, so each point equals `replay` there. `"common"`: only cases
   * evaluable at every threshold, so all points cover the same cases and can
   * be compared; the others are counted in `excluded`. Default: `"each"`.
   */
  support?: "each" | "common";
}

/** A replay under many thresholds: one value per threshold. */
export interface CostCurve {
  /** Profile (`id@version`). */
  readonly profile: string;
  /** Cost matrix id. */
  readonly matrix: string;
  /** Cases in the ledger. */
  readonly cases: number;
  /** The thresholds, as given. */
  readonly thresholds: Float64Array;
  /** Loss over the cases evaluable at each threshold. */
  readonly loss: Float64Array;
  /** Escalations over every case with an answer. */
  readonly reviews: Float64Array;
  /** Automatic decisions known to be wrong. */
  readonly autoErrors: Float64Array;
  /** Cases evaluable at each threshold. */
  readonly evaluable: Float64Array;
  /** Cases unevaluable at each threshold (no answer, or outcome unknown). */
  readonly unevaluable: Float64Array;
  /** Cases left out at every threshold (with `support: "common"`), else 0. */
  readonly excluded: number;
}

/**
 * Replay one period under many thresholds at once: one sort and prefix
 * sums, not one pass per threshold.
 *
 * For a threshold t, answers with risk <= t are acted on and the rest
 * escalated, so loss(t) is a prefix sum of automatic costs plus a suffix sum
 * of escalation costs. The thresholds are sorted once; each case is placed,
 * by one binary search, in the bucket of the first threshold that acts on
 * it; prefix sums over the buckets then give every threshold's loss, reviews
 * and errors. Cost is O(n log T + T log T) for n cases and T thresholds,
 * against O(n T) for one replay per threshold. Each point equals `replay`
 * under that threshold (up to the order of floating-point addition).
 *
 * @param cols The ledger in columns.
 * @param thresholds Thresholds on P(error), any order.
 * @param options Profile, matrix, routing and missing-risk rule.
 * @returns Loss, reviews, automatic errors and evaluable counts per threshold.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerText } from "./chain.ts";
 * import { ledgerColumns } from "./columns.ts";
 * import { costCurve } from "./replay.ts";
 *
 * const decision = (id: string, pred: string, risk: number) => ({
 *   kind: "decision", id, at: "2026-03-01T09:00:00Z", risk, expectedLoss: null, profile: null,
 *   policyRevision: null, modelRevision: null, promptHash: null, served: true,
 *   decision: { runId: "r", modelId: "m", taskId: id, trial: 0, severity: "HIGH",
 *     trueClass: "AMOUNT_MISMATCH", predClass: pred, parseOk: true, pCorrect: 1 - risk,
 *     action: "auto", cost: { completeness: "unavailable", usd: null }, outcome: "resolved" },
 * } as const);
 * const cols = ledgerColumns(ledgerText([
 *   decision("t1", "MATCH", 0.4), decision("t2", "AMOUNT_MISMATCH", 0.05),
 * ]).entries);
 * const curve = costCurve(cols, [0, 0.3, 1]);
 * // 0: both reviewed (1 + 1); 0.3: the miss reviewed (1), the right one acted on (0); 1: the miss lets 10 through
 * assert.deepEqual([...curve.loss], [2, 1, 10]);
 * assert.deepEqual([...curve.reviews], [2, 1, 0]);
 * ```
 */
export function costCurve(
  cols: LedgerColumns,
  thresholds: ArrayLike<number>,
  options: CostCurveOptions = {},
): CostCurve {
  const profile = options.profile ?? getProfile("reconciliation");
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  for (let i = 0; i < thresholds.length; i++) {
    const t = thresholds[i];
    if (!(t >= 0 && t <= 1)) {
      throw new RangeError(
        `Cannot draw a cost curve: threshold ${i} must be in [0, 1], got ${t}`,
      );
    }
  }
  const p = resolvePolicy(
    cols,
    {
      route: options.route ?? "recorded",
      missingRisk: options.missingRisk ?? "escalate",
      threshold: 0,
    },
    profile,
    matrix,
  );
  const costs = answerCosts(cols, profile, matrix);
  const common = (options.support ?? "each") === "common";
  // constant part: cases with no answer, and answers with no risk
  let constLoss = 0, constUneval = 0, constReviews = 0, constErrors = 0;
  let excluded = 0;
  let m = 0;
  const risk = new Float64Array(cols.cases);
  const pick = new Int32Array(cols.cases);
  for (let c = 0; c < cols.cases; c++) {
    const j = p.chosen[c];
    if (j < 0) {
      if (common) excluded++;
      else constUneval++;
      continue;
    }
    const r = cols.answerRisk[j];
    if (
      common &&
      (Number.isNaN(r)
        ? Number.isNaN(
          p.missingRisk === "escalate" ? costs.escalate[j] : costs.auto[j],
        )
        : Number.isNaN(costs.auto[j]) || Number.isNaN(costs.escalate[j]))
    ) {
      excluded++;
      continue;
    }
    if (Number.isNaN(r)) {
      const esc = p.missingRisk === "escalate";
      const v = esc ? costs.escalate[j] : costs.auto[j];
      if (esc) constReviews++;
      else if (costs.wrong[j] === 1) constErrors++;
      if (Number.isNaN(v)) constUneval++;
      else constLoss += v;
      continue;
    }
    risk[m] = r;
    pick[m] = j;
    m++;
  }
  // The one sort: the thresholds, ascending (the curve is reported in the
  // caller's order). A case with risk r is acted on at every threshold t >= r,
  // so it lands in bucket b = #{thresholds < r} and counts as automatic from
  // sorted threshold b on, escalated before it: prefix sums over buckets
  // give every threshold's totals.
  const n = thresholds.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
    thresholds[a] - thresholds[b] || a - b
  );
  const sortedT = Float64Array.from(order, (i) => thresholds[i]);
  const autoSum = new Float64Array(n + 1);
  const autoUneval = new Float64Array(n + 1);
  const escSum = new Float64Array(n + 1);
  const escUneval = new Float64Array(n + 1);
  const count = new Float64Array(n + 1);
  const errors = new Float64Array(n + 1);
  for (let i = 0; i < m; i++) {
    const r = risk[i];
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sortedT[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    const j = pick[i];
    const a = costs.auto[j];
    const e = costs.escalate[j];
    if (a !== a) autoUneval[lo]++;
    else autoSum[lo] += a;
    if (e !== e) escUneval[lo]++;
    else escSum[lo] += e;
    count[lo]++;
    if (costs.wrong[j] === 1) errors[lo]++;
  }
  // prefix[k] = sum over buckets 0..k: automatic at sorted threshold k
  for (let k = 1; k <= n; k++) {
    autoSum[k] += autoSum[k - 1];
    autoUneval[k] += autoUneval[k - 1];
    escSum[k] += escSum[k - 1];
    escUneval[k] += escUneval[k - 1];
    count[k] += count[k - 1];
    errors[k] += errors[k - 1];
  }
  const out = {
    loss: new Float64Array(n),
    reviews: new Float64Array(n),
    autoErrors: new Float64Array(n),
    evaluable: new Float64Array(n),
    unevaluable: new Float64Array(n),
  };
  for (let k = 0; k < n; k++) {
    const i = order[k];
    out.loss[i] = constLoss + autoSum[k] + (escSum[n] - escSum[k]);
    out.reviews[i] = constReviews + (count[n] - count[k]);
    out.autoErrors[i] = constErrors + errors[k];
    const un = constUneval + autoUneval[k] + (escUneval[n] - escUneval[k]);
    out.unevaluable[i] = un;
    out.evaluable[i] = cols.cases - excluded - un;
  }
  return {
    profile: profileRef(profile),
    matrix: matrix.id,
    cases: cols.cases,
    thresholds: Float64Array.from(thresholds),
    ...out,
    excluded,
  };
}
