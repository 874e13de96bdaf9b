/**
 * The veto frontier's sign test: does escalating below a margin threshold
 * beat always serving automatically?
 *
 * @module
 */

import { wilsonInterval } from "../math/rate.ts";
import { clopperPearsonInterval } from "../math/clopper_pearson.ts";

/** Options for {@linkcode signTest}. */
export interface SignTestOptions {
  /** The threshold c: escalate iff margin ≤ c. Required. */
  threshold: number;
  /** The break-even p* the escalated error rate must beat. Required. */
  pStar: number;
  /** Confidence level. Default: 0.95. */
  level?: number;
  /** Interval. Default: `"clopper-pearson"` (exact; the set is often small). */
  method?: "clopper-pearson" | "wilson";
}

/** What the sign test says about a threshold. */
export type SignVerdict =
  | "beats always-auto"
  | "loses to always-auto"
  | "inconclusive";

/** The sign test of one threshold. */
export interface SignTest {
  /** The threshold c. */
  readonly threshold: number;
  /** p*. */
  readonly pStar: number;
  /** Queries escalated (margin ≤ c). */
  readonly escalated: number;
  /** Router errors among them. */
  readonly escalatedErrors: number;
  /** r(c) = escalatedErrors / escalated; `null` when nothing is escalated. */
  readonly rate: number | null;
  /** Interval on r(c); `null` when nothing is escalated. */
  readonly lo: number | null;
  /** Upper bound of the interval; `null` when nothing is escalated. */
  readonly hi: number | null;
  /** Confidence level. */
  readonly level: number;
  /** Interval method. */
  readonly method: "clopper-pearson" | "wilson";
  /**
   * `beats always-auto` when the whole interval is above p*, `loses to
   * always-auto` when it is below, `inconclusive` otherwise or when nothing
   * is escalated.
   */
  readonly verdict: SignVerdict;
}

/**
 * The sign test of a margin threshold: escalating the queries with margin ≤ c
 * beats always-auto iff their error rate r(c) exceeds p*.
 *
 * Escalating k queries changes the cost per query by k·C_r·(p* − r(c))/n,
 * so only the sign of r(c) − p* matters; the Veto Frontier makes this its
 * validation stage 4, read on a small golden set (n = 63), where the
 * magnitude is not estimable but the sign may be. The interval is
 * Clopper–Pearson (exact) by default or Wilson; the verdict is decided only
 * when the interval clears p*. Cost: O(n).
 *
 * @param margin Confidence margin per query.
 * @param error 1 when the automatic answer was wrong.
 * @param options Threshold c and p* (both required), level and interval method.
 * @returns r(c) with its interval and the verdict.
 * @throws {RangeError} When a margin is not finite, an error flag is not 0/1, or p* or the level is out of range.
 * @throws {TypeError} When the columns differ in length.
 *
 * @example 9 errors among 12 low-margin queries clear p* = 0.3
 * ```ts
 * import assert from "node:assert/strict";
 * import { signTest } from "./sign_test.ts";
 *
 * const margin = Array.from({ length: 63 }, (_, i) => i / 1000);
 * const error = margin.map((_, i) => (i < 12 ? (i % 4 === 3 ? 0 : 1) : i % 10 === 0 ? 1 : 0));
 * const t = signTest(margin, error, { threshold: 0.011, pStar: 0.3 });
 * assert.deepEqual([t.escalated, t.escalatedErrors], [12, 9]);
 * assert.equal(t.verdict, "beats always-auto");
 * ```
 */
export function signTest(
  margin: ArrayLike<number>,
  error: ArrayLike<number>,
  options: SignTestOptions,
): SignTest {
  const what = "a sign test";
  const { threshold, pStar } = options ?? ({} as SignTestOptions);
  const level = options.level ?? 0.95;
  const method = options.method ?? "clopper-pearson";
  if (typeof threshold !== "number" || Number.isNaN(threshold)) {
    throw new RangeError(
      `Cannot compute ${what}: threshold must be a number, got ${threshold}`,
    );
  }
  if (!(pStar >= 0) || !Number.isFinite(pStar)) {
    throw new RangeError(
      `Cannot compute ${what}: pStar must be a finite number >= 0, got ${pStar}`,
    );
  }
  if (margin.length !== error.length) {
    throw new TypeError(
      `Cannot compute ${what}: margin and error must have the same length, got ${margin.length} and ${error.length}`,
    );
  }
  let k = 0;
  let e = 0;
  for (let i = 0; i < margin.length; i++) {
    const m = margin[i];
    if (!Number.isFinite(m)) {
      throw new RangeError(
        `Cannot compute ${what}: margin[${i}] must be a finite number, got ${m}`,
      );
    }
    const err = error[i];
    if (err !== 0 && err !== 1) {
      throw new RangeError(
        `Cannot compute ${what}: error[${i}] must be 0 or 1, got ${err}`,
      );
    }
    if (m <= threshold) {
      k++;
      e += err;
    }
  }
  const ci = method === "wilson"
    ? wilsonInterval(e, k, { level })
    : clopperPearsonInterval(e, k, { level });
  const verdict: SignVerdict = ci === null
    ? "inconclusive"
    : ci.lo > pStar
    ? "beats always-auto"
    : ci.hi < pStar
    ? "loses to always-auto"
    : "inconclusive";
  return {
    threshold,
    pStar,
    escalated: k,
    escalatedErrors: e,
    rate: k === 0 ? null : e / k,
    lo: ci?.lo ?? null,
    hi: ci?.hi ?? null,
    level,
    method,
    verdict,
  };
}
