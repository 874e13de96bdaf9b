// Private: a plain binned expected calibration error, enough for the drift
// monitor. Equal-width bins on [0, 1]; the last bin includes 1. The public,
// fuller calibration toolkit belongs in lib/calibration.

/** Bin of a probability among `bins` equal-width bins. */
export function binOf(p: number, bins: number): number {
  return Math.min(bins - 1, Math.floor(p * bins));
}

/**
 * ECE = Σ_b (n_b / n) |mean(p in b) − mean(y in b)|, over indices
 * [start, end) of p and y; `null` when the range is empty.
 */
export function binnedEce(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  bins: number,
  start = 0,
  end = p.length,
): number | null {
  const n = end - start;
  if (n <= 0) return null;
  const sp = new Float64Array(bins);
  const sy = new Float64Array(bins);
  for (let i = start; i < end; i++) {
    const b = binOf(p[i], bins);
    sp[b] += p[i];
    sy[b] += y[i];
  }
  let ece = 0;
  for (let b = 0; b < bins; b++) ece += Math.abs(sp[b] - sy[b]);
  return ece / n;
}
