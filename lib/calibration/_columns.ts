// Private to lib/calibration and lib/policy: checks on the (p, y) columns
// every statistic takes, with errors that name the offending value.

/** Throw unless `p` holds probabilities in [0, 1] and `y` outcomes in {0, 1} of the same length. */
export function _checkProbabilities(
  what: string,
  p: ArrayLike<number>,
  y: ArrayLike<number>,
): void {
  if (p === null || typeof p !== "object" || typeof p.length !== "number") {
    throw new TypeError(
      `Cannot compute ${what}: p must be an array of numbers, got ${typeof p}`,
    );
  }
  if (y === null || typeof y !== "object" || typeof y.length !== "number") {
    throw new TypeError(
      `Cannot compute ${what}: y must be an array of 0/1 outcomes, got ${typeof y}`,
    );
  }
  if (p.length !== y.length) {
    throw new TypeError(
      `Cannot compute ${what}: p and y must have the same length, got ${p.length} and ${y.length}`,
    );
  }
  for (let i = 0; i < p.length; i++) {
    const v = p[i];
    if (!(v >= 0 && v <= 1)) {
      throw new RangeError(
        `Cannot compute ${what}: p[${i}] must be a probability in [0, 1], got ${v}`,
      );
    }
    const o = y[i];
    if (o !== 0 && o !== 1) {
      throw new RangeError(
        `Cannot compute ${what}: y[${i}] must be 0 or 1, got ${o}`,
      );
    }
  }
}

/** Throw unless `values` has `n` finite, non-negative numbers. */
export function _checkWeights(
  what: string,
  name: string,
  values: ArrayLike<number> | undefined,
  n: number,
): ArrayLike<number> {
  if (
    values === undefined || values === null || typeof values !== "object" ||
    typeof values.length !== "number"
  ) {
    throw new TypeError(
      `Cannot compute ${what}: ${name} must be an array of numbers, got ${
        values === null ? "null" : typeof values
      }`,
    );
  }
  if (values.length !== n) {
    throw new TypeError(
      `Cannot compute ${what}: ${name} must have one value per decision (${n}), got ${values.length}`,
    );
  }
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (!(v >= 0) || !Number.isFinite(v)) {
      throw new RangeError(
        `Cannot compute ${what}: ${name}[${i}] must be a finite number >= 0, got ${v}`,
      );
    }
  }
  return values;
}

/** Throw unless `x` is an integer >= `min`. */
export function _checkInteger(
  what: string,
  name: string,
  x: number,
  min: number,
): number {
  if (!Number.isInteger(x) || x < min) {
    throw new RangeError(
      `Cannot compute ${what}: ${name} must be an integer >= ${min}, got ${x}`,
    );
  }
  return x;
}

/** Throw unless `level` is in (0, 1). */
export function _checkLevel(what: string, name: string, level: number): number {
  if (!(level > 0 && level < 1)) {
    throw new RangeError(
      `Cannot compute ${what}: ${name} must be in (0, 1), got ${level}`,
    );
  }
  return level;
}
