// Private to lib/policy: the sufficient statistics of a threshold sweep.
// Decisions are grouped by distinct score (one native sort, then a binary
// search per decision); each group carries its count, errors and loss. Every
// threshold policy on the score is a prefix of these groups, so a sweep over
// all thresholds is a prefix sum: O(n log n) in all.

/** Decisions grouped by distinct score, ascending. */
export interface _ScoreGroups {
  /** Distinct scores, ascending. */
  readonly score: Float64Array;
  /** Decisions per score. */
  readonly count: Float64Array;
  /** Errors per score. */
  readonly errors: Float64Array;
  /** Loss per score: the exposure of its errors. */
  readonly loss: Float64Array;
  /** Decisions. */
  readonly n: number;
}

/** Throw unless the columns line up and hold valid values. */
export function _checkScored(
  what: string,
  score: ArrayLike<number>,
  error: ArrayLike<number>,
  exposure?: ArrayLike<number>,
  scoreName = "score",
): void {
  if (score.length !== error.length) {
    throw new TypeError(
      `Cannot compute ${what}: ${scoreName} and error must have the same length, got ${score.length} and ${error.length}`,
    );
  }
  if (exposure !== undefined && exposure.length !== score.length) {
    throw new TypeError(
      `Cannot compute ${what}: exposure must have one value per decision (${score.length}), got ${exposure.length}`,
    );
  }
  for (let i = 0; i < score.length; i++) {
    if (!Number.isFinite(score[i])) {
      throw new RangeError(
        `Cannot compute ${what}: ${scoreName}[${i}] must be a finite number, got ${
          score[i]
        }`,
      );
    }
    const e = error[i];
    if (e !== 0 && e !== 1) {
      throw new RangeError(
        `Cannot compute ${what}: error[${i}] must be 0 or 1, got ${e}`,
      );
    }
    if (
      exposure !== undefined &&
      !(exposure[i] >= 0 && Number.isFinite(exposure[i]))
    ) {
      throw new RangeError(
        `Cannot compute ${what}: exposure[${i}] must be a finite number >= 0, got ${
          exposure[i]
        }`,
      );
    }
  }
}

/** Group decisions by distinct score; loss = exposure × error (exposure 1 by default). */
export function _scoreGroups(
  score: ArrayLike<number>,
  error: ArrayLike<number>,
  exposure?: ArrayLike<number>,
): _ScoreGroups {
  const n = score.length;
  const sorted = Float64Array.from(score).sort();
  let d = 0;
  for (let i = 0; i < n; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[d++] = sorted[i];
  }
  const distinct = sorted.slice(0, d);
  const count = new Float64Array(d);
  const errors = new Float64Array(d);
  const lossSum = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    const v = score[i];
    let lo = 0;
    let hi = d - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (distinct[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    count[lo] += 1;
    errors[lo] += error[i];
    if (error[i] === 1) lossSum[lo] += exposure === undefined ? 1 : exposure[i];
  }
  return { score: distinct, count, errors, loss: lossSum, n };
}

/** The cheapest prefix of the groups to serve automatically. */
export interface _Optimum {
  /** Groups served automatically (a prefix); 0 escalates everything. */
  readonly groups: number;
  /** Decisions served automatically. */
  readonly autoServed: number;
  /** Errors among them. */
  readonly errors: number;
  /** Their loss. */
  readonly autoLoss: number;
  /** Total cost: auto loss plus reviews. */
  readonly cost: number;
}

/**
 * Scan the prefixes of score groups for the cheapest: serving the j lowest
 * groups costs their loss plus reviewCost for every other decision. Ties go
 * to the larger prefix (fewer reviews).
 */
export function _optimum(g: _ScoreGroups, reviewCost: number): _Optimum {
  let best: _Optimum = {
    groups: 0,
    autoServed: 0,
    errors: 0,
    autoLoss: 0,
    cost: reviewCost * g.n,
  };
  let k = 0;
  let e = 0;
  let l = 0;
  for (let j = 0; j < g.score.length; j++) {
    k += g.count[j];
    e += g.errors[j];
    l += g.loss[j];
    const cost = l + reviewCost * (g.n - k);
    if (cost <= best.cost) {
      best = { groups: j + 1, autoServed: k, errors: e, autoLoss: l, cost };
    }
  }
  return best;
}

/** Throw unless the review cost is a finite number >= 0. */
export function _checkReviewCost(what: string, reviewCost: number): number {
  if (!(reviewCost >= 0) || !Number.isFinite(reviewCost)) {
    throw new RangeError(
      `Cannot compute ${what}: reviewCost must be a finite number >= 0, got ${reviewCost}`,
    );
  }
  return reviewCost;
}
