/**
 * A constructed pair of models whose accuracy and loss rankings disagree
 * under a given non-flat profile: the divergence theorem's witness.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import type { StatsRow } from "../metrics/sufficient_stats.ts";
import { cmp, mul, rat } from "./_rational.ts";

/** Options for {@linkcode disagreeingPair}. */
export interface DisagreeingPairOptions {
  /** Decisions per model (and per severity used). Default: the smallest that fits the errors, at least 10. */
  n?: number;
}

/** The witness: two models' statistics and how they were built. */
export interface DisagreeingPair {
  /** Statistics of model `"accurate"` and model `"cheap"`, all automatic. */
  readonly stats: readonly StatsRow[];
  /** Severity with the highest K, where the accurate model errs. */
  readonly costly: Severity;
  /** Severity with the lowest K, where the cheap model errs. */
  readonly cheap: Severity;
  /** Misses of the accurate model, all on `costly`. */
  readonly accurateErrors: number;
  /** Misses of the cheap model, all on `cheap`; one more than the accurate model's. */
  readonly cheapErrors: number;
}

/**
 * Construct two models that the accuracy ranking and the loss ranking order
 * oppositely under a non-flat profile.
 *
 * With K(hi) > K(lo) the highest and lowest K of the profile, model
 * "accurate" misses a exceptions at severity hi and model "cheap" misses a +
 * 1 at severity lo, every other decision right, both on the same number of
 * decisions per severity. Accuracy prefers "accurate"; the loss is a·K(hi)
 * against (a + 1)·K(lo), which prefers "cheap" as soon as a > K(lo) / (K(hi)
 * − K(lo)): a = floor(K(lo) / (K(hi) − K(lo))) + 1 does. Every error is a
 * miss, so the strict and consequence matrices agree. Under a flat profile no
 * such pair exists (the flat-cost theorem), and the function refuses.
 *
 * @param profile A profile whose K is not the same at every severity.
 * @param options Decisions per model.
 * @returns The statistics and the construction.
 * @throws {RangeError} When the profile is flat, or `n` is too small for the errors.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { accuracy } from "../metrics/accuracy.ts";
 * import { realisedLoss } from "../metrics/loss.ts";
 * import { forModel } from "../metrics/sufficient_stats.ts";
 * import { disagreeingPair } from "./disagreeing_pair.ts";
 *
 * const { stats } = disagreeingPair(getProfile("reconciliation"));
 * const [acc, cheap] = [forModel(stats, "accurate"), forModel(stats, "cheap")];
 * assert.ok(accuracy(acc).value! > accuracy(cheap).value!);
 * const recon = getProfile("reconciliation");
 * assert.ok(realisedLoss(acc, recon)! > realisedLoss(cheap, recon)!);
 * assert.throws(() => disagreeingPair(getProfile("flat")), /flat/);
 * ```
 */
export function disagreeingPair(
  profile: CostProfile,
  options: DisagreeingPairOptions = {},
): DisagreeingPair {
  let hi: Severity = "LOW";
  let lo: Severity = "LOW";
  for (const s of SEVERITIES) {
    if (profile.K[s] > profile.K[hi]) hi = s;
    if (profile.K[s] < profile.K[lo]) lo = s;
  }
  const kHi = profile.K[hi];
  const kLo = profile.K[lo];
  if (!(kHi > kLo)) {
    throw new RangeError(
      `Cannot construct a disagreeing pair under "${profile.id}": the profile is flat (every K is ${kLo}), and under a flat profile loss ranks models as accuracy does`,
    );
  }
  let a = Math.floor(kLo / (kHi - kLo)) + 1;
  // Guard the float division: a·K(hi) > (a + 1)·K(lo) must hold exactly.
  while (
    cmp(mul(rat(a), rat(kHi)), mul(rat(a + 1), rat(kLo))) <= 0 &&
    Number.isSafeInteger(a + 1)
  ) a++;
  if (!Number.isSafeInteger(a + 1)) {
    throw new RangeError(
      `Cannot construct a disagreeing pair under "${profile.id}": K(${hi}) = ${kHi} and K(${lo}) = ${kLo} are too close`,
    );
  }
  const n = options.n ?? Math.max(10, a + 1);
  if (!Number.isInteger(n) || n < a + 1) {
    throw new RangeError(
      `Cannot construct a disagreeing pair under "${profile.id}": n must be an integer >= ${
        a + 1
      }, got ${n}`,
    );
  }
  const rows: StatsRow[] = [];
  const cell = (
    modelId: string,
    severity: Severity,
    predClass: string,
    count: number,
  ) => {
    if (count > 0) {
      rows.push({
        modelId,
        severity,
        trueClass: `EXCEPTION_${severity}`,
        predClass,
        action: "auto",
        n: count,
        pErrorSum: 0,
        pMissing: count,
        parseFailures: 0,
      });
    }
  };
  for (
    const [modelId, at, errors] of [
      ["accurate", hi, a],
      ["cheap", lo, a + 1],
    ] as const
  ) {
    for (const s of [hi, lo]) {
      const e = s === at ? errors : 0;
      cell(modelId, s, "MATCH", e);
      cell(modelId, s, `EXCEPTION_${s}`, n - e);
    }
  }
  return {
    stats: rows,
    costly: hi,
    cheap: lo,
    accurateErrors: a,
    cheapErrors: a + 1,
  };
}
