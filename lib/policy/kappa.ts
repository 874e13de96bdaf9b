/**
 * Judge agreement: Cohen's kappa with a confidence interval, and the map
 * from kappa to the judge error rate p_j that enters p*.
 *
 * @module
 */

import { normalQuantile } from "../math/normal_quantile.ts";

/** Cohen's kappa with its interval. */
export interface Kappa {
  /** κ = (p_o − p_e)/(1 − p_e); `null` when undefined (no items, or p_e = 1). */
  readonly kappa: number | null;
  /** Observed agreement p_o. */
  readonly observed: number | null;
  /** Agreement expected by chance from the marginals, p_e. */
  readonly expected: number | null;
  /** Items rated by both. */
  readonly n: number;
  /** Categories seen, sorted. */
  readonly categories: readonly string[];
  /** Large-sample standard error of κ (Fleiss, Cohen & Everitt 1969); `null` when undefined. */
  readonly standardError: number | null;
  /** Lower bound, clipped to [−1, 1]; `null` when undefined. */
  readonly lo: number | null;
  /** Upper bound, clipped to [−1, 1]; `null` when undefined. */
  readonly hi: number | null;
  /** Confidence level. */
  readonly level: number;
  /** How the interval was computed. */
  readonly method: "asymptotic (Fleiss, Cohen & Everitt 1969)";
}

/**
 * Cohen's kappa between two raters, with a large-sample confidence interval.
 *
 * κ = (p_o − p_e)/(1 − p_e), where p_o is the share of items both raters
 * label alike and p_e the agreement expected from their marginals alone
 * (Cohen 1960); it equals scikit-learn's `cohen_kappa_score`. The standard
 * error is the non-null large-sample formula of Fleiss, Cohen & Everitt
 * (1969), sqrt(A + B − C)/((1 − p_e)√n), and the interval κ ± z·se, clipped
 * to [−1, 1]. The seed reports 0.3672 for a local judge and 0.9037 for a
 * frontier judge against the same labels after a rubric fix. Cost: O(n +
 * categories²).
 *
 * @param a First rater's label per item.
 * @param b Second rater's label per item (for example the gold label).
 * @param options Confidence level. Default: 0.95.
 * @returns κ, p_o, p_e, the standard error and the interval.
 * @throws {RangeError} When the level is outside (0, 1).
 * @throws {TypeError} When the two columns differ in length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cohensKappa } from "./kappa.ts";
 *
 * const judge = ["pass", "pass", "fail", "fail", "pass", "fail", "pass", "pass"];
 * const gold = ["pass", "pass", "fail", "pass", "pass", "fail", "fail", "pass"];
 * const k = cohensKappa(judge, gold);
 * // p_o = 6/8; p_e = (5/8)(5/8) + (3/8)(3/8) = 34/64
 * assert.ok(Math.abs(k.kappa! - (0.75 - 34 / 64) / (1 - 34 / 64)) < 1e-12);
 * assert.ok(k.lo! < k.kappa! && k.kappa! < k.hi!);
 * ```
 */
export function cohensKappa(
  a: ArrayLike<string | number | boolean>,
  b: ArrayLike<string | number | boolean>,
  options: { level?: number } = {},
): Kappa {
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot compute Cohen's kappa: level must be in (0, 1), got ${level}`,
    );
  }
  if (a.length !== b.length) {
    throw new TypeError(
      `Cannot compute Cohen's kappa: the two raters must rate the same items, got ${a.length} and ${b.length} labels`,
    );
  }
  const n = a.length;
  const cats = new Set<string>();
  for (let i = 0; i < n; i++) {
    cats.add(String(a[i]));
    cats.add(String(b[i]));
  }
  const categories = [...cats].sort();
  const index = new Map(categories.map((c, i) => [c, i]));
  const m = categories.length;
  const table = Array.from({ length: m }, () => new Float64Array(m));
  for (let i = 0; i < n; i++) {
    table[index.get(String(a[i]))!][index.get(String(b[i]))!]++;
  }
  const empty = {
    kappa: null,
    observed: null,
    expected: null,
    n,
    categories,
    standardError: null,
    lo: null,
    hi: null,
    level,
    method: "asymptotic (Fleiss, Cohen & Everitt 1969)" as const,
  };
  if (n === 0) return empty;
  const row = new Float64Array(m);
  const col = new Float64Array(m);
  let po = 0;
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) {
      const p = table[i][j] / n;
      row[i] += p;
      col[j] += p;
      if (i === j) po += p;
    }
  }
  let pe = 0;
  for (let i = 0; i < m; i++) pe += row[i] * col[i];
  if (pe >= 1) return { ...empty, observed: po, expected: pe };
  const kappa = (po - pe) / (1 - pe);
  let A = 0;
  let B = 0;
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) {
      const p = table[i][j] / n;
      if (i === j) A += p * (1 - (row[i] + col[i]) * (1 - kappa)) ** 2;
      else B += p * (col[i] + row[j]) ** 2;
    }
  }
  B *= (1 - kappa) ** 2;
  const C = (kappa - pe * (1 - kappa)) ** 2;
  const se = Math.sqrt(Math.max(0, A + B - C)) / ((1 - pe) * Math.sqrt(n));
  const z = normalQuantile((1 + level) / 2);
  return {
    kappa,
    observed: po,
    expected: pe,
    n,
    categories,
    standardError: se,
    lo: Math.max(-1, kappa - z * se),
    hi: Math.min(1, kappa + z * se),
    level,
    method: "asymptotic (Fleiss, Cohen & Everitt 1969)",
  };
}

/** Options for the kappa–p_j map. */
export interface KappaMapOptions {
  /** Share π of items whose gold label is positive, in (0, 1). Default: 0.5. */
  prevalence?: number;
}

function _prevalence(what: string, options: KappaMapOptions): number {
  const p = options.prevalence ?? 0.5;
  if (!(p > 0 && p < 1)) {
    throw new RangeError(
      `Cannot compute ${what}: prevalence must be in (0, 1), got ${p}`,
    );
  }
  return p;
}

/**
 * Cohen's kappa of a judge with error rate p_j against gold labels, under
 * the assumptions of {@linkcode judgeErrorFromKappa}:
 * κ = 2π(1 − π)(1 − 2p_j) / (2π(1 − π) + p_j(1 − 2π)²).
 *
 * @param pj The judge's error rate, in [0, 1].
 * @param options Prevalence π. Default: 0.5.
 * @returns κ.
 * @throws {RangeError} When p_j is outside [0, 1] or π outside (0, 1).
 *
 * @example At π = 1/2, κ = 1 − 2p_j
 * ```ts
 * import assert from "node:assert/strict";
 * import { kappaFromJudgeError } from "./kappa.ts";
 *
 * assert.ok(Math.abs(kappaFromJudgeError(0.1) - 0.8) < 1e-12);
 * ```
 */
export function kappaFromJudgeError(
  pj: number,
  options: KappaMapOptions = {},
): number {
  const what = "a kappa from a judge error rate";
  const pi = _prevalence(what, options);
  if (!(pj >= 0 && pj <= 1)) {
    throw new RangeError(
      `Cannot compute ${what}: pj must be in [0, 1], got ${pj}`,
    );
  }
  const a = 2 * pi * (1 - pi);
  const c = (1 - 2 * pi) ** 2;
  return (a * (1 - 2 * pj)) / (a + pj * c);
}

/**
 * The judge error rate p_j that a measured kappa implies, for p* = p_j + C_e/C_r.
 *
 * Kappa measures agreement beyond chance; p* needs the probability that the
 * judge is wrong. The map between them holds only under assumptions, which
 * this states: (1) the reference labels are the truth (kappa is measured
 * against gold, not against another fallible judge); (2) labels are binary
 * (pass/fail, right/wrong skill); (3) the judge errs at the same rate p_j on
 * both classes, independently of the item; (4) the gold prevalence π is
 * known; (5) kappa and p_j refer to the same population, the escalated set
 * where the judge is used (the Veto Frontier measures p_j there). Then the
 * judge's positive rate is π(1 − p_j) + (1 − π)p_j, p_o = 1 − p_j, and
 * solving κ(p_j) gives p_j = a(1 − κ)/(2a + κc) with a = 2π(1 − π) and
 * c = (1 − 2π)²; at π = 1/2, p_j = (1 − κ)/2. So `third-number`'s 0.3672 and
 * 0.9037 mean p_j ≈ 0.316 and ≈ 0.048 at balanced prevalence: the local
 * judge is wrong about once in three and lifts p* by 0.27 over the
 * frontier judge. Cost: O(1).
 *
 * @param kappa A measured kappa, between κ(p_j = 1) and 1.
 * @param options Prevalence π. Default: 0.5.
 * @returns p_j in [0, 1].
 * @throws {RangeError} When kappa is outside the range the model can produce or π outside (0, 1).
 *
 * @example The two judges of `third-number`
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeErrorFromKappa } from "./kappa.ts";
 *
 * assert.ok(Math.abs(judgeErrorFromKappa(0.3672) - 0.3164) < 1e-12);
 * assert.ok(Math.abs(judgeErrorFromKappa(0.9037) - 0.04815) < 1e-12);
 * ```
 */
export function judgeErrorFromKappa(
  kappa: number,
  options: KappaMapOptions = {},
): number {
  const what = "a judge error rate from kappa";
  const pi = _prevalence(what, options);
  const a = 2 * pi * (1 - pi);
  const c = (1 - 2 * pi) ** 2;
  const lowest = -a / (a + c);
  if (!(kappa >= lowest - 1e-12 && kappa <= 1)) {
    throw new RangeError(
      `Cannot compute ${what}: kappa must be in [${lowest}, 1] at prevalence ${pi}, got ${kappa}`,
    );
  }
  return Math.min(1, Math.max(0, (a * (1 - kappa)) / (2 * a + kappa * c)));
}
