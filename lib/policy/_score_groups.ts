// Private to lib/policy: the sufficient statistics of a threshold sweep.
// Decisions are grouped by distinct score (one sort: a radix sort of the
// scores' bit patterns, then one pass); each group carries its count, errors
// and loss. Every threshold policy on the score is a prefix of these groups,
// so a sweep over all thresholds is a prefix sum: O(n log n) or better.

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

/**
 * Indices that sort finite numbers ascending: an LSD radix sort on the
 * 64-bit patterns (sign-adjusted so that unsigned order is numeric order,
 * −0 equal to +0), four 16-bit passes, a pass skipped when every key shares
 * its digit. O(n); the sorted keys come back too, so equal values can be
 * recognised without reading the input again.
 */
export function _argsort(
  values: ArrayLike<number>,
): { order: Uint32Array; hi: Uint32Array; lo: Uint32Array } {
  const n = values.length;
  const f = new Float64Array(n);
  for (let i = 0; i < n; i++) f[i] = values[i];
  const w = new Uint32Array(f.buffer);
  let lo = new Uint32Array(n);
  let hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let l = w[2 * i];
    let h = w[2 * i + 1];
    if (f[i] === 0) {
      l = 0;
      h = 0x80000000;
    } else if (h & 0x80000000) {
      l = ~l >>> 0;
      h = ~h >>> 0;
    } else {
      h = (h | 0x80000000) >>> 0;
    }
    lo[i] = l;
    hi[i] = h;
  }
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let lo2 = new Uint32Array(n);
  let hi2 = new Uint32Array(n);
  let order2 = new Uint32Array(n);
  const count = new Uint32Array(65536);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass < 2 ? lo : hi;
    const shift = (pass % 2) * 16;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(word[i] >>> shift) & 0xffff]++;
    let used = 0;
    for (let d = 0; d < 65536 && used < 2; d++) if (count[d] > 0) used++;
    if (used < 2) continue;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const j = count[(word[i] >>> shift) & 0xffff]++;
      lo2[j] = lo[i];
      hi2[j] = hi[i];
      order2[j] = order[i];
    }
    [lo, lo2] = [lo2, lo];
    [hi, hi2] = [hi2, hi];
    [order, order2] = [order2, order];
  }
  return { order, hi, lo };
}

/**
 * Group decisions by distinct score, ascending: one radix sort, then one
 * pass that opens a group wherever the sorted key changes. Loss = exposure
 * × error (exposure 1 by default).
 */
export function _scoreGroups(
  score: ArrayLike<number>,
  error: ArrayLike<number>,
  exposure?: ArrayLike<number>,
): _ScoreGroups {
  const n = score.length;
  const { order, hi, lo } = _argsort(score);
  let d = 0;
  for (let i = 0; i < n; i++) {
    if (i === 0 || hi[i] !== hi[i - 1] || lo[i] !== lo[i - 1]) d++;
  }
  const distinct = new Float64Array(d);
  const count = new Float64Array(d);
  const errors = new Float64Array(d);
  const lossSum = new Float64Array(d);
  let g = -1;
  for (let i = 0; i < n; i++) {
    const k = order[i];
    if (i === 0 || hi[i] !== hi[i - 1] || lo[i] !== lo[i - 1]) {
      g++;
      distinct[g] = score[k] === 0 ? 0 : score[k];
    }
    count[g] += 1;
    const e = error[k];
    if (e === 1) {
      errors[g] += 1;
      lossSum[g] += exposure === undefined ? 1 : exposure[k];
    }
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
