/**
 * Drift on the loss distribution, not only on accuracy.
 *
 * Accuracy monitors watch the error rate. A system can keep its error rate
 * and still cost more, because its errors moved to expensive severities:
 * "errors flat, cost rising" (`third-number`). This module
 * compares two windows of a ledger on the distribution of expected loss (PSI
 * and the two-sample Kolmogorov–Smirnov test), tests the error rate and the
 * realised loss per decision separately, and watches calibration over
 * rolling windows, recalibrating each window on the one before it.
 *
 * @module
 */

import { getProfile } from "../costs/load.ts";
import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { quantileSorted } from "../metrics/bootstrap.ts";
import { CONSEQUENCE_MATRIX, type CostMatrix } from "../metrics/loss.ts";
import { answerCosts } from "./_answer_costs.ts";
import { binnedEce, binOf } from "./_binned_ece.ts";
import type { LedgerColumns } from "./columns.ts";
import { isTimestamp } from "./record.ts";
import { profileRef } from "./policy.ts";

/** One bin of a PSI comparison. */
export interface PsiBin {
  /** Lower edge (exclusive), `null` for the first bin. */
  readonly lo: number | null;
  /** Upper edge (inclusive), `null` for the last bin. */
  readonly hi: number | null;
  /** Share of the reference window in the bin. */
  readonly reference: number;
  /** Share of the current window in the bin. */
  readonly current: number;
}

/** A population stability index and its bins. */
export interface Psi {
  /** Σ (current − reference) · ln(current / reference) over bins; `null` when a window is empty. */
  readonly psi: number | null;
  /** The bins, with the smoothed shares. */
  readonly bins: readonly PsiBin[];
}

/** Options for {@linkcode populationStabilityIndex}. */
export interface PsiOptions {
  /** Bins, at quantiles of the reference window (ties merge bins). Default: 10. */
  bins?: number;
  /** Smallest share, so an empty bin does not make the index infinite. Default: 1e-4. */
  floor?: number;
}

/**
 * The population stability index of a current window against a reference.
 *
 * Bin edges are the reference window's quantiles, so each bin holds about
 * the same share of it; shares below `floor` are raised to it. The usual
 * reading: below 0.1 stable, 0.1 to 0.25 a moderate shift, above 0.25 a
 * major one. Cost is O(n log n) for the sort of the reference.
 *
 * @param reference Values of the reference window.
 * @param current Values of the current window.
 * @param options Bins and floor.
 * @returns The index and the bins.
 * @throws {RangeError} When bins < 2 or the floor is outside (0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { populationStabilityIndex } from "./drift.ts";
 *
 * const a = Array.from({ length: 1000 }, (_, i) => i / 1000);
 * assert.ok(populationStabilityIndex(a, a).psi! < 1e-12);
 * assert.ok(populationStabilityIndex(a, a.map((x) => x * 0.5)).psi! > 0.25);
 * ```
 */
export function populationStabilityIndex(
  reference: ArrayLike<number>,
  current: ArrayLike<number>,
  options: PsiOptions = {},
): Psi {
  const bins = options.bins ?? 10;
  const floor = options.floor ?? 1e-4;
  if (!Number.isInteger(bins) || bins < 2) {
    throw new RangeError(
      `Cannot compute PSI: bins must be an integer >= 2, got ${bins}`,
    );
  }
  if (!(floor > 0 && floor < 1)) {
    throw new RangeError(
      `Cannot compute PSI: floor must be in (0, 1), got ${floor}`,
    );
  }
  if (reference.length === 0 || current.length === 0) {
    return { psi: null, bins: [] };
  }
  const sorted = Float64Array.from(reference).sort();
  const edges: number[] = [];
  for (let i = 1; i < bins; i++) {
    const q = quantileSorted(sorted, i / bins)!;
    if (edges.length === 0 || q > edges[edges.length - 1]) edges.push(q);
  }
  if (
    edges.length > 0 && edges[edges.length - 1] >= sorted[sorted.length - 1]
  ) {
    edges.pop();
  }
  const k = edges.length + 1;
  const count = (values: ArrayLike<number>) => {
    const c = new Float64Array(k);
    for (let i = 0; i < values.length; i++) {
      let lo = 0, hi = edges.length;
      const x = values[i];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (edges[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      c[lo]++;
    }
    return c;
  };
  const r = count(reference);
  const c = count(current);
  let psi = 0;
  const out: PsiBin[] = [];
  for (let b = 0; b < k; b++) {
    const e = Math.max(r[b] / reference.length, floor);
    const a = Math.max(c[b] / current.length, floor);
    psi += (a - e) * Math.log(a / e);
    out.push({
      lo: b === 0 ? null : edges[b - 1],
      hi: b === k - 1 ? null : edges[b],
      reference: e,
      current: a,
    });
  }
  return { psi, bins: out };
}

/** A two-sample Kolmogorov–Smirnov test. */
export interface KsTest {
  /** Largest distance between the two empirical CDFs. */
  readonly statistic: number | null;
  /** Asymptotic two-sided p-value, or `null` when a sample is empty. */
  readonly pValue: number | null;
  /** Size of the first sample. */
  readonly n: number;
  /** Size of the second sample. */
  readonly m: number;
}

function kolmogorovQ(lambda: number): number {
  if (lambda < 1e-3) return 1;
  let sum = 0;
  for (let k = 1; k <= 100; k++) {
    const term = 2 * (k % 2 === 1 ? 1 : -1) *
      Math.exp(-2 * k * k * lambda * lambda);
    sum += term;
    if (Math.abs(term) < 1e-12) break;
  }
  return Math.min(1, Math.max(0, sum));
}

/**
 * The two-sample Kolmogorov–Smirnov test.
 *
 * D is the largest gap between the two empirical CDFs, found by one merge of
 * the sorted samples (ties advance both). The p-value uses the Kolmogorov
 * distribution at λ = (√nₑ + 0.12 + 0.11/√nₑ) · D with nₑ = nm/(n+m)
 * (Numerical Recipes §14.3), accurate for nₑ above a few dozen.
 *
 * @param a First sample.
 * @param b Second sample.
 * @returns D, the p-value and the sample sizes; D and p are `null` for an empty sample.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ksTest } from "./drift.ts";
 *
 * const a = Array.from({ length: 500 }, (_, i) => i / 500);
 * assert.equal(ksTest(a, a).statistic, 0);
 * const shifted = ksTest(a, a.map((x) => x + 0.2));
 * assert.ok(Math.abs(shifted.statistic! - 0.2) < 0.003); // within one step of the grid
 * assert.ok(shifted.pValue! < 1e-6);
 * ```
 */
export function ksTest(a: ArrayLike<number>, b: ArrayLike<number>): KsTest {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return { statistic: null, pValue: null, n, m };
  const x = Float64Array.from(a).sort();
  const y = Float64Array.from(b).sort();
  let i = 0, j = 0, d = 0;
  while (i < n && j < m) {
    const v = Math.min(x[i], y[j]);
    while (i < n && x[i] === v) i++;
    while (j < m && y[j] === v) j++;
    d = Math.max(d, Math.abs(i / n - j / m));
  }
  const ne = (n * m) / (n + m);
  const sq = Math.sqrt(ne);
  return {
    statistic: d,
    pValue: kolmogorovQ((sq + 0.12 + 0.11 / sq) * d),
    n,
    m,
  };
}

/** One window of labelled decisions: whether each was wrong, and what it cost. */
export interface LossWindow {
  /** 1 when the decision was wrong, 0 when right. */
  readonly error: ArrayLike<number>;
  /** Realised loss of each decision. */
  readonly loss: ArrayLike<number>;
}

/** Options for {@linkcode errorsFlatCostRising}. */
export interface ErrorsFlatOptions {
  /** Significance level of both tests. Default: 0.01. */
  alpha?: number;
}

/** The "errors flat, cost rising" verdict. */
export interface ErrorsFlatCostRising {
  /** Error rate in each window, the two-proportion z statistic, its two-sided p-value, and whether it drifted. */
  readonly errorRate: {
    readonly reference: number | null;
    readonly current: number | null;
    readonly z: number | null;
    readonly pValue: number | null;
    readonly drifted: boolean;
  };
  /** Mean loss per decision in each window, their ratio, Welch's z, its one-sided p-value, and whether it rose. */
  readonly lossPerDecision: {
    readonly reference: number | null;
    readonly current: number | null;
    readonly ratio: number | null;
    readonly z: number | null;
    readonly pValue: number | null;
    readonly rising: boolean;
  };
  /** Whether the loss rose while the error rate did not move: the detector fires. */
  readonly fired: boolean;
  /** Significance level used. */
  readonly alpha: number;
}

/** Upper tail of the standard normal, P(Z > z). */
function normalSf(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

/** Complementary error function (Numerical Recipes erfcc), relative error < 1.2e-7. */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r = t * Math.exp(
    -z * z - 1.26551223 +
      t * (1.00002368 +
          t * (0.37409196 +
              t * (0.09678418 +
                  t * (-0.18628806 +
                      t * (0.27886807 +
                          t * (-1.13520398 +
                              t *
                                (1.48851587 +
                                  t * (-0.82215223 + t * 0.17087277)))))))),
  );
  return x >= 0 ? r : 2 - r;
}

function meanVar(x: ArrayLike<number>): [number, number] {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  const mean = s / x.length;
  let v = 0;
  for (let i = 0; i < x.length; i++) v += (x[i] - mean) ** 2;
  return [mean, x.length > 1 ? v / (x.length - 1) : 0];
}

/**
 * The "errors flat, cost rising" detector.
 *
 * Two tests on two windows of labelled decisions. The error rate: a pooled
 * two-proportion z-test, two-sided; it drifts when p < alpha. The realised
 * loss per decision: Welch's z on the two means, one-sided upwards; it rises
 * when p < alpha. The detector fires when the loss rises while the error rate
 * does not drift — the shift an accuracy monitor cannot see. O(n).
 *
 * @param reference The earlier window.
 * @param current The later window.
 * @param options Significance level.
 * @returns Both tests and the verdict; rates and means are `null` for an empty window.
 * @throws {RangeError} When alpha is outside (0, 1) or a window's arrays differ in length.
 *
 * @example Same error count, errors moved from a cost of 0.2 to 10
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorsFlatCostRising } from "./drift.ts";
 *
 * const n = 2000;
 * const error = Array.from({ length: n }, (_, i) => (i % 20 === 0 ? 1 : 0));
 * const v = errorsFlatCostRising(
 *   { error, loss: error.map((e) => e * 0.2) },
 *   { error, loss: error.map((e) => e * 10) },
 * );
 * assert.equal(v.errorRate.drifted, false);
 * assert.equal(v.lossPerDecision.rising, true);
 * assert.equal(v.fired, true);
 * ```
 */
export function errorsFlatCostRising(
  reference: LossWindow,
  current: LossWindow,
  options: ErrorsFlatOptions = {},
): ErrorsFlatCostRising {
  const alpha = options.alpha ?? 0.01;
  if (!(alpha > 0 && alpha < 1)) {
    throw new RangeError(
      `Cannot test for drift: alpha must be in (0, 1), got ${alpha}`,
    );
  }
  for (
    const [name, w] of [["reference", reference], ["current", current]] as const
  ) {
    if (w.error.length !== w.loss.length) {
      throw new RangeError(
        `Cannot test for drift: the ${name} window has ${w.error.length} error flags but ${w.loss.length} losses`,
      );
    }
  }
  const n1 = reference.error.length;
  const n2 = current.error.length;
  const empty = n1 === 0 || n2 === 0;
  let e1 = 0, e2 = 0;
  for (let i = 0; i < n1; i++) e1 += reference.error[i];
  for (let i = 0; i < n2; i++) e2 += current.error[i];
  const p1 = n1 === 0 ? null : e1 / n1;
  const p2 = n2 === 0 ? null : e2 / n2;
  let zErr: number | null = null;
  let pErr: number | null = null;
  if (!empty) {
    const pool = (e1 + e2) / (n1 + n2);
    const se = Math.sqrt(pool * (1 - pool) * (1 / n1 + 1 / n2));
    zErr = se === 0 ? 0 : (p2! - p1!) / se;
    pErr = Math.min(1, 2 * normalSf(Math.abs(zErr)));
  }
  let m1: number | null = null, m2: number | null = null;
  let zLoss: number | null = null, pLoss: number | null = null;
  if (!empty) {
    const [a, va] = meanVar(reference.loss);
    const [b, vb] = meanVar(current.loss);
    m1 = a;
    m2 = b;
    const se = Math.sqrt(va / n1 + vb / n2);
    zLoss = se === 0 ? (b > a ? Infinity : 0) : (b - a) / se;
    pLoss = normalSf(zLoss);
  }
  const drifted = pErr !== null && pErr < alpha;
  const rising = pLoss !== null && pLoss < alpha;
  return {
    errorRate: { reference: p1, current: p2, z: zErr, pValue: pErr, drifted },
    lossPerDecision: {
      reference: m1,
      current: m2,
      ratio: m1 === null || m2 === null || m1 === 0 ? null : m2 / m1,
      z: zLoss,
      pValue: pLoss,
      rising,
    },
    fired: rising && !drifted,
    alpha,
  };
}

/** One window of the rolling calibration monitor. */
export interface CalibrationWindow {
  /** Window number, from 0. */
  readonly window: number;
  /** First index (inclusive) in the input. */
  readonly start: number;
  /** Last index (exclusive). */
  readonly end: number;
  /** ECE of the stated risk in this window. */
  readonly ece: number;
  /** ECE after recalibrating on the previous window; `null` for the first. */
  readonly eceRecalibrated: number | null;
  /** Whether the stated risk's ECE is past the bound. */
  readonly alert: boolean;
}

/** Options for {@linkcode rollingCalibration}. */
export interface RollingCalibrationOptions {
  /** Decisions per window. Default: 2,000. */
  window?: number;
  /** Equal-width bins of the ECE and of the recalibration map. Default: 10. */
  bins?: number;
  /** Alert when the ECE is above this bound. Default: 0.02. */
  bound?: number;
}

/**
 * Rolling-window calibration: the ECE of stated risk per window, an alert
 * when it passes a bound, and the ECE after recalibrating each window on the
 * one before it.
 *
 * Windows are consecutive runs of `window` decisions in the given (time)
 * order; a last partial window is kept when it is at least half full. The
 * ECE is the binned expected calibration error with equal-width bins. The
 * recalibration is histogram binning: each bin's risk is replaced by the
 * error rate that bin had in the previous window (a bin empty there keeps
 * its stated risk). When calibration drifts, the alert fires on the first
 * window after the drift, and the recalibrated ECE falls back under the
 * bound one window later. O(n).
 *
 * @param risk Stated P(error) of each decision, in time order.
 * @param error 1 when the decision was wrong, 0 when right.
 * @param options Window size, bins and bound.
 * @returns One row per window.
 * @throws {RangeError} When the lengths differ, a risk is outside [0, 1], or an option is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rollingCalibration } from "./drift.ts";
 *
 * // stated risk 0.05; errors 1 in 20 at first, then 1 in 4
 * const risk = new Array(4000).fill(0.05);
 * const error = risk.map((_, i) => (i < 2000 ? i % 20 === 0 : i % 4 === 0) ? 1 : 0);
 * const rows = rollingCalibration(risk, error, { window: 1000 });
 * assert.deepEqual(rows.map((r) => r.alert), [false, false, true, true]);
 * assert.ok(rows[3].eceRecalibrated! < 0.02);
 * ```
 */
export function rollingCalibration(
  risk: ArrayLike<number>,
  error: ArrayLike<number>,
  options: RollingCalibrationOptions = {},
): CalibrationWindow[] {
  const window = options.window ?? 2000;
  const bins = options.bins ?? 10;
  const bound = options.bound ?? 0.02;
  if (risk.length !== error.length) {
    throw new RangeError(
      `Cannot monitor calibration: ${risk.length} risks but ${error.length} outcomes`,
    );
  }
  if (!Number.isInteger(window) || window < 1) {
    throw new RangeError(
      `Cannot monitor calibration: window must be an integer >= 1, got ${window}`,
    );
  }
  if (!Number.isInteger(bins) || bins < 1) {
    throw new RangeError(
      `Cannot monitor calibration: bins must be an integer >= 1, got ${bins}`,
    );
  }
  if (!(bound >= 0)) {
    throw new RangeError(
      `Cannot monitor calibration: bound must be >= 0, got ${bound}`,
    );
  }
  for (let i = 0; i < risk.length; i++) {
    if (!(risk[i] >= 0 && risk[i] <= 1)) {
      throw new RangeError(
        `Cannot monitor calibration: risk ${i} must be in [0, 1], got ${
          risk[i]
        }`,
      );
    }
  }
  const rows: CalibrationWindow[] = [];
  const recal = new Float64Array(risk.length);
  let prevMap: Float64Array | null = null;
  for (let start = 0, w = 0; start < risk.length; start += window, w++) {
    const end = Math.min(risk.length, start + window);
    if (end - start < window / 2 && w > 0) break;
    let eceRecal: number | null = null;
    if (prevMap !== null) {
      for (let i = start; i < end; i++) {
        const m = prevMap[binOf(risk[i], bins)];
        recal[i] = Number.isNaN(m) ? risk[i] : m;
      }
      eceRecal = binnedEce(recal, error, bins, start, end);
    }
    const ece = binnedEce(risk, error, bins, start, end)!;
    rows.push({
      window: w,
      start,
      end,
      ece,
      eceRecalibrated: eceRecal,
      alert: ece > bound,
    });
    const sum = new Float64Array(bins);
    const cnt = new Float64Array(bins);
    for (let i = start; i < end; i++) {
      const b = binOf(risk[i], bins);
      sum[b] += error[i];
      cnt[b]++;
    }
    prevMap = sum.map((s, b) => (cnt[b] === 0 ? NaN : s / cnt[b]));
  }
  return rows;
}

/** Options for {@linkcode ledgerDrift}. */
export interface LedgerDriftOptions {
  /** The split: decisions before it form the reference window, the rest the current one (ISO 8601, UTC). */
  split: string;
  /** Profile that prices realised loss. Default: the shipped `reconciliation`. */
  profile?: CostProfile;
  /** Cost matrix. Default: {@linkcode CONSEQUENCE_MATRIX}. */
  matrix?: CostMatrix;
  /** Significance level. Default: 0.01. */
  alpha?: number;
  /** PSI bins. Default: 10. */
  bins?: number;
  /** Rolling calibration options. Default: windows of 2,000, 10 bins, bound 0.02. */
  calibration?: RollingCalibrationOptions;
}

/** One window's summary. */
export interface DriftWindowSummary {
  /** First decision time in the window (ISO), or `null` when empty. */
  readonly from: string | null;
  /** Last decision time in the window (ISO), or `null` when empty. */
  readonly to: string | null;
  /** Served decisions. */
  readonly decisions: number;
  /** Served decisions whose correctness and cost are known. */
  readonly labelled: number;
  /** Served decisions with a recorded expected loss. */
  readonly withExpectedLoss: number;
  /** Share of known errors on each severity. */
  readonly errorShare: Readonly<Record<Severity, number | null>>;
}

/** Drift between two windows of a ledger. */
export interface LedgerDrift {
  /** The split time. */
  readonly split: string;
  /** Profile that priced realised loss (`id@version`). */
  readonly profile: string;
  /** The earlier window. */
  readonly reference: DriftWindowSummary;
  /** The later window. */
  readonly current: DriftWindowSummary;
  /** PSI and KS on the recorded expected loss per decision. */
  readonly expectedLoss: { readonly psi: Psi; readonly ks: KsTest };
  /** The "errors flat, cost rising" detector on labelled decisions. */
  readonly detector: ErrorsFlatCostRising;
  /** Rolling calibration over the labelled decisions of both windows, in time order. */
  readonly calibration: readonly (CalibrationWindow & {
    readonly from: string;
    readonly to: string;
  })[];
}

/**
 * Compare the decisions of a ledger before and after a split time.
 *
 * Only served answers count. Expected loss is the recorded one; realised loss
 * is the cost of the recorded action under the profile and matrix, and needs
 * the case's outcome: decisions whose outcome is unknown are counted (as not
 * labelled) and left out of the detector and the calibration monitor.
 * Answers are taken in time order (ties by seq). O(n log n).
 *
 * @param cols The ledger in columns.
 * @param options Split, profile, matrix, significance, bins and calibration settings.
 * @returns Both windows, PSI and KS on expected loss, the detector and the calibration rows.
 * @throws {RangeError} When the split is not an ISO 8601 UTC timestamp.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerText } from "./chain.ts";
 * import { ledgerColumns } from "./columns.ts";
 * import { ledgerDrift } from "./drift.ts";
 *
 * const d = (i: number) => ({
 *   kind: "decision", id: `d${i}`, at: `2026-03-0${i < 2 ? 1 : 2}T09:00:00Z`, risk: 0.1,
 *   expectedLoss: 1, profile: null, policyRevision: null, modelRevision: null, promptHash: null,
 *   served: true, decision: { runId: "r", modelId: "m", taskId: `t${i}`, trial: 0,
 *   severity: "HIGH", trueClass: "MATCH", predClass: "MATCH", parseOk: true, pCorrect: 0.9,
 *   action: "auto", cost: { completeness: "unavailable", usd: null }, outcome: "resolved" },
 * } as const);
 * const drift = ledgerDrift(ledgerColumns(ledgerText([0, 1, 2, 3].map(d)).entries),
 *   { split: "2026-03-02T00:00:00Z" });
 * assert.deepEqual([drift.reference.decisions, drift.current.decisions], [2, 2]);
 * assert.equal(drift.detector.fired, false);
 * ```
 */
export function ledgerDrift(
  cols: LedgerColumns,
  options: LedgerDriftOptions,
): LedgerDrift {
  if (typeof options.split !== "string" || !isTimestamp(options.split)) {
    throw new RangeError(
      `Cannot compare windows: split must be an ISO 8601 UTC timestamp like 2026-03-16T00:00:00Z, got ${
        JSON.stringify(options.split)
      }`,
    );
  }
  const split = Date.parse(options.split);
  const profile = options.profile ?? getProfile("reconciliation");
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  const costs = answerCosts(cols, profile, matrix);
  const served: number[] = [];
  for (let j = 0; j < cols.answers; j++) {
    if (cols.answerServed[j]) served.push(j);
  }
  served.sort((a, b) =>
    cols.answerAt[a] - cols.answerAt[b] || cols.answerSeq[a] - cols.answerSeq[b]
  );
  const side = (keep: (t: number) => boolean) => {
    const idx = served.filter((j) => keep(cols.answerAt[j]));
    const el: number[] = [];
    const error: number[] = [];
    const loss: number[] = [];
    const risk: number[] = [];
    const labelledIdx: number[] = [];
    const errBySev = new Float64Array(SEVERITIES.length);
    for (const j of idx) {
      if (!Number.isNaN(cols.answerExpectedLoss[j])) {
        el.push(cols.answerExpectedLoss[j]);
      }
      const cost = cols.answerAction[j] === 1
        ? costs.escalate[j]
        : costs.auto[j];
      const w = costs.wrong[j];
      if (Number.isNaN(cost) || Number.isNaN(w)) continue;
      error.push(w);
      loss.push(cost);
      labelledIdx.push(j);
      if (!Number.isNaN(cols.answerRisk[j])) risk.push(cols.answerRisk[j]);
      if (w === 1) errBySev[cols.caseSeverity[cols.answerCase[j]]]++;
    }
    const errors = errBySev.reduce((a, b) => a + b, 0);
    const summary: DriftWindowSummary = {
      from: idx.length === 0
        ? null
        : new Date(cols.answerAt[idx[0]]).toISOString(),
      to: idx.length === 0
        ? null
        : new Date(cols.answerAt[idx[idx.length - 1]]).toISOString(),
      decisions: idx.length,
      labelled: error.length,
      withExpectedLoss: el.length,
      errorShare: Object.fromEntries(
        SEVERITIES.map((
          s,
          i,
        ) => [s, errors === 0 ? null : errBySev[i] / errors]),
      ) as Record<Severity, number | null>,
    };
    return { summary, el, error, loss, labelledIdx };
  };
  const ref = side((t) => t < split);
  const cur = side((t) => t >= split);
  const calIdx = [...ref.labelledIdx, ...cur.labelledIdx].filter((j) =>
    !Number.isNaN(cols.answerRisk[j])
  );
  const calRisk = calIdx.map((j) => cols.answerRisk[j]);
  const calError = calIdx.map((j) => costs.wrong[j]);
  const calibration = rollingCalibration(calRisk, calError, options.calibration)
    .map((row) => ({
      ...row,
      from: new Date(cols.answerAt[calIdx[row.start]]).toISOString(),
      to: new Date(cols.answerAt[calIdx[row.end - 1]]).toISOString(),
    }));
  return {
    split: options.split,
    profile: profileRef(profile),
    reference: ref.summary,
    current: cur.summary,
    expectedLoss: {
      psi: populationStabilityIndex(ref.el, cur.el, {
        bins: options.bins ?? 10,
      }),
      ks: ksTest(ref.el, cur.el),
    },
    detector: errorsFlatCostRising(ref, cur, { alpha: options.alpha ?? 0.01 }),
    calibration,
  };
}

/** One day of served decisions. */
export interface DayLoss {
  /** The UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  /** Served decisions taken that day. */
  readonly decisions: number;
  /** Those whose correctness and cost are known. */
  readonly labelled: number;
  /** Known errors. */
  readonly errors: number;
  /** `errors / labelled`, `null` when nothing is labelled. */
  readonly errorRate: number | null;
  /** Realised loss of the labelled decisions. */
  readonly loss: number;
  /** `loss / labelled`, `null` when nothing is labelled. */
  readonly lossPerDecision: number | null;
  /** Mean recorded expected loss, `null` when none is recorded. */
  readonly expectedLossPerDecision: number | null;
}

/** Options for {@linkcode lossByDay}. */
export interface LossByDayOptions {
  /** Profile that prices realised loss. Default: the shipped `reconciliation`. */
  profile?: CostProfile;
  /** Cost matrix. Default: {@linkcode CONSEQUENCE_MATRIX}. */
  matrix?: CostMatrix;
}

/**
 * Error rate and loss per decision, day by day: the two lines an
 * "errors flat, cost rising" month draws apart.
 *
 * @param cols The ledger in columns.
 * @param options Profile and matrix.
 * @returns One row per UTC day with served decisions, in order. O(n).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerColumns } from "./columns.ts";
 * import { lossByDay } from "./drift.ts";
 *
 * assert.deepEqual(lossByDay(ledgerColumns([])), []);
 * ```
 */
export function lossByDay(
  cols: LedgerColumns,
  options: LossByDayOptions = {},
): DayLoss[] {
  const costs = answerCosts(
    cols,
    options.profile ?? getProfile("reconciliation"),
    options.matrix ?? CONSEQUENCE_MATRIX,
  );
  const days = new Map<
    string,
    {
      decisions: number;
      labelled: number;
      errors: number;
      loss: number;
      el: number;
      nEl: number;
    }
  >();
  for (let j = 0; j < cols.answers; j++) {
    if (!cols.answerServed[j]) continue;
    const day = new Date(cols.answerAt[j]).toISOString().slice(0, 10);
    let d = days.get(day);
    if (d === undefined) {
      d = { decisions: 0, labelled: 0, errors: 0, loss: 0, el: 0, nEl: 0 };
      days.set(day, d);
    }
    d.decisions++;
    if (!Number.isNaN(cols.answerExpectedLoss[j])) {
      d.el += cols.answerExpectedLoss[j];
      d.nEl++;
    }
    const cost = cols.answerAction[j] === 1 ? costs.escalate[j] : costs.auto[j];
    const w = costs.wrong[j];
    if (Number.isNaN(cost) || Number.isNaN(w)) continue;
    d.labelled++;
    d.errors += w;
    d.loss += cost;
  }
  return [...days.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([day, d]) => ({
      day,
      decisions: d.decisions,
      labelled: d.labelled,
      errors: d.errors,
      errorRate: d.labelled === 0 ? null : d.errors / d.labelled,
      loss: d.loss,
      lossPerDecision: d.labelled === 0 ? null : d.loss / d.labelled,
      expectedLossPerDecision: d.nEl === 0 ? null : d.el / d.nEl,
    }));
}
